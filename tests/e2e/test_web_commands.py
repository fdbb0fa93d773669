"""Every command of the web phone through the real runner process over loopback HTTP, against real Chromium.

Effects are read back from the demo app's visible counters in the runner's own snapshot replies, so "exactly
once" is checked on the page itself.  One runner (one browser) serves the whole module.
"""

from __future__ import annotations

import base64
import shutil
import time
from collections.abc import Iterator
from typing import Any

import pytest
from web_runner import HostileSite, RunnerProc, free_port, runner_process

from phonewire.protocol import errors as e

pytestmark = [pytest.mark.e2e, pytest.mark.skipif(shutil.which("chromium") is None, reason="needs Chromium")]

DEMO = "dev.phonewire.demo"


@pytest.fixture(scope="module")
def runner() -> Iterator[RunnerProc]:
    with runner_process("web") as proc:
        proc.ok("launchApp", DEMO)
        yield proc


def nodes(runner: RunnerProc, app: str = DEMO) -> list[dict[str, Any]]:
    data = runner.ok("snapshot", app)
    return list(data["nodes"])


def node(runner: RunnerProc, identifier: str, app: str = DEMO) -> dict[str, Any]:
    found = [n for n in nodes(runner, app) if n["identifier"] == identifier]
    assert len(found) == 1, found
    return found[0]


def centre(n: dict[str, Any]) -> dict[str, float]:
    r = n["rect"]
    return {"x": r["x"] + r["width"] / 2, "y": r["y"] + r["height"] / 2}


def tap(runner: RunnerProc, identifier: str, **extra: Any) -> dict[str, Any]:
    return runner.send("tap", DEMO, **centre(node(runner, identifier)), **extra)


def open_tab(runner: RunnerProc, tab: str) -> None:
    assert tap(runner, f"tab-{tab}")["ok"] is True


# -- commands and exactly-once effects ----------------------------------------------------------------------------
def test_snapshot_of_the_demo_list_is_healthy_and_viewport_culled(runner: RunnerProc) -> None:
    open_tab(runner, "list")
    data = runner.ok("snapshot", DEMO)
    ids = {n["identifier"] for n in data["nodes"]}
    assert data["quality"]["state"] == "healthy" and data["quality"]["backend"] == "web"
    assert "like-1" in ids and "like-300" not in ids


def test_tap_counts_exactly_once_read_back_from_the_page(runner: RunnerProc) -> None:
    open_tab(runner, "list")
    assert node(runner, "like-3")["label"] == "Like 0"
    assert tap(runner, "like-3")["ok"] is True
    assert node(runner, "like-3")["label"] == "Like 1"
    assert node(runner, "likes-total")["label"] == "1"


def test_resent_command_id_runs_once(runner: RunnerProc) -> None:
    open_tab(runner, "list")
    point = centre(node(runner, "like-4"))
    first = runner.send("tap", DEMO, commandId="same-tap-once", **point)
    again = runner.send("tap", DEMO, commandId="same-tap-once", **point)
    assert first["ok"] and again["ok"]
    assert node(runner, "like-4")["label"] == "Like 1"


def test_double_tap_and_long_press(runner: RunnerProc) -> None:
    open_tab(runner, "list")
    assert tap(runner, "open-2")["ok"]
    assert tap(runner, "double-tap-target", numberOfTaps=2)["ok"]
    assert node(runner, "double-taps")["label"] == "1"
    assert runner.send("longPress", DEMO, durationMs=700, **centre(node(runner, "hold-target")))["ok"]
    assert node(runner, "long-presses")["label"] == "1"
    assert runner.ok("button", button="back")
    assert "like-1" in {n["identifier"] for n in nodes(runner)}


def test_drag_reorders_the_task_list(runner: RunnerProc) -> None:
    open_tab(runner, "reorder")
    a, c = centre(node(runner, "task-alpha")), centre(node(runner, "task-charlie"))
    runner.ok("drag", DEMO, fromX=a["x"], fromY=a["y"], toX=c["x"], toY=c["y"], durationMs=300, holdMs=50, settle=50)
    assert node(runner, "task-order")["label"].startswith("Bravo Charlie Alpha")
    assert node(runner, "move-count")["label"] == "1"


def test_drag_scrolls_the_carousel(runner: RunnerProc) -> None:
    open_tab(runner, "controls")
    card = centre(node(runner, "card-1"))
    runner.ok("drag", DEMO, fromX=card["x"] + 100, fromY=card["y"], toX=card["x"] - 150, toY=card["y"], durationMs=250)
    assert node(runner, "carousel-index")["label"] != "1"


def test_type_delete_return_submit_the_sign_in_form(runner: RunnerProc) -> None:
    open_tab(runner, "form")
    assert tap(runner, "name")["ok"]
    runner.ok("type", DEMO, text="Grace!")
    runner.ok("keyboardDelete", DEMO)
    runner.ok("keyboardReturn", DEMO)
    assert node(runner, "signin-count")["label"] == "1"
    assert node(runner, "signin-user")["label"] == "Grace"


def test_switch_and_slider(runner: RunnerProc) -> None:
    open_tab(runner, "controls")
    switch = node(runner, "notifications")
    assert switch["type"] == "Switch" and switch["value"] == "0"
    tap(runner, "notifications")
    assert node(runner, "notifications")["value"] == "1" and node(runner, "switch-count")["label"] == "1"
    slider = node(runner, "volume")
    assert slider["type"] == "Slider" and slider["value"] == "50"
    r = slider["rect"]
    runner.ok("tap", DEMO, x=r["x"] + r["width"] * 0.9, y=r["y"] + r["height"] / 2)
    assert int(node(runner, "volume")["value"]) > 50


def test_viewport_is_the_profile_size(runner: RunnerProc) -> None:
    data = runner.ok("viewport", DEMO)
    screen = runner.ok("status")["device"]["screen"]
    assert (data["width"], data["height"]) == (screen["width"], screen["height"])


def test_screenshot_png_and_css_scaled_jpeg(runner: RunnerProc) -> None:
    status = runner.ok("status")["device"]
    png = runner.ok("screenshot")
    assert base64.b64decode(png["imageBase64"]).startswith(b"\x89PNG")
    assert png["width"] == round(status["screen"]["width"] * status["devicePixelRatio"])
    jpeg = runner.ok("screenshot", format="jpeg", scale="css", quality=40)
    assert base64.b64decode(jpeg["imageBase64"]).startswith(b"\xff\xd8")
    assert (jpeg["width"], jpeg["height"]) == (status["screen"]["width"], status["screen"]["height"])


def test_list_apps_and_open_url(runner: RunnerProc) -> None:
    demo_url = runner.ok("status")["device"]["demoUrl"]
    url = demo_url + "#controls"
    # a deep link into the running demo navigates it; the same URL launched is an app of its own
    assert runner.ok("openUrl", url=url)["appBundleId"] == DEMO
    assert runner.ok("launchApp", url)["appBundleId"] == url
    apps = {a["appBundleId"]: a["state"] for a in runner.ok("listApps")["apps"]}
    assert apps[url] == "foreground" and apps[DEMO] == "background"
    assert runner.ok("terminateApp", url) == {"appBundleId": url, "wasRunning": True}
    assert runner.code("snapshot", url) == e.APP_NOT_AVAILABLE
    assert runner.ok("launchApp", DEMO)["state"] == "foreground"


# -- background, reactivation ------------------------------------------------------------------------------------
def test_home_backgrounds_snapshot_refuses_and_a_mutation_reactivates(runner: RunnerProc) -> None:
    open_tab(runner, "list")
    point = centre(node(runner, "like-7"))
    runner.ok("button", button="home")
    assert {a["appBundleId"]: a["state"] for a in runner.ok("listApps")["apps"]}[DEMO] == "background"
    assert runner.code("snapshot", DEMO) == e.APP_BACKGROUNDED
    reply = runner.send("tap", DEMO, **point)
    assert reply["ok"] is True and reply.get("reactivated") is True
    assert node(runner, "like-7")["label"] == "Like 1"


def test_background_app_is_frozen_its_clock_stops(runner: RunnerProc, hostile_site: HostileSite) -> None:
    """The page's own record (tests/e2e/hostile/frozen.html): it was told it froze and resumed, no timer of its ran
    in between, and it stayed frozen at least as long as the test kept it in the background (its clock, not a count
    of ticks, so a slow machine changes nothing)."""
    app = hostile_site.url("frozen.html")
    runner.ok("launchApp", app)
    runner.ok("button", button="home")
    time.sleep(1.0)  # in the background: a timer of 50 ms would have run about 20 times
    reply = runner.send("viewport", app)  # read-only, app-scoped: re-fronts
    assert reply["ok"] is True and reply.get("reactivated") is True
    assert node(runner, "freezes", app)["label"] == "1"
    assert node(runner, "ticked", app)["label"] == "0"
    assert int(node(runner, "frozen-ms", app)["label"]) >= 1000
    runner.ok("terminateApp", app)
    runner.ok("launchApp", DEMO)  # the module's other tests act on the demo in front


# -- error codes ----------------------------------------------------------------------------------------------------
def test_error_codes_reachable_on_the_web_device(runner: RunnerProc) -> None:
    assert runner.code("tap", x=1, y=1) == e.APP_BUNDLE_ID_REQUIRED
    assert runner.code("tap", DEMO, x="left", y=1) == e.INVALID_REQUEST
    assert runner.code("snapshot", "com.example.unknown") == e.APP_UNKNOWN
    assert runner.code("launchApp", "com.example.unknown") == e.APP_UNKNOWN
    assert runner.code("snapshot", "https://example.invalid/never-launched") == e.APP_NOT_AVAILABLE
    for name in ("volumeUp", "volumeDown", "actionButton"):
        assert runner.code("button", button=name) == e.UNSUPPORTED_OPERATION
    runner.ok("launchApp", DEMO)
    open_tab(runner, "list")
    assert runner.code("type", DEMO, text="x") == e.TEXT_INPUT_NOT_FOCUSED
    # the tab link the tap focused takes Enter (it activates a focused link: issue 24); with nothing focused Enter
    # is TEXT_INPUT_NOT_FOCUSED (tests/e2e/test_web_repertoire.py)
    assert runner.ok("keyboardReturn", DEMO)["message"] == "pressed return"
    assert runner.code("keyboardDelete", DEMO) == e.TEXT_INPUT_NOT_FOCUSED
    dead = f"http://127.0.0.1:{free_port()}/"
    assert runner.code("openUrl", url=dead) == e.COMMAND_FAILED
    assert runner.code("openUrl", url="ftp://example.invalid/") == e.APP_UNKNOWN
    runner.ok("launchApp", DEMO)


def test_uptime_and_reset(runner: RunnerProc) -> None:
    first = runner.ok("uptime")
    assert isinstance(first["uptimeMs"], int) and first["uptimeMs"] > 0
    assert runner.ok("reset")["reset"] is True
    assert runner.ok("snapshot", DEMO)["quality"]["state"] == "healthy"  # the app survives a reset
