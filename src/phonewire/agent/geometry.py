"""Where a tap on a node lands: the centre of the part of it that shows, or the device's ``tapPoint``."""

from __future__ import annotations

import math
import re
from typing import Final

from phonewire.agent.refs import Index
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.request import MAX_COORDINATE
from phonewire.protocol.snapshot import SCROLL_ROLES, Node, rect_of

_NUMBER: Final = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?|[+-]?(?:nan|inf(?:inity)?)"
#: A point target, ``X Y`` (or ``X,Y``): two numbers in any spelling ``float()`` takes — ``1e308``, ``NaN``, ``-5``
#: included — so a number that is no place on the screen is refused as a point, never looked for as text.
POINT: Final = re.compile(rf"^\s*({_NUMBER})\s*[ ,]\s*({_NUMBER})\s*$", re.IGNORECASE)


def point_of(target: str) -> tuple[float, float] | None:
    """The point ``target`` names (``None``: it is no point).  INVALID_REQUEST for one that is no place on the
    screen: not finite, left of or above its corner (negative), or past the protocol's coordinate bound."""
    match = POINT.match(target)
    if match is None:
        return None
    x, y = float(match.group(1)), float(match.group(2))
    check_on_screen(x, y, target.strip()[:60])
    return x, y


def check_on_screen(x: float, y: float, shown: str | None = None) -> None:
    """INVALID_REQUEST for a point that is no place on the screen (see :func:`point_of`)."""
    for name, value in (("x", x), ("y", y)):
        if not math.isfinite(value) or not 0 <= value <= MAX_COORDINATE:
            raise ProtocolError(
                e.INVALID_REQUEST,
                f"the point {shown or f'{x:.6g} {y:.6g}'!r} is off the screen: {name} must be from 0 to "
                f"{MAX_COORDINATE:g} points, got {value:.6g}",
                "Points start at 0,0 at the top left of the screen: take them from a snapshot's rects, or tap a ref "
                "or a selector instead.",
            )


def visible_box(node: Node, index: Index) -> tuple[float, float, float, float]:
    """``x, y, width, height`` of the part of ``node`` that shows: its rect clipped by the scroll containers it
    sits in and by the screen (the root).  An element half scrolled out of its list must be tapped on what
    shows, not at its centre, which may lie on whatever covers the rest (a tab bar).  A clip that would leave
    nothing (an element placed outside its container) is not applied."""

    def box(n: Node) -> tuple[float, float, float, float]:
        r = rect_of(n)
        x, y = float(r.get("x", 0)), float(r.get("y", 0))
        return x, y, x + float(r.get("width", 0)), y + float(r.get("height", 0))

    x0, y0, x1, y1 = box(node)
    parent, seen = node.get("parentIndex"), set()
    while parent is not None and parent in index.by_index and parent not in seen:
        seen.add(parent)
        up = index.by_index[parent]
        if up.get("type") in SCROLL_ROLES or up.get("parentIndex") is None:
            cx0, cy0, cx1, cy1 = box(up)
            nx0, ny0, nx1, ny1 = max(x0, cx0), max(y0, cy0), min(x1, cx1), min(y1, cy1)
            if nx0 < nx1 and ny0 < ny1:
                x0, y0, x1, y1 = nx0, ny0, nx1, ny1
        parent = up.get("parentIndex")
    return x0, y0, x1 - x0, y1 - y0


def centre(node: Node, index: Index) -> tuple[float, float]:
    """Where a gesture on ``node`` lands: its ``tapPoint`` when the device sent one (the centre is covered, that
    part of it is not), else the centre of :func:`visible_box`."""
    point = node.get("tapPoint")
    if isinstance(point, dict):
        try:
            return float(point["x"]), float(point["y"])
        except (KeyError, TypeError, ValueError):
            pass
    x, y, width, height = visible_box(node, index)
    return x + width / 2, y + height / 2


#: Roles of a select whose options the view lists under it without a place (they show only when it opens).
SELECT_ROLES = frozenset({"ComboBox", "List"})


def has_box(node: Node) -> bool:
    """Whether ``node`` has a place on the screen (a rect with an area): a tap has somewhere to land."""
    r = rect_of(node)
    return float(r.get("width", 0)) > 0 and float(r.get("height", 0)) > 0


def select_of(node: Node, index: Index) -> Node | None:
    """The select (ComboBox or List) whose option ``node`` is, when it is one listed without a place; else None."""
    if node.get("type") != "StaticText" or has_box(node):
        return None
    at = node.get("parentIndex")
    parent = index.by_index.get(int(at)) if at is not None else None
    return parent if parent is not None and parent.get("type") in SELECT_ROLES else None
