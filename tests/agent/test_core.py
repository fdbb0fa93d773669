"""AgentSession over a scripted CommandSender: targets, refs that cannot hit the wrong element, actions."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import replace
from typing import Any, TypeVar

import pytest

from agent_fakes import FakeSender, row, screen
from phonewire.agent import fill as filling
from phonewire.agent.core import AgentSession
from phonewire.protocol import errors as e
from phonewire.protocol.envelope import Envelope
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import RawNode, Rect

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def rows(first: int, last: int, *, top: float = 100, counts: dict[int, int] | None = None) -> list[dict[str, Any]]:
    counts = counts or {}
    return screen(*(row(i, top + (i - first) * 50, counts.get(i, 0)) for i in range(first, last + 1)))


def twin(y: float) -> RawNode:
    return RawNode("Button", label="OK", rect=Rect(0, y, 90, 40))


def name_field(value: str) -> RawNode:
    return RawNode("TextField", label="Name", value=value, rect=Rect(0, 100, 300, 40))


def session(nodes: list[dict[str, Any]]) -> tuple[AgentSession, FakeSender]:
    sender = FakeSender(nodes)
    return AgentSession(sender, app_id="dev.phonewire.demo"), sender


def test_app_scoped_ops_need_an_open_app() -> None:
    s = AgentSession(FakeSender([]))
    with pytest.raises(ProtocolError) as info:
        run(s.snapshot())
    assert info.value.code == e.APP_BUNDLE_ID_REQUIRED
    assert info.value.hint and "open an app first" in info.value.hint.lower()


class UnreachableSender(FakeSender):
    """A runner that cannot be reached (attached to an address where nothing listens)."""

    async def send(self, command: str, fields: Any = None) -> Envelope:
        self.sent.append((command, dict(fields or {})))
        raise ProtocolError(e.RUNNER_UNAVAILABLE, f"{command} was not sent: connection refused", "Start the runner.")


def test_an_unreachable_runner_is_reported_as_such_not_as_no_app_open_whatever_the_operation() -> None:
    calls: dict[str, Callable[[AgentSession], Coroutine[Any, Any, object]]] = {
        "snapshot": lambda s: s.snapshot(),
        "tap": lambda s: s.tap("1 1"),
        "close_app": lambda s: s.close_app(),
        "viewport": lambda s: s.viewport(),
        "list_apps": lambda s: s.list_apps(),
    }
    for what, call in calls.items():
        sender = UnreachableSender()
        with pytest.raises(ProtocolError) as info:
            run(call(AgentSession(sender)))
        assert info.value.code == e.RUNNER_UNAVAILABLE, what
        assert [command for command, _ in sender.sent if command == "snapshot"] == [], what  # nothing app-scoped


def test_open_app_makes_it_the_target_of_later_commands() -> None:
    sender = FakeSender(rows(1, 2))
    s = AgentSession(sender)
    run(s.open_app("dev.phonewire.demo"))
    run(s.tap("10 20"))
    assert sender.commands("tap") == [{"x": 10.0, "y": 20.0, "appBundleId": "dev.phonewire.demo"}]


def test_a_ref_taps_the_current_centre_of_the_same_element() -> None:
    s, sender = session(rows(1, 5))
    view = run(s.snapshot())
    ref = next(r for r, n in view.refs.items() if n["label"] == "+" and n["rect"]["y"] == 154)  # row 2's button
    sender.nodes = rows(1, 5, top=60)  # the list moved up by 40 points
    run(s.tap("@" + ref))
    assert sender.commands("tap") == [{"x": 350.0, "y": 132.0, "appBundleId": "dev.phonewire.demo"}]


def test_a_ref_follows_its_row_when_the_list_scrolled_by_exactly_one_row() -> None:
    s, sender = session(rows(1, 5))
    view = run(s.snapshot())
    ref = next(r for r, n in view.refs.items() if n["label"] == "+" and n["rect"]["y"] == 154)  # row 2
    sender.nodes = rows(2, 6)  # row 2 now sits where row 1 was
    run(s.tap(ref))
    assert sender.commands("tap")[0]["y"] == 104 + 18  # row 2's button, now in the first slot


def test_a_ref_survives_its_own_row_counter_changing() -> None:
    s, sender = session(rows(1, 3))
    view = run(s.snapshot())
    ref = next(r for r, n in view.refs.items() if n["label"] == "+" and n["rect"]["y"] == 154)  # row 2
    sender.nodes = rows(1, 3, top=80, counts={2: 1, 3: 0})
    run(s.tap(ref))
    assert sender.commands("tap")[0]["y"] == 80 + 50 + 4 + 18


def test_a_ref_whose_element_is_gone_is_stale_and_nothing_is_tapped() -> None:
    s, sender = session(rows(1, 3))
    view = run(s.snapshot())
    ref = next(r for r, n in view.refs.items() if n["label"] == "+" and n["rect"]["y"] == 154)  # row 2
    sender.nodes = screen(RawNode("Heading", label="Detail", rect=Rect(0, 0, 390, 40)))  # navigated away
    with pytest.raises(ProtocolError) as info:
        run(s.tap(ref))
    assert info.value.code == e.STALE_REF
    assert info.value.hint and "snapshot" in info.value.hint
    assert sender.commands("tap") == []


def test_a_ref_that_became_indistinguishable_is_stale_and_nothing_is_tapped() -> None:
    s, sender = session(screen(twin(100)))
    run(s.snapshot())
    sender.nodes = screen(twin(300), twin(400))
    with pytest.raises(ProtocolError) as info:
        run(s.tap("@e1"))
    assert info.value.code == e.STALE_REF
    assert sender.commands("tap") == []


def test_an_unchanged_screen_resolves_even_identical_twins_by_place() -> None:
    s, sender = session(screen(twin(100), twin(300)))
    run(s.snapshot())
    run(s.tap("@e2"))
    assert sender.commands("tap")[0]["y"] == 320


def test_a_ref_not_issued_by_the_last_snapshot_is_stale() -> None:
    s, sender = session(rows(1, 2))
    run(s.snapshot())
    with pytest.raises(ProtocolError) as info:
        run(s.tap("@e99"))
    assert info.value.code == e.STALE_REF
    assert sender.commands("tap") == []


def test_a_text_field_ref_survives_its_value_changing() -> None:
    s, sender = session(screen(name_field("Ann"), RawNode("Button", label="Go", rect=Rect(0, 200, 90, 40))))
    run(s.snapshot())
    sender.nodes = screen(name_field("Annabel"), RawNode("Button", label="Go", rect=Rect(0, 250, 90, 40)))
    run(s.tap("@e1"))
    assert sender.commands("tap")[0]["y"] == 120


def test_an_ambiguous_selector_lists_the_candidates_as_refs_that_then_work() -> None:
    s, sender = session(rows(1, 3))
    with pytest.raises(ProtocolError) as info:
        run(s.tap("label=+"))
    assert info.value.code == e.AMBIGUOUS_MATCH
    assert info.value.message.endswith('matches 3 elements: @e1 Button "+"; @e2 Button "+"; @e3 Button "+"')
    assert sender.commands("tap") == []
    run(s.tap("@e3"))
    assert sender.commands("tap")[0]["y"] == 200 + 4 + 18


def test_candidates_on_the_snapshotted_screen_reuse_the_refs_already_issued() -> None:
    s, _ = session(rows(1, 2))
    view = run(s.snapshot(interactive=True))
    plus = [r for r, n in view.refs.items() if n["label"] == "+"]
    with pytest.raises(ProtocolError) as info:
        run(s.tap("label=+"))
    assert f'@{plus[0]} Button "+"; @{plus[1]} Button "+"' in info.value.message


def test_refs_of_an_earlier_snapshot_keep_their_meaning_after_selector_answers() -> None:
    s, sender = session(rows(1, 2))
    view = run(s.snapshot(interactive=True))
    row2_plus = next(r for r, n in view.refs.items() if n["label"] == "+" and n["rect"]["y"] == 154)
    sender.nodes = rows(1, 3, top=80)  # the screen moved: candidates get new numbers
    with pytest.raises(ProtocolError) as info:
        run(s.tap("label=+"))
    assert f"@e{len(view.refs) + 1} " in info.value.message  # numbering continues after the snapshot's refs
    run(s.tap("text=Row 1"))  # an unambiguous selector issues nothing
    run(s.tap("@" + row2_plus))
    assert sender.commands("tap")[-1]["y"] == 80 + 50 + 4 + 18  # still row 2's button


def test_a_selector_matching_nothing_is_not_found() -> None:
    s, sender = session(rows(1, 2))
    with pytest.raises(ProtocolError) as info:
        run(s.tap('label="Nope"'))
    assert info.value.code == e.NOT_FOUND
    assert sender.commands("tap") == []


def test_a_bad_selector_fails_before_any_device_command() -> None:
    s, sender = session(rows(1, 2))
    with pytest.raises(ProtocolError) as info:
        run(s.tap("colour=red"))
    assert info.value.code == e.INVALID_REQUEST
    assert sender.sent == []


def test_fill_taps_the_field_end_clears_its_value_checks_it_is_empty_and_types() -> None:
    field = RawNode("TextField", label="Name", value="Ann", rect=Rect(0, 100, 300, 40))
    s, sender = session(screen(field))
    sender.screens = [screen(name_field(""))]  # what the check after the deletes sees
    result = run(s.fill("label=Name", "Bob"))
    assert [c for c, _ in sender.sent] == [
        "snapshot",
        "tap",
        "keyboardDelete",
        "keyboardDelete",
        "keyboardDelete",
        "snapshot",
        "type",
        "snapshot",  # the screen after it, for the reply's diff (the first one showed it before)
    ]
    assert sender.commands("tap")[0]["x"] == 288
    assert sender.commands("type") == [{"text": "Bob", "appBundleId": "dev.phonewire.demo"}]
    assert result.data["cleared"] == 3


def test_fill_taps_the_end_again_for_text_the_caret_was_not_after(monkeypatch: pytest.MonkeyPatch) -> None:
    # The focusing tap put the caret inside a value wider than the field: the deletes left its tail.
    monkeypatch.setattr(filling, "REFOCUS_PAUSE_S", 0.0)
    s, sender = session(screen(name_field("Ann Lovelace")))
    sender.screens = [screen(name_field("lace")), screen(name_field(""))]
    result = run(s.fill("label=Name", "Bob"))
    assert [c for c, _ in sender.sent if c != "keyboardDelete"] == [
        "snapshot",
        "tap",
        "snapshot",
        "tap",
        "snapshot",
        "type",
        "snapshot",
    ]
    assert len(sender.commands("keyboardDelete")) == result.data["cleared"] == 12 + 4
    assert sender.commands("type") == [{"text": "Bob", "appBundleId": "dev.phonewire.demo"}]


def test_fill_never_types_after_text_it_could_not_clear(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(filling, "REFOCUS_PAUSE_S", 0.0)
    s, sender = session(screen(name_field("Ann")))
    with pytest.raises(ProtocolError) as info:
        run(s.fill("label=Name", "Bob"))  # the fake's field keeps "Ann" whatever is deleted
    assert info.value.code == e.COMMAND_FAILED and "'Ann'" in info.value.message
    assert info.value.hint and "snapshot" in info.value.hint
    assert sender.commands("type") == [] and len(sender.commands("keyboardDelete")) == 3


def test_press_maps_keys_to_commands_and_rejects_unknown_keys() -> None:
    s, sender = session([])
    run(s.press("Enter"))
    run(s.press("backspace"))
    run(s.press("home"))
    # each key between the two looks of its diff
    looked = ["snapshot", "keyboardReturn", "snapshot", "snapshot", "keyboardDelete", "snapshot"]
    assert [c for c, _ in sender.sent] == [*looked, "snapshot", "button", "snapshot"]
    assert sender.commands("button") == [{"button": "home"}]
    with pytest.raises(ProtocolError) as info:
        run(s.press("f13"))
    assert info.value.code == e.INVALID_REQUEST


def test_scroll_sends_one_scroll_command_and_a_target_becomes_the_point_of_its_container() -> None:
    s, sender = session(screen(RawNode("ScrollView", label="Grid", identifier="grid", rect=Rect(0, 100, 390, 120))))
    run(s.scroll("down", amount=0.5))
    assert sender.commands("scroll") == [{"direction": "down", "amount": 0.5, "appBundleId": "dev.phonewire.demo"}]
    result = run(s.scroll("Right", "id=grid"))
    assert sender.commands("scroll")[1] == {
        "direction": "right", "amount": 0.6, "x": 195, "y": 160, "appBundleId": "dev.phonewire.demo"
    }  # fmt: skip
    assert result.data["target"]["label"] == "Grid"
    assert not sender.commands("drag")  # the device chooses the drag (devices.base.scroll_drag / web scrolling)
    with pytest.raises(ProtocolError) as bad:
        run(s.scroll("sideways"))
    assert bad.value.code == e.INVALID_REQUEST and "up, down, left, right" in str(bad.value.hint)


def test_diff_snapshot_reports_changes_since_the_previous_snapshot() -> None:
    s, sender = session(rows(1, 2))
    first = run(s.snapshot(diff=True))
    assert first.text.startswith("# no previous snapshot")
    sender.nodes = rows(1, 2, counts={1: 1})
    second = run(s.snapshot(diff=True))
    # "count 1" is a new element (no identifier, new text): it gets a number never issued before in this session
    assert second.text.splitlines() == ['- StaticText "count 0"', f'+ @e{len(first.refs) + 1} StaticText "count 1"']
    third = run(s.snapshot(diff=True))
    assert third.text == "# no changes"


def cell_rows(first: int, last: int, *, top: float = 100) -> list[dict[str, Any]]:
    """Unlabeled list rows (Cells) whose only identity is the text inside them."""

    def cell(i: int) -> RawNode:
        y = top + (i - first) * 50
        return RawNode("Cell", rect=Rect(0, y, 390, 44),
                       children=[RawNode("StaticText", label=f"Item {i}", rect=Rect(10, y + 12, 200, 20))])  # fmt: skip

    return screen(*(cell(i) for i in range(first, last + 1)))


def test_a_ref_to_an_unlabeled_row_follows_the_text_inside_it() -> None:
    s, sender = session(cell_rows(1, 6))
    view = run(s.snapshot(interactive=True))
    item3 = next(r for r, n in view.refs.items() if n["type"] == "Cell" and n["rect"]["y"] == 200)
    sender.nodes = cell_rows(3, 8)  # scrolled by two rows: Item 3 is now first
    run(s.tap("@" + item3))
    assert sender.commands("tap")[0]["y"] == 100 + 22


def test_a_ref_to_a_row_that_scrolled_off_is_stale() -> None:
    s, sender = session(cell_rows(1, 6))
    view = run(s.snapshot(interactive=True))
    item1 = next(r for r, n in view.refs.items() if n["type"] == "Cell" and n["rect"]["y"] == 100)
    sender.nodes = cell_rows(3, 8)
    with pytest.raises(ProtocolError) as info:
        run(s.tap("@" + item1))
    assert info.value.code == e.STALE_REF
    assert sender.commands("tap") == []


def like(i: int, n: int, y: float) -> RawNode:
    return RawNode("Button", label=f"Like {n}", identifier=f"like-{i}", rect=Rect(300, y, 80, 40))


def titled(title: str, button: RawNode) -> RawNode:
    """A row: a title and a control in one band."""
    y = button.rect.y
    return RawNode("Other", rect=Rect(0, y, 390, 40),
                   children=[RawNode("StaticText", label=title, rect=Rect(10, y + 10, 100, 20)), button])  # fmt: skip


def test_a_ref_with_an_identifier_survives_a_counter_in_its_label() -> None:
    s, sender = session(screen(titled("Tea", like(1, 0, 100)), titled("Milk", like(2, 0, 150))))
    view = run(s.snapshot())
    tea = next(r for r, n in view.refs.items() if n["identifier"] == "like-1")
    sender.nodes = screen(titled("Tea", like(1, 1, 100)), titled("Milk", like(2, 0, 150)))
    run(s.tap("@" + tea))
    run(s.tap("@" + tea))
    assert [t["y"] for t in sender.commands("tap")] == [120, 120]


def test_an_identifier_that_encodes_a_position_never_carries_a_ref_to_the_next_row() -> None:
    # A grid whose cell ids encode positions: removing the first row gives its ids to the row below.
    def number(pos: int, country: str, digits: str) -> RawNode:
        return titled(country, RawNode("Cell", label=digits, identifier=f"grid-cell-{pos}-0",
                                       rect=Rect(200, 100 + 50 * pos, 150, 40)))  # fmt: skip

    s, sender = session(screen(number(0, "UK", "+44 20 7946"), number(1, "France", "+33 1 2345")))
    view = run(s.snapshot())
    uk = next(r for r, n in view.refs.items() if n["identifier"] == "grid-cell-0-0")
    sender.nodes = screen(number(0, "France", "+33 1 2345"))
    with pytest.raises(ProtocolError) as info:
        run(s.tap("@" + uk))
    assert info.value.code == e.STALE_REF
    assert sender.commands("tap") == []


def test_twins_without_a_row_that_tells_them_apart_are_stale_once_the_screen_changes() -> None:
    # Two unlabeled delete buttons in rows that read the same: after one row goes, the survivor is not provably
    # the one the ref named.
    def delete(y: float) -> RawNode:
        return titled("Milk", RawNode("Button", rect=Rect(320, y, 60, 40)))

    s, sender = session(screen(delete(100), delete(150)))
    view = run(s.snapshot())
    first = next(r for r, n in view.refs.items() if n["type"] == "Button" and n["rect"]["y"] == 100)
    sender.nodes = screen(delete(100))
    with pytest.raises(ProtocolError) as info:
        run(s.tap("@" + first))
    assert info.value.code == e.STALE_REF
    assert sender.commands("tap") == []


def test_without_an_identifier_a_changed_number_is_another_element() -> None:
    def item(i: int, y: float) -> RawNode:
        return RawNode("Link", label=f"Item {i}", rect=Rect(0, y, 200, 40))

    s, sender = session(screen(item(1, 100), item(2, 150)))
    run(s.snapshot())
    sender.nodes = screen(item(2, 100), item(3, 150))  # Item 1 scrolled away
    with pytest.raises(ProtocolError) as info:
        run(s.tap("@e1"))
    assert info.value.code == e.STALE_REF
    assert sender.commands("tap") == []


def test_fill_prefers_the_text_field_among_the_matches() -> None:
    s, sender = session(screen(
        RawNode("Heading", label="Email", rect=Rect(0, 0, 390, 30)),
        RawNode("TextField", label="Email", rect=Rect(0, 100, 300, 40)),
    ))  # fmt: skip
    run(s.fill("text=Email", "a@b.c"))
    assert sender.commands("tap")[0]["y"] == 120


def test_fill_refuses_a_target_that_is_not_a_text_field_before_touching_it() -> None:
    s, sender = session(screen(RawNode("Button", label="Delete everything", rect=Rect(0, 0, 200, 40))))
    with pytest.raises(ProtocolError) as info:
        run(s.fill("text=Delete", "x"))
    assert info.value.code == e.INVALID_REQUEST
    assert sender.commands("tap") == [] and sender.commands("type") == []


# -- ref numbers are never reused for another element within a session ----------------------------------------------
def test_a_new_snapshot_keeps_the_ref_of_every_element_still_on_screen() -> None:
    s, sender = session(rows(1, 5))
    first = run(s.snapshot())
    sender.nodes = rows(2, 6)  # scrolled by one row: rows 2-5 stay, row 1 left, row 6 came in
    second = run(s.snapshot())
    by_label_1 = {n["label"]: r for r, n in first.refs.items() if str(n["label"]).startswith("Row")}
    by_label_2 = {n["label"]: r for r, n in second.refs.items() if str(n["label"]).startswith("Row")}
    for kept in ("Row 2", "Row 3", "Row 4", "Row 5"):
        assert by_label_2[kept] == by_label_1[kept]
    issued_before = {int(r[1:]) for r in first.refs}
    assert int(by_label_2["Row 6"][1:]) > max(issued_before)  # a newcomer gets a fresh number
    # the identical "+" buttons keep theirs too (told apart by their row): row 3's "+" taps row 3
    plus_3 = next(r for r, n in first.refs.items() if n["label"] == "+" and n["rect"]["y"] == 204)
    assert second.refs[plus_3]["rect"]["y"] == 154  # row 3 now sits in the second slot


def test_an_old_ref_never_comes_to_name_a_different_element() -> None:
    s, sender = session(rows(1, 5))
    first = run(s.snapshot())
    gone = next(r for r, n in first.refs.items() if n["label"] == "Row 1")
    sender.nodes = rows(6, 10)  # a whole new page of rows: row 1 is gone
    second = run(s.snapshot())
    assert gone not in second.refs  # its number was not handed to one of the new rows
    with pytest.raises(ProtocolError) as info:
        run(s.tap("@" + gone))
    assert info.value.code == e.STALE_REF
    assert sender.commands("tap") == []


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.tap("10 20", count=0),
        lambda s: s.tap("10 20", count=21),
        lambda s: s.tap_point(10, 20, count=2.5),
        lambda s: s.tap_point(float("nan"), 20),
        lambda s: s.long_press("10 20", duration_ms=-1),
        lambda s: s.long_press("10 20", duration_ms=float("inf")),
        lambda s: s.swipe(1, 2, 3, float("nan")),
        lambda s: s.swipe(1, 2, 3, 4, duration_ms=120_000),
        lambda s: s.screenshot(format="gif"),
        lambda s: s.screenshot(scale="huge"),
    ],
)
def test_options_the_runner_would_refuse_fail_first_with_a_hint_and_send_nothing(call: Any) -> None:
    # Every front end (the Python API too) gets INVALID_REQUEST with a hint, never a hintless runner error or a
    # bare ValueError from encoding NaN.
    s, sender = session(screen(name_field("")))
    with pytest.raises(ProtocolError) as info:
        run(call(s))
    assert info.value.code == e.INVALID_REQUEST
    assert info.value.hint
    assert sender.sent == []


def test_a_tap_lands_on_the_visible_part_of_an_element_half_hidden_by_its_scroll_view() -> None:
    # The row peeks 6 points out of the list's clip; its centre lies on the tab bar below the list, so a tap at
    # the centre would hit a tab, another element.  Refs and selectors tap the middle of what is visible.
    s, sender = session(screen(
        RawNode("ScrollView", rect=Rect(0, 52, 390, 744), children=[
            RawNode("Cell", identifier="row-14", rect=Rect(0, 790, 390, 56)),
        ]),
        RawNode("NavigationBar", label="Tabs", rect=Rect(0, 796, 390, 48), children=[
            RawNode("Link", label="Controls", rect=Rect(195, 796, 97, 48)),
        ]),
    ))  # fmt: skip
    view = run(s.snapshot())
    ref = next(r for r, n in view.refs.items() if n["identifier"] == "row-14")
    run(s.tap("@" + ref))
    run(s.tap("id=row-14"))
    assert [(t["x"], t["y"]) for t in sender.commands("tap")] == [(195, 793), (195, 793)]


def test_a_scroll_that_brings_a_background_app_to_the_front_says_so() -> None:
    # the runner re-fronts a background app for the scroll command and stamps its reply
    class Backgrounded(FakeSender):
        async def send(self, command: str, fields: Any = None) -> Envelope:
            reply = await super().send(command, fields)
            return replace(reply, reactivated=True) if command == "scroll" else reply

    sender = Backgrounded([])
    result = run(AgentSession(sender, app_id="dev.phonewire.demo").scroll("down"))
    assert [c for c, _ in sender.sent] == ["snapshot", "scroll", "snapshot"]
    assert result.reactivated is True


def test_fill_finds_the_text_field_inside_a_group_that_matches_the_same_selector() -> None:
    # "An ancestor wins over its descendants" must not hide the field that fill needs (a fieldset or a labelled
    # group with the field's own name around it).
    s, sender = session(screen(
        RawNode("Group", label="Email", rect=Rect(0, 80, 390, 80), children=[
            RawNode("TextField", label="Email", rect=Rect(10, 110, 300, 40)),
        ]),
    ))  # fmt: skip
    sender.screens = []
    run(s.fill("text=Email", "a@b.c"))
    assert sender.commands("tap")[0]["y"] == 130
    assert sender.commands("type") == [{"text": "a@b.c", "appBundleId": "dev.phonewire.demo"}]


class GatedSender(FakeSender):
    """Holds every command named ``held`` until ``release`` is set; records when each one ended."""

    def __init__(self, nodes: list[dict[str, Any]], held: str) -> None:
        super().__init__(nodes)
        self.held = held
        self.release = asyncio.Event()
        self.entered = asyncio.Event()
        self.ended: list[str] = []

    async def send(self, command: str, fields: Any = None) -> Envelope:
        if command == self.held:
            self.entered.set()
            await self.release.wait()
        reply = await super().send(command, fields)
        self.ended.append(command)
        return reply


def test_a_cancelled_caller_sees_a_sent_tap_to_its_end_and_then_is_cancelled() -> None:
    """A mutating wire command, once sent, ends before the cancellation is raised (the runner may have run it)."""

    async def go() -> tuple[bool, list[str]]:
        sender = GatedSender(rows(1, 1), held="tap")
        agent = AgentSession(sender, app_id="app")
        task = asyncio.create_task(agent.tap_point(10, 10))
        await sender.entered.wait()
        task.cancel()
        for _ in range(10):  # let the cancellation reach every await there is
            await asyncio.sleep(0)
        done_while_held = task.done()
        sender.release.set()
        with pytest.raises(asyncio.CancelledError):
            await task
        return done_while_held, sender.ended

    done_while_held, ended = run(go())
    assert done_while_held is False
    assert ended == ["snapshot", "tap"]  # the look before the tap (its diff), the tap, and no look after: cancelled


def test_a_cancelled_caller_stops_a_snapshot_at_once() -> None:
    """A read-only wire command is dropped where it is: nothing waits for its reply."""

    async def go() -> list[str]:
        sender = GatedSender(rows(1, 1), held="snapshot")
        agent = AgentSession(sender, app_id="app")
        task = asyncio.create_task(agent.snapshot())
        await sender.entered.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return sender.ended

    assert run(go()) == []


def test_a_caller_whose_cancel_scope_is_cancelled_awaits_a_sent_tap_once_not_once_per_loop_cycle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An MCP request that its client cancels (``notifications/cancelled``) is stopped by cancelling its anyio cancel
    scope, and anyio delivers that cancellation again on every cycle of the event loop while the task waits.  A tap
    already sent is still seen to its end, waited for once, not in a loop that wakes on every cycle."""
    import anyio

    waits = 0
    real_wait = asyncio.wait

    async def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal waits
        waits += 1
        return await real_wait(*args, **kwargs)

    monkeypatch.setattr(asyncio, "wait", counted)

    async def go() -> tuple[int, list[str], bool]:
        sender = GatedSender(rows(1, 1), held="tap")
        agent = AgentSession(sender, app_id="app")
        scope = anyio.CancelScope()

        async def call() -> None:
            with scope:
                await agent.tap_point(10, 10)

        task = asyncio.create_task(call())
        await sender.entered.wait()
        scope.cancel()
        for _ in range(50):  # fifty cycles of the loop while the tap is held
            await asyncio.sleep(0)
        held_waits, done_while_held = waits, task.done()
        sender.release.set()
        await task  # the scope took its cancellation once the tap had ended
        return held_waits, sender.ended, done_while_held

    held_waits, ended, done_while_held = run(go())
    # the tap neither cut short nor given up on (the looks of its diff around it are reads: the scope may stop one)
    assert [c for c in ended if c != "snapshot"] == ["tap"] and ended[:2] == ["snapshot", "tap"]
    assert done_while_held is False
    assert held_waits == 1  # was 50: a wait per cycle, each cancelled at once (a core of CPU while the tap ran)


def test_bare_words_that_a_text_only_mentions_among_others_are_refused_not_tapped_there() -> None:
    """A new user's NiceGUI app: ``tap 2024`` with the date picker's "2024" buttons below the screen tapped the status
    line "name='' … date=2024-05-01 …" and said ok.  Bare words name an element: one that only mentions them among
    other words is a guess, so nothing is sent and the refusal gives its ref; ``text=`` still means any text holding
    them, and a control named so on the screen is the target."""
    status = RawNode(
        "StaticText", label="name='' vol=50 date=2024-05-01", identifier="status", rect=Rect(0, 30, 390, 20)
    )
    s, sender = session(screen(status))
    run(s.snapshot())
    with pytest.raises(ProtocolError) as info:
        run(s.tap("2024"))
    assert info.value.code == e.NOT_FOUND and "only mentions it" in info.value.message, info.value
    assert "`@e1`" in (info.value.hint or "") and "find 2024" in (info.value.hint or ""), info.value.hint
    assert sender.commands("tap") == []
    run(s.tap("text=2024"))  # what the keys say: a text holding the word
    assert len(sender.commands("tap")) == 1
    sender.nodes = screen(status, RawNode("Button", label="2024", rect=Rect(100, 300, 60, 40)))
    run(s.tap("2024"))  # a button named so is on the screen now: it is the target
    assert sender.commands("tap")[-1]["y"] == 320
