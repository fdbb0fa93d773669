"""Refs that survive scrolling out of view and back (web device: serials), and never come to mean another element.

A list of items scrolls through a window of 8 rows.  Each row shows the item's title (titles repeat: twins), an
unlabeled "Open" button (a twin in every row) and, in some lists, a ``Like N`` button whose identifier encodes the
row's position on screen (``like-3``).  The DOM nodes behind the rows are either one per item (a plain list: a node
keeps showing its item) or a pool of 12 nodes that a virtual list reuses as it scrolls (react-window: the node
that showed item 1 shows item 13 later).  Every node is traced to its ground truth (which item, which part).

The rules checked, across every snapshot of a random walk of scroll offsets:
* a ref printed on a line names the element it named when first issued (never another item's part);
* in a plain list, an element that scrolls out and back gets its old ref back;
* a ref acted on after its element left (``RefTable.refind``) answers that element or STALE_REF, never another.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_fakes import screen
from phonewire.agent.refs import RETIRED_MAX, Index, RefTable
from phonewire.agent.view import render
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import RawNode, Rect

ROWS, POOL, PITCH = 8, 12, 50
Truth = tuple[int, str]


def draw(
    titles: list[str], first: int, *, recycle: bool, likes: bool, serials: bool = True
) -> tuple[list[dict[str, Any]], dict[str, Truth]]:
    """The snapshot of rows ``first`` … ``first + ROWS - 1``, and serial -> (item, part) of what each node shows."""
    shows: dict[str, Truth] = {}
    out = []
    for pos, item in enumerate(range(first, min(first + ROWS, len(titles)))):
        y = 60 + pos * PITCH
        slot = item % POOL if recycle else item  # a pool node, or the item's own node

        def part(name: str, node: RawNode, item: int = item, slot: int = slot) -> RawNode:
            serial = f"doc:{slot}:{name}"
            shows[serial] = (item, name)
            node.serial = serial if serials else None
            return node

        children = [
            part("title", RawNode("StaticText", label=titles[item], rect=Rect(10, y + 12, 90, 20))),
            part("open", RawNode("Button", label="Open", rect=Rect(110, y + 4, 60, 36))),
        ]
        if likes:
            children.append(part("like", RawNode("Button", label=f"Like {item % 3}", identifier=f"like-{pos}",
                                                  rect=Rect(200, y + 4, 80, 36))))  # fmt: skip
        out.append(part("row", RawNode("Other", rect=Rect(0, y, 390, 44), children=children)))
    return screen(*out), shows


def truth_of(node: dict[str, Any], shows: dict[str, Truth]) -> Truth | None:
    serial = node.get("serial")
    return shows.get(str(serial)) if serial is not None else None


def look(table: RefTable, nodes: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """One ``snapshot``: the refs it prints, and the table replaced."""
    index = Index(nodes)
    rendered = render(nodes, name=table.namer(index))
    table.reset(index, rendered)
    return rendered.refs


@settings(max_examples=150, deadline=None)
@given(
    titles=st.lists(st.sampled_from(["Milk", "Eggs", "Jam", "Tea", "Row 1", "Row 13"]), min_size=14, max_size=40),
    offsets=st.lists(st.integers(min_value=0, max_value=39), min_size=2, max_size=12),
    recycle=st.booleans(),
    likes=st.booleans(),
)
def test_a_ref_names_the_element_it_was_issued_for_across_scrolling_out_and_back(
    titles: list[str], offsets: list[int], recycle: bool, likes: bool
) -> None:
    if recycle:
        # a recycled node showing another item with exactly the same texts cannot be told from it (refs.py); items
        # that differ in a number only (``Milk 1`` / ``Milk 13``) must be
        titles = [f"{title} {item}" for item, title in enumerate(titles)]
    table = RefTable()
    meant: dict[str, Truth] = {}  # ref -> what it named when first issued
    for offset in offsets:
        nodes, shows = draw(titles, min(offset, len(titles) - 1), recycle=recycle, likes=likes)
        before = dict(table.retired) | dict(table.refs)
        # acting on any ref issued so far, on this screen: the same element or STALE_REF
        fresh = Index(nodes)
        for ref in before:
            try:
                now = table.refind(ref, fresh)
            except ProtocolError as exc:
                assert exc.code == e.STALE_REF
                continue
            assert truth_of(now, shows) == meant[ref], (ref, now)
        for ref, node in look(table, nodes).items():
            truth = truth_of(node, shows)
            assert truth is not None
            assert meant.setdefault(ref, truth) == truth, (ref, node, truth)


@settings(max_examples=60, deadline=None)
@given(
    titles=st.lists(st.sampled_from(["Milk", "Eggs", "Jam"]), min_size=20, max_size=30),
    away=st.integers(min_value=9, max_value=19),
)
def test_in_a_plain_list_a_row_that_scrolls_out_and_back_gets_its_old_refs_back(titles: list[str], away: int) -> None:
    table = RefTable()
    first_refs = look(table, draw(titles, 0, recycle=False, likes=False)[0])
    look(table, draw(titles, away, recycle=False, likes=False)[0])  # rows 0-7 are gone
    assert not set(first_refs) & set(table.refs) and set(first_refs) <= set(table.retired)
    again = look(table, draw(titles, 0, recycle=False, likes=False)[0])
    assert again.keys() == first_refs.keys()
    assert all(again[ref]["serial"] == first_refs[ref]["serial"] for ref in again)


def test_a_recycled_row_node_that_shows_another_item_gets_a_new_ref_and_the_old_one_is_stale() -> None:
    titles = [f"Row {i}" for i in range(30)]
    table = RefTable()
    refs = look(table, draw(titles, 0, recycle=True, likes=False)[0])
    row1 = next(r for r, n in refs.items() if n.get("label") == "Row 1")
    open1 = next(r for r, n in refs.items() if n.get("label") == "Open" and n["rect"]["y"] == 60 + PITCH + 4)
    nodes, _ = draw(titles, 12, recycle=True, likes=False)  # Row 13 now shows in the node that showed Row 1
    later = look(table, nodes)
    assert row1 not in later and open1 not in later
    fresh = Index(nodes)
    for ref in (row1, open1):
        try:
            table.refind(ref, fresh)
        except ProtocolError as exc:
            assert exc.code == e.STALE_REF and exc.hint
        else:
            raise AssertionError(f"@{ref} re-found in a recycled row")


def test_without_serials_a_row_that_comes_back_gets_a_new_number() -> None:
    titles = [f"Item {i}" for i in range(30)]
    table = RefTable()
    first = look(table, draw(titles, 0, recycle=False, likes=False, serials=False)[0])
    look(table, draw(titles, 15, recycle=False, likes=False, serials=False)[0])
    assert not table.retired
    again = look(table, draw(titles, 0, recycle=False, likes=False, serials=False)[0])
    assert not set(again) & set(first)


def test_the_retired_refs_are_bounded_oldest_first() -> None:
    titles = [f"Item {i}" for i in range(3 * RETIRED_MAX)]
    table = RefTable()
    issued: list[str] = []
    for first in range(0, len(titles) - ROWS, ROWS):
        issued.extend(look(table, draw(titles, first, recycle=False, likes=False)[0]))
    assert len(table.retired) == RETIRED_MAX
    assert list(table.retired) == [r for r in issued if r not in table.refs][-RETIRED_MAX:]


def test_a_text_that_appears_beside_the_row_title_does_not_make_the_row_another_one() -> None:
    def shot(badge: str | None, likes: int) -> list[dict[str, Any]]:
        kids = [RawNode("StaticText", label="Milk 1", rect=Rect(40, 72, 90, 20)),
                RawNode("Button", label="Open", rect=Rect(140, 64, 60, 36)),
                RawNode("StaticText", label=f"{likes} likes", rect=Rect(220, 72, 60, 20))]  # fmt: skip
        if badge:
            kids.insert(0, RawNode("StaticText", label=badge, rect=Rect(4, 72, 30, 20)))
        for i, kid in enumerate(kids):
            kid.serial = f"doc:{kid.label}" if kid.label in ("Milk 1", "Open") else f"doc:x{i}"
        return screen(RawNode("Other", rect=Rect(0, 60, 390, 44), children=kids))

    table = RefTable()
    refs = look(table, shot(None, 0))
    open_ref = next(r for r, n in refs.items() if n.get("label") == "Open")
    now = shot("New", 1)  # a badge left of the title, the counter changed
    assert table.refind(open_ref, Index(now))["label"] == "Open"
    assert open_ref in look(table, now)
