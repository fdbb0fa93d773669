"""A double tap zooms where the page allows it, as on a phone's browser (issue 24 item 4, issue 22 item 6), on the
real web phone: on a page not laid out for the phone it zooms in on the block under the finger (its width fitted
to the screen, at most the page's own size) and the page gets the touches and no click; a double tap on the page
so zoomed zooms back out.  Where the page says no (``touch-action: manipulation``, ``user-scalable=no``, touches
it takes for itself) nothing zooms, and a double tap is what it is on a page written for phones.  The page's own
handlers judge: what each click and double click reached, and how many touches it saw."""

from __future__ import annotations

from typing import Any

import pytest
from web_runner import HostileSite

import phonewire

pytestmark = pytest.mark.e2e


def shown(phone: phonewire.Phone, ident: str) -> Any:
    """The page's own record ``ident`` (log: what its clicks reached; touches: how many touches it saw)."""
    return next(n for n in phone.snapshot().nodes if n.get("identifier") == ident)


def said(phone: phonewire.Phone, ident: str) -> str:
    return str(shown(phone, ident).get("label"))


def test_a_double_tap_zooms_on_the_block_clicks_nothing_and_a_second_zooms_back_out(
    web_phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    web_phone.open(hostile_site.url("dtz.html"))
    start = web_phone.viewport()["scale"]
    assert start < 0.5  # 1200 px laid out on a 393-point screen
    zoomed = web_phone.tap("id=para", count=2)
    assert zoomed.changed is True and zoomed.data["zoomed"]["to"] == 1.0, zoomed.data
    assert "a double tap there again zooms back out" in zoomed.data["zoomed"]["note"]
    assert web_phone.viewport()["scale"] == 1.0  # 300 px fit on 393 points at more than 1: the page's own size
    assert said(web_phone, "log") == "none"  # no click, no double click
    assert said(web_phone, "touches") == "2 touches"
    para = shown(web_phone, "para")["rect"]
    assert para["x"] >= 0 and para["x"] + para["width"] <= 393
    # refs tapped at the new scale land on their elements (the view's rects are where the finger goes)
    buttons = [(ref, n) for ref, n in web_phone.snapshot().refs.items() if str(n.get("identifier")).startswith("b")]
    on_screen = sorted((n["rect"]["x"], n["identifier"], ref) for ref, n in buttons
                       if n["rect"]["x"] + n["rect"]["width"] <= 393)  # fmt: skip
    assert [ident for _, ident, _ in on_screen] == ["b1", "b2"]
    for _, _, ref in on_screen:
        web_phone.tap("@" + ref)
    assert said(web_phone, "log") == "b1 b2"
    out = web_phone.tap("id=para", count=2)  # still at the scale the last double tap zoomed to: back out
    assert out.data["zoomed"]["to"] == pytest.approx(start, abs=0.005), out.data
    assert out.data["zoomed"]["how"] == "out" and out.changed is True
    assert web_phone.viewport()["scale"] == pytest.approx(start, abs=0.005)
    assert said(web_phone, "log") == "b1 b2"


def test_a_double_tap_on_a_narrow_block_far_to_the_side_centres_it(
    web_phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    web_phone.open(hostile_site.url("dtz.html"))
    web_phone.tap("id=far", count=2)
    view = web_phone.viewport()
    far = shown(web_phone, "far")["rect"]
    assert view["scale"] == 1.0 and view["pageLeft"] > 600, view  # the visual viewport moved across the page
    assert far["x"] == pytest.approx((393 - far["width"]) / 2, abs=1.5), far  # centred, as a phone centres it
    web_phone.tap("id=far", count=2)  # back out to the whole width, about the finger
    assert web_phone.viewport()["pageLeft"] == 0
    assert said(web_phone, "log") == "none" and said(web_phone, "touches") == "4 touches"
    web_phone.tap("id=b1")
    assert said(web_phone, "log") == "b1"


def test_where_the_page_says_no_a_double_tap_zooms_nothing_and_is_a_double_click(
    web_phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    web_phone.open(hostile_site.url("dtz.html"))
    start = web_phone.viewport()
    manip = web_phone.tap("id=manip", count=2)  # touch-action: manipulation: the page's "no double-tap zoom here"
    assert "zoomed" not in manip.data and web_phone.viewport() == start
    assert said(web_phone, "log") == "manip manip dbl-manip"
    own = web_phone.tap("id=own", count=2)  # its touches cancelled by the page: no click and no zoom, as on a phone
    assert "zoomed" not in own.data and web_phone.viewport() == start
    assert said(web_phone, "log") == "manip manip dbl-manip"
    assert said(web_phone, "touches") == "4 touches"


@pytest.mark.parametrize(
    "viewport",
    [
        "width=1200,user-scalable=no",
        "user-scalable=false",  # not a yes, so a no (before: taken for zoomable, and it got nothing)
        "maximum-scale=0.3",  # below the 0.33 that shows the 1200 px: the scale is fixed
    ],
)
def test_a_page_that_cannot_be_zoomed_gets_a_double_click(
    web_phone: phonewire.Phone, hostile_site: HostileSite, viewport: str
) -> None:
    web_phone.open(hostile_site.url(f"dtz.html?viewport={viewport}"))
    start = web_phone.viewport()
    tapped = web_phone.tap("id=para", count=2)
    assert "zoomed" not in tapped.data and web_phone.viewport() == start
    assert said(web_phone, "log") == "para para dbl-para"


def test_a_selection_on_a_page_shown_at_a_scale_is_marked_on_its_own_text(
    web_phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    # the selection's box is in the page's client px; the view's are screen points (before: the mark went on
    # whatever lay at the client point on the screen, a 980-px page's Submit button, or on nothing)
    web_phone.open(hostile_site.url("dtz.html"))
    web_phone.select_text("id=far")
    marked = {
        str(n.get("identifier")): n.get("selectedText") for n in web_phone.snapshot().nodes if n.get("selectedText")
    }
    assert marked == {"far": "A narrow block far to the right of the page."}, marked


def test_a_double_tap_on_a_block_as_wide_as_the_page_zooms_nothing_clicks_nothing_and_says_so(
    web_phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    web_phone.open(hostile_site.url("dtz.html"))
    start = web_phone.viewport()
    tapped = web_phone.tap("id=wide", count=2)  # fitted, it would be smaller than the page's least scale
    assert tapped.data["zoomed"]["how"] == "none", tapped.data
    diff = tapped.diff or []
    assert len(diff) == 1 and diff[0].endswith('StaticText "2 touches" id=touches  (was: "0 touches")')
    assert tapped.data["zoomed"]["note"].startswith("the page did not zoom: the block under the finger already fits")
    assert web_phone.viewport() == start
    assert said(web_phone, "log") == "none"  # a zooming page's double tap clicks nothing, as on a phone


def test_after_a_pinch_a_double_tap_fits_the_block_and_says_that_not_a_zoom_to_the_whole_width(
    web_phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    web_phone.open(hostile_site.url("dtz.html"))
    web_phone.tap("id=para", count=2)  # to scale 1
    para = shown(web_phone, "para")["rect"]
    web_phone.pinch(f"{para['x'] + para['width'] / 2:g} {para['y'] + para['height'] / 2:g}", scale=2.0)
    pinched = web_phone.viewport()["scale"]
    assert pinched > 1.05, pinched  # zoomed past the page's own size
    fitted = web_phone.tap("id=para", count=2)
    assert fitted.data["zoomed"]["how"] == "block" and fitted.data["zoomed"]["to"] == 1.0, fitted.data
    assert fitted.data["zoomed"]["note"].startswith("the page zoomed out to scale 1 (was ")
    assert "to fit the block under the finger" in fitted.data["zoomed"]["note"]
