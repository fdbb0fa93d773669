"""The small findings of issue 22's new-user trial, each on a page built in its shape and driven through the real
runner and Chromium; the page's own click record (aim/recorder.js) or its own state is the evidence."""

from __future__ import annotations

import re

import pytest
from aim_site import AimSite
from web_runner import node

import phonewire
from phonewire.devices.web.profiles import resolve_profile
from phonewire.protocol import errors as e

pytestmark = pytest.mark.e2e

SCREEN = resolve_profile(None)
HEAD = '<!doctype html><html><head><meta name="viewport" content="width=device-width,initial-scale=1">'
HEAD += '<script src="/recorder.js"></script><style>body { margin: 0; font: 16px sans-serif; }</style></head><body>'


@pytest.fixture(scope="module")
def phone(module_phone: phonewire.Phone) -> phonewire.Phone:
    return module_phone


def _centre_of_text(phone: phonewire.Phone, label: str) -> tuple[float, float]:
    n = next(n for n in phone.snapshot().nodes if n.get("type") == "StaticText" and n.get("label") == label)
    r = n["rect"]
    return r["x"] + r["width"] / 2, r["y"] + r["height"] / 2


def test_a_tap_on_a_checkbox_label_names_the_checkbox_not_the_group_around_it(
    phone: phonewire.Phone, site: AimSite
) -> None:
    """The hit of a tap on a label's text read `Group "Options"` (the fieldset around it); the view, and the tap
    (a label forwards it), mean the CheckBox."""
    url = site.put(
        "trial/checkbox.html",
        HEAD + '<fieldset><legend>Options</legend><label data-aim="remember-label">'
        '<input type="checkbox" id="remember"> Remember me</label></fieldset></body></html>',
    )
    phone.open(url)
    x, y = _centre_of_text(phone, "Remember me")
    site.clear()
    reply = phone.tap(f"{x} {y}")
    assert reply.data["hit"] == 'CheckBox "Remember me" id=remember', reply.data
    assert reply.data["message"].endswith(' on CheckBox "Remember me" id=remember')
    assert node(phone, "remember")["value"] == "1"  # the page's own checkbox took the tap (checked)


def test_find_not_found_says_how_far_it_scrolled_and_offers_the_nearest_names_on_the_screen(
    phone: phonewire.Phone, site: AimSite
) -> None:
    """`find` NOT_FOUND hinted only "check the selector"; a misspelt name is offered what the screen shows."""
    rows = "".join(f'<p><button id="p{i}">Person {i}</button></p>' for i in range(1, 41))
    phone.open(site.put("trial/people.html", HEAD + rows + '<button id="del">Delete all</button></body></html>'))
    with pytest.raises(phonewire.ProtocolError) as info:
        phone.find("label=Persn 38")
    assert info.value.code == e.NOT_FOUND
    assert re.fullmatch(
        r"nothing on screen matches 'label=Persn 38' after [1-9]\d* scroll\(s\) down \([1-9]\d* pt\): reached the end",
        info.value.message,
    ), info.value.message
    hint = info.value.hint or ""
    assert hint.startswith('Nearest on the screen now: Button "Person 38" id=p38; '), hint
    assert "Delete" not in hint
    with pytest.raises(phonewire.ProtocolError) as info:
        phone.find("Zebra crossing")  # nothing near it: no names offered
    assert (info.value.hint or "").startswith("Check the selector against `snapshot`"), info.value.hint


PICKER = (
    HEAD
    + """<div style="height:200px"></div>
<label for="when">When:</label><input id="when" value="">
<div id="picker" tabindex="-1" hidden>a picker</div>
<script>
  // a widget of its own: focusing the field opens its picker and moves focus there
  document.getElementById("when").addEventListener("focus", () => {
    const picker = document.getElementById("picker");
    picker.hidden = false;
    picker.focus();
  });
</script></body></html>"""
)


def test_fill_on_a_field_that_gives_focus_away_says_what_happened_not_tap_a_field_first(
    phone: phonewire.Phone, site: AimSite
) -> None:
    """TEXT_INPUT_NOT_FOCUSED after fill's own tap hinted "Tap a text field first" — fill had just tapped it."""
    phone.open(site.put("trial/picker.html", PICKER))
    with pytest.raises(phonewire.ProtocolError) as info:
        phone.fill("id=when", "tomorrow")
    assert info.value.code == e.TEXT_INPUT_NOT_FOCUSED
    assert info.value.message.startswith("fill tapped it, but the field did not have focus"), info.value.message
    assert "nothing was typed" in info.value.message
    hint = info.value.hint or ""
    assert "Tap a text field first" not in hint and "snapshot" in hint, hint
    assert not node(phone, "when").get("value")


def test_text_a_box_cuts_is_shown_as_a_person_sees_it(phone: phonewire.Phone, site: AimSite) -> None:
    """Rule clipped-text: a paragraph in a two-line card and a line in a narrow cell were listed whole, with rects
    past their boxes; the view has the words whose middle shows, at the part that shows."""
    phone.open(site.url("clipped.html"))
    card, cell = node(phone, "card"), node(phone, "cell")
    words = 20  # the paragraph's words up to "at all" (not counting "to anyone.")
    said = str(card["label"]).split()
    assert said[:3] == ["First", "line", "shows."] and 3 < len(said) < words, card
    assert "third" not in said and card["rect"]["height"] <= 40, card  # type: ignore[index]
    assert str(cell["label"]).startswith("Alpha") and "theta" not in str(cell["label"]), cell
    assert cell["rect"]["width"] <= 120, cell  # type: ignore[index]
    assert "clipped-text" in card.get("rules", ()), card  # type: ignore[operator]
    assert not any(n.get("identifier") == "below" for n in phone.snapshot().nodes)  # wholly cut: not seen
    edge = node(phone, "edge")  # cut by the screen only: the rest is scrolled to, so it is listed whole
    assert str(edge["label"]).endswith("scrolling reveals them."), edge


TAB_BAR = (
    HEAD
    + """<div style="height:800px"></div>
<button id="under" data-aim style="width:100px;height:60px">Under</button>
<div style="height:1000px"></div>
<nav id="bar" data-aim style="position:fixed;left:0;right:0;bottom:0;height:60px;background:#333">Tab bar</nav>
</body></html>"""
)


def test_an_element_cut_by_the_screen_whose_shown_part_is_covered_is_scrolled_into_view_and_tapped(
    phone: phonewire.Phone, site: AimSite
) -> None:
    """A button half below the screen, its shown half under a fixed tab bar: ELEMENT_COVERED, though a person
    would scroll it up and tap it.  By selector and by ref: the page's own handler saw the button, not the bar."""
    url = site.put("trial/tabbar.html", TAB_BAR)
    for how in ("selector", "ref"):
        phone.open(url)
        view = phone.snapshot()
        under = next(ref for ref, n in view.refs.items() if n.get("identifier") == "under")
        assert view.refs[under].get("coveredBy"), view.text  # (the shape: its shown part is under the bar)
        site.clear()
        phone.tap("id=under" if how == "selector" else f"@{under}")
        assert site.clicks() == ["under"], (how, site.clicks())
        rect = node(phone, "under")["rect"]
        assert rect["y"] + rect["height"] <= SCREEN.height - 60, rect  # type: ignore[index]


def test_text_that_went_into_another_field_is_undone_and_refused_naming_that_field(
    phone: phonewire.Phone, site: AimSite
) -> None:
    """From's widget takes focus back on To's first key: `fill To COD` answered ok, To "C", From "…(DUJ)OD"."""
    phone.open(site.url("flight_refocus.html"))
    with pytest.raises(phonewire.ProtocolError) as info:
        phone.fill("id=to", "COD")
    assert info.value.code == e.ELEMENT_MOVED, info.value
    message = info.value.message
    assert 'input#from "From:" now holds' in message and "nothing was typed" in message, message
    assert node(phone, "from")["value"] == "Dubois, PA (DUJ)"  # set back as it was
    assert not node(phone, "to").get("value")
    # the page moving the typing on from a full box, and a field it fills while the typed one keeps focus: no strays
    phone.fill("id=otp-1", "42")
    assert (node(phone, "otp-1")["value"], node(phone, "otp-2")["value"]) == ("4", "2")
    phone.fill("id=title", "Hello World")
    assert (node(phone, "title")["value"], node(phone, "slug")["value"]) == ("Hello World", "hello-world")
