"""Form controls that take a value rather than keystrokes: ``<select>`` options and the date, time, number and range
inputs, set the way a person's choice would set them (controls.js: focus, the native value setter, then ``input``
and ``change``), and read back.  Pure apart from reading controls.js once: the device evaluates the expressions.
"""

from __future__ import annotations

import json
from typing import Any, Final

from phonewire.devices.web import js
from phonewire.devices.web.walk import DRAWN_SELECT_JS
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

_CONTROLS = js.load("controls.js")

#: Input types whose value is set whole (a date picker has no caret to type at), with the format each one holds.
FORMATS: Final[dict[str, str]] = {
    "date": "YYYY-MM-DD (e.g. 2024-12-31)",
    "time": "HH:MM or HH:MM:SS, 24-hour (e.g. 13:05)",
    "datetime-local": "YYYY-MM-DDTHH:MM (e.g. 2024-12-31T13:05)",
    "month": "YYYY-MM (e.g. 2024-12)",
    "week": "YYYY-Www (e.g. 2024-W52)",
    "color": "#rrggbb in lower case (e.g. #ff8800)",
    "number": "a number within the field's min, max and step",
    "range": "a number within the slider's min, max and step",
}
#: Focus-probe kinds (walk.FOCUS_PROBE) that typing sets through the value setter instead of keystrokes.
VALUE_KINDS: Final = frozenset(f"input:{t}" for t in FORMATS)


def expression(point: tuple[float, float] | None, values: list[str], *, add: bool = False) -> str:
    point_json, kinds = json.dumps(list(point) if point else None), json.dumps(sorted(FORMATS))
    return f"({_CONTROLS})({point_json}, {json.dumps(values)}, {json.dumps(add)}, {kinds}, {DRAWN_SELECT_JS})"


def checked(result: object, values: list[str]) -> dict[str, Any]:
    """The reply of a set_value, or the ProtocolError that says why the control did not take the value."""
    if not isinstance(result, dict):
        raise ProtocolError(e.COMMAND_FAILED, "the page gave no answer about the control", "Take a snapshot.")
    error = result.get("error")
    what = result.get("what") or result.get("type") or "element"
    if error == "nothing":
        raise ProtocolError(
            e.INVALID_REQUEST,
            f"there is no select or input there (a {what})",
            "Name a ComboBox, List or input from the snapshot.",
        )
    if error == "disabled":
        raise ProtocolError(e.INVALID_REQUEST, f"the {what} is disabled", "Enable it first (the page decides when).")
    if error == "readonly":
        if result.get("drawn"):  # findings 3, E17: Quasar's QSelect
            raise ProtocolError(
                e.INVALID_REQUEST,
                "the field is read-only: a drop-down the page draws, with no select to set",
                "Tap it, then tap the option in the list it opens (`snapshot` shows the options).",
            )
        raise ProtocolError(e.INVALID_REQUEST, "the field is read-only", "It cannot be set.")
    if error == "filter":  # findings 4, F4: Gradio's Dropdown
        raise ProtocolError(
            e.INVALID_REQUEST,
            "the field is a text box drawn as a drop-down: its text filters the list the page draws, and setting "
            "it chooses nothing (the page puts its own choice back), so nothing was set",
            "Tap it, then tap the option in the list it opens (`snapshot` shows the options).",
        )
    if error == "single":
        raise ProtocolError(
            e.INVALID_REQUEST,
            "this select takes one option (it is not a multi-select), and --add needs a multi-select",
            "Name one option.",
        )
    if error == "kind":
        raise ProtocolError(
            e.INVALID_REQUEST,
            f"a {result.get('type') or what} takes no value this way",
            "Tap a checkbox, radio button or button; use `fill` or `type` for a text field.",
        )
    if "unmatched" in result:
        return result
    shown, selected = result.get("shown"), result.get("selected") or []
    if shown is not None and selected and str(shown) != str(selected[0]):
        # a box a library draws for a hidden select: the select took the option, the box must show it too
        raise ProtocolError(
            e.COMMAND_FAILED,
            f"the select took {selected[0]!r}, but the box drawn for it shows {shown!r}: the page's drop-down did "
            "not follow the change",
            "Tap the box to open its list, then tap the option there; `snapshot` shows what it holds.",
        )
    kind = str(result.get("type") or "")
    if kind in FORMATS and str(result.get("value")) != values[0]:
        held = repr(str(result.get("value")))
        if "previous" in result and result.get("previous") != result.get("value"):
            # controls.js set the field back to what it held before
            previous = repr(str(result.get("previous")))
            held = (
                f"it would hold {held}, so it was left as it was ({previous})"
                if result.get("restored")
                else f"it would hold {held}, and setting it back to {previous} failed: it holds {held}"
            )
        else:
            held = f"it holds {held}"
        raise ProtocolError(
            e.INVALID_REQUEST,
            f"the {kind} field did not take {values[0]!r}: {held}",
            f"A {kind} field takes {FORMATS[kind]}"
            + _bounds(result)
            + "; give the value in that form (not as the screen shows it).",
        )
    return result


def _bounds(result: dict[str, Any]) -> str:
    parts = [f"{k} {result[k]}" for k in ("min", "max", "step") if result.get(k)]
    return f" ({', '.join(parts)})" if parts else ""
