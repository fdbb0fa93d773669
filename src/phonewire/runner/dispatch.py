"""Dispatch: one validated :class:`~phonewire.protocol.request.Request` in, one :class:`Envelope` out, by calling the
:class:`~phonewire.devices.base.Device`.

This is the runner's single exception-to-wire boundary for device work (:func:`map_exception`): a
``ProtocolError`` from a backend keeps its code, unless the code is one only the runner may vouch for
(RUNNER_BUSY, RUNNER_WEDGED, COMMAND_ALREADY_COMPLETED) or not a runner code at all; that, and anything else,
becomes COMMAND_FAILED.  On the way it applies the contract between backend and runner:

* a device whose :meth:`~phonewire.devices.base.Device.health` is not ``None`` (its browser or agent died) is
  replaced at once by a fresh one (``renew``), before the command runs or right after the command that found it
  dead; that reply carries ``stateReset: true`` and, when it is an error, says what was lost.  Only a device that
  cannot be renewed answers DEVICE_UNAVAILABLE (the host then replaces the whole runner);
* app-scoped commands ask :meth:`~phonewire.devices.base.Device.app_state` first: ``notRunning`` →
  APP_NOT_AVAILABLE; ``background`` → snapshot answers APP_BACKGROUNDED (observation never re-fronts), every other
  app-scoped command re-fronts the app with :meth:`~phonewire.devices.base.Device.activate` and its reply, ok or
  error, carries ``reactivated: true``;
* mutating commands are bracketed by the suppressed-issue counter: growth across an ok mutation stamps ``warning``;
* actions (:data:`CHANGE_TRACKED`) are bracketed by the device's change mark
  (:meth:`~phonewire.devices.base.Device.change_mark`): the ok reply carries ``changed`` (did the screen change by
  the time the action answered) when the device can tell.

The runner never retries a command, with the one exception the protocol makes: a snapshot capture that throws
(SNAPSHOT_FAILED, or a backend bug) is retried once after a short pause (0.4 s x time scale), here, for every
backend.  App-state and device failures are not capture failures and are never retried.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any, Final

from phonewire.devices.base import AppState, Device
from phonewire.protocol import commands as c
from phonewire.protocol import errors as e
from phonewire.protocol.envelope import Envelope, JSONObject, fail, ok
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.request import Request
from phonewire.runner.handlers import CHANGE_TRACKED, DIALOG_NOTED, HANDLERS, app_of, noted_dialog

SNAPSHOT_RETRY_PAUSE_S: Final = 0.4

WARNING_SUPPRESSED: Final = (
    "the command succeeded, but the device muted {n} issue(s) while it ran; a gesture may have missed its target. "
    "Re-observe the screen (snapshot) and confirm the effect before continuing."
)


#: Codes a backend may raise.  The others promise something only the runner (nothing ran: RUNNER_BUSY /
#: RUNNER_WEDGED; ran earlier: COMMAND_ALREADY_COMPLETED) or the host can vouch for, and a host acts on that promise
#: (it resends a command refused as busy), so a backend raising one becomes COMMAND_FAILED.
BACKEND_CODES: Final = frozenset(e.RUNNER_CODES) - {e.RUNNER_BUSY, e.RUNNER_WEDGED, e.COMMAND_ALREADY_COMPLETED}


def map_exception(exc: Exception) -> ProtocolError:
    """The one mapping of a backend exception to a wire error."""
    if isinstance(exc, ProtocolError):
        if exc.code in BACKEND_CODES:
            return exc
        return ProtocolError(
            e.COMMAND_FAILED,
            f"the device backend failed with {exc.code}: {exc.message}",
            "It may have taken effect: observe the screen (snapshot) before sending it again.",
        )
    return ProtocolError(
        e.COMMAND_FAILED,
        f"the device backend failed: {type(exc).__name__}: {exc}",
        "Observe the screen (snapshot) before retrying; if it keeps failing, restart the runner.",
    )


def _capture_failure(exc: Exception) -> bool:
    """A snapshot failure worth one more try: the capture itself threw."""
    return not isinstance(exc, ProtocolError) or exc.code == e.SNAPSHOT_FAILED


#: Why an app-scoped failure after a device restart happened, in front of the failure's own message.
STATE_LOST: Final = "the device was restarted ({why}) and every app's state was lost (open apps, sign-in, navigation)"
STATE_LOST_HINT: Final = "Open the app again (launchApp / open), then take a snapshot before acting."
#: How long closing a dead device may take before a new one is opened anyway (seconds).
RENEW_CLOSE_S: Final = 5.0

Renew = Callable[[], Device]
"""Makes a fresh, unopened device of the same spec (the registry's ``create_device`` bound to the spec)."""


class Dispatcher:
    def __init__(
        self,
        device: Device,
        *,
        snapshot_retry_pause: float = SNAPSHOT_RETRY_PAUSE_S,
        renew: Renew | None = None,
    ) -> None:
        self.device = device
        self.snapshot_retry_pause = snapshot_retry_pause
        self.renew = renew
        self.restarts = 0
        self._renewing: asyncio.Lock | None = None

    async def run(self, request: Request) -> Envelope:
        """Execute one command on the device.  Never raises (except cancellation): failures are envelopes."""
        reactivated = False
        restarted: str | None = None  # why the device was replaced during this command
        mutating = request.command in c.MUTATING
        before: int | None = None
        try:
            reason = self.device.health()
            if reason is not None:
                await self._replace(reason)
                restarted = reason
            before = self._suppressed() if mutating else None
            if request.command in c.APP_SCOPED:
                reactivated = await self._front(request)
            data = await self._execute(request)
        except Exception as exc:
            error = map_exception(exc)
            lost = self._dead_reason() if restarted is None else None
            if lost is not None:  # the device died while the command ran
                try:
                    await self._replace(lost)
                except ProtocolError as unavailable:
                    return fail(unavailable, reactivated=reactivated)
                return fail(
                    ProtocolError(
                        e.DEVICE_UNAVAILABLE,
                        f"{request.command} did not complete: {STATE_LOST.format(why=lost)}",
                        "Open the app again (launchApp / open) and take a snapshot to see whether the command took "
                        "effect before repeating it.",
                    ),
                    reactivated=reactivated,
                    state_reset=True,
                )
            if restarted is not None and error.code != e.DEVICE_UNAVAILABLE:
                error = ProtocolError(
                    error.code, f"{STATE_LOST.format(why=restarted)}: {error.message}", STATE_LOST_HINT
                )
            return fail(error, reactivated=reactivated, state_reset=restarted is not None)
        # The command ran: nothing after this point may turn its reply into a failure (the agent would repeat it).
        return ok(
            data,
            reactivated=reactivated,
            warning=self._warning(before) if mutating else None,
            state_reset=restarted is not None,
        )

    def _dead_reason(self) -> str | None:
        try:
            return self.device.health()
        except Exception as exc:
            return f"health check failed: {type(exc).__name__}: {exc}"

    async def _replace(self, reason: str) -> None:
        """Close the dead device and open a fresh one in its place; DEVICE_UNAVAILABLE when that cannot be done."""
        if self._renewing is None:
            self._renewing = asyncio.Lock()
        async with self._renewing:
            if self._dead_reason() is None:
                return  # another command replaced it while this one waited
            if self.renew is None:
                raise ProtocolError(
                    e.DEVICE_UNAVAILABLE,
                    f"the device is unavailable: {reason}",
                    "Nothing ran. This runner cannot renew its device: start a new runner.",
                )
            old = self.device
            with contextlib.suppress(Exception):
                await asyncio.wait_for(old.close(), RENEW_CLOSE_S)
            try:
                fresh = self.renew()
                await fresh.open()
            except Exception as exc:
                detail = exc.message if isinstance(exc, ProtocolError) else f"{type(exc).__name__}: {exc}"
                raise ProtocolError(
                    e.DEVICE_UNAVAILABLE,
                    f"the device is unavailable ({reason}) and could not be restarted: {detail}",
                    "Nothing ran. A host replaces the runner on its next command; if this persists, check the "
                    "device (for the web phone: that /usr/bin/chromium starts).",
                ) from exc
            self.device = fresh
            self.restarts += 1

    def _suppressed(self) -> int | None:
        """The device's count of suppressed page issues (``None`` if it cannot be read: a count never fails a
        command)."""
        try:
            return self.device.counters().suppressed
        except Exception:
            return None

    def _warning(self, before: int | None) -> str | None:
        """The warning for a mutation during which the suppressed-issue counter grew (none if it cannot be read)."""
        now = self._suppressed()
        grown = 0 if before is None or now is None else now - before
        return WARNING_SUPPRESSED.format(n=grown) if grown > 0 else None

    async def _mark(self, app_id: str | None) -> str | None:
        try:
            return await self.device.change_mark(app_id)
        except Exception:
            return None  # a mark is a courtesy: it never fails the command

    async def _execute(self, request: Request) -> JSONObject:
        if request.command in DIALOG_NOTED:
            shown = self._dialog(request.app_id)
            data = await self._run_handler(request)
            return noted_dialog(data, shown, self._dialog(request.app_id))
        return await self._run_handler(request)

    def _dialog(self, app_id: str | None) -> JSONObject | None:
        try:
            return self.device.dialog(app_id)
        except Exception:
            return None  # like the change mark, a courtesy

    async def _run_handler(self, request: Request) -> JSONObject:
        handler = HANDLERS[request.command]
        if request.command in CHANGE_TRACKED:
            before = await self._mark(request.app_id)
            data = await handler(self.device, request)
            after = await self._mark(request.app_id) if before is not None else None
            if after is not None and "changed" not in data:
                data = {**data, "changed": before != after}
            return data
        if request.command != c.SNAPSHOT:
            return await handler(self.device, request)
        try:
            return await handler(self.device, request)
        except Exception as exc:
            if not _capture_failure(exc):
                raise
        await asyncio.sleep(self.snapshot_retry_pause)
        return await handler(self.device, request)

    async def _front(self, request: Request) -> bool:
        """Make sure the target app is in front; ``True`` when it had to be re-fronted."""
        app_id = app_of(request)
        state = await self.device.app_state(app_id)
        if state is AppState.FOREGROUND:
            return False
        if state is AppState.NOT_RUNNING:
            raise ProtocolError(
                e.APP_NOT_AVAILABLE,
                f"app {app_id!r} is not running",
                "Open it first (CLI `open APP`, bridge `open_app`, wire `launchApp`); nothing else launches an app.",
            )
        if request.command == c.SNAPSHOT:
            raise ProtocolError(
                e.APP_BACKGROUNDED,
                f"app {app_id!r} is running in the background",
                "A snapshot never changes the screen. Bring the app to the front (launchApp, or any other "
                "command for it, which re-fronts it) and snapshot again.",
            )
        await self.device.activate(app_id)
        return True


def describe_device(device: Device) -> dict[str, Any]:
    """Device facts for ``status``; never raises."""
    try:
        return dict(device.describe())
    except Exception as exc:
        return {"kind": device.kind, "describeError": f"{type(exc).__name__}: {exc}"}
