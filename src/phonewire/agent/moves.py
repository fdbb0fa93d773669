"""What a view diff says when the only change on screen is that elements moved: a bottom sheet swiped up to full
height (issue 23: Ionic's sheet, its heading from y=676 to y=101) reads the same lines before and after, so a diff of
lines alone answered ``changed: false`` for a gesture a person saw do everything.  An element kept under its ref
whose place moved by more than MOVED_PT (and by more than half its own size, so a one-pixel reflow is no move) is
one ``~`` line saying where it went; more than MAX_MOVED_LINES such elements are one line with the count."""

from __future__ import annotations

from phonewire.agent.view import Rendered
from phonewire.protocol.snapshot import Node, rect_of

#: How far (screen points) an element must travel to be a move a person sees.
MOVED_PT = 8.0
#: The most moved elements a diff lists one by one (a scrolled list moves them all: one line says how many).
MAX_MOVED_LINES = 3


def _ref_of(line: str) -> str:
    word = line.strip().split(" ", 1)[0]
    return word[1:] if word.startswith("@") else ""


def _travel(old: Node, new: Node) -> tuple[str, float, float] | None:
    """The axis and the two positions of a move of ``old`` to ``new``, or None when it stayed."""
    a, b = rect_of(old), rect_of(new)
    for axis, p, q, size in (("y", a["y"], b["y"], b["height"]), ("x", a["x"], b["x"], b["width"])):
        if abs(q - p) > max(MOVED_PT, size / 2):
            return axis, p, q
    return None


def moved(previous: Rendered, current: Rendered) -> list[str]:
    """``~`` lines for the elements of ``current`` that ``previous`` showed under the same ref and line, elsewhere."""
    before = {_ref_of(line): key.strip() for line, key in zip(previous.lines, previous.keys, strict=False)}
    out: list[tuple[str, str]] = []
    for line, key in zip(current.lines, current.keys, strict=False):
        ref = _ref_of(line)
        if not ref or before.get(ref) != key.strip() or ref not in previous.refs or ref not in current.refs:
            continue
        travel = _travel(previous.refs[ref], current.refs[ref])
        if travel is not None:
            axis, p, q = travel
            out.append((line.strip(), f"moved: {axis} {p:g} → {q:g}"))
    if len(out) > MAX_MOVED_LINES:
        line, how = out[0]
        return [f"~ {len(out)} elements moved, the first {line}  ({how})"]
    return [f"~ {line}  ({how})" for line, how in out]
