"""The runner process: start-up line, shutdown, signals, exit codes."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
from concurrent.futures import ThreadPoolExecutor

import pytest
from runner_wire import fate, post, run_ok, runner_command, start_runner, status, wait_for_state

from phonewire.devices.double import DoubleDevice
from phonewire.protocol import errors as e
from phonewire.protocol.commands import Timing
from phonewire.runner.executor import Reply
from phonewire.runner.service import Runner


def test_shutdown_acknowledges_then_exits_0() -> None:
    runner = start_runner()
    try:
        reply = post(runner.port, "shutdown", commandId="bye")
        assert reply.envelope == {"ok": True, "data": {"message": "shutting down"}}
        assert runner.proc.wait(10) == 0
    finally:
        runner.stop()
        runner.stderr_path.unlink(missing_ok=True)


def test_shutdown_exits_0_even_while_abandoned_work_is_draining() -> None:
    runner = start_runner(scale=0.01)
    try:
        run_ok(runner.port, "launchApp", appBundleId="hang.30000")
        assert post(runner.port, "tap", appBundleId="hang.30000", x=1, y=1).code == "COMMAND_TIMED_OUT"
        assert post(runner.port, "shutdown").envelope["ok"] is True
        assert runner.proc.wait(10) == 0
    finally:
        runner.stop()
        runner.stderr_path.unlink(missing_ok=True)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_sigterm_and_sigint_close_the_device_and_exit_0(signum: signal.Signals) -> None:
    runner = start_runner()
    try:
        assert status(runner.port)["state"] == "idle"
        runner.proc.send_signal(signum)
        assert runner.proc.wait(10) == 0
        assert "Traceback" not in runner.stderr()
    finally:
        runner.stop()
        runner.stderr_path.unlink(missing_ok=True)


def test_a_device_that_fails_to_open_is_a_clear_message_and_a_non_zero_exit() -> None:
    done = subprocess.run(runner_command("double:broken"), capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode != 0
    assert "could not open device" in done.stderr
    assert "scripted open failure" in done.stderr
    assert "scripted open hint" in done.stderr  # the hint (what to do) reaches the person reading stderr
    assert "PHONEWIRE_RUNNER_LISTENING" not in done.stdout


def test_an_unknown_device_kind_is_a_clear_message_and_a_non_zero_exit() -> None:
    done = subprocess.run(runner_command("toaster"), capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 2
    assert "unknown device kind 'toaster'" in done.stderr
    assert "Traceback" not in done.stderr


def test_status_command_id_survives_nothing_across_runners() -> None:
    """A new runner is a new journal: ids of an old one answer notAccepted (the host must not assume otherwise)."""
    first = start_runner()
    try:
        run_ok(first.port, "listApps", commandId="old")
        assert fate(first.port, "old")["state"] == "completed"
    finally:
        first.stop()
        first.stderr_path.unlink(missing_ok=True)
    second = start_runner()
    try:
        assert fate(second.port, "old")["state"] == "notAccepted"
    finally:
        second.stop()
        second.stderr_path.unlink(missing_ok=True)


def test_sigterm_while_the_device_is_still_opening_exits_0_without_listening() -> None:
    proc = subprocess.Popen(
        runner_command("double:slow-open"), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert proc.stderr is not None
        assert proc.stderr.readline().strip() == "double: opening slowly"
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=10)
        assert proc.returncode == 0
        assert "PHONEWIRE_RUNNER_LISTENING" not in out
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize(
    ("name", "value"),
    [("PHONEWIRE_RUNNER_PORT", "abc"), ("PHONEWIRE_RUNNER_PORT", "70000"), ("PHONEWIRE_TIME_SCALE", "0")],
)
def test_a_bad_environment_value_is_a_usage_error_naming_it(name: str, value: str) -> None:
    env = {**os.environ, name: value}
    done = subprocess.run(runner_command(), capture_output=True, text=True, timeout=30, check=False, env=env)
    assert done.returncode == 2
    assert name in done.stderr
    assert "Traceback" not in done.stderr


def test_a_port_already_in_use_is_a_clear_message_and_a_non_zero_exit() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {**os.environ, "PHONEWIRE_RUNNER_PORT": str(port)}
        done = subprocess.run(runner_command(), capture_output=True, text=True, timeout=30, check=False, env=env)
    assert done.returncode == 3
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr


def test_shutdown_lets_a_command_in_flight_finish_and_flush_its_reply_before_exit() -> None:
    """issue 2: shutdown acknowledges, flushes the reply, closes the device, exits 0 — a tap already running when
    it arrives is not cut off: its own reply reaches its client (its fate is never left unknown)."""
    runner = start_runner()
    try:
        run_ok(runner.port, "launchApp", appBundleId="hang.600")
        with ThreadPoolExecutor(1) as pool:
            tapping = pool.submit(post, runner.port, "tap", appBundleId="hang.600", x=1, y=1)
            wait_for_state(runner.port, "busy")
            assert post(runner.port, "shutdown").envelope["ok"] is True
            tap = tapping.result(timeout=30)
        assert tap.envelope == {"ok": True, "data": {"message": "tapped (1, 1)"}}
        assert runner.proc.wait(10) == 0
    finally:
        runner.stop()
        runner.stderr_path.unlink(missing_ok=True)


def test_a_command_arriving_after_shutdown_was_acknowledged_never_runs() -> None:
    """issue 2: once shutdown is acknowledged the device is about to close: a new command is refused with the
    retryable RUNNER_BUSY (nothing ran), never started on a closing device."""
    device = DoubleDevice()
    runner = Runner(device, Timing())

    async def scenario() -> tuple[Reply, Reply]:
        await device.launch_app("app.a")
        bye = await runner.handle(b'{"command":"shutdown","commandId":"bye"}')
        late = await runner.handle(b'{"command":"tap","commandId":"late","appBundleId":"app.a","x":1,"y":1}')
        return bye, late

    bye, late = asyncio.run(scenario())
    assert bye.stop_after is True
    assert json.loads(late.body)["error"]["code"] == e.RUNNER_BUSY
    assert device.taps.get("app.a", 0) == 0
    assert runner.journal.lookup("late")["state"] == "notAccepted"
