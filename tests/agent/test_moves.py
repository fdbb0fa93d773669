"""A diff whose lines read the same but whose elements moved (agent/moves.py): a bottom sheet swiped up."""

from __future__ import annotations

from typing import Any

from phonewire.agent.moves import MAX_MOVED_LINES, covers, moved
from phonewire.agent.view import Rendered


def node(label: str, y: float, height: float = 20) -> dict[str, Any]:
    return {"type": "StaticText", "label": label, "rect": {"x": 0, "y": y, "width": 100, "height": height}}


def view(*rows: tuple[str, str, float]) -> Rendered:
    out = Rendered()
    for ref, label, y in rows:
        out.lines.append(f'@{ref} StaticText "{label}"')
        out.keys.append(f'StaticText "{label}"')
        out.refs[ref] = node(label, y)  # type: ignore[assignment]
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
    assert covers(diff[:MAX_MOVED_LINES]) == diff[:MAX_MOVED_LINES]  # a few: each its own line
