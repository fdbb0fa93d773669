"""W3C ``POST /actions`` → phone gestures.  Pure: a decoded request body in, a list of gestures out.

The W3C model is a table of input sources (``pointer``, ``key``, ``none``), each a list of actions, run tick by
tick: tick *i* runs every source's *i*-th action and lasts as long as the longest of them.  This module replays
that table on a clock and reads what one finger did:

* each press of the pointer (``pointerDown`` … ``pointerUp``) is a **stroke**: the points it passed, with times;
* a stroke that stays within :data:`SLOP_PT` of where it began is a **tap** (held less than
  :data:`LONG_PRESS_MS`) or a **long press** (held longer, for as long as it was held);
* a stroke that moves further is a **swipe** from its first to its last point, over the time it took;
* taps on one spot less than :data:`DOUBLE_TAP_GAP_MS` apart are one tap with a count (a double tap);
* ``key`` sources type their characters; WebDriver's Enter / Return / Backspace / Delete keys become key presses.

Pointer kinds ``touch``, ``mouse`` and ``pen`` are all a finger.  Two pointers down at once (a pinch) are
``unsupported operation``.  Coordinates are screen points; an ``origin`` of ``pointer`` is relative to the last
position, an element origin is relative to the element's centre (the caller resolves element ids first:
:func:`element_origins`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from phonewire.frontends.webdriver.errors import INVALID_ARGUMENT, UNSUPPORTED_OPERATION, WebDriverError

#: The W3C key of an element reference in JSON.
ELEMENT_KEY: Final = "element-6066-11e4-a52e-4f735466cecf"
SLOP_PT: Final = 10.0
LONG_PRESS_MS: Final = 500.0
DOUBLE_TAP_GAP_MS: Final = 300.0
MIN_SWIPE_MS: Final = 50.0

#: WebDriver's key code points that are phone keys (others in the private-use block are ignored).
SPECIAL_KEYS: Final[dict[str, str]] = {
    "\ue006": "return",
    "\ue007": "enter",
    "\ue003": "backspace",
    "\ue017": "delete",
}
_PRIVATE_KEYS: Final = range(0xE000, 0xE100)


@dataclass(frozen=True, slots=True)
class Tap:
    x: float
    y: float
    count: int = 1


@dataclass(frozen=True, slots=True)
class LongPress:
    x: float
    y: float
    duration_ms: float


@dataclass(frozen=True, slots=True)
class Swipe:
    x1: float
    y1: float
    x2: float
    y2: float
    duration_ms: float


@dataclass(frozen=True, slots=True)
class TypeText:
    text: str


@dataclass(frozen=True, slots=True)
class PressKey:
    key: str


Gesture = Tap | LongPress | Swipe | TypeText | PressKey


def _bad(message: str) -> WebDriverError:
    return WebDriverError(INVALID_ARGUMENT, message)


def _sources(body: Mapping[str, Any]) -> list[dict[str, Any]]:
    sources = body.get("actions")
    if not isinstance(sources, list) or not all(isinstance(s, dict) for s in sources):
        raise _bad("actions must be a list of input sources")
    for s in sources:
        if s.get("type") not in ("pointer", "key", "none", "wheel"):
            raise _bad(f"unknown input source type {s.get('type')!r}")
        if not isinstance(s.get("actions", []), list):
            raise _bad("an input source's actions must be a list")
    return sources


def element_origins(body: Mapping[str, Any]) -> set[str]:
    """The element ids used as pointer origins (to be resolved to centres before :func:`gestures`)."""
    ids: set[str] = set()
    for source in _sources(body):
        for action in source.get("actions", []):
            origin = action.get("origin") if isinstance(action, dict) else None
            if isinstance(origin, dict) and isinstance(origin.get(ELEMENT_KEY), str):
                ids.add(origin[ELEMENT_KEY])
    return ids


def _number(action: Mapping[str, Any], key: str, default: float = 0.0) -> float:
    value = action.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise _bad(f"{action.get('type')} {key} must be a number, got {value!r}")
    return float(value)


@dataclass(slots=True)
class _Stroke:
    points: list[tuple[float, float, float]]  # (ms, x, y)
    down_ms: float
    up_ms: float = 0.0


def gestures(body: Mapping[str, Any], centres: Mapping[str, tuple[float, float]] | None = None) -> list[Gesture]:
    """The gestures a W3C actions body performs, in time order.  ``centres``: element id → its centre now."""
    sources = _sources(body)
    centres = centres or {}
    ticks = max((len(s.get("actions", [])) for s in sources), default=0)
    pointers = [s for s in sources if s.get("type") == "pointer"]
    positions = {id(s): (0.0, 0.0) for s in pointers}
    open_strokes: dict[int, _Stroke] = {}
    strokes: list[_Stroke] = []
    keyed: list[tuple[float, Gesture]] = []
    clock = 0.0
    for tick in range(ticks):
        duration = 0.0
        for source in sources:
            actions = source.get("actions", [])
            if tick >= len(actions):
                continue
            action = actions[tick]
            if not isinstance(action, dict):
                raise _bad("each action must be an object")
            kind = action.get("type")
            if kind == "pause":
                duration = max(duration, _number(action, "duration"))
            elif source.get("type") == "pointer":
                duration = max(duration, _pointer(action, source, clock, positions, open_strokes, strokes, centres))
            elif source.get("type") == "key":
                _key(action, clock, keyed)
            # "none" and "wheel" sources only pause (a phone has no wheel)
        clock += duration
        if len(open_strokes) > 1:
            raise WebDriverError(UNSUPPORTED_OPERATION, "only one pointer may be down at a time (no multi-touch)")
    for stroke in open_strokes.values():  # never released: it ends with the actions
        stroke.up_ms = clock
        strokes.append(stroke)
    timed: list[tuple[float, Gesture]] = [*keyed, *((s.down_ms, _classify(s)) for s in strokes)]
    timed.sort(key=lambda item: item[0])
    return _merge([g for _, g in timed], [t for t, _ in timed])


def _pointer(  # noqa: PLR0917 - the replay's state, passed down from one loop
    action: Mapping[str, Any],
    source: Mapping[str, Any],
    clock: float,
    positions: dict[int, tuple[float, float]],
    open_strokes: dict[int, _Stroke],
    strokes: list[_Stroke],
    centres: Mapping[str, tuple[float, float]],
) -> float:
    key = id(source)
    kind = action.get("type")
    if kind == "pointerMove":
        duration = _number(action, "duration")
        x, y = _number(action, "x"), _number(action, "y")
        origin = action.get("origin", "viewport")
        if origin == "pointer":
            x, y = positions[key][0] + x, positions[key][1] + y
        elif isinstance(origin, dict):
            element = origin.get(ELEMENT_KEY)
            if not isinstance(element, str) or element not in centres:
                raise _bad(f"unknown element origin {origin!r}")
            cx, cy = centres[element]
            x, y = cx + x, cy + y
        elif origin != "viewport":
            raise _bad(f"unknown pointer origin {origin!r}")
        positions[key] = (x, y)
        if key in open_strokes:
            open_strokes[key].points.append((clock + duration, x, y))
        return duration
    if kind == "pointerDown":
        x, y = positions[key]
        open_strokes[key] = _Stroke([(clock, x, y)], clock)
        return 0.0
    if kind == "pointerUp":
        stroke = open_strokes.pop(key, None)
        if stroke is not None:
            stroke.up_ms = clock
            strokes.append(stroke)
        return 0.0
    if kind == "pointerCancel":
        open_strokes.pop(key, None)
        return 0.0
    raise _bad(f"unknown pointer action {kind!r}")


def _key(action: Mapping[str, Any], clock: float, keyed: list[tuple[float, Gesture]]) -> None:
    kind = action.get("type")
    if kind == "keyUp":
        return
    if kind != "keyDown":
        raise _bad(f"unknown key action {kind!r}")
    value = action.get("value")
    if not isinstance(value, str) or len(value) != 1:
        raise _bad(f"keyDown value must be one character, got {value!r}")
    if value in SPECIAL_KEYS:
        keyed.append((clock, PressKey(SPECIAL_KEYS[value])))
    elif ord(value) not in _PRIVATE_KEYS:
        keyed.append((clock, TypeText(value)))


def _classify(stroke: _Stroke) -> Gesture:
    _, x0, y0 = stroke.points[0]
    _, x1, y1 = stroke.points[-1]
    moved = max(math.hypot(x - x0, y - y0) for _, x, y in stroke.points)
    held = stroke.up_ms - stroke.down_ms
    if moved <= SLOP_PT:
        return LongPress(x0, y0, held) if held >= LONG_PRESS_MS else Tap(x0, y0)
    return Swipe(x0, y0, x1, y1, max(held, MIN_SWIPE_MS))


def _merge(items: list[Gesture], times: list[float]) -> list[Gesture]:
    """Adjacent taps on one spot, close in time, become one tap with a count; adjacent characters one text."""
    merged: list[Gesture] = []
    last_tap_ms = -math.inf
    for gesture, at in zip(items, times, strict=True):
        previous = merged[-1] if merged else None
        if (
            isinstance(gesture, Tap)
            and isinstance(previous, Tap)
            and math.hypot(gesture.x - previous.x, gesture.y - previous.y) <= SLOP_PT
            and at - last_tap_ms <= DOUBLE_TAP_GAP_MS + LONG_PRESS_MS
        ):
            merged[-1] = Tap(previous.x, previous.y, previous.count + 1)
        elif isinstance(gesture, TypeText) and isinstance(previous, TypeText):
            merged[-1] = TypeText(previous.text + gesture.text)
        else:
            merged.append(gesture)
        if isinstance(gesture, Tap):
            last_tap_ms = at
    return merged
