"""The execution gate seen from outside, under a small PHONEWIRE_TIME_SCALE: timed out → busy → wedged → drained."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from runner_wire import fate, post, run_ok, running, status, taps, wait_for_state

from phonewire.protocol import errors as e
from phonewire.protocol.commands import Timing

SCALE = 0.01  # tap budget 0.75 s, default budget 0.3 s, wedge threshold 1.2 s


def test_timed_out_then_busy_then_wedged_then_drained() -> None:
    timing = Timing(SCALE)
    hang_ms = 3000  # well past the wedge threshold
    assert timing.budget("tap") < timing.wedge_threshold < hang_ms / 1000
    app = f"hang.{hang_ms}"
    with running(scale=SCALE) as runner:
        port = runner.port
        run_ok(port, "launchApp", appBundleId=app)
        timed_out = post(port, "tap", commandId="slow", appBundleId=app, x=1, y=1)
        assert timed_out.code == e.COMMAND_TIMED_OUT
        assert fate(port, "slow")["errorCode"] == e.COMMAND_TIMED_OUT  # the journal agrees with the reply
        assert fate(port, "slow")["state"] == "failed"

        busy = post(port, "listApps", commandId="while-draining")
        if status(port)["state"] == "busy":  # (a very slow machine may already be past the wedge threshold)
            assert busy.code == e.RUNNER_BUSY
        assert busy.code in (e.RUNNER_BUSY, e.RUNNER_WEDGED)
        assert fate(port, "while-draining")["state"] == "notAccepted"  # refused: nothing ran, safe to resend

        wedged_status = wait_for_state(port, "wedged")
        assert wedged_status["draining"] == 1
        wedged = post(port, "listApps", commandId="while-wedged")
        assert wedged.code == e.RUNNER_WEDGED

        wait_for_state(port, "idle")  # the abandoned tap drained: it was never cancelled
        assert taps(port, app) == 1
        assert post(port, "listApps", commandId="while-wedged").envelope["ok"] is True  # the refused id now runs
        assert status(port)["draining"] == 0


def test_commands_queued_behind_an_abandoned_command_never_run_and_answer_busy() -> None:
    with running(scale=SCALE) as runner:
        port = runner.port
        run_ok(port, "launchApp", appBundleId="hang.2000")
        run_ok(port, "launchApp", appBundleId="app.behind")
        with ThreadPoolExecutor(2) as pool:
            head = pool.submit(post, port, "tap", commandId="head", appBundleId="hang.2000", x=1, y=1)
            wait_for_state(port, "busy")
            behind = pool.submit(post, port, "launchApp", commandId="behind", appBundleId="app.behind")
            head_reply, behind_reply = head.result(30), behind.result(30)
        assert head_reply.code == e.COMMAND_TIMED_OUT
        assert behind_reply.code in (e.RUNNER_BUSY, e.RUNNER_WEDGED)
        assert fate(port, "behind")["state"] == "notAccepted"
        wait_for_state(port, "idle")


def test_budget_expiring_while_queued_answers_runner_busy_and_the_command_never_runs() -> None:
    scale = 0.04  # tap budget 3 s; keyboardDelete (default) budget 1.2 s; the head takes 2 s
    with running(scale=scale) as runner:
        port = runner.port
        run_ok(port, "launchApp", appBundleId="hang.2000")
        with ThreadPoolExecutor(2) as pool:
            head = pool.submit(post, port, "tap", commandId="head", appBundleId="hang.2000", x=1, y=1)
            wait_for_state(port, "busy")
            queued = pool.submit(post, port, "keyboardDelete", commandId="queued", appBundleId="hang.2000")
            head_reply, queued_reply = head.result(30), queued.result(30)
        assert head_reply.envelope["ok"] is True  # the head finished within its own budget
        assert queued_reply.code == e.RUNNER_BUSY  # the queued one ran out of budget before its turn
        assert fate(port, "queued")["state"] == "notAccepted"
        assert taps(port, "hang.2000") == 1
