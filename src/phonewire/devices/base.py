"""The Device interface: what the runner dispatches to.

A backend knows nothing of HTTP, journals or budgets; the runner knows nothing of CDP or adb.  Every method is a
coroutine (a backend whose library is synchronous runs its calls in a worker thread).  Failures are raised as
:class:`phonewire.protocol.ProtocolError` with the most specific code; anything else a backend lets escape is
reported by the runner as COMMAND_FAILED, and so is a RUNNER_BUSY, RUNNER_WEDGED or COMMAND_ALREADY_COMPLETED
raised by a backend (only the runner's gate and journal may say that nothing ran, or that it ran before).

App-scoped methods (``viewport`` … ``snapshot``) are only called by the runner for an app that
:meth:`Device.app_state` reported ``FOREGROUND`` — the runner re-fronts a background app with :meth:`activate`
first (and stamps the reply ``reactivated``), answers APP_BACKGROUNDED for a snapshot of a background app, and
APP_NOT_AVAILABLE for an app that is not running.  So a backend never launches an app as a side effect.

Coordinates are points of the device (CSS px on the web device), absolute in the app's space.
"""

from __future__ import annotations

import abc
import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import Rect, Snapshot

#: A scroll is a real touch drag: down, 300 ms of movement, a rest at the end (≈0 release velocity: the content
#: moves by the drag and no fling carries it further — measured on the demo list, without the rest it travelled
#: ~40% further), up.
SCROLL_DRAG_MS = 300.0
SCROLL_HOLD_MS = 50.0
SCROLL_REST_MS = 100.0
#: The longest scroll drag, as a fraction of the scrolled box (the 8% at each of its edges are never touched: bars,
#: system gesture areas, a neighbouring scroller).
SCROLL_MAX_REACH = 0.84

_NO_KEYS_HINT = "Tap the element on screen instead (snapshot shows what there is)."
_NO_REPERTOIRE_HINT = (
    "The web phone has it (--device web); on this device act through the screen instead (snapshot shows it)."
)
_NO_LOGS_HINT = "Logs, requests and video come from the web device (and logs from Android); use screenshots here."


class AppState(enum.Enum):
    FOREGROUND = "foreground"
    BACKGROUND = "background"
    NOT_RUNNING = "notRunning"


@dataclass(frozen=True, slots=True)
class AppInfo:
    app_id: str
    state: AppState
    title: str | None = None

    def to_wire(self) -> dict[str, Any]:
        out: dict[str, Any] = {"appBundleId": self.app_id, "state": self.state.value}
        if self.title is not None:
            out["title"] = self.title
        return out


@dataclass(frozen=True, slots=True)
class IssueCounters:
    """``suppressedIssues``: noise muted while commands ran (its growth across a mutation stamps ``warning``).
    ``recordedFailures``: real failures the device recorded, cumulative."""

    suppressed: int = 0
    recorded: int = 0


def scroll_drag(
    box: Rect, direction: str, amount: float, through: tuple[float, float] | None = None
) -> tuple[tuple[float, float], tuple[float, float]]:
    """The finger's start and end for scrolling the content of ``box`` (the visible part of the scroll container, in
    points) ``direction`` by ``amount`` of its extent: a drag the other way (scrolling down moves the finger up),
    centred on ``through`` (default the box's centre) and kept inside the box, at most :data:`SCROLL_MAX_REACH` of
    it long."""
    cx, cy = through if through is not None else box.center
    reach = min(amount, SCROLL_MAX_REACH)
    dx = {"left": -1, "right": 1}.get(direction, 0) * reach * box.width / 2
    dy = {"up": -1, "down": 1}.get(direction, 0) * reach * box.height / 2
    margin_x, margin_y = box.width * (1 - SCROLL_MAX_REACH) / 2, box.height * (1 - SCROLL_MAX_REACH) / 2
    # the drag's middle moves so that both its ends stay within the box's inner 84%
    cx = min(max(cx, box.x + margin_x + abs(dx)), box.x + box.width - margin_x - abs(dx))
    cy = min(max(cy, box.y + margin_y + abs(dy)), box.y + box.height - margin_y - abs(dy))
    return (cx + dx, cy + dy), (cx - dx, cy - dy)


@dataclass(frozen=True, slots=True)
class Screenshot:
    data: bytes
    format: str  # "png" | "jpeg"
    width: int
    height: int


class Device(abc.ABC):
    """One phone.  ``kind`` is the backend name reported in snapshot quality and status."""

    kind: str = "device"

    # -- lifecycle -------------------------------------------------------------------------------------
    @abc.abstractmethod
    async def open(self) -> None:
        """Acquire the device (start the browser, connect to adb ...).  Called once before serving."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Release everything :meth:`open` acquired.  Must not raise; safe to call twice."""

    def health(self) -> str | None:
        """``None`` when usable, else a one-line reason (e.g. the browser crashed).  Cheap, no I/O."""
        return None

    def counters(self) -> IssueCounters:
        return IssueCounters()

    def describe(self) -> dict[str, Any]:
        """Static facts for ``status`` (profile name, screen size ...)."""
        return {"kind": self.kind}

    # -- app state ---------------------------------------------------------------------------------------
    @abc.abstractmethod
    async def app_state(self, app_id: str) -> AppState:
        """State of ``app_id``; raises APP_UNKNOWN for an id the device can never run."""

    @abc.abstractmethod
    async def activate(self, app_id: str) -> None:
        """Bring a running background app to the foreground (never launches)."""

    @abc.abstractmethod
    async def launch_app(
        self, app_id: str, clear_state: bool = False, *, locale: str | None = None, timezone: str | None = None
    ) -> dict[str, Any]:
        """Launch (or relaunch) ``app_id`` into the foreground; returns ``{"appBundleId", "state", ...}``.

        ``clear_state``: stop it and clear its stored data first (what a fresh install has), ``"stateCleared": true``
        in the answer; a device that cannot clear an app's data refuses (UNSUPPORTED_OPERATION) and launches nothing.
        ``locale`` (a BCP 47 tag) and ``timezone`` (an IANA name): the language and time zone the app sees for this
        launch (a later launch without them has the phone's own); a zone the phone does not know is INVALID_REQUEST,
        an option the platform cannot give one app is UNSUPPORTED_OPERATION — either way nothing was launched."""

    @abc.abstractmethod
    async def terminate_app(self, app_id: str) -> dict[str, Any]:
        """Stop ``app_id``; returns ``{"appBundleId", "wasRunning"}``."""

    @abc.abstractmethod
    async def list_apps(self) -> list[AppInfo]:
        """Running apps and the installed/launchable ones."""

    @abc.abstractmethod
    async def open_url(self, url: str) -> dict[str, Any]:
        """Open ``url`` as the OS would; returns ``{"appBundleId"}`` of the app that shows it."""

    async def reset(self) -> dict[str, Any]:
        """Drop cached app targets / process-bound state so the next command reacquires them."""
        return {}

    # -- app-scoped (called only for a foreground app) -----------------------------------------------------
    @abc.abstractmethod
    async def viewport(self, app_id: str) -> Rect: ...

    async def page_shown(self, app_id: str) -> dict[str, float] | None:
        """How the app's page is shown on the screen (web: its scale, size and the part the screen shows, as a
        snapshot's ``quality.page`` says); None where the screen is not a view of a larger page."""
        return None

    @abc.abstractmethod
    async def tap(
        self, app_id: str, x: float, y: float, taps: int = 1, *, element: str | None = None, mark: str | None = None
    ) -> str | None:
        """Tap ``taps`` times at a point (screen points).  A backend that can hit-test answers what the tap reached
        there, as a short description (``Button "Save" id=save``); else ``None``.  ``element``: the serial of the
        node the tap is aimed at; a backend that has serials sends nothing unless the point reaches that element
        (ELEMENT_MOVED, ELEMENT_COVERED), the others ignore it.  ``mark``: the change mark of the snapshot the point
        was read from; a backend that has marks sends nothing (ELEMENT_MOVED) when the screen changed after it."""

    @abc.abstractmethod
    async def long_press(
        self, app_id: str, x: float, y: float, duration_ms: float, *, element: str | None = None
    ) -> None:
        """Touch and hold at a point; ``element`` as for :meth:`tap`."""

    @abc.abstractmethod
    async def drag(
        self,
        app_id: str,
        start: tuple[float, float],
        end: tuple[float, float],
        *,
        duration_ms: float,
        hold_ms: float,
        settle_ms: float,
    ) -> None: ...

    async def scroll(
        self,
        app_id: str,
        direction: str,
        *,
        amount: float,
        at: tuple[float, float] | None = None,
        reveal: Sequence[str] | None = None,
        reveal_only: bool = False,
    ) -> dict[str, Any]:
        """Scroll the scroll container under ``at`` (the nearest one that scrolls along ``direction``'s axis; the
        screen's main scroller without ``at``) so that its content moves ``direction`` by ``amount`` of its visible
        extent, with a real touch drag through it, and answer once the content came to rest: ``{"direction",
        "distance"}`` (points the content moved that way, ``None`` when the device cannot measure) and ``"atEnd"``
        (no further content that way; ``None`` when unknown), optionally ``"container"`` (what was scrolled).

        ``reveal`` (the agent operation ``find``): the selector the agent looks for, as terms ``key=value`` (keys
        ``id``, ``role``, ``label``, ``text``, ``value``; ``||`` between alternatives).  A device that can search its
        content off screen scrolls the container that holds the first element off screen that matches, towards it
        (``direction`` says which way it went), and adds ``"revealed": true`` once the element shows; one that
        cannot ignores it.  ``reveal_only`` (WebDriver's find of an element off screen): move only towards what
        ``reveal`` locates; when the device locates nothing (or cannot search), it does not move and answers
        ``"located": false``.

        This default drags through ``at`` (or the screen's centre) and cannot measure."""
        if reveal_only:
            return {"direction": direction, "distance": 0.0, "atEnd": None, "located": False}
        box = await self.viewport(app_id)
        start, end = scroll_drag(box, direction, amount, at)
        await self.drag(
            app_id, start, end, duration_ms=SCROLL_DRAG_MS, hold_ms=SCROLL_HOLD_MS, settle_ms=SCROLL_REST_MS
        )
        return {"direction": direction, "distance": None, "atEnd": None}

    @abc.abstractmethod
    async def type_text(self, app_id: str, text: str, *, element: str | None = None) -> None:
        """Type into the focused editable; TEXT_INPUT_NOT_FOCUSED when a focus probe finds none."""

    @abc.abstractmethod
    async def keyboard_return(self, app_id: str) -> None: ...

    @abc.abstractmethod
    async def keyboard_delete(self, app_id: str) -> None: ...

    async def change_mark(self, app_id: str | None) -> str | None:
        """A token that changes whenever the screen of ``app_id`` (None: the foreground) changes — elements added,
        removed or changed, text, values, focus, scrolling, a navigation.  The runner compares the marks taken
        around an action to answer ``changed``; ``None`` (the default) means the device cannot tell."""
        return None

    def zoomed(self, app_id: str) -> dict[str, Any] | None:
        """What the last double tap on ``app_id`` did to the page's zoom, once (``{"from", "to", "how"}``: ``how``
        ``block`` — zoomed to fit the block under the finger —, ``out`` — back out to the page's least scale — or
        ``none`` — the page double-tap zooms, and there was nothing to zoom); then None until the next.  No I/O.
        ``None`` (the default): a double tap there zooms nothing, it is a double tap."""
        return None

    def dialog(self, app_id: str | None) -> dict[str, Any] | None:
        """The dialog of the page's own (JavaScript ``alert``/``confirm``/``prompt``, ``beforeunload``) that
        ``app_id`` (None: the foreground app) shows now, as replies carry it (``{"type", "message"}``): the same
        object while the same dialog stays open, given ``"answer"`` when the device answers it.  No I/O.  ``None``
        (the default): none, or the device shows such dialogs in its snapshot only."""
        return None

    async def key(self, app_id: str, key: str) -> None:
        """Press one of :data:`phonewire.protocol.commands.KEYS` (escape, tab, arrows…) on the focused element (or
        the page); a device without a keyboard answers UNSUPPORTED_OPERATION."""
        raise ProtocolError(e.UNSUPPORTED_OPERATION, f"the {self.kind} device has no {key} key", _NO_KEYS_HINT)

    async def set_value(
        self, app_id: str, x: float, y: float, values: list[str], *, add: bool = False
    ) -> dict[str, Any]:
        """Choose options of the ``<select>`` (or set the value of the date/time/number/range input) at a point, as
        a person's choice would, and answer ``{"selected": [...], "options": [...]}``; ``{"unmatched": [...],
        "options": [...]}`` with nothing changed when an option names none.  A device without such controls
        answers UNSUPPORTED_OPERATION."""
        raise ProtocolError(e.UNSUPPORTED_OPERATION, f"the {self.kind} device cannot set values", _NO_KEYS_HINT)

    # -- the phone's repertoire (extensions, issue 24; docs/protocol.md) --------------------------------------------
    def _cannot(self, what: str) -> ProtocolError:
        return ProtocolError(e.UNSUPPORTED_OPERATION, f"the {self.kind} device cannot {what}", _NO_REPERTOIRE_HINT)

    async def key_combo(self, app_id: str, key: str, modifiers: list[str]) -> dict[str, Any]:
        """Press ``key`` (one of :data:`~phonewire.protocol.commands.COMBO_KEYS`) with ``modifiers`` held, with the
        platform's meaning (ctrl+c copies, on an iOS phone meta+c); answers ``{"message"}``."""
        raise self._cannot(f"press {'+'.join([*modifiers, key])}")

    async def select_text(
        self, app_id: str, x: float, y: float, mode: str, *, start: int | None = None, end: int | None = None
    ) -> dict[str, Any]:
        """Select text of the element at a point (``mode``: :data:`~phonewire.protocol.commands.SELECT_MODES`) as
        a person's long press and handles would; answers ``{"selected": text, "message"}``."""
        raise self._cannot("select text")

    async def get_clipboard(self) -> dict[str, Any]:
        """``{"text"}``: the phone's clipboard (its plain text)."""
        raise self._cannot("read the clipboard")

    async def set_clipboard(self, text: str) -> dict[str, Any]:
        raise self._cannot("set the clipboard")

    async def rotate(self, orientation: str) -> dict[str, Any]:
        """Turn the phone to ``orientation`` (portrait, landscape): the app's layout follows."""
        raise self._cannot("rotate")

    async def set_location(self, position: tuple[float, float, float] | None) -> dict[str, Any]:
        """The position the phone reports (latitude, longitude, accuracy in metres); None: location off."""
        raise self._cannot("set its location")

    async def set_connectivity(self, connectivity: str) -> dict[str, Any]:
        """The network as the phone has it: online, offline, slow-3g, fast-3g."""
        raise self._cannot("change its connectivity")

    async def set_appearance(self, appearance: str) -> dict[str, Any]:
        """The system's light or dark mode, as apps see it."""
        raise self._cannot("change its appearance")

    async def set_permissions(self, setting: str, permissions: list[str]) -> dict[str, Any]:
        """Grant, deny or reset (ask again) permissions for every app of the phone."""
        raise self._cannot("change permissions")

    async def pick_file(self, app_id: str, files: list[str]) -> dict[str, Any]:
        """Hand ``files`` (paths on the phone's machine) to the file chooser the app opened, as picking them in the
        system's sheet would; answers ``{"files", "message"}``."""
        raise self._cannot("hand files to a file chooser")

    async def pinch(self, app_id: str, x: float, y: float, scale: float, duration_ms: float) -> dict[str, Any]:
        """Two fingers around (x, y) that end ``scale`` times as far apart as they start (above 1: spread, a zoom
        in), moving over ``duration_ms``; answers ``{"message"}``."""
        raise self._cannot("pinch")

    async def hide_keyboard(self) -> dict[str, Any]:
        """Dismiss the on-screen keyboard; answers ``{"hidden": bool, "message"}`` (``hidden`` false: none was up)."""
        raise self._cannot("hide its keyboard")

    # -- observation on the side (extensions; see phonewire.devices.observed) ------------------------------------
    async def logs(self, app_id: str | None, since: int) -> dict[str, Any]:
        """``{"entries", "next", "dropped"}``: console messages and page errors (web) or the app's logcat lines
        (Android) with ``seq >= since``.  A device that keeps no logs answers UNSUPPORTED_OPERATION."""
        raise ProtocolError(e.UNSUPPORTED_OPERATION, f"the {self.kind} device keeps no logs", _NO_LOGS_HINT)

    async def network(self, since: int) -> dict[str, Any]:
        """``{"requests", "next", "dropped"}``: finished requests with ``seq >= since``; the first call starts the
        capture.  A device that cannot see requests answers UNSUPPORTED_OPERATION."""
        raise ProtocolError(e.UNSUPPORTED_OPERATION, f"the {self.kind} device cannot see requests", _NO_LOGS_HINT)

    async def record_start(self, path: str) -> dict[str, Any]:
        """Record the screen into the video file ``path`` until :meth:`record_stop`."""
        raise ProtocolError(e.UNSUPPORTED_OPERATION, f"the {self.kind} device cannot record video", _NO_LOGS_HINT)

    async def record_stop(self) -> dict[str, Any]:
        return {"frames": 0, "message": "nothing was recording"}

    @abc.abstractmethod
    async def snapshot(self, app_id: str) -> Snapshot:
        """``{"nodes": [...], "quality": {...}}`` built by :func:`phonewire.protocol.snapshot.build_snapshot`.

        A capture that throws is retried once by the runner after a short pause (0.4 s); backends do not retry."""

    # -- device-scoped -------------------------------------------------------------------------------------------
    @abc.abstractmethod
    async def button(self, name: str) -> dict[str, Any] | None:
        """Press a hardware button; UNSUPPORTED_OPERATION for one this device lacks.  A backend that can tell what
        the press did answers it (``{"message": "closed Dialog \"Menu\"", "back": "closed"}``); else ``None``."""

    @abc.abstractmethod
    async def screenshot(self, *, format: str = "png", scale: str = "device", quality: int = 80) -> Screenshot:
        """The whole screen.  ``scale="css"`` renders at one pixel per point (cheaper to read)."""
