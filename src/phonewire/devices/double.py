"""A scripted test double of :class:`Device`, selectable as ``phonewire runner --device double``.

It is for tests of the layers above a backend (runner, host session, front ends) through real processes and
real sockets.  Its behaviour is scripted by the app id, so a test outside the process can choose it per command:

==========================  ==================================================================================
app id                      behaviour of every app-scoped command against it
==========================  ==================================================================================
``app.<name>``              succeeds; taps are counted per app and shown by ``snapshot`` (exactly-once checks)
``hang.<ms>``               blocks for ``<ms>`` milliseconds of wall time, then succeeds
``fail.<CODE>``             raises ``ProtocolError(CODE)``
``crash``                   raises ``RuntimeError`` (a backend bug the runner must report as COMMAND_FAILED)
``noisy``                   succeeds but bumps the suppressed-issue counter (the runner stamps ``warning``)
``big.<n>``                 ``tap`` returns normally; ``snapshot`` returns ``n`` nodes
``flaky.<n>``               the first ``n`` snapshot captures raise SNAPSHOT_FAILED, later ones succeed
==========================  ==================================================================================

Apps start not running; ``launchApp`` fronts one (backgrounding the previous), ``button home`` backgrounds all,
``terminateApp`` stops one.  ``unknown.*`` ids answer APP_UNKNOWN.  ``status`` details include the tap counts.

Device-wide scripting: ``launchApp`` of ``device.lost`` makes :meth:`health` report the device gone from then on
(the runner answers DEVICE_UNAVAILABLE); ``--device double:broken`` makes :meth:`open` fail; ``double:slow-open``
makes :meth:`open` announce itself on stderr and then take a minute (for start-up signal handling).
"""

from __future__ import annotations

import asyncio
import sys
import time
from typing import Any

from phonewire.devices.base import AppInfo, AppState, Device, IssueCounters, Screenshot
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import RawNode, Rect, Snapshot, build_snapshot

# A 1x1 transparent PNG.
_PNG_1PX = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6300010000050001a5f645400000000049454e44ae426082"
)


class DoubleDevice(Device):
    kind = "double"

    def __init__(self, profile: str | None = None) -> None:
        self.profile = profile
        self.lost = False
        self.states: dict[str, AppState] = {}
        self.taps: dict[str, int] = {}
        self.typed: dict[str, str] = {}
        self.captures: dict[str, int] = {}
        self.suppressed = 0
        self.recorded = 0
        self.calls: list[tuple[str, str | None]] = []
        self.opened = False
        self.closed = False

    async def open(self) -> None:
        if self.profile == "broken":
            raise ProtocolError(e.DEVICE_UNAVAILABLE, "scripted open failure (double:broken)", "scripted open hint")
        if self.profile == "slow-open":
            print("double: opening slowly", file=sys.stderr, flush=True)
            await asyncio.sleep(60)
        self.opened = True

    def health(self) -> str | None:
        return "scripted: the device was lost" if self.lost else None

    async def close(self) -> None:
        self.closed = True

    def counters(self) -> IssueCounters:
        return IssueCounters(self.suppressed, self.recorded)

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind, "taps": dict(self.taps), "captures": dict(self.captures)}

    # -- scripting ---------------------------------------------------------------------------------------------
    async def _behave(self, app_id: str) -> None:
        head, _, arg = app_id.partition(".")
        if head == "hang":
            # Blocking sleep in a thread: the work cannot be cancelled, exactly like a wedged main thread.
            await asyncio.to_thread(time.sleep, float(arg) / 1000.0)
        elif head == "fail":
            raise ProtocolError(arg, f"scripted failure {arg}", "scripted hint")
        elif head == "crash":
            raise RuntimeError("scripted backend bug")
        elif head == "noisy":
            self.suppressed += 1

    def _check_known(self, app_id: str) -> None:
        if app_id.startswith("unknown"):
            raise ProtocolError(e.APP_UNKNOWN, f"no app {app_id!r} on this device", "listApps shows the apps.")

    # -- app state ---------------------------------------------------------------------------------------------------
    async def app_state(self, app_id: str) -> AppState:
        self._check_known(app_id)
        return self.states.get(app_id, AppState.NOT_RUNNING)

    def _front(self, app_id: str) -> None:
        for other, state in self.states.items():
            if state is AppState.FOREGROUND:
                self.states[other] = AppState.BACKGROUND
        self.states[app_id] = AppState.FOREGROUND

    async def activate(self, app_id: str) -> None:
        self._front(app_id)

    async def launch_app(
        self, app_id: str, clear_state: bool = False, *, locale: str | None = None, timezone: str | None = None
    ) -> dict[str, Any]:
        self._check_known(app_id)
        options = "".join(f" {name}={value}" for name, value in (("locale", locale), ("timezone", timezone)) if value)
        self.calls.append(("launchApp" + (" clearState" if clear_state else "") + options, app_id))
        if app_id == "device.lost":
            self.lost = True
        self._front(app_id)
        return {"appBundleId": app_id, "state": AppState.FOREGROUND.value}

    async def terminate_app(self, app_id: str) -> dict[str, Any]:
        self._check_known(app_id)
        was = self.states.pop(app_id, AppState.NOT_RUNNING) is not AppState.NOT_RUNNING
        return {"appBundleId": app_id, "wasRunning": was}

    async def list_apps(self) -> list[AppInfo]:
        return [AppInfo(a, s) for a, s in sorted(self.states.items())]

    async def open_url(self, url: str) -> dict[str, Any]:
        self._front(url)
        return {"appBundleId": url}

    async def reset(self) -> dict[str, Any]:
        self.calls.append(("reset", None))
        return {"reset": True}

    # -- app-scoped ---------------------------------------------------------------------------------------------
    async def viewport(self, app_id: str) -> Rect:
        await self._behave(app_id)
        return Rect(0, 0, 390, 844)

    async def tap(
        self, app_id: str, x: float, y: float, taps: int = 1, *, element: str | None = None, mark: str | None = None
    ) -> None:
        self.calls.append(("tap", app_id))
        await self._behave(app_id)
        self.taps[app_id] = self.taps.get(app_id, 0) + taps

    async def long_press(
        self, app_id: str, x: float, y: float, duration_ms: float, *, element: str | None = None
    ) -> None:
        await self._behave(app_id)

    async def drag(
        self,
        app_id: str,
        start: tuple[float, float],
        end: tuple[float, float],
        *,
        duration_ms: float,
        hold_ms: float,
        settle_ms: float,
    ) -> None:
        await self._behave(app_id)

    async def type_text(self, app_id: str, text: str, *, element: str | None = None) -> None:
        await self._behave(app_id)
        self.typed[app_id] = self.typed.get(app_id, "") + text

    async def keyboard_return(self, app_id: str) -> None:
        await self._behave(app_id)

    async def keyboard_delete(self, app_id: str) -> None:
        await self._behave(app_id)
        self.typed[app_id] = self.typed.get(app_id, "")[:-1]

    async def key(self, app_id: str, key: str) -> None:
        await self._behave(app_id)
        self.calls.append(("key:" + key, app_id))

    async def set_value(
        self, app_id: str, x: float, y: float, values: list[str], *, add: bool = False
    ) -> dict[str, Any]:
        """A select with the options one, two, three: chooses by exact text."""
        await self._behave(app_id)
        options = ["one", "two", "three"]
        unmatched = [v for v in values if v not in options]
        if unmatched:
            return {"unmatched": unmatched, "options": options}
        return {"selected": list(values), "options": options}

    async def snapshot(self, app_id: str) -> Snapshot:
        await self._behave(app_id)
        head, _, arg = app_id.partition(".")
        self.captures[app_id] = self.captures.get(app_id, 0) + 1
        if head == "flaky" and self.captures[app_id] <= int(arg):
            raise ProtocolError(e.SNAPSHOT_FAILED, f"scripted capture failure {self.captures[app_id]} of {arg}")
        count = int(arg) if head == "big" else 0
        root = RawNode("Application", label=app_id, rect=Rect(0, 0, 390, 844))
        root.children.append(RawNode("Button", label="Counter", identifier="counter", rect=Rect(20, 100, 200, 44)))
        root.children.append(
            RawNode("StaticText", label=f"taps={self.taps.get(app_id, 0)}", rect=Rect(20, 160, 200, 20))
        )
        root.children.append(RawNode("TextField", value=self.typed.get(app_id) or None, rect=Rect(20, 200, 300, 40)))
        root.children.extend(
            RawNode("StaticText", label=f"row {i}", rect=Rect(0, 250 + (i % 500), 390, 1)) for i in range(count)
        )
        return build_snapshot(root, Rect(0, 0, 390, 844), self.kind)

    # -- device-scoped -------------------------------------------------------------------------------------------
    async def button(self, name: str) -> None:
        if name != "home":
            raise ProtocolError(e.UNSUPPORTED_OPERATION, f"this device has no {name} button")
        for app_id, state in self.states.items():
            if state is AppState.FOREGROUND:
                self.states[app_id] = AppState.BACKGROUND

    async def screenshot(self, *, format: str = "png", scale: str = "device", quality: int = 80) -> Screenshot:
        return Screenshot(_PNG_1PX, "png", 1, 1)
