"""The messages one tap sends to its page (issue 16 item 1): a tap is few round trips, so under load it waits for a
core few times.  Counted on the real browser by logging the DevTools pipe: every message written and every reply
read, in order.  A round trip is a batch of messages written before any of their replies is awaited."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from web_phone import Phone, requires_chromium

from phonewire.devices.web.cdp import CdpConnection
from phonewire.devices.web.device import DEMO_APP_ID

pytestmark = requires_chromium


@pytest.fixture
def log(phone: Phone) -> Iterator[list[tuple[str, str]]]:
    """(``"send"`` or ``"reply"``, method) of every call on the pipe while the test runs."""
    cdp = phone.device._cdp
    assert isinstance(cdp, CdpConnection)
    out: list[tuple[str, str]] = []
    send, on_message = cdp.send, cdp._on_message
    methods: dict[int, str] = {}

    async def logged_send(method: str, params: dict[str, Any] | None = None, session_id: str | None = None) -> Any:
        methods[cdp._next_id + 1] = method
        out.append(("send", method))
        return await send(method, params, session_id)

    def logged_on_message(raw: bytes) -> None:
        on_message(raw)
        msg_id = int(raw.split(b'"id":', 1)[1].split(b",", 1)[0].split(b"}", 1)[0]) if raw.startswith(b'{"id":') else 0
        if msg_id in methods:
            out.append(("reply", methods.pop(msg_id)))

    cdp.send, cdp._on_message = logged_send, logged_on_message  # type: ignore[method-assign]
    try:
        yield out
    finally:
        del cdp.send, cdp._on_message


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


def test_a_tap_is_two_round_trips_and_lands_once(phone: Phone, log: list[tuple[str, str]]) -> None:
    x, y, before = like(phone)
    log.clear()
    phone.run(phone.device.tap(DEMO_APP_ID, x, y))
    batches = round_trips(log)
    # the guard and the probe; then the touch pair with the evaluation that answers once the click is handled
    # (it turns the guard off and marks the action's time in the page)
    assert batches == [
        ["Runtime.evaluate"],
        ["Input.dispatchTouchEvent", "Input.dispatchTouchEvent", "Runtime.evaluate"],
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
