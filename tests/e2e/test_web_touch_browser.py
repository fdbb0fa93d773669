"""Touches behave as on a phone's browser (issue 24 item 4), on the real web phone: after a tap the tapped element
is ``:hover`` and got mouseover/mouseenter (its own handlers saw them), and stays hovered until the next tap
elsewhere, which moves the hover (mouseleave on the old element).  Asserted by the page's own handlers and by what
its ``:hover`` rule shows in the view."""

from __future__ import annotations

import pytest
from web_runner import HostileSite

import phonewire
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

pytestmark = pytest.mark.e2e


@pytest.fixture
def phone(web_phone: phonewire.Phone, hostile_site: HostileSite) -> phonewire.Phone:
    web_phone.open(hostile_site.url("hover.html"))
    return web_phone


def log(phone: phonewire.Phone) -> str:
    """What the page's own handlers recorded, and which rows match ``.row:hover``."""
    return str(next(n for n in phone.snapshot().nodes if n.get("identifier") == "log").get("label"))


def buttons(phone: phonewire.Phone) -> list[str]:
    """The buttons the view shows (each row's button shows only while its row is ``:hover``)."""
    return [str(n.get("label")) for n in phone.snapshot().nodes if n["type"] == "Button"]


def test_a_tapped_row_is_hovered_and_stays_so_until_a_tap_elsewhere(phone: phonewire.Phone) -> None:
    assert buttons(phone) == []
    phone.tap('"First row"')
    assert log(phone) == "over one; enter one | hovered one"
    assert buttons(phone) == ["tip one"]  # the row's :hover rule shows its button, and it stays shown
    phone.tap('role=Button label="tip one"')  # inside the hovered row: the hover stays on it
    assert log(phone) == "over one; enter one; click tip-one | hovered one"
    phone.tap('"Second row"')
    assert log(phone) == "over one; enter one; click tip-one; leave one; over two; enter two | hovered two"
    assert buttons(phone) == ["tip two"]


def test_a_second_tap_on_the_hovered_row_enters_it_no_second_time(phone: phonewire.Phone) -> None:
    phone.tap('"Third row"')
    phone.tap('"Third row"')
    assert log(phone) == "over three; enter three | hovered three"


def page_log(phone: phonewire.Phone) -> str:
    return str(next(n for n in phone.snapshot().nodes if n.get("identifier") == "log").get("label"))


def test_a_long_press_on_text_selects_its_word_and_on_a_link_opens_the_systems_link_menu(
    web_phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    """iOS (the default profile): a long press fires no contextmenu; on text it selects the word, on a link it
    opens Safari's menu (the link's address, Open Link, Open in New Tab, Copy Link), which clicks nothing."""
    web_phone.open(hostile_site.url("press.html"))
    web_phone.long_press('"Several plain words here"')  # before: a click on the paragraph, nothing selected
    assert page_log(web_phone) == "selected here"  # the page's selectionchange saw the word
    address = hostile_site.url("press.html") + "#linked"
    held = web_phone.long_press("id=link")  # before: a click, and the link followed
    message = str(held.data.get("message"))
    assert f'a link menu opened: "{address}"' in message and '"Copy Link"' in message, message
    menu = web_phone.snapshot()
    assert f'Alert "{address}"' in menu.text
    assert [n["label"] for n in menu.nodes if n["type"] == "Button" and not n.get("coveredBy")] == [
        "Open Link", "Open in New Tab", "Copy Link"]  # fmt: skip
    with pytest.raises(ProtocolError) as covered:
        web_phone.tap("id=para")  # the menu is modal
    assert covered.value.code == e.ELEMENT_COVERED and "Copy Link" in (covered.value.hint or "")
    chose = web_phone.tap('role=Button label="Copy Link"')
    assert '"Copy Link" chosen in the link menu' in str(chose.data.get("message"))
    assert web_phone.clipboard_get().data["text"] == address  # the phone's clipboard, as the page reads it
    assert page_log(web_phone) == "selected here"  # no click, no contextmenu, nothing followed
    web_phone.long_press("id=link")
    web_phone.press("back")  # closes it, choosing none
    assert "Alert" not in web_phone.snapshot().text and page_log(web_phone) == "selected here"
    web_phone.long_press("id=link")
    web_phone.tap('role=Button label="Open Link"')
    assert page_log(web_phone) == "selected here; at #linked"  # followed: the page's hashchange, and no click
    web_phone.tap("id=link")  # a tap still clicks
    assert page_log(web_phone) == "selected here; at #linked; click link"


def test_an_android_long_press_fires_contextmenu_and_a_page_that_takes_it_gets_no_link_menu(
    hostile_site: HostileSite,
) -> None:
    """Android (pixel-7): a long press fires the page's contextmenu at the finger; a page that cancels it shows its
    own menu and the browser nothing; on a link left to the browser, Chrome's menu (Copy link text here)."""
    with phonewire.Phone("web:pixel-7") as phone:
        phone.open(hostile_site.url("press.html"))
        phone.long_press('"Hold for my menu"')
        # its own handler (then the document's), trusted; it cancelled the press: no selection either
        assert page_log(phone) == "own menu; contextmenu own"
        phone.long_press('"Several plain words here"')
        assert page_log(phone) == "own menu; contextmenu own; contextmenu para; selected here"
        held = phone.long_press("id=link")
        assert "a link menu opened" in str(held.data.get("message"))
        assert page_log(phone) == "own menu; contextmenu own; contextmenu para; selected here; contextmenu link"
        buttons = [n["label"] for n in phone.snapshot().nodes if n["type"] == "Button" and not n.get("coveredBy")]
        assert buttons == ["Open in new tab", "Copy link address", "Copy link text"]
        phone.tap('role=Button label="Copy link text"')
        assert phone.clipboard_get().data["text"] == "A plain link"
        before = page_log(phone)
        phone.long_press("id=link")
        opened = phone.tap('role=Button label="Open in new tab"')
        assert 'StaticText "none" id=log' in "\n".join(opened.data["diff"])  # the reply sees the new tab
        assert page_log(phone) == "none"  # a new screen of the app: the linked page, fresh
        phone.press("back")  # closes the tab: the page it came from, as it was
        assert page_log(phone) == before + "; contextmenu link"


def test_a_pinch_zooms_a_zoomable_page_by_the_spread_and_refs_still_land(
    web_phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    """A pinch the page leaves to the browser zooms it (issue 22 item 6), by about the fingers' spread: each touch
    is sent at the page's scale of the moment (before: at the first, and a spread of 2 zoomed the page from 0.33 to
    its most, 5).  Chromium's pinch slop takes the first few points of the spread, as a phone's does, so the zoom
    is at most the spread, and more than nothing.  Refs tapped after it land on their elements."""
    web_phone.open(hostile_site.url("zoom.html"))
    before = web_phone.viewport()["scale"]
    two = next(n for n in web_phone.snapshot().nodes if n.get("identifier") == "b2")["rect"]
    pinched = web_phone.pinch(f"{two['x'] + two['width'] / 2:g} {two['y'] + two['height'] / 2:g}", scale=2.0)
    after = web_phone.viewport()["scale"]
    assert before * 1.2 < after <= before * 2 * 1.05, (before, after)
    # the reply says the zoom it made (no line of the view changes with a scale: changed says it)
    assert pinched.data["zoomed"] == {"from": before, "to": after, "how": "pinch"}, pinched.data
    assert pinched.changed is True and f"the page zoomed to scale {after:.3g}" in pinched.data["message"]
    shown = sorted((n["rect"]["x"], n["identifier"], r) for r, n in web_phone.snapshot().refs.items()
                   if n["type"] == "Button")  # fmt: skip
    assert len(shown) >= 2, shown
    for _, _, ref in shown:
        web_phone.tap("@" + ref)
    assert page_log(web_phone) == " ".join(str(ident) for _, ident, _ in shown)


def test_a_tap_on_plain_text_beside_a_link_gives_the_link_neither_its_touch_nor_its_click(
    web_phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    # Chromium's touch adjustment moved the touchstart and pointer events of a tap on text (nothing there takes
    # clicks) to the link 2 points below it: a page acting on touchstart acted on the link, the reply said the text
    web_phone.open(hostile_site.url("touch_near.html"))
    web_phone.tap("id=near")
    assert page_log(web_phone) == "pointerdown near; touchstart near; click near"
    words = next(n for n in web_phone.snapshot().nodes if n.get("identifier") == "near")["rect"]
    web_phone.tap(f"{words['x'] + 30:g} {words['y'] + words['height'] - 1:g}")  # a point 3 points above the link
    assert page_log(web_phone).endswith("click near; pointerdown near; touchstart near; click near")
    web_phone.tap("id=link")
    assert page_log(web_phone).endswith("pointerdown link; touchstart link; click link")
    # the handler lent for the tap went with it: the text is no button to the view
    assert next(n for n in web_phone.snapshot().nodes if n.get("identifier") == "near")["type"] == "StaticText"


def test_a_double_tap_and_a_long_press_on_plain_text_beside_a_link_reach_the_text(
    web_phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    """The same touch adjustment moved a double tap's touches, clicks and double click, and a long press's touch, to
    the link 3 points below the words (a page laid out for the phone: a double tap there is a double click)."""
    web_phone.open(hostile_site.url("touch_near.html"))
    words = next(n for n in web_phone.snapshot().nodes if n.get("identifier") == "near")["rect"]
    point = f"{words['x'] + 30:g} {words['y'] + words['height'] - 1:g}"
    web_phone.tap(point, count=2)
    once = "pointerdown near; touchstart near; click near"
    assert page_log(web_phone) == f"{once}; {once}; dblclick near"
    web_phone.long_press(point)
    assert page_log(web_phone).endswith("dblclick near; pointerdown near; touchstart near")  # (no click: a press)
    assert next(n for n in web_phone.snapshot().nodes if n.get("identifier") == "near")["type"] == "StaticText"
