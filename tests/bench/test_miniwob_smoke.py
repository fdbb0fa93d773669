"""Smoke test of the MiniWoB++ harness (bench/bench_miniwob.py): five tasks, one episode each.

Not the benchmark (that is ``bench/bench_miniwob.py`` on all 130 tasks, docs/miniwob-report.md): this checks the
harness itself works — the wheel's pages are served with the injected script, the pages post their inventory
back, coverage and the Playwright baseline are computed, and a click-button episode is solved with a positive
reward read from the screen.  Everything it starts (http server thread, phone runner and browser, Playwright's
browser) is stopped by the harness's own context managers.
"""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import bench_miniwob as wob  # noqa: E402

pytestmark = [pytest.mark.realapp, pytest.mark.e2e]

TASKS = ["click-button", "click-checkboxes", "enter-text", "click-link", "click-shape"]


@pytest.fixture(scope="module")
def html() -> Path:
    return wob.ensure_html()


def test_pages_are_served_with_the_harness_script_and_post_their_inventory(html: Path) -> None:
    store = wob.Inventories()
    with wob.serve(html, store) as base:
        with urllib.request.urlopen(wob.task_url(base, "click-button", "phone", "s"), timeout=10) as r:
            page = r.read().decode()
        assert "__wobListened" in page and "/__wob/inventory" in page and "Click Button Task" in page
        with urllib.request.urlopen(f"{base}/core/core.js", timeout=10) as r:
            assert b"core.startEpisode" in r.read()
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(f"{base}/miniwob/no-such-task.html", timeout=10)
        inv = {"client": "phone", "task": "t", "seq": 1, "started": True, "elements": []}
        req = urllib.request.Request(f"{base}/__wob/inventory", data=json.dumps(inv).encode(), method="POST")
        with urllib.request.urlopen(req, timeout=10) as r:
            assert r.status == 204
    assert store.latest("phone", "t") == inv


def test_coverage_rule() -> None:
    button = {"tag": "button", "text": "OK", "rect": {"x": 10, "y": 10, "width": 40, "height": 20}}
    same_place = {"label": None, "rect": {"x": 11, "y": 10, "width": 38, "height": 20}}
    same_text_wider = {"label": "ok", "rect": {"x": 0, "y": 5, "width": 150, "height": 30}}
    elsewhere = {"label": "OK", "rect": {"x": 100, "y": 100, "width": 40, "height": 20}}
    assert wob.covered_by(button, same_place)
    assert wob.covered_by(button, same_text_wider)
    assert not wob.covered_by(button, elsewhere)
    assert wob.coverage_misses([button], [elsewhere]) == [button]


def test_five_tasks_one_episode(html: Path) -> None:
    results, store = wob.run_benchmark(html, TASKS, episodes=1, seed="smoke", playwright=True)
    by_task = {r.task: r for r in results}
    assert list(by_task) == TASKS
    assert store.received >= len(TASKS)
    for r in results:
        assert not r.note.startswith("harness error"), r.note
        assert r.inventory > 0, r.task  # the page's own inventory arrived
        assert r.chars_full > 0 and r.chars_pw > 0 and r.chars_pw_ai > 0, r.task  # every observation was taken
    # every button of click-button is addressable by a ref of `snapshot -i`
    assert by_task["click-button"].misses == []
    # the episode was solved, and the reward came from the page's own display
    (episode,) = by_task["click-button"].episodes
    assert episode.reward is not None and episode.reward > 0, episode.error
    assert by_task["click-shape"].episodes == []  # no solver: coverage only
    report = wob.table(results, 1) + "\n" + wob.summary(results, 1.0)
    assert report.count("\n| click-") == 4 and "summary: 5 pages" in report
