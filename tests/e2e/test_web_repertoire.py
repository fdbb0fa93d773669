"""The phone's repertoire on the real web phone (issue 24), each asserted by the page's own observation: Enter on a
focused button, link or menu item activates it; keys with modifiers (the page's keydown sees them; ctrl+a, ctrl+c
and ctrl+v select, copy and paste through the page's own copy/paste handlers); select-text makes a selection the
page's selectionchange sees; the clipboard is the one the page pastes from and reads; rotate fires the page's
orientation change and its landscape layout; location is what the Geolocation API answers; offline is
navigator.onLine false and a failing fetch; permissions are what navigator.permissions answers.  Bad input is a
specific refusal with a hint.  The module has a phone of its own: what it changes is the phone's, not an app's."""

from __future__ import annotations

import pytest
from web_runner import HostileSite

import phonewire
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

pytestmark = pytest.mark.e2e


@pytest.fixture
def phone(web_phone: phonewire.Phone, hostile_site: HostileSite) -> phonewire.Phone:
    web_phone.open(hostile_site.url("repertoire.html"))
    return web_phone


def shown(phone: phonewire.Phone, ident: str) -> str:
    """The text of the page's element ``ident`` as the view shows it."""
    nodes = phone.snapshot().nodes
    return str(next(n for n in nodes if n.get("identifier") == ident).get("label") or "")


# -- (6) Enter, space and the arrows on the focused element ---------------------------------------------------------
def test_enter_on_a_focused_menu_item_goes_to_it_and_the_arrows_move_in_the_menu(phone: phonewire.Phone) -> None:
    phone.tap("id=new-folder")  # a tap focuses the item (tabindex), as a finger does
    assert shown(phone, "clicked") == "menu-tap New Folder"
    phone.press("enter")  # was TEXT_INPUT_NOT_FOCUSED: no text field has focus
    assert shown(phone, "clicked") == "menu New Folder"
    phone.press("arrowDown")  # the menu's own key handler moves its focus
    phone.press("enter")
    assert shown(phone, "clicked") == "menu Rename"


def test_enter_activates_a_focused_button_and_a_focused_link(phone: phonewire.Phone) -> None:
    phone.tap("id=target")
    phone.press("tab")  # the Go button
    phone.press("enter")
    assert shown(phone, "clicked") == "go"
    phone.press("tab")  # the link
    phone.press("enter")
    assert shown(phone, "clicked") == "link #linked"


def test_enter_with_nothing_focused_is_still_refused(phone: phonewire.Phone) -> None:
    with pytest.raises(ProtocolError) as info:
        phone.press("enter")
    assert info.value.code == e.TEXT_INPUT_NOT_FOCUSED


def test_the_arrows_move_in_a_radio_group(phone: phonewire.Phone) -> None:
    phone.tap("id=small")
    phone.press("arrowDown")
    nodes = {n.get("identifier"): n for n in phone.snapshot().nodes}
    assert (nodes["small"].get("value"), nodes["medium"].get("value")) == ("0", "1")  # checked: "1"
    assert nodes["medium"].get("focused")


# -- (1) keys with modifiers ---------------------------------------------------------------------------------------
def test_ctrl_a_ctrl_c_ctrl_v_go_through_the_pages_own_copy_and_paste_handlers(phone: phonewire.Phone) -> None:
    phone.tap("id=source")
    phone.press("ctrl+a")
    assert shown(phone, "selection") == '"copy me please"'
    phone.press("ctrl+c")
    assert shown(phone, "copied") == "copy me please"
    assert phone.clipboard_get().data["text"] == "copy me please"
    phone.tap("id=target")
    phone.press("ctrl+v")
    assert shown(phone, "pasted") == '"copy me please" (14)'
    assert next(n for n in phone.snapshot().nodes if n.get("identifier") == "target").get("value") == "copy me please"


def test_a_combination_reaches_the_page_with_its_modifiers(phone: phonewire.Phone) -> None:
    phone.tap("id=source")
    for combo, seen in (("shift+arrowLeft", "shift+ArrowLeft"), ("ctrl+shift+z", "ctrl+shift+Z"),
                        ("cmd+b", "meta+b"), ("alt+1", "alt+1")):  # fmt: skip
        result = phone.press(combo)
        assert shown(phone, "keys") == seen, combo
        assert result.data["message"].startswith("pressed ")


def test_meta_c_copies_on_an_ios_phone(phone: phonewire.Phone) -> None:
    # the default profile is an iPhone: cmd's editing shortcuts, sent as the editing command they mean
    phone.select_text("id=source", all=True)
    phone.press("meta+c")
    assert shown(phone, "copied") == "copy me please"
    assert phone.clipboard_get().data["text"] == "copy me please"


@pytest.mark.parametrize(
    ("combo", "says"),
    [("ctrl+home", "phone's buttons"), ("hyper+a", "'hyper' is no modifier"), ("ctrl+ctrl+a", "named twice"),
     ("ctrl+f13", "'f13' is no key"), ("ctrl+", "combination")],
)  # fmt: skip
def test_an_unsupported_combination_is_a_specific_refusal(phone: phonewire.Phone, combo: str, says: str) -> None:
    with pytest.raises(ProtocolError) as info:
        phone.press(combo)
    assert info.value.code == e.INVALID_REQUEST and says in info.value.message and info.value.hint
    assert shown(phone, "keys") == "none"  # nothing reached the page


# -- (1) select-text -----------------------------------------------------------------------------------------------
def test_select_text_makes_a_selection_the_page_sees(phone: phonewire.Phone) -> None:
    assert phone.select_text("id=quote").data["selected"] == "The quick brown fox jumps"
    assert shown(phone, "selection") == '"The quick brown fox jumps"'
    assert phone.select_text("id=quote", start=4, end=9).data["selected"] == "quick"
    assert shown(phone, "selection") == '"quick"'
    # the word at the target's point in a field: the field's text ends before its centre, so its last word
    result = phone.select_text("id=source", word=True)
    assert result.data["selected"] == "please" and shown(phone, "selection") == '"please"'
    assert phone.select_text("id=source", all=True).data["selected"] == "copy me please"


def test_select_text_refuses_a_range_past_the_text_and_a_mix_of_ways(phone: phonewire.Phone) -> None:
    with pytest.raises(ProtocolError) as info:
        phone.select_text("id=quote", start=4, end=400)
    assert info.value.code == e.INVALID_REQUEST and "past the end of the text (25 characters)" in info.value.message
    with pytest.raises(ProtocolError) as mixed:
        phone.select_text("id=quote", word=True, all=True)
    assert mixed.value.code == e.INVALID_REQUEST
    assert shown(phone, "selection") == "none"


# -- (2) the clipboard ---------------------------------------------------------------------------------------------
def test_clipboard_set_is_what_the_page_pastes_and_reads(phone: phonewire.Phone) -> None:
    phone.clipboard_set("from the agent\twith a tab")
    phone.tap("id=target")
    phone.press("ctrl+v")
    assert shown(phone, "pasted") == '"from the agent\\twith a tab" (25)'  # (as JSON: the tab kept)
    phone.keyboard_hide()  # the field's keyboard covers the button below it, as on a phone
    phone.tap("id=read-clipboard")  # the page asks: refused until the phone grants it
    assert shown(phone, "read").startswith("refused")
    phone.permissions("grant", ["clipboard"])
    try:
        phone.tap("id=read-clipboard")
        assert shown(phone, "read") == '"from the agent\\twith a tab"'
    finally:
        phone.permissions("reset", ["clipboard"])
    assert phone.clipboard_get().data["text"] == "from the agent\twith a tab"


# -- (5) the phone's environment -----------------------------------------------------------------------------------
def test_rotate_fires_the_pages_orientation_change_and_its_landscape_layout(phone: phonewire.Phone) -> None:
    assert "Held upright" in phone.snapshot().text
    try:
        assert phone.rotate("landscape").data["orientation"] == "landscape"
        assert shown(phone, "orientation") == "landscape-primary"
        view = phone.snapshot().text
        assert "Held sideways" in view and "Held upright" not in view
        box = phone.viewport()
        assert box["width"] > box["height"]
    finally:
        phone.rotate("portrait")
    assert shown(phone, "orientation") == "portrait-primary"
    assert phone.viewport()["width"] < phone.viewport()["height"]


def test_location_is_what_the_geolocation_api_answers_and_off_is_no_position(phone: phonewire.Phone) -> None:
    phone.permissions("grant", ["geolocation"])
    try:
        phone.location(48.8584, 2.2945, accuracy=5)
        phone.tap("id=locate")
        assert shown(phone, "position") == "48.8584,2.2945 ±5"
        phone.location_off()
        phone.tap("id=locate")
        assert shown(phone, "position") == "error 2"  # POSITION_UNAVAILABLE
    finally:
        phone.permissions("reset", ["geolocation"])


@pytest.mark.parametrize(("lat", "lon", "says"), [(91, 2, "latitude 91"), (48, -181, "longitude -181")])
def test_a_position_off_the_globe_is_a_specific_refusal(
    phone: phonewire.Phone, lat: float, lon: float, says: str
) -> None:
    with pytest.raises(ProtocolError) as info:
        # the agent session's own words (the API checks the table's bounds first, as MCP and the bridge do)
        phone._call(phone.session.location(lat, lon))
    assert info.value.code == e.INVALID_REQUEST and says in info.value.message and "degrees" in (info.value.hint or "")
    with pytest.raises(ProtocolError) as api:
        phone.location(lat, lon)
    assert api.value.code == e.INVALID_REQUEST


def test_dark_mode_is_the_pages_prefers_color_scheme_and_its_change_event(phone: phonewire.Phone) -> None:
    assert shown(phone, "scheme") == "light"
    try:
        assert phone.appearance("dark").data["appearance"] == "dark"
        assert shown(phone, "scheme") == "dark"  # the page's matchMedia change listener ran
    finally:
        phone.appearance("light")
    assert shown(phone, "scheme") == "light"


def test_offline_is_navigator_online_false_and_a_failing_fetch(phone: phonewire.Phone) -> None:
    assert shown(phone, "online") == "true"
    try:
        phone.connectivity("offline")
        assert shown(phone, "online") == "false"
        phone.tap("id=fetch")
        phone.wait('text="fetch failed, onLine=false"')
    finally:
        phone.connectivity("online")
    assert shown(phone, "online") == "true"
    phone.tap("id=fetch")
    phone.wait('text="fetched 200"')


def test_permissions_are_what_the_page_is_told(phone: phonewire.Phone) -> None:
    try:
        phone.permissions("grant", ["location"])
        phone.permissions("deny", ["camera"])
        phone.tap("id=ask")
        assert shown(phone, "permission") == "geolocation=granted camera=denied notifications=prompt"
    finally:
        phone.permissions("reset", ["geolocation", "camera"])
    phone.tap("id=ask")
    assert shown(phone, "permission") == "geolocation=prompt camera=prompt notifications=prompt"
    with pytest.raises(ProtocolError) as info:
        phone.permissions("grant", ["teleport"])
    assert (
        info.value.code == e.INVALID_REQUEST
        and "teleport" in info.value.message
        and "geolocation" in (info.value.hint or "")
    )


def test_the_view_shows_the_selection_on_the_node_that_holds_it(phone: phonewire.Phone) -> None:
    assert "selected text=" not in phone.snapshot().text
    phone.select_text("id=quote", start=4, end=9)
    line = next(x for x in phone.snapshot().text.splitlines() if "The quick brown fox jumps" in x)
    assert line.rstrip().endswith('[selected text="quick"]')
    phone.select_text("id=source", word=True)
    line = next(x for x in phone.snapshot().text.splitlines() if 'TextField "Source"' in x)
    assert 'selected text="please"' in line and "focused" in line
    assert next(n for n in phone.snapshot().nodes if n.get("identifier") == "source")["selectedText"] == "please"
