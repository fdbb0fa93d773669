"""Touches behave as on a phone's browser (issue 24 item 4), on the real web phone: after a tap the tapped element
is ``:hover`` and got mouseover/mouseenter (its own handlers saw them), and stays hovered until the next tap
elsewhere, which moves the hover (mouseleave on the old element).  Asserted by the page's own handlers and by what
its ``:hover`` rule shows in the view."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from web_runner import HostileSite

import phonewire

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def own_phone() -> Iterator[phonewire.Phone]:
    with phonewire.Phone("web") as phone:
        yield phone


@pytest.fixture
def phone(own_phone: phonewire.Phone, hostile_site: HostileSite) -> phonewire.Phone:
    own_phone.open(hostile_site.url("hover.html"))
    return own_phone


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


def test_a_long_press_on_text_selects_its_word_and_on_a_link_clicks_nothing(
    own_phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    own_phone.open(hostile_site.url("press.html"))
    own_phone.long_press('"Several plain words here"')  # before: a click on the paragraph, nothing selected
    assert page_log(own_phone) == "selected here"  # the page's selectionchange saw the word
    own_phone.long_press("id=link")  # before: a click, and the link followed
    assert page_log(own_phone) == "selected here"  # no click, no contextmenu (docs/web.md: no link menu here)
    own_phone.tap("id=link")  # a tap still clicks
    assert page_log(own_phone) == "selected here; click link"


def test_a_double_tap_on_a_wide_zoomable_page_zooms_nothing_and_refs_still_land(
    own_phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    # Chromium's touch emulation has no double-tap zoom (docs/web.md says why it is not emulated): the scale stays
    # as it was, and the view's rects stay what the finger reaches
    own_phone.open(hostile_site.url("zoom.html"))
    before = own_phone.viewport()
    assert before["scale"] < 0.5  # 1200 px laid out on a 393-point screen
    own_phone.tap("id=para", count=2)
    assert own_phone.viewport() == before
    buttons = sorted((n["rect"]["x"], r) for r, n in own_phone.snapshot().refs.items() if n["type"] == "Button")
    for _, ref in buttons:
        own_phone.tap("@" + ref)
    assert page_log(own_phone) == "para para b1 b2 b3"
