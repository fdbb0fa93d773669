"""Covered elements and waits on the real web phone (issue 10 items 2 and 3), on the demo's Tasks screen: a drawer
that covers the content (75 % of the width, a dimmed backdrop over the rest), and buttons whose effect lands
300 ms after the tap (an element appears, an element goes)."""

from __future__ import annotations

import pytest

import phonewire
from phonewire.protocol import errors as e

pytestmark = pytest.mark.e2e


@pytest.fixture
def phone(shared_phone: phonewire.Phone) -> phonewire.Phone:
    shared_phone.open("dev.phonewire.demo")
    shared_phone.tap("id=tab-reorder")
    return shared_phone


def listed(view: phonewire.View) -> set[object]:
    """The identifiers of the elements a view lists (``-i`` prints an id only where no label names the line)."""
    return {n.get("identifier") for n in view.refs.values()}


def title(phone: phonewire.Phone) -> object:
    return next(n for n in phone.snapshot().nodes if n.get("identifier") == "title")["label"]


def test_a_drawer_hides_what_it_covers_from_snapshot_i_and_marks_it_covered_in_the_full_view(
    phone: phonewire.Phone,
) -> None:
    assert "tab-list" in listed(phone.snapshot(interactive=True))
    phone.tap("id=open-drawer")
    interactive = phone.snapshot(interactive=True)
    assert 'Button "Close menu"' in interactive.text and "close-drawer" in listed(interactive)
    for hidden in ("tab-list", "task-alpha", "show-later"):
        assert hidden not in listed(interactive), interactive.text
    full = phone.snapshot().text
    assert 'Link "Inbox" id=tab-list [covered]' in full  # under the drawer
    assert 'Link "Tasks" id=tab-reorder [covered]' in full  # under the backdrop, right of the drawer
    assert 'Button "Close menu" id=close-drawer' in full and "close-drawer [covered]" not in full


def test_a_tap_on_a_covered_element_is_element_covered_and_reaches_nothing(phone: phonewire.Phone) -> None:
    ref = next(r for r, n in phone.snapshot(interactive=True).refs.items() if n.get("identifier") == "tab-list")
    phone.tap("id=open-drawer")
    for target in ("@" + ref, "id=tab-list"):
        with pytest.raises(phonewire.ProtocolError) as info:
            phone.tap(target)
        assert info.value.code == e.ELEMENT_COVERED
        assert 'Dialog "Menu" id=drawer' in info.value.message  # what covers it
    with pytest.raises(phonewire.ProtocolError) as beside:
        phone.tap("id=tab-reorder")  # right of the drawer
    assert "id=drawer-backdrop" in beside.value.message
    assert title(phone) == "Tasks"  # no tap went through to the tab
    assert "close-drawer" in listed(phone.snapshot(interactive=True))  # nor to the backdrop (it would close)
    phone.tap("id=close-drawer")
    phone.tap("id=tab-list")  # uncovered again: the tap lands
    assert title(phone) == "Inbox"


def test_a_coordinate_tap_says_what_it_hit(phone: phonewire.Phone) -> None:
    phone.tap("id=open-drawer")
    hit = phone.tap("360 400").data
    assert hit["hit"] == "Other id=drawer-backdrop" and "on Other id=drawer-backdrop" in hit["message"]
    assert "id=close-drawer" not in phone.snapshot(interactive=True).text  # the backdrop's tap closed the drawer
    node = next(n for n in phone.snapshot().nodes if n.get("identifier") == "show-later")
    x, y = node["rect"]["x"] + node["rect"]["width"] / 2, node["rect"]["y"] + node["rect"]["height"] / 2
    assert phone.tap(f"{x} {y}").data["hit"] == 'Button "Show later" id=show-later'


def test_wait_finds_an_element_that_appears_300_ms_after_a_tap_and_its_ref_works(phone: phonewire.Phone) -> None:
    phone.tap("id=show-later")
    found = phone.wait("id=arrived")
    assert found.data["target"]["label"] == "Arrived"
    phone.tap("@" + found.data["target"]["ref"])
    phone.tap("id=hide-later")
    assert phone.wait("id=arrived", gone=True).data["message"].startswith("id=arrived is gone")
    assert "arrived" not in phone.snapshot().text


def test_wait_times_out_with_what_the_screen_showed_and_idle_ignores_a_ticking_counter(
    phone: phonewire.Phone,
) -> None:
    with pytest.raises(phonewire.ProtocolError) as info:
        phone.wait("id=never-there", timeout_ms=300)
    assert info.value.code == e.WAIT_TIMED_OUT
    assert "id=never-there" in info.value.message and 'Heading "Tasks"' in info.value.message
    # The Controls screen's counter ticks every 100 ms (text changing in place): the screen is still idle.
    phone.tap("id=tab-controls")
    assert phone.wait(idle=True).data["message"].startswith("the screen is idle")
