"""Scrolling that is not blind, and ``find`` (issue 10 item 7), on the real web phone: a page of its own
(hostile/scroll.html) with a fixed status line that shows the page's, the grid's and the box's scroll offsets, a
horizontal grid of 20 cells, a list box of 100 items under the screen's centre, and 300 rows below it.  A click on
an item or a row shows "picked …".

The agent's numbers for reaching a row (calls and characters) are asserted here; the time it takes is in
bench/bench_web.py."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from web_runner import HostileSite

import phonewire
from phonewire.protocol import errors as e

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def opened(module_phone: phonewire.Phone) -> phonewire.Phone:
    return module_phone


@pytest.fixture
def phone(opened: phonewire.Phone, hostile_site: HostileSite) -> phonewire.Phone:
    opened.open(hostile_site.url("scroll.html"))  # relaunched: every offset back at 0
    assert offsets(opened) == {"page": 0, "grid": 0, "box": 0}
    return opened


def offsets(phone: phonewire.Phone) -> dict[str, int]:
    label = next(str(n["label"]) for n in phone.snapshot().nodes if str(n.get("label")).startswith("page="))
    return {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", label)}


def test_scroll_right_by_target_moves_the_grid_and_not_the_page(phone: phonewire.Phone) -> None:
    result = phone.scroll("right", "text=Cell 1")
    now = offsets(phone)
    assert now["grid"] > 100 and now["page"] == 0 and now["box"] == 0
    assert result.data["distance"] == now["grid"] and result.data["atEnd"] is False
    assert result.data["container"] == 'div "Grid"' and result.data["changed"] is True
    assert result.data["message"] == f"scrolled right {now['grid']} pt"


def test_scroll_down_without_a_target_moves_the_page_even_with_a_list_box_under_the_centre(
    phone: phonewire.Phone,
) -> None:
    centre = phone.viewport()["height"] / 2
    box = next(n for n in phone.snapshot().nodes if n.get("identifier") == "box")["rect"]
    assert box["y"] < centre < box["y"] + box["height"]  # the thumb in the middle would land on the box
    result = phone.scroll("down")
    now = offsets(phone)
    assert now["box"] == 0 and now["page"] > 300 and result.data["distance"] == now["page"]
    assert result.data["container"] == "the page"


def test_scroll_down_by_target_moves_the_list_box_and_not_the_page(phone: phonewire.Phone) -> None:
    result = phone.scroll("down", "id=box")
    now = offsets(phone)
    assert now["page"] == 0 and now["box"] > 100 and result.data["distance"] == now["box"]
    assert result.data["container"] == 'div "Box"'
    # a point inside the box names the same container, and so does the box's ref
    again = phone.scroll("down", "200 400", amount=0.3)
    assert offsets(phone)["box"] == now["box"] + again.data["distance"] and offsets(phone)["page"] == 0
    ref = next(r for r, n in phone.snapshot().refs.items() if n.get("identifier") == "box")
    back = phone.scroll("up", "@" + ref, amount=1)
    assert (
        back.data["distance"] > 0
        and offsets(phone)["box"] == now["box"] + again.data["distance"] - back.data["distance"]
    )


def test_scrolling_at_the_end_says_so_and_changes_nothing(phone: phonewire.Phone) -> None:
    top = phone.scroll("up")
    assert (top.data["distance"], top.data["atEnd"], top.data["changed"]) == (0, True, False)
    assert top.data["message"] == "did not move up: at the end"
    phone.scroll("left", "text=Cell 2")
    assert offsets(phone) == {"page": 0, "grid": 0, "box": 0}
    phone.find("text=Cell 16")  # near the grid's end (3000 pt wide): a scroll or two from there reaches it
    start = offsets(phone)["grid"]
    assert start > 1000
    moves: list[dict[str, Any]] = []
    while len(moves) < 12 and not (len(moves) >= 2 and moves[-2]["atEnd"]):  # to the end, and one scroll more
        moves.append(phone.scroll("right", "id=grid", amount=1).data)
    assert moves[-1]["atEnd"] is True and moves[-1]["distance"] == 0 and "at the end" in moves[-1]["message"]
    reached = next(m for m in moves if m["atEnd"])
    assert reached["distance"] > 0 and reached["message"].endswith(", reached the end")  # the scroll that got there
    assert offsets(phone)["grid"] == start + sum(m["distance"] for m in moves)


def person_tops(phone: phonewire.Phone) -> dict[int, float]:
    return {int(str(n["label"]).split()[1]): float(n["rect"]["y"]) for n in phone.snapshot().nodes
            if str(n.get("label")).startswith("Person ")}  # fmt: skip


def test_a_snapshot_right_after_a_fling_shows_where_the_content_came_to_rest(phone: phonewire.Phone) -> None:
    at_top = person_tops(phone)
    first, pitch = at_top[1], at_top[2] - at_top[1]
    phone.swipe(200, 800, 200, 500, duration_ms=60)  # a flick: the page flings on after the finger lifts
    view = phone.snapshot().text
    rows = person_tops(phone)
    flung = offsets(phone)["page"]
    time.sleep(1.5)
    assert phone.snapshot().text == view  # nothing moved after the reply: it answered at rest
    # it moved; how far a fling carries past the finger's 300 points depends on the frames the machine draws
    # under load (285 on a loaded CI run), so the distance is not asserted: only that the view is the rest
    assert flung > 0
    # the rows the view shows are the ones at that offset on the page
    top_row = min(rows)
    assert rows[top_row] + flung == pytest.approx(first + (top_row - 1) * pitch, abs=1)
    # and the row above it is off the screen: the fling went past it, or it is Person 1 (a short fling under load
    # leaves the list box above the rows on screen: a clone stopped with Person 1 at y=189)
    assert (top_row == 1 or rows[top_row] <= pitch) and rows[top_row] + pitch > 0


def test_find_reaches_row_150_of_300_in_three_calls_and_a_few_hundred_characters(phone: phonewire.Phone) -> None:
    # the calls after open: find, then tap the ref it answered
    found = phone.find("Person 150")
    tapped = phone.tap("@" + found.data["ref"])
    again = phone.find("Person 150")
    assert re.fullmatch(r'@e\d+ StaticText "Person 150" after \d+ scroll\(s\), \d+ pt', found.data["message"])
    assert again.data["scrolls"] == 0  # on screen now: answered without scrolling
    assert "picked Person 150" in phone.snapshot().text
    read = len(found.data["message"]) + len(tapped.data["message"])
    assert read < 300, (found.data, tapped.data)  # the target: at most 5000 characters in at most 4 calls


def test_find_scrolls_the_list_box_that_holds_the_item(phone: phonewire.Phone) -> None:
    found = phone.find("text=Item 80")
    now = offsets(phone)
    assert now["box"] > 3000 and found.data["line"].endswith('StaticText "Item 80"')
    phone.tap("@" + found.data["ref"])
    assert "picked Item 80" in phone.snapshot().text


def test_find_scrolls_the_grid_sideways_to_a_cell_off_screen(phone: phonewire.Phone) -> None:
    found = phone.find("text=Cell 15")
    now = offsets(phone)
    assert now["grid"] > 1000 and now["page"] == 0 and now["box"] == 0
    assert found.data["line"].endswith('StaticText "Cell 15"') and found.data["distance"] == now["grid"]


def test_find_that_never_shows_is_not_found_with_the_distance_scrolled(phone: phonewire.Phone) -> None:
    with pytest.raises(phonewire.ProtocolError) as limited:
        phone.find("Nobody here", max_scrolls=2)
    assert limited.value.code == e.NOT_FOUND
    assert re.search(r"after 2 scroll\(s\) down \((\d+) pt\): stopped after max_scrolls=2", limited.value.message)
    moved = int(re.search(r"\((\d+) pt\)", limited.value.message).group(1))  # type: ignore[union-attr]
    assert moved == offsets(phone)["page"] > 0
    with pytest.raises(phonewire.ProtocolError) as ended:
        phone.find("Nobody", direction="up")
    assert ended.value.code == e.NOT_FOUND and "reached the end" in ended.value.message
    assert offsets(phone)["page"] <= 1  # the device's end tolerance: at 3x a page may rest at a fraction of a point
    # a numbered row past the last: the page jumps to where it would be (the rows in view place it), the end
    with pytest.raises(phonewire.ProtocolError) as past:
        phone.find("Person 999")
    assert past.value.code == e.NOT_FOUND
    assert re.search(r"after 1 scroll\(s\) down \(\d+ pt\): reached the end", past.value.message), past.value.message


def test_scroll_and_find_refuse_bad_arguments_with_a_hint(phone: phonewire.Phone, tmp_path: Path) -> None:
    with pytest.raises(phonewire.ProtocolError) as bad:
        phone.scroll("sideways")
    assert bad.value.code == e.INVALID_REQUEST and bad.value.hint
    with pytest.raises(phonewire.ProtocolError) as missing:
        phone.scroll("down", "text=No such thing")
    assert missing.value.code == e.NOT_FOUND
