"""Snapshot nodes: the shared role vocabulary and the one builder every backend feeds.

A backend turns its native tree (Chromium's accessibility tree, Android's view hierarchy, XCUITest's element
tree) into :class:`RawNode` objects; :func:`build_snapshot` applies the protocol's rules identically for all of
them:

* inclusion — interactive roles, scroll containers, and anything with a label, identifier or value;
* visibility — the node's rect overlaps the viewport (a geometry-less node, whose rect is all zero, is kept:
  its position is unknown, not off-screen);
* dedup — by type + texts + integer geometry;
* caps — 1500 nodes (then ``quality.state = "degraded"``, ``reasonCode = "node_cap"``); the raw walk stops at
  depth 100 and emission at depth 60 (depth-dropped content does not degrade the snapshot);
* totality — every number is finite on the wire (non-finite → 0) and integer conversions clamp, so no input can
  make the builder raise.

Wire node::

    {"index", "type", "label", "identifier", "value", "rect": {"x","y","width","height"},
     "enabled", "focused", "selected", "depth", "parentIndex"[, "coveredBy" | "tapPoint"][, "readOnly"][, "nameFrom"]
     [, "expanded"][, "serial"][, "rules"]}

``coveredBy`` is present only on an interactive node that something else covers at the point a tap would use
(a backend that hit-tests; the web device does): a short description of the covering element.

``tapPoint`` ``{"x", "y"}`` is present only on an interactive node whose centre something else covers while
another part of it shows, or whose centre lies off the screen while a part of it shows (a page zoomed in; a backend
that hit-tests; the web device does): the point a tap on it uses instead of the centre.  A node never carries both
``coveredBy`` and ``tapPoint``.

``readOnly`` (``true``) is present only on a field that shows a value but takes no typing (a web page's
``<input readonly>``, ``aria-readonly="true"``): its own widget (a date picker) sets it.

``nameFrom`` (``"row"``) is present only on a control whose label is borrowed, not its own: a checkbox, radio or
switch without a name, labelled by the text of its list item / table row.  The words a person reads are the row's
text, so a selector by text prefers that text to the control (agent/selectors.py).

``expanded`` (``true``/``false``) is present only on a node that opens and closes something (a tree item, its
expander, a disclosure button, a menu button): whether it is open now.

``serial`` is present only from a backend that can tell its elements apart for their lifetime (the web device):
a string that names one element (DOM node) for as long as it exists and is never given to another one — not in
the same document, not in another (``"<document id>:<number>"``).  The agent re-finds a ref by it
(agent/refs.py); it carries no meaning beyond equality.

``rules`` is present only on a node a named rule beyond the spec shaped (the web walker's, walker_rules.js: a
label drawn as its checkbox, a class word that names an icon): the rules' names, so a reader can ask of any node
which rule made it.

``value`` is the field's text as it holds it (a trailing space, a line break stay): the text view may shorten it,
the wire does not.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Final, NotRequired, TypedDict

from phonewire.protocol import errors
from phonewire.protocol.errors import ProtocolError

# --- role vocabulary (shared by all backends; docs/snapshot.md documents it) --------------------------
ROLES: Final = (
    "Application", "Window", "Other", "Group", "StaticText", "Heading", "Image", "Button", "Link",
    "TextField", "SecureTextField", "SearchField", "TextView", "Switch", "CheckBox", "RadioButton",
    "Slider", "Stepper", "ComboBox", "Cell", "Table", "List", "ScrollView", "TabBar", "Tab", "NavigationBar",
    "Toolbar", "Alert", "Dialog", "Menu", "MenuItem", "ProgressIndicator", "WebView", "Keyboard", "TreeItem",
)  # fmt: skip
INTERACTIVE_ROLES: Final = frozenset({
    "Button", "Link", "TextField", "SecureTextField", "SearchField", "TextView", "Switch", "CheckBox",
    "RadioButton", "Slider", "Stepper", "ComboBox", "Cell", "Tab", "MenuItem", "TreeItem",
})  # fmt: skip
SCROLL_ROLES: Final = frozenset({"ScrollView", "Table", "List"})
TEXT_INPUT_ROLES: Final = frozenset({"TextField", "SecureTextField", "SearchField", "TextView", "ComboBox"})

NODE_CAP: Final = 1500
WALK_DEPTH_CAP: Final = 100
EMIT_DEPTH_CAP: Final = 60
_COORD_CLAMP: Final = 1_000_000_000


def finite(value: float | int | None) -> float:
    """Total conversion: non-finite or missing → 0."""
    if value is None:
        return 0.0
    try:
        f = float(value)
    except (TypeError, ValueError, OverflowError):
        return 0.0
    return f if math.isfinite(f) else 0.0


def key_coordinate(value: float) -> int:
    """Integer key of a coordinate; clamps instead of overflowing."""
    f = finite(value)
    return int(max(-_COORD_CLAMP, min(_COORD_CLAMP, round(f))))


#: The identifier of the node a device draws for a page's own dialog (``alert``/``confirm``/``prompt``, the web
#: phone): a node with it is that dialog, not a page's ``role=alert`` message box.
PAGE_DIALOG: Final = "javascript-dialog"


class WireRect(TypedDict):
    """A node's rect on the wire (screen points, 0.1 pt)."""

    x: float
    y: float
    width: float
    height: float


class WirePoint(TypedDict):
    x: float
    y: float


class Node(TypedDict, total=False):
    """One node of a snapshot as every layer above the backends reads it: what :func:`build_snapshot` makes from a
    backend's :class:`RawNode` tree (the web, Android and iOS devices all build it there) and the ``snapshot``
    reply carries.  The keys after ``parentIndex`` are present only when they say something."""

    index: int
    type: str
    label: str | None
    identifier: str | None
    value: str | None
    rect: WireRect
    enabled: bool | None
    focused: bool | None
    selected: bool | None
    depth: int
    parentIndex: int | None
    #: What covers the node where a tap would land (see :attr:`RawNode.covered_by`).
    coveredBy: str
    #: Where a tap on the node lands when that is not its centre.
    tapPoint: WirePoint
    readOnly: bool
    nameFrom: str
    expanded: bool
    serial: str
    #: The page's text selection, on the node that holds it (the web phone: ``select-text``, ctrl+a, a drag).
    selectedText: str
    #: The named rules beyond the spec that shaped the node (see :attr:`RawNode.rules`).
    rules: list[str]
    #: Text an OCR engine read from the screenshot, not an element of the tree (agent/seen.py): a StaticText.
    seen: bool


def rect_of(node: Node) -> WireRect:
    """``node``'s rect (a zero one where it has none)."""
    return node.get("rect") or {"x": 0, "y": 0, "width": 0, "height": 0}


class Snapshot(TypedDict):
    """A ``snapshot`` reply's data."""

    nodes: list[Node]
    quality: dict[str, Any]
    #: (web, optional) the page's change mark when it was walked: a gesture sent with it as ``since`` is sent at
    #: the snapshot's places only while the page has not changed since (docs/protocol.md, ``since``)
    mark: NotRequired[str]


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    width: float
    height: float

    @classmethod
    def of(cls, x: float | None, y: float | None, width: float | None, height: float | None) -> Rect:
        return cls(finite(x), finite(y), max(0.0, finite(width)), max(0.0, finite(height)))

    @property
    def unknown(self) -> bool:
        return self.x == 0 and self.y == 0 and self.width == 0 and self.height == 0

    @property
    def center(self) -> tuple[float, float]:
        return (self.x + self.width / 2, self.y + self.height / 2)

    def overlaps(self, other: Rect) -> bool:
        if self.width == 0 or self.height == 0:  # a line or a point: inside counts
            return other.x <= self.x <= other.x + other.width and other.y <= self.y <= other.y + other.height
        return (
            self.x < other.x + other.width
            and self.x + self.width > other.x
            and self.y < other.y + other.height
            and self.y + self.height > other.y
        )

    def to_wire(self) -> WireRect:
        return {"x": _num(self.x), "y": _num(self.y), "width": _num(self.width), "height": _num(self.height)}


def _num(v: float) -> float:
    """Round to 0.1 pt for the wire (smaller replies, same meaning); ints stay ints."""
    r = round(finite(v), 1)
    return int(r) if r == int(r) else r


@dataclass(slots=True)
class RawNode:
    """One node of a backend's native tree, already mapped to the shared vocabulary."""

    type: str
    label: str | None = None
    identifier: str | None = None
    value: str | None = None
    rect: Rect = field(default_factory=lambda: Rect(0, 0, 0, 0))
    enabled: bool | None = None
    focused: bool | None = None
    selected: bool | None = None
    interactive: bool = False
    #: What covers the node where a tap would land (``Dialog "Choose a date"``), when something does.
    covered_by: str | None = None
    #: Where a tap on the node lands when that is not its centre (the centre is covered, another part is not).
    tap_point: tuple[float, float] | None = None
    #: Shows a value but takes no typing (``<input readonly>``): its own widget sets it.
    read_only: bool = False
    #: Where a label not of the node's own came from (``"row"``: a checkbox named by its row's text).
    name_from: str | None = None
    #: Opens and closes something (a tree item, its expander): whether it is open now; None when it is no such node.
    expanded: bool | None = None
    #: Names this element for its life, never another one (see the module docstring), when the backend can.
    serial: str | None = None
    #: The named rules beyond the spec that shaped the node (the web walker's, walker_rules.js): why it has this
    #: role, name or value.
    rules: tuple[str, ...] = ()
    children: list[RawNode] = field(default_factory=list)


def _total(rect: Rect) -> Rect:
    """A rect built without :meth:`Rect.of` may still hold non-finite numbers: zero them (never drop, never raise)."""
    if all(isinstance(v, (int, float)) and math.isfinite(v) for v in (rect.x, rect.y, rect.width, rect.height)):
        return rect
    return Rect.of(rect.x, rect.y, rect.width, rect.height)


def _clean(text: str | None) -> str | None:
    if text is None:
        return None
    text = " ".join(text.split())
    return text or None


def _wire_node(
    node: RawNode,
    index: int,
    texts: tuple[str | None, str | None, str | None],
    r: Rect,
    *,
    depth: int,
    parent_index: int | None,
) -> Node:
    """One emitted node as the wire has it: the fields every node carries, then the ones only some do."""
    label, identifier, value = texts
    wire: Node = {
        "index": index,
        "type": node.type,
        "label": label,
        "identifier": identifier,
        "value": value,
        "rect": r.to_wire(),
        "enabled": node.enabled,
        "focused": node.focused,
        "selected": node.selected,
        "depth": depth,
        "parentIndex": parent_index,
    }
    if node.covered_by:
        wire["coveredBy"] = node.covered_by
    elif node.tap_point is not None:
        tx, ty = (round(finite(v), 1) for v in node.tap_point)
        wire["tapPoint"] = {"x": tx, "y": ty}
    if node.read_only:
        wire["readOnly"] = True
    if node.name_from and label:
        wire["nameFrom"] = node.name_from
    if node.expanded is not None:
        wire["expanded"] = node.expanded
    if node.serial:
        wire["serial"] = node.serial
    if node.rules:
        wire["rules"] = list(node.rules)
    return wire


def build_snapshot(root: RawNode, viewport: Rect, backend: str) -> Snapshot:
    """Apply inclusion, visibility, dedup, caps and totality; return ``{"nodes": [...], "quality": {...}}``."""
    nodes: list[Node] = []
    seen: set[tuple[object, ...]] = set()
    capped = False
    # iterative DFS: (node, depth, nearest emitted ancestor index)
    stack: list[tuple[RawNode, int, int | None]] = [(root, 0, None)]
    while stack:
        node, depth, parent_index = stack.pop()
        emitted_index = parent_index
        label, identifier = _clean(node.label), _clean(node.identifier)
        value = node.value or None  # as the field holds it: a trailing space is part of what an agent copies
        included = (
            node.interactive
            or node.type == "Keyboard"  # (it has no name of its own on iOS; taps under it do not reach the app)
            or node.type in INTERACTIVE_ROLES
            or node.type in SCROLL_ROLES
            or bool(label or identifier or value)
        )
        r = _total(node.rect) if included else node.rect
        visible = included and (r.unknown or r.overlaps(viewport))
        if included and visible and depth <= EMIT_DEPTH_CAP:
            key = (node.type, label, identifier, value, key_coordinate(r.x), key_coordinate(r.y),
                   key_coordinate(r.width), key_coordinate(r.height))  # fmt: skip
            if key not in seen:
                if len(nodes) >= NODE_CAP:
                    capped = True
                    break
                seen.add(key)
                emitted_index = len(nodes)
                nodes.append(
                    _wire_node(
                        node, emitted_index, (label, identifier, value), r, depth=depth, parent_index=parent_index
                    )
                )
        if depth < WALK_DEPTH_CAP:
            for child in reversed(node.children):
                stack.append((child, depth + 1, emitted_index))
    quality: dict[str, Any] = {"state": "healthy", "backend": backend}
    if capped:
        quality.update(state="degraded", reasonCode="node_cap",
                       reason=f"more than {NODE_CAP} nodes on screen; the rest were dropped")  # fmt: skip
    return {"nodes": nodes, "quality": quality}


# --- the on-screen keyboard (issue 24) --------------------------------------------------------------------------
KEYBOARD: Final = "Keyboard"
KEYBOARD_HINT: Final = (
    "Dismiss the keyboard first — `keyboard hide`, or `press back` — then tap there; or act on something above "
    "it (the screen above the keyboard scrolls as usual).  `fill` and `type` go to the field whatever the keyboard "
    "covers."
)


def add_keyboard(snapshot: Snapshot, rect: Rect, label: str | None = None) -> None:
    """Put the on-screen keyboard a device knows is up (the web phone's) on ``snapshot``: one ``Keyboard`` node at
    the top level, last (it is drawn over everything else)."""
    nodes = snapshot["nodes"]
    node: Node = {"index": len(nodes), "type": KEYBOARD, "label": label, "identifier": None, "value": None,
                  "rect": rect.to_wire(), "enabled": True, "focused": None, "selected": None, "depth": 1,
                  "parentIndex": 0 if nodes else None}  # fmt: skip
    nodes.append(node)


def keyboard_over(nodes: list[Node], x: float, y: float) -> Rect | None:
    """The rect of the on-screen keyboard among ``nodes`` that covers the screen point (x, y), or None."""
    for node in nodes:
        if node.get("type") != KEYBOARD:
            continue
        wire = rect_of(node)
        r = Rect.of(wire.get("x"), wire.get("y"), wire.get("width"), wire.get("height"))
        if r.width > 0 and r.height > 0 and r.x <= x < r.x + r.width and r.y <= y < r.y + r.height:
            return r
    return None


def keyboard_covers(keyboard: Rect, x: float, y: float, what: str) -> ProtocolError:
    """KEYBOARD_COVERS for a ``what`` (a tap, a long press) at (x, y), under ``keyboard``: nothing was sent."""
    return ProtocolError(
        errors.KEYBOARD_COVERS,
        f"the on-screen keyboard covers ({x:g}, {y:g}): it is up over the screen below y={keyboard.y:g} while a text "
        f"field has focus; the {what} was not sent",
        KEYBOARD_HINT,
    )


def refuse_under(keyboard: Rect | None, x: float, y: float, what: str) -> None:
    """KEYBOARD_COVERS when ``keyboard`` (the one a device's last dump showed) is over the screen point (x, y)."""
    r = keyboard
    if r is not None and r.x <= x < r.x + r.width and r.y <= y < r.y + r.height:
        raise keyboard_covers(r, x, y, what)
