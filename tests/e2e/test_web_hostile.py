"""Hostile pages against the real runner and real Chromium: caps, dedup, totality, a page that navigates away,
a page that breaks the walk, page exceptions → warning, a hung main thread → COMMAND_TIMED_OUT → RUNNER_BUSY →
RUNNER_WEDGED → drained, and a browser killed under the runner → a new browser, stateReset."""

from __future__ import annotations

import math
import os
import shutil
import signal
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from procs import alive
from web_runner import HostileSite, RunnerProc, runner_process

from phonewire.devices.web.browser import remove_stale_profiles
from phonewire.protocol import errors as e
from phonewire.protocol.snapshot import EMIT_DEPTH_CAP, NODE_CAP

pytestmark = [pytest.mark.e2e, pytest.mark.skipif(shutil.which("chromium") is None, reason="needs Chromium")]


@pytest.fixture(scope="module")
def runner() -> Iterator[RunnerProc]:
    with runner_process("web") as proc:
        yield proc


def launch(runner: RunnerProc, url: str) -> None:
    assert runner.ok("launchApp", url)["state"] == "foreground"


def wait_status(runner: RunnerProc, state: str, limit_s: float = 60) -> dict[str, Any]:
    """Poll status (answered outside the execution queue) until the gate reports ``state``."""
    deadline = time.monotonic() + limit_s
    while True:
        data = runner.ok("status")
        if data["state"] == state or time.monotonic() > deadline:
            assert data["state"] == state, data
            return data
        time.sleep(0.05)


def test_more_than_1500_visible_nodes_degrade_with_node_cap(runner: RunnerProc, hostile_site: HostileSite) -> None:
    url = hostile_site.url("many.html")
    launch(runner, url)
    data = runner.ok("snapshot", url)
    assert len(data["nodes"]) == NODE_CAP
    assert data["quality"]["state"] == "degraded" and data["quality"]["reasonCode"] == "node_cap"


def test_same_type_texts_and_geometry_are_one_node(runner: RunnerProc, hostile_site: HostileSite) -> None:
    url = hostile_site.url("dup.html")
    launch(runner, url)
    labels = [n["label"] for n in runner.ok("snapshot", url)["nodes"] if n["type"] == "Button"]
    assert sorted(labels) == ["Other", "Same"]


def test_geometry_less_and_absurd_nodes_stay_total(runner: RunnerProc, hostile_site: HostileSite) -> None:
    url = hostile_site.url("geometryless.html")
    launch(runner, url)
    data = runner.ok("snapshot", url)
    by_id = {n["identifier"]: n for n in data["nodes"] if n["identifier"]}
    # a control laid out as display: contents is where its content shows ("inside"), not at a zero box
    box = by_id["contents"]["rect"]
    assert box["width"] > 0 and box["height"] > 0, box
    assert by_id["contents"]["type"] == "Button" and by_id["contents"]["label"] == "No box"
    assert "visible" in by_id and "far" not in by_id
    for n in data["nodes"]:
        assert all(math.isfinite(v) for v in n["rect"].values())
    assert data["quality"]["state"] == "healthy"


def test_deep_nesting_is_emitted_to_depth_60_and_stays_healthy(runner: RunnerProc, hostile_site: HostileSite) -> None:
    url = hostile_site.url("deep.html")
    launch(runner, url)
    data = runner.ok("snapshot", url)
    assert max(n["depth"] for n in data["nodes"]) == EMIT_DEPTH_CAP
    assert data["quality"]["state"] == "healthy"


def test_a_tap_that_navigates_away_succeeds_and_the_next_snapshot_shows_the_new_page(
    runner: RunnerProc, hostile_site: HostileSite
) -> None:
    url = hostile_site.url("navigate.html")
    launch(runner, url)
    assert runner.ok("tap", url, x=140, y=80)
    ids = {n["identifier"] for n in runner.ok("snapshot", url)["nodes"]}
    assert "arrived" in ids and "leave" not in ids


def test_a_page_that_breaks_the_walk_answers_snapshot_failed(runner: RunnerProc, hostile_site: HostileSite) -> None:
    url = hostile_site.url("broken.html")
    launch(runner, url)
    assert runner.code("snapshot", url) == e.SNAPSHOT_FAILED
    assert runner.ok("viewport", url)["width"] > 0  # the runner keeps serving


def test_page_exception_during_a_tap_stamps_a_warning(runner: RunnerProc, hostile_site: HostileSite) -> None:
    url = hostile_site.url("throw.html")
    launch(runner, url)
    before = runner.ok("status")["suppressedIssues"]
    reply = runner.send("tap", url, x=140, y=80)
    assert reply["ok"] is True and isinstance(reply.get("warning"), str)
    assert runner.ok("status")["suppressedIssues"] == before + 1
    quiet = runner.send("viewport", url)
    assert "warning" not in quiet


def test_hung_main_thread_times_out_then_busy_then_wedged_then_drains(hostile_site: HostileSite) -> None:
    # Time scale 0.01: snapshot budget 0.3 s, tap 0.75 s, wedge threshold 1.2 s; the page blocks for 5 s, and its
    # script is stopped at the page-script budget (2.5 s, never scaled down: pages.PAGE_SCRIPT_BUDGET_S), so the
    # gate is wedged from 1.2 s until the abandoned tap drains at 2.5 s (polled every 50 ms).
    url = hostile_site.url("block.html?s=5")
    with runner_process("web", scale=0.01) as runner:
        first = runner.send("launchApp", url)
        if not first["ok"]:  # a slow machine: the launch outlived its short budget; let it finish
            wait_status(runner, "idle")
        assert {a["appBundleId"]: a["state"] for a in runner.ok("listApps")["apps"]}[url] == "foreground"
        tapped = runner.send("tap", url, x=140, y=80)
        hung = tapped if not tapped["ok"] else runner.send("snapshot", url)
        assert hung["ok"] is False and hung["error"]["code"] == e.COMMAND_TIMED_OUT
        assert runner.code("viewport", url) == e.RUNNER_BUSY
        wait_status(runner, "wedged")
        assert runner.code("viewport", url) == e.RUNNER_WEDGED
        wait_status(runner, "idle")  # the page's 5 s are over: the abandoned work drained
        runner.ok("tap", url, x=140, y=200)
        labels = [n["label"] for n in runner.ok("snapshot", url)["nodes"]]
        assert "taps 1" in labels


def test_a_browser_killed_under_the_runner_is_replaced_and_the_reply_says_state_was_reset() -> None:
    """Issue 15 item 3: after Chromium was killed every command used to answer DEVICE_UNAVAILABLE for good."""
    with runner_process("web") as runner:
        runner.ok("launchApp", "dev.phonewire.demo")
        old_pid = runner.ok("status")["device"]["browserPid"]
        os.kill(old_pid, signal.SIGKILL)  # the browser this test's runner started
        deadline = time.monotonic() + 10
        while runner.ok("status")["deviceHealth"] is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert runner.ok("status")["deviceHealth"]
        lost = runner.send("snapshot", "dev.phonewire.demo")
        assert lost["ok"] is False and lost["error"]["code"] == e.APP_NOT_AVAILABLE
        assert lost["stateReset"] is True and "restarted" in lost["error"]["message"]
        status = runner.ok("status")
        assert status["deviceHealth"] is None and status["deviceRestarts"] == 1
        assert status["device"]["browserPid"] != old_pid and not alive(old_pid)
        # The new browser serves the app again, and only that first reply said stateReset.
        relaunched = runner.send("launchApp", "dev.phonewire.demo")
        assert relaunched["ok"] is True and "stateReset" not in relaunched
        labels = [n["label"] for n in runner.ok("snapshot", "dev.phonewire.demo")["nodes"]]
        assert any(label and label.startswith("Like") for label in labels)


def test_a_sigkilled_runner_takes_its_browser_with_it_and_its_profile_is_reclaimed() -> None:
    with runner_process("web") as runner:
        pid = runner.ok("status")["device"]["browserPid"]
        assert alive(pid)
        os.kill(runner.proc.pid, signal.SIGKILL)  # the runner this test started
        runner.proc.wait(10)
        deadline = time.monotonic() + 10
        while alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(pid)
        # Nobody was left to remove its profile directory, so the next browser launch does (maybe another
        # test's, already: the directory may be gone before this line).
        remove_stale_profiles()
        assert list(Path(tempfile.gettempdir()).glob(f"phonewire-chromium-{runner.proc.pid}-*")) == []


def test_profile_from_the_device_spec_and_shutdown_closes_the_browser() -> None:
    with runner_process("web:pixel-7-landscape") as runner:
        device = runner.ok("status")["device"]
        assert device["profile"] == "pixel-7-landscape" and device["orientation"] == "landscape"
        runner.ok("launchApp", "dev.phonewire.demo")
        assert runner.ok("viewport", "dev.phonewire.demo") == {"x": 0, "y": 0, "width": 915, "height": 412}
        pid = device["browserPid"]
        profiles = list(Path(tempfile.gettempdir()).glob(f"phonewire-chromium-{runner.proc.pid}-*"))
        assert len(profiles) == 1
        assert runner.send("shutdown")["ok"] is True
        assert runner.proc.wait(20) == 0
        assert not alive(pid) and not profiles[0].exists()


@pytest.mark.parametrize(
    "url",
    ["file:///etc/passwd", "javascript:document.title='x'", "data:text/html,<h1>hi</h1>", "chrome://version",
     "view-source:http://127.0.0.1/", "FILE:///etc/passwd", " file:///etc/passwd"],
)  # fmt: skip
def test_open_url_opens_web_urls_only(runner: RunnerProc, url: str) -> None:
    assert runner.code("openUrl", url=url) == e.APP_UNKNOWN


def test_a_page_cannot_show_host_files_or_browser_pages_on_the_phone(
    runner: RunnerProc, hostile_site: HostileSite
) -> None:
    url = hostile_site.url("local.html")
    launch(runner, url)
    for y in (45, 115, 185, 255):  # each link and button of the page
        runner.ok("launchApp", url)
        runner.ok("tap", url, x=140, y=y)
        apps = runner.ok("listApps")["apps"]
        assert all(str(a["appBundleId"]).startswith(("http://", "dev.phonewire")) for a in apps), apps
        texts = " ".join(str(n.get("label") or n.get("value") or "") for n in runner.ok("snapshot", url)["nodes"])
        assert "root:x:0:0" not in texts and "Command Line" not in texts
    # the control: a web page the same way does open as the app's new screen (so the taps above did land)
    runner.ok("launchApp", url)
    runner.ok("tap", url, x=140, y=325)
    deadline = time.monotonic() + 10
    while "second" not in {n.get("identifier") for n in runner.ok("snapshot", url)["nodes"]}:
        assert time.monotonic() < deadline, "the web link's new screen never showed"
        time.sleep(0.1)
