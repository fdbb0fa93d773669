"""``find``: scroll until an element shows, answer its snapshot line; NOT_FOUND at the end or after the limit
(agent core on a scripted sender: each ``scroll`` reply and the screen after it are scripted)."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Mapping
from typing import Any, TypeVar

import pytest

from agent_fakes import FakeSender, screen
from phonewire.agent.core import AgentSession
from phonewire.protocol import errors as e
from phonewire.protocol.envelope import Envelope, ok
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.request import DEFAULT_FIND_SCROLLS
from phonewire.protocol.snapshot import RawNode, Rect

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def people(first: int, last: int) -> list[dict[str, Any]]:
    return screen(*(RawNode("Cell", label=f"Person {i}", rect=Rect(0, 50 * (i - first), 390, 48))
                    for i in range(first, last + 1)))  # fmt: skip


class Scrolling(FakeSender):
    """A 300-row list, 17 rows a screen: each scroll moves 10 rows (500 pt); the last screen says atEnd."""

    def __init__(self, *, measured: bool = True) -> None:
        super().__init__(people(1, 17))
        self.top = 1
        self.measured = measured

    async def send(self, command: str, fields: Mapping[str, Any] | None = None) -> Envelope:
        if command != "scroll":
            return await super().send(command, fields)
        self.sent.append((command, dict(fields or {})))
        before = self.top
        self.top = min(self.top + 10, 284)
        self.nodes = people(self.top, self.top + 16)
        if not self.measured:
            return ok({"direction": "down", "distance": None, "atEnd": None})
        return ok({"direction": "down", "distance": 50.0 * (self.top - before), "atEnd": self.top == 284})


def test_an_element_on_screen_is_answered_without_scrolling() -> None:
    sender = Scrolling()
    result = run(AgentSession(sender, app_id="dev.phonewire.demo").find("Person 5"))
    assert not sender.commands("scroll")
    assert result.data["line"] == result.data["message"] == f'@{result.data["ref"]} Cell "Person 5"'


def test_find_scrolls_until_the_row_shows_and_its_ref_can_be_tapped() -> None:
    sender = Scrolling()
    s = AgentSession(sender, app_id="dev.phonewire.demo")
    result = run(s.find("text=Person 150"))
    assert len(sender.commands("scroll")) == 14  # rows 141-157 show after the 14th
    assert sender.commands("scroll")[0] == {
        "direction": "down", "amount": 0.8, "revealTerms": ["text=Person 150"], "appBundleId": "dev.phonewire.demo"
    }  # fmt: skip
    assert result.data["scrolls"] == 14 and result.data["distance"] == 7000
    assert result.data["message"] == f'@{result.data["ref"]} Cell "Person 150" after 14 scroll(s), 7000 pt'
    run(s.tap("@" + result.data["ref"]))
    assert sender.commands("tap")[-1]["y"] == 50 * (150 - 141) + 24  # the row's centre on the current screen


def test_find_at_the_end_of_the_content_is_not_found_saying_how_far_it_scrolled() -> None:
    sender = Scrolling()
    with pytest.raises(ProtocolError) as info:
        run(AgentSession(sender, app_id="dev.phonewire.demo").find("Person 999"))
    assert info.value.code == e.NOT_FOUND
    assert "after 29 scroll(s) down (14150 pt): reached the end" in info.value.message
    assert len(sender.commands("scroll")) == 29


def test_find_stops_after_max_scrolls_when_the_device_cannot_measure() -> None:
    sender = Scrolling(measured=False)
    with pytest.raises(ProtocolError) as info:
        run(AgentSession(sender, app_id="dev.phonewire.demo").find("Person 999", max_scrolls=3))
    assert info.value.code == e.NOT_FOUND
    assert "after 3 scroll(s) down (the device cannot measure how far): stopped after max_scrolls=3" in str(
        info.value.message
    )
    assert len(sender.commands("scroll")) == 3
    assert DEFAULT_FIND_SCROLLS == 30


@pytest.mark.parametrize(
    ("args", "fragment"),
    [({"direction": "sideways"}, "direction"), ({"max_scrolls": -1}, "max_scrolls"), ({"max_scrolls": 1.5}, "max")],
)
def test_bad_find_arguments_are_refused_before_anything_is_sent(args: dict[str, Any], fragment: str) -> None:
    sender = Scrolling()
    with pytest.raises(ProtocolError) as info:
        run(AgentSession(sender, app_id="dev.phonewire.demo").find("Person 1", **args))
    assert info.value.code == e.INVALID_REQUEST and fragment in info.value.message
    assert not sender.sent


@pytest.mark.parametrize(
    ("selector", "terms"),
    [
        ('role=Button label="Delete person 150"', ["role=Button", "label=Delete person 150"]),
        ("id=del-180 enabled", ["id=del-180"]),
        ("id=nope || text=Far away", ["id=nope", "||", "text=Far away"]),
        ("focused || id=x", ["id=x"]),
    ],
)
def test_find_sends_the_device_every_string_term_of_the_selector(selector: str, terms: list[str]) -> None:
    sender = Scrolling()
    with pytest.raises(ProtocolError):
        run(AgentSession(sender, app_id="dev.phonewire.demo").find(selector, max_scrolls=1))
    assert sender.commands("scroll")[0]["revealTerms"] == terms


@pytest.mark.parametrize(
    "selector", ["role=Button label~=/Data Table/", "id=nope || label~=/zzz/", "role=Slider value>=3"]
)
def test_find_asks_for_no_search_when_the_device_cannot_check_a_term(selector: str) -> None:
    """A pattern or a comparison is checked by the agent only: the device would locate what the other terms match
    (the APG image description's page: `find 'role=Button label~=/Data Table/'` scrolled up to another button)."""
    sender = Scrolling()
    with pytest.raises(ProtocolError):
        run(AgentSession(sender, app_id="dev.phonewire.demo").find(selector, max_scrolls=1))
    scroll = sender.commands("scroll")[0]
    assert "revealTerms" not in scroll and "revealOnly" not in scroll and scroll["direction"] == "down"


class CannotSearch(Scrolling):
    """A device that cannot search off screen: with ``revealOnly`` it does not move and says ``located: false``."""

    async def send(self, command: str, fields: Mapping[str, Any] | None = None) -> Envelope:
        if command == "scroll" and (fields or {}).get("revealOnly"):
            self.sent.append((command, dict(fields or {})))
            return ok({"direction": "down", "distance": 0.0, "atEnd": None, "located": False})
        return await super().send(command, fields)


def test_find_located_is_not_found_at_once_when_the_device_locates_nothing_and_moves_nothing() -> None:
    sender = CannotSearch()
    s = AgentSession(sender, app_id="dev.phonewire.demo")
    with pytest.raises(ProtocolError) as info:
        run(s.find_located("Person 150"))
    assert info.value.code == e.NOT_FOUND and "located none off screen" in info.value.message and info.value.hint
    assert [f.get("revealOnly") for f in sender.commands("scroll")] == [True] and sender.top == 1
    with pytest.raises(ProtocolError):  # a selector without a term the device can look for: nothing is sent
        run(s.find_located("focused"))
    assert len(sender.commands("scroll")) == 1
    assert run(s.find_located("Person 5")).data["scrolls"] == 0  # on screen: answered at once


INSTRUCTION = RawNode("StaticText", label="Select Janessa from the list and click Submit.", rect=Rect(0, 0, 390, 40))


class Mentioned(FakeSender):
    """An instruction that mentions "Janessa" on screen; the device locates the row off screen (``locates``) and a
    reveal-only scroll brings it in, or it locates nothing and moves nothing."""

    def __init__(self, *, locates: bool) -> None:
        super().__init__(screen(INSTRUCTION, RawNode("Cell", label="Aaron", rect=Rect(0, 50, 390, 40))))
        self.locates = locates

    async def send(self, command: str, fields: Mapping[str, Any] | None = None) -> Envelope:
        if command != "scroll":
            return await super().send(command, fields)
        self.sent.append((command, dict(fields or {})))
        if not self.locates:
            return ok({"direction": "down", "located": False, "distance": 0.0, "atEnd": False})
        self.nodes = screen(INSTRUCTION, RawNode("Cell", label="Janessa", rect=Rect(0, 50, 390, 40)))
        return ok({"direction": "down", "revealed": True, "distance": 320.0, "atEnd": False,
                   "container": 'div "names"'})  # fmt: skip


def test_find_looks_past_a_paragraph_that_mentions_the_words_and_answers_the_row() -> None:
    """MiniWoB's click-scroll-list: the instruction was answered; now the device is asked (revealOnly) for a match
    off screen first, and the row it brings in is the answer."""
    sender = Mentioned(locates=True)
    result = run(AgentSession(sender, app_id="dev.phonewire.demo").find("Janessa"))
    assert result.data["line"].endswith('Cell "Janessa"') and result.data["scrolls"] == 1
    [scroll] = sender.commands("scroll")
    assert scroll["revealOnly"] is True and scroll["revealTerms"] == ["text=Janessa"]


def test_find_answers_the_mention_when_the_device_locates_nothing_beyond_it() -> None:
    sender = Mentioned(locates=False)
    result = run(AgentSession(sender, app_id="dev.phonewire.demo").find("Janessa"))
    assert "Select Janessa from the list" in result.data["line"] and result.data["scrolls"] == 0
    assert len(sender.commands("scroll")) == 1  # one look, nothing moved


def test_find_answers_a_row_on_screen_at_once_even_beside_a_mention() -> None:
    sender = Mentioned(locates=True)
    sender.nodes = screen(INSTRUCTION, RawNode("Cell", label="Janessa", rect=Rect(0, 50, 390, 40)))
    result = run(AgentSession(sender, app_id="dev.phonewire.demo").find("Janessa"))
    assert result.data["line"].endswith('Cell "Janessa"') and not sender.commands("scroll")


def test_two_elements_that_read_alike_are_an_ambiguous_tap_that_names_label_exact() -> None:
    """``label=go`` matches "Go" and "go!": AMBIGUOUS_MATCH, nothing tapped, and the hint names ``label==``."""
    sender = FakeSender(screen(RawNode("Button", label="Go", rect=Rect(0, 0, 90, 40)),
                               RawNode("Link", label="go!", rect=Rect(0, 50, 90, 40))))  # fmt: skip
    session = AgentSession(sender, app_id="dev.phonewire.demo")
    with pytest.raises(ProtocolError) as info:
        run(session.tap("label=go"))
    assert info.value.code == e.AMBIGUOUS_MATCH and "label==" in str(info.value.hint)
    assert not sender.commands("tap")
    run(session.tap("label==Go"))
    assert sender.commands("tap") == [{"x": 45.0, "y": 20.0, "appBundleId": "dev.phonewire.demo"}]
