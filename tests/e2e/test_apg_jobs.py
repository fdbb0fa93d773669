"""The job of each W3C ARIA Authoring Practices example done through the real ``phonewire`` CLI and its daemon, by
taps and fills of elements named by selectors (``find`` / ``scroll`` to reach them), as a phone user would; the
check reads the example's own state in the view (tests/e2e/apg_jobs.py holds the table).  One daemon, one phone and
one loopback site for the module.  By default the representative third (``Job.core``) runs; ``PHONEWIRE_APG_ALL=1``
runs every job (docs/apg.md has the figures)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from aim_site import APG_DIR, ApgSite
from apg_jobs import JOBS, NOT_BY_TAPS, Job, run_job
from cli_harness import Cli, web_cli

pytestmark = pytest.mark.e2e

ALL = os.environ.get("PHONEWIRE_APG_ALL") == "1"
RUN = [job for job in JOBS if ALL or job.core]


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cli]:
    with web_cli(tmp_path_factory, "apg-jobs", "apps") as cli:
        yield cli


@pytest.mark.parametrize("job", RUN, ids=[job.name for job in RUN])
def test_the_example_s_job_is_done_by_taps_through_the_cli(web: Cli, apg_site: ApgSite, job: Job) -> None:
    def call(*argv: str) -> tuple[int, str, str]:
        res = web("--device", "web", *argv)
        return res.code, res.out, res.err

    wrong = run_job(call, apg_site.url(job.example), job)
    assert wrong is None, f"{job.name}:\n{wrong}"


def test_every_example_has_a_job_or_says_why_not() -> None:
    pages = {str(p.relative_to(APG_DIR)) for p in APG_DIR.glob("patterns/*/examples/*.html")}
    jobs = [job.example for job in JOBS]
    assert len(jobs) == len(set(jobs)) and not set(jobs) & set(NOT_BY_TAPS)
    assert pages == set(jobs) | set(NOT_BY_TAPS), sorted(pages ^ (set(jobs) | set(NOT_BY_TAPS)))
    assert 3 * sum(job.core for job in JOBS) >= len(JOBS)
