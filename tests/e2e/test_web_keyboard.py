"""The on-screen keyboard of the real web phone (issue 24, item 3), asserted by the page's own observation: a tap
on a text field raises the keyboard (the page's visualViewport shrinks by the profile's keyboard height and fires
resize), the view lists a Keyboard node over the bottom of the screen, a tap under it is refused with
KEYBOARD_COVERS and the page sees no click, ``keyboard hide`` and ``back`` lower it (the field's blur fires, the
viewport is whole again) and the same tap then lands; typing does not care.  A date field and inputmode=none raise
no keyboard.  Through the Python API, which drives the real runner over HTTP."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from web_runner import HostileSite

import phonewire
from phonewire.devices.web.profiles import resolve_profile
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

pytestmark = pytest.mark.e2e

PROFILE = resolve_profile(None)  # the default phone (an iPhone 15)
BELOW = (PROFILE.width / 2, PROFILE.height - 40)  # a point of the low button, under the keyboard when it is up


@pytest.fixture
def phone(web_phone: phonewire.Phone, hostile_site: HostileSite) -> phonewire.Phone:
    web_phone.open(hostile_site.url("keyboard.html"))
    return web_phone


def shown(phone: phonewire.Phone, ident: str) -> str:
    nodes = phone.snapshot().nodes
    return str(next(n for n in nodes if n.get("identifier") == ident).get("label") or "")


def keyboards(phone: phonewire.Phone) -> list[dict[str, object]]:
    return [dict(n) for n in phone.snapshot().nodes if n.get("type") == "Keyboard"]


def test_a_tap_on_a_field_raises_the_keyboard_and_the_page_sees_its_viewport_shrink(phone: phonewire.Phone) -> None:
    assert shown(phone, "heights") == str(PROFILE.height)
    phone.tap("id=name")
    assert shown(phone, "focus") == "focus name"
    assert shown(phone, "heights") == f"{PROFILE.height} {PROFILE.height - PROFILE.keyboard}"
    (board,) = keyboards(phone)
    assert board["rect"] == {"x": 0, "y": PROFILE.height - PROFILE.keyboard, "width": PROFILE.width,
                             "height": PROFILE.keyboard}  # fmt: skip
    assert "Keyboard (covers the screen below y=" in phone.snapshot().text


def test_a_tap_under_the_keyboard_is_refused_and_after_keyboard_hide_it_lands(phone: phonewire.Phone) -> None:
    phone.tap("id=name")
    with pytest.raises(ProtocolError) as info:
        phone.tap(f"{BELOW[0]} {BELOW[1]}")
    assert info.value.code == e.KEYBOARD_COVERS and "keyboard hide" in (info.value.hint or "")
    assert shown(phone, "clicks") == "0"  # the page saw no click
    result = phone.keyboard_hide()
    assert result.data["hidden"] is True
    assert shown(phone, "focus") == "blur name"
    assert shown(phone, "heights").split()[-1] == str(PROFILE.height)  # the viewport is whole again
    assert keyboards(phone) == []
    phone.tap(f"{BELOW[0]} {BELOW[1]}")
    assert shown(phone, "clicks") == "1"
    assert phone.keyboard_hide().data["hidden"] is False  # none was up: said, not refused


def test_a_selector_for_something_under_the_keyboard_says_the_keyboard_is_up(phone: phonewire.Phone) -> None:
    phone.tap("id=name")
    with pytest.raises(ProtocolError) as info:
        phone.tap("id=deep")  # laid out at y=560: under the keyboard, off the view above it
    assert info.value.code == e.NOT_FOUND and "keyboard is up" in (info.value.hint or "")
    assert shown(phone, "clicks") == "0"
    phone.keyboard_hide()
    phone.tap("id=deep")
    assert shown(phone, "clicks") == "10"


def test_back_lowers_the_keyboard_first(phone: phonewire.Phone) -> None:
    phone.tap("id=name")
    result = phone.press("back")
    assert result.data.get("closed") == "Keyboard"
    assert shown(phone, "focus") == "blur name"
    assert keyboards(phone) == []
    phone.tap(f"{BELOW[0]} {BELOW[1]}")
    assert shown(phone, "clicks") == "1"


def test_typing_does_not_care_and_a_tap_above_elsewhere_lowers_it(phone: phonewire.Phone) -> None:
    phone.fill("id=name", "hello")
    assert keyboards(phone)  # the field has focus: the keyboard is up
    phone.type("!")
    assert next(n for n in phone.snapshot().nodes if n.get("identifier") == "name").get("value") == "hello!"
    phone.tap("id=clicks")  # text above the keyboard: the field loses focus, the keyboard goes
    assert shown(phone, "focus") == "blur name"
    assert keyboards(phone) == []
    assert shown(phone, "heights").split()[-1] == str(PROFILE.height)


@pytest.mark.parametrize("field", ["when", "quiet"])
def test_a_date_field_and_inputmode_none_raise_no_keyboard(phone: phonewire.Phone, field: str) -> None:
    phone.tap(f"id={field}")
    assert shown(phone, "focus") == f"focus {field}"
    assert keyboards(phone) == []
    assert shown(phone, "heights") == str(PROFILE.height)


def test_a_screenshot_with_the_keyboard_up_is_the_whole_screen_with_the_keyboard_drawn(
    phone: phonewire.Phone, tmp_path: Path
) -> None:
    phone.tap("id=name")
    phone.screenshot(tmp_path / "up.png", scale="css")
    with Image.open(tmp_path / "up.png") as img:
        assert img.size == (PROFILE.width, PROFILE.height)
        tray = img.convert("RGB").getpixel((2, PROFILE.height - PROFILE.keyboard + 4))
    phone.keyboard_hide()
    phone.screenshot(tmp_path / "down.png", scale="css")
    with Image.open(tmp_path / "down.png") as img:
        assert img.size == (PROFILE.width, PROFILE.height)
        page = img.convert("RGB").getpixel((2, PROFILE.height - PROFILE.keyboard + 4))
    assert tray != page  # the keyboard's tray, then the page's own low button
