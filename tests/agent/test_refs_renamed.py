"""A control whose name or value changes keeps its ref (issue 23: jQuery UI's selectmenu went @e10 → @e100 as its
box came to show the chosen option), and a recycled node never does.

With serials (the web device) the DOM node is the element: a control that now says something else — a select's box
showing the option just chosen, a Play button become Pause — is the same element while its role and identifier
stay, what stands around it is the same, and it has an identifier or has not moved.  A virtual list's pool node
that shows another row (only the numbers changed, or it moved, or its row's texts changed) is STALE_REF as before.
"""

from __future__ import annotations

from typing import Any

import pytest

from agent_fakes import screen
from phonewire.agent.refs import Index, RefTable
from phonewire.agent.view import render
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import RawNode, Rect


def page(box: RawNode, *, caption: str = "Select a speed", beside: str = "km/h", y: float = 60) -> list[dict[str, Any]]:
    """A caption above the box and a text beside it (its row mate)."""
    box.rect = Rect(10, y + 30, 180, 36)
    box.serial = "doc:7"
    return screen(
        RawNode("StaticText", label=caption, rect=Rect(10, y, 200, 20)),
        box,
        RawNode("StaticText", label=beside, rect=Rect(200, y + 38, 60, 20)),
    )


def combobox(label: str | None, value: str | None, identifier: str | None = "speed-button") -> RawNode:
    return RawNode("ComboBox", label=label, value=value, identifier=identifier)


def the_box(nodes: list[dict[str, Any]]) -> dict[str, Any]:
    return next(n for n in nodes if n.get("serial") == "doc:7")


def refind(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> dict[str, Any]:
    table = RefTable()
    index = Index(before)
    rendered = render(before, name=table.namer(index))
    table.reset(index, rendered)
    ref = next(r for r, n in rendered.refs.items() if n.get("serial") == "doc:7")
    found: dict[str, Any] = table.refind(ref, Index(after))
    # a new snapshot gives the element its old ref back
    again = render(after, name=table.namer(Index(after)))
    assert ref in again.refs and again.refs[ref].get("serial") == "doc:7"
    return found


def test_a_selectmenu_box_showing_the_chosen_option_keeps_its_ref() -> None:
    before = page(combobox(None, "Medium"))
    after = page(combobox("Fast", None))  # jQuery UI: aria-labelledby now points at the chosen item
    assert refind(before, after) is the_box(after)


def test_a_play_button_become_pause_keeps_its_ref_where_it_stands() -> None:
    before = page(RawNode("Button", label="Play"), caption="Song")
    after = page(RawNode("Button", label="Pause"), caption="Song")
    assert refind(before, after) is the_box(after)


def stale(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> None:
    table = RefTable()
    index = Index(before)
    rendered = render(before, name=table.namer(index))
    table.reset(index, rendered)
    ref = next(r for r, n in rendered.refs.items() if n.get("serial") == "doc:7")
    with pytest.raises(ProtocolError) as info:
        table.refind(ref, Index(after))
    assert info.value.code == e.STALE_REF
    assert ref not in render(after, name=table.namer(Index(after))).refs


def test_a_recycled_node_that_shows_another_numbered_row_is_stale() -> None:
    stale(page(RawNode("Button", label="Open Row 1"), caption="People"),
          page(RawNode("Button", label="Open Row 2"), caption="People"))  # fmt: skip


def test_a_renamed_node_without_identifier_that_moved_is_stale() -> None:
    stale(page(RawNode("Button", label="Apple"), caption="Fruit"),
          page(RawNode("Button", label="Mango"), caption="Fruit", y=100))  # fmt: skip


def test_a_renamed_node_whose_row_changed_is_stale() -> None:
    stale(page(combobox(None, "Medium"), beside="km/h"),
          page(combobox("Fast", None), beside="mph"))  # fmt: skip


def test_text_that_changed_is_no_renamed_control() -> None:
    stale(page(RawNode("StaticText", label="Medium"), caption="Chosen"),
          page(RawNode("StaticText", label="Fast"), caption="Chosen"))  # fmt: skip


def test_a_status_text_with_an_identifier_that_says_something_else_keeps_its_ref() -> None:
    """A new user's NiceGUI app: its status line (``id=status``) got a new ref on every change (@e1, @e25, @e27…),
    and MiniWoB's timer too, though each is the same DOM node, with the same id, where it stood.  A text with no
    identifier that changed is still another text (the test above)."""
    before = page(RawNode("StaticText", label="name='' vol=50", identifier="status"), caption="Status")
    after = page(RawNode("StaticText", label="name='Ann' vol=50", identifier="status"), caption="Status")
    assert refind(before, after) is the_box(after)
    stale(page(RawNode("StaticText", label="Medium", identifier="status"), caption="Chosen"),
          page(RawNode("StaticText", label="Fast", identifier="speed"), caption="Chosen"))  # fmt: skip


def test_a_button_a_toast_covered_keeps_its_ref_once_the_toast_hid_itself() -> None:
    """Fava's toast after Save: its text lay across the row of the buttons it covered, the leftmost text of their
    row, so once it hid itself (between two commands) the row no longer read as it had and each button it had
    covered came back under a new ref (and ``tap`` on the old one said STALE_REF, "left the screen").  What lies
    over a covered element (its box overlaps the element's) is no part of its row."""

    def buttons(*, toast: bool) -> list[dict[str, Any]]:
        cover = "toast" if toast else None
        save = RawNode("Button", label="Save", rect=Rect(10, 40, 60, 30), serial="doc:7", covered_by=cover)
        balance = RawNode("Button", label="Balance", rect=Rect(80, 40, 80, 30), serial="doc:8", covered_by=cover)
        shown = [RawNode("StaticText", label="Saved", identifier="toast", rect=Rect(0, 0, 390, 200))] if toast else []
        return screen(*shown, save, balance)

    covered, bare = buttons(toast=True), buttons(toast=False)
    assert the_box(covered).get("coveredBy") == "toast"
    assert refind(covered, bare) is the_box(bare)
    assert refind(bare, covered) is the_box(covered)  # and as it comes


def wide_row(
    first: int, *, y: float = 100, labels: tuple[str, ...] = ("2024-02-10", "Market", "Veg", "-42.50")
) -> list[dict[str, Any]]:
    """A wide table row (a Cell of texts, each 150 pt wide, with serials) scrolled so that text ``first`` is at the
    left edge; the texts scrolled off either side are not on screen."""
    cells = [
        RawNode("StaticText", label=text, rect=Rect(150 * (i - first), y, 150, 30), serial=f"doc:{20 + i}")
        for i, text in enumerate(labels)
        if 0 <= 150 * (i - first) < 390
    ]
    return screen(RawNode("Cell", rect=Rect(0, y, 390, 30), serial="doc:7", children=cells))


def test_a_wide_row_scrolled_sideways_keeps_its_refs_and_a_recycled_one_does_not() -> None:
    """Fava's journal: a row wider than the phone, scrolled right: its first text (the row's anchor) went off the
    left edge and another came in on the right; every element still on screen got a new ref and each was "drawn
    anew".  The row and its texts still there keep their refs.  A row node that a virtual list recycled for another
    item does not: a text still on screen shows another item, or the row went to another line."""
    before, after = wide_row(0), wide_row(1)
    assert refind(before, after) is the_box(after)  # the row (unlabeled: its texts are its content)
    table = RefTable()
    index = Index(before)
    rendered = render(before, name=table.namer(index))
    table.reset(index, rendered)
    market = next(r for r, n in rendered.refs.items() if n.get("label") == "Market")
    assert table.refind(market, Index(after))["label"] == "Market"
    recycled = wide_row(1, labels=("2024-03-01", "Bakery", "Bread", "-3.10"))
    with pytest.raises(ProtocolError) as caught:
        refind(before, recycled)
    assert caught.value.code == e.STALE_REF
    with pytest.raises(ProtocolError) as caught:
        refind(before, wide_row(1, y=160))  # the same texts, on another line: another row's node
    assert caught.value.code == e.STALE_REF
