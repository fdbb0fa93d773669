"""The host session's lifecycle rules: every decision, as a pure function, in one file.

Nothing here does I/O or reads a clock: the caller passes ``now`` and whatever it observed, and gets a frozen
decision back.  :mod:`phonewire.host.session` applies the decisions; diagnostics record them with the reason
names below.  Why each rule is what it is: docs/design/runner-lifecycle.md and docs/design/send-once-recovery.md;
every case: docs/host.md.

Order of one command (``RunnerSession.execute``)::

    process dead? ───────────────────────────────► invalidate(processExited)          nothing sent
    decide_preflight ── preflight ── uptime fails ► invalidate(runnerReadinessPreflightFailed)   nothing sent
            │                  └── ok
            └── skip ─────────────┴──► send once under the command window
                                          │
         reply ◄──────────────────────────┤ transport failure
           │                              ├── not delivered (refused, connect timeout) ► invalidate(connectionRefused)
           │                              ├── timeout / malformed ► propagate (with the skip context)
           │                              └── connection-shaped after send ► one status probe, original id
           │                                        └► decide_recovery
           ├── ok: after_ok → lastHealthyMutation (after the runnerFatal check), health, lifecycle reset
           ├── RUNNER_BUSY → decide_retry (nothing ran)       RUNNER_WEDGED → invalidate(runnerWedged)
           ├── XCTEST_RECORDED_FAILURE after a tap → one post-action snapshot → decide_recorded_failure
           └── launchApp of a running app → lifecycle reset (needs_lifecycle_reset); unconfirmed → invalidate

Then ``HostSession`` asks :func:`decide_retry` whether to send again (fresh command id, possibly on a new runner).
"""

from __future__ import annotations

import enum
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from phonewire.protocol import commands as c
from phonewire.protocol import errors as e
from phonewire.protocol.envelope import Envelope, decode_envelope
from phonewire.protocol.errors import ProtocolError

# --- constants of the rules -------------------------------------------------------------------------------------
#: Mutating interactions whose healthy reply may stand in for the next ``uptime`` preflight
#: (docs/design/runner-lifecycle.md, decision 2).
HEALTHY_MUTATION_ALLOWLIST: Final = frozenset({c.TAP, c.LONG_PRESS, c.DRAG})
#: How long a healthy mutation proves liveness for the next allowlisted command of the same app, and a healthy
#: reply of any command for the next read-only one.
HEALTHY_MUTATION_WINDOW_S: Final = 5.0
#: Commands that are themselves readiness probes: never preflighted (no recursion).
READINESS_PROBES: Final = frozenset({c.UPTIME, c.STATUS})
#: Total sends of one command (first try included) when a retry is allowed.
MAX_ATTEMPTS: Final = 3
BACKOFF_BASE_S: Final = 0.3
BACKOFF_CAP_S: Final = 2.0

# --- reason names -------------------------------------------------------------------------------------------
# preflight skipped
SKIP_READINESS_PROBE: Final = "readinessProbe"
SKIP_READ_ONLY_STARTUP: Final = "readOnlyStartup"
SKIP_HEALTHY_MUTATION: Final = "healthyMutation"
SKIP_HEALTHY_REPLY: Final = "healthyReply"
# preflight used
PREFLIGHT_STARTUP: Final = "startup"
PREFLIGHT_NOT_ALLOWLISTED: Final = "notAllowlisted"
PREFLIGHT_NO_RECENT_REPLY: Final = "noRecentReply"
PREFLIGHT_NO_RECORD: Final = "noRecord"
PREFLIGHT_STALE_RECORD: Final = "staleRecord"
PREFLIGHT_APP_ACTIVATION_UNCERTAIN: Final = "appActivationUncertain"
# error markers (the reference's names)
PREFLIGHT_SKIPPED_MARKER: Final = "runnerReadinessPreflightSkipped"
PREFLIGHT_FAILED_MARKER: Final = "runnerReadinessPreflightFailed"
# recovery outcomes
RECOVERED_COMPLETED: Final = "completedRetained"
RECOVERY_COMPLETED_NOT_RETAINED: Final = "completedNotRetained"
RECOVERY_FAILED: Final = "failed"
RECOVERY_IN_FLIGHT: Final = "inFlight"
RECOVERY_NOT_ACCEPTED: Final = "notAccepted"
RECOVERY_UNKNOWN_STATE: Final = "unknownState"
RECOVERY_PROBE_FAILED: Final = "statusProbeFailed"
# invalidation reasons
INVALIDATE_PROCESS_EXITED: Final = "processExited"
INVALIDATE_CONNECTION_REFUSED: Final = "connectionRefused"
INVALIDATE_PREFLIGHT_FAILED: Final = PREFLIGHT_FAILED_MARKER
INVALIDATE_UNKNOWN_STATE: Final = "statusUnknown"
INVALIDATE_PROBE_FAILED: Final = RECOVERY_PROBE_FAILED
INVALIDATE_WEDGED: Final = "runnerWedged"
INVALIDATE_RESET_UNCONFIRMED: Final = "lifecycleResetUnconfirmed"
INVALIDATE_CLOSED: Final = "hostClosed"
INVALIDATE_DEVICE_UNAVAILABLE: Final = "deviceUnavailable"
# recorded-failure evidence
EVIDENCE_CHANGED: Final = "screenChanged"
EVIDENCE_UNCHANGED: Final = "screenUnchanged"
EVIDENCE_NO_BASELINE: Final = "noRetainedSnapshot"
EVIDENCE_UNAVAILABLE: Final = "captureUnavailable"
EVIDENCE_SPARSE: Final = "sparseSnapshot"
EVIDENCE_APP_MISMATCH: Final = "appMismatch"

HINT_REOBSERVE: Final = (
    "The command may or may not have taken effect. Take a snapshot to see the current screen before repeating it."
)


# --- 1. preflight ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class HealthyMutation:
    """``lastHealthyMutation``: lives only on one runner session object, so it dies with every invalidation."""

    command: str
    app_id: str | None
    at: float


@dataclass(frozen=True, slots=True)
class PreflightDecision:
    preflight: bool
    reason: str
    #: Age of the healthy-mutation record the decision looked at (``None`` when there was none).
    age_s: float | None = None

    @property
    def skipped_on_recency(self) -> bool:
        return self.reason in (SKIP_HEALTHY_MUTATION, SKIP_HEALTHY_REPLY)


def decide_preflight(
    command: str,
    app_id: str | None,
    *,
    ready: bool,
    record: HealthyMutation | None,
    now: float,
    window_s: float = HEALTHY_MUTATION_WINDOW_S,
    last_reply_at: float | None = None,
) -> PreflightDecision:
    """Whether to send an ``uptime`` probe before ``command``; the first matching rule wins.

    ``last_reply_at`` is when this runner session last got a healthy reply (ok, not ``runnerFatal``) to any
    command, the preflight's own ``uptime`` included."""
    age = None if record is None else now - record.at
    if command in READINESS_PROBES:
        return PreflightDecision(False, SKIP_READINESS_PROBE, age)
    if not ready:
        # A fresh runner: its first successful command is the readiness proof.  A read-only command may be
        # that proof; a mutating one is not sent until an uptime has answered.
        if command in c.READ_ONLY:
            return PreflightDecision(False, SKIP_READ_ONLY_STARTUP, age)
        return PreflightDecision(True, PREFLIGHT_STARTUP, age)
    if command in c.READ_ONLY:
        # A read-only command is its own probe: its reply proves the runner alive, and if the send fails it is
        # repeatable (status recovery retries it; a refused connect goes to a new runner).  The preflight only
        # stays after an idle moment, where a wedged runner would cost the command's window, not the probe's.
        reply_age = None if last_reply_at is None else now - last_reply_at
        if reply_age is not None and 0 <= reply_age <= window_s:
            return PreflightDecision(False, SKIP_HEALTHY_REPLY, reply_age)
        return PreflightDecision(True, PREFLIGHT_NO_RECENT_REPLY, reply_age)
    if command not in HEALTHY_MUTATION_ALLOWLIST:
        return PreflightDecision(True, PREFLIGHT_NOT_ALLOWLISTED, age)
    if record is None or age is None:
        return PreflightDecision(True, PREFLIGHT_NO_RECORD, None)
    if record.app_id != app_id:
        return PreflightDecision(True, PREFLIGHT_APP_ACTIVATION_UNCERTAIN, age)
    if not 0 <= age <= window_s:
        return PreflightDecision(True, PREFLIGHT_STALE_RECORD, age)
    return PreflightDecision(False, SKIP_HEALTHY_MUTATION, age)


def is_runner_fatal(envelope: Envelope) -> bool:
    """A reply the runner marked as coming from a broken target (``runnerFatal``): never a health signal."""
    return bool(envelope.data and envelope.data.get("runnerFatal"))


def is_healthy_reply(envelope: Envelope) -> bool:
    """Any reply that parsed ok and is not ``runnerFatal`` proves the runner alive for the next read-only command."""
    return envelope.ok and not is_runner_fatal(envelope)


def should_record_healthy(command: str, envelope: Envelope) -> bool:
    """Record ``lastHealthyMutation`` only for an allowlisted mutation whose reply parsed ok and is not fatal."""
    if command not in HEALTHY_MUTATION_ALLOWLIST or command in c.READ_ONLY:
        return False
    if not envelope.ok:
        return False
    return not is_runner_fatal(envelope)


class ReplyHealth(enum.Enum):
    """What an ok reply says about the runner's health for the next read-only command."""

    HEALTHY = "healthy"  # proves the runner alive: its time is recorded
    FATAL = "fatal"  # ``runnerFatal``: a broken target, the next read-only command probes again
    SILENT = "silent"  # says nothing (the caller passed ``healthy_signal=False``)


@dataclass(frozen=True, slots=True)
class AfterOk:
    """What the session records after an ok reply, and whether the app's relaunch needs a lifecycle reset."""

    record_mutation: bool
    health: ReplyHealth
    lifecycle_reset: bool


def after_ok(
    command: str, app_id: str | None, reply: Envelope, running_before: frozenset[str], *, healthy_signal: bool = True
) -> AfterOk:
    """The decisions an ok reply makes: :func:`should_record_healthy`, :func:`is_healthy_reply` (or
    :func:`is_runner_fatal`) and :func:`needs_lifecycle_reset`, in one answer.  ``healthy_signal=False`` (a reply
    read back from the journal, not served live) records no health either way."""
    if is_healthy_reply(reply):
        health = ReplyHealth.HEALTHY if healthy_signal else ReplyHealth.SILENT
    else:
        health = ReplyHealth.FATAL if is_runner_fatal(reply) else ReplyHealth.SILENT
    return AfterOk(
        record_mutation=healthy_signal and should_record_healthy(command, reply),
        health=health,
        lifecycle_reset=needs_lifecycle_reset(command, app_id, running_before, reply),
    )


# --- 2. transport failures -----------------------------------------------------------------------------------
class FailureShape(enum.Enum):
    """How a send failed; decides between status recovery and propagation."""

    CONNECTION = "connection"  # refused, reset, hung up, closed before the reply
    TIMEOUT = "timeout"  # the whole-transport deadline ran out
    MALFORMED = "malformed"  # something answered, but not an envelope (or too large)


class FailureAction(enum.Enum):
    NOT_SENT = "notSent"  # the request never left: the runner is gone; the command may go to a new runner
    STATUS_RECOVERY = "statusRecovery"
    PROPAGATE = "propagate"


def decide_after_transport_failure(shape: FailureShape, *, delivered: bool) -> FailureAction:
    """Connection-shaped failures after the request left run status recovery, never a blind replay;
    timeout-shaped and malformed ones propagate (with the skip context when the preflight was skipped)."""
    if not delivered and shape is not FailureShape.MALFORMED:
        return FailureAction.NOT_SENT
    if shape is FailureShape.CONNECTION:
        return FailureAction.STATUS_RECOVERY
    return FailureAction.PROPAGATE


# --- 3. status-before-invalidate recovery ---------------------------------------------------------------------
class RecoveryAction(enum.Enum):
    REPLY = "reply"  # the recovered envelope is the command's answer; session kept
    RETRY = "retry"  # read-only, effect repeatable: send again; session kept
    RESEND = "resend"  # the runner never received it (notAccepted): nothing ran, any command may go again
    FAIL = "fail"  # surface ``error``; session kept
    INVALIDATE = "invalidate"  # the runner cannot vouch for the command: new runner session


@dataclass(frozen=True, slots=True)
class RecoveryDecision:
    action: RecoveryAction
    reason: str
    envelope: Envelope | None = None
    error: ProtocolError | None = None
    #: Runner state named by the probe (``None`` when the probe failed).
    state: str | None = None

    @property
    def invalidation_reason(self) -> str | None:
        """The invalidation reason an INVALIDATE decision stands for."""
        if self.action is not RecoveryAction.INVALIDATE:
            return None
        return _INVALIDATION_FOR_RECOVERY.get(self.reason, INVALIDATE_UNKNOWN_STATE)


_INVALIDATION_FOR_RECOVERY: Final = {
    RECOVERY_UNKNOWN_STATE: INVALIDATE_UNKNOWN_STATE,
    RECOVERY_PROBE_FAILED: INVALIDATE_PROBE_FAILED,
}


def _retained_envelope(raw: object) -> Envelope | None:
    if raw is None:
        return None
    try:
        obj = json.loads(raw) if isinstance(raw, (str, bytes)) else raw
        return decode_envelope(obj)
    except (ValueError, TypeError):
        return None


def decide_recovery(command: str, status: Mapping[str, Any] | None) -> RecoveryDecision:
    """Act on the journaled fate of a command whose reply was lost (``status`` is the probe's ``data``, or
    ``None`` when the probe itself failed or answered an error)."""
    read_only = command in c.READ_ONLY
    if status is None:
        return RecoveryDecision(RecoveryAction.INVALIDATE, RECOVERY_PROBE_FAILED)
    state = status.get("state")
    state_name = state if isinstance(state, str) else None
    if state == "completed":
        retained = _retained_envelope(status.get("responseJson"))
        if retained is not None:
            return RecoveryDecision(RecoveryAction.REPLY, RECOVERED_COMPLETED, envelope=retained, state=state_name)
        if read_only:
            return RecoveryDecision(RecoveryAction.RETRY, RECOVERY_COMPLETED_NOT_RETAINED, state=state_name)
        if status.get("responseOk") is False and isinstance(status.get("errorCode"), str):
            return RecoveryDecision(
                RecoveryAction.FAIL, RECOVERY_COMPLETED_NOT_RETAINED, error=_journaled_error(status), state=state_name
            )
        return RecoveryDecision(
            RecoveryAction.FAIL,
            RECOVERY_COMPLETED_NOT_RETAINED,
            error=ProtocolError(
                e.TRANSPORT_FAILED,
                f"{command} completed on the runner, but its reply was lost and too large to be retained",
                "The command ran exactly once. Take a snapshot to see its effect; do not repeat it blindly.",
            ),
            state=state_name,
        )
    if state == "failed":
        return RecoveryDecision(RecoveryAction.FAIL, RECOVERY_FAILED, error=_journaled_error(status), state=state_name)
    if state in ("accepted", "started"):
        return RecoveryDecision(
            RecoveryAction.FAIL,
            RECOVERY_IN_FLIGHT,
            error=ProtocolError(
                e.COMMAND_IN_FLIGHT,
                f"{command} was {state} by the runner and is still executing; its reply was lost",
                "Wait a moment, then take a snapshot to see whether it took effect. Do not send it again.",
            ),
            state=state_name,
        )
    if state == "notAccepted":  # the journal never saw the id: the request was lost on the way, nothing ran
        return RecoveryDecision(RecoveryAction.RESEND, RECOVERY_NOT_ACCEPTED, state=state_name)
    return RecoveryDecision(RecoveryAction.INVALIDATE, RECOVERY_UNKNOWN_STATE, state=state_name)


def _journaled_error(status: Mapping[str, Any]) -> ProtocolError:
    code = status.get("errorCode")
    message = status.get("errorMessage")
    hint = status.get("errorHint")
    return ProtocolError(
        code if isinstance(code, str) else e.COMMAND_FAILED,
        message if isinstance(message, str) else "the command failed on the runner",
        hint if isinstance(hint, str) else None,
    )


# --- 4. retry --------------------------------------------------------------------------------------------------
class Outcome(enum.Enum):
    """What one attempt of a command came to, as far as retrying is concerned."""

    OK = "ok"
    RUNNER_ERROR = "runnerError"  # an error envelope (final)
    RUNNER_BUSY = "runnerBusy"  # rejected, nothing ran
    RUNNER_WEDGED = "runnerWedged"  # rejected, runner recycled
    NOT_SENT = "notSent"  # never left the host (runner gone, preflight failed)
    REPLY_LOST = "replyLost"  # sent, fate resolved as "repeatable" or "unknown"
    NOT_ACCEPTED = "notAccepted"  # sent, but the runner's journal proves it never arrived: nothing ran
    FINAL = "final"  # an error to surface as is (in flight, timeout, malformed, unrecoverable)


@dataclass(frozen=True, slots=True)
class RetryDecision:
    retry: bool
    reason: str
    delay_s: float = 0.0


def backoff_s(attempt: int, scale: float = 1.0) -> float:
    """300 ms × 2^attempt, capped at 2 s, times the time scale (``attempt`` counts from 0)."""
    return float(min(BACKOFF_BASE_S * (2**attempt), BACKOFF_CAP_S) * scale)


def decide_retry(command: str, outcome: Outcome, attempt: int, *, scale: float = 1.0) -> RetryDecision:
    """Whether to send ``command`` again after attempt number ``attempt`` (0-based) came to ``outcome``.

    A mutating command is never sent twice: it is sent again only when the runner proved nothing ran
    (RUNNER_BUSY; NOT_ACCEPTED, once) or the request never left the host (NOT_SENT)."""
    if attempt + 1 >= MAX_ATTEMPTS:
        return RetryDecision(False, "attemptsExhausted")
    if outcome is Outcome.RUNNER_BUSY:
        return RetryDecision(True, "runnerBusy", backoff_s(attempt, scale))
    if outcome is Outcome.NOT_SENT:
        return RetryDecision(True, "notSent", 0.0)
    if outcome is Outcome.NOT_ACCEPTED:  # once: a second loss on the way says the path itself is broken
        return (
            RetryDecision(True, "notAcceptedResent", 0.0) if attempt == 0 else RetryDecision(False, "notAcceptedTwice")
        )
    if outcome is Outcome.REPLY_LOST:
        if command in c.READ_ONLY:
            return RetryDecision(True, "readOnlyReplyLost", backoff_s(attempt, scale))
        return RetryDecision(False, "mutatingNeverResent")
    return RetryDecision(False, outcome.value)


# --- 5. invalidation --------------------------------------------------------------------------------------------
class StopMode(enum.Enum):
    DETACH = "detach"  # an attached runner we do not own: just stop using it
    REAP = "reap"  # the process already exited: collect it, no graceful wait
    TERMINATE = "terminate"  # unreachable or wedged: SIGTERM → SIGKILL, no shutdown request
    GRACEFUL = "graceful"  # shutdown → SIGTERM → SIGKILL, each bounded


@dataclass(frozen=True, slots=True)
class InvalidationDecision:
    reason: str
    stop: StopMode


def decide_invalidation(reason: str, *, owned: bool, process_alive: bool, reachable: bool) -> InvalidationDecision:
    """How to let go of a runner session that ``reason`` invalidated."""
    if not owned:
        return InvalidationDecision(reason, StopMode.DETACH)
    if not process_alive:
        return InvalidationDecision(reason, StopMode.REAP)
    if not reachable or reason == INVALIDATE_WEDGED:
        return InvalidationDecision(reason, StopMode.TERMINATE)
    return InvalidationDecision(reason, StopMode.GRACEFUL)


# --- 6. app relaunch ---------------------------------------------------------------------------------------------
def needs_lifecycle_reset(command: str, app_id: str | None, running_before: frozenset[str], reply: Envelope) -> bool:
    """A launchApp that replaced a running app's process: send ``reset`` so the warm runner reacquires it."""
    if command != c.LAUNCH_APP or not reply.ok or app_id is None:
        return False
    data = reply.data or {}
    if data.get("relaunched") is True or data.get("wasRunning") is True:
        return True
    return app_id in running_before


#: What a device answers a launchApp it refused before touching the app (a malformed or unknown locale or time zone,
#: an option the platform lacks): the running app is as it was, and so is the runner.
LAUNCH_REFUSED: Final = frozenset({e.INVALID_REQUEST, e.UNSUPPORTED_OPERATION})


def relaunch_failed(command: str, app_id: str | None, running_before: frozenset[str], reply: Envelope) -> bool:
    """A relaunch of a running app that failed before a reset could re-aim the runner: discard the runner (not for
    a refusal: :data:`LAUNCH_REFUSED`)."""
    refused = reply.error is not None and reply.error.code in LAUNCH_REFUSED
    return command == c.LAUNCH_APP and not reply.ok and not refused and app_id is not None and app_id in running_before


# --- 7. XCTEST_RECORDED_FAILURE after a tap ---------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SnapshotEvidence:
    app_id: str | None
    digest: str
    nodes: int
    sparse: bool


def snapshot_evidence(app_id: str | None, data: Mapping[str, Any] | None) -> SnapshotEvidence | None:
    """Digest of a snapshot reply's nodes (their roles, texts, states and geometry); ``None`` when unusable."""
    if not data or not isinstance(data.get("nodes"), list):
        return None
    nodes = data["nodes"]
    keyed = [
        [n.get(k) for k in ("type", "label", "identifier", "value", "rect", "enabled", "focused", "selected")]
        for n in nodes
        if isinstance(n, dict)
    ]
    digest = hashlib.sha256(json.dumps(keyed, sort_keys=True, default=str).encode()).hexdigest()
    sparse = len(keyed) < 2 or bool(data.get("runnerFatal"))
    return SnapshotEvidence(app_id, digest, len(keyed), sparse)


@dataclass(frozen=True, slots=True)
class RecordedFailureDecision:
    success_with_warning: bool
    reason: str


def wants_post_action_capture(
    command: str, error_code: str, baseline: SnapshotEvidence | None, app_id: str | None
) -> bool:
    """Take the one post-action snapshot only when it could change the verdict."""
    return (
        command == c.TAP
        and error_code == e.XCTEST_RECORDED_FAILURE
        and baseline is not None
        and not baseline.sparse
        and baseline.app_id == app_id
    )


def decide_recorded_failure(
    app_id: str | None, baseline: SnapshotEvidence | None, after: SnapshotEvidence | None
) -> RecordedFailureDecision:
    """Changed screen → the tap happened: success with an explicit warning.  Anything else → the original failure."""
    if baseline is None:
        return RecordedFailureDecision(False, EVIDENCE_NO_BASELINE)
    if baseline.sparse or (after is not None and after.sparse):
        return RecordedFailureDecision(False, EVIDENCE_SPARSE)
    if baseline.app_id != app_id or (after is not None and after.app_id != app_id):
        return RecordedFailureDecision(False, EVIDENCE_APP_MISMATCH)
    if after is None:
        return RecordedFailureDecision(False, EVIDENCE_UNAVAILABLE)
    if after.digest == baseline.digest:
        return RecordedFailureDecision(False, EVIDENCE_UNCHANGED)
    return RecordedFailureDecision(True, EVIDENCE_CHANGED)


RECORDED_FAILURE_WARNING: Final = (
    "The device recorded a failure during this tap, but the screen changed afterwards, so the tap most likely "
    "took effect. Take a snapshot and confirm before tapping again."
)
