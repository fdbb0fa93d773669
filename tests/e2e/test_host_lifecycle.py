"""Runner lifecycle end to end: HostSession spawning and owning real runner processes (``--device double``)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from phonewire.host import HostSession
from phonewire.host import diagnostics as d
from phonewire.host import rules as r
from phonewire.host.launcher import spawn_runner
from phonewire.protocol import errors as e
from phonewire.protocol.commands import Timing
from phonewire.protocol.errors import ProtocolError

pytestmark = pytest.mark.e2e

APP = "app.counter"
TAP = {"appBundleId": APP, "x": 1, "y": 2}


def pid_gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_sigkilled_runner_is_replaced_by_the_next_command_without_a_graceful_wait(tmp_path: Path) -> None:
    """lifecycle: dead cached runner processes are invalidated without graceful shutdown; the next command
    notices at once, starts a new runner and succeeds."""

    async def main() -> None:
        async with HostSession("double", diagnostics_path=tmp_path / "diag.jsonl") as host:
            await host.send("launchApp", {"appBundleId": APP})
            await host.send("tap", TAP)
            first = host.runner
            assert first is not None and first.process is not None
            old_pid = first.process.pid
            os.kill(old_pid, signal.SIGKILL)
            while first.process.alive():  # the kernel has not finished the kill yet
                await asyncio.sleep(0.001)
            reply = await host.send("launchApp", {"appBundleId": APP})
            assert reply.ok
            # Issue 15 item 3: the first reply of the new runner says app state was reset; the next does not.
            assert reply.runner_restarted and reply.state_reset and not reply.envelope.state_reset
            second = host.runner
            assert second is not None and second is not first and second.process is not None
            assert second.process.pid != old_pid
            assert first.invalidated and first.invalidation_reason == r.INVALIDATE_PROCESS_EXITED
            [invalidation] = host.diagnostics(event=d.INVALIDATION)
            assert invalidation["stop"] == "reap"
            assert invalidation["processAlive"] is False
            [stopped] = host.diagnostics(event=d.RUNNER_STOPPED)
            assert stopped["how"] == "exited"  # no shutdown request, no SIGTERM
            assert stopped["returncode"] == -signal.SIGKILL
            taps = await host.send("status")
            assert taps.data is not None and taps.data["device"]["taps"] == {}
            assert pid_gone(old_pid)
        events = d.read_events(tmp_path / "diag.jsonl")
        assert [ev["event"] for ev in events].count(d.INVALIDATION) == 2  # the kill, then close
        assert events[-1]["event"] == d.RUNNER_STOPPED and events[-1]["how"] == "shutdown"

    asyncio.run(main())


def test_sigkill_during_a_hot_loop_resends_the_tap_that_never_left() -> None:
    """lifecycle + send-once: a skipped preflight meets a refused connection; the tap was never delivered, so it
    goes to the new runner exactly once."""

    async def main() -> None:
        async with HostSession("double", write_diagnostics=False) as host:
            await host.send("launchApp", {"appBundleId": APP})
            await host.send("tap", TAP)
            runner = host.runner
            assert runner is not None and runner.process is not None
            pid = runner.process.pid
            os.kill(pid, signal.SIGKILL)
            await runner.process.proc.wait()  # the watcher reaped it: only the refused connect can tell
            with pytest.raises(ProtocolError) as info:
                await host.send("tap", TAP)
            # the new runner's double has no running app: the tap reached it, once, and was refused honestly
            assert info.value.code == e.APP_NOT_AVAILABLE
            assert info.value.state_reset  # why the app is gone: the runner was replaced
            assert host.runner is not runner
            again = await host.send("launchApp", {"appBundleId": APP})
            assert again.ok and not again.state_reset

    asyncio.run(main())


def test_close_stops_an_owned_runner_gracefully() -> None:
    """issue 4: stop = shutdown → SIGTERM → SIGKILL; a reachable runner ends at the first step."""

    async def main() -> None:
        host = HostSession("double", write_diagnostics=False)
        await host.send("listApps")
        runner = host.runner
        assert runner is not None and runner.process is not None
        await host.close()
        assert runner.process.proc.returncode == 0
        assert host.diagnostics(event=d.RUNNER_STOPPED)[-1]["how"] == "shutdown"
        with pytest.raises(ProtocolError) as info:
            await host.send("listApps")
        assert info.value.code == e.RUNNER_UNAVAILABLE

    asyncio.run(main())


def test_wedged_runner_is_recycled() -> None:
    """issue 4: RUNNER_WEDGED recycles the runner (terminated, not asked); the next command gets a new one."""

    async def main() -> None:
        env = dict(os.environ, PHONEWIRE_TIME_SCALE="0.002")  # runner: tap budget 150 ms, wedge after 240 ms
        async with HostSession("double", timing=Timing(1.0), env=env, write_diagnostics=False) as host:
            await host.send("launchApp", {"appBundleId": APP})
            await host.send("launchApp", {"appBundleId": "hang.1000"})
            with pytest.raises(ProtocolError) as timed_out:
                await host.send("tap", {"appBundleId": "hang.1000", "x": 1, "y": 1})
            assert timed_out.value.code == e.COMMAND_TIMED_OUT
            await asyncio.sleep(0.35)
            first = host.runner
            with pytest.raises(ProtocolError) as wedged:
                await host.send("tap", TAP)
            assert wedged.value.code == e.RUNNER_WEDGED
            assert wedged.value.hint is not None and "recycled" in wedged.value.hint
            assert first is not None and first.invalidated
            [invalidation] = host.diagnostics(event=d.INVALIDATION)
            assert (invalidation["reason"], invalidation["stop"]) == (r.INVALIDATE_WEDGED, "terminate")
            reply = await host.send("launchApp", {"appBundleId": APP})
            assert reply.ok and host.runner is not first

    asyncio.run(main())


def test_relaunch_of_a_running_app_sends_one_lifecycle_reset_and_keeps_the_runner() -> None:
    """lifecycle: after replacing the app process, a lifecycle reset keeps the warm runner."""

    async def main() -> None:
        async with HostSession("double", write_diagnostics=False) as host:
            await host.send("launchApp", {"appBundleId": APP})
            first = host.runner
            assert host.diagnostics(event=d.LIFECYCLE_RESET) == []
            await host.send("launchApp", {"appBundleId": APP})
            [reset] = host.diagnostics(event=d.LIFECYCLE_RESET)
            assert reset["confirmed"] is True and reset["app"] == APP
            assert host.runner is first and host.diagnostics(event=d.INVALIDATION) == []

    asyncio.run(main())


def test_attach_through_the_environment_variable() -> None:
    """DESIGN: PHONEWIRE_RUNNER_ADDR attaches to a runner that is already listening; the host never stops it."""

    async def main() -> None:
        process = await spawn_runner("double")
        try:
            env = dict(
                os.environ, PHONEWIRE_RUNNER_ADDR=f"127.0.0.1:{process.port}", PHONEWIRE_RUNNER_TOKEN=process.token
            )
            host = HostSession(env=env, write_diagnostics=False)
            reply = await host.send("listApps")
            assert reply.ok and host.runner is not None and host.runner.process is None
            await host.close()
            assert process.alive()  # attached: not ours to stop
        finally:
            await process.stop(graceful=False)

    asyncio.run(main())


def test_early_runner_exit_is_reported_with_its_stderr() -> None:
    """issue 4: the startup budget races the process's exit; an early exit carries the runner's stderr."""

    async def main() -> None:
        with pytest.raises(ProtocolError) as info:
            await spawn_runner("nonsense-kind")
        assert info.value.code == e.RUNNER_UNAVAILABLE
        assert "exited" in info.value.message and "nonsense-kind" in info.value.message
        with pytest.raises(ProtocolError) as scripted:
            await spawn_runner(
                "double", argv=[sys.executable, "-c", "import sys; sys.stderr.write('no display here'); sys.exit(3)"]
            )
        assert "code 3" in scripted.value.message and "no display here" in scripted.value.message

    asyncio.run(main())


def test_silent_runner_is_given_up_on_after_the_startup_budget_and_killed(tmp_path: Path) -> None:
    """issue 4: a bounded startup budget; the process that never listened does not outlive it."""
    pid_file = tmp_path / "pid"

    async def main() -> None:
        script = f"import os, time; open({str(pid_file)!r}, 'w').write(str(os.getpid())); time.sleep(60)"
        with pytest.raises(ProtocolError) as info:
            await spawn_runner("double", argv=[sys.executable, "-c", script], startup_budget_s=0.5)
        assert info.value.code == e.RUNNER_UNAVAILABLE
        assert "within 0.5 s" in info.value.message
        assert pid_gone(int(pid_file.read_text()))

    asyncio.run(main())


def test_host_session_reports_runner_start_failure() -> None:
    """issue 4: a runner that cannot start is RUNNER_UNAVAILABLE with an agent-phrased hint."""

    async def main() -> None:
        async with HostSession("nonsense-kind", write_diagnostics=False) as host:
            with pytest.raises(ProtocolError) as info:
                await host.send("listApps")
            assert info.value.code == e.RUNNER_UNAVAILABLE and info.value.hint
            assert host.diagnostics(event=d.STARTUP)[-1]["phase"] == "failed"

    asyncio.run(main())


def test_bad_runner_address_is_a_protocol_error_with_a_hint() -> None:
    """issue 4: bad input gets a specific code and an agent-phrased hint."""
    with pytest.raises(ProtocolError) as info:
        HostSession(runner_addr="localhost:notaport", write_diagnostics=False)
    assert info.value.code == e.RUNNER_UNAVAILABLE and info.value.hint and "127.0.0.1:PORT" in info.value.hint


def test_attached_runner_that_is_gone_is_runner_unavailable() -> None:
    """issue 4: an attached runner cannot be restarted; after the allowed attempts the agent is told plainly."""
    import socket

    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))  # bound, never listening: every connect is refused
        port = holder.getsockname()[1]

        async def main() -> None:
            env = dict(os.environ, PHONEWIRE_RUNNER_TOKEN="any")  # a runner that is gone: no token file to read
            async with HostSession(runner_addr=f"127.0.0.1:{port}", write_diagnostics=False, env=env) as host:
                with pytest.raises(ProtocolError) as info:
                    await host.send("tap", TAP)
                assert info.value.code == e.RUNNER_UNAVAILABLE and info.value.hint
                stops = [ev["stop"] for ev in host.diagnostics(event=d.INVALIDATION)]
                assert stops == ["detach"] * 3  # three runner session objects, none reused, none "stopped"

        asyncio.run(main())


def test_a_spawned_runner_never_gets_a_larger_time_scale_than_the_host() -> None:
    """send-once budgets: every client window strictly exceeds the runner budget.  An environment naming a
    larger scale than the host's own timing would give the runner a 75 s tap budget under a 0.9 s host window,
    and the runner's COMMAND_TIMED_OUT verdict would be swallowed as a transport timeout."""

    async def main() -> None:
        env = dict(os.environ, PHONEWIRE_TIME_SCALE="1")
        async with HostSession("double", timing=Timing(0.01), env=env, write_diagnostics=False) as host:
            await host.send("launchApp", {"appBundleId": "hang.1500"})
            with pytest.raises(ProtocolError) as info:  # tap: runner budget 0.75 s, host window 0.9 s
                await host.send("tap", {"appBundleId": "hang.1500", "x": 1, "y": 1})
            assert info.value.code == e.COMMAND_TIMED_OUT

    asyncio.run(main())


def test_a_bad_time_scale_is_a_protocol_error_with_a_hint() -> None:
    """brief: bad input gets a specific code and an agent-phrased hint, not a bare ValueError."""
    with pytest.raises(ProtocolError) as info:
        HostSession("double", env=dict(os.environ, PHONEWIRE_TIME_SCALE="fast"), write_diagnostics=False)
    assert info.value.code == e.RUNNER_UNAVAILABLE
    assert "PHONEWIRE_TIME_SCALE" in info.value.message and info.value.hint
