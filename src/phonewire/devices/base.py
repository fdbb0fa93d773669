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
from dataclasses import dataclass
from typing import Any

from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import Rect

_NO_KEYS_HINT = "Tap the element on screen instead (snapshot shows what there is)."


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
    async def launch_app(self, app_id: str) -> dict[str, Any]:
        """Launch (or relaunch) ``app_id`` into the foreground; returns ``{"appBundleId", "state", ...}``."""

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

    @abc.abstractmethod
    async def tap(self, app_id: str, x: float, y: float, taps: int = 1) -> str | None:
        """Tap ``taps`` times at a point.  A backend that can hit-test answers what the tap reached there, as a
        short description (``Button "Save" id=save``); else ``None``."""

    @abc.abstractmethod
    async def long_press(self, app_id: str, x: float, y: float, duration_ms: float) -> None: ...

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

    @abc.abstractmethod
    async def type_text(self, app_id: str, text: str) -> None:
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

    @abc.abstractmethod
    async def snapshot(self, app_id: str) -> dict[str, Any]:
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
