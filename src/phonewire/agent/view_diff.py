"""The view's diff: which lines of the agent view were added, removed or changed between two screens (``snapshot
--diff``, and every action's settled diff through agent/observe.py, which says them briefly: was.py, moves.py).
Pure."""

from __future__ import annotations

import difflib
import re

from phonewire.agent.view import Rendered

_LINE = re.compile(r'^(?P<role>\S+)(?: (?P<label>"(?:[^"\\]|\\.)*"))?(?: id=(?P<id>"(?:[^"\\]|\\.)*"|\S+))?')


def _identity_of_line(key: str) -> str:
    """What names the element on a line: role + identifier when it has one (its label may be a counter that
    changed), else role + label; never the value or the flags."""
    found = _LINE.match(key.strip())
    if found is None:
        return key.strip()
    if found.group("id"):
        return f"{found.group('role')} id={found.group('id')}"
    return f"{found.group('role')} {found.group('label') or ''}"


def ref_of_line(line: str) -> str:
    """The ref a view line carries (``e12`` of ``@e12 Button …``), or "" for a line without one."""
    word = line.strip().split(" ", 1)[0]
    return word[1:] if word.startswith("@") else ""


def diff(previous: Rendered, current: Rendered) -> list[str]:
    """Lines added (``+``), removed (``-``) and changed (``~``: the same element — same role and identifier, or
    same role and label when it has no identifier — with a new label, value or flags) since ``previous``.

    Added and changed lines carry the current refs; removed lines carry none (those elements are gone).  A line that
    reads the same but carries another ref than before (``previous`` rendered with the refs it issued) names another
    element: the old one ``-``, the new one ``+`` with its ref (findings 4, F3: Streamlit rebuilds a button below a
    table it grew; once this was ``~ … (drawn anew: @e11 is gone)``, which also paired a dialog's field with the
    page's field of its name gone behind the dialog).  A line that went
    from one place in the order to another and changed on the way (a popup laid over the page first in the order:
    each element behind it now ``[covered]``) is the same element when it carries the same ref: ``~`` once, where it
    is now, not a ``-`` and a ``+`` (a new user's NiceGUI select: every line behind its menu was said twice)."""
    steps: list[tuple[str, int, int]] = []  # ("-", a, -1), ("+", -1, b), ("~", a, b)
    matcher = difflib.SequenceMatcher(a=_tokens(previous, current), b=_tokens(current, previous), autojunk=False)
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op == "equal":
            for a, b in zip(range(a0, a1), range(b0, b1), strict=True):
                old, new = ref_of_line(previous.lines[a]), ref_of_line(current.lines[b])
                if old and new and old != new:
                    # another element that reads the same: the old one gone, this one new (Streamlit rebuilds what
                    # lies below a table it grew; a dialog's "Account" field, the page's own gone behind it)
                    steps.extend((("-", a, -1), ("+", -1, b)))
                elif previous.keys[a].strip() != current.keys[b].strip():  # one element (one ref), read anew
                    steps.append(("~", a, b))
            continue
        changed = _paired(previous, current, range(a0, a1), range(b0, b1)) if op == "replace" else {}
        steps.extend(("-", a, -1) for a in range(a0, a1) if a not in changed.values())
        steps.extend(("~", changed[b], b) if b in changed else ("+", -1, b) for b in range(b0, b1))
    return [_step_line(previous, current, step) for step in _same_refs(previous, current, steps)]


def _tokens(mine: Rendered, other: Rendered) -> list[str]:
    """What the diff aligns ``mine``'s lines by: the ref of a line whose ref ``other`` shows too (one element on
    both screens, whatever it reads now), else the line as it reads.  A list whose first row went last keeps every
    row under its ref: aligned by how lines read, each row was paired with the one now in its place and said gone
    while it was still there."""
    theirs = {ref for line in other.lines if (ref := ref_of_line(line))}
    return [
        "@" + ref if (ref := ref_of_line(line)) in theirs else key.strip()
        for line, key in zip(mine.lines, mine.keys, strict=True)
    ]


def _paired(previous: Rendered, current: Rendered, removed: range, added: range) -> dict[int, int]:
    """Of one replaced block: added line → the removed line that names the same element (changed in place)."""
    pending: dict[str, list[int]] = {}
    for a in removed:
        pending.setdefault(_identity_of_line(previous.keys[a]), []).append(a)
    changed: dict[int, int] = {}
    for b in added:
        bucket = pending.get(_identity_of_line(current.keys[b]))
        if bucket:
            changed[b] = bucket.pop(0)
    return changed


def _same_refs(previous: Rendered, current: Rendered, steps: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """``steps`` with each removed line and added line that name one element — the same ref, or (a line the last
    look gave no ref: ``-i`` leaves texts out) the same role and identifier — and read differently made one ``~``
    step, at the added line's place."""

    def names(rendered: Rendered, i: int) -> str:
        ref = ref_of_line(rendered.lines[i])
        if ref:
            return "@" + ref
        identity = _identity_of_line(rendered.keys[i])
        return identity if " id=" in identity else ""

    gone: dict[str, int] = {}
    for kind, a, _ in steps:
        if kind == "-" and (name := names(previous, a)):
            gone.setdefault(name, a)
    out: list[tuple[str, int, int]] = []
    taken: set[int] = set()
    for kind, a, b in steps:
        if kind == "+":
            ref, identity = ref_of_line(current.lines[b]), _identity_of_line(current.keys[b])
            old = gone.get("@" + ref, gone.get(identity) if " id=" in identity else None)
            same = previous.keys[old].strip() == current.keys[b].strip() if old is not None else False
            if old is not None and old not in taken and not (same and ref_of_line(previous.lines[old]) != ref):
                taken.add(old)
                if not same:
                    out.append(("~", old, b))
                # (one that reads the same under its ref only went elsewhere in the order: no line; where it went on
                # the screen, if it went anywhere a person sees, is moves.py's; under another ref it is another
                # element, said - and +)
                continue
        out.append((kind, a, b))
    return [step for step in out if not (step[0] == "-" and step[1] in taken)]


def _step_line(previous: Rendered, current: Rendered, step: tuple[str, int, int]) -> str:
    kind, a, b = step
    if kind == "-":
        return "- " + previous.keys[a].strip()
    if kind == "+":
        return "+ " + current.lines[b].strip()
    return f"~ {current.lines[b].strip()}  (was: {previous.keys[a].strip()})"
