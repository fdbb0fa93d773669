"""Fixes of docs/realapps-findings-2.md on the real web phone, on a page of our own (tests/e2e/hostile/findings2.html):
D1 a tap on a closed select's option chooses it (never a tap at the page's origin), D4 an editable region marked
role=presentation with a line-number gutter (as CodeMirror 5 draws its lines on a phone) is a TextView that `fill`
replaces, D5 `press home` warns that the app went to the background and how to bring it back (and
`lineStart` / `lineEnd` move the caret instead), D9 text drawn by CSS
(::before / ::after `content`) is in the view, D11 WAIT_TIMED_OUT's summary carries no refs."""

from __future__ import annotations

import pytest
from web_runner import HostileSite

import phonewire
from phonewire.protocol import errors as e

pytestmark = pytest.mark.e2e


@pytest.fixture
def phone(shared_phone: phonewire.Phone, hostile_site: HostileSite) -> phonewire.Phone:
    shared_phone.open(hostile_site.url("findings2.html"))
    return shared_phone


def label_of(phone: phonewire.Phone, ident: str) -> str:
    return str(next(n for n in phone.snapshot().nodes if n.get("identifier") == ident).get("label"))


def test_d1_a_tap_on_an_option_chooses_it_once_and_says_so_by_ref_and_by_text(phone: phonewire.Phone) -> None:
    view = phone.snapshot()  # the full view lists a closed select's options (-i counts them)
    banana = next(r for r, n in view.refs.items() if n.get("label") == "Banana")
    result = phone.tap("@" + banana).data
    assert result["message"].startswith('selected "Banana" in @') and "ComboBox" in result["message"]
    assert result["selected"] == ["Banana"] and "(0, 0)" not in result["message"]
    fruit = next(n for n in phone.snapshot().nodes if n.get("identifier") == "fruit")
    assert fruit["value"] == "Banana"
    assert label_of(phone, "changes") == "1"  # one change event, as a person's choice fires
    assert phone.tap('"Cherry"').data["selected"] == ["Cherry"]
    assert label_of(phone, "changes") == "2"


def test_d1_a_long_press_on_an_option_is_refused_naming_select_and_nothing_changes(phone: phonewire.Phone) -> None:
    with pytest.raises(phonewire.ProtocolError) as info:
        phone.long_press('"Banana"')
    assert info.value.code == e.INVALID_REQUEST
    assert "no place on the screen" in info.value.message and "`select TARGET OPTION`" in (info.value.hint or "")
    assert label_of(phone, "changes") == "0"


def test_d4_an_editable_region_with_a_gutter_is_a_text_view_that_fill_replaces(phone: phonewire.Phone) -> None:
    editor = next(n for n in phone.snapshot().nodes if n.get("identifier") == "editor")
    assert editor["type"] == "TextView" and editor["value"] == "select * from people"  # no line number "1"
    result = phone.fill("id=editor", "select 42").data
    assert result["cleared"] == len("select * from people")
    assert next(n for n in phone.snapshot().nodes if n.get("identifier") == "editor")["value"] == "select 42"
    assert label_of(phone, "echo") == "select 42"  # the page saw the input


def test_d5_press_home_says_the_app_went_to_the_background_and_how_to_return(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    app = hostile_site.url("findings2.html")
    warning = phone.press("home").warning or ""
    assert "went to the background" in warning and f"`open {app}`" in warning
    with pytest.raises(phonewire.ProtocolError) as info:
        phone.snapshot()
    assert info.value.code == e.APP_BACKGROUNDED
    phone.open(app)
    assert label_of(phone, "changes") == "0"


def test_d5_line_start_and_line_end_move_the_caret_and_the_app_stays_in_front(phone: phonewire.Phone) -> None:
    phone.fill("id=line", "world")
    phone.press("lineStart")
    phone.type("hello ")
    phone.press("lineEnd")
    phone.type("!")
    assert next(n for n in phone.snapshot().nodes if n.get("identifier") == "line")["value"] == "hello world!"


def test_d9_css_generated_text_is_in_the_view_where_the_screen_shows_it(phone: phonewire.Phone) -> None:
    lines = phone.snapshot().text.splitlines()
    assert any(line.strip().endswith('StaticText "age 35"') for line in lines), lines
    assert any(line.strip().endswith('StaticText "70 kg"') for line in lines), lines
    assert label_of(phone, "step-1") == "Mix"  # a counter's number is not in the computed style: nothing added


def test_d11_wait_timed_out_names_no_refs_on_any_line(phone: phonewire.Phone) -> None:
    phone.snapshot(interactive=True)
    with pytest.raises(phonewire.ProtocolError) as info:
        phone.wait('"Durian"', timeout_ms=300)
    assert info.value.code == e.WAIT_TIMED_OUT
    # no refs on any line; the closed select is one line there, its options counted (as in -i)
    assert "@e" not in info.value.message and 'value="Apple" (3 options, select one)' in info.value.message
