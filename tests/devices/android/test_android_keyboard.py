"""The on-screen keyboard on Android (issue 24, item 3) on a dump DERIVED from a real one: the multi-window
``dumpWindowHierarchy`` of fixtures/ with a Gboard input-method window added at the bottom (fixtures/derived/; no
recorded dump in the fixtures shows a keyboard).  The keyboard's window is one Keyboard node; a tap under the
keyboard the last snapshot showed is refused with KEYBOARD_COVERS and nothing is sent; hideKeyboard presses back
only while a dump shows the keyboard.  Unverified on a live phone (docs/android.md)."""

from __future__ import annotations

import pytest
from android_agent_double import AgentDouble
from test_android_device import FIXTURES, HOMEE, opened, protocol_error, run

from phonewire.devices.android.hierarchy import is_keyboard_window, parse_hierarchy
from phonewire.protocol import errors as e
from phonewire.protocol.snapshot import Rect

WITH_KEYBOARD = (FIXTURES / "derived" / "android-homee-welcome-gboard-derived.xml").read_text(encoding="utf-8")
APP = "de.vorwerk.homee.homee"
DENSITY = 2.625
#: The derived Gboard window: [0,1584][1080,2400] pixels.
KEYBOARD = Rect.of(0, 1584 / DENSITY, 1080 / DENSITY, 816 / DENSITY)


def test_the_input_methods_window_is_one_keyboard_node_at_its_bounds() -> None:
    hierarchy = parse_hierarchy(WITH_KEYBOARD, DENSITY, APP)
    assert hierarchy.keyboard == KEYBOARD
    boards = [w for w in hierarchy.root.children if w.type == "Keyboard"]
    assert len(boards) == 1 and boards[0].identifier == "com.google.android.inputmethod.latin"
    assert boards[0].children == []  # its keys are typing's business
    assert parse_hierarchy(HOMEE, DENSITY, APP).keyboard is None  # the real dump: no keyboard shown


@pytest.mark.parametrize(
    ("package", "app", "keyboard"),
    [("com.google.android.inputmethod.latin", None, True), ("com.samsung.android.honeyboard", None, True),
     ("com.example.inputmethod.pinyin", None, True), ("com.android.systemui", None, False), (None, None, False),
     ("com.google.android.inputmethod.latin", "com.google.android.inputmethod.latin", False)],
)  # fmt: skip
def test_which_windows_are_keyboards(package: str | None, app: str | None, keyboard: bool) -> None:
    assert is_keyboard_window(package, app) is keyboard


def test_the_snapshot_lists_the_keyboard_and_a_tap_under_it_is_refused_with_nothing_sent() -> None:
    device, agent = opened(AgentDouble(xml=WITH_KEYBOARD))
    snapshot = run(device.snapshot(APP))
    (board,) = [n for n in snapshot["nodes"] if n["type"] == "Keyboard"]
    assert board["identifier"] == "com.google.android.inputmethod.latin"
    assert board["rect"]["y"] == pytest.approx(KEYBOARD.y, abs=0.1)
    calls = len(agent.calls)
    err = protocol_error(device.tap(APP, 200, KEYBOARD.y + 50))
    assert err.code == e.KEYBOARD_COVERS and "keyboard hide" in (err.hint or "")
    assert len(agent.calls) == calls  # nothing was sent
    run(device.tap(APP, 200, KEYBOARD.y - 50))  # above it: sent
    assert agent.calls[-1] == ("click", round(200 * DENSITY), round((KEYBOARD.y - 50) * DENSITY))


def test_hide_keyboard_presses_back_only_while_the_dump_shows_it() -> None:
    device, agent = opened(AgentDouble(xml=WITH_KEYBOARD))
    assert run(device.hide_keyboard())["hidden"] is True
    assert agent.calls[-1] == ("press", "back")
    device2, agent2 = opened(AgentDouble(xml=HOMEE))
    assert run(device2.hide_keyboard())["hidden"] is False
    assert ("press", "back") not in agent2.calls
