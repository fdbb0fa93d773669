"""The leftovers of finding and scrolling (issue 10, after item 7), on the real web phone: ``find`` by any selector
(hostile/rows.html: 200 rows with a delete button each), ``find`` in a virtual list that recycles its row nodes
(hostile/virtual.html: 10,000 rows, 30 nodes), a snapshot after a tap that starts a smooth scroll
(hostile/smooth.html), and refs that survive a row scrolling out of view and back.

How long ``find`` takes on the virtual list, against an earlier tree, is in bench/bench_find.py; here the number of
scrolls."""

from __future__ import annotations

import re
import time

import pytest
from web_runner import HostileSite

import phonewire
from phonewire.protocol import errors as e

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def phone(module_phone: phonewire.Phone) -> phonewire.Phone:
    return module_phone  # the session's runner; each test opens the page it starts from


def status(phone: phonewire.Phone, prefix: str) -> str:
    return next(str(n["label"]) for n in phone.snapshot().nodes if str(n.get("label") or "").startswith(prefix))


def page_offset(phone: phonewire.Phone) -> int:
    return int(re.search(r"page=(\d+)", status(phone, "page="))[1])  # type: ignore[index]


# -- a snapshot after a tap that starts a smooth scroll shows where it came to rest ------------------------------


@pytest.mark.parametrize("button", ["id=smooth", "id=anchor"])
def test_a_snapshot_after_a_tap_that_starts_a_smooth_scroll_shows_where_it_came_to_rest(
    phone: phonewire.Phone, hostile_site: HostileSite, button: str
) -> None:
    phone.open(hostile_site.url("smooth.html"))
    assert page_offset(phone) == 0
    phone.tap(button)
    view = phone.snapshot().text
    time.sleep(1.5)
    assert phone.snapshot().text == view  # nothing moved after the snapshot: it was taken at rest
    spot = "Middle spot" if button == "id=smooth" else "Bottom spot"
    assert f'"{spot}"' in view and '"Top spot"' not in view
    assert page_offset(phone) > 5000


# -- find by any selector ----------------------------------------------------------------------------------------


@pytest.fixture
def rows(phone: phonewire.Phone, hostile_site: HostileSite) -> phonewire.Phone:
    phone.open(hostile_site.url("rows.html"))  # relaunched: at the top, nothing deleted
    return phone


@pytest.mark.parametrize(
    ("selector", "line"),
    [
        ('role=Button label="Delete person 150"', 'Button "Delete person 150" id=del-150'),
        ("id=del-180", 'Button "Delete person 180" id=del-180'),
        ("text=Person 120", 'StaticText "Person 120"'),
        ('role=button "delete person 90" enabled', 'Button "Delete person 90" id=del-90'),
        ("id=no-such || id=far", 'Button "All done" id=far'),
    ],
)
def test_find_reaches_an_element_off_screen_by_any_selector_in_a_few_scrolls(
    rows: phonewire.Phone, selector: str, line: str
) -> None:
    found = rows.find(selector)
    assert found.data["line"].endswith(line), found.data
    assert 1 <= found.data["scrolls"] <= 3, found.data  # a jump and a drag or two, not a drag per screen
    assert found.data["distance"] == page_offset(rows) > 2000
    rows.tap("@" + found.data["ref"])
    if "del-" in line:
        assert status(rows, "page=").endswith("deleted=" + line.split("del-")[1])


def test_find_answers_at_once_what_already_shows_and_scrolls_nothing(rows: phonewire.Phone) -> None:
    found = rows.find('role=Button label="Delete person 2"')
    assert found.data["scrolls"] == 0 and found.data["distance"] == 0
    assert found.data["message"] == found.data["line"] and page_offset(rows) == 0


def test_find_a_selector_that_matches_nothing_is_not_found_after_the_limit_saying_how_far(
    rows: phonewire.Phone, hostile_site: HostileSite
) -> None:
    with pytest.raises(phonewire.ProtocolError) as limited:
        rows.find('role=Button label="Delete person 999"', max_scrolls=2)
    assert limited.value.code == e.NOT_FOUND and limited.value.hint
    moved = re.search(r"after 2 scroll\(s\) down \((\d+) pt\): stopped after max_scrolls=2", limited.value.message)
    assert moved and int(moved[1]) == page_offset(rows) > 0
    rows.open(hostile_site.url("rows.html?rows=24"))  # a short page: the end comes after a scroll or two
    with pytest.raises(phonewire.ProtocolError) as ended:
        rows.find("id=nowhere", max_scrolls=200)
    assert ended.value.code == e.NOT_FOUND and ended.value.hint
    moved = re.search(r"after [12] scroll\(s\) down \((\d+) pt\): reached the end", ended.value.message)
    assert moved and int(moved[1]) == page_offset(rows) > 0, ended.value.message


# -- a virtual list ---------------------------------------------------------------------------------------------


def test_find_reaches_row_7500_of_a_virtual_list_of_10000_in_a_few_scrolls_and_its_ref_taps_it(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url("virtual.html"))
    assert sum(1 for n in phone.snapshot().nodes if str(n.get("label") or "").startswith("Row ")) < 30
    found = phone.find("Row 7,500")
    assert found.data["line"].endswith('StaticText "Row 7,500"') and found.data["scrolls"] <= 3, found.data
    opened = phone.find('role=Button label="Open Row 7,498"')
    assert opened.data["scrolls"] == 0  # on screen already
    phone.tap("@" + opened.data["ref"])
    assert status(phone, "picked") == "picked open Row 7,498"
    back = phone.find("Row 120", direction="up")
    assert back.data["line"].endswith('StaticText "Row 120"') and back.data["scrolls"] <= 3, back.data


def test_find_reaches_a_row_of_a_virtual_list_numbered_downwards(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url("virtual.html?desc"))
    assert '"Row 10,000"' in phone.snapshot().text
    found = phone.find("Row 2,500")
    assert found.data["line"].endswith('StaticText "Row 2,500"') and found.data["scrolls"] <= 3, found.data


# -- refs that survive scrolling out and back -------------------------------------------------------------------


def ref_of(view: phonewire.View, label: str) -> str:
    return next(ref for ref, n in view.refs.items() if n.get("label") == label)


def test_a_row_that_scrolls_out_of_view_and_back_gets_its_old_ref_and_the_ref_still_taps_it(
    rows: phonewire.Phone,
) -> None:
    first = rows.snapshot(interactive=True)
    two, three = ref_of(first, "Delete person 2"), ref_of(first, "Delete person 3")
    for _ in range(3):
        rows.scroll("down", amount=1)
        away = rows.snapshot(interactive=True)
        assert '"Delete person 2"' not in away.text and f"@{two} " not in away.text
    # acted on while it is off screen: it does not show, so it is not tapped
    with pytest.raises(phonewire.ProtocolError) as gone:
        rows.tap("@" + two)
    assert gone.value.code == e.STALE_REF and "no longer on screen" in gone.value.message
    rows.find('role=Button label="Delete person 2"', direction="up")
    back = rows.snapshot(interactive=True)
    assert ref_of(back, "Delete person 2") == two and ref_of(back, "Delete person 3") == three
    rows.tap("@" + three)
    assert status(rows, "page=").endswith("deleted=3")
    # and without a snapshot in between: scrolled away (a snapshot there), back, tapped by the old ref
    rows.scroll("down", amount=1)
    assert '"Delete person 2"' not in rows.snapshot().text
    rows.scroll("up", amount=1)
    rows.tap("@" + two)
    assert status(rows, "page=").endswith("deleted=2")


def test_a_virtual_list_row_node_recycled_for_another_row_never_carries_the_old_ref(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url("virtual.html"))
    first = phone.snapshot(interactive=True)
    open3 = ref_of(first, "Open Row 3")
    phone.find("Row 2,000")  # the 30 row nodes show rows near 2,000 now
    far = phone.snapshot(interactive=True)
    assert f"@{open3} " not in far.text  # its node shows another row now: a new ref there
    with pytest.raises(phonewire.ProtocolError) as stale:
        phone.tap("@" + open3)
    assert stale.value.code == e.STALE_REF
    assert status(phone, "picked") == "picked nothing"  # nothing was tapped
