"""The on-screen keyboard on iOS (issue 24, item 3) on a source DERIVED from a real one: the sign-up form of
fixtures/ with an ``XCUIElementTypeKeyboard`` window added at the bottom (fixtures/derived/; no recorded source in
the fixtures shows a keyboard).  The keyboard is one Keyboard node (it has no name: kept for its role), and a point
under the keyboard a source showed is refused with KEYBOARD_COVERS.  Unverified on a live device (docs/ios.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from phonewire.devices.ios.source import keyboard_rect, parse_xml_source
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import Rect, build_snapshot, refuse_under

FIXTURES = Path(__file__).parent / "fixtures"
DERIVED = (FIXTURES / "derived" / "ios-signup-form-keyboard-derived.xml").read_text(encoding="utf-8")
REAL = (FIXTURES / "ios-signup-form-textfields-appium-xcuitest.xml").read_text(encoding="utf-8")
SCREEN = Rect(0, 0, 375, 667)


def test_the_keyboard_element_is_one_keyboard_node_and_its_keys_are_not_listed() -> None:
    tree = parse_xml_source(DERIVED, "app.dev")
    assert keyboard_rect(tree) == Rect(0, 451, 375, 216)
    nodes = build_snapshot(tree, SCREEN, "ios")["nodes"]
    (board,) = [n for n in nodes if n["type"] == "Keyboard"]
    assert board["rect"] == {"x": 0, "y": 451, "width": 375, "height": 216}
    assert not [n for n in nodes if n.get("label") in ("q", "return")]  # its keys: typing's business
    assert keyboard_rect(parse_xml_source(REAL, "app.dev")) is None  # the recorded source: no keyboard


@pytest.mark.parametrize(("x", "y", "refused"), [(100, 500, True), (374, 666, True), (100, 450, False)])
def test_a_point_under_the_keyboard_is_refused(x: float, y: float, refused: bool) -> None:
    board = keyboard_rect(parse_xml_source(DERIVED, "app.dev"))
    if not refused:
        refuse_under(board, x, y, "tap")
        return
    with pytest.raises(ProtocolError) as info:
        refuse_under(board, x, y, "tap")
    assert info.value.code == e.KEYBOARD_COVERS and "keyboard hide" in (info.value.hint or "")
