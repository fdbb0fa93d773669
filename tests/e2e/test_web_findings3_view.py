"""Fixes of docs/realapps-findings-3.md (what the view shows is what a person sees) on the real web phone, on pages
of our own (tests/e2e/hostile/findings3_*.html): E3 hidden parts (visibility, content-visibility, an opacity-0
wrapper, inert) are not listed and a control under its container's overlay is ELEMENT_COVERED; E5 <noscript> text
is not in the view; E13 an inline SVG's style sheet and zero-width characters are not either; E14 a text area's
value keeps its line breaks; E4 a date picker's days are cells of their own, a tap on one picks that day; E11 a
flash message and a live status are in ``-i``, and the flash's aria-hidden close button has a ref; E12 icon-only
controls are named by their icon's meaning, and a modal's backdrop is no button but what covers the page."""

from __future__ import annotations

import json

import pytest
from web_runner import HostileSite

import phonewire
from phonewire.protocol import errors as e

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def phone(module_phone: phonewire.Phone) -> phonewire.Phone:
    return module_phone  # the session's runner; each test opens the page it starts from


def label_of(phone: phonewire.Phone, ident: str) -> str:
    return str(next(n for n in phone.snapshot().nodes if n.get("identifier") == ident).get("label"))


def test_e3_hidden_parts_are_not_in_the_view_and_a_child_shown_again_is(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url("findings3_hidden.html"))
    full = phone.snapshot().text
    for hidden in ("Hidden words", "Collapsed", "Skipped", "Faded link", "Inert button", "Bulk actions",
                   "Select all", "Move selected pages"):  # fmt: skip
        assert hidden not in full, hidden
    assert 'StaticText "Peek"' in full and 'Button "Shown"' in full
    with pytest.raises(phonewire.ProtocolError) as info:
        phone.tap('"Move selected pages"')
    assert info.value.code == e.NOT_FOUND
    assert label_of(phone, "taps") == "0"


def test_e3_a_control_under_its_containers_overlay_is_covered_and_nothing_is_tapped(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url("findings3_hidden.html"))
    save = next(n for n in phone.snapshot().nodes if n.get("identifier") == "save")
    assert save["coveredBy"] == "Other id=busy"
    with pytest.raises(phonewire.ProtocolError) as info:
        phone.tap("id=save")
    assert info.value.code == e.ELEMENT_COVERED and "id=busy" in info.value.message
    assert label_of(phone, "taps") == "0"


def test_e3_a_control_whose_tap_its_clickable_row_takes_is_still_tapped(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url("findings3_hidden.html"))
    pick = next(n for n in phone.snapshot().nodes if n.get("identifier") == "pick")
    assert "coveredBy" not in pick and pick["value"] == "0"
    phone.tap("id=pick")
    assert label_of(phone, "rows") == "1"  # the row's handler ran once and checked the box
    assert next(n for n in phone.snapshot().nodes if n.get("identifier") == "pick")["value"] == "1"


def test_e5_noscript_content_never_appears_while_javascript_is_on(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url("findings3_text.html"))
    view = phone.snapshot()
    assert "JavaScript is required" not in view.text and "instructions" not in view.text
    assert 'Heading "Pets"' in view.text


def test_e13_an_inline_svgs_style_sheet_and_zero_width_characters_are_not_in_the_view(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url("findings3_text.html"))
    view = phone.snapshot()
    assert "logo__cls" not in view.text and "fill:" not in view.text
    for zero_width in ("\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"):
        assert zero_width not in view.text and zero_width not in json.dumps(view.nodes, ensure_ascii=False)
    nodes = {n.get("identifier"): n for n in view.nodes}
    assert nodes["op"]["type"] == "Button" and nodes["op"]["label"] == "get /pets/item1.json"
    assert nodes["zw-para"]["label"] == "Onetwothreefour"
    assert not any(n.get("type") == "StaticText" and not n.get("label") for n in view.nodes)
    assert phone.tap('"get /pets/item1.json"').data["changed"] is True  # the name a person reads finds it


def test_e14_a_text_areas_value_keeps_its_line_breaks(phone: phonewire.Phone, hostile_site: HostileSite) -> None:
    phone.open(hostile_site.url("findings3_text.html"))
    phone.fill("id=notes", "Line one\nLine two")
    view = phone.snapshot(interactive=True)
    notes = next(n for n in view.refs.values() if n.get("identifier") == "notes")
    assert notes["type"] == "TextView" and notes["value"] == "Line one\nLine two"  # a real line break in JSON
    assert 'TextView "Notes" value="Line one\\nLine two"' in view.text  # escaped on its one line of the text view


def test_e4_a_calendars_days_are_cells_named_by_their_day_and_a_tap_picks_that_day(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url("findings3_calendar.html"))
    view = phone.snapshot(interactive=True)
    cells = [(r, n) for r, n in view.refs.items() if n.get("type") == "Cell"]
    assert len(cells) == 84 and all(str(n.get("label")).isdigit() for _, n in cells)  # 2 × 42 days, no week rows
    # daterangepicker-like (mousedown delegated from the calendar): Feb 29, the later of the two "29"s
    feb29 = max((n["rect"]["y"], r) for r, n in cells if n.get("label") == "29" and n["rect"]["y"] < 250)[1]
    phone.tap("@" + feb29)
    nodes = {n.get("identifier"): n for n in phone.snapshot().nodes}
    assert nodes["published"]["value"] == "2024-02-29" and nodes["picks"]["label"] == "1"
    # xdsoft-like (click delegated from the calendar's container, the day's text in a <div>)
    nov14 = next(r for r, n in cells if n.get("label") == "14" and n["rect"]["y"] > 250)
    phone.tap("@" + nov14)
    assert next(n for n in phone.snapshot().nodes if n.get("identifier") == "date")["value"] == "2026/11/14"


def test_e11_a_flash_message_and_a_live_status_are_in_the_interactive_view_and_its_close_button_has_a_ref(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url("findings3_flash.html"))
    view = phone.snapshot(interactive=True)
    assert 'Alert "Record was successfully created."' in view.text
    assert "A long paragraph" not in view.text
    full = phone.snapshot().text  # a live region around a list is no message: its rows keep their lines
    assert 'StaticText "Dune"' in full and 'StaticText "Emma"' in full and 'Alert "Dune' not in full
    close = next(r for r, n in view.refs.items() if n.get("type") == "Button" and n.get("label") == "×")
    phone.tap("id=save")
    assert 'Alert "Saved 3 books"' in phone.snapshot(interactive=True).text
    phone.tap("@" + close)
    after = phone.snapshot()
    assert "Record was successfully created." not in after.text and 'Button "Save"' in after.text


def test_e12_icon_only_controls_are_named_by_their_icons_meaning_not_by_layout_or_library_words(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url("findings3_icons.html"))
    view = phone.snapshot(interactive=True)
    names = [(n.get("type"), n.get("label")) for n in view.refs.values()]
    assert names[:4] == [("Link", "close"), ("Button", "prev"), ("Button", "today"), ("Button", "search")]
    phone.tap("role=Link label=close")
    assert label_of(phone, "clears") == "1"


def test_e12_a_modal_backdrop_is_no_button_it_covers_what_is_under_it(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url("findings3_icons.html"))
    phone.tap('"Authorize"')
    view = phone.snapshot(interactive=True)
    assert [n.get("label") for n in view.refs.values() if n.get("type") == "Button"] == ["Done"]
    assert "backdrop" not in view.text
    with pytest.raises(phonewire.ProtocolError) as info:
        phone.tap('"Authorize"')
    assert info.value.code == e.ELEMENT_COVERED and "covered by Other id=backdrop" in info.value.message
