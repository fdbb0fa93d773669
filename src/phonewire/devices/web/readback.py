"""Typing read back: after keys went into a text field, the field must hold what was typed.

A page may rewrite a field while it is typed into — a date picker re-parsing the value on every keyup, an input
mask — and then the keys "went in" but the field holds something else.  Before typing, :data:`MARK_JS` keeps the
focused ``<input>`` / ``<textarea>`` and returns its value and selection; after the keys and their handlers
(:data:`READ_JS` first lets the page's queued tasks run), the field's value is compared with the one the keys
should have made (:func:`mismatch`); the page completing the typed text in place, the rest selected (an inline
autocomplete), is what was typed.  Not checked: a contenteditable region (no value to compare), a field that
lost focus while it was typed into (the page moved the typing on, as a one-time-code row does) or left the page.
Pure apart from the two scripts the device evaluates.
"""

from __future__ import annotations

from typing import Any

from phonewire.devices.web import js
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

#: ``mark``: keep the focused text field and answer {value, start, end, multiline, secret}, or null (nothing to
#: check).  ``read``, after the page's queued tasks ran: the kept field's value, or null when it left the page or
#: lost focus (readback.js).
_READBACK = js.load("readback.js")
MARK_JS = f"({_READBACK})('mark', {js.ACTIVE_ELEMENT})"
READ_JS = f"({_READBACK})('read', {js.ACTIVE_ELEMENT})"
#: ``undo``: the kept field and the other fields set back to what they held at ``mark``.
UNDO_JS = f"({_READBACK})('undo', {js.ACTIVE_ELEMENT})"


def _as_typed(text: str, multiline: bool) -> str:
    """``text`` as a field keeps it: a textarea's line breaks as ``\\n``; a one-line input drops them."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text if multiline else text.replace("\n", "")


def expected(before: dict[str, Any], text: str) -> str | None:
    """The value typing ``text`` into the field ``before`` (MARK_JS's answer) makes: the text put in place of the
    selection; None when the field has no selection to read (an email field) and held text already."""
    value = str(before.get("value") or "")
    typed = _as_typed(text, bool(before.get("multiline")))
    start, end = before.get("start"), before.get("end")
    if isinstance(start, int) and isinstance(end, int) and 0 <= start <= end <= len(value):
        return value[:start] + typed + value[end:]
    return typed if not value else None


def _shown(value: str, secret: bool) -> str:
    if secret:
        return f"{len(value)} character(s)"
    return repr(value if len(value) <= 80 else value[:79] + "…")


def _completed(want: str, after: dict[str, Any]) -> bool:
    """The page completed what was typed in place, the rest selected (an inline autocomplete, aria-autocomplete
    "both": "Ala" typed, the field shows "Alabama" with "bama" selected for the next key to replace)."""
    held = str(after.get("value") or "")
    selected = (after.get("start"), after.get("end"))
    return len(held) > len(want) and held.startswith(want) and selected == (len(want), len(held))


def mismatch(before: object, after: object, text: str) -> ProtocolError | None:
    """COMMAND_FAILED naming the value the field holds when it does not hold what typing ``text`` should have
    made, else None (also when there was nothing to check)."""
    if not isinstance(before, dict) or not isinstance(after, dict) or after.get("value") is None:
        return None  # (nothing to check, or the field lost focus: :func:`strays` says where the text went)
    held = str(after.get("value") or "")
    want = expected(before, text)
    secret = bool(before.get("secret"))
    if want is None:  # the caret's place is unknown: the text must be there, and nothing else added
        old = str(before.get("value") or "")
        typed = _as_typed(text, bool(before.get("multiline")))
        if typed in held and len(held) == len(old) + len(typed):
            return None
        want = old + typed
    if held == want or _completed(want, after):
        return None
    return ProtocolError(
        e.COMMAND_FAILED,
        f"the keys went in, but the field holds {_shown(held, secret)}, not {_shown(want, secret)}: the page "
        "rewrote it while it was typed (a date picker or an input mask does)",
        "Check it with `snapshot`. Set such a field through the page's own widget (tap it, then tap the value in "
        "what opens), or type the value in the form the page keeps; `fill` the field again to replace what it "
        "holds.",
    )


def strays(after: object) -> list[dict[str, Any]]:
    """The other fields the text went into (READ_JS's ``strays``: the page moved focus to them while it was typed)."""
    found = after.get("strays") if isinstance(after, dict) else None
    return [s for s in found if isinstance(s, dict)] if isinstance(found, list) else []


def went_elsewhere(after: Any, fields: list[dict[str, Any]], undone: bool) -> ProtocolError:
    """ELEMENT_MOVED naming the fields the text went into instead of (or besides) the one it was aimed at, and
    whether they were set back."""
    went = "; ".join(
        f"{f.get('field')} now holds {_shown(str(f.get('now') or ''), bool(f.get('secret')))}"
        f" (was {_shown(str(f.get('was') or ''), bool(f.get('secret')))})"
        for f in fields[:3]
    )
    back = (
        "each set back to what it held before, and the aimed-at field too: nothing was typed"
        if undone
        else "setting them back failed: check them with `snapshot`"
    )
    return ProtocolError(
        e.ELEMENT_MOVED,
        f"the text aimed at {after.get('field')} went into another field — {went} — the page moved focus there "
        f"while it was typed; {back}",
        "Take a `snapshot`: close what took focus (an autocomplete list, a popup of another field), then fill the "
        "field again.",
    )
