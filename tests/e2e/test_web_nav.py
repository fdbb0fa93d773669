"""Back, deep links, new windows and tap units on the web phone (issue 10 item 9), through the real runner process
over loopback HTTP against real Chromium.

Rules checked: back closes what the app would close (a drawer, a dialog) before it goes back in history, and leaves
the app only when nothing is open and nothing is behind; a deep link into the running app navigates it (one app,
not one per link); a page an app opens (``target=_blank``, ``window.open``) is that app's new screen, and back
returns to the screen it came from; on a page without a mobile viewport tag a tap at (X, Y) reaches the element
whose rect contains (X, Y), and the page's own click marker shows in the screenshot where the tap landed.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Iterator
from typing import Any

import pytest
from web_runner import HostileSite, RunnerProc, runner_process

DEMO = "dev.phonewire.demo"


@pytest.fixture(scope="module")
def runner() -> Iterator[RunnerProc]:
    with runner_process("web") as proc:
        yield proc


def nodes(runner: RunnerProc, app: str) -> list[dict[str, Any]]:
    return list(runner.ok("snapshot", app)["nodes"])


def node(runner: RunnerProc, identifier: str, app: str = DEMO) -> dict[str, Any]:
    found = [n for n in nodes(runner, app) if n["identifier"] == identifier]
    assert len(found) == 1, found
    return found[0]


def ids(runner: RunnerProc, app: str = DEMO) -> set[str]:
    return {n["identifier"] for n in nodes(runner, app)}


def tap(runner: RunnerProc, identifier: str, app: str = DEMO) -> dict[str, Any]:
    r = node(runner, identifier, app)["rect"]
    return runner.ok("tap", app, x=r["x"] + r["width"] / 2, y=r["y"] + r["height"] / 2)


def label(runner: RunnerProc, identifier: str, app: str = DEMO) -> str:
    return str(node(runner, identifier, app)["label"])


def states(runner: RunnerProc) -> dict[str, str]:
    return {a["appBundleId"]: a["state"] for a in runner.ok("listApps")["apps"]}


def back(runner: RunnerProc) -> dict[str, Any]:
    return runner.ok("button", button="back")


def fresh_demo(runner: RunnerProc, screen: str) -> None:
    """The demo relaunched (history starts afresh), then one tab tap to ``screen`` (one history entry)."""
    runner.ok("launchApp", DEMO)
    tap(runner, f"tab-{screen}")


# -- back ----------------------------------------------------------------------------------------------------------
def test_back_closes_an_open_drawer_first_and_stays_on_the_screen(runner: RunnerProc) -> None:
    fresh_demo(runner, "reorder")
    tap(runner, "open-drawer")
    assert "drawer-inbox" in ids(runner)
    reply = back(runner)
    assert reply["back"] == "closed" and reply["closed"] == 'Dialog "Menu" id=drawer', reply
    assert reply["message"] == 'pressed back: closed Dialog "Menu" id=drawer'
    assert reply["changed"] is True
    after = ids(runner)
    assert "drawer-inbox" not in after and "open-drawer" in after  # still the Tasks screen: no history step
    assert states(runner)[DEMO] == "foreground"
    # the second back goes back in history (to the screen before Tasks), the third leaves the app
    assert back(runner)["back"] == "history"
    assert "open-drawer" not in ids(runner)
    assert back(runner) | {"changed": None} == {
        "message": "pressed back: left the app: the home screen shows",
        "back": "home",
        "changed": None,
    }
    assert states(runner)[DEMO] == "background"


def test_back_closes_a_modal_dialog_without_answering_it(runner: RunnerProc) -> None:
    fresh_demo(runner, "controls")
    cancels, confirms = label(runner, "dialog-cancels"), label(runner, "dialog-confirms")
    tap(runner, "open-dialog")
    assert "dialog-confirm" in ids(runner)
    reply = back(runner)
    assert reply["back"] == "closed" and reply["closed"] == 'Dialog "Delete draft?" id=dialog', reply
    assert "dialog-confirm" not in ids(runner) and "open-dialog" in ids(runner)
    assert (label(runner, "dialog-cancels"), label(runner, "dialog-confirms")) == (cancels, confirms)


def test_back_with_a_modal_that_ignores_escape_and_no_history_stays(runner: RunnerProc, site: HostileSite) -> None:
    url = site.url("stuck.html")
    runner.ok("launchApp", url)
    try:
        reply = back(runner)
        assert reply["back"] == "stayed", reply
        assert reply["message"].startswith('pressed back: Dialog "Terms" id=modal stays open')
        assert states(runner)[url] == "foreground" and "accept" in ids(runner, url)
    finally:
        runner.ok("terminateApp", url)


# -- deep links ----------------------------------------------------------------------------------------------------
def test_three_deep_links_into_the_demo_navigate_it_and_leave_one_app(runner: RunnerProc) -> None:
    runner.ok("launchApp", DEMO)
    demo_url = runner.ok("status")["device"]["demoUrl"]
    for screen in ("controls", "reorder", "form"):
        reply = runner.ok("openUrl", url=f"{demo_url}#{screen}")
        assert reply["appBundleId"] == DEMO and reply["navigated"] is True
    running = {a: s for a, s in states(runner).items() if s != "notRunning"}
    assert running == {DEMO: "foreground"}
    assert "sign-in" in ids(runner)  # the Account screen: the last link's


def test_a_deep_link_of_another_app_opens_that_app(runner: RunnerProc, site: HostileSite) -> None:
    runner.ok("launchApp", DEMO)
    url = site.url("stuck.html")
    try:
        opened = runner.ok("openUrl", url=url)
        assert opened["appBundleId"] == url and opened["title"] == "Stuck", opened  # (the page that loaded)
        assert states(runner)[url] == "foreground" and states(runner)[DEMO] == "background"
        # a second link into that app navigates it: still those two apps
        again = runner.ok("openUrl", url=site.url("wide.html"))
        assert again["appBundleId"] == url and again["navigated"] is True and again["title"] == "Wide", again
        assert {a for a, s in states(runner).items() if s != "notRunning"} == {DEMO, url}
    finally:
        runner.ok("terminateApp", url)


# -- new windows -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("opener", "via"), [("blank-link", "link"), ("open-window", "script")])
def test_a_new_window_is_the_apps_new_screen_and_back_returns_to_the_opener(
    runner: RunnerProc, site: HostileSite, opener: str, via: str
) -> None:
    url = site.url("screens.html")
    runner.ok("launchApp", url)
    running = {a for a, s in states(runner).items() if s != "notRunning"}
    try:
        reply = tap(runner, opener, url)
        assert reply["changed"] is True
        shown = {n["identifier"]: n for n in nodes(runner, url)}
        assert "second" in shown and shown["via"]["label"] == f"via {via}"  # the phone shows the new screen
        # the page hooks ran before the new screen's first script: the listener it added there makes a button
        assert shown["early"]["type"] == "Button", shown["early"]
        tap(runner, "early", url)
        assert label(runner, "early-taps", url) == "1"
        assert {a for a, s in states(runner).items() if s != "notRunning"} == running  # no new app
        assert back(runner)["back"] == "screen"
        assert label(runner, "opened", url) == "1"  # the opener, as it was (one tap, one window)
        assert states(runner)[url] == "foreground"
    finally:
        runner.ok("terminateApp", url)


def test_a_new_screen_that_closes_itself_shows_the_opener_again(runner: RunnerProc, site: HostileSite) -> None:
    url = site.url("screens.html")
    runner.ok("launchApp", url)
    try:
        tap(runner, "open-window", url)
        tap(runner, "self-close", url)
        assert "open-window" in ids(runner, url) and states(runner)[url] == "foreground"
    finally:
        runner.ok("terminateApp", url)


# -- a page laid out 980 px wide -------------------------------------------------------------------------------------
def test_on_a_page_without_a_viewport_tag_a_tap_hits_the_element_whose_rect_holds_the_point(
    runner: RunnerProc, site: HostileSite
) -> None:
    from PIL import Image

    url = site.url("wide.html")
    runner.ok("launchApp", url)
    try:
        viewport = runner.ok("viewport", url)
        # the screen in points (docs/snapshot.md's coordinate model); the page laid out at 980 px, shown zoomed
        # out to the phone's width
        assert (viewport["width"], viewport["height"]) == (393, 852)
        assert viewport["page"]["width"] >= 980 and viewport["page"]["scale"] < 0.5
        cell = node(runner, "cell-5-3", url)["rect"]
        # off centre: a point in its rect, in screen points as the rect is
        x, y = cell["x"] + cell["width"] * 0.7, cell["y"] + cell["height"] * 0.6
        assert runner.ok("tap", url, x=x, y=y)["hit"] == 'Button "cell 5 3" id=cell-5-3'
        assert label(runner, "last", url) == "cell-5-3"
        # the page's click marker (a red dot at the click's pageX/pageY) sits where the tap landed: in a
        # device-pixel screenshot, at (x, y) × image width / viewport width
        shot = runner.ok("screenshot", format="png")
        image = Image.open(io.BytesIO(base64.b64decode(shot["imageBase64"]))).convert("RGB")
        scale = image.width / viewport["width"]
        red = [
            (px, py)
            for py in range(image.height // 2)
            for px in range(image.width)
            if image.getpixel((px, py)) == (255, 0, 0)
        ]
        assert red
        mx, my = sum(p[0] for p in red) / len(red), sum(p[1] for p in red) / len(red)
        assert abs(mx - x * scale) <= 2 and abs(my - y * scale) <= 2, (mx, my, x * scale, y * scale)
    finally:
        runner.ok("terminateApp", url)


@pytest.fixture(scope="module")
def site(hostile_site: HostileSite) -> HostileSite:
    return hostile_site


def test_changed_counts_what_is_rendered_not_a_counter_ticking_on_a_hidden_screen(
    runner: RunnerProc, site: HostileSite
) -> None:
    """A hidden screen's 5 ms ticker mutates the DOM during every action; ``changed`` stays false unless something
    rendered changed (a visible text, or an element that an attribute just hid)."""
    url = site.url("churn.html")
    runner.ok("launchApp", url)
    try:
        for _ in range(3):
            assert tap(runner, "nothing", url)["changed"] is False
            assert runner.ok("key", url, key="escape")["changed"] is False
        assert tap(runner, "bump", url)["changed"] is True
        assert label(runner, "shown", url) == "1"
        assert tap(runner, "hide", url)["changed"] is True
        assert "shown" not in ids(runner, url)
    finally:
        runner.ok("terminateApp", url)
