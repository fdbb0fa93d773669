"""The execution gate's decisions with a fake clock (pure: ``now`` is a number we choose)."""

from __future__ import annotations

import pytest

from phonewire.protocol import errors as e
from phonewire.protocol.commands import WEDGE_THRESHOLD_S, Timing
from phonewire.runner.gate import Gate, GateError, Outcome, RunnerState, decide

WEDGE = 120.0


def test_fresh_gate_is_idle_and_admits() -> None:
    gate = Gate(WEDGE)
    assert gate.state(0.0) is RunnerState.IDLE
    assert gate.refusal(0.0) is None
    assert gate.can_start()


def test_a_queued_or_running_command_makes_status_busy_but_later_commands_still_queue() -> None:
    gate = Gate(WEDGE)
    gate.on_queued()
    assert gate.state(0.0) is RunnerState.BUSY
    gate.on_start(1, now=0.0)
    assert gate.state(500.0) is RunnerState.BUSY  # running within its budget is never "wedged"
    assert gate.refusal(500.0) is None
    assert not gate.can_start()
    gate.on_settled(1, abandoned=False)
    assert gate.state(500.0) is RunnerState.IDLE


def test_admit_counts_an_admitted_command_queued_and_try_start_starts_only_on_a_free_device() -> None:
    """issue 26: the executor asks one question per step (admit; try_start), each the pair of calls it was."""
    gate = Gate(WEDGE)
    assert gate.admit(0.0) is None and gate.queued == 1
    assert gate.admit(0.0) is None and gate.queued == 2
    assert gate.try_start(1, now=0.0) and gate.running == 1 and gate.queued == 1
    assert not gate.try_start(2, now=0.0) and gate.running == 1 and gate.queued == 1  # occupied: nothing changed
    gate.on_settled(1, abandoned=True)
    assert not gate.try_start(2, now=1.0)  # abandoned work still draining on the device
    refused = gate.admit(WEDGE + 1.0)
    assert refused is not None and refused.code == e.RUNNER_WEDGED and gate.queued == 1  # a refusal is not counted


def abandoned_at(started: float) -> Gate:
    gate = Gate(WEDGE)
    gate.on_queued()
    gate.on_start(7, now=started)
    gate.on_settled(7, abandoned=True)
    return gate


def test_abandoned_work_makes_later_commands_runner_busy() -> None:
    gate = abandoned_at(10.0)
    assert gate.state(40.0) is RunnerState.BUSY
    refusal = gate.refusal(40.0)
    assert refusal is not None and refusal.code == e.RUNNER_BUSY
    assert refusal.hint and "Nothing ran" in refusal.hint
    assert not gate.can_start()


def test_abandoned_work_stuck_past_the_wedge_threshold_from_its_start_is_runner_wedged() -> None:
    gate = abandoned_at(10.0)
    just_before = 10.0 + WEDGE - 0.001
    assert gate.state(just_before) is RunnerState.BUSY
    assert gate.state(10.0 + WEDGE) is RunnerState.WEDGED  # "past 120 s": at the threshold it is wedged
    refusal = gate.refusal(10.0 + WEDGE)
    assert refusal is not None and refusal.code == e.RUNNER_WEDGED
    assert refusal.hint and "recycle" in refusal.hint


def test_drained_work_returns_the_gate_to_idle() -> None:
    gate = abandoned_at(0.0)
    gate.on_drained(7)
    assert gate.state(1000.0) is RunnerState.IDLE
    assert gate.refusal(1000.0) is None
    assert gate.can_start()


def test_nothing_starts_while_abandoned_work_drains() -> None:
    gate = abandoned_at(0.0)
    gate.on_queued()
    with pytest.raises(GateError):
        gate.on_start(8, now=1.0)


def test_budget_expired_in_the_queue_is_runner_busy_because_it_never_ran() -> None:
    gate = Gate(WEDGE)
    assert gate.expired_in_queue(5.0).code == e.RUNNER_BUSY
    assert abandoned_at(0.0).expired_in_queue(5.0).code == e.RUNNER_BUSY
    assert abandoned_at(0.0).expired_in_queue(WEDGE).code == e.RUNNER_WEDGED


@pytest.mark.parametrize(
    ("done", "now", "outcome"),
    [
        (False, 9.999, Outcome.WAIT),
        (False, 10.0, Outcome.TIMED_OUT),
        (False, 11.0, Outcome.TIMED_OUT),
        (True, 9.0, Outcome.RESULT),
        (True, 10.0, Outcome.RESULT),  # finished exactly as the budget expires: its own reply, once
        (True, 11.0, Outcome.RESULT),  # (the deadline callback saw it done: still the result)
    ],
)
def test_decide_done_work_wins_even_at_the_deadline(done: bool, now: float, outcome: Outcome) -> None:
    assert decide(work_done=done, now=now, deadline=10.0) is outcome


def test_time_scale_multiplies_the_wedge_threshold() -> None:
    assert Timing(0.01).wedge_threshold == pytest.approx(WEDGE_THRESHOLD_S * 0.01)
    assert Timing().wedge_threshold == WEDGE


def test_state_values_are_the_wire_names() -> None:
    assert [s.value for s in RunnerState] == ["idle", "busy", "wedged"]
