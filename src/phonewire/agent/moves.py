"""What a view diff says when the only change on screen is that elements moved: a bottom sheet swiped up to full
height (issue 23: Ionic's sheet, its heading from y=676 to y=101) reads the same lines before and after, so a diff of
lines alone answered ``changed: false`` for a gesture a person saw do everything.  An element kept under its ref
whose place moved by more than MOVED_PT (and by more than half its own size, so a one-pixel reflow is no move) is
one ``~`` line saying where it went; more than MAX_MOVED_LINES such elements are one line with the count.

Likewise elements that only came under a cover, or out from under one (a sheet, a dialog's backdrop, a page's
overlay laid over everything): more than MAX_COVERED_LINES such ``~`` lines that came under a cover are one line with
their refs, since what covers them is a line of its own in the same diff (MiniWoB's cover over the finished task: six
lines read ``[covered]  (was: …)`` after the last tap); those that came out from under one, more than
MAX_UNCOVERED_LINES.  And elements the keyboard hid as it came up (the screen above it is all that shows): more than
MAX_MOVED_LINES are one line with their count (a field's fill in Django's add-group form: thirteen ``-`` lines, each
an element still on the page)."""

from __future__ import annotations

import re

from phonewire.agent.view import Rendered
from phonewire.agent.view_diff import ref_of_line
from phonewire.agent.was import gained_focus
from phonewire.protocol.snapshot import Node, rect_of

#: How far (screen points) an element must travel to be a move a person sees.
MOVED_PT = 8.0
#: The most moved elements a diff lists one by one (a scrolled list moves them all: one line says how many).
MAX_MOVED_LINES = 3
#: The most elements that came out from under a cover a diff lists one by one: they are new to an agent whose last
#: look was ``-i`` (which leaves covered elements out), and MiniWoB's task fields come out four at a time — listed
#: as refs only, the agent had to snapshot again to read them (agent bench: one call and 650 characters more).
MAX_UNCOVERED_LINES = 12
#: The most elements that came under a cover a diff lists one by one: what covers them is a line of its own, and
#: they are what an agent cannot tap now — their refs say which (MiniWoB's cover over a finished task).
MAX_COVERED_LINES = 1
#: The most refs such a line lists (a menu over a whole page covers 53: the first ones say enough, a tap on any
#: other answers ELEMENT_COVERED naming the cover).
MAX_REFS_LISTED = 12


def _travel(old: Node, new: Node) -> tuple[str, float, float] | None:
    """The axis and the two positions of a move of ``old`` to ``new``, or None when it stayed."""
    a, b = rect_of(old), rect_of(new)
    for axis, p, q, size in (("y", a["y"], b["y"], b["height"]), ("x", a["x"], b["x"], b["width"])):
        if abs(q - p) > max(MOVED_PT, size / 2):
            return axis, p, q
    return None


def _along(parent: tuple[str, float, float] | None, child: tuple[str, float, float]) -> bool:
    """Whether ``child`` travelled as far and the same way as its ``parent`` did (None: the parent stayed)."""
    return parent is not None and parent[0] == child[0] and abs((parent[2] - parent[1]) - (child[2] - child[1])) < 1


def moved(previous: Rendered, current: Rendered) -> list[str]:
    """``~`` lines for the elements of ``current`` that ``previous`` showed under the same ref and line, elsewhere."""
    before = {ref_of_line(line): key.strip() for line, key in zip(previous.lines, previous.keys, strict=False)}
    out: list[tuple[str, str]] = []
    went: dict[int, tuple[str, float, float]] = {}  # node index → its travel (a row's texts go with the row)
    for line, key in zip(current.lines, current.keys, strict=False):
        ref = ref_of_line(line)
        if not ref or before.get(ref) != key.strip() or ref not in previous.refs or ref not in current.refs:
            continue
        node = current.refs[ref]
        travel = _travel(previous.refs[ref], node)
        if travel is not None:
            if node.get("index") is not None:
                went[int(node["index"])] = travel
            parent = node.get("parentIndex")
            if parent is not None and _along(went.get(int(parent)), travel):
                continue  # it moved with the element it is in, which has its line
            axis, p, q = travel
            out.append((line.strip(), f"moved: {axis} {p:g} → {q:g}"))
    if len(out) > MAX_MOVED_LINES:
        line, how = out[0]
        return [f"~ {len(out)} elements moved, the first {line}  ({how})"]
    return [f"~ {line}  ({how})" for line, how in out]


_FLAGS = re.compile(r" \[([^\]]*)\]$")


def _flags(text: str) -> list[str]:
    m = _FLAGS.search(text)
    return m.group(1).split(",") if m else []


def _parts(line: str) -> tuple[str, str, str] | None:
    """(ref, the line now, the line before) of a ``~`` line, else None."""
    if not line.startswith("~ @") or "  (was: " not in line:
        return None
    body, _, was = line[2:].partition("  (was: ")
    ref, _, new = body.partition(" ")
    return ref, new, was.removesuffix(")")


def _cover_change(line: str, focus_moved: bool = False) -> tuple[str, str] | None:
    """(ref, "now" or "no longer") for a ``~`` line whose only change is the ``covered`` flag — or, when
    ``focus_moved`` (another line gained focus), that and the focus it lost — else None."""
    parts = _parts(line)
    if parts is None:
        return None
    ref, new, old = parts
    lost_focus = focus_moved and "focused" in _flags(old) and "focused" not in _flags(new)

    def uncovered(text: str, drop: tuple[str, ...]) -> tuple[str, bool]:
        m = _FLAGS.search(text)
        if m is None:
            return text, False
        flags = m.group(1).split(",")
        rest = [f for f in flags if f not in drop]
        return text[: m.start()] + (f" [{','.join(rest)}]" if rest else ""), "covered" in flags

    (new_bare, new_cov) = uncovered(new, ("covered",))
    (old_bare, old_cov) = uncovered(old, ("covered", "focused") if lost_focus else ("covered",))
    if new_bare != old_bare or new_cov == old_cov:
        return None
    return ref, "now" if new_cov else "no longer"


def covers(lines: list[str]) -> list[str]:
    """``lines`` (a view diff) with more than MAX_COVERED_LINES lines that only came under a cover (more than
    MAX_UNCOVERED_LINES that came out from under one) said as one line each way, listing their refs, in the place of
    the first.  An element that lost focus as it came under the cover counts when another gained it (the focus
    moved: the new holder's line says so)."""
    moved = any(gained_focus(line) for line in lines)
    found = {i: c for i, line in enumerate(lines) if (c := _cover_change(line, moved)) is not None}
    out: list[str] = []
    for i, line in enumerate(lines):
        change = found.get(i)
        if change is None:
            out.append(line)
            continue
        same = [ref for ref, how in found.values() if how == change[1]]
        if len(same) <= (MAX_COVERED_LINES if change[1] == "now" else MAX_UNCOVERED_LINES):
            out.append(line)
        elif change[0] == same[0]:
            listed = " ".join(same[:MAX_REFS_LISTED]) + (
                f" … +{len(same) - MAX_REFS_LISTED} more" if len(same) > MAX_REFS_LISTED else ""
            )
            out.append(f"~ {len(same)} elements {change[1]} [covered]: {listed}")
    return out


def _keyboard_top(view: Rendered) -> float | None:
    """Where the on-screen keyboard that ``view`` shows begins (screen y), None when it shows none."""
    board = next((n for n in view.refs.values() if n.get("type") == "Keyboard"), None)
    return None if board is None else float(rect_of(board).get("y", 0))


def under_keyboard(lines: list[str], previous: Rendered, current: Rendered) -> list[str]:
    """``lines`` (a view diff) with more than MAX_MOVED_LINES removed lines of elements the keyboard that came up
    now hides (``previous`` showed each wholly below its top) said as one line, in the place of the first."""
    top = _keyboard_top(current)
    if top is None or _keyboard_top(previous) is not None:
        return lines
    below: set[str] = set()
    elsewhere: set[str] = set()  # (a line that reads the same above the keyboard's top is not said hidden)
    for key, node in zip(previous.keys, previous.nodes, strict=True):
        hidden = node is not None and float(rect_of(node).get("y", 0)) >= top  # (a summary line shows no node)
        (below if hidden else elsewhere).add(key.strip())
    gone = [i for i, line in enumerate(lines) if line.startswith("- ") and line[2:] in below - elsewhere]
    if len(gone) <= MAX_MOVED_LINES:
        return lines
    out = [line for i, line in enumerate(lines) if i not in set(gone)]
    out.insert(gone[0], f"- {len(gone)} elements under the keyboard now (below y={top:g})")
    return out
