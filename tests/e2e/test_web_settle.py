"""The screen after an action is read once the page is still by its own signals (issue 27, item 3): a running
CSS transition and the animation frames a click's handler asked for are reactions on their way, so the snapshot
after the tap shows their outcome (tests/e2e/hostile/settle.html). No time is measured here: bench/bench_settle.py
does that."""

from __future__ import annotations

import pytest
from web_runner import HostileSite

import phonewire

pytestmark = pytest.mark.e2e


@pytest.fixture
def phone(shared_phone: phonewire.Phone, hostile_site: HostileSite) -> phonewire.Phone:
    shared_phone.open(hostile_site.url("settle.html"))
    return shared_phone


def test_the_view_after_a_tap_waits_for_the_transition_it_started(phone: phonewire.Phone) -> None:
    """The transition runs 400 ms with the DOM unchanged; its end adds a line: the first look shows it (a fixed
    100 ms quiet window did not: the DOM was quiet while the panel faded in)."""
    phone.tap("id=fade")
    assert "Faded in" in phone.snapshot().text


def test_the_view_after_a_tap_waits_for_the_frames_its_handler_asked_for(phone: phonewire.Phone) -> None:
    """A change two animation frames after the click (Vue's transitions start so) is in the first look, and the
    page's own endless animation (a spinner) does not keep the screen from being still."""
    phone.tap("id=frames")
    view = phone.snapshot()
    assert "Two frames later" in view.text
    assert view.quality.get("state", "healthy") == "healthy"


def test_a_synchronous_request_is_not_counted_on_its_way_after_it_returned(phone: phonewire.Phone) -> None:
    """A synchronous XHR's loadend fires inside send(): the count of requests on their way went up after it and
    stayed at one, so every later settle on the page waited its whole bound (about 1 s per tap on the aim tests'
    pages, whose recorder reports each click so)."""
    phone.tap("id=sync")
    assert "status 200, requests on their way: 0" in phone.snapshot().text
