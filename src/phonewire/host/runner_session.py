"""One runner session: a runner from start (or attach) to invalidation, applying :mod:`phonewire.host.rules` to
each attempt of a command.  :class:`~phonewire.host.session.HostSession` holds the current one and replaces it.

Lifecycle (exact states, one direction only; an invalidated session is never reused)::

    starting ──first reply──► ready ──invalidate(reason)──► invalidated
        └──────────────invalidate(reason)──────────────────────┘
"""

from __future__ import annotations

import asyncio
import dataclasses
import enum
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from phonewire.host import diagnostics as d
from phonewire.host import rules as r
from phonewire.host.diagnostics import Diagnostics
from phonewire.host.launcher import RunnerProcess
from phonewire.host.transport import Transport, TransportError
from phonewire.protocol import commands as c
from phonewire.protocol import errors as e
from phonewire.protocol.commands import Timing
from phonewire.protocol.envelope import Envelope
from phonewire.protocol.errors import ProtocolError

#: Probes (uptime, status) get ``Timing.probe_window`` but never less than this: under a tiny time scale the
#: window must still outlast the machine's scheduling jitter, or a healthy runner would be invalidated.
MIN_PROBE_WINDOW_S: Final = 0.5


class Lifecycle(enum.Enum):
    STARTING = "starting"
    READY = "ready"
    INVALIDATED = "invalidated"


STARTING: Final = Lifecycle.STARTING
READY: Final = Lifecycle.READY
INVALIDATED: Final = Lifecycle.INVALIDATED

Clock = Callable[[], float]


class HostError(ProtocolError):
    """A :class:`ProtocolError` raised by the host, with the decision context that produced it."""

    def __init__(self, code: str, message: str, hint: str | None = None, *, context: dict[str, Any]) -> None:
        super().__init__(code, message, hint)
        self.context = context


@dataclass(frozen=True, slots=True)
class Attempt:
    """What one send of a command came to."""

    outcome: r.Outcome
    envelope: Envelope | None = None
    error: ProtocolError | None = None
    #: How the host learned the outcome of a command whose reply was lost (``None``: the reply arrived).
    recovered: str | None = None


def to_ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 3)


class RunnerSession:
    """One runner.  Holds ``lastHealthyMutation``; once invalidated every further use raises."""

    def __init__(
        self,
        transport: Transport,
        *,
        process: RunnerProcess | None,
        timing: Timing,
        diagnostics: Diagnostics,
        clock: Clock = time.monotonic,
        healthy_window_s: float = r.HEALTHY_MUTATION_WINDOW_S,
    ) -> None:
        self.transport = transport
        self.process = process
        self.timing = timing
        self.diag = diagnostics
        self.clock = clock
        self.healthy_window_s = healthy_window_s
        self.generation = diagnostics.runner_generation
        self.probe_window = max(timing.probe_window, MIN_PROBE_WINDOW_S)
        self.lifecycle: Lifecycle = STARTING
        self.invalidation_reason: str | None = None
        self.last_healthy_mutation: r.HealthyMutation | None = None
        #: When the last healthy reply (any command, the preflight's uptime included) arrived: the read-only skip.
        self.last_healthy_reply_at: float | None = None
        self.running_apps: set[str] = set()
        self.last_snapshot: r.SnapshotEvidence | None = None
        self._attached_at = clock()

    # -- state ------------------------------------------------------------------------------------------------
    @property
    def invalidated(self) -> bool:
        return self.lifecycle is INVALIDATED

    @property
    def owned(self) -> bool:
        return self.process is not None

    def process_alive(self) -> bool | None:
        """``None`` for an attached runner (not ours to poll)."""
        return None if self.process is None else self.process.alive()

    async def usable(self) -> bool:
        """Whether the next command may go to this runner: not invalidated, and its process (when it is ours) alive —
        a dead process is invalidated at once, with no shutdown request it could never answer."""
        if not self.invalidated and self.process_alive() is False:
            await self.invalidate(r.INVALIDATE_PROCESS_EXITED, reachable=False)
        return not self.invalidated

    def _mark_ready(self) -> None:
        if self.lifecycle is not STARTING:
            return
        self.lifecycle = READY
        phases: dict[str, Any]
        if self.process is not None:
            timings = self.process.timings
            timings.ready_ms = (self.clock() - timings.started_at) * 1000
            phases = {k: None if v is None else round(v, 3) for k, v in timings.as_dict().items()}
        else:
            phases = {"readyMs": to_ms(self.clock() - self._attached_at)}
        self.diag.record(
            d.STARTUP,
            phase="ready",
            address=self.transport.address,
            pid=None if self.process is None else self.process.pid,
            phases=phases,
        )

    # -- one attempt --------------------------------------------------------------------------------------------
    async def execute(self, command: str, fields: Mapping[str, Any], command_id: str | None) -> Attempt:
        if self.invalidated:
            raise RuntimeError(f"runner session invalidated ({self.invalidation_reason}) is never reused")
        if self.process is not None and not self.process.alive():
            await self.invalidate(r.INVALIDATE_PROCESS_EXITED, reachable=False)
            return self._not_sent(command, "the runner process has exited")
        app_id = fields.get("appBundleId")
        app = app_id if isinstance(app_id, str) else None
        decision = r.decide_preflight(
            command,
            app,
            ready=self.lifecycle is READY,
            record=self.last_healthy_mutation,
            now=self.clock(),
            window_s=self.healthy_window_s,
            last_reply_at=self.last_healthy_reply_at,
        )
        if decision.preflight:
            failure = await self._preflight(command, app, decision)
            if failure is not None:
                return failure
        else:
            self._record_preflight(command, app, decision)
        body: dict[str, Any] = dict(fields)
        body["command"] = command
        if command_id is not None:
            body["commandId"] = command_id
        running_before = frozenset(self.running_apps)
        try:
            envelope = await self.transport.send(body, self.timing.window(command))
        except TransportError as exc:
            return await self._transport_failed(command, app, command_id, exc, decision)
        except asyncio.CancelledError:
            # The caller gave up mid-send: the command's fate is unknown, so liveness is no longer proven.
            self.last_healthy_mutation = None
            self.last_healthy_reply_at = None
            raise
        self._mark_ready()
        return await self._finish(command, app, envelope, running_before)

    async def _preflight(self, command: str, app: str | None, decision: r.PreflightDecision) -> Attempt | None:
        try:
            probe = await self.transport.send({"command": c.UPTIME}, self.probe_window)
        except TransportError as exc:
            self._record_preflight(command, app, decision, ok=False, failure=exc.detail)
            await self.invalidate(r.INVALIDATE_PREFLIGHT_FAILED, reachable=False)
            return self._not_sent(command, f"the runner did not answer its readiness probe ({exc.message})")
        self._record_preflight(command, app, decision, ok=True)
        if r.is_healthy_reply(probe):
            self.last_healthy_reply_at = self.clock()
        self._mark_ready()
        return None

    def _record_preflight(self, command: str, app: str | None, decision: r.PreflightDecision, **outcome: Any) -> None:
        """One ``preflight`` event: used (with ``ok`` and, when it failed, ``failure``) or skipped."""
        self.diag.record(
            d.PREFLIGHT,
            command=command,
            app=app,
            decision="used" if decision.preflight else "skipped",
            reason=decision.reason,
            recencyAgeMs=to_ms(decision.age_s),
            **outcome,
        )

    def _not_sent(self, command: str, why: str) -> Attempt:
        return Attempt(
            r.Outcome.NOT_SENT,
            error=HostError(
                e.RUNNER_UNAVAILABLE,
                f"{command} was not sent: {why}",
                "The runner is gone and could not be replaced. Check the device, then try again.",
                context={"reason": self.invalidation_reason},
            ),
        )

    async def _transport_failed(
        self,
        command: str,
        app: str | None,
        command_id: str | None,
        exc: TransportError,
        decision: r.PreflightDecision,
    ) -> Attempt:
        # A transport failure after a skip clears the records and carries the skip context.
        self.last_healthy_mutation = None
        self.last_healthy_reply_at = None
        context: dict[str, Any] = {"transport": exc.detail, "shape": exc.shape.value, "commandId": command_id}
        if decision.skipped_on_recency:
            context[r.PREFLIGHT_SKIPPED_MARKER] = True
            context["recencyAgeMs"] = to_ms(decision.age_s)
        action = r.decide_after_transport_failure(exc.shape, delivered=exc.delivered)
        self.diag.record(
            d.SEND_FAILED,
            command=command,
            app=app,
            commandId=command_id,
            shape=exc.shape.value,
            detail=exc.detail,
            delivered=exc.delivered,
            action=action.value,
            preflightSkipped=not decision.preflight,
            skipReason=None if decision.preflight else decision.reason,
        )
        if action is r.FailureAction.NOT_SENT:
            await self.invalidate(r.INVALIDATE_CONNECTION_REFUSED, reachable=False)
            return self._not_sent(command, exc.message)
        if action is r.FailureAction.STATUS_RECOVERY:
            if command_id is not None:
                return await self._recover(command, app, command_id, exc, context)
            # A readiness probe (status, uptime) has no journal entry to ask about; it is read-only: resend it.
            return Attempt(r.Outcome.REPLY_LOST, error=_transport_failed(command, exc.message, context))
        return Attempt(r.Outcome.FINAL, error=_transport_failed(command, exc.message, context))

    async def _recover(
        self, command: str, app: str | None, command_id: str, exc: TransportError, context: dict[str, Any]
    ) -> Attempt:
        status: dict[str, Any] | None = None
        probe_error: str | None = None
        try:
            reply = await self.transport.send({"command": c.STATUS, "statusCommandId": command_id}, self.probe_window)
            if reply.ok and reply.data is not None:
                status = reply.data
            else:
                probe_error = reply.error.code if reply.error else "error"
        except TransportError as probe_exc:
            probe_error = probe_exc.detail
        decision = r.decide_recovery(command, status)
        self.diag.record(
            d.STATUS_RECOVERY,
            command=command,
            app=app,
            commandId=command_id,
            state=decision.state,
            action=decision.action.value,
            reason=decision.reason,
            probeError=probe_error,
        )
        context = {**context, "recovery": decision.reason}
        if decision.action is r.RecoveryAction.REPLY:
            assert decision.envelope is not None
            self._mark_ready()
            # A recovered reply is the command's answer, but not a health signal: the next command preflights.
            attempt = await self._finish(
                command, app, decision.envelope, frozenset(self.running_apps), healthy_signal=False
            )
            return dataclasses.replace(attempt, recovered=r.RECOVERED_COMPLETED)
        if decision.action is r.RecoveryAction.RESEND:
            return Attempt(
                r.Outcome.NOT_ACCEPTED,
                error=HostError(
                    e.TRANSPORT_FAILED,
                    f"{command} never reached the runner ({exc.message}); its journal has no record of it, "
                    "so nothing ran",
                    "Nothing ran: it is safe to send the command again.",
                    context=context,
                ),
            )
        if decision.action is r.RecoveryAction.RETRY:
            return Attempt(
                r.Outcome.REPLY_LOST,
                error=HostError(e.TRANSPORT_FAILED, f"{command}: {exc.message}", "Try again.", context=context),
            )
        if decision.action is r.RecoveryAction.FAIL:
            assert decision.error is not None
            err = decision.error
            return Attempt(r.Outcome.FINAL, error=HostError(err.code, err.message, err.hint, context=context))
        await self.invalidate(decision.invalidation_reason or r.INVALIDATE_UNKNOWN_STATE, reachable=status is not None)
        return Attempt(
            r.Outcome.REPLY_LOST if command in c.READ_ONLY else r.Outcome.FINAL,
            error=_transport_failed(
                command, f"{exc.message}; the runner could not account for it ({decision.reason})", context
            ),
        )

    async def _finish(
        self,
        command: str,
        app: str | None,
        envelope: Envelope,
        running_before: frozenset[str],
        *,
        healthy_signal: bool = True,
    ) -> Attempt:
        if envelope.ok:
            after = r.after_ok(command, app, envelope, running_before, healthy_signal=healthy_signal)
            # Recorded only after the runnerFatal check, never from read-only replies.
            if after.record_mutation:
                self.last_healthy_mutation = r.HealthyMutation(command, app, self.clock())
            if after.health is r.ReplyHealth.HEALTHY:
                self.last_healthy_reply_at = self.clock()
            elif after.health is r.ReplyHealth.FATAL:  # a broken target: the next read-only command probes again
                self.last_healthy_reply_at = None
            self._track_apps(command, app, envelope)
            if command == c.SNAPSHOT:
                self.last_snapshot = r.snapshot_evidence(app, envelope.data)
            if after.lifecycle_reset:
                await self._lifecycle_reset(app)
            return Attempt(r.Outcome.OK, envelope=envelope)
        err = envelope.error
        assert err is not None
        if command not in c.READ_ONLY:
            self.last_healthy_mutation = None
        if err.code in e.RETRYABLE_CODES:  # nothing ran
            return Attempt(r.Outcome.RUNNER_BUSY, error=err)
        if err.code == e.DEVICE_UNAVAILABLE:
            # The runner could not bring its device back: the next command gets a new runner (and a new device).
            await self.invalidate(r.INVALIDATE_DEVICE_UNAVAILABLE, reachable=True)
            return Attempt(r.Outcome.RUNNER_ERROR, envelope=envelope, error=err)
        if err.code == e.RUNNER_WEDGED:
            await self.invalidate(r.INVALIDATE_WEDGED, reachable=True)
            return Attempt(
                r.Outcome.RUNNER_WEDGED,
                error=HostError(
                    e.RUNNER_WEDGED,
                    err.message,
                    f"{command} did not run: the runner was stuck and has been recycled. Take a snapshot to see "
                    "the current screen (apps may need to be opened again), then retry.",
                    context={"reason": r.INVALIDATE_WEDGED},
                ),
            )
        if r.relaunch_failed(command, app, running_before, envelope):
            await self.invalidate(r.INVALIDATE_RESET_UNCONFIRMED, reachable=True)
        if r.wants_post_action_capture(command, err.code, self.last_snapshot, app):
            return await self._recorded_failure(command, app, envelope)
        if command == c.TAP and err.code == e.XCTEST_RECORDED_FAILURE:
            reason = r.decide_recorded_failure(app, self.last_snapshot, None).reason
            self.diag.record(d.RECORDED_FAILURE, command=command, app=app, successWithWarning=False, reason=reason)
        return Attempt(r.Outcome.RUNNER_ERROR, envelope=envelope, error=err)

    def _track_apps(self, command: str, app: str | None, envelope: Envelope) -> None:
        data = envelope.data or {}
        if command == c.LAUNCH_APP and app is not None:
            self.running_apps.add(app)
        elif command == c.OPEN_URL and isinstance(data.get("appBundleId"), str):
            self.running_apps.add(data["appBundleId"])
        elif command == c.TERMINATE_APP and app is not None:
            self.running_apps.discard(app)
        elif command == c.LIST_APPS and isinstance(data.get("apps"), list):
            self.running_apps = {
                a["appBundleId"]
                for a in data["apps"]
                if isinstance(a, dict) and isinstance(a.get("appBundleId"), str) and a.get("state") != "notRunning"
            }

    async def _lifecycle_reset(self, app: str | None) -> None:
        confirmed = False
        reachable = True
        failure: str | None = None
        try:
            reply = await self.transport.send(
                {"command": c.RESET, "commandId": uuid.uuid4().hex}, self.timing.window(c.RESET)
            )
            confirmed = reply.ok
            if not reply.ok and reply.error is not None:
                failure = reply.error.code
        except TransportError as exc:
            failure = exc.detail
            reachable = False
        self.diag.record(d.LIFECYCLE_RESET, app=app, confirmed=confirmed, failure=failure)
        if not confirmed:
            await self.invalidate(r.INVALIDATE_RESET_UNCONFIRMED, reachable=reachable)

    async def _recorded_failure(self, command: str, app: str | None, original: Envelope) -> Attempt:
        after: r.SnapshotEvidence | None = None
        try:
            reply = await self.transport.send(
                {"command": c.SNAPSHOT, "commandId": uuid.uuid4().hex, "appBundleId": app},
                self.timing.window(c.SNAPSHOT),
            )
            if reply.ok:
                after = r.snapshot_evidence(app, reply.data)
        except TransportError:
            after = None
        decision = r.decide_recorded_failure(app, self.last_snapshot, after)
        self.diag.record(
            d.RECORDED_FAILURE,
            command=command,
            app=app,
            successWithWarning=decision.success_with_warning,
            reason=decision.reason,
        )
        if after is not None:
            self.last_snapshot = after
        if decision.success_with_warning:
            assert original.error is not None
            return Attempt(
                r.Outcome.OK,
                envelope=Envelope(
                    ok=True,
                    data={"message": "tap delivered; the screen changed", "recordedFailure": original.error.message},
                    reactivated=original.reactivated,
                    warning=r.RECORDED_FAILURE_WARNING,
                    state_reset=original.state_reset,
                ),
                recovered=r.EVIDENCE_CHANGED,
            )
        assert original.error is not None
        return Attempt(r.Outcome.RUNNER_ERROR, envelope=original, error=original.error)

    # -- invalidation -----------------------------------------------------------------------------------------
    async def invalidate(self, reason: str, *, reachable: bool) -> None:
        """Stop using this runner for good; stop its process as :func:`rules.decide_invalidation` says."""
        if self.invalidated:
            return
        before = self.lifecycle
        self.lifecycle = INVALIDATED
        self.invalidation_reason = reason
        self.last_healthy_mutation = None
        self.last_healthy_reply_at = None
        alive = self.process_alive()
        decision = r.decide_invalidation(
            reason, owned=self.process is not None, process_alive=bool(alive), reachable=reachable
        )
        self.diag.record(
            d.INVALIDATION,
            reason=reason,
            lifecycle=before,
            reachable=reachable,
            processAlive=alive,
            stop=decision.stop.value,
            address=self.transport.address,
        )
        if self.process is None:
            return
        started = self.clock()
        how = await self.process.stop(graceful=decision.stop is r.StopMode.GRACEFUL, shutdown=self._shutdown)
        self.diag.record(
            d.RUNNER_STOPPED,
            pid=self.process.pid,
            how=how,
            returncode=self.process.proc.returncode,
            tookMs=to_ms(self.clock() - started),
        )

    async def _shutdown(self) -> object:
        return await self.transport.send({"command": c.SHUTDOWN, "commandId": uuid.uuid4().hex}, self.probe_window)


def _transport_failed(command: str, message: str, context: dict[str, Any]) -> HostError:
    """The fate of ``command`` is unknown: a read-only one may simply be tried again, a mutation must not be."""
    hint = "Try again." if command in c.READ_ONLY else r.HINT_REOBSERVE
    return HostError(e.TRANSPORT_FAILED, f"{command}: {message}", hint, context=context)
