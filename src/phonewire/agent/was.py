"""How a view diff says what a changed element was: only what differs.

A ``~`` line names an element as it is now and, after it, what it was.  The element is the same one (same role and
identifier, or same role and label: :func:`phonewire.agent.view_diff.diff`), so the old line repeats most of the new
one: ``~ @e5 StaticText "Count 1" id=count  (was: StaticText "Count 0" id=count)``.  Said briefly, the part in
brackets keeps only the fields that changed, each as it was — ``(was: "Count 0")`` — and a state the element gained
reads ``not focused`` (it was not), one it lost reads as the state (``covered``: it was).  A field the element gained
reads ``no label`` / ``no id`` / ``no value``.  On the agent benchmark's MiniWoB++ and Django tasks the ``(was: …)``
parts were the largest share of what an action's reply said (docs/performance.md).

A removed line (``- …``) loses the notes that end it: they advise about an element that is gone.  A line whose only
change is that its element lost focus goes when another line gained it (the focus moved: the new holder says so).
A line this module cannot read field by field keeps its whole old line.  Pure.
"""

from __future__ import annotations

import re
from typing import Final

_WAS: Final = "  (was: "
_QUOTED: Final = r'"(?:[^"\\]|\\.)*"'
#: The fields of a view line after its role (view.node_line's order): label, id, value, [flags], notes.
_FIELD: Final = re.compile(
    rf"(?P<label>{_QUOTED})|id=(?P<id>{_QUOTED}|\S+)|value=(?P<value>{_QUOTED})"
    rf"|\[(?P<flags>(?:[^\]\"]|{_QUOTED})*)\]|(?P<notes>\(.*\))$"
)
_FLAG: Final = re.compile(rf'(?:[^,"]|{_QUOTED})+')
_SELECTED_TEXT: Final = "selected text="


def fields(line: str) -> dict[str, str] | None:
    """A view line's fields (``role``, ``label``, ``id``, ``value``, ``flags``, ``notes``: each as written), or
    None for a line that is not read whole by them."""
    role, _, rest = line.strip().partition(" ")
    if not role:
        return None
    out = {"role": role}
    at = 0
    while at < len(rest):
        if rest[at] == " ":
            at += 1
            continue
        m = _FIELD.match(rest, at)
        if m is None:
            return None
        kind = m.lastgroup
        if kind is None or kind in out:
            return None
        out[kind] = m.group(kind)
        at = m.end()
    return out


def _flag_changes(old: str, new: str) -> list[str]:
    was, now = _FLAG.findall(old), _FLAG.findall(new)
    out = [f for f in was if f not in now]
    had_selection = any(f.startswith(_SELECTED_TEXT) for f in was)
    for f in now:
        if f in was:
            continue
        if not f.startswith(_SELECTED_TEXT):
            out.append(f"not {f}")
        elif not had_selection:  # (another selection: the old one says it)
            out.append("no selected text")
    return out


def briefly(old: str, new: str) -> str:
    """What ``old`` (the element's line before) says that ``new`` (its line now) does not: the changed fields as they
    were; ``old`` itself when either line is not read whole by its fields, or when nothing differs."""
    a, b = fields(old), fields(new)
    if a is None or b is None:
        return old.strip()
    parts = [a["role"]] if a["role"] != b["role"] else []
    for key, written in (("label", ""), ("id", "id="), ("value", "value=")):
        if a.get(key) != b.get(key):
            parts.append(f"{written}{a[key]}" if key in a else f"no {key}")
    parts += _flag_changes(a.get("flags", ""), b.get("flags", ""))
    if a.get("notes") != b.get("notes"):
        parts.append(a.get("notes", "no note"))
    return ", ".join(parts) if parts else old.strip()


def brief(lines: list[str]) -> list[str]:
    """``lines`` (a view diff) with each ``~ NEW  (was: OLD)`` line's OLD said briefly (:func:`briefly`), and each
    removed line (``- …``) without the notes that end it (the keyboard's "covers the screen below …: `keyboard hide`
    … dismisses it" is advice about an element that is gone)."""
    out = []
    for line in lines:
        if line.startswith("~ ") and line.endswith(")") and _WAS in line:
            out.append(_brief(line))
        elif line.startswith("- ") and (read := fields(line[2:])) is not None and "notes" in read:
            out.append(line[: len(line) - len(read["notes"])].rstrip())
        else:
            out.append(line)
    return _focus_moved(lines, out)


def _focus_moved(lines: list[str], said: list[str]) -> list[str]:
    """``said`` (``lines`` said briefly) without the lines whose only change is that their element lost focus, when
    another line gained it (:func:`gained_focus`): the focus moved, and the element that has it now says so (each
    tap of a form's fields: the one before lost focus, a whole line for it)."""
    if not any(line.startswith("~ ") and line.endswith(f"{_WAS}focused)") for line in said):
        return said
    if not any(gained_focus(line) for line in lines):
        return said
    return [line for line in said if not (line.startswith("~ ") and line.endswith(f"{_WAS}focused)"))]


def gained_focus(line: str) -> bool:
    """Whether a line of a view diff (as the diff writes it, before :func:`brief`) says its element gained focus: a
    ``~`` line whose element has it now and had it not, or an added line of a focused element."""
    if line.startswith("~ ") and line.endswith(")") and _WAS in line:
        head, _, old = line.rpartition(_WAS)
        new = head[2:].split(" ", 1)[1] if head[2:].startswith("@") else head[2:]
        return "focused" in _flags_of(new) and "focused" not in _flags_of(old[:-1])
    return line.startswith("+ ") and "focused" in _flags_of(line[2:].split(" ", 1)[-1])


def _flags_of(line: str) -> list[str]:
    read = fields(line)
    return _FLAG.findall(read.get("flags", "")) if read is not None else []


def _brief(line: str) -> str:
    head, _, old = line.rpartition(_WAS)
    new = head[2:].split(" ", 1)[1] if head[2:].startswith("@") else head[2:]
    return f"{head}{_WAS}{briefly(old[:-1], new)})"
