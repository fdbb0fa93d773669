"""A diff whose lines read the same but whose elements moved (agent/moves.py): a bottom sheet swiped up."""

from __future__ import annotations

from typing import Any

from phonewire.agent.moves import MAX_COVERED_LINES, MAX_MOVED_LINES, covers, moved, under_keyboard
from phonewire.agent.view import Rendered
from phonewire.agent.view_diff import diff


def node(label: str, y: float, height: float = 20) -> dict[str, Any]:
    return {"type": "StaticText", "label": label, "rect": {"x": 0, "y": y, "width": 100, "height": height}}


def view(*rows: tuple[str, str, float]) -> Rendered:
    out = Rendered()
    for ref, label, y in rows:
        out.add(f'StaticText "{label}"', f'@{ref} StaticText "{label}"', node(label, y))  # type: ignore[arg-type]
        if ref:
            out.refs[ref] = out.nodes[-1]  # type: ignore[assignment]
    return out


def test_an_element_that_went_up_is_one_line_saying_where() -> None:
    before = view(("e1", "Sheet heading", 676), ("e2", "Tab", 800))
    after = view(("e1", "Sheet heading", 44), ("e2", "Tab", 801))  # the tab's 1 pt reflow is no move
    assert moved(before, after) == ['~ @e1 StaticText "Sheet heading"  (moved: y 676 → 44)']


def test_nothing_moved_is_no_line_and_another_ref_is_no_move() -> None:
    before = view(("e1", "A", 10))
    assert moved(before, view(("e1", "A", 10))) == []
    assert moved(before, view(("e2", "A", 300))) == []  # a new element (the text diff says so), not a move


def test_many_moved_elements_are_one_line_with_their_count() -> None:
    n = MAX_MOVED_LINES + 2
    before = view(*((f"e{i}", f"row {i}", 100.0 + 30 * i) for i in range(n)))
    after = view(*((f"e{i}", f"row {i}", 30.0 * i) for i in range(n)))
    assert moved(before, after) == [f'~ {n} elements moved, the first @e0 StaticText "row 0"  (moved: y 100 → 0)']


def test_many_lines_that_only_came_under_a_cover_are_one_line_with_their_refs() -> None:
    """MiniWoB's cover over a finished task: six lines that only gained [covered] are one line; a line that changed
    otherwise too, the cover's own line and a few uncovered ones stay as they are."""
    diff = [
        '~ @e5 Button "submit" [covered]  (was: Button "submit")',
        '~ @e6 StaticText "accumsan" [covered]  (was: StaticText "accumsan")',
        '~ @e8 Button "previous" [focused,covered]  (was: Button "previous" [focused])',
        '~ @e9 StaticText "faucibus" [covered]  (was: StaticText "faucibus")',
        '~ @e19 StaticText "1.00" id=reward-last  (was: StaticText "-" id=reward-last)',
        '~ @e7 Button "Go" [covered]  (was: Button "Stop")',
        '+ @e2 Button "START" id=sync-task-cover',
        '~ @e3 Button "a" [selected]  (was: Button "a" [selected,covered])',
    ]
    assert covers(diff) == [
        "~ 4 elements now [covered]: @e5 @e6 @e8 @e9",
        '~ @e19 StaticText "1.00" id=reward-last  (was: StaticText "-" id=reward-last)',
        '~ @e7 Button "Go" [covered]  (was: Button "Stop")',
        '+ @e2 Button "START" id=sync-task-cover',
        '~ @e3 Button "a" [selected]  (was: Button "a" [selected,covered])',
    ]
    assert covers(diff[:MAX_COVERED_LINES]) == diff[:MAX_COVERED_LINES]  # one: its own line


def test_an_element_that_lost_focus_as_it_came_under_the_cover_counts_when_another_gained_it() -> None:
    """MiniWoB login-user: the password field lost focus to Login as the cover came: it is one of those the cover
    hid, since Login's line says where the focus went."""
    diff = [
        "~ @e6 TextField id=username [covered]  (was: TextField id=username)",
        "~ @e8 SecureTextField id=password [covered]  (was: SecureTextField id=password [focused])",
        '~ @e9 Button "Login" [focused,covered]  (was: Button "Login")',
    ]
    assert covers(diff) == ["~ 2 elements now [covered]: @e6 @e8", diff[2]]
    assert covers(diff[:2]) == diff[:2]  # the focus went nowhere said: the line says it lost it


def with_keyboard(view_: Rendered, top: float) -> Rendered:
    view_.add(
        "Keyboard", "@e99 Keyboard", {"type": "Keyboard", "rect": {"x": 0, "y": top, "width": 390, "height": 336}}
    )  # type: ignore[arg-type]
    view_.refs["e99"] = view_.nodes[-1]  # type: ignore[assignment]
    return view_


def test_many_elements_the_keyboard_came_up_over_are_one_line_with_their_count() -> None:
    """A field's fill in a long form: the keyboard came up and the rows below its top are hidden (still on the
    page); a row that went from above the keyboard is said as it is, and so is one that reads the same above."""
    rows: list[tuple[str, str, float]] = [("e1", "Name", 100), ("e2", "Gone above", 200), ("e3", "/", 300)]
    rows += [(f"e{i}", f"row {i}", 520.0 + 20 * i) for i in range(10, 10 + MAX_MOVED_LINES + 2)]
    rows += [("e30", "/", 700)]
    before = view(*rows)
    kept = [r for r in rows if r[2] < 516 and r[0] != "e2"]
    after = with_keyboard(view(*kept), 516)
    n = MAX_MOVED_LINES + 2
    assert under_keyboard(diff(before, after), before, after) == [
        '- StaticText "Gone above"',
        f"- {n} elements under the keyboard now (below y=516)",
        '- StaticText "/"',  # (one "/" is still shown above: the other is not said hidden)
        "+ @e99 Keyboard",
    ]


def test_elements_the_earlier_view_showed_without_a_ref_count_under_the_keyboard_too() -> None:
    """After ``snapshot -i`` only the interactive elements carry refs: the view of the screen before a fill names
    the others without one (Django's group form: the chosen-permissions box under the keyboard was five ``-``
    lines beside the count of the eight with refs)."""
    rows = [("e1", "Name", 100)] + [(f"e{i}" if i % 2 else "", f"row {i}", 520.0 + 20 * i) for i in range(10, 20)]
    before = view(*rows)
    after = with_keyboard(view(("e1", "Name", 100)), 516)
    assert under_keyboard(diff(before, after), before, after) == [
        "- 10 elements under the keyboard now (below y=516)",
        "+ @e99 Keyboard",
    ]


def test_a_few_elements_under_the_keyboard_and_a_keyboard_already_up_are_said_line_by_line() -> None:
    before = view(("e1", "Name", 100), ("e2", "row 2", 600))
    after = with_keyboard(view(("e1", "Name", 100)), 516)
    assert under_keyboard(diff(before, after), before, after) == diff(before, after)
    rows = [(f"e{i}", f"row {i}", 520.0 + 20 * i) for i in range(10, 10 + MAX_MOVED_LINES + 2)]
    up_before, up_after = with_keyboard(view(("e1", "Name", 100), *rows), 516), with_keyboard(view(), 516)
    assert under_keyboard(diff(up_before, up_after), up_before, up_after) == diff(up_before, up_after)


def test_rows_that_changed_places_are_said_beside_the_focus_the_tap_moved() -> None:
    """A list whose first row went last (the page moved the row's own element): before, the diff aligned lines by how
    they read, paired each row with the one now in its place and said ``(drawn anew: @e2 is gone)`` of a row that
    was still there, and a tap that also moved focus said only the focus.  Now every row keeps its ref, the diff
    says the focus, and each row that moved is one line (its text went with it: no line of its own)."""
    from agent_fakes import screen
    from phonewire.agent.observe import changes
    from phonewire.agent.view import render
    from phonewire.protocol.snapshot import RawNode, Rect

    words = ["alpha", "beta", "gamma"]

    def page(order: list[str], focused: bool) -> list[dict[str, Any]]:
        cells = [
            RawNode("Cell", identifier=w, rect=Rect(0, 40 + 30 * i, 200, 30),
                    children=[RawNode("StaticText", label=w, rect=Rect(10, 45 + 30 * i, 100, 20))])
            for i, w in enumerate(order)
        ]  # fmt: skip
        return screen(*cells, RawNode("Button", label="Rotate", rect=Rect(0, 200, 100, 40), focused=focused))

    refs = {w: f"e{2 * i + 1}" for i, w in enumerate(words)} | {
        f"text {w}": f"e{2 * i + 2}" for i, w in enumerate(words)
    }

    def name(n: dict[str, Any]) -> str:
        if n.get("type") == "Cell":
            return refs[str(n["identifier"])]
        return refs.get(f"text {n.get('label')}", "e9" if n.get("label") == "Rotate" else "e0")

    before = render(page(words, False), name=name)
    after = render(page(["beta", "gamma", "alpha"], True), name=name)
    assert not [line for line in diff(before, after) if "drawn anew" in line or line[:2] in ("+ ", "- ")]
    assert changes(before, after) == [
        '~ @e9 Button "Rotate" [+focused]',
        "~ @e3 Cell id=beta  (moved: y 70 → 40)",
        "~ @e5 Cell id=gamma  (moved: y 100 → 70)",
        "~ @e1 Cell id=alpha  (moved: y 40 → 100)",
    ]


def test_a_cover_over_a_whole_page_lists_its_first_refs_and_how_many_more() -> None:
    """A menu over a whole page (Fava's sidebar) covered 53 elements: the line listed all 53 refs."""
    lines = [f'~ @e{i} Button "b{i}" [covered]  (was: Button "b{i}")' for i in range(20)]
    assert covers(lines) == ["~ 20 elements now [covered]: " + " ".join(f"@e{i}" for i in range(12)) + " … +8 more"]
