"""A tap at a point goes by the screen the agent last saw (issue 23: no look of its own before it, so its diff costs
one snapshot, the one after), and only while the page still shows that screen: a page that changed since, or a
dialog that came over it, has the device send nothing, and the tap goes once, after a fresh look
(tests/e2e/hostile/held.html: the page lists every click it was sent)."""

from __future__ import annotations

import time

import pytest
from web_runner import HostileSite

import phonewire

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def phone(module_phone: phonewire.Phone) -> phonewire.Phone:
    return module_phone


def centre(phone: phonewire.Phone, identifier: str) -> str:
    node = next(n for n in phone.snapshot().nodes if n.get("identifier") == identifier)
    r = node["rect"]
    return f"{r['x'] + r['width'] / 2:.1f} {r['y'] + r['height'] / 2:.1f}"


def until_shown(phone: phonewire.Phone, label: str) -> None:
    """Wait (bounded) until the page shows ``label``, without the session seeing it: the look goes through the
    session's link, not its views, so the screen the agent last saw stays the one it was (a `wait` would renew it)."""

    async def look() -> bool:
        nodes = (await phone.session._link.snapshot())["nodes"]
        return any(n.get("label") == label for n in nodes)

    deadline = time.monotonic() + 20
    while not phone._call(look()):
        assert time.monotonic() < deadline, f"{label!r} never showed"
        time.sleep(0.1)


def clicks(phone: phonewire.Phone) -> str:
    node = next(n for n in phone.snapshot().nodes if n.get("identifier") == "log")
    return str(node["label"]).split("Clicks:", 1)[1].strip()


def test_a_point_tap_on_the_screen_just_seen_is_done_once_and_its_diff_is_what_it_did(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url("held.html"))
    add = centre(phone, "add")
    first = phone.tap(add)
    second = phone.tap(add)  # by the screen the first reply left
    assert any("Count 1" in line for line in first.diff or []), first.diff
    assert any("Count 2" in line for line in second.diff or []), second.diff
    assert clicks(phone) == "add add"
    # the count's text is the same element each time, under the same ref (it had a new one on every change)
    refs = {line.split()[1] for line in [*(first.diff or []), *(second.diff or [])] if "id=count" in line}
    assert len(refs) == 1, (first.diff, second.diff)


def test_a_point_tap_after_the_page_changed_goes_once_and_its_diff_leaves_out_what_came_before_it(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url("held.html"))
    add, later = centre(phone, "add"), centre(phone, "later")
    phone.tap(later)
    until_shown(phone, "Later came")  # after the tap's reply: the screen that reply left is not the page now
    result = phone.tap(add)
    lines = result.diff or []
    assert any("Count 1" in line for line in lines), lines
    # the tap's look before is the page as it was when it tapped: the news came before the tap, not from it
    assert not any("Later came" in line for line in lines), lines
    assert clicks(phone) == "later add"


def test_a_point_tap_after_a_dialog_came_goes_to_the_dialog_after_a_fresh_look(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url("held.html"))
    alert = centre(phone, "alert")
    phone.tap(alert)
    until_shown(phone, "OK")
    ok = next(n["rect"] for n in phone.snapshot().nodes if n.get("type") == "Button" and n.get("label") == "OK")
    at = f"{ok['x'] + ok['width'] / 2:.1f} {ok['y'] + ok['height'] / 2:.1f}"
    phone.tap(at)  # (where the dialog's OK is: learned once)
    phone.tap(alert)
    until_shown(phone, "OK")  # the dialog opens after the reply: the screen that reply left shows the page
    result = phone.tap(at)
    lines = result.diff or []
    # its look before is the dialog, not the page the last reply showed: the diff says the dialog went
    assert any(line.startswith("-") and "Hello" in line for line in lines), lines
    assert result.changed is True
    assert clicks(phone) == "alert alert"


def test_a_tap_that_loads_another_page_answers_with_the_new_pages_view(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url("held.html"))
    result = phone.tap('"Next page"')
    lines = result.diff or []
    assert lines[0] == "# a new page (the one before is gone):", lines
    assert any('Heading "Second screen"' in line for line in lines[1:]), lines
    assert not any(line.startswith(("-", "+", "~")) for line in lines), lines  # no line of the old page said gone
    assert result.changed is True
    early = next(line.split()[0] for line in lines if 'StaticText "Early"' in line or '"Early"' in line)
    assert phone.tap(early).diff == ['~ ' + next(line for line in phone.snapshot().text.splitlines()
                                                 if "early-taps" in line) + '  (was: "0")']  # fmt: skip


def test_a_key_that_posts_a_form_answers_with_the_new_pages_view(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    """Enter in a form's field loads another page: the reply says so and gives that page's view, as a tap's does
    (before: every line of both pages, each old line "drawn anew" or gone)."""
    phone.open(hostile_site.url("held.html"))
    phone.fill('"Search"', "cats")
    result = phone.press("enter")
    lines = result.diff or []
    assert lines[0] == "# a new page (the one before is gone):", lines
    assert any('Heading "Second screen"' in line for line in lines[1:]), lines
    assert not any(line.startswith(("-", "+", "~")) for line in lines), lines
    assert any('"via search"' in line for line in lines[1:]), lines  # the page the form posted to says so


def test_a_scroll_on_a_page_shown_zoomed_out_says_its_distance_in_screen_points(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    """A desktop-width page is shown at about 0.4: the content moved ``distance`` points on the screen, not CSS px
    (it said 1270 pt where the screen moved about 509)."""
    phone.open(hostile_site.url("tall_wide.html"))
    scale = phone.viewport()["scale"]
    assert scale < 0.6

    def tops() -> dict[str, float]:
        return {str(n["identifier"]): float(n["rect"]["y"]) for n in phone.snapshot().nodes
                if str(n.get("identifier", "")).startswith("mark-")}  # fmt: skip

    before = tops()
    result = phone.scroll("down")
    after = tops()
    shared = sorted(set(before) & set(after))
    assert shared, (before, after)
    moved = before[shared[0]] - after[shared[0]]
    assert moved > 50 and abs(result.data["distance"] - moved) <= 1.5, (result.data, moved, scale)
