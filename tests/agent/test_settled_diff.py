"""Every action's reply carries its settled diff (issue 23, build 1): the view's lines that changed from the screen
before the action to the screen after it, refs included, and ``changed`` derived from them — not from the device's
change mark, which misses changes that touch no DOM (a sheet moved by the page's animations) and counts ones that
change nothing a person looks for (a ticking clock, on a swipe that moved nothing)."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

import pytest

from agent_fakes import FakeSender, row, screen
from phonewire.agent.core import AgentSession
from phonewire.protocol import errors as e
from phonewire.protocol.envelope import Envelope, ok
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import RawNode, Rect

T = TypeVar("T")
APP = "dev.phonewire.demo"


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


class MarkingSender(FakeSender):
    """A device whose action replies carry its own ``changed`` (the change mark's verdict), right or wrong."""

    def __init__(self, nodes: list[dict[str, Any]], *, mark_says: bool) -> None:
        super().__init__(nodes)
        self.mark_says = mark_says
        self.home = False

    async def send(self, command: str, fields: Any = None) -> Envelope:
        if command == "snapshot" and self.home:
            self.sent.append((command, dict(fields or {})))
            raise ProtocolError(e.APP_BACKGROUNDED, "the app is in the background", "Open it again.")
        reply = await super().send(command, fields)
        if command in ("tap", "drag", "button", "type"):
            self.home = self.home or (command == "button" and (fields or {}).get("button") == "home")
            return ok({"changed": self.mark_says})
        return reply


def clock(time: str) -> RawNode:
    return RawNode("StaticText", label=time, identifier="clock", rect=Rect(300, 10, 80, 20))


def sheet(expanded: bool) -> list[dict[str, Any]]:
    """A bottom sheet: collapsed, its heading near the bottom and its rows below the screen; expanded, at the top."""
    top = 44 if expanded else 760
    items = [RawNode("StaticText", label=f"Stop {i}", rect=Rect(20, top + 40 + i * 44, 200, 20)) for i in range(4)]
    return screen(clock("12:00:00"), RawNode("Heading", label="Stops", rect=Rect(20, top, 200, 30)), *items)


def test_a_tap_the_change_mark_missed_answers_changed_with_the_line_that_changed() -> None:
    sender = MarkingSender(screen(row(1, 100, 0), row(2, 150, 0)), mark_says=False)
    sender.screens = [screen(row(1, 100, 1), row(2, 150, 0))]  # what shows after the tap
    agent = AgentSession(sender, app_id=APP)
    result = run(agent.tap('text="Row 1"'))
    assert result.changed is True
    assert result.diff == ['- StaticText "count 0"', '+ @e2 StaticText "count 1"']  # as `snapshot --diff` says
    assert [c for c, _ in sender.sent] == ["snapshot", "tap", "snapshot"]  # the target's look is the one before


def test_a_swipe_that_moved_a_sheet_is_changed_and_its_diff_shows_what_came_into_view() -> None:
    sender = MarkingSender(sheet(expanded=False), mark_says=False)
    sender.screens = [sheet(expanded=True)]
    agent = AgentSession(sender, app_id=APP)
    result = run(agent.swipe(200, 780, 200, 60))
    assert result.changed is True
    assert result.diff is not None and {line[:2] for line in result.diff} == {"+ "}
    assert [line.split(" ", 2)[2] for line in result.diff] == [f'StaticText "Stop {i}"' for i in range(1, 4)]
    assert [c for c, _ in sender.sent] == ["snapshot", "drag", "snapshot"]  # a look before it, one after


def test_a_ticking_clock_is_the_only_line_of_the_diff_of_a_swipe_that_moved_nothing() -> None:
    before = screen(clock("12:00:00"), row(1, 100), row(2, 150))
    sender = MarkingSender(before, mark_says=True)  # the mark counted the clock's tick as the swipe's change
    sender.screens = [screen(clock("12:00:01"), row(1, 100), row(2, 150))]
    agent = AgentSession(sender, app_id=APP)
    result = run(agent.swipe(100, 110, 100, 160))
    assert result.diff == ['~ @e1 StaticText "12:00:01" id=clock  (was: "12:00:00")']
    assert result.changed is True  # a line changed, and the diff says which: the clock


def test_an_action_that_changed_nothing_is_unchanged_whatever_the_mark_said() -> None:
    sender = MarkingSender(screen(row(1, 100), row(2, 150)), mark_says=True)
    agent = AgentSession(sender, app_id=APP)
    result = run(agent.type("x"))
    assert result.diff == [] and result.changed is False


def test_the_refs_of_the_diff_are_the_ones_to_act_on_next() -> None:
    sender = MarkingSender(screen(row(1, 100)), mark_says=False)
    sender.screens = [screen(row(1, 100), row(2, 150))]  # a row appears
    agent = AgentSession(sender, app_id=APP)
    result = run(agent.tap('text="Row 1"'))
    added = [line for line in (result.diff or []) if line.startswith("+ ") and '"+"' in line]
    assert len(added) == 1
    ref = added[0].split(" ")[1]
    run(agent.tap(ref))
    assert sender.commands("tap")[-1]["y"] == 150 + 4 + 18  # the new row's "+", where it is


def test_an_action_that_sends_the_app_away_keeps_the_device_verdict_and_has_no_diff() -> None:
    sender = MarkingSender(screen(row(1, 100)), mark_says=True)
    agent = AgentSession(sender, app_id=APP)
    result = run(agent.press("home"))
    assert result.diff is None and result.changed is True  # the screen after it is no app's: nothing to compare
    assert [c for c, _ in sender.sent] == ["snapshot", "button", "snapshot"]


def test_a_session_without_settled_diffs_answers_as_the_device_did() -> None:
    sender = MarkingSender(screen(row(1, 100)), mark_says=True)
    agent = AgentSession(sender, app_id=APP, settled_diff=False)
    result = run(agent.type("x"))
    assert result.diff is None and result.changed is True
    assert [c for c, _ in sender.sent] == ["type"]


class MarkedSender(FakeSender):
    """A web-like device: its snapshots carry a change mark and its nodes serials; a tap aimed with the mark of a
    screen it no longer shows is refused (ELEMENT_MOVED), as the web device's aim is."""

    def __init__(self, nodes: list[dict[str, Any]]) -> None:
        super().__init__([{**n, "serial": str(n["index"] + 100)} for n in nodes])
        self.mark = "doc:1"

    async def send(self, command: str, fields: Any = None) -> Envelope:
        if command == "tap" and (fields or {}).get("mark") not in (None, self.mark):
            self.sent.append((command, dict(fields or {})))
            raise ProtocolError(e.ELEMENT_MOVED, "the screen changed after the snapshot", "Snapshot again.")
        reply = await super().send(command, fields)
        if command == "snapshot":
            return ok({**(reply.data or {}), "mark": self.mark})
        return reply


def test_a_ref_from_an_actions_reply_is_tapped_by_that_screen_with_no_look_of_its_own() -> None:
    """The view an action's reply issued carries its screen's change mark: a tap on one of its refs goes where that
    screen put it (the device checks the mark), and the screen before it is that view — one snapshot per tap, the
    one after (it took a fresh one before, to re-find the ref)."""
    sender = MarkedSender(screen(row(1, 100, 0), row(2, 150, 0)))
    agent = AgentSession(sender, app_id=APP)
    first = run(agent.tap('text="Row 1"'))
    ref = [line.split()[0][1:] for line in run(agent.snapshot()).text.splitlines() if 'Button "+"' in line][-1]
    sender.sent.clear()
    run(agent.tap(f"@{ref}"))
    run(agent.tap(f"@{ref}"))  # a ref of the previous tap's reply
    assert [c for c, _ in sender.sent] == ["tap", "snapshot", "tap", "snapshot"]
    assert all(body.get("mark") == "doc:1" for c, body in sender.sent if c == "tap")
    assert first.changed is False
    sender.mark = "doc:2"  # the page changed since: refused on the device, then re-found on a fresh look
    sender.sent.clear()
    result = run(agent.tap(f"@{ref}"))
    assert [c for c, _ in sender.sent] == ["tap", "snapshot", "tap", "snapshot"]
    assert result.diff == []


def test_a_selector_naming_one_element_of_the_screen_the_last_reply_left_is_tapped_there_with_no_look_of_its_own() -> (
    None
):
    """A selector is matched on the view the last action's reply issued, while its mark holds: one element there is
    tapped at its place with the mark (one snapshot per tap: the one after, which is the next tap's screen before);
    the page changed since, the device refuses and it is matched on a fresh look.  A selector that matches two
    elements there, or none, is judged on a fresh snapshot (its refusal lists what is on the screen now)."""
    sender = MarkedSender(screen(row(1, 100, 0), row(2, 150, 0)))
    agent = AgentSession(sender, app_id=APP)
    run(agent.tap('text="Row 1"'))  # the first: no view yet, so a look of its own
    sender.sent.clear()
    run(agent.tap('text="Row 2"'))
    run(agent.tap('text="Row 1"'))
    assert [c for c, _ in sender.sent] == ["tap", "snapshot", "tap", "snapshot"]
    assert all(body.get("mark") == "doc:1" and body.get("element") for c, body in sender.sent if c == "tap")
    sender.mark = "doc:2"
    sender.sent.clear()
    run(agent.tap('text="Row 2"'))
    assert [c for c, _ in sender.sent] == ["tap", "snapshot", "tap", "snapshot"]
    sender.sent.clear()
    with pytest.raises(ProtocolError) as refused:
        run(agent.tap('role=Button label="+"'))  # both rows' buttons: ambiguous there, and on a fresh look
    assert refused.value.code == e.AMBIGUOUS_MATCH
    assert [c for c, _ in sender.sent] == ["snapshot"]


def test_a_point_tap_goes_by_the_screen_the_agent_last_saw_and_looks_again_only_when_the_page_changed() -> None:
    """A tap at a point carries the change mark of the screen the agent last saw (or the last reply left): that
    screen is its look before (one snapshot per tap, the one after).  If the page changed since, the device sent
    nothing (ELEMENT_MOVED): the tap goes again, unmarked, after a look of its own — once, and its diff starts from
    that look."""
    sender = MarkedSender(screen(row(1, 100, 0), row(2, 150, 0)))
    agent = AgentSession(sender, app_id=APP)
    run(agent.tap("50 110"))  # the first: no screen seen yet, so a look of its own and no mark
    assert [c for c, _ in sender.sent] == ["snapshot", "tap", "snapshot"]
    assert "mark" not in sender.sent[1][1]
    sender.sent.clear()
    run(agent.tap("50 110"))
    run(agent.tap("50 160"))
    assert [c for c, _ in sender.sent] == ["tap", "snapshot", "tap", "snapshot"]
    assert all(body.get("mark") == "doc:1" and "element" not in body for c, body in sender.sent if c == "tap")
    sender.mark = "doc:2"
    sender.sent.clear()
    result = run(agent.tap("50 110"))
    assert [c for c, _ in sender.sent] == ["tap", "snapshot", "tap", "snapshot"]
    assert sender.sent[0][1].get("mark") == "doc:1" and "mark" not in sender.sent[2][1]
    assert result.diff == []
    agent.settled_diff = False  # no diff asked for: no look to save, so no mark
    sender.sent.clear()
    run(agent.tap("50 110"))
    assert sender.sent == [("tap", {"x": 50.0, "y": 110.0, "appBundleId": APP})]


class NavigatingSender(MarkedSender):
    """A tap that loads another document: the screen after it is ``page`` under a new document's mark."""

    def __init__(self, nodes: list[dict[str, Any]], page: list[dict[str, Any]]) -> None:
        super().__init__(nodes)
        self.page = [{**n, "serial": str(n["index"] + 500)} for n in page]

    async def send(self, command: str, fields: Any = None) -> Envelope:
        reply = await super().send(command, fields)
        if command == "tap":
            self.nodes, self.mark = self.page, "doc2:1"
        return reply


def test_a_tap_that_loads_another_page_answers_the_new_pages_view_not_every_line_of_both() -> None:
    """A form that posted, a link that navigated: the diff's lines would be every line of the old page removed and
    every line of the new one added.  The reply says "a new page" and gives its view, once; its refs act next."""
    login = screen(RawNode("TextField", label="User", rect=Rect(20, 100, 300, 40)),
                   RawNode("Button", label="Log in", rect=Rect(20, 160, 300, 40)))  # fmt: skip
    home = screen(RawNode("Heading", label="Welcome", rect=Rect(20, 60, 300, 30)),
                  RawNode("Link", label="Log out", rect=Rect(20, 120, 100, 30)))  # fmt: skip
    sender = NavigatingSender(login, home)
    agent = AgentSession(sender, app_id=APP)
    result = run(agent.tap('"Log in"'))
    assert result.diff is not None and result.diff[0] == "# a new page (the one before is gone):"
    assert [line.split(" ", 1)[1] for line in result.diff[1:]] == ['Heading "Welcome"', 'Link "Log out"']
    assert result.changed is True
    ref = result.diff[2].split()[0]
    sender.sent.clear()
    again = run(agent.tap(ref))  # by the new page's view, with its mark: no look of its own
    assert [c for c, _ in sender.sent] == ["tap", "snapshot"] and sender.sent[0][1]["mark"] == "doc2:1"
    assert again.diff == []


def test_a_closed_select_that_came_into_view_is_one_line_with_its_option_count() -> None:
    """MiniWoB choose-list: START showed a closed select, and the reply listed each of its options (placeless: they
    show only when it opens).  An action's diff says the select as ``-i`` does; its choice is its value."""
    countries = ["Tunisia", "Iran", "Namibia", "Greece"]
    options = [RawNode("StaticText", label=c, selected=c == "Tunisia") for c in countries]
    select = RawNode("ComboBox", identifier="options", value="Tunisia", rect=Rect(10, 200, 200, 30), children=options)
    start = RawNode("Button", label="START", rect=Rect(0, 0, 390, 60))
    task = screen(RawNode("Button", label="Submit", rect=Rect(10, 300, 100, 30)), select)

    class Starting(FakeSender):
        async def send(self, command: str, fields: Any = None) -> Envelope:
            reply = await super().send(command, fields)
            if command == "tap":
                self.nodes = task
            return reply

    sender = Starting(screen(start))
    agent = AgentSession(sender, app_id=APP)
    run(agent.snapshot())
    result = run(agent.tap('"START"'))
    lines = result.diff or []
    assert any(line.endswith('ComboBox id=options value="Tunisia" (4 options, select one)') for line in lines), lines
    assert not any(c in line for line in lines for c in countries[1:]), lines
