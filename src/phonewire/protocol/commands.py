"""Command kinds: names, budgets, client windows, and the sets the runner and host decide by.

Budgets are the runner-side watchdog budget of one command, measured from the moment the runner accepts it.
Client windows are the whole-transport deadline a host gives one send of that command.  The invariant that the
rest of the system depends on: **every client window strictly exceeds the matching runner budget**, so the host
always outlasts the runner's own verdict (COMMAND_TIMED_OUT) instead of swallowing it as a transport timeout.

``PHONEWIRE_TIME_SCALE`` (float, default 1) multiplies every budget, window and the wedge threshold, so tests
can use short budgets while the defaults stay those of the protocol.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Final

from phonewire import versions

#: Defined once, in the leaf module phonewire/versions.py (the CLI's thin client reads it there too).
PROTOCOL_VERSION: Final = versions.PROTOCOL_VERSION

# --- command names ------------------------------------------------------------------------------------
STATUS: Final = "status"
UPTIME: Final = "uptime"
SHUTDOWN: Final = "shutdown"
VIEWPORT: Final = "viewport"
TAP: Final = "tap"
LONG_PRESS: Final = "longPress"
DRAG: Final = "drag"
TYPE: Final = "type"
KEYBOARD_RETURN: Final = "keyboardReturn"
KEYBOARD_DELETE: Final = "keyboardDelete"
SNAPSHOT: Final = "snapshot"
BUTTON: Final = "button"
SCREENSHOT: Final = "screenshot"
LAUNCH_APP: Final = "launchApp"
TERMINATE_APP: Final = "terminateApp"
LIST_APPS: Final = "listApps"
OPEN_URL: Final = "openUrl"
RESET: Final = "reset"
KEY: Final = "key"
SET_VALUE: Final = "setValue"
SCROLL: Final = "scroll"
LOGS: Final = "logs"
NETWORK: Final = "network"
RECORD_START: Final = "recordStart"
RECORD_STOP: Final = "recordStop"
# the phone's repertoire (issue 24): text selection, the clipboard, the phone's environment
SELECT_TEXT: Final = "selectText"
GET_CLIPBOARD: Final = "getClipboard"
SET_CLIPBOARD: Final = "setClipboard"
ROTATE: Final = "rotate"
SET_LOCATION: Final = "setLocation"
SET_CONNECTIVITY: Final = "setConnectivity"
SET_PERMISSIONS: Final = "setPermissions"
SET_APPEARANCE: Final = "setAppearance"
PICK_FILE: Final = "pickFile"
PINCH: Final = "pinch"
HIDE_KEYBOARD: Final = "hideKeyboard"

#: The v1 command set of the reference protocol.
V1_COMMANDS: Final = (
    VIEWPORT, TAP, LONG_PRESS, DRAG, TYPE, KEYBOARD_RETURN, KEYBOARD_DELETE, SNAPSHOT,
    STATUS, BUTTON, SCREENSHOT, SHUTDOWN,
)  # fmt: skip
#: phonewire's extensions (docs/protocol.md).
EXTENSION_COMMANDS: Final = (
    UPTIME, LAUNCH_APP, TERMINATE_APP, LIST_APPS, OPEN_URL, RESET, KEY, SET_VALUE, SCROLL,
    LOGS, NETWORK, RECORD_START, RECORD_STOP,
    SELECT_TEXT, GET_CLIPBOARD, SET_CLIPBOARD, ROTATE, SET_LOCATION, SET_CONNECTIVITY, SET_PERMISSIONS,
    SET_APPEARANCE, PICK_FILE, PINCH, HIDE_KEYBOARD,
)  # fmt: skip
ALL_COMMANDS: Final = V1_COMMANDS + EXTENSION_COMMANDS

#: Need ``appBundleId``; a live background target is re-fronted first (``reactivated``), except snapshot,
#: which answers APP_BACKGROUNDED; a notRunning target answers APP_NOT_AVAILABLE.
APP_SCOPED: Final = frozenset(
    {VIEWPORT, TAP, LONG_PRESS, DRAG, TYPE, KEYBOARD_RETURN, KEYBOARD_DELETE, SNAPSHOT, KEY, SET_VALUE, SCROLL,
     SELECT_TEXT, PICK_FILE, PINCH}
)  # fmt: skip
#: Need ``appBundleId`` but manage app lifecycle themselves (never reactivation semantics).
APP_LIFECYCLE: Final = frozenset({LAUNCH_APP, TERMINATE_APP})
#: Observation only: safe to resend, never carry ``warning``.
READ_ONLY: Final = frozenset({STATUS, UPTIME, VIEWPORT, SNAPSHOT, SCREENSHOT, LIST_APPS, LOGS, NETWORK, GET_CLIPBOARD})
#: Answered on the transport path, before the journal and the execution queue.
TRANSPORT_PATH: Final = frozenset({STATUS, UPTIME})
#: Replies the journal never retains (large, read-only, cheaper to replay).
NOT_RETAINED: Final = frozenset({SNAPSHOT, SCREENSHOT, LOGS, NETWORK})
#: Mutating commands: everything that is not read-only.
MUTATING: Final = frozenset(ALL_COMMANDS) - READ_ONLY

#: Hardware buttons a request may name.  Which of them a device has is the device's business
#: (absent ones answer UNSUPPORTED_OPERATION).
BUTTONS: Final = ("home", "back", "volumeUp", "volumeDown", "actionButton")
#: Keys of the ``key`` extension (a keyboard's navigation keys; enter and delete keep their v1 commands).
KEYS: Final = (
    "escape", "tab", "shiftTab", "arrowUp", "arrowDown", "arrowLeft", "arrowRight", "pageUp", "pageDown", "space",
    "lineStart", "lineEnd",
)  # fmt: skip
#: Modifiers a ``key`` may be pressed with (``modifiers``), and the keys that take them besides KEYS: a letter, a
#: digit, enter, backspace.  On an iOS phone the editing shortcuts are meta's (cmd), elsewhere ctrl's.
MODIFIERS: Final = ("ctrl", "shift", "alt", "meta")
COMBO_KEYS: Final = (
    *KEYS, "enter", "backspace", *"abcdefghijklmnopqrstuvwxyz", *"0123456789",
)  # fmt: skip
#: ``selectText``'s ``mode``: the element's whole text, the word at the point, everything (select all), or the
#: characters ``start`` … ``end`` of the element's text.
SELECT_MODES: Final = ("element", "word", "all", "range")
#: ``rotate``'s ``orientation``.
ORIENTATIONS: Final = ("portrait", "landscape")
#: ``setAppearance``'s ``appearance``: the system's light or dark mode (``prefers-color-scheme`` on the web).
APPEARANCES: Final = ("light", "dark")
#: ``setConnectivity``'s ``connectivity``: the network as the phone has it (the slow ones: DevTools' presets).
CONNECTIVITY: Final = ("online", "offline", "slow-3g", "fast-3g")
#: ``setPermissions``' ``setting`` and the permission names it takes (the W3C Permissions names; location is
#: geolocation, clipboard both clipboard-read and clipboard-write).
PERMISSION_SETTINGS: Final = ("grant", "deny", "reset")
PERMISSIONS: Final = (
    "geolocation", "location", "notifications", "camera", "microphone", "clipboard", "clipboard-read",
    "clipboard-write", "midi", "sensors", "persistent-storage", "background-sync", "screen-wake-lock",
)  # fmt: skip
#: Most options one ``setValue`` may name.
MAX_VALUES: Final = 100

# --- what a device keeps for ``logs`` / ``network`` and ``recordStart`` (bounded; docs/protocol.md) ---------------
#: Console messages, page errors (or logcat lines) a device keeps; older ones are dropped (``dropped`` says how many).
MAX_LOG_ENTRIES: Final = 1000
#: Finished requests a device keeps once network capture is on; older ones are dropped.
MAX_NETWORK_ENTRIES: Final = 1000
#: Requests still in flight that a device follows; past this the oldest is forgotten.
MAX_PENDING_REQUESTS: Final = 500
#: A log line's text and a request's URL are cut at this many characters (a cut one ends ``…[truncated: N chars]``).
MAX_ENTRY_CHARS: Final = 2000
#: A ``logs`` / ``network`` reply holds at most this many bytes of entries (JSON): the newest ones; ``truncated``
#: counts the older ones left out (a page flooding its console would otherwise send megabytes to the agent).
MAX_OBSERVED_REPLY_BYTES: Final = 128 * 1024
#: ``since``: the cursor of ``logs`` / ``network`` (every entry's ``seq`` is below it).
MAX_SEQ: Final = 2**53
#: A recording stops taking frames after this many seconds (the file stays valid).
MAX_RECORD_S: Final = 600

# --- budgets (seconds, unscaled) --------------------------------------------------------------------------
DEFAULT_BUDGET_S: Final = 30.0
DEFAULT_WINDOW_S: Final = 45.0
BUDGETS_S: Final[dict[str, tuple[float, float]]] = {
    # command: (runner budget, client window)
    TYPE: (55.0, 60.0),
    TAP: (75.0, 90.0),
    LONG_PRESS: (75.0, 90.0),
    DRAG: (75.0, 90.0),
    SCROLL: (75.0, 90.0),
    SNAPSHOT: (30.0, 45.0),
}
#: Abandoned work stuck longer than this (from its start) turns RUNNER_BUSY into RUNNER_WEDGED.
WEDGE_THRESHOLD_S: Final = 120.0
#: Short budget for status / uptime probes sent by a host (they are answered within milliseconds).
PROBE_WINDOW_S: Final = 5.0

JOURNAL_MAX_ENTRIES: Final = 64
JOURNAL_MAX_RETAINED_BYTES: Final = 16 * 1024
MAX_REQUEST_BYTES: Final = 2 * 1024 * 1024


def time_scale(environ: dict[str, str] | None = None) -> float:
    """``PHONEWIRE_TIME_SCALE`` as a positive finite float (default 1)."""
    raw = (environ if environ is not None else os.environ).get("PHONEWIRE_TIME_SCALE", "").strip()
    if not raw:
        return 1.0
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"PHONEWIRE_TIME_SCALE must be a number, got {raw!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"PHONEWIRE_TIME_SCALE must be a positive finite number, got {raw!r}")
    return value


@dataclass(frozen=True, slots=True)
class Timing:
    """Budgets for one runner or host, already multiplied by the time scale."""

    scale: float = 1.0

    def budget(self, command: str) -> float:
        return BUDGETS_S.get(command, (DEFAULT_BUDGET_S, DEFAULT_WINDOW_S))[0] * self.scale

    def window(self, command: str) -> float:
        return BUDGETS_S.get(command, (DEFAULT_BUDGET_S, DEFAULT_WINDOW_S))[1] * self.scale

    @property
    def wedge_threshold(self) -> float:
        return WEDGE_THRESHOLD_S * self.scale

    @property
    def probe_window(self) -> float:
        return PROBE_WINDOW_S * self.scale

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Timing:
        return cls(time_scale(environ))
