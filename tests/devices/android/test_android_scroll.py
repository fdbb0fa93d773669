"""Scrolling on Android, on a recorded dump (the Play Store's games tab: a tab strip that scrolls sideways, a
ViewPager, the page's vertical RecyclerView and two carousels inside it).  The dump after the drag is the same
recording with the list's content moved, as a scroll would move it; what a real phone does between the two dumps
(its fling, the moment uiautomator calls it idle) is not verified here."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from android_agent_double import AgentDouble
from test_android_device import SHOP, opened, run

from phonewire.devices.android.hierarchy import choose_scroller, content_shift, scrollers
from phonewire.protocol.snapshot import Rect

PLAY = (Path(__file__).parent / "fixtures" / "android-playstore-games-tab-appium-uiautomator2.xml").read_text(
    encoding="utf-8"
)
DENSITY = 420 / 160
#: The page's list, in pixels: [0,66][1080,1931].
LIST_TOP, LIST_BOTTOM = 66, 1931


def moved_up(xml: str, pixels: int) -> str:
    """The dump with everything inside the page's list ``pixels`` higher (what scrolling down does to it)."""

    def shift(match: re.Match[str]) -> str:
        left, top, right, bottom = (int(g) for g in match.groups())
        if top <= LIST_TOP or bottom > LIST_BOTTOM:
            return match.group(0)
        return f'bounds="[{left},{top - pixels}][{right},{bottom - pixels}]"'

    return re.sub(r'bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"', shift, xml)


@dataclass
class Scrolled(AgentDouble):
    """A phone whose dumps come from a script: one before the drag, the next after it."""

    dumps: list[str] = field(default_factory=list)

    def dump_hierarchy(self) -> str:
        self.record("dump_hierarchy")
        return self.dumps.pop(0) if len(self.dumps) > 1 else self.dumps[0]


def test_the_scrollers_of_a_dump_and_which_way_each_scrolls() -> None:
    found = scrollers(PLAY, DENSITY)
    sideways = [(round(s.rect.y), round(s.rect.height)) for s in found if s.horizontal]
    upright = [(round(s.rect.y), round(s.rect.height)) for s in found if not s.horizontal]
    # the tab strip, the ViewPager, and the two carousels (much wider than tall, inside the list)
    assert sideways == [(84, 50), (25, 710), (151, 139), (364, 208)]
    assert upright == [(25, 710)]  # the page's list


def test_a_scroll_takes_the_innermost_scroller_at_the_point_that_scrolls_that_way() -> None:
    found = scrollers(PLAY, DENSITY)
    main = choose_scroller(found, "down", None)
    assert main is not None and (round(main.rect.y), main.horizontal) == (25, False)
    carousel = choose_scroller(found, "right", (200, 200))  # on the first carousel
    assert carousel is not None and (round(carousel.rect.y), carousel.horizontal) == (151, True)
    # down at the same point: the carousel cannot, the list around it does
    down_there = choose_scroller(found, "down", (200, 200))
    assert down_there is not None and round(down_there.rect.y) == 25 and not down_there.horizontal
    assert choose_scroller(found, "down", (200, 900)) is None  # below every scroller: the screen


def test_the_content_shift_is_the_movement_of_the_elements_both_dumps_hold() -> None:
    box = Rect(0, LIST_TOP / DENSITY, 1080 / DENSITY, (LIST_BOTTOM - LIST_TOP) / DENSITY)
    assert content_shift(PLAY, moved_up(PLAY, 300), box, DENSITY, sideways=False) == pytest.approx(300 / DENSITY)
    assert content_shift(PLAY, PLAY, box, DENSITY, sideways=False) == 0
    assert content_shift(PLAY, moved_up(PLAY, 300), box, DENSITY, sideways=True) == 0


def test_scroll_down_drags_up_through_the_list_and_reports_how_far_it_moved() -> None:
    device, agent = opened(Scrolled(dumps=[PLAY, moved_up(PLAY, 800)]))
    result = run(device.scroll(SHOP, "down", amount=0.6))
    assert result == {"direction": "down", "distance": pytest.approx(800 / DENSITY, abs=0.1), "atEnd": False,
                      "changed": True, "container": "a scroll container"}  # fmt: skip
    down = next(c for c in agent.calls if c[0] == "touch.down")
    up = next(c for c in agent.calls if c[0] == "touch.up")
    assert down[2] > up[2] and LIST_TOP < up[2] < down[2] < LIST_BOTTOM  # the finger moved up inside the list
    assert down[1] == up[1] == 540  # through the list's centre line


def test_scroll_at_the_end_does_not_move_and_says_so() -> None:
    device, _ = opened(Scrolled(dumps=[PLAY, PLAY]))
    result = run(device.scroll(SHOP, "down", amount=0.6))
    assert (result["distance"], result["atEnd"], result["changed"]) == (0.0, True, False)


def test_a_list_that_stops_short_of_the_drag_reached_its_end() -> None:
    device, _ = opened(Scrolled(dumps=[PLAY, moved_up(PLAY, 100)]))
    result = run(device.scroll(SHOP, "down", amount=0.6))
    assert result["distance"] == pytest.approx(100 / DENSITY, abs=0.1) and result["atEnd"] is True
