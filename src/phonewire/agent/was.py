"""How a view diff says what a changed element was: only what differs.

A ``~`` line names an element as it is now and, after it, what it was.  The element is the same one (same role and
identifier, or same role and label: :func:`phonewire.agent.view_diff.diff`), so the old line repeats most of the new
one: ``~ @e5 StaticText "Count 1" id=count  (was: StaticText "Count 0" id=count)``.  Said briefly, the part in
brackets keeps only the fields that changed, each as it was — ``(was: "Count 0")`` — and a field the element gained
reads ``no label`` / ``no id`` / ``no value``.  A state it gained or lost is marked where the states are, in the
line itself: ``[+focused]`` (gained), ``[checked,-covered]`` (still checked, no longer covered); a line whose only
change is its states has no ``(was: …)`` at all.  On the agent benchmark's MiniWoB++ and Django tasks the ``(was:
…)`` parts were the largest share of what an action's reply said (docs/performance.md), and most of it was states:
``[focused,covered]  (was: not focused, not covered)`` is ``[+focused,+covered]``.

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


def _scan(rest: str) -> dict[str, re.Match[str]] | None:
    """Each field of ``rest`` (a view line after its role) as the match that read it, or None for a line that is not
    read whole by them."""
    out: dict[str, re.Match[str]] = {}
    at = 0
    while at < len(rest):
        if rest[at] == " ":
            at += 1
            continue
        m = _FIELD.match(rest, at)
        if m is None or m.lastgroup is None or m.lastgroup in out:
            return None
        out[m.lastgroup] = m
        at = m.end()
    return out


def fields(line: str) -> dict[str, str] | None:
    """A view line's fields (``role``, ``label``, ``id``, ``value``, ``flags``, ``notes``: each as written), or
    None for a line that is not read whole by them."""
    role, _, rest = line.strip().partition(" ")
    read = _scan(rest) if role else None
    if read is None:
        return None
    return {"role": role, **{kind: m.group(kind) for kind, m in read.items()}}


def marked(old: str, new: str) -> str:
    """The states ``new`` (a line's ``[…]`` now) lists, each gained one marked ``+``, then each one ``old`` listed
    that it lost, marked ``-``: ``checked,+focused,-covered``."""
    was, now = _FLAG.findall(old), _FLAG.findall(new)
    return ",".join([f if f in was else f"+{f}" for f in now] + [f"-{f}" for f in was if f not in now])


def unmarked(line: str) -> str:
    """A ``~`` line said briefly (:func:`brief`), its sign left off, as the element's view line now: its ``(was:
    …)`` gone, its lost states (``-x``) dropped and its gained ones (``+x``) plain.  A line that is not read whole
    comes back as it is, but for its ``(was: …)``."""
    head = line.split(_WAS, 1)[0]
    ref, _, new = head.partition(" ") if head.startswith("@") else ("", "", head)
    role, _, rest = new.partition(" ")
    read = _scan(rest) if role else None
    if read is None or "flags" not in read:
        return head
    m = read["flags"]
    now = [f.removeprefix("+") for f in _FLAG.findall(m.group("flags")) if not f.startswith("-")]
    parts = (ref, role, rest[: m.start()].strip(), f"[{','.join(now)}]" if now else "", rest[m.end() :].strip())
    return " ".join(part for part in parts if part)


def briefly(old: str, new: str) -> str:
    """What ``old`` (the element's line before) says that ``new`` (its line now) does not, but for its states (which
    :func:`marked` says): the changed fields as they were, ``""`` when only states changed; ``old`` itself when
    either line is not read whole by its fields, or when nothing differs."""
    a, b = fields(old), fields(new)
    if a is None or b is None:
        return old.strip()
    parts = [a["role"]] if a["role"] != b["role"] else []
    for key, written in (("label", ""), ("id", "id="), ("value", "value=")):
        if a.get(key) != b.get(key):
            parts.append(f"{written}{a[key]}" if key in a else f"no {key}")
    noted = a.get("notes") != b.get("notes")
    if noted and "notes" in a:  # (a note gained shows in the line now: "no note" before it says nothing)
        parts.append(a["notes"])
    if parts or noted or a.get("flags", "") != b.get("flags", ""):
        return ", ".join(parts)
    return old.strip()


def brief(lines: list[str]) -> list[str]:
    """``lines`` (a view diff) with each ``~ NEW  (was: OLD)`` line said briefly — NEW's states marked where they
    changed (:func:`marked`), OLD's other fields that changed after it (:func:`briefly`) — and each removed line
    (``- …``) without the notes that end it (the keyboard's "covers the screen below …: `keyboard hide` …
    dismisses it" is advice about an element that is gone).  A line whose only change is that its element lost
    focus goes when another line gained it (:func:`gained_focus`): the focus moved, and the element that has it now
    says so (each tap of a form's fields: the one before lost focus, a whole line for it)."""
    out: list[str] = []
    lost_focus: list[int] = []
    for line in lines:
        if line.startswith("~ ") and line.endswith(")") and _WAS in line:
            said, only_lost_focus = _brief(line)
            if only_lost_focus:
                lost_focus.append(len(out))
            out.append(said)
        elif line.startswith("- ") and (read := fields(line[2:])) is not None and "notes" in read:
            out.append(line[: len(line) - len(read["notes"])].rstrip())
        else:
            out.append(line)
    if lost_focus and any(gained_focus(line) for line in lines):
        return [line for i, line in enumerate(out) if i not in lost_focus]
    return out


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


def _brief(line: str) -> tuple[str, bool]:
    """A ``~`` line said briefly, and whether its only change is that its element lost focus."""
    head, _, old = line.rpartition(_WAS)
    old = old[:-1]
    ref, _, new = head[2:].partition(" ") if head[2:].startswith("@") else ("", "", head[2:])
    role, _, rest = new.partition(" ")
    a, read = fields(old), _scan(rest)
    was = briefly(old, new)
    if a is None or read is None or was == old.strip():
        return f"{head}{_WAS}{was})", False
    states = marked(a.get("flags", ""), read["flags"].group("flags") if "flags" in read else "")
    if "flags" in read:
        m = read["flags"]
        rest = f"{rest[: m.start()]}[{states}]{rest[m.end() :]}"
    elif states:
        at = read["notes"].start() if "notes" in read else len(rest)
        rest = " ".join(part for part in (rest[:at].rstrip(), f"[{states}]", rest[at:]) if part)
    said = f"~ {ref + ' ' if ref else ''}{role} {rest}".rstrip()
    changed = [f for f in _FLAG.findall(states) if f[0] in "+-"]
    return said + (f"{_WAS}{was})" if was else ""), not was and changed == ["-focused"]
