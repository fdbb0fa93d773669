"""The agent view: a snapshot's nodes rendered as compact text with ``@eN`` refs.  Pure, no I/O.

One line per useful node, indented two spaces per *emitted* ancestor::

    @e1 Heading "Demo"
    @e2 List "Rows"
      @e3 Cell "Row 1"
        @e4 StaticText "count 0"
        @e5 Button "Increment row 1"
    @e6 TextField "Email" value="a@b.c" [focused]

Rules (docs/agent-view.md is the user-facing version):

* the screen's root (``Application``/``Window``) gets its line but does not indent the nodes under it;
* a node with no label, identifier or value that is not interactive (wrappers, unlabeled containers) gets no
  line; its children move up to its nearest emitted ancestor;
* a non-interactive node whose text repeats its nearest emitted ancestor's label gets no line (a button's own
  caption), and so does a static text right before or after a control with the same label (a form label) —
  unless the control's label is borrowed (``nameFrom``: a checkbox named by its row's text, which is the text);
* a wrapper that carries only an identifier (``Other id=wrap``: no label, no value, not interactive) gets no line;
* a run of more than :data:`RUN_MAX` same-role non-interactive siblings (with nothing interactive inside) shows
  its first :data:`RUN_SHOWN` and one line ``… 248 more Image`` for the rest;
* ``full=True`` (``snapshot --all``) drops the two rules above: every wrapper and every sibling gets its line;
* a field that takes no typing (``readOnly``) is marked ``[read-only]``; a node that opens and closes something
  (``expanded``: a tree item, its expander, a disclosure button) ``[expanded]`` or ``[collapsed]``;
* a covered node (``coveredBy``: something else is where a tap on it would land) is marked ``[covered]``;
* a checkbox, radio button or switch shows its state as a flag, ``[checked]`` (``[mixed]``), nothing when off —
  not its value ``"1"``/``"0"``;
* ``interactive=True`` shows a closed select (a ComboBox whose options have no place on the screen) as one line,
  its value and ``(12 options, select one)``, without its options (the full view and ``--json`` list them, and so
  does ``select``'s NOT_FOUND); a list box's options (they show on the page) keep their lines;
* ``interactive=True`` leaves covered nodes out and keeps interactive nodes, headings, alerts/dialogs, and the
  text an agent needs to choose among the interactive nodes: non-interactive text inside an interactive node
  (not a static text that is its control's whole label or value: an iOS cell's caption with an id of its own), the
  screen's title (a static text right under a navigation bar or toolbar), and text in the same row (same emitted
  parent, overlapping vertical band) as an interactive node, and the text block just above interactive content
  (the last static text of three words or more before a control, with nothing kept between them: a task's or
  form's instruction); an
  unlabeled interactive container (a list row's Cell) that holds other kept controls gets no line there — its
  controls stand for it, and a List or Table with a label or identifier whose own rows are listed gets a line (a
  multi-select's list box, the target of ``select``);
* ``interactive=True`` prints an identifier only on a line without a label (``TextField id=username``) or whose
  label another line shares (``Button "Like 0" id=like-1``): a line with a label of its own is named by it and
  acted on by its ref;
* refs: without a session, ``e1``… in emission (document) order; a session keeps each element's ref across
  snapshots and gives newcomers new numbers (``agent/observe.py``).
"""

from __future__ import annotations

import bisect
import json
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from phonewire.protocol.snapshot import INTERACTIVE_ROLES, TEXT_INPUT_ROLES, Node, rect_of

#: Roles whose value is the user's input/state: the value is not part of the element's identity.
STATEFUL_ROLES = TEXT_INPUT_ROLES | frozenset({"Switch", "CheckBox", "RadioButton", "Slider", "Stepper"})
#: Non-interactive roles always kept by the interactive filter (they say which screen/overlay this is).
LANDMARK_ROLES = frozenset({"Heading", "Alert", "Dialog", "Keyboard"})
#: Bars whose own text is the screen's title (iOS's large "Settings", an Android toolbar's title): kept by ``-i``.
TITLE_BARS = frozenset({"NavigationBar", "Toolbar"})
#: Roots of a screen: their line is printed, but they do not indent their content.
ROOT_ROLES = frozenset({"Application", "Window"})
#: Longest label/value printed; longer texts are cut with an ellipsis (identity uses the full text).
MAX_TEXT = 80
#: Longest label of a text line (StaticText): a sentence is read, not just recognised — a task's instruction cut at
#: 80 characters lost its point (MiniWoB's "…then find and click the…" without "3rd search result").
MAX_PROSE = 200
#: A run of more than RUN_MAX same-role non-interactive siblings shows RUN_SHOWN of them and one summary line.
RUN_MAX = 20
RUN_SHOWN = 3
#: Containers whose listed rows give them a line in ``-i``, and the roles of those rows.
ROW_CONTAINERS = frozenset({"List", "Table"})
ROW_ROLES = frozenset({"Cell", "TreeItem"})
#: Roles whose value is an on/off state (web ``"1"``/``"0"``/``"2"``, Android/iOS ``"1"``/``"0"``): the view shows it
#: as a flag, ``[checked]`` or ``[mixed]``, and nothing when off — as a person sees a tick, not a number.
TOGGLE_ROLES = frozenset({"CheckBox", "RadioButton", "Switch"})
_ON = frozenset({"1", "true", "on"})
_OFF = frozenset({"0", "false", "off"})
_MIXED = frozenset({"2", "mixed"})
_MORE_OPTIONS = re.compile(r"^… (\d+) more options?$")


def is_interactive(node: Node) -> bool:
    return node.get("type") in INTERACTIVE_ROLES


def _texts(node: Node) -> tuple[str | None, str | None, str | None]:
    return node.get("label"), node.get("identifier"), node.get("value")


def _informative(node: Node) -> bool:
    label, identifier, value = _texts(node)
    return bool(label or identifier or value) or is_interactive(node) or node.get("type") == "Keyboard"


def _quote(text: str, limit: int = MAX_TEXT) -> str:
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return json.dumps(text, ensure_ascii=False)


def node_line(node: Node, *, named_ids: bool = True, options: int = 0) -> str:
    """The line of one node, without ref and indentation: ``Button "Save" id=save value="x" [disabled]``.
    ``named_ids=False`` (``-i``, where the label alone names the node): the identifier only when it has no label.
    ``options``: a closed select whose options the line stands for (``-i``) — ``(12 options, select one)``."""
    label, identifier, value = _texts(node)
    toggle = ""
    if node.get("type") in TOGGLE_ROLES and value is not None and str(value).lower() in _ON | _OFF | _MIXED:
        state = str(value).lower()
        toggle = "checked" if state in _ON else "mixed" if state in _MIXED else ""
        value = None
    parts = [str(node.get("type") or "Other")]
    if label:
        parts.append(_quote(label, MAX_PROSE if node.get("type") == "StaticText" else MAX_TEXT))
    if identifier and identifier != label and (named_ids or not label):
        parts.append(f"id={_quote(identifier) if _needs_quotes(identifier) else identifier}")
    if value and value != label:
        parts.append(f"value={_quote(value)}")
    flags = _flags(node, toggle)
    if flags:
        parts.append("[" + ",".join(flags) + "]")
    return " ".join(parts + _notes(node, options))


def _notes(node: Node, options: int) -> list[str]:
    """What ends a line: a closed select's option count, and ``(seen)`` on text read from the screen by OCR
    (agent/seen.py), which is no element of the tree."""
    notes = [f"({options} option{'s' if options != 1 else ''}, select one)"] if options else []
    if node.get("type") == "Keyboard":  # the on-screen keyboard: where taps do not reach the app, and how it goes
        top = float(rect_of(node).get("y", 0))
        notes.append(f"(covers the screen below y={top:g}: `keyboard hide` dismisses it)")
    return notes + (["(seen)"] if node.get("seen") else [])


def _flags(node: Node, toggle: str) -> list[str]:
    """The node's non-default states, in the view's order (docs/agent-view.md's ``[flags]``)."""
    expanded = node.get("expanded")
    states = (
        (toggle, bool(toggle)),
        ("disabled", node.get("enabled") is False),
        ("selected", bool(node.get("selected"))),
        ("read-only", bool(node.get("readOnly"))),
        ("expanded" if expanded else "collapsed", expanded is not None),
        ("focused", bool(node.get("focused"))),
        ("covered", bool(node.get("coveredBy"))),
    )
    flags = [name for name, on in states if on]
    if node.get("selectedText"):
        flags.append(f"selected text={_quote(str(node['selectedText']), MAX_TEXT)}")
    return flags


def _placeless(node: Node) -> bool:
    rect = rect_of(node)
    return not (float(rect.get("width", 0)) > 0 and float(rect.get("height", 0)) > 0)


def closed_select_options(nodes: Sequence[Node]) -> dict[int, int]:
    """For each closed select (a ComboBox whose options are children without a place on the screen: they show only
    when it opens): how many options it has.  ``-i`` shows such a select as one line, its value and this count."""
    by_index = {int(n["index"]): n for n in nodes}
    out: dict[int, int] = {}
    for n in nodes:
        parent = by_index.get(n.get("parentIndex"))  # type: ignore[arg-type]
        if parent is None or parent.get("type") != "ComboBox" or n.get("type") != "StaticText" or not _placeless(n):
            continue
        more = _MORE_OPTIONS.match(str(n.get("label") or ""))
        key = int(parent["index"])
        out[key] = out.get(key, 0) + (int(more.group(1)) if more else 1)
    return out


def _closed_options(nodes: Sequence[Node], parents: dict[int, int | None], by_index: dict[int, Node]) -> set[int]:
    """The options of the closed selects in ``nodes`` (their lines say how many)."""
    shut = closed_select_options(nodes)
    return {
        i for i, n in by_index.items() if parents.get(i) in shut and n.get("type") == "StaticText" and _placeless(n)
    }


def _needs_quotes(text: str) -> bool:
    return not text or any(ch.isspace() or ch in "\"'|=\\" for ch in text) or len(text) > MAX_TEXT


def _parents(nodes: Sequence[Node]) -> dict[int, int | None]:
    return {int(n["index"]): n.get("parentIndex") for n in nodes}


def _ancestors(index: int, parents: dict[int, int | None]) -> list[int]:
    out: list[int] = []
    parent = parents.get(index)
    while parent is not None and parent not in out:
        out.append(parent)
        parent = parents.get(parent)
    return out


def _band_overlap(a: Node, b: Node) -> bool:
    """True when ``a`` and ``b`` share a horizontal row: their vertical extents overlap by half the smaller one."""
    ra, rb = rect_of(a), rect_of(b)
    ay, ah = float(ra.get("y", 0)), float(ra.get("height", 0))
    by, bh = float(rb.get("y", 0)), float(rb.get("height", 0))
    if ah <= 0 or bh <= 0:
        return False
    overlap = min(ay + ah, by + bh) - max(ay, by)
    return overlap >= 0.5 * min(ah, bh)


def row_mates(nodes: Sequence[Node], *, controls: bool = False) -> dict[int, list[int]]:
    """For each node: the non-interactive text nodes in its row (same parent, overlapping vertical band); with
    ``controls``, the labeled interactive nodes there too."""
    by_parent: dict[int | None, list[Node]] = {}
    for n in nodes:
        by_parent.setdefault(n.get("parentIndex"), []).append(n)
    out: dict[int, list[int]] = {}
    for siblings in by_parent.values():
        texts = sorted((s for s in siblings if (controls or not is_interactive(s)) and s.get("label")), key=_top)
        tops = [_top(t) for t in texts]
        tallest = max((float(rect_of(t).get("height", 0)) for t in texts), default=0.0)
        for n in siblings:
            rect = rect_of(n)
            top = float(rect.get("y", 0))
            bottom = top + float(rect.get("height", 0))
            mates: list[int] = []
            # only texts that start above this node's bottom and end below its top can overlap it: scan that window
            # (a text ending below ``top`` starts below ``top - tallest``), not every text above
            start = bisect.bisect_right(tops, top - tallest)
            for t in texts[start : bisect.bisect_left(tops, bottom)]:
                if t is not n and _band_overlap(n, t):
                    mates.append(int(t["index"]))
            out[int(n["index"])] = mates
    return out


def _children(nodes: Sequence[Node]) -> dict[int, list[Node]]:
    out: dict[int, list[Node]] = {}
    for n in nodes:
        parent = n.get("parentIndex")
        if parent is not None:
            out.setdefault(int(parent), []).append(n)
    return out


def _said_by_its_control(node: Node, children: Sequence[Node]) -> bool:
    """A plain container (no control, no identifier) whose one child is a control saying the same (jQuery UI's
    datepicker: each day a Cell "15" holding a Link "15", listed twice: issue 23)."""
    if is_interactive(node) or node.get("identifier") or node.get("value") or len(children) != 1:
        return False
    child = children[0]
    return bool(node.get("label")) and is_interactive(child) and child.get("label") == node.get("label")


def _top(node: Node) -> float:
    return float(rect_of(node).get("y", 0))


def _id_only_wrapper(node: Node) -> bool:
    """A layout wrapper whose only text is its identifier (``Other id=wrap``)."""
    return node.get("type") == "Other" and not node.get("label") and not node.get("value") and not is_interactive(node)


def select_lines(nodes: Sequence[Node], *, interactive: bool = False, full: bool = False) -> list[int]:
    """Indexes of the nodes that get a line, in emission order (``full``: wrappers with only an id too)."""
    parents = _parents(nodes)
    by_index = {int(n["index"]): n for n in nodes}
    kids = _children(nodes)
    keep: set[int] = set()
    for pos, n in enumerate(nodes):
        i = int(n["index"])
        # (a calendar's cell "15" around its link "15": the link's line says it)
        if not _informative(n) or _said_by_its_control(n, kids.get(i, ())):
            continue
        if not full and _id_only_wrapper(n):
            continue
        if _captions_neighbour(nodes, pos):
            continue  # a form label next to the control it names
        parent = parents.get(i)
        if not is_interactive(n) and parent is not None and parent in by_index:
            plabel = by_index[parent].get("label")
            own = n.get("label") or n.get("value")
            if own and plabel and own == plabel and not n.get("identifier"):
                continue  # repeats its container's caption
            if interactive and own and _repeats_control(n, by_index[parent]):
                continue  # a cell's own caption or subtitle, already on the cell's line
        keep.add(i)
    if interactive:
        chosen: set[int] = set()
        mates = row_mates(nodes)
        closed = closed_select_options(nodes)
        for i in keep:
            n = by_index[i]
            if n.get("coveredBy"):
                continue  # under something else (a drawer, a modal's backdrop): a tap cannot reach it
            if parents.get(i) in closed and n.get("type") == "StaticText" and _placeless(n):
                continue  # a closed select's option: its line says how many; `select` chooses, the full view lists
            if is_interactive(n) or n.get("type") in LANDMARK_ROLES or n.get("seen"):
                chosen.add(i)  # (text seen on a canvas: what there is to tap there)
                chosen.update(m for m in mates.get(i, ()) if m in keep)
                continue
            inside = [by_index[a] for a in _ancestors(i, parents) if a in by_index and is_interactive(by_index[a])]
            if inside and not inside[0].get("coveredBy"):
                chosen.add(i)  # text inside a cell/button: what the control says
            elif _titles_bar(n, parents.get(i), by_index):
                chosen.add(i)  # the screen's title: which screen this is
        chosen.update(_instructions(nodes, keep, chosen, parents, by_index))
        # An unlabeled row (a Cell with no text of its own) whose controls are listed stands aside for them.
        wrapped: set[int] = set()
        rows_of: set[int] = set()
        for i in chosen:
            n = by_index[i]
            if is_interactive(n):
                wrapped.update(a for a in _ancestors(i, parents) if a in chosen and _unlabeled_interactive(by_index[a]))
                container = parents.get(i)
                if (
                    n.get("type") in ROW_ROLES
                    and not _unlabeled_interactive(n)
                    and container in keep
                    and by_index[container].get("type") in ROW_CONTAINERS
                    and not by_index[container].get("coveredBy")
                    and (by_index[container].get("label") or by_index[container].get("identifier"))
                ):
                    rows_of.add(container)
        # a listed row container's own texts come with it (a list box's "… 2 more options")
        row_texts = {i for i in keep if parents.get(i) in rows_of and not is_interactive(by_index[i])}
        keep = (chosen | rows_of | row_texts) - wrapped
    return [int(n["index"]) for n in nodes if int(n["index"]) in keep]


#: A text of at least this many words can be an instruction (``Click on the "Submit" button.``), not a value.
INSTRUCTION_WORDS = 3


def _instructions(
    nodes: Sequence[Node], keep: set[int], chosen: set[int], parents: dict[int, int | None], by_index: dict[int, Node]
) -> set[int]:
    """The text block just above interactive content: the last static text (of INSTRUCTION_WORDS words or more, not
    inside a control) before a kept control, when nothing kept lies between them — the task or form's instruction
    that ``-i`` would otherwise drop."""
    out: set[int] = set()
    pending: int | None = None
    for n in nodes:
        i = int(n["index"])
        if i not in keep:
            continue
        if i in chosen:
            if pending is not None and is_interactive(n):
                out.add(pending)
            pending = None
            continue
        label = str(n.get("label") or "")
        if n.get("type") == "StaticText" and len(label.split()) >= INSTRUCTION_WORDS:
            inside = any(a in by_index and is_interactive(by_index[a]) for a in _ancestors(i, parents))
            if not inside:
                pending = i
    return out


def _repeats_control(node: Node, parent: Node) -> bool:
    """``-i``: a text whose whole text is its control's label or value (an iOS cell's caption, with an identifier of
    its own, and its subtitle): a person reads it once, on the control's line; selectors still find it by id."""
    if not is_interactive(parent) or parent.get("nameFrom"):
        return False
    own = node.get("label") or node.get("value")
    return node.get("type") == "StaticText" and own in {parent.get("label"), parent.get("value")} - {None, ""}


def _titles_bar(node: Node, parent: int | None, by_index: dict[int, Node]) -> bool:
    """A static text right under a navigation bar or toolbar: the screen's title."""
    bar = None if parent is None else by_index.get(parent)
    return bar is not None and bar.get("type") in TITLE_BARS and node.get("type") == "StaticText"


def _unlabeled_interactive(node: Node) -> bool:
    return is_interactive(node) and not node.get("label") and not node.get("value")


def _captions_neighbour(nodes: Sequence[Node], pos: int) -> bool:
    """A plain text whose label is the label of the interactive node right before or after it (same parent)."""
    n = nodes[pos]
    label = n.get("label")
    if is_interactive(n) or not label or n.get("identifier") or n.get("value") or n.get("type") != "StaticText":
        return False
    for other in (nodes[pos - 1] if pos > 0 else None, nodes[pos + 1] if pos + 1 < len(nodes) else None):
        if (
            other is not None
            and is_interactive(other)
            and not other.get("nameFrom")  # a label borrowed from the row: the text is what a person reads
            and other.get("label") == label
            and other.get("parentIndex") == n.get("parentIndex")
        ):
            return True
    return False


@dataclass
class Rendered:
    """Lines of a view: ``keys`` are the ref-less lines (indent included) used for diffs, ``nodes`` the node each
    line shows (``None`` for a summary line), ``refs`` the nodes by the refs the lines carry."""

    lines: list[str] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)
    nodes: list[Node | None] = field(default_factory=list)
    refs: dict[str, Node] = field(default_factory=dict)

    def add(self, key: str, line: str, node: Node | None = None) -> None:
        self.keys.append(key)
        self.lines.append(line)
        self.nodes.append(node)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def _summarised(
    lines: list[int], parents: dict[int, int | None], by_index: dict[int, Node]
) -> tuple[set[int], dict[int, str]]:
    """The lines a long run of same-role non-interactive siblings hides, and the summary line that follows the
    last line shown of each run (``… 248 more Image``).  A sibling with an interactive line inside breaks a run."""
    listed = set(lines)
    up: dict[int, int | None] = {}
    for i in lines:
        up[i] = next((a for a in _ancestors(i, parents) if a in listed), None)
    lively: set[int] = set()  # lines with an interactive line at or under them
    for i in lines:
        if is_interactive(by_index[i]):
            j: int | None = i
            while j is not None and j not in lively:
                lively.add(j)
                j = up[j]
    children: dict[int | None, list[int]] = {}
    for i in lines:
        children.setdefault(up[i], []).append(i)
    hidden_roots: set[int] = set()
    summary: dict[int, str] = {}
    for kids in children.values():
        run: list[int] = []
        for k in [*kids, None]:
            if k is not None and k not in lively and run and by_index[run[0]].get("type") == by_index[k].get("type"):
                run.append(k)
                continue
            if len(run) > RUN_MAX:
                hidden_roots.update(run[RUN_SHOWN:])
                summary[run[RUN_SHOWN - 1]] = f"… {len(run) - RUN_SHOWN} more {by_index[run[0]].get('type') or 'Other'}"
            run = [k] if k is not None and k not in lively else []
    hidden = {i for i in lines if i in hidden_roots or any(a in hidden_roots for a in _ancestors(i, parents))}
    return hidden, summary


def render(
    nodes: Sequence[Node],
    *,
    interactive: bool = False,
    full: bool = False,
    name: Callable[[Node], str] | None = None,
    closed_selects: bool = False,
) -> Rendered:
    """Render ``nodes`` (wire snapshot nodes) as the agent view.  ``name`` gives each listed node its ref (the
    session keeps refs stable across snapshots); without it refs are ``e1``… in emission order.  ``full``: no
    summarised runs, and wrappers with only an identifier get their lines.  ``closed_selects``: a closed select is
    one line with its option count, as ``-i`` shows it (an action's settled diff: a select that came into view is
    not every option it holds)."""
    parents = _parents(nodes)
    by_index = {int(n["index"]): n for n in nodes}
    out = Rendered()
    level: dict[int, int] = {}
    lines = select_lines(nodes, interactive=interactive, full=full)
    if closed_selects and not interactive:  # (-i leaves them out already)
        shut = _closed_options(nodes, parents, by_index)
        lines = [i for i in lines if i not in shut]
    hidden, summary = (set(), {}) if full else _summarised(lines, parents, by_index)
    labels = Counter(by_index[i].get("label") for i in lines if i not in hidden)
    closed = closed_select_options(nodes) if interactive or closed_selects else {}
    pending: tuple[int, str] | None = None  # a summary line, printed after the last line under the run's last shown
    for i in lines:
        if i in hidden:
            continue
        depth = 0
        for a in _ancestors(i, parents):
            if a in level:
                # the screen's own root (Application/Window) does not indent what is on the screen
                depth = level[a] + (0 if by_index[a].get("type") in ROOT_ROLES else 1)
                break
        if pending is not None and depth <= pending[0]:
            out.add(pending[1], pending[1])
            pending = None
        level[i] = depth
        if i in summary:
            pending = (depth, "  " * depth + summary[i])
        node = by_index[i]
        ref = name(node) if name is not None else f"e{len(out.refs) + 1}"
        if ref:  # (a view of an earlier screen names only the elements that still carry a ref)
            out.refs[ref] = node
        # the key (what diffs compare and name an element by) always has the id, so an element whose label became
        # unique (its id no longer printed in -i) is the same element changed, not one gone and one new
        shown = node_line(node, named_ids=not interactive or labels[node.get("label")] > 1, options=closed.get(i, 0))
        out.add("  " * depth + node_line(node), "  " * depth + f"@{ref} " + shown, node)
    if pending is not None:
        out.add(pending[1], pending[1])
    return out


def quality_header(quality: dict[str, Any]) -> str | None:
    """A one-line warning when the snapshot is not healthy, and a line saying text was read from the screen (OCR,
    ``quality.seen``: agent/seen.py) — else nothing."""
    lines = []
    if quality and quality.get("state", "healthy") != "healthy":
        reason = quality.get("reason") or quality.get("reasonCode") or ""
        lines.append(f"# snapshot {quality.get('state')}: {reason}".rstrip())
    seen = quality.get("seen") if quality else None
    if isinstance(seen, dict) and seen.get("header"):
        lines.append(str(seen["header"]))
    return "\n".join(lines) or None


def page_header(quality: dict[str, Any]) -> str | None:
    """The header line of a view whose page does not simply fit the screen (``quality.page``, web): its size, its
    scale and the part of it the screen shows, so that an agent knows there is more to the side."""
    page = quality.get("page") if quality else None
    if not isinstance(page, dict):
        return None
    left, top = float(page.get("left", 0)), float(page.get("top", 0))
    right, bottom = left + float(page.get("visibleWidth", 0)), top + float(page.get("visibleHeight", 0))
    width, height = float(page.get("width", 0)), float(page.get("height", 0))
    more = [side for side, far in (("left", left > 1), ("right", right < width - 1)) if far]
    sideways = f"; `scroll {' / '.join(more)}` shows more of it" if more else ""
    if not more and top <= 1 and bottom >= height - 1:  # (the whole page on the screen: no part to name)
        return f"# page {width:g} x {height:g} px shown whole at scale {page.get('scale', 1):g}"
    return (
        f"# page {page.get('width', 0):g} x {page.get('height', 0):g} px shown at scale {page.get('scale', 1):g}: "
        f"x {left:g}-{right:g}, y {top:g}-{bottom:g} of it on the screen{sideways}"
    )
