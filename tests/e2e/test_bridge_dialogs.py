"""The bridge and a JavaScript dialog, end to end (a real ``phonewire bridge`` process → runner → Chromium) on
tests/e2e/hostile/dialogs.html: the tap whose click handler calls ``confirm()`` answers at once with the dialog
beside its message, the tree shows the dialog as an Alert with its buttons, and tapping OK reaches the page once."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from test_bridge_web import Bridge, find_line, serving_bridge
from web_runner import HostileSite

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def bridge(hostile_site: HostileSite) -> Iterator[Bridge]:
    yield from serving_bridge(hostile_site.url("dialogs.html"))


def deleted(tree: str) -> int:
    match = re.search(r'StaticText "(\d+)"', find_line(tree, r"id=deleted\b"))
    assert match, tree
    return int(match.group(1))


def test_a_confirm_comes_back_in_the_tap_reply_and_ok_reaches_the_page_once(bridge: Bridge) -> None:
    tree = bridge.result("get_tree")["tree"]
    before = deleted(tree)
    delete = find_line(tree, r'Button "Delete"').split()[0]
    tapped = bridge.result("tap", target=delete)
    assert tapped["dialog"]["type"] == "confirm" and tapped["dialog"]["message"] == "Delete this record?"
    assert tapped["changed"] is True
    alert = find_line(tapped["tree"], r"Alert ")
    assert "Delete this record?" in alert or "Delete this record?" in tapped["tree"]
    ok = find_line(tapped["tree"], r'Button "OK"').split()[0]
    answered = bridge.result("tap", target=ok)
    assert "dialog" not in answered
    assert "Alert " not in answered["tree"]
    assert deleted(answered["tree"]) == before + 1
