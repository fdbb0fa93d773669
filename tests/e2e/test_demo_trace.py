"""The newcomer's path of issue 13: the demo run with ``--trace`` (``bash scripts/demo.sh --trace DIR``), its report,
and its export replayed green against a phone with every app closed (the session's runner: no app of the web phone
keeps state past its close) — each a real process on the real web phone."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from web_runner import SharedRunner, attached_env

pytestmark = pytest.mark.e2e


def test_the_demo_with_trace_gives_a_report_and_an_export_that_replays_green(
    tmp_path: Path, shared_runner: SharedRunner
) -> None:
    env = {**os.environ, "PHONEWIRE_STATE_DIR": str(tmp_path / "state")}
    env.pop("PHONEWIRE_RUNNER_ADDR", None)
    trace = tmp_path / "demo-trace"

    def run(*argv: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, *argv], check=False, capture_output=True, text=True, timeout=timeout, env=env,
            cwd=tmp_path,
        )  # fmt: skip

    demo = run("-m", "phonewire.demo", "--out", str(tmp_path / "out"), "--trace", str(trace))
    assert demo.returncode == 0, demo.stdout + demo.stderr
    assert "all checks held" in demo.stdout and f"phonewire trace view {trace}" in demo.stdout

    report = tmp_path / "report.html"
    viewed = run("-m", "phonewire", "trace", "view", str(trace), "-o", str(report))
    assert viewed.returncode == 0, viewed.stdout + viewed.stderr
    html = report.read_text()
    assert "like-1" in html and "Ada Lovelace" in html  # the steps the demo took
    assert "correct horse" not in html  # the password field's text is redacted

    module = tmp_path / "test_demo_flow.py"
    exported = run("-m", "phonewire", "trace", "export", str(trace), "--pytest", str(module))
    assert exported.returncode == 0, exported.stdout + exported.stderr
    source = module.read_text()
    assert "@e" not in source and "correct horse" not in source and "PHONEWIRE_SECRET_1" in source
    unsecret = run("-m", "pytest", "-q", "-p", "no:cacheprovider", str(module))
    assert "1 skipped" in unsecret.stdout, unsecret.stdout  # without the password it says so instead of failing
    env["PHONEWIRE_SECRET_1"] = "correct horse"
    env.update(attached_env(shared_runner.get()))  # the replay records nothing: the session's runner will do
    replay = run("-m", "pytest", "-q", "-p", "no:cacheprovider", str(module))
    assert replay.returncode == 0, replay.stdout + replay.stderr
    assert "1 passed" in replay.stdout
