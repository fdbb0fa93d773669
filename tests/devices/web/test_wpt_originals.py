"""The walker's spec layer on the web-platform-tests' own files for names and roles (issue 23 item 4).

The files are WPT's (https://github.com/web-platform-tests/wpt, 3-Clause BSD: ``wpt/NOTICE.md``), directories
``accname/`` (``name/``, ``manual/``) and ``html-aam/``, read where ``PHONEWIRE_WPT`` points: a checkout of the
repository, or a copy of those directories with their layout.  They are not kept in this repository; without
them the test is skipped and ``test_wpt_conformance.py`` (the same cases restated) stands for it.

Each file is served on loopback as it is (its harness scripts answer 404: only the markup and the page's own scripts
run); its cases are read from its own markup (``wpt_cases.py``), and for each the spec layer's role and name are
held against the expectation, Chromium's accessibility tree and Playwright, in the same run.  The spec layer must be
right on at least 95 % of the cases a person can see, and on every case where Chromium or Playwright is right,
except the named differences in ``INTENDED`` (each with its reason).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import wpt_cases
from web_phone import Phone, requires_chromium

from loopback import serving

ROOT = Path(os.environ.get("PHONEWIRE_WPT", "/nonexistent"))
pytestmark = [
    requires_chromium,
    pytest.mark.skipif(not (ROOT / "accname").is_dir(), reason="PHONEWIRE_WPT names no copy of WPT's accname/"),
]

#: Where Chromium or Playwright is right and the spec layer differs on purpose: a part of the testname → the reason.
INTENDED: dict[str, str] = {
    "hidden button has no name": "2A is the walk's: the spec layer names what the walk asks it to",
    "hidden link has no name": "2A is the walk's: the spec layer names what the walk asks it to",
    "Hidden button's label should be the empty string": "2A is the walk's (as above)",
    "non-breaking space": "a name from content reads U+00A0 as a space: an agent types a name back with spaces "
    "(an author's aria-label keeps it)",
}


def intended(test: str) -> bool:
    return any(part in test for part in INTENDED)


def pages() -> dict[str, list[tuple[str, str]]]:
    """Every file with cases: path under ROOT → its manual cases (none for a file whose markup holds them)."""
    out: dict[str, list[tuple[str, str]]] = {}
    for path in sorted([*ROOT.glob("accname/**/*.html"), *ROOT.glob("html-aam/**/*.html")]):
        html = path.read_text(encoding="utf-8")
        manual = wpt_cases.manual_cases(html)
        if manual or 'class="ex' in html:
            out[path.relative_to(ROOT).as_posix()] = manual
    return out


@pytest.mark.timeout(1800)
def test_spec_layer_conforms_to_wpt_files(phone: Phone) -> None:
    files = pages()
    with serving(ROOT) as base:
        rows = wpt_cases.conformance(phone, base, files)
        wpt_cases.add_playwright(rows, base, files)
    visible = [r for r in rows if r["visible"]]
    right = sum(r["ours"] for r in visible)
    chromium = sum(r["chromium"] for r in visible)
    pw = sum(r["playwright"] for r in visible)
    wrong = [
        (r["case"], r["got"], r["expected"], "chromium" if r["chromium"] else "playwright")
        for r in rows
        if (r["chromium"] or r["playwright"]) and not r["ours"] and not intended(r["test"])
    ]
    print(
        f"\nWPT files: spec layer right on {right}/{len(visible)} visible cases ({right / len(visible):.1%}); "
        f"Chromium {chromium}, Playwright {pw}; {len(rows)} cases in all"
    )
    for r in rows:
        if not r["ours"]:
            print(
                "  ours wrong:",
                r["case"],
                r["got"],
                r["expected"],
                "chromium",
                r["chromium_got"],
                "playwright",
                r["playwright_got"],
                "shown" if r["visible"] else "unseen",
            )
    for case in wrong:
        print("  wrong where another is right:", case)
    assert len(visible) >= 500
    assert wrong == []
    assert right >= 0.95 * len(visible)
