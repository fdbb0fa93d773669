"""Key combinations on the web phone (``press ctrl+a``): the DevTools key events of a key pressed with modifiers,
and the editing command it means on the profile's platform.  Pure: no I/O.

The browser is Chromium on Linux, whose own shortcuts are ctrl's (ctrl+a selects all, ctrl+c copies, ctrl+v
pastes through the page's ``copy`` / ``paste`` handlers, ctrl+z undoes).  On an iOS profile the shortcuts are
meta's (cmd): those combinations are sent with the editing command they mean (DevTools' ``commands``), which the
page receives as it would from the keyboard; ctrl's Linux meaning stays as it is there."""

from __future__ import annotations

from typing import Any, Final

from phonewire.devices.web import gestures
from phonewire.devices.web.profiles import apple

#: DevTools' modifier bits, and each modifier's own key.
BITS: Final = {"alt": 1, "ctrl": 2, "meta": 4, "shift": 8}
MODIFIER_KEYS: Final = {
    "alt": ("Alt", "AltLeft", 18), "ctrl": ("Control", "ControlLeft", 17), "meta": ("Meta", "MetaLeft", 91),
    "shift": ("Shift", "ShiftLeft", 16),
}  # fmt: skip
#: The editing commands of the platform's shortcut modifier with a letter (shift+z: redo).
EDITING: Final = {"a": "selectAll", "c": "copy", "x": "cut", "v": "paste", "z": "undo"}


def shortcut_modifier(platform: str) -> str:
    """The modifier of the editing shortcuts on the profile's platform: meta (cmd) on iOS, ctrl elsewhere."""
    return "meta" if apple(platform) else "ctrl"


def base_spec(key: str) -> tuple[dict[str, Any], str | None]:
    """The key event spec of ``key`` (a letter, a digit, enter, backspace or a name of gestures.KEYS) and the text
    it types unmodified."""
    if len(key) == 1 and key.isalpha():
        return {"key": key, "code": f"Key{key.upper()}", "windowsVirtualKeyCode": ord(key.upper()),
                "nativeVirtualKeyCode": ord(key.upper())}, key  # fmt: skip
    if len(key) == 1 and key.isdigit():
        return {"key": key, "code": f"Digit{key}", "windowsVirtualKeyCode": ord(key),
                "nativeVirtualKeyCode": ord(key)}, key  # fmt: skip
    if key == "enter":
        return dict(gestures.ENTER), "\r"
    if key == "backspace":
        return dict(gestures.BACKSPACE), None
    spec, text = gestures.KEYS[key]
    return {k: v for k, v in spec.items() if k != "modifiers"}, text


def combo_events(key: str, modifiers: list[str], platform: str) -> list[dict[str, Any]]:
    """The ``Input.dispatchKeyEvent`` parameters of pressing ``key`` with ``modifiers`` held, in order: each
    modifier down, the key down (typing its text only when shift is all that is held) and up, the modifiers up."""
    bits = 0
    events: list[dict[str, Any]] = []
    for name in modifiers:
        k, code, vk = MODIFIER_KEYS[name]
        bits |= BITS[name]
        events.append({"type": "rawKeyDown", "key": k, "code": code, "windowsVirtualKeyCode": vk, "modifiers": bits})
    spec, text = base_spec(key)
    typing = text is not None and set(modifiers) <= {"shift"}
    if "shift" in modifiers and len(key) == 1 and key.isalpha():  # a keyboard's key with shift held: "Z"
        text = key.upper()
        spec = {**spec, "key": text}
    down: dict[str, Any] = {"type": "keyDown" if typing else "rawKeyDown", **spec, "modifiers": bits}
    if typing:
        down.update(text=text, unmodifiedText=text)
    primary = shortcut_modifier(platform)
    command = (
        EDITING.get(key) if primary == "meta" and primary in modifiers and set(modifiers) <= {"meta", "shift"} else None
    )
    if command is not None:
        down["commands"] = ["redo" if command == "undo" and "shift" in modifiers else command]
    events += [down, {"type": "keyUp", **spec, "modifiers": bits}]
    for name in reversed(modifiers):
        k, code, vk = MODIFIER_KEYS[name]
        bits &= ~BITS[name]
        events.append({"type": "keyUp", "key": k, "code": code, "windowsVirtualKeyCode": vk, "modifiers": bits})
    return events
