"""A tap whose own touch sends the document away is known to have left it before its click, from the page itself
(gestures.exact_tap's ``left``), not only from DevTools' navigation events: those of a frame in a renderer of its
own can reach the host after the touch was acknowledged, and a tap judged by them alone was taken for one that
worked (a FRAME_CHANGED refusal missed under load: tests/e2e/test_aim_frames.py).  On real Chromium, with the host's
own event counting left out."""

from __future__ import annotations

from functools import partial

import pytest
from web_phone import Phone, requires_chromium

from phonewire.devices.web import frames, gestures
from phonewire.devices.web.home import DEMO_APP_ID

pytestmark = requires_chromium


def _tap_with(phone: Phone, handler: str) -> list[str]:
    """A guarded tap at a point of the demo's screen whose touchstart runs ``handler``; what ``left`` saw."""
    page = phone.device._live(DEMO_APP_ID)
    where = frames.Where(page.session)
    phone.eval("location.hash = ''")
    phone.eval(f"window.addEventListener('touchstart', () => {{ {handler} }}, {{once: true}}), 0")
    seen: list[str] = []

    async def tap() -> None:
        await frames.evaluate(where, f"({gestures.GUARD_JS})(40, 300)")
        await gestures.exact_tap(
            page.session, partial(frames.evaluate, where, await_promise=True), 40, 300, then="0",
            left=lambda: seen.append("left"),
        )  # fmt: skip

    phone.run(tap())
    return seen


@pytest.mark.parametrize(
    "handler",
    [
        "location.href = location.pathname + '?away=' + Date.now();",
        "navigation.navigate(location.pathname + '?away=' + Date.now());",
    ],
)
def test_a_touch_that_sends_the_document_away_is_said_to_have_left_it(phone: Phone, handler: str) -> None:
    assert _tap_with(phone, handler) == ["left"]
    phone.run(phone.device.launch_app(DEMO_APP_ID))  # (the demo again, for the next test)


@pytest.mark.parametrize("handler", ["", "location.hash = 'stay';", "history.pushState(null, '', '#pushed');"])
def test_a_touch_that_stays_in_the_document_has_not_left_it(phone: Phone, handler: str) -> None:
    assert _tap_with(phone, handler) == []
    assert phone.eval("location.search") == ""
