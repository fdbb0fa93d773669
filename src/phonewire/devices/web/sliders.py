"""``fill`` on a slider the page draws (an element with ``role=slider``, no ``<input type=range>``): its thumb dragged
to the value, as a person's finger sets it, and read back.

A native range input has its value set whole (controls.py). A drawn slider has no value to set: the page moves it
when its thumb is dragged (APG's color viewer slider takes a pointer drag on the thumb and nothing else; Quasar's
QSlider a pan on its track), and it says where it is by ``aria-valuenow``. So the finger goes down on the thumb
(slider.js finds it) and moves along the track to where the value should be, taken linearly between the track's
ends; the value the page then shows is read, and where it is not the one asked for (the track's ends are padded, the
thumb's centre is not its value's point), the line from place to value is fitted again from what the drags did and
the thumb dragged once more, at most :data:`MAX_DRAGS` times in all (and once more back to where the closest value
it took was, when it ended elsewhere); each drag goes a little past the point and back (:data:`OVERSHOOT`). A slider
whose steps do not hold the value ends on the closest it took, and the reply says which (``value``); one that did
not move at all is refused.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from typing import Any, Final

from phonewire.devices.web import js
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

_SLIDER: Final = js.load("slider.js")
#: The most drags one fill makes (the first, then corrections from what the drags before it did).
MAX_DRAGS: Final = 4
#: One drag's move (a finger's, slow enough that no page takes it for a fling).
DRAG_MS: Final = 240.0

#: How far past the value's point each drag goes before it comes back to it (screen points): a touch's first moves
#: within the browser's slop region (about 15 points) reach no page, so a correction of a few points would move
#: nothing; a drag that went past by this much and came back ends where it should, having moved.
OVERSHOOT: Final = 24.0

Read = Callable[[str], Awaitable[Any]]
Drag = Callable[[tuple[float, float], tuple[float, float]], Awaitable[None]]


def expression(point: tuple[float, float] | None) -> str:
    return f"({_SLIDER})({list(point) if point else 'null'})"


def overshoot(start: tuple[float, float], end: tuple[float, float], width: float, height: float) -> tuple[float, float]:
    """The point past ``end`` (away from ``start``, by :data:`OVERSHOOT`) a slider's drag goes by, kept on the
    screen (``width`` x ``height``)."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = (dx / length, dy / length) if (dx or dy) else (1.0, 0.0)
    x, y = end[0] + ux * OVERSHOOT, end[1] + uy * OVERSHOOT
    return min(max(x, 1.0), width - 1.0), min(max(y, 1.0), height - 1.0)


def _number(text: str, low: float, high: float) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise ProtocolError(e.INVALID_REQUEST, f"a slider takes a number, not {text!r}", f"E.g. `fill … {low:g}`.")
    if not low <= value <= high:
        raise ProtocolError(
            e.INVALID_REQUEST,
            f"{value:g} is outside the slider's range ({low:g} to {high:g}): nothing was dragged",
            f"Name a value from {low:g} to {high:g}.",
        )
    return value


class _Line:
    """Where along the track (screen px) a value shows: ``at + per * value``, fitted from what drags did."""

    def __init__(self, state: dict[str, Any]) -> None:
        x, y, w, h = (float(v) for v in state["track"])
        low, high = float(state["min"]), float(state["max"])
        span = (high - low) or 1.0
        self.vertical = bool(state["vertical"])
        # a vertical slider's values grow upwards (APG's temperature slider)
        self.per = -h / span if self.vertical else w / span
        self.at = (y + h if self.vertical else x) - self.per * low
        self.across = (x + w / 2) if self.vertical else (y + h / 2)
        self.seen: list[tuple[float, float]] = []  # (where a drag ended, the value the page then showed)

    def point(self, value: float, across: float | None = None) -> tuple[float, float]:
        along, other = self.at + self.per * value, self.across if across is None else across
        return (other, along) if self.vertical else (along, other)

    def learn(self, ended: float, value: float) -> None:
        """A drag that ended at ``ended`` left the value ``value``: the line goes through that point, with the
        slope of the last two drags when they differ."""
        if self.seen and self.seen[-1][1] != value and self.seen[-1][0] != ended:
            self.per = (ended - self.seen[-1][0]) / (value - self.seen[-1][1])
        self.seen.append((ended, value))
        self.at = ended - self.per * value


async def fill(read: Read, drag: Drag, point: tuple[float, float], text: str) -> dict[str, Any] | None:
    """Drag the slider at ``point`` (screen points) to the value ``text``; None when no slider is there.  ``read``
    evaluates a page expression, ``drag`` moves one finger between two screen points."""
    state = await read(expression(point))
    if not isinstance(state, dict):
        return None
    if state.get("disabled"):
        raise ProtocolError(e.INVALID_REQUEST, "the slider is disabled", "Enable it first (the page decides when).")
    if not isinstance(state.get("now"), (int, float)):
        raise ProtocolError(
            e.INVALID_REQUEST,
            "the slider says no value (aria-valuenow): where its thumb stands cannot be read back",
            "Drag it with `swipe X1 Y1 X2 Y2` and look at the screen.",
        )
    start = float(state["now"])
    now, drags, moved = await _dragged(read, drag, state, _number(text, float(state["min"]), float(state["max"])))
    if drags and not moved:
        raise ProtocolError(
            e.COMMAND_FAILED,
            f"the slider did not move: its thumb was dragged {drags} time(s) and it still says {start:g}",
            "The page may move it by keys only (`press arrowright`), or by taps on its track: try those.",
        )
    return {"type": "slider", "value": _said(now), "drags": drags}


def _said(value: float) -> str:
    """A value as the slider's number (``64``, ``12.5``, ``1250000``: never an exponent)."""
    return str(int(value)) if value.is_integer() else repr(value)


def _finger(state: dict[str, Any], line: _Line, now: float) -> tuple[float, float]:
    """Where the thumb is: its centre, else where the fitted line puts the value ``now``."""
    thumb = state.get("thumb")
    return (float(thumb[0]), float(thumb[1])) if isinstance(thumb, list) else line.point(now)


async def _dragged(read: Read, drag: Drag, state: dict[str, Any], target: float) -> tuple[float, int, bool]:
    """The drags towards ``target`` (at most MAX_DRAGS, then one back to the closest value seen): the value the
    slider ends on, how many drags it took, and whether any of them moved it (a stepped slider may end where it
    began, its closest value to ``target``)."""
    line, now, drags = _Line(state), float(state["now"]), 0
    start, moved = now, False
    best: tuple[float, tuple[float, float]] | None = None  # the closest value a drag left, and where it ended
    while drags < MAX_DRAGS and not math.isclose(now, target, rel_tol=1e-9, abs_tol=1e-9):
        finger = _finger(state, line, now)
        to = line.point(target, finger[0] if line.vertical else finger[1])
        await drag(finger, to)
        drags += 1
        state = await read(expression(None))
        if not isinstance(state, dict) or not isinstance(state.get("now"), (int, float)):
            return now, drags, True  # the page took the slider away (or its value): what it shows is in the diff
        before, now = now, float(state["now"])
        moved = moved or now != start or bool(state.get("moved"))
        if best is None or abs(now - target) < abs(best[0] - target):
            best = (now, to)
        if now == before and drags > 1:
            break  # a step it will not leave
        line.learn(to[1] if line.vertical else to[0], now)
    if best is not None and now != best[0]:  # back to where the closest value was (the fit overshot a step)
        await drag(_finger(state, line, now), best[1])
        drags += 1
        state = await read(expression(None))
        if isinstance(state, dict) and isinstance(state.get("now"), (int, float)):
            now = float(state["now"])
    return now, drags, moved
