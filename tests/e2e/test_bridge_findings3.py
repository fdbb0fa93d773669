"""The bridge's fixes of docs/realapps-findings-3.md, end to end (a real ``phonewire bridge`` process → runner →
Chromium) on tests/e2e/hostile/findings3.html: E8 an element with no place on the screen (a closed select's
option) prints ``frame=none`` and a zero-size frame is never tapped (the control at the screen's origin counts no
tap); E10 ``tap`` and ``press`` answer the operation's ``message``, ``changed`` and ``back`` beside the tree."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from test_bridge_web import Bridge, find_line, frame_of, serving_bridge
from web_runner import HostileSite

from phonewire.protocol import errors as e

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def bridge(hostile_site: HostileSite) -> Iterator[Bridge]:
    yield from serving_bridge(hostile_site.url("findings3.html"))


def count(tree: str, ident: str) -> int:
    match = re.search(r'StaticText "(\d+)"', find_line(tree, rf"id={ident}\b"))
    assert match, tree
    return int(match.group(1))


def test_e8_an_option_without_a_place_prints_no_frame_and_a_zero_frame_taps_nothing(bridge: Bridge) -> None:
    tree = bridge.result("get_tree")["tree"]
    option = find_line(tree, r'StaticText "sold"')
    assert option.endswith(" frame=none") and "{{0.0, 0.0}, {0.0, 0.0}}" not in tree
    before = count(tree, "origin-taps")
    reply = bridge.call("tap_element", coordinate="{{0.0, 0.0}, {0.0, 0.0}}")
    assert reply["error"]["code"] == e.INVALID_REQUEST
    assert "no size" in reply["error"]["message"] and '`tap {"target": "@eN"}`' in reply["error"]["hint"]
    assert "select" in reply["error"]["hint"]
    assert count(bridge.result("get_tree")["tree"], "origin-taps") == before  # nothing was tapped at (0, 0)
    # the agent copies the mark itself: the answer says the element has no place on screen, not "copy a frame"
    reply = bridge.call("tap_element", coordinate="none")
    assert reply["error"]["code"] == e.INVALID_REQUEST
    assert "no place on the screen" in reply["error"]["message"] and "frame=none" in reply["error"]["message"]
    assert '`tap {"target": "@eN"}`' in reply["error"]["hint"] and "Copy the frame" not in reply["error"]["hint"]
    assert count(bridge.result("get_tree")["tree"], "origin-taps") == before
    # the origin control itself, by its frame, is tapped once: the counter is the one that would have moved
    origin = frame_of(find_line(bridge.result("get_tree")["tree"], r"id=origin\b"))
    assert count(bridge.result("tap_element", coordinate=origin)["tree"], "origin-taps") == before + 1


def test_e10_tap_and_press_answer_message_changed_and_back_beside_the_tree(bridge: Bridge) -> None:
    tree = bridge.result("get_tree")["tree"]
    ref = find_line(tree, r"id=like\b").split()[0]
    likes = count(tree, "likes")
    tapped = bridge.result("tap", target=ref)
    assert tapped["message"].startswith("tapped") and tapped["changed"] is True
    assert count(tapped["tree"], "likes") == likes + 1
    pressed = bridge.result("press", key="back")  # nothing open, no history: back leaves the app
    assert pressed["back"] == "home" and "home screen" in pressed["message"]
    assert pressed["changed"] is True
