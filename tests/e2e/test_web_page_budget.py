"""One page cannot take the phone (issue 28, finding 4): a page whose own script never ends (``while(true){}`` in a
click handler) holds a command only up to the page-script budget; then its script is stopped
(``Runtime.terminateExecution``), the command answers (a tap: ok, with the warning that the device muted an issue),
the page itself lives on and answers the next tap, and the other apps of the phone keep serving — where the tap used
to hold the runner for its whole 75 s budget and then RUNNER_BUSY / RUNNER_WEDGED for two minutes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from web_runner import HostileSite, RunnerProc, runner_process

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def runner() -> Iterator[RunnerProc]:
    with runner_process("web") as proc:
        yield proc


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
    url = hostile_site.url("abyss.html")
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
