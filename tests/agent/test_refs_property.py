"""A ref never names another element (issue 10, item 5): property-based tests of :func:`refind`.

A generator builds list rows — a title that repeats between rows, an unlabeled delete button (a twin in every
row), a ``Like N`` button and a phone-number cell whose identifiers encode the row's *position*
(``like-3``, ``cell-3-0``), the row itself identified by position too — takes a snapshot, then inserts,
removes, reorders rows and bumps counters, and re-finds a ref.  Every node is traced back to a ground-truth
key (which row, which part) that the generator knows and the snapshot does not show.  The rule checked: the
answer is the same element, or STALE_REF — never another element.

Without serials (these heuristic backends: Android, iOS, the double) an element removed and replaced by one
that shows the same row title cannot be told from it (refs.py's docstring states the limit), so inserted rows
take titles that no row had at snapshot time; repeats among the snapshot's rows (twins) and among inserted
rows are generated.  With serials (the web device) no such limit holds: see the serial tests below and
tests/e2e/test_web_refid.py, where inserted rows repeat titles freely.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_fakes import screen
from phonewire.agent.refs import Index, refind
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import RawNode, Rect

TOP, PITCH = 60, 50
OLD_TITLES = ("Milk", "Eggs", "Jam")
NEW_TITLES = ("Tea", "Rice")


@dataclass(frozen=True)
class Row:
    key: int
    title: str
    likes: int = 0


def draw(rows: list[Row], *, serials: dict[tuple[int, str], str] | None = None) -> list[dict[str, Any]]:
    """The snapshot of ``rows``.  ``serials``: (key, part) -> serial, given to the nodes when set (a backend
    with serials)."""

    def part(key: int, name: str, node: RawNode) -> RawNode:
        if serials is not None:
            node.serial = serials.setdefault((key, name), f"doc:{len(serials) + 1}")
        return node

    out = []
    for pos, row in enumerate(rows):
        y = TOP + pos * PITCH
        out.append(part(row.key, "row", RawNode("Other", identifier=f"row-{pos}", rect=Rect(0, y, 390, 44), children=[
            part(row.key, "title", RawNode("StaticText", label=row.title, rect=Rect(10, y + 12, 90, 20))),
            part(row.key, "delete", RawNode("Button", rect=Rect(110, y + 4, 40, 36))),
            part(row.key, "like", RawNode("Button", label=f"Like {row.likes}", identifier=f"like-{pos}",
                                          rect=Rect(160, y + 4, 80, 36))),
            part(row.key, "phone", RawNode("Cell", label=f"+{row.key} 555", identifier=f"cell-{pos}-0",
                                           rect=Rect(250, y + 4, 130, 36))),
        ])))  # fmt: skip
    return screen(*out)


def truth(rows: list[Row], node: dict[str, Any]) -> tuple[int, str]:
    """Which row and which part of it ``node`` is: what the generator knows and the snapshot does not say."""
    rect = node["rect"]
    pos = int((rect["y"] - TOP) // PITCH)
    if node["type"] == "Other":
        kind = "row"
    elif node["type"] == "StaticText":
        kind = "title"
    elif node["type"] == "Cell":
        kind = "phone"
    else:
        kind = "like" if node.get("identifier") else "delete"
    return rows[pos].key, kind


@st.composite
def scenarios(draw_: st.DrawFn, *, distinct: bool = False) -> tuple[list[Row], list[Row], int]:
    """Rows at snapshot time, rows at tap time, and which node of the first snapshot the ref names."""
    count = draw_(st.integers(1, 7))
    if distinct:
        titles = [f"Item {chr(65 + i)}" for i in range(count)]
    else:
        titles = draw_(st.lists(st.sampled_from(OLD_TITLES), min_size=count, max_size=count))
    before = [Row(key, title, draw_(st.integers(0, 2))) for key, title in enumerate(titles)]
    rows = list(before)
    next_key = count
    for _ in range(draw_(st.integers(1, 6))):
        op = draw_(st.sampled_from(("insert", "remove", "move", "like")))
        if op == "insert" or not rows:
            title = f"New {next_key}" if distinct else draw_(st.sampled_from(NEW_TITLES))
            rows.insert(draw_(st.integers(0, len(rows))), Row(next_key, title))
            next_key += 1
        elif op == "remove":
            rows.pop(draw_(st.integers(0, len(rows) - 1)))
        elif op == "move":
            moved = rows.pop(draw_(st.integers(0, len(rows) - 1)))
            rows.insert(draw_(st.integers(0, len(rows))), moved)
        else:
            i = draw_(st.integers(0, len(rows) - 1))
            rows[i] = replace(rows[i], likes=rows[i].likes + 1)
    target = draw_(st.integers(0, 5 * count - 1))
    return before, rows, target


def resolve(before: list[Row], after: list[Row], target: int, *, serials: bool = False) -> tuple[Any, Any]:
    """(what the ref named, what it re-finds now — or the STALE_REF error)."""
    given_serials: dict[tuple[int, str], str] | None = {} if serials else None
    old = draw(before, serials=given_serials)
    fresh = draw(after, serials=given_serials)
    node = old[target]
    try:
        found = refind("e1", node, Index(old), Index(fresh))
    except ProtocolError as exc:
        assert exc.code == e.STALE_REF
        return truth(before, node), exc
    return truth(before, node), truth(after, found)


@settings(max_examples=400, deadline=None)
@given(scenarios())
def test_without_serials_a_ref_finds_its_own_element_or_is_stale(scenario: tuple[list[Row], list[Row], int]) -> None:
    named, now = resolve(*scenario)
    assert isinstance(now, ProtocolError) or now == named


@settings(max_examples=200, deadline=None)
@given(scenarios(distinct=True))
def test_without_serials_an_element_of_a_row_that_tells_it_apart_is_found(
    scenario: tuple[list[Row], list[Row], int],
) -> None:
    # Liveness: rows with titles of their own — whatever moved, was removed or counted up, a ref to an element
    # that is still there finds exactly it.
    _, after, _ = scenario
    named, now = resolve(*scenario)
    if named[0] in {row.key for row in after}:
        assert now == named
    else:
        assert isinstance(now, ProtocolError)


@settings(max_examples=400, deadline=None)
@given(scenarios())
def test_with_serials_twins_and_reordered_rows_are_found_and_removed_ones_are_stale(
    scenario: tuple[list[Row], list[Row], int],
) -> None:
    _, after, _ = scenario
    named, now = resolve(*scenario, serials=True)
    if named[0] not in {row.key for row in after}:
        assert isinstance(now, ProtocolError)
    else:  # the same element: found, twins and counters notwithstanding
        assert now == named


@pytest.mark.parametrize("serials", [False, True])
def test_a_row_that_takes_the_place_and_ids_of_a_removed_twin_is_not_the_element(serials: bool) -> None:
    # The TodoMVC finding: two rows that read the same; the first is deleted; its delete button's ref must not
    # reach the second row's.
    named, now = resolve([Row(0, "Milk"), Row(1, "Milk")], [Row(1, "Milk")], 2, serials=serials)
    assert named == (0, "delete")
    assert isinstance(now, ProtocolError)
    if serials:
        assert "no longer on screen" in now.message


def test_with_serials_a_recycled_element_that_shows_another_row_is_stale() -> None:
    # A virtual list recycles row 0's DOM elements for another item: same serials, other texts.
    serials: dict[tuple[int, str], str] = {}
    old = draw([Row(0, "Milk"), Row(1, "Eggs")], serials=serials)
    recycled = {(0, part): serials[(0, part)] for part in ("row", "title", "delete", "like", "phone")}
    fresh = draw([Row(7, "Tea"), Row(1, "Eggs")], serials={(7, part): s for (_, part), s in recycled.items()})
    delete = next(n for n in old if n["type"] == "Button" and not n.get("label"))
    with pytest.raises(ProtocolError) as info:
        refind("e1", delete, Index(old), Index(fresh))
    assert info.value.code == e.STALE_REF
    assert "another row" in info.value.message


def test_a_serial_of_another_document_never_matches() -> None:
    old = draw([Row(0, "Milk")], serials={})
    parts = ("row", "title", "delete", "like", "phone")
    fresh = draw([Row(0, "Milk")], serials={(0, p): f"other:{i + 1}" for i, p in enumerate(parts)})
    title = next(n for n in old if n["type"] == "StaticText")
    with pytest.raises(ProtocolError) as info:
        refind("e1", title, Index(old), Index(fresh))
    assert info.value.code == e.STALE_REF
