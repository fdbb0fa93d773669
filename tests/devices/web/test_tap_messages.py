"""The messages one tap sends to its page (issue 16 item 1): a tap is few round trips, so under load it waits for a
core few times (it was five; Playwright's touchscreen.tap is one, the touch pair).  Counted on the real browser by
logging the DevTools pipe: every message written and every reply read, in order.  A round trip is a batch of
messages written before any of their replies is awaited."""

from __future__ import annotations

from collections.abc import Coroutine, Iterator
from typing import Any

import pytest
from web_phone import Phone, requires_chromium

from phonewire.devices.web.cdp import CdpConnection
from phonewire.devices.web.home import DEMO_APP_ID

pytestmark = requires_chromium


@pytest.fixture
def log(phone: Phone) -> Iterator[list[tuple[str, str]]]:
    """(``"send"`` or ``"reply"``, method) of every call on the pipe while the test runs."""
    cdp = phone.device._cdp
    assert isinstance(cdp, CdpConnection)
    out: list[tuple[str, str]] = []
    start, on_message = cdp.start, cdp._on_message
    methods: dict[int, str] = {}

    def logged_start(
        method: str, params: dict[str, Any] | None = None, session_id: str | None = None
    ) -> Coroutine[Any, Any, dict[str, Any]]:
        """Every call is written by ``start`` (``send`` and the page sessions' guarded calls both go through it)."""
        methods[cdp._next_id + 1] = method
        out.append(("send", method))
        return start(method, params, session_id)

    def logged_on_message(raw: bytes) -> None:
        on_message(raw)
        msg_id = int(raw.split(b'"id":', 1)[1].split(b",", 1)[0].split(b"}", 1)[0]) if raw.startswith(b'{"id":') else 0
        if msg_id in methods:
            out.append(("reply", methods.pop(msg_id)))

    cdp.start, cdp._on_message = logged_start, logged_on_message  # type: ignore[method-assign]
    try:
        yield out
    finally:
        del cdp.start, cdp._on_message


def round_trips(log: list[tuple[str, str]]) -> list[list[str]]:
    """The methods of each batch: a send after a reply starts a new batch."""
    batches: list[list[str]] = []
    last = "reply"
    for kind, method in log:
        if kind == "send":
            if last == "reply":
                batches.append([])
            batches[-1].append(method)
        last = kind
    return batches


def like(phone: Phone) -> tuple[float, float, str]:
    phone.goto("list")
    r = phone.node("like-2")["rect"]
    return r["x"] + r["width"] / 2, r["y"] + r["height"] / 2, str(phone.node("like-2")["label"])


def test_a_tap_is_three_round_trips_and_lands_once(phone: Phone, log: list[tuple[str, str]]) -> None:
    x, y, before = like(phone)
    log.clear()
    phone.run(phone.device.tap(DEMO_APP_ID, x, y))
    batches = round_trips(log)
    # the guard and the probe; the mouse moved to the point (sticky hover) and the touch pair, sent together; the
    # guard's state, which also turns the guard off, marks the action's time in the page and asks whether the
    # focused element wants the keyboard (it was five: the state, the guard off and the mark were one each)
    assert batches == [
        ["Runtime.evaluate"],
        ["Input.dispatchMouseEvent", "Input.dispatchTouchEvent", "Input.dispatchTouchEvent"],
        ["Runtime.evaluate"],
    ], batches
    n = int(before.rsplit(" ", 1)[1])
    assert str(phone.node("like-2")["label"]) == f"Like {n + 1}"
    assert phone.eval("window.__phonewireTap === undefined") is True  # the guard is off


def test_a_double_tap_is_one_probe_two_touch_pairs_and_one_mark(phone: Phone, log: list[tuple[str, str]]) -> None:
    phone.goto("detail/1")
    r = phone.node("double-tap-target")["rect"]
    before = int(phone.node("double-taps")["label"])
    log.clear()
    phone.run(phone.device.tap(DEMO_APP_ID, r["x"] + r["width"] / 2, r["y"] + r["height"] / 2, 2))
    assert [m for b in round_trips(log) for m in b].count("Input.dispatchTouchEvent") == 4
    assert int(phone.node("double-taps")["label"]) == before + 1


NEAR_BUTTON_JS = """(() => {
  const cover = document.createElement("div");
  cover.id = "adj-cover";
  cover.style = "position:fixed;inset:0;z-index:99998;background:#fff";
  const button = document.createElement("button");
  button.id = "adj-button";
  button.textContent = "Go";
  button.style = "position:fixed;left:200px;top:300px;width:60px;height:30px;z-index:99999";
  window.__adj = {button: 0, clicks: []};
  button.addEventListener("click", () => { window.__adj.button++; });
  // on the window (a listener on the cover would make the cover clickable: nothing to adjust to)
  if (!window.__adjListens) {
    window.__adjListens = true;
    window.addEventListener("click", (ev) => { window.__adj.clicks.push([ev.clientX, ev.clientY, ev.target.id]); });
  }
  document.body.append(cover, button);
})()"""


def test_a_tap_beside_a_button_lands_at_the_point_once_with_no_click_sent_again(
    phone: Phone, log: list[tuple[str, str]]
) -> None:
    """Touch adjustment moved this tap's click onto the button 8 points away (the guard stopped it and sent the click
    again at the point, two more round trips); the guard now lends the cover under the finger a click handler for
    the tap, so the browser's own click lands there: the cover sees one click at the point, the button none, in the
    three round trips of any tap."""
    phone.goto("list")
    phone.eval(NEAR_BUTTON_JS)
    try:
        log.clear()
        phone.run(phone.device.tap(DEMO_APP_ID, 192, 315))
        batches = round_trips(log)
        assert batches == [
            ["Runtime.evaluate"],
            ["Input.dispatchMouseEvent", "Input.dispatchTouchEvent", "Input.dispatchTouchEvent"],
            ["Runtime.evaluate"],
        ], batches
        assert phone.eval("window.__adj") == {"button": 0, "clicks": [[192, 315, "adj-cover"]]}
        assert phone.eval("window.__phonewireTap === undefined") is True
    finally:
        phone.eval("document.getElementById('adj-cover').remove(); document.getElementById('adj-button').remove()")


def test_a_tap_whose_click_never_comes_releases_the_guard_and_settles_the_page(
    phone: Phone, log: list[tuple[str, str]]
) -> None:
    """A page that cancels the touch (preventDefault on touchstart) gets no click: the guard's answer is released
    after CLICK_WAIT_S, the guard goes, and one more evaluation marks the action."""
    phone.goto("list")
    phone.eval(NEAR_BUTTON_JS)
    phone.eval(
        "document.getElementById('adj-cover').addEventListener('touchstart', (ev) => ev.preventDefault(), "
        "{passive: false})"
    )
    try:
        log.clear()
        phone.run(phone.device.tap(DEMO_APP_ID, 100, 500))
        assert round_trips(log) == [
            ["Runtime.evaluate"],
            ["Input.dispatchMouseEvent", "Input.dispatchTouchEvent", "Input.dispatchTouchEvent"],
            ["Runtime.evaluate", "Runtime.evaluate"],  # the answer awaited, then released
            ["Runtime.evaluate"],
        ], round_trips(log)
        assert phone.eval("window.__adj.clicks.length") == 0
        assert phone.eval("window.__phonewireTap === undefined") is True
    finally:
        phone.eval("document.getElementById('adj-cover').remove(); document.getElementById('adj-button').remove()")
