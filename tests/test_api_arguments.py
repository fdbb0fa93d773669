"""The Python API checks its arguments against the operation table (issue 15 item 7): a wrong type is
ProtocolError(INVALID_REQUEST) with a hint, never a raw TypeError/AttributeError, and nothing reaches the device."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from agent_fakes import FakeSender
from phonewire import Phone, ProtocolError
from phonewire.protocol import errors as e


@pytest.fixture
def phone() -> Iterator[tuple[Phone, FakeSender]]:
    sender = FakeSender()
    p = Phone(sender=sender)
    p.open("dev.phonewire.demo")
    try:
        yield p, sender
    finally:
        p.close()


WRONG: dict[str, Callable[[Any], object]] = {
    "tap(None)": lambda p: p.tap(None),
    "fill(3, 4)": lambda p: p.fill(3, 4),
    "swipe('a', ...)": lambda p: p.swipe("a", 1, 2, 3),
    "swipe(inf, ...)": lambda p: p.swipe(float("inf"), 1, 2, 3),
    "tap(count='2')": lambda p: p.tap("@e1", count="2"),
    "long_press(duration_ms='800')": lambda p: p.long_press("1 1", duration_ms="800"),
    "scroll('sideways')": lambda p: p.scroll("sideways"),
    "scroll(amount=[1])": lambda p: p.scroll("down", amount=[1]),
    "press(None)": lambda p: p.press(None),
    "type(b'x')": lambda p: p.type(b"x"),
    "open(None)": lambda p: p.open(None),
    "snapshot(interactive='yes')": lambda p: p.snapshot(interactive="yes"),
    "screenshot(format=1)": lambda p: p.screenshot(format=1),
}


@pytest.mark.parametrize("call", WRONG, ids=list(WRONG))
def test_a_wrong_argument_type_is_invalid_request_with_a_hint_and_sends_nothing(
    phone: tuple[Phone, FakeSender], call: str
) -> None:
    p, sender = phone
    before = len(sender.sent)
    with pytest.raises(ProtocolError) as caught:
        WRONG[call](p)
    assert caught.value.code == e.INVALID_REQUEST
    assert caught.value.message.startswith("Phone.") and caught.value.hint
    assert len(sender.sent) == before


def test_the_error_names_the_parameter_and_what_it_takes(phone: tuple[Phone, FakeSender]) -> None:
    p, _ = phone
    with pytest.raises(ProtocolError) as caught:
        p.tap(None)  # type: ignore[arg-type]
    assert caught.value.message == "Phone.tap parameter 'target' must be a string, got null"
    assert caught.value.hint is not None and caught.value.hint.startswith("Phone.tap takes {target: string}")


def test_right_arguments_still_reach_the_session(phone: tuple[Phone, FakeSender]) -> None:
    p, sender = phone
    p.swipe(10, 20, 30, 40.5)
    p.close_app()
    assert sender.commands("drag")[-1] == {
        "appBundleId": "dev.phonewire.demo", "fromX": 10, "fromY": 20, "toX": 30, "toY": 40.5, "durationMs": 300,
    }  # fmt: skip
    assert sender.commands("terminateApp") == [{"appBundleId": "dev.phonewire.demo"}]
