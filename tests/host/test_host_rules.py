# ruff: noqa: E501  (decision tables read best one case per line)
"""The session rules as tables: every case names the record it checks (lifecycle = docs/design/runner-lifecycle.md,
recovery and send-once = docs/design/send-once-recovery.md; docs/design/README.md lists the tags).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from phonewire.host import rules as r
from phonewire.protocol import commands as c
from phonewire.protocol import errors as e
from phonewire.protocol.envelope import Envelope, ok
from phonewire.protocol.errors import ProtocolError

NOW = 100.0
APP = "app.counter"


def rec(app: str | None = APP, age: float = 1.0, command: str = c.TAP) -> r.HealthyMutation:
    return r.HealthyMutation(command, app, NOW - age)


# --- preflight ---------------------------------------------------------------------------------------------------
# (rule, command, app, ready, record, expected preflight, expected reason)
PREFLIGHT_CASES: list[tuple[str, str, str | None, bool, r.HealthyMutation | None, bool, str]] = [
    ("lifecycle: readiness probe commands skip preflight to avoid recursion (uptime)",
     c.UPTIME, None, True, None, False, r.SKIP_READINESS_PROBE),
    ("lifecycle: readiness probe commands skip preflight (status)",
     c.STATUS, None, False, None, False, r.SKIP_READINESS_PROBE),
    ("lifecycle: read-only startup commands skip preflight; the first success is the readiness proof",
     c.SNAPSHOT, APP, False, None, False, r.SKIP_READ_ONLY_STARTUP),
    ("lifecycle: read-only startup skip applies to any read-only command (listApps)",
     c.LIST_APPS, None, False, None, False, r.SKIP_READ_ONLY_STARTUP),
    ("lifecycle: first-command/startup mutating commands still preflight",
     c.TAP, APP, False, rec(), True, r.PREFLIGHT_STARTUP),
    ("lifecycle: ready sessions preflight every non-allowlisted command (type)",
     c.TYPE, APP, True, rec(), True, r.PREFLIGHT_NOT_ALLOWLISTED),
    ("issue 27: a read-only command with no healthy reply on record preflights (snapshot)",
     c.SNAPSHOT, APP, True, rec(), True, r.PREFLIGHT_NO_RECENT_REPLY),
    ("lifecycle: launchApp is not allowlisted",
     c.LAUNCH_APP, APP, True, rec(), True, r.PREFLIGHT_NOT_ALLOWLISTED),
    ("lifecycle: no record → preflight",
     c.TAP, APP, True, None, True, r.PREFLIGHT_NO_RECORD),
    ("lifecycle: app-activation-uncertain (record for another app) → preflight",
     c.TAP, "app.other", True, rec(), True, r.PREFLIGHT_APP_ACTIVATION_UNCERTAIN),
    ("lifecycle: stale record (older than 5 s) → preflight",
     c.TAP, APP, True, rec(age=5.01), True, r.PREFLIGHT_STALE_RECORD),
    ("lifecycle: a record from the future (clock went backwards) is stale",
     c.TAP, APP, True, rec(age=-1.0), True, r.PREFLIGHT_STALE_RECORD),
    ("lifecycle: healthy mutation of the same app within 5 s → skip (tap)",
     c.TAP, APP, True, rec(age=0.2), False, r.SKIP_HEALTHY_MUTATION),
    ("lifecycle: skip applies at exactly 5 s",
     c.TAP, APP, True, rec(age=5.0), False, r.SKIP_HEALTHY_MUTATION),
    ("lifecycle: allowlist includes longPress", c.LONG_PRESS, APP, True, rec(), False, r.SKIP_HEALTHY_MUTATION),
    ("lifecycle: allowlist includes drag", c.DRAG, APP, True, rec(), False, r.SKIP_HEALTHY_MUTATION),
]  # fmt: skip


# (rule, command, ready, age of the last healthy reply or None, expected preflight, expected reason)
READ_ONLY_CASES: list[tuple[str, str, bool, float | None, bool, str]] = [
    ("issue 27: a read-only command within the healthy window skips: the reply itself proves the runner alive",
     c.SNAPSHOT, True, 0.0086, False, r.SKIP_HEALTHY_REPLY),
    ("issue 27: the read-only skip applies at exactly 5 s", c.SNAPSHOT, True, 5.0, False, r.SKIP_HEALTHY_REPLY),
    ("issue 27: any read-only command may skip (viewport)", c.VIEWPORT, True, 1.0, False, r.SKIP_HEALTHY_REPLY),
    ("issue 27: after an idle moment (reply older than 5 s) a read-only command preflights",
     c.SNAPSHOT, True, 5.01, True, r.PREFLIGHT_NO_RECENT_REPLY),
    ("issue 27: a reply from the future (clock went backwards) is stale",
     c.SNAPSHOT, True, -1.0, True, r.PREFLIGHT_NO_RECENT_REPLY),
    ("issue 27: a recent reply never lets a mutating command skip (type)",
     c.TYPE, True, 0.1, True, r.PREFLIGHT_NOT_ALLOWLISTED),
    ("issue 27: a recent reply is no healthy mutation: a tap with no record preflights",
     c.TAP, True, 0.1, True, r.PREFLIGHT_NO_RECORD),
    ("lifecycle: startup still wins: a read-only command on a fresh runner is the readiness proof",
     c.SNAPSHOT, False, None, False, r.SKIP_READ_ONLY_STARTUP),
]  # fmt: skip


@pytest.mark.parametrize("case", READ_ONLY_CASES, ids=[x[0] for x in READ_ONLY_CASES])
def test_read_only_preflight_decision(case: Any) -> None:
    rule, command, ready, reply_age, preflight, reason = case
    last = None if reply_age is None else NOW - reply_age
    decision = r.decide_preflight(command, APP, ready=ready, record=None, now=NOW, last_reply_at=last)
    assert (decision.preflight, decision.reason) == (preflight, reason), rule


HEALTHY_REPLY_CASES: list[tuple[str, Envelope, bool]] = [
    ("issue 27: an ok snapshot reply proves the runner alive", ok({"nodes": []}), True),
    ("issue 27: a runnerFatal reply is never a health signal", ok({"runnerFatal": True}), False),
    ("issue 27: an error reply is not counted", Envelope(ok=False, error=ProtocolError(e.COMMAND_FAILED, "x")), False),
]  # fmt: skip


@pytest.mark.parametrize("case", HEALTHY_REPLY_CASES, ids=[x[0] for x in HEALTHY_REPLY_CASES])
def test_healthy_reply(case: Any) -> None:
    rule, envelope, expected = case
    assert r.is_healthy_reply(envelope) is expected, rule


@pytest.mark.parametrize("case", PREFLIGHT_CASES, ids=[x[0] for x in PREFLIGHT_CASES])
def test_preflight_decision(case: Any) -> None:
    rule, command, app, ready, record, preflight, reason = case
    decision = r.decide_preflight(command, app, ready=ready, record=record, now=NOW)
    assert (decision.preflight, decision.reason) == (preflight, reason), rule


def test_preflight_reports_recency_age_for_diagnostics() -> None:
    """lifecycle: diagnostics expose the recency age of the record a decision looked at."""
    decision = r.decide_preflight(c.TAP, APP, ready=True, record=rec(age=0.25), now=NOW)
    assert decision.age_s == pytest.approx(0.25)
    assert decision.skipped_on_recency


# --- healthy-mutation record ---------------------------------------------------------------------------------------
RECORD_CASES: list[tuple[str, str, Envelope, bool]] = [
    ("lifecycle: a healthy allowlisted mutation is recorded", c.TAP, ok({"message": "tapped"}), True),
    ("lifecycle: recorded only after the runnerFatal check", c.TAP, ok({"runnerFatal": True}), False),
    ("lifecycle: an error reply is not healthy", c.TAP, Envelope(ok=False, error=ProtocolError(e.COMMAND_FAILED, "x")), False),
    ("lifecycle: snapshots never count as a health signal", c.SNAPSHOT, ok({"nodes": []}), False),
    ("lifecycle: read-only replies never count (viewport)", c.VIEWPORT, ok({}), False),
    ("lifecycle: non-allowlisted mutations are not recorded (type)", c.TYPE, ok({}), False),
    ("lifecycle: a warning-carrying ok reply is still parsed ok and not fatal", c.DRAG, ok({}, warning="w"), True),
]  # fmt: skip


@pytest.mark.parametrize("case", RECORD_CASES, ids=[x[0] for x in RECORD_CASES])
def test_healthy_mutation_record(case: Any) -> None:
    rule, command, envelope, expected = case
    assert r.should_record_healthy(command, envelope) is expected, rule


AFTER_OK_CASES: list[tuple[str, str, frozenset[str], Envelope, bool, tuple[bool, r.ReplyHealth, bool]]] = [
    ("issue 26: a healthy tap records the mutation and the reply's time", c.TAP, frozenset(), ok({}), True,
     (True, r.ReplyHealth.HEALTHY, False)),
    ("issue 26: a runnerFatal tap records nothing and clears the healthy reply", c.TAP, frozenset(),
     ok({"runnerFatal": True}), True, (False, r.ReplyHealth.FATAL, False)),
    ("issue 26: a recovered reply (no health signal) records nothing", c.TAP, frozenset(), ok({}), False,
     (False, r.ReplyHealth.SILENT, False)),
    ("issue 26: a recovered runnerFatal reply still clears the healthy reply", c.SNAPSHOT, frozenset(),
     ok({"runnerFatal": True}), False, (False, r.ReplyHealth.FATAL, False)),
    ("issue 26: a snapshot proves health but is no mutation", c.SNAPSHOT, frozenset(), ok({"nodes": []}), True,
     (False, r.ReplyHealth.HEALTHY, False)),
    ("issue 26: relaunching a running app asks for the lifecycle reset", c.LAUNCH_APP, frozenset({APP}), ok({}),
     True, (False, r.ReplyHealth.HEALTHY, True)),
]  # fmt: skip


@pytest.mark.parametrize("case", AFTER_OK_CASES, ids=[x[0] for x in AFTER_OK_CASES])
def test_after_ok_decision(case: Any) -> None:
    """The one answer an ok reply gets is the three rules it is made of (the tables above), composed."""
    rule, command, running, reply, signal, (mutation, health, reset) = case
    after = r.after_ok(command, APP, reply, running, healthy_signal=signal)
    assert (after.record_mutation, after.health, after.lifecycle_reset) == (mutation, health, reset), rule


# --- transport failure classification ----------------------------------------------------------------------------
FAILURE_CASES: list[tuple[str, r.FailureShape, bool, r.FailureAction]] = [
    ("lifecycle: connection-shaped failures after send run status recovery, never a blind replay",
     r.FailureShape.CONNECTION, True, r.FailureAction.STATUS_RECOVERY),
    ("lifecycle: timeout-shaped failures propagate",
     r.FailureShape.TIMEOUT, True, r.FailureAction.PROPAGATE),
    ("issue 4: a malformed reply propagates",
     r.FailureShape.MALFORMED, True, r.FailureAction.PROPAGATE),
    ("lifecycle: a refused connection never delivered the command: the runner is gone",
     r.FailureShape.CONNECTION, False, r.FailureAction.NOT_SENT),
    ("issue 4: a connect timeout never delivered the command",
     r.FailureShape.TIMEOUT, False, r.FailureAction.NOT_SENT),
]  # fmt: skip


@pytest.mark.parametrize("case", FAILURE_CASES, ids=[x[0] for x in FAILURE_CASES])
def test_transport_failure_action(case: Any) -> None:
    rule, shape, delivered, action = case
    assert r.decide_after_transport_failure(shape, delivered=delivered) is action, rule


# --- status recovery ---------------------------------------------------------------------------------------------
RETAINED = json.dumps({"ok": True, "data": {"message": "tapped"}})
RETAINED_ERR = {"ok": False, "error": {"code": e.APP_NOT_AVAILABLE, "message": "gone", "hint": "launch it"}}

# (rule, command, status data or None, action, reason, code of the error or None)
RECOVERY_CASES: list[tuple[str, str, dict[str, Any] | None, r.RecoveryAction, str, str | None]] = [
    ("recovery: completed with retained response → that reply, session kept",
     c.TAP, {"state": "completed", "responseOk": True, "responseJson": RETAINED},
     r.RecoveryAction.REPLY, r.RECOVERED_COMPLETED, None),
    ("recovery: retained JSON may arrive as an object, not only a string",
     c.TAP, {"state": "completed", "responseJson": {"ok": True, "data": {}}},
     r.RecoveryAction.REPLY, r.RECOVERED_COMPLETED, None),
    ("send-once: a retained error envelope is the command's answer",
     c.TAP, {"state": "completed", "responseOk": False, "responseJson": RETAINED_ERR},
     r.RecoveryAction.REPLY, r.RECOVERED_COMPLETED, None),
    ("recovery: read-only commands whose response was not retained keep the retry behaviour",
     c.SNAPSHOT, {"state": "completed", "responseOk": True},
     r.RecoveryAction.RETRY, r.RECOVERY_COMPLETED_NOT_RETAINED, None),
    ("issue 4: completed without reply, mutating → fail with a hint to re-observe, session kept",
     c.TAP, {"state": "completed", "responseOk": True},
     r.RecoveryAction.FAIL, r.RECOVERY_COMPLETED_NOT_RETAINED, e.TRANSPORT_FAILED),
    ("issue 4: an unreadable retained reply counts as not retained",
     c.TAP, {"state": "completed", "responseJson": "{not json"},
     r.RecoveryAction.FAIL, r.RECOVERY_COMPLETED_NOT_RETAINED, e.TRANSPORT_FAILED),
    ("recovery: failed → the runner failure code/message/hint",
     c.TAP, {"state": "failed", "errorCode": e.APP_NOT_AVAILABLE, "errorMessage": "gone", "errorHint": "launch it"},
     r.RecoveryAction.FAIL, r.RECOVERY_FAILED, e.APP_NOT_AVAILABLE),
    ("recovery: accepted → session kept, command reported in flight, never replayed",
     c.TAP, {"state": "accepted"}, r.RecoveryAction.FAIL, r.RECOVERY_IN_FLIGHT, e.COMMAND_IN_FLIGHT),
    ("recovery: started → session kept, command reported in flight",
     c.DRAG, {"state": "started"}, r.RecoveryAction.FAIL, r.RECOVERY_IN_FLIGHT, e.COMMAND_IN_FLIGHT),
    ("issue 15: notAccepted proves nothing ran: resend, session kept (was: invalidate)",
     c.TAP, {"state": "notAccepted"}, r.RecoveryAction.RESEND, r.RECOVERY_NOT_ACCEPTED, None),
    ("recovery: unknown status states still invalidate",
     c.TAP, {"state": "exploded"}, r.RecoveryAction.INVALIDATE, r.RECOVERY_UNKNOWN_STATE, None),
    ("recovery: a status timeout or transport failure preserves invalidation",
     c.TAP, None, r.RecoveryAction.INVALIDATE, r.RECOVERY_PROBE_FAILED, None),
]  # fmt: skip


@pytest.mark.parametrize("case", RECOVERY_CASES, ids=[x[0] for x in RECOVERY_CASES])
def test_recovery_decision(case: Any) -> None:
    rule, command, status, action, reason, code = case
    decision = r.decide_recovery(command, status)
    assert (decision.action, decision.reason) == (action, reason), rule
    assert (decision.error.code if decision.error else None) == code, rule


INVALIDATION_FOR = [
    (r.RECOVERY_NOT_ACCEPTED, {"state": "notAccepted"}, None),
    (r.RECOVERY_UNKNOWN_STATE, {"state": "?"}, r.INVALIDATE_UNKNOWN_STATE),
    (r.RECOVERY_PROBE_FAILED, None, r.INVALIDATE_PROBE_FAILED),
    (r.RECOVERED_COMPLETED, {"state": "completed", "responseJson": RETAINED}, None),
]


@pytest.mark.parametrize("case", INVALIDATION_FOR, ids=[x[0] for x in INVALIDATION_FOR])
def test_recovery_names_the_invalidation_reason(case: Any) -> None:
    """recovery: diagnostics record why invalidation was retained."""
    _name, status, reason = case
    assert r.decide_recovery(c.TAP, status).invalidation_reason == reason


def test_recovered_reply_is_the_retained_envelope() -> None:
    """recovery: the recovered command result is returned without resending."""
    decision = r.decide_recovery(c.TAP, {"state": "completed", "responseJson": RETAINED})
    assert decision.envelope is not None and decision.envelope.data == {"message": "tapped"}


def test_failed_recovery_keeps_the_runner_hint() -> None:
    """recovery: failed returns the runner failure hint instead of a generic transport failure."""
    decision = r.decide_recovery(
        c.TAP, {"state": "failed", "errorCode": e.COMMAND_FAILED, "errorMessage": "m", "errorHint": "h"}
    )
    assert decision.error is not None and (decision.error.message, decision.error.hint) == ("m", "h")


# --- retry ----------------------------------------------------------------------------------------------------------
# (rule, command, outcome, attempt, retry?, delay)
RETRY_CASES: list[tuple[str, str, r.Outcome, int, bool, float]] = [
    ("send-once: a mutating command is never sent twice after a lost reply", c.TAP, r.Outcome.REPLY_LOST, 0, False, 0.0),
    ("issue 4: read-only retries on retryable transport errors, 300 ms first", c.SNAPSHOT, r.Outcome.REPLY_LOST, 0, True, 0.3),
    ("issue 4: backoff doubles (600 ms) before the third attempt", c.SNAPSHOT, r.Outcome.REPLY_LOST, 1, True, 0.6),
    ("issue 4: RUNNER_BUSY is retried after a backoff, nothing ran (even mutating)", c.TAP, r.Outcome.RUNNER_BUSY, 0, True, 0.3),
    ("issue 4: RUNNER_BUSY second backoff 600 ms", c.TAP, r.Outcome.RUNNER_BUSY, 1, True, 0.6),
    ("issue 4: 3 attempts at most", c.SNAPSHOT, r.Outcome.RUNNER_BUSY, 2, False, 0.0),
    ("lifecycle: a command that never left the host goes to the new runner at once", c.TAP, r.Outcome.NOT_SENT, 0, True, 0.0),
    ("issue 15: a tap the runner never received is sent once more", c.TAP, r.Outcome.NOT_ACCEPTED, 0, True, 0.0),
    ("issue 15: ... but only once", c.TAP, r.Outcome.NOT_ACCEPTED, 1, False, 0.0),
    ("issue 4: RUNNER_WEDGED recycles the runner and is surfaced, not replayed", c.TAP, r.Outcome.RUNNER_WEDGED, 0, False, 0.0),
    ("send-once: in flight / timeout / unknown fate is final", c.SNAPSHOT, r.Outcome.FINAL, 0, False, 0.0),
    ("send-once: a runner error envelope is final", c.SNAPSHOT, r.Outcome.RUNNER_ERROR, 0, False, 0.0),
]  # fmt: skip


@pytest.mark.parametrize("case", RETRY_CASES, ids=[x[0] for x in RETRY_CASES])
def test_retry_decision(case: Any) -> None:
    rule, command, outcome, attempt, retry, delay = case
    decision = r.decide_retry(command, outcome, attempt)
    assert decision.retry is retry, rule
    assert decision.delay_s == pytest.approx(delay), rule


BACKOFF_CASES = [(0, 0.3), (1, 0.6), (2, 1.2), (3, 2.0), (10, 2.0)]


@pytest.mark.parametrize(("attempt", "expected"), BACKOFF_CASES)
def test_backoff_is_300ms_doubling_capped_at_2s(attempt: int, expected: float) -> None:
    """issue 4: 300 ms × 2^n, capped at 2 s, and scaled by the time scale."""
    assert r.backoff_s(attempt) == pytest.approx(expected)
    assert r.backoff_s(attempt, 0.1) == pytest.approx(expected * 0.1)


# --- invalidation -----------------------------------------------------------------------------------------------------
# (rule, reason, owned, alive, reachable, stop)
INVALIDATION_CASES: list[tuple[str, str, bool, bool, bool, r.StopMode]] = [
    ("lifecycle: dead cached runner processes are invalidated without graceful shutdown",
     r.INVALIDATE_PROCESS_EXITED, True, False, False, r.StopMode.REAP),
    ("lifecycle: a dead process is reaped even when the reason was something else",
     r.INVALIDATE_UNKNOWN_STATE, True, False, True, r.StopMode.REAP),
    ("issue 4: an unreachable live process skips the shutdown request it cannot answer",
     r.INVALIDATE_PROBE_FAILED, True, True, False, r.StopMode.TERMINATE),
    ("issue 4: RUNNER_WEDGED recycles without waiting on the stuck queue",
     r.INVALIDATE_WEDGED, True, True, True, r.StopMode.TERMINATE),
    ("issue 4: a reachable live runner gets shutdown → SIGTERM → SIGKILL",
     r.INVALIDATE_UNKNOWN_STATE, True, True, True, r.StopMode.GRACEFUL),
    ("issue 4: an attached runner is not ours to stop",
     r.INVALIDATE_PROBE_FAILED, False, True, False, r.StopMode.DETACH),
]  # fmt: skip


@pytest.mark.parametrize("case", INVALIDATION_CASES, ids=[x[0] for x in INVALIDATION_CASES])
def test_invalidation_decision(case: Any) -> None:
    rule, reason, owned, alive, reachable, stop = case
    decision = r.decide_invalidation(reason, owned=owned, process_alive=alive, reachable=reachable)
    assert decision.stop is stop, rule
    assert decision.reason == reason


# --- lifecycle reset after relaunch -----------------------------------------------------------------------------------
RESET_CASES: list[tuple[str, str, frozenset[str], Envelope, bool]] = [
    ("lifecycle: relaunching a running app sends a lifecycle reset", c.LAUNCH_APP, frozenset({APP}), ok({}), True),
    ("lifecycle: a first launch needs no reset", c.LAUNCH_APP, frozenset(), ok({}), False),
    ("lifecycle: the runner's own relaunch marker counts", c.LAUNCH_APP, frozenset(), ok({"wasRunning": True}), True),
    ("lifecycle: a failed relaunch is not reset (the runner is discarded instead)",
     c.LAUNCH_APP, frozenset({APP}), Envelope(ok=False, error=ProtocolError(e.APP_UNKNOWN, "x")), False),
    ("lifecycle: only launchApp relaunches", c.TAP, frozenset({APP}), ok({}), False),
]  # fmt: skip


@pytest.mark.parametrize("case", RESET_CASES, ids=[x[0] for x in RESET_CASES])
def test_lifecycle_reset_decision(case: Any) -> None:
    rule, command, running, reply, expected = case
    assert r.needs_lifecycle_reset(command, APP, running, reply) is expected, rule


RELAUNCH_FAILED_CASES = [
    ("lifecycle: a relaunch that fails before the reset discards the runner",
     frozenset({APP}), Envelope(ok=False, error=ProtocolError(e.APP_NOT_AVAILABLE, "x")), True),
    ("lifecycle: a first launch that fails leaves the runner alone",
     frozenset(), Envelope(ok=False, error=ProtocolError(e.APP_UNKNOWN, "x")), False),
    ("lifecycle: a successful relaunch is reset, not discarded", frozenset({APP}), ok({}), False),
    ("lifecycle: a relaunch refused before the app was touched (an unknown time zone) keeps the runner",
     frozenset({APP}), Envelope(ok=False, error=ProtocolError(e.INVALID_REQUEST, "x")), False),
    ("lifecycle: a relaunch with an option the platform lacks keeps the runner",
     frozenset({APP}), Envelope(ok=False, error=ProtocolError(e.UNSUPPORTED_OPERATION, "x")), False),
]  # fmt: skip


@pytest.mark.parametrize("case", RELAUNCH_FAILED_CASES, ids=[x[0] for x in RELAUNCH_FAILED_CASES])
def test_relaunch_failure_decision(case: Any) -> None:
    rule, running, reply, expected = case
    assert r.relaunch_failed(c.LAUNCH_APP, APP, running, reply) is expected, rule


# --- XCTEST_RECORDED_FAILURE after a tap ---------------------------------------------------------------------------
def snap(labels: list[str], app: str | None = APP, fatal: bool = False) -> r.SnapshotEvidence | None:
    nodes = [
        {"type": "StaticText", "label": label, "rect": {"x": 0, "y": i, "width": 1, "height": 1}}
        for i, label in enumerate(labels)
    ]
    data: dict[str, Any] = {"nodes": nodes}
    if fatal:
        data["runnerFatal"] = True
    return r.snapshot_evidence(app, data)


BEFORE = snap(["Home", "Counter"])
# (rule, baseline, after, success?, reason)
RECORDED_CASES: list[tuple[str, r.SnapshotEvidence | None, r.SnapshotEvidence | None, bool, str]] = [
    ("lifecycle: changed digest → success with explicit warning", BEFORE, snap(["Details", "Back"]), True, r.EVIDENCE_CHANGED),
    ("lifecycle: unchanged → the original failure", BEFORE, snap(["Home", "Counter"]), False, r.EVIDENCE_UNCHANGED),
    ("lifecycle: unavailable evidence → the original failure", BEFORE, None, False, r.EVIDENCE_UNAVAILABLE),
    ("lifecycle: no retained snapshot → the original failure", None, snap(["Details", "Back"]), False, r.EVIDENCE_NO_BASELINE),
    ("lifecycle: sparse evidence → the original failure", BEFORE, snap(["only"]), False, r.EVIDENCE_SPARSE),
    ("lifecycle: a fatal (AX-fallback) capture is sparse evidence", BEFORE, snap(["a", "b"], fatal=True), False, r.EVIDENCE_SPARSE),
    ("lifecycle: mismatched presentation (other app) → the original failure",
     BEFORE, snap(["Details", "Back"], app="app.other"), False, r.EVIDENCE_APP_MISMATCH),
]  # fmt: skip


@pytest.mark.parametrize("case", RECORDED_CASES, ids=[x[0] for x in RECORDED_CASES])
def test_recorded_failure_decision(case: Any) -> None:
    rule, before, after, success, reason = case
    decision = r.decide_recorded_failure(APP, before, after)
    assert (decision.success_with_warning, decision.reason) == (success, reason), rule


def test_post_action_capture_only_after_a_tap_with_a_usable_baseline() -> None:
    """lifecycle: one post-action capture only when a usable retained snapshot of the same app exists."""
    assert r.wants_post_action_capture(c.TAP, e.XCTEST_RECORDED_FAILURE, BEFORE, APP)
    assert not r.wants_post_action_capture(c.DRAG, e.XCTEST_RECORDED_FAILURE, BEFORE, APP)
    assert not r.wants_post_action_capture(c.TAP, e.COMMAND_FAILED, BEFORE, APP)
    assert not r.wants_post_action_capture(c.TAP, e.XCTEST_RECORDED_FAILURE, None, APP)
    assert not r.wants_post_action_capture(c.TAP, e.XCTEST_RECORDED_FAILURE, BEFORE, "app.other")


def test_allowlist_is_the_reference_lists_gestures_that_exist_on_this_wire() -> None:
    """lifecycle: the explicit mutating allowlist; its swipe/scroll/sequence are not commands of this wire (the
    agent's swipe and scroll are sent as drag)."""
    assert {"tap", "longPress", "drag"} == r.HEALTHY_MUTATION_ALLOWLIST
    assert r.HEALTHY_MUTATION_ALLOWLIST <= c.MUTATING
    assert r.HEALTHY_MUTATION_WINDOW_S == 5.0
