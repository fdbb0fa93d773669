"""Covered elements (issue 10 item 2) and ``wait`` (item 3) in the agent core, over a scripted CommandSender.

A node the device found covered carries ``coveredBy``: the view marks it, ``-i`` leaves it out, and an action on
it is ELEMENT_COVERED with nothing sent.  ``wait`` looks at the screen until what it waits for holds."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

import pytest

from agent_fakes import FakeSender, screen
from phonewire.agent.core import AgentSession
from phonewire.agent.view import render
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import RawNode, Rect

T = TypeVar("T")
DRAWER = 'Dialog "Menu" id=drawer'


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def drawer_over_list(*, open_: bool = True) -> list[dict[str, Any]]:
    """A list row with a Save button and a caption, and (optionally) a drawer over it holding its own Save."""
    cover = DRAWER if open_ else None
    content = RawNode(
        "Other",
        identifier="row",
        rect=Rect(0, 100, 390, 44),
        children=[
            RawNode("StaticText", label="Row title", rect=Rect(10, 110, 100, 20)),
            RawNode("Button", label="Save", identifier="row-save", rect=Rect(300, 104, 80, 36), covered_by=cover),
        ],
    )
    children = [content]
    if open_:
        children.append(
            RawNode(
                "Dialog",
                label="Menu",
                identifier="drawer",
                rect=Rect(0, 0, 290, 844),
                children=[RawNode("Button", label="Save", identifier="drawer-save", rect=Rect(20, 400, 80, 36))],
            )
        )
    return screen(*children)


def session(nodes: list[dict[str, Any]]) -> tuple[AgentSession, FakeSender]:
    sender = FakeSender(nodes)
    return AgentSession(sender, app_id="dev.phonewire.demo"), sender


def test_the_wire_node_carries_covered_by_only_when_something_covers_it() -> None:
    nodes = drawer_over_list()
    by_id = {n["identifier"]: n for n in nodes if n.get("identifier")}
    assert by_id["row-save"]["coveredBy"] == DRAWER
    assert "coveredBy" not in by_id["drawer-save"]


def test_the_full_view_marks_covered_elements_and_the_interactive_view_leaves_them_and_their_row_out() -> None:
    nodes = drawer_over_list()
    full = render(nodes).text
    assert 'Button "Save" id=row-save [covered]' in full
    interactive = render(nodes, interactive=True)
    listed = {n.get("identifier") for n in interactive.refs.values()}
    assert "row-save" not in listed and "drawer-save" in listed
    assert "Row title" not in interactive.text  # it was kept only as the covered button's row-mate
    assert '@e2 Button "Save"' in interactive.text.splitlines()[1]  # the drawer's, under its dialog


def test_a_ref_to_a_covered_element_is_element_covered_naming_the_cover_and_nothing_is_tapped() -> None:
    s, sender = session(drawer_over_list(open_=False))
    ref = next(r for r, n in run(s.snapshot()).refs.items() if n.get("identifier") == "row-save")
    sender.nodes = drawer_over_list()  # the drawer opened since
    with pytest.raises(ProtocolError) as info:
        run(s.tap("@" + ref))
    assert info.value.code == e.ELEMENT_COVERED
    assert DRAWER in info.value.message and info.value.hint and "scroll" in info.value.hint
    assert sender.commands("tap") == []


def test_a_selector_whose_only_match_is_covered_is_element_covered_for_tap_long_press_and_fill() -> None:
    field = RawNode("TextField", label="Name", rect=Rect(0, 200, 300, 40), covered_by="Other id=backdrop")
    s, sender = session(screen(field))
    for action in (s.tap("label=Name"), s.long_press("label=Name"), s.fill("label=Name", "Ada")):
        with pytest.raises(ProtocolError) as info:
            run(action)
        assert info.value.code == e.ELEMENT_COVERED and "Other id=backdrop" in info.value.message
    # no tap, press, scroll or typing went out (reads only: the screen, and its size to see the field is not cut)
    assert [c for c, _ in sender.sent if c not in ("snapshot", "viewport")] == []


def test_a_selector_matching_covered_and_uncovered_elements_means_the_uncovered_one() -> None:
    s, sender = session(drawer_over_list())
    result = run(s.tap('role=Button label="Save"'))  # the row's Save is covered: not ambiguous
    assert sender.commands("tap") == [{"x": 60, "y": 418, "appBundleId": "dev.phonewire.demo"}]
    assert result.data["target"]["label"] == "Save"


def test_wait_finds_an_element_that_appears_on_a_later_look_and_answers_its_ref() -> None:
    s, sender = session(screen(RawNode("Heading", label="Tasks", rect=Rect(0, 0, 390, 40))))
    arrived = screen(RawNode("Button", label="Arrived", identifier="arrived", rect=Rect(0, 100, 100, 40)))
    sender.screens = [sender.nodes, arrived]  # absent on the first two looks
    result = run(s.wait('"Arrived"'))
    ref = result.data["target"]["ref"]
    assert result.data["message"].startswith(f'@{ref} Button "Arrived" id=arrived')
    assert len(sender.commands("snapshot")) == 3
    run(s.tap("@" + ref))  # the ref works right away
    assert sender.commands("tap") == [{"x": 50, "y": 120, "appBundleId": "dev.phonewire.demo"}]


def test_wait_counts_a_covered_match_as_not_showing() -> None:
    s, _sender = session(drawer_over_list())
    with pytest.raises(ProtocolError) as info:
        run(s.wait("id=row-save", timeout_ms=0))
    assert info.value.code == e.WAIT_TIMED_OUT
    assert f"covered by {DRAWER}" in info.value.message
    assert run(s.wait("id=row-save", gone=True, timeout_ms=0)).data["message"].startswith("id=row-save is gone")


def test_wait_gone_returns_once_nothing_matches() -> None:
    button = RawNode("Button", label="Arrived", rect=Rect(0, 100, 100, 40))
    s, sender = session(screen(button))
    sender.screens = [screen(button), screen()]
    result = run(s.wait("Arrived", gone=True))
    assert result.data["message"].startswith("Arrived is gone")
    assert len(sender.commands("snapshot")) == 3


def test_wait_times_out_with_what_the_screen_showed_last() -> None:
    s, sender = session(screen(RawNode("Button", label="Sign in", rect=Rect(0, 100, 100, 40))))
    with pytest.raises(ProtocolError) as info:
        run(s.wait("Welcome", timeout_ms=200))
    assert info.value.code == e.WAIT_TIMED_OUT
    assert "'Welcome'" in info.value.message and 'Button "Sign in"' in info.value.message
    with pytest.raises(ProtocolError) as still:
        run(s.wait("Sign in", gone=True, timeout_ms=0))
    assert still.value.code == e.WAIT_TIMED_OUT and 'Button "Sign in"' in still.value.message
    assert sender.commands("tap") == []


def test_wait_idle_ignores_text_that_changes_in_place_but_not_elements_that_come_and_go() -> None:
    def clock(tick: int, *extra: RawNode) -> list[dict[str, Any]]:
        return screen(RawNode("StaticText", label=str(tick), identifier="ticks", rect=Rect(0, 0, 20, 20)), *extra)

    s, sender = session(clock(0))
    sender.screens = [clock(1), clock(2)]
    assert run(s.wait(idle=True)).data["message"].startswith("the screen is idle")
    assert len(sender.commands("snapshot")) == 2  # two looks agreed although the clock ticked

    moving = [clock(i, RawNode("Button", label="Spinner", rect=Rect(0, 10 * i, 50, 50))) for i in range(50)]
    s, sender = session(moving[0])
    sender.screens = moving[1:]
    with pytest.raises(ProtocolError) as info:
        run(s.wait(idle=True, timeout_ms=200))
    assert info.value.code == e.WAIT_TIMED_OUT and "kept changing" in info.value.message


@pytest.mark.parametrize(
    ("selector", "kwargs"),
    [(None, {}), ("Save", {"idle": True}), (None, {"idle": True, "gone": True}), ("Save", {"timeout_ms": 60_001}),
     ("Save", {"timeout_ms": -1}), ('label="open', {})],
)  # fmt: skip
def test_wait_refuses_malformed_requests_before_looking(selector: str | None, kwargs: dict[str, Any]) -> None:
    s, sender = session(screen())
    with pytest.raises(ProtocolError) as info:
        run(s.wait(selector, **kwargs))
    assert info.value.code == e.INVALID_REQUEST and info.value.hint
    assert sender.sent == []
