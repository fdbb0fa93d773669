"""Scrolling on the web phone: which scroll container a scroll moves, where the finger goes, and when the content
has come to rest.

A scroll is a real touch drag (Input.dispatchTouchEvent, :func:`gestures.drag`), so a page's touch listeners, its
scroll snapping and overscroll rules all apply; what this module adds is measured on the page around it:

1. The plan (``scroll_plan.js``) chooses the container and a start point. With a point: the nearest ancestor of the
   element there that scrolls along the direction's axis (``overflow`` auto/scroll/overlay and content beyond its
   box), else the page. Without a point: the page's main scroller — the document when it scrolls along that axis,
   else the largest visible element that does (an app whose body is fixed and whose main column scrolls). It is
   *not* what lies under the screen's centre: that is often an inner list box or a carousel, which a person moves
   only by putting a thumb on it. With ``reveal`` (``find``): the innermost container that clips the first element
   whose text (or aria-label, or value) holds that text — exact text first — towards that element; a container that
   is itself off screen gives way to the one around it. The start point is the container's visible centre (or the
   point given), moved until the element under it belongs to that container, so the touch moves that container and
   not a nested one (a grid inside the page).
2. The drag is at most ``SCROLL_MAX_REACH`` of the container's visible extent and stays inside it.
3. :data:`REST_JS` (``scroll_rest.js``) waits until no ``scroll`` event has fired for :data:`REST_QUIET_MS` (a fling
   decelerating, smooth scrolling, snapping), at most :data:`REST_MAX_MS`; then :data:`MEASURE_JS` reads the
   container's offset again: the distance it moved and whether it reached the end.

A container already at its end in that direction is not dragged at all: the reply says it did not move.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

from phonewire.devices.base import SCROLL_MAX_REACH
from phonewire.devices.web import js
from phonewire.devices.web.roles import AX_TO_ROLE
from phonewire.protocol.folding import EDGE_PUNCTUATION, QUOTE_MARKS, fold

#: The content counts as resting once no scroll event fired for this long (ms), bounded by REST_MAX_MS.
REST_QUIET_MS: Final = 120
REST_MAX_MS: Final = 3000
#: A drag shorter than this fraction of the container is mostly touch slop: ``find`` never asks for less.
MIN_REVEAL_AMOUNT: Final = 0.2

#: ``find`` (reveal): an element more than this many container extents away is approached by setting the
#: container's scroll offset (a jump, as ``scrollIntoView`` does: the page sees scroll events, no touches) to leave it
#: JUMP_LEAD extents from the container's centre, just out of view; the touch drag then brings it in.  Without the
#: jump, row 150 of the demo's 300 took 13 drags (~15 s); with it, one jump and a drag or two.
JUMP_EXTENTS: Final = 1.5
JUMP_LEAD: Final = 0.9

# The plan (scroll_plan.js) runs after the walker's spec layer in one function, so `find` tells an element's role
# with the walker's one role table; its constants come in as its last argument.
_PLAN: Final = js.bundle(["walker_spec.js"], returns="scroll_plan.js") + "()"
_PLAN_CONSTANTS: Final = {
    "min": MIN_REVEAL_AMOUNT, "jump": JUMP_EXTENTS, "lead": JUMP_LEAD, "quotes": QUOTE_MARKS, "edges": EDGE_PUNCTUATION,
}  # fmt: skip

#: Resolves once no scroll event fired for REST_QUIET_MS (a fling or smooth scroll has ended), at most REST_MAX_MS.
REST_JS: Final = f"({js.load('scroll_rest.js').strip()})({REST_QUIET_MS}, {REST_MAX_MS})"
#: The chosen container's offset now: ``[position, max]``.
MEASURE_JS: Final = js.load("scroll_measure.js").strip()


def reveal_terms(terms: Sequence[str] | None) -> list[list[list[Any]]] | None:
    """``find``'s selector terms (``key=value``, ``||`` between alternatives) as the page checks them: alternatives
    of ``[key, value]``, with a role as the Chromium roles that map to it (roles.py).  A term the page cannot check
    (a boolean, a role such as ``Other`` that any element may have) is left out: the agent checks every term on
    the snapshot anyway."""
    if not terms:
        return None
    alternatives: list[list[list[Any]]] = [[]]
    for term in terms:
        if term == "||":
            alternatives.append([])
            continue
        key, _, value = term.partition("=")
        if key == "role":
            roles = ax_roles(value)
            if roles:
                alternatives[-1].append([key, roles])
        elif key in ("label", "text") and value:  # folded, as the page folds its text (the agent checks exactly)
            alternatives[-1].append([key, fold(value)])
        elif key in ("id", "value") and value:
            alternatives[-1].append([key, " ".join(value.split()) if key != "id" else value])
    kept = [a for a in alternatives if a]
    return kept or None


def ax_roles(role: str) -> list[str]:
    """The Chromium roles (and the walk's own ``clickable`` / ``StaticText``) that show as ``role``."""
    want = role.strip().lower()
    found = sorted(ax for ax, mapped in AX_TO_ROLE.items() if mapped.lower() == want)
    if want in ("securetextfield", "textview"):  # a password input, a textarea: textboxes to the page
        found.append("textbox")
    if want in ("other", "group", "scrollview", "application", "window", "webview"):
        return []  # any element may be one
    return found


def plan_expression(
    direction: str, amount: float, at: tuple[float, float] | None, reveal: Sequence[str] | None, *, only: bool = False
) -> str:
    """The scroll plan's evaluation.  ``only`` (WebDriver's find off screen): move only towards what ``reveal``
    locates (or a virtual list's jump); else no move, ``located: false``."""
    x, y = at if at is not None else (None, None)
    args = [x, y, direction, amount, SCROLL_MAX_REACH, reveal_terms(reveal), only, _PLAN_CONSTANTS]
    return f"({_PLAN})({', '.join(json.dumps(a) for a in args)})"


def outcome(plan: dict[str, Any], after: object) -> dict[str, Any]:
    """The reply of a scroll from its plan and the offset measured at rest (``None``: the container went away)."""
    direction = str(plan["dir"])
    sign = 1 if direction in ("down", "right") else -1
    out: dict[str, Any] = {"direction": direction, "container": plan.get("container")}
    if plan.get("found") is not None and plan.get("found"):
        out["revealed"] = bool(plan.get("revealed"))
    if plan.get("located") is False:
        out["located"] = False
    if isinstance(after, list) and len(after) in (2, 3):
        position, limit = float(after[0]), float(after[1])
        scale = float(after[2]) if len(after) == 3 and float(after[2]) > 0 else 1.0  # (CSS px to screen points)
        out["distance"] = round(max(0.0, (position - float(plan["before"])) * sign * scale), 1)
        out["atEnd"] = position >= limit - 1 if sign > 0 else position <= 1
    else:
        out["distance"] = None
        out["atEnd"] = None
    return out
