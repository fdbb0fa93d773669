"""Issue 23, build 1 on the real web phone: every action's reply carries its settled diff and ``changed`` is
derived from it (tests/e2e/hostile/truth.html: a sheet the page moves with the Web Animations API, which the
device's change mark missed; a clock that ticks on its own, which the mark counted as the action's change)."""

from __future__ import annotations

import pytest
from web_runner import HostileSite

import phonewire

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def phone(module_phone: phonewire.Phone) -> phonewire.Phone:
    return module_phone


def test_a_swipe_that_moved_a_sheet_is_changed_and_says_what_it_now_covers(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    # the device's change mark alone (the reply before issue 23): the page's animation mutates nothing, so "false"
    phone.session.settled_diff = False
    try:
        phone.open(hostile_site.url("truth.html"))
        assert phone.swipe(200, 770, 200, 100).changed is False
    finally:
        phone.session.settled_diff = True
    phone.open(hostile_site.url("truth.html"))
    assert "[covered]" not in phone.snapshot().text
    result = phone.swipe(200, 770, 200, 100)
    assert result.changed is True
    # the sheet came up over the list: its three rows and their text are covered now, and the sheet's last stops
    # came into view (its own lines: a surface that fills the screen is no Button "Stops Stop one …", rule
    # screen-surface); nothing else changed
    # (six lines that only came under the sheet are one line with their refs: agent/moves.py's covers)
    lines = result.diff or []
    assert len(lines) == 3 and lines[0].startswith("~ 6 elements now [covered]: @e"), "\n".join(lines)
    assert [line.split(" ", 2)[2] for line in lines[1:]] == ['StaticText "Stop three"', 'StaticText "Stop four"']
    assert phone.snapshot().text.count("Cell [covered]") == 3


def test_a_swipe_that_moved_nothing_shows_the_ticking_clock_as_exactly_that(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url("truth.html#clock"))
    result = phone.swipe(100, 130, 100, 170)  # on the list: it does not move; 300 ms, a tick every 40
    diff = result.diff or []
    assert diff and all("12:00:" in line for line in diff), diff  # the clock's line, and nothing else
    assert result.changed is True  # a line changed: the clock's, as the diff shows
    assert not any(word in "\n".join(diff) for word in ("Alpha", "Beta", "Gamma", "Stop"))


def test_a_tap_that_changed_nothing_is_unchanged_with_an_empty_diff(
    phone: phonewire.Phone, hostile_site: HostileSite
) -> None:
    phone.open(hostile_site.url("truth.html"))
    result = phone.tap('text="Beta"')
    assert result.diff == [] and result.changed is False
