"""One page cannot take the phone (issue 28, finding 4): a page whose own script never ends (``while(true){}`` in a
click handler) holds a command only up to the page-script budget; then its script is stopped
(``Runtime.terminateExecution``), the command answers (a tap: ok, with the warning that the device muted an issue),
the page itself lives on and answers the next tap, and the other apps of the phone keep serving — where the tap used
to hold the runner for its whole 75 s budget and then RUNNER_BUSY / RUNNER_WEDGED for two minutes."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from web_runner import HostileSite, RunnerProc, runner_process

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def runner() -> Iterator[RunnerProc]:
    with runner_process("web") as proc:
        yield proc


def shows(runner: RunnerProc, app: str, label: str) -> bool:
    """Whether a snapshot of ``app`` shows ``label`` within a bounded number of looks (a window still loading)."""
    for _ in range(100):
        if label in [n.get("label") for n in runner.ok("snapshot", app)["nodes"]]:
            return True
        time.sleep(0.1)
    return False


def test_a_page_looping_for_ever_is_stopped_and_the_phone_keeps_serving(
    runner: RunnerProc, hostile_site: HostileSite
) -> None:
    url = hostile_site.url("loop.html")
    assert runner.ok("launchApp", url)["state"] == "foreground"
    looped = runner.send("tap", url, x=140, y=80)
    assert looped["ok"] is True, looped
    assert looped["data"]["hit"] == 'Button "Loop" id=loop'
    assert "muted 1 issue(s)" in looped["warning"]
    assert runner.ok("status")["state"] == "idle"
    runner.ok("tap", url, x=140, y=200)  # the page's own handler still runs
    assert "taps 1" in [n.get("label") for n in runner.ok("snapshot", url)["nodes"]]
    # another app of the same phone is served at once
    assert runner.ok("launchApp", "dev.phonewire.demo")["state"] == "foreground"
    assert any(n.get("identifier") == "like-1" for n in runner.ok("snapshot", "dev.phonewire.demo")["nodes"])


def test_a_page_too_deep_to_lay_out_is_ended_and_reported_as_crashed(
    runner: RunnerProc, hostile_site: HostileSite
) -> None:
    """50,000 nested divs: the renderer's main thread is stuck in layout, where no script runs to stop.  It was
    "ok opened", then 30 s COMMAND_TIMED_OUT, RUNNER_BUSY, and APP_NOT_AVAILABLE with no word of a crash."""
    url = hostile_site.url("heavy/abyss.html")  # not among the pages the walk oracle reads
    opened = runner.send("launchApp", url)
    if opened["ok"]:  # a fast machine laid it out after all: nothing to end
        pytest.skip("this machine's browser laid out 50,000 nested divs within the page budget")
    assert opened["error"]["code"] == "APP_CRASHED", opened
    assert "stopped answering" in opened["error"]["message"] and "was ended" in opened["error"]["message"]
    assert "other apps of the phone are unharmed" in opened["error"]["hint"]
    assert runner.ok("status")["state"] == "idle"
    assert runner.ok("launchApp", "dev.phonewire.demo")["state"] == "foreground"
    assert any(n.get("identifier") == "like-1" for n in runner.ok("snapshot", "dev.phonewire.demo")["nodes"])
    assert url not in {a["appBundleId"] for a in runner.ok("listApps")["apps"] if a["state"] != "notRunning"}


def test_a_page_too_big_to_walk_is_read_in_part_and_the_view_says_it_was_cut(
    runner: RunnerProc, hostile_site: HostileSite
) -> None:
    """60,000 elements in one flat list, more than one walk reads (walk.WALK_MAX_VISITS): the snapshot answers with
    what it read first and says the view was cut (reasonCode walk_cut); a tap there reaches the page's own handler,
    and another app of the same phone answers.  A walk of 10⁶ elements used to run past the page-script budget,
    be stopped with nothing to show, and the snapshot answered COMMAND_TIMED_OUT at 120 s, then RUNNER_BUSY."""
    url = hostile_site.url("heavy/huge.html?n=60000")
    assert runner.ok("launchApp", url)["state"] == "foreground"
    view = runner.ok("snapshot", url)
    assert view["quality"]["reasonCode"] == "walk_cut", view["quality"]
    assert view["quality"]["reason"].startswith("the page is too big to read whole: the view was cut after ")
    labels = [n.get("label") for n in view["nodes"]]
    assert "Huge" in labels and "Go" in labels, labels  # what comes first in the document is read
    tapped = runner.ok("tap", url, x=120, y=90)
    assert tapped["hit"] == 'Button "Go" id=go', tapped
    assert "tapped" in [n.get("label") for n in runner.ok("snapshot", url)["nodes"]]  # the page's handler ran
    assert runner.ok("status")["state"] == "idle"
    assert runner.ok("launchApp", "dev.phonewire.demo")["state"] == "foreground"
    assert any(n.get("identifier") == "like-1" for n in runner.ok("snapshot", "dev.phonewire.demo")["nodes"])
    runner.ok("terminateApp", url)


def test_a_tap_opens_one_window_as_on_a_phone_and_the_view_says_the_rest_were_blocked(
    runner: RunnerProc, hostile_site: HostileSite
) -> None:
    """A tap whose handler opens 100 windows: as a phone's browser does, the page gets one window and null for the
    other 99 (popups.js), and the app's next snapshot says so, once.  It held the phone 6 s and ended the app: every
    window was a new target, each paused on the opener's thread until the device let it run."""
    url = hostile_site.url("windows.html")
    assert runner.ok("launchApp", url)["state"] == "foreground"
    runner.ok("tap", url, x=140, y=80)
    quality = runner.ok("snapshot", url)["quality"]  # the new window, in front
    assert quality["reasonCode"] == "windows_limited", quality
    assert quality["reason"].startswith(
        "the app tried to open 99 window(s) more than one per tap; the phone blocked them, as a phone's browser"
    )
    assert runner.ok("snapshot", url)["quality"].get("reasonCode") != "windows_limited"  # said once
    runner.ok("button", button="back")  # the window closes: the opener, which saw what it got
    assert "opened 1, blocked 99" in [n.get("label") for n in runner.ok("snapshot", url)["nodes"]]
    assert runner.ok("launchApp", "dev.phonewire.demo")["state"] == "foreground"
    runner.ok("terminateApp", url)


def test_windows_past_the_apps_screens_are_closed_and_the_view_says_so(
    runner: RunnerProc, hostile_site: HostileSite
) -> None:
    """Ten taps, each opening one window from the window before: the app keeps MAX_SCREENS screens (its page and 9
    windows), the window past them is closed unopened, and the next snapshot's quality says so."""
    url = hostile_site.url("windows.html?n=1")
    assert runner.ok("launchApp", url)["state"] == "foreground"
    for screen in range(10):
        # each tap on the screen in front, once it shows its button (a new window may still be loading)
        assert shows(runner, url, "Open"), f"screen {screen} never showed its button"
        runner.ok("tap", url, x=140, y=80)
    quality = runner.ok("snapshot", url)["quality"]
    assert quality["reasonCode"] == "windows_limited", quality
    assert quality["reason"].startswith(
        "the app tried to open 1 more window(s) than the phone keeps (10 screens per app); they were closed unopened"
    )
    runner.ok("terminateApp", url)
