"""Request validation: a JSON object in, a typed :class:`Request` out, or INVALID_REQUEST with a hint.

Pure: no I/O.  The runner calls :func:`parse_request` on every body before anything else happens.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from phonewire.protocol import commands as c
from phonewire.protocol.errors import APP_BUNDLE_ID_REQUIRED, INVALID_REQUEST, ProtocolError

# field name -> expected kind
_NUMBER = "number"
_INT = "integer"
_STRING = "string"
_BOOL = "boolean"
_STRINGS = "array of strings"

FIELD_TYPES: dict[str, str] = {
    "command": _STRING,
    "commandId": _STRING,
    "statusCommandId": _STRING,
    "appBundleId": _STRING,
    "x": _NUMBER,
    "y": _NUMBER,
    "numberOfTaps": _INT,
    "fromX": _NUMBER,
    "fromY": _NUMBER,
    "toX": _NUMBER,
    "toY": _NUMBER,
    "durationMs": _NUMBER,
    "holdMs": _NUMBER,
    "settle": _NUMBER,
    "text": _STRING,
    "button": _STRING,
    "url": _STRING,
    # the element a tap, long press or typing is aimed at (extension: a node's serial from the last snapshot)
    "element": _STRING,
    "mark": _STRING,
    # launchApp (extension): the app's stored data cleared before it starts; its language and time zone
    "clearState": _BOOL,
    "locale": _STRING,
    "timezone": _STRING,
    # key and setValue (extensions)
    "key": _STRING,
    "modifiers": _STRINGS,
    "values": _STRINGS,
    "add": _BOOL,
    # scroll (extension)
    "direction": _STRING,
    "amount": _NUMBER,
    "reveal": _STRING,
    "revealTerms": _STRINGS,
    "revealOnly": _BOOL,
    # screenshot options (extension)
    "format": _STRING,
    "scale": _STRING,
    "quality": _INT,
    # logs / network cursor, recordStart file (extensions)
    "since": _INT,
    "path": _STRING,
    # the phone's repertoire (extensions): selectText, rotate, setLocation, setConnectivity, setPermissions
    "mode": _STRING,
    "start": _INT,
    "end": _INT,
    "orientation": _STRING,
    "latitude": _NUMBER,
    "longitude": _NUMBER,
    "accuracy": _NUMBER,
    "connectivity": _STRING,
    "setting": _STRING,
    "permissions": _STRINGS,
    "appearance": _STRING,
    # pickFile: the files handed to the page's open file chooser (paths on the phone's machine)
    "files": _STRINGS,
    # pinch: how far apart the two fingers end, as a multiple of where they start (above 1: spread, zoom in)
    "pinchScale": _NUMBER,
}

#: Fields each command needs (besides ``command``).  appBundleId is checked separately (its own code).
REQUIRED: dict[str, tuple[str, ...]] = {
    c.TAP: ("x", "y"),
    c.LONG_PRESS: ("x", "y"),
    c.DRAG: ("fromX", "fromY", "toX", "toY"),
    c.TYPE: ("text",),
    c.BUTTON: ("button",),
    c.OPEN_URL: ("url",),
    c.KEY: ("key",),
    c.SET_VALUE: ("x", "y", "values"),
    c.SCROLL: ("direction",),
    c.RECORD_START: ("path",),
    c.SELECT_TEXT: ("x", "y"),
    c.SET_CLIPBOARD: ("text",),
    c.ROTATE: ("orientation",),
    c.SET_CONNECTIVITY: ("connectivity",),
    c.SET_PERMISSIONS: ("setting", "permissions"),
    c.SET_APPEARANCE: ("appearance",),
    c.PICK_FILE: ("files",),
    c.PINCH: ("x", "y", "pinchScale"),
}

SCREENSHOT_FORMATS = ("png", "jpeg")
SCREENSHOT_SCALES = ("device", "css")
#: The long side of a ``css`` screenshot at most (pixels): what the largest model image inputs take without resizing
#: them.  A screen larger in points (a tablet at density 1) is scaled down further to fit; ``device`` is never capped.
CSS_MAX_SIDE = 1568


def css_image_size(width_pt: float, height_pt: float) -> tuple[int, int]:
    """The pixel size of a ``css`` screenshot of a screen ``width_pt`` × ``height_pt`` points: one pixel per point,
    scaled down to fit :data:`CSS_MAX_SIDE` on the long side (each side at least 1)."""
    factor = min(1.0, CSS_MAX_SIDE / max(width_pt, height_pt, 1.0))
    return max(1, round(width_pt * factor)), max(1, round(height_pt * factor))


MAX_TAPS = 20
#: A scroll's ``amount``: the fraction of the scrolled container's visible extent (the screen for the page) that the
#: finger drags (the wire command ``scroll``; the device caps the drag's reach so that it never starts on an edge).
MIN_SCROLL_AMOUNT = 0.01
MAX_SCROLL_AMOUNT = 1.0
SCROLL_DIRECTIONS = ("up", "down", "left", "right")
MAX_DURATION_MS = 60_000.0
#: The agent operation ``wait``: how long it waits by default and at most (ms).
DEFAULT_WAIT_MS = 5_000
MAX_WAIT_MS = 60_000
#: The agent operation ``find``: how many scrolls it tries by default and at most before NOT_FOUND (each is one
#: ``scroll`` command and one snapshot; at the end of the content it stops earlier).
DEFAULT_FIND_SCROLLS = 30
MAX_FIND_SCROLLS = 200
#: Coordinates (points) beyond this are no screen position: refused before they reach a device, where a value past
#: float32's range turned into a gesture that never ends.
MAX_COORDINATE = 100_000.0
#: ``selectText``'s character offsets, and a position's accuracy in metres (``setLocation``).
MAX_TEXT_OFFSET = 10_000_000
MAX_ACCURACY_M = 100_000.0
#: ``pinch``'s scale: the fingers end this many times as far apart as they start (0.1: pinched together; 10: spread).
MIN_PINCH_SCALE = 0.1
MAX_PINCH_SCALE = 10.0
#: Inclusive bounds of every numeric field, checked after its type (docs/protocol.md's request table says the same;
#: tests/protocol/test_protocol_doc.py compares the two).
NUMBER_BOUNDS: dict[str, tuple[float, float]] = {
    "x": (-MAX_COORDINATE, MAX_COORDINATE),
    "y": (-MAX_COORDINATE, MAX_COORDINATE),
    "fromX": (-MAX_COORDINATE, MAX_COORDINATE),
    "fromY": (-MAX_COORDINATE, MAX_COORDINATE),
    "toX": (-MAX_COORDINATE, MAX_COORDINATE),
    "toY": (-MAX_COORDINATE, MAX_COORDINATE),
    "numberOfTaps": (1, MAX_TAPS),
    "durationMs": (0, MAX_DURATION_MS),
    "holdMs": (0, MAX_DURATION_MS),
    "settle": (0, MAX_DURATION_MS),
    "quality": (1, 100),
    "amount": (MIN_SCROLL_AMOUNT, MAX_SCROLL_AMOUNT),
    "since": (0, c.MAX_SEQ),
    "start": (0, MAX_TEXT_OFFSET),
    "end": (0, MAX_TEXT_OFFSET),
    "latitude": (-90, 90),
    "longitude": (-180, 180),
    "accuracy": (0, MAX_ACCURACY_M),
    "pinchScale": (MIN_PINCH_SCALE, MAX_PINCH_SCALE),
}
#: A drag's parts run one after the other: together they stay below the command's budget (75 s).
GESTURE_PARTS: tuple[str, ...] = ("holdMs", "durationMs", "settle")
MAX_GESTURE_MS = MAX_DURATION_MS
_BOUND_HINTS: dict[str, str] = {
    "amount": "A fraction of the container's visible extent, e.g. 0.6.",
    "numberOfTaps": "Use 1 for a tap, 2 for a double tap.",
    "quality": "JPEG quality: 80 is a good default.",
    "since": "Send the `next` of the previous reply (0 for everything kept).",
    "latitude": "Latitude is degrees north of the equator, -90 (south pole) to 90 (north pole): e.g. 48.8584.",
    "longitude": "Longitude is degrees east of Greenwich, -180 to 180: e.g. 2.2945.",
    "accuracy": "The accuracy radius in metres, e.g. 10.",
    "pinchScale": "Above 1 spreads the fingers (zoom in: 2 doubles their distance), below 1 pinches (0.5 halves it).",
    "start": "Character offsets count from 0 in the element's text.",
    "end": "Character offsets count from 0 in the element's text.",
}
#: ``launchApp``'s ``locale`` (a BCP 47 language tag: language, then script, region and variants) and ``timezone`` (an
#: IANA time zone name, or UTC): their shape is checked here; whether the phone knows the zone is the device's word.
LOCALE_PATTERN = re.compile(
    r"[A-Za-z]{2,3}(-[A-Za-z]{4})?(-([A-Za-z]{2}|[0-9]{3}))?(-([A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}))*"
)
TIMEZONE_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9_+-]{0,30}(/[A-Za-z0-9][A-Za-z0-9_+-]{0,30}){0,2}")
LOCALE_HINT = "Give a BCP 47 language tag: en-US, fr-FR, de, pt-BR, zh-Hant-TW (a hyphen, not an underscore)."
TIMEZONE_HINT = "Give an IANA time zone name: Europe/Paris, America/New_York, Asia/Tokyo, or UTC."
#: ``commandId`` / ``statusCommandId``: printable ASCII that needs no escaping anywhere (a uuid4 hex qualifies).
ID_PATTERN = re.compile(r"[A-Za-z0-9._:-]{1,128}")
ID_CHARSET = "A-Z a-z 0-9 . _ : -"
MAX_ID_LENGTH = 128


def _invalid(message: str, hint: str | None = None) -> ProtocolError:
    return ProtocolError(INVALID_REQUEST, message, hint)


@dataclass(frozen=True, slots=True)
class Request:
    command: str
    command_id: str | None = None
    app_id: str | None = None
    args: dict[str, Any] = field(default_factory=dict)

    @property
    def read_only(self) -> bool:
        return self.command in c.READ_ONLY


def _finite(value: object) -> bool:
    """Finite as a float; an integer too large for a float is not (it would overflow every conversion)."""
    try:
        return math.isfinite(float(value))  # type: ignore[arg-type]
    except OverflowError:
        return False


def _check_type(name: str, value: object) -> None:
    kind = FIELD_TYPES[name]
    if kind == _STRING:
        good = isinstance(value, str)
    elif kind == _BOOL:
        good = isinstance(value, bool)
    elif kind == _STRINGS:
        good = isinstance(value, list) and all(isinstance(v, str) for v in value)
        if good and not 1 <= len(value) <= c.MAX_VALUES:  # type: ignore[arg-type]
            raise _invalid(
                f"field {name!r} must hold 1 to {c.MAX_VALUES} strings",
                "Name at least one option." if name == "values" else f"Send 1 to {c.MAX_VALUES} strings.",
            )
    elif kind == _INT:
        good = isinstance(value, int) and not isinstance(value, bool)
    else:
        good = isinstance(value, (int, float)) and not isinstance(value, bool)
        if good and not _finite(value):
            raise _invalid(f"field {name!r} must be a finite number", "Send coordinates as plain numbers.")
    if not good:
        shown = "an array of strings" if kind == _STRINGS else f"a {kind}"
        raise _invalid(f"field {name!r} must be {shown}, got {type(value).__name__}", f"Send {name} as {shown} in JSON."
                       if kind == _STRINGS else f"Send {name} as a JSON {kind}.")  # fmt: skip


def _bound_hint(name: str) -> str:
    if name in _BOUND_HINTS:
        return _BOUND_HINTS[name]
    if NUMBER_BOUNDS[name][1] == MAX_DURATION_MS:
        return f"Give {name} in milliseconds, at most {MAX_DURATION_MS:.0f}."
    return "Coordinates are points on the screen: take them from a snapshot's rects (or the viewport)."


def _check_key(args: dict[str, Any]) -> None:
    key, modifiers = args.get("key"), args.get("modifiers") or []
    unknown = [m for m in modifiers if m not in c.MODIFIERS]
    if unknown or len(set(modifiers)) != len(modifiers):
        raise _invalid(f"unsupported modifiers {modifiers!r}", f"Modifiers: {', '.join(c.MODIFIERS)}, each once.")
    if key not in (c.COMBO_KEYS if modifiers else c.KEYS):
        known = "a letter, a digit, enter, backspace or " + ", ".join(c.KEYS) if modifiers else ", ".join(c.KEYS)
        raise _invalid(f"unknown key {key!r}" + (" for a combination" if modifiers else ""), f"Keys: {known}.")


_CHOICES: dict[str, tuple[str, tuple[str, ...]]] = {
    c.SELECT_TEXT: ("mode", c.SELECT_MODES),
    c.ROTATE: ("orientation", c.ORIENTATIONS),
    c.SET_CONNECTIVITY: ("connectivity", c.CONNECTIVITY),
    c.SET_PERMISSIONS: ("setting", c.PERMISSION_SETTINGS),
    c.SET_APPEARANCE: ("appearance", c.APPEARANCES),
}


def _check_repertoire(command: str, args: dict[str, Any]) -> None:
    """The choices of the repertoire's commands, and the fields that only make sense together."""
    if command in _CHOICES:
        name, choices = _CHOICES[command]
        if name in args and args[name] not in choices:
            raise _invalid(f"unknown {name} {args[name]!r}", f"{name}: {', '.join(choices)}.")
    if (
        command == c.SELECT_TEXT
        and args.get("mode") == "range"
        and not 0 <= args.get("start", -1) <= args.get("end", -2)
    ):
        raise _invalid("a range selection needs start <= end", "Give the characters' offsets: start and end.")
    if command == c.SET_LOCATION and ("latitude" in args) != ("longitude" in args):
        raise _invalid("setLocation needs latitude and longitude together", "Give both, or neither (location off).")
    if command == c.SET_PERMISSIONS:
        unknown = [p for p in args["permissions"] if p not in c.PERMISSIONS]
        if unknown:
            raise _invalid(f"unknown permission {unknown[0]!r}", f"Permissions: {', '.join(c.PERMISSIONS)}.")


def check_launch_options(args: dict[str, Any]) -> None:
    """``locale`` and ``timezone`` (when given) are a language tag and a time zone name in shape (INVALID_REQUEST with
    a hint otherwise: ``fr_FR``, ``+02:00``, ``Europe / Paris`` are not)."""
    for name, pattern, hint in (("locale", LOCALE_PATTERN, LOCALE_HINT), ("timezone", TIMEZONE_PATTERN, TIMEZONE_HINT)):
        value = args.get(name)
        if value is not None and not (isinstance(value, str) and pattern.fullmatch(value)):
            raise _invalid(f"{name} {str(value)[:80]!r} is no {'language tag' if name == 'locale' else 'time zone'}",
                           hint)  # fmt: skip


def _check_url(url: str) -> None:
    """A URL ``urllib`` can split, with a scheme and (when it names one) a port in range: ``http://[::1`` (an
    unclosed IPv6 host) is refused here, before any device tries to open it."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (raises ValueError for a port out of range or not a number)
    except ValueError as exc:
        raise _invalid(
            f"url {url[:200]!r} is not a URL: {exc}",
            "Send a whole URL such as https://example.com/path (an IPv6 host goes in brackets: http://[::1]:8080/).",
        ) from exc
    if not parts.scheme:
        raise _invalid(f"url {url[:200]!r} has no scheme", "Send a whole URL such as https://example.com/path.")


def _check_choices(command: str, args: dict[str, Any]) -> None:
    """The fields that name one of a fixed set (a button, a direction, a key and its modifiers, a screenshot's format
    and scale, the repertoire's choices) and the URL of openUrl."""
    button = args.get("button")
    if command == c.BUTTON and button not in c.BUTTONS:
        raise _invalid(f"unknown button {button!r}", f"Buttons: {', '.join(c.BUTTONS)}.")
    if command == c.SCROLL and args.get("direction") not in SCROLL_DIRECTIONS:
        raise _invalid(f"unknown direction {args.get('direction')!r}", f"Directions: {', '.join(SCROLL_DIRECTIONS)}.")
    if command == c.KEY:
        _check_key(args)
    _check_repertoire(command, args)
    if command == c.OPEN_URL:
        _check_url(str(args["url"]))
    if command == c.LAUNCH_APP:
        check_launch_options(args)
    if args.get("format") is not None and args["format"] not in SCREENSHOT_FORMATS:
        raise _invalid(f"format must be one of {SCREENSHOT_FORMATS}", f"Use {' or '.join(SCREENSHOT_FORMATS)}.")
    if args.get("scale") is not None and args["scale"] not in SCREENSHOT_SCALES:
        raise _invalid(f"scale must be one of {SCREENSHOT_SCALES}", f"Use {' or '.join(SCREENSHOT_SCALES)}.")


def parse_request(obj: object) -> Request:
    """Validate one decoded request body.  Unknown fields are ignored (forward compatibility)."""
    if not isinstance(obj, dict):
        raise _invalid("request body must be a JSON object", 'Send {"command": "...", ...}.')
    command = obj.get("command")
    if not isinstance(command, str):
        raise _invalid("request lacks a string 'command'", f"Known commands: {', '.join(c.ALL_COMMANDS)}.")
    if command not in c.ALL_COMMANDS:
        raise _invalid(f"unknown command {command!r}", f"Known commands: {', '.join(c.ALL_COMMANDS)}.")
    for name, value in obj.items():
        if name in FIELD_TYPES and value is not None:
            _check_type(name, value)
    for name in ("commandId", "statusCommandId"):
        value = obj.get(name)
        if isinstance(value, str) and not ID_PATTERN.fullmatch(value):
            raise _invalid(
                f"{name} must be 1..{MAX_ID_LENGTH} characters of {ID_CHARSET}, got {value[:40]!a}",
                "A uuid4 hex string is a good commandId.",
            )
    app_id = obj.get("appBundleId")
    if (command in c.APP_SCOPED or command in c.APP_LIFECYCLE) and not app_id:
        raise ProtocolError(
            APP_BUNDLE_ID_REQUIRED,
            f"{command} needs appBundleId",
            "Name the target app explicitly (listApps shows the running ones); it is never inferred.",
        )
    for name in REQUIRED.get(command, ()):
        if obj.get(name) is None:
            raise _invalid(f"{command} needs field {name!r}", f"{command} takes {', '.join(REQUIRED[command])}.")
    args: dict[str, Any] = {
        k: v for k, v in obj.items() if k in FIELD_TYPES and k not in ("command", "commandId", "appBundleId")
    }
    args = {k: v for k, v in args.items() if v is not None}
    for name, (low, high) in NUMBER_BOUNDS.items():
        value = args.get(name)
        if value is not None and not low <= value <= high:
            raise _invalid(f"{name} must be between {low:g} and {high:g}, got {value:g}", _bound_hint(name))
    gesture_ms = sum(float(args.get(name) or 0) for name in GESTURE_PARTS)
    if gesture_ms > MAX_GESTURE_MS:  # each part within its bound, together past the command's budget
        raise _invalid(
            f"{' + '.join(GESTURE_PARTS)} must be at most {MAX_GESTURE_MS:.0f} ms together, got {gesture_ms:g}",
            "Shorten the hold or the settle: a whole gesture must finish well within its budget.",
        )
    _check_choices(command, args)
    return Request(command=command, command_id=obj.get("commandId"), app_id=app_id, args=args)
