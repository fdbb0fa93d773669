"""Elements without a place on the screen (docs/realapps-findings-2.md D1): a closed select's options are listed
under it without a rect.  A tap on one chooses it through ``setValue`` on its select (never a tap at the screen's
origin); any other gesture on a place-less element is INVALID_REQUEST naming ``select``, with nothing sent.  Also
D5 (``press home`` warns that the app went to the background and how to bring it back) and D11 (WAIT_TIMED_OUT's
summary carries no refs on any line)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Coroutine, Mapping
from typing import Any, TypeVar

import pytest

from agent_fakes import FakeSender, screen
from phonewire.agent.core import AgentSession
from phonewire.protocol import errors as e
from phonewire.protocol.envelope import Envelope
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import RawNode, Rect

T = TypeVar("T")
OPTIONS = ("Apple", "Banana", "Cherry")


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


class SelectSender(FakeSender):
    """A fake phone whose select takes any of OPTIONS."""

    async def send(self, command: str, fields: Mapping[str, Any] | None = None) -> Envelope:
        reply = await super().send(command, fields)
        if command == "setValue":
            wanted = list((fields or {})["values"])
            key = "selected" if wanted[0] in OPTIONS else "unmatched"
            return dataclasses.replace(reply, data={key: wanted, "options": list(OPTIONS)})
        return reply


def fruit_select() -> list[dict[str, Any]]:
    options = [RawNode("StaticText", label=o, selected=o == "Apple") for o in OPTIONS]
    select = RawNode("ComboBox", identifier="fruit", value="Apple", rect=Rect(20, 100, 200, 40), children=options)
    return screen(
        select, RawNode("StaticText", label="Nowhere"), RawNode("Button", label="Go", rect=Rect(20, 200, 80, 40))
    )


def session() -> tuple[AgentSession, SelectSender]:
    sender = SelectSender(fruit_select())
    return AgentSession(sender, app_id="dev.phonewire.demo"), sender


def test_a_tap_on_an_option_sets_its_select_by_the_option_text_at_the_select_centre_and_taps_nothing() -> None:
    agent, sender = session()
    result = run(agent.tap('"Banana"'))
    assert sender.commands("setValue") == [
        {"x": 120.0, "y": 120.0, "values": ["Banana"], "appBundleId": "dev.phonewire.demo"}
    ]
    assert sender.commands("tap") == []
    assert result.data["message"].startswith('selected "Banana" in @') and "ComboBox id=fruit" in result.data["message"]


def test_a_tap_on_an_option_by_ref_chooses_it_too() -> None:
    agent, sender = session()
    view = run(agent.snapshot())  # the full view lists a closed select's options (-i shows the select alone)
    cherry = next(r for r, n in view.refs.items() if n.get("label") == "Cherry")
    assert run(agent.tap("@" + cherry)).data["selected"] == ["Cherry"]
    assert sender.commands("tap") == []


@pytest.mark.parametrize("gesture", ["long_press", "fill"])
def test_other_gestures_on_an_option_are_refused_naming_select_and_send_nothing(gesture: str) -> None:
    agent, sender = session()
    with pytest.raises(ProtocolError) as info:
        run(agent.long_press('"Banana"') if gesture == "long_press" else agent.fill('"Banana"', "x"))
    assert info.value.code == e.INVALID_REQUEST and "no place on the screen" in info.value.message
    assert "`select TARGET OPTION`" in (info.value.hint or "") and "ComboBox id=fruit" in (info.value.hint or "")
    assert [c for c, _ in sender.sent if c != "snapshot"] == []


def test_a_tap_on_a_place_less_element_that_is_no_option_is_refused_and_sends_nothing() -> None:
    agent, sender = session()
    with pytest.raises(ProtocolError) as info:
        run(agent.tap('"Nowhere"'))
    assert info.value.code == e.INVALID_REQUEST and "select" not in (info.value.hint or "")
    assert [c for c, _ in sender.sent if c != "snapshot"] == []


def test_wait_timed_out_summary_carries_no_refs_on_top_or_child_lines() -> None:
    agent, _ = session()
    run(agent.snapshot(interactive=True))
    with pytest.raises(ProtocolError) as info:
        run(agent.wait('"Durian"', timeout_ms=0))
    assert info.value.code == e.WAIT_TIMED_OUT
    assert "@e" not in info.value.message
    # a closed select is one line there, its options counted (as in -i)
    assert 'ComboBox id=fruit value="Apple" (3 options, select one); Button "Go"' in info.value.message


def test_minus_i_shows_a_closed_select_as_one_line_with_its_value_and_option_count_and_the_full_view_lists_them() -> (
    None
):
    agent, _ = session()
    brief = run(agent.snapshot(interactive=True)).text.splitlines()
    assert [line.split(" ", 1)[1] for line in brief] == [
        'ComboBox id=fruit value="Apple" (3 options, select one)',
        'Button "Go"',
    ]
    full = run(agent.snapshot()).text
    assert 'StaticText "Apple" [selected]' in full and 'StaticText "Cherry"' in full and "select one" not in full


def test_press_home_says_the_app_went_to_the_background_and_how_to_bring_it_back() -> None:
    agent, sender = session()
    warning = run(agent.press("home")).warning or ""
    assert sender.commands("button") == [{"button": "home"}]
    assert "dev.phonewire.demo went to the background" in warning and "`open dev.phonewire.demo`" in warning
