"""The repros of issue 22, each on a page of tests/e2e/aim/ built in the shape of the page that showed it: a tap, a
fill or a triple tap reaches the element it names (the page's own handler records each click, aim/recorder.js),
or it is refused — never an ok that reached another element or nothing."""

from __future__ import annotations

import pytest
from aim_site import AimSite
from web_runner import node

import phonewire
from phonewire.devices.web.profiles import resolve_profile
from phonewire.protocol import errors as e

pytestmark = pytest.mark.e2e

SCREEN = resolve_profile(None)


@pytest.fixture(scope="module")
def phone(module_phone: phonewire.Phone) -> phonewire.Phone:
    return module_phone


def node_labelled(phone: phonewire.Phone, label: str) -> bool:
    return any(n.get("label") == label for n in phone.snapshot().nodes)


def _on_screen(reply: phonewire.ActionResult) -> tuple[float, float]:
    target = reply.data["target"]
    x, y = float(target["x"]), float(target["y"])
    assert 0 <= x <= SCREEN.width and 0 <= y <= SCREEN.height, f"tapped at ({x}, {y}), off the screen"
    return x, y


def test_content_620_wide_under_device_width_every_button_is_reached_where_the_screen_shows_it(
    phone: phonewire.Phone, site: AimSite
) -> None:
    phone.open(site.url("wide620.html"))
    for ident in ("near", "low", "far"):
        phone.find(f"id={ident}")
        site.clear()
        _on_screen(phone.tap(f"id={ident}"))
        assert site.clicks() == [ident]


def test_a_tab_cut_by_the_right_edge_of_a_sideways_strip_is_reached(phone: phonewire.Phone, site: AimSite) -> None:
    phone.open(site.url("tabstrip.html"))
    for ident in ("tab-4", "tab-2"):
        site.clear()
        _on_screen(phone.tap(f"id={ident}"))
        assert site.clicks() == [ident]
        assert node(phone, ident)["selected"] is True


def test_a_control_in_a_scrolled_scroller_is_reached_and_a_point_tap_names_it_not_the_scroller(
    phone: phonewire.Phone, site: AimSite
) -> None:
    """MiniWoB social-media: `tap @e280 Button "reply"` answered ok with `hit: "Other id=area"` (the scroller)."""
    phone.open(site.url("scroller.html"))
    view = phone.snapshot(interactive=True)
    # the posts' controls: the small buttons of the view (the scroller itself may be listed as a control too)
    controls = [ref for ref, n in view.refs.items() if n.get("type") == "Button" and n["rect"]["width"] < 20]
    assert controls, view.text
    for ref in controls:
        site.clear()
        x, y = _on_screen(phone.tap(f"@{ref}"))
        (reached,) = site.clicks()
        assert reached is not None and reached.split("-")[0] in ("reply", "retweet", "like"), reached
        assert node_labelled(phone, f"done: {reached}")
        site.clear()
        reply = phone.tap(f"{x} {y}")
        assert site.clicks() == [reached]
        assert "id=area" not in reply.data["message"], reply.data["message"]


def test_fill_into_a_field_under_a_popup_is_refused_and_types_into_no_other_field(
    phone: phonewire.Phone, site: AimSite
) -> None:
    """MiniWoB book-flight: `fill id=flight-to COD` with From's list open over To typed into From."""
    phone.open(site.url("flight.html"))
    phone.fill("id=flight-from", "Dub")  # its list opens 300 ms later, over To
    try:
        phone.fill("id=flight-to", "COD")
    except phonewire.ProtocolError as exc:
        assert exc.code in (e.ELEMENT_COVERED, getattr(e, "ELEMENT_MOVED", "?")), exc
        assert not node(phone, "flight-to").get("value")
    else:
        assert node(phone, "flight-to")["value"] == "COD"
    assert node(phone, "flight-from")["value"] == "Dub"


def test_fill_on_a_focused_field_partly_off_screen_types_into_it(phone: phonewire.Phone, site: AimSite) -> None:
    """Django admin's Name field after a scroll: `fill` on a focused field answered TEXT_INPUT_NOT_FOCUSED."""
    phone.open(site.url("focused.html"))
    phone.tap("id=name")
    phone.scroll("down", amount=0.4)  # the field is now cut by the top of the screen (or gone above it)
    phone.fill("id=name", "QA testers")
    assert node(phone, "name")["value"] == "QA testers"


def test_fill_on_a_focused_inline_editor_does_not_tap_it_again(phone: phonewire.Phone, site: AimSite) -> None:
    """Jupyter's inline rename field: a tap on it while it is edited closes it."""
    phone.open(site.url("focused.html"))
    phone.tap("id=rename")
    phone.fill("id=rename", "report.ipynb")
    assert node(phone, "rename")["value"] == "report.ipynb"
    assert node(phone, "status")["label"] == "editing"


def test_triple_tap_on_a_paragraph_of_a_980_px_page_reaches_only_the_paragraph(
    phone: phonewire.Phone, site: AimSite
) -> None:
    """MiniWoB highlight-text: a triple tap on the paragraph pressed the Submit button below it."""
    phone.open(site.url("paragraph.html"))
    site.clear()
    phone.tap("id=para", count=3)
    assert site.clicks() and set(site.clicks()) == {"para"}, site.clicks()


def test_a_calendar_week_row_is_never_one_tappable_cell(phone: phonewire.Phone, site: AimSite) -> None:
    """Dash 4's calendar: a week row was one `Cell "13 14 15 16 17 18 19"`, and tapping it picked the 16th."""
    phone.open(site.url("calendar.html"))
    view = phone.snapshot(interactive=True).text
    assert "15 16 17" not in view, view
    site.clear()
    phone.tap("id=day-15")
    assert site.clicks() == ["day-15"]
    assert node(phone, "picked")["label"] == "picked: 15"


def test_a_page_wider_than_the_screen_says_so_and_scroll_right_moves_it(phone: phonewire.Phone, site: AimSite) -> None:
    phone.open(site.url("wide620.html"))
    header = phone.snapshot().text.splitlines()[0]
    assert header.startswith("# page 620 x 2400 px shown at scale 1: x 0-393, y 0-852 of it"), header
    assert "`scroll right` shows more of it" in header
    phone.scroll("right")
    page = phone.snapshot().quality["page"]
    assert page["left"] > 0, page
    shown = phone.viewport()
    assert (shown["width"], shown["height"]) == (SCREEN.width, SCREEN.height)
    assert shown["pageLeft"] == page["left"]
    for _ in range(6):  # (how far one scroll carries depends on the machine: no count asserted)
        phone.scroll("left")
        if phone.snapshot().quality["page"]["left"] <= 1:
            break
    # back at the left edge to within a point: a fresh clone stopped at 1.0 (the last pan step rounds)
    assert phone.snapshot().quality["page"]["left"] <= 1


ZOOMABLE = (
    '<!doctype html><meta name="viewport" content="width=device-width, initial-scale=1">'
    '<script src="/recorder.js"></script><div id="pad" style="height:300px">pad</div>'
    + "".join(
        f'<button id="z{i}" data-aim="z{i}" style="display:block;margin:20px;width:150px;height:40px">Z{i}</button>'
        for i in range(3)
    )
)


def test_after_a_pinch_zoomed_the_page_every_button_is_reached_where_the_screen_shows_it(
    phone: phonewire.Phone, site: AimSite
) -> None:
    """A pinch on a page that allows zooming zooms it (the browser's own pinch zoom); the coordinate model follows
    it: the view and the viewport say the scale, and a button wider than the screen now (its centre off it) is
    tapped on the part that shows, by selector after `find` and by ref — the page's own handler saw each tap on
    exactly its button (the untitled page has no root node to clip by: the device gives the point)."""
    phone.open(site.put("zoomable.html", ZOOMABLE))
    phone.pinch("id=pad", scale=2)
    assert phone.viewport()["scale"] > 1.5
    site.clear()
    phone.find("id=z0")
    phone.tap("id=z0")
    view = phone.snapshot()
    assert "shown at scale" in view.text.splitlines()[0]
    tapped = []
    for ref, n in view.refs.items():
        if str(n.get("identifier", "")).startswith("z"):
            phone.tap(f"@{ref}")
            tapped.append(str(n["identifier"]))
    assert tapped and site.clicks() == ["z0", *tapped]
