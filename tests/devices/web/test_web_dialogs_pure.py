"""The web phone's JavaScript dialogs as the snapshot shows them and as taps reach them (dialogs.py): pure."""

from __future__ import annotations

import pytest

from phonewire.devices.web import dialogs
from phonewire.devices.web.dialogs import Dialog
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import RawNode, Rect, build_snapshot

SCREEN = Rect.of(0, 0, 393, 852)


def test_an_opening_event_becomes_a_dialog_with_its_wire_form() -> None:
    prompt = Dialog.opening({"type": "prompt", "message": "Name?", "defaultPrompt": "Ann"})
    assert (prompt.kind, prompt.text, prompt.wire) == ("prompt", "Ann", {"type": "prompt", "message": "Name?",
                                                                        "defaultText": "Ann"})  # fmt: skip
    leave = Dialog.opening({"type": "beforeunload", "message": "ignored by browsers"})
    assert leave.message == dialogs.LEAVE_MESSAGE and leave.buttons() == ("Cancel", "OK")
    assert Dialog.opening({"type": "alert", "message": "Hi"}).buttons() == ("OK",)
    assert Dialog.opening({"type": "weird"}).kind == "alert"


def test_a_tap_inside_a_button_names_it_inside_the_field_focuses_it_and_elsewhere_is_covered() -> None:
    confirm = Dialog.opening({"type": "confirm", "message": "Delete?"})
    _box, field, buttons = dialogs.layout(confirm, SCREEN)
    assert field is None and [name for name, _ in buttons] == ["Cancel", "OK"]
    for name, rect in buttons:
        assert dialogs.hit(confirm, SCREEN, rect.x + rect.width / 2, rect.y + rect.height / 2) == name
    with pytest.raises(ProtocolError) as info:
        dialogs.hit(confirm, SCREEN, 5, 5)
    assert info.value.code == e.ELEMENT_COVERED and "on the page under it" in info.value.message
    assert 'tap its Button "OK" or "Cancel"' in (info.value.hint or "")
    prompt = Dialog.opening({"type": "prompt", "message": "Name?"})
    _box, field, _buttons = dialogs.layout(prompt, SCREEN)
    assert field is not None and dialogs.hit(prompt, SCREEN, field.x + 1, field.y + 1) == "field"


def test_the_snapshot_puts_the_alert_first_and_covers_every_control_under_it() -> None:
    root = RawNode("Application", label="Page", rect=SCREEN)
    root.children = [
        RawNode("Button", label="Delete", rect=Rect.of(10, 10, 80, 30), enabled=True, interactive=True),
        RawNode("StaticText", label="Kept: 0", rect=Rect.of(10, 50, 80, 20)),
    ]
    prompt = Dialog.opening({"type": "prompt", "message": "Name?", "defaultPrompt": "Ann"})
    dialogs.cover(root, dialogs.node(prompt, SCREEN))
    nodes = build_snapshot(root, SCREEN, "web")["nodes"]
    kinds = [(n["type"], n.get("label") or n.get("value"), n.get("coveredBy")) for n in nodes]
    assert kinds == [
        ("Application", "Page", None),
        ("Alert", "Name?", None),
        ("TextField", "Ann", None),
        ("Button", "Cancel", None),
        ("Button", "OK", None),
        ("Button", "Delete", 'Alert "Name?"'),
        ("StaticText", "Kept: 0", None),
    ]
    assert nodes[1]["identifier"] == dialogs.IDENTIFIER
