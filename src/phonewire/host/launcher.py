"""Starting, attaching to and stopping runner processes.

Spawn: ``sys.executable -m phonewire runner --device SPEC`` with the host's environment (so
``PHONEWIRE_TIME_SCALE`` and friends reach the runner) plus a fresh ``PHONEWIRE_RUNNER_TOKEN`` that the host
sends with every request (the runner then writes no token file), then read stdout until
``PHONEWIRE_RUNNER_LISTENING port=N``, racing the process's exit, all within one startup budget.  An early exit
is reported as RUNNER_UNAVAILABLE with the tail of the runner's stderr.  The LISTENING line only proves the
listener; the first successful command proves readiness (the session records that phase).

Tied to its host (``phonewire.lifeline``): the runner gets the death signal and the host's lifeline pipe, so a
host killed with SIGKILL takes its runners (and their browsers) with it; every spawn first sweeps what a dead host
of this user left, and records the new runner for the next sweep.

Stop (owned processes only): ``shutdown`` request → SIGTERM → SIGKILL, each bounded; a process that already
exited is only reaped, with no graceful wait.  Both pipes are drained for the process's whole life, so a chatty
runner never blocks on a full pipe.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import os
import re
import secrets
import signal
import sys
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from phonewire import lifeline
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.runtime import TOKEN_ENV, read_token_file, runner_token_path, valid_token

LISTENING_RE: Final = re.compile(rb"PHONEWIRE_RUNNER_LISTENING port=(\d+)")
DEFAULT_STARTUP_BUDGET_S: Final = 60.0
SHUTDOWN_WAIT_S: Final = 2.0
TERM_WAIT_S: Final = 2.0
KILL_WAIT_S: Final = 2.0
_TAIL_LINES: Final = 40

ShutdownFn = Callable[[], Awaitable[object]]


def runner_argv(device: str, python: str | None = None) -> list[str]:
    return [python or sys.executable, "-m", "phonewire", "runner", "--device", device]


@dataclass
class StartupTimings:
    """Milliseconds since the spawn call, per phase (``ready`` is filled in by the first successful command)."""

    started_at: float
    spawned_ms: float | None = None
    listening_ms: float | None = None
    ready_ms: float | None = None

    def as_dict(self) -> dict[str, float | None]:
        return {"spawnedMs": self.spawned_ms, "listeningMs": self.listening_ms, "readyMs": self.ready_ms}


@dataclass
class RunnerProcess:
    """A runner process this host started and therefore owns."""

    proc: asyncio.subprocess.Process
    port: int
    device: str
    timings: StartupTimings
    #: The bearer token this host gave the runner; every request must carry it.
    token: str = ""
    stdout_tail: collections.deque[str] = field(default_factory=lambda: collections.deque(maxlen=_TAIL_LINES))
    stderr_tail: collections.deque[str] = field(default_factory=lambda: collections.deque(maxlen=_TAIL_LINES))
    _drains: list[asyncio.Task[None]] = field(default_factory=list)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        """A cheap liveness poll that also notices an exited child the event loop has not reaped yet."""
        if self.proc.returncode is not None:
            return False
        try:
            # WNOWAIT leaves the child waitable, so asyncio's child watcher still reaps it.
            result = os.waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return False
        return result is None

    def stderr_text(self) -> str:
        return "".join(self.stderr_tail).strip()

    async def stop(self, *, graceful: bool, shutdown: ShutdownFn | None = None) -> str:
        """Stop the process; returns how it ended (``exited`` / ``shutdown`` / ``terminated`` / ``killed``)."""
        how = "exited"
        if self.alive():
            how = await self._stop_alive(graceful, shutdown)
        with contextlib.suppress(ProcessLookupError):
            await self.proc.wait()
        lifeline.forget(self.proc.pid)
        await self._finish_drains()
        # what a killed runner could not remove (or its browser's helpers wrote after it did): it is gone now.
        # In a thread: the removal waits out the dead browser's helpers, which can still write for a moment.
        await asyncio.to_thread(_clean_leftovers, self.device)
        return how

    async def _stop_alive(self, graceful: bool, shutdown: ShutdownFn | None) -> str:
        if graceful and shutdown is not None:
            with contextlib.suppress(Exception):
                await shutdown()
            if await self._wait(SHUTDOWN_WAIT_S):
                return "shutdown"
        with contextlib.suppress(ProcessLookupError):
            self.proc.send_signal(signal.SIGTERM)
        if await self._wait(TERM_WAIT_S):
            return "terminated"
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()
        await self._wait(KILL_WAIT_S)
        return "killed"

    async def _wait(self, timeout: float) -> bool:
        try:
            async with asyncio.timeout(timeout):
                await self.proc.wait()
        except TimeoutError:
            return False
        return True

    async def _finish_drains(self) -> None:
        if not self._drains:
            return
        _done, pending = await asyncio.wait(self._drains, timeout=1.0)
        for task in pending:
            task.cancel()
        for task in pending:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._drains.clear()


async def _drain(stream: asyncio.StreamReader, tail: collections.deque[str]) -> None:
    while True:
        line = await stream.readline()
        if not line:
            return
        tail.append(line.decode(errors="replace"))


async def spawn_runner(
    device: str,
    *,
    env: Mapping[str, str] | None = None,
    startup_budget_s: float = DEFAULT_STARTUP_BUDGET_S,
    argv: Sequence[str] | None = None,
) -> RunnerProcess:
    """Start a runner and wait for its LISTENING line; RUNNER_UNAVAILABLE (with stderr) when it cannot start."""
    started = time.monotonic()
    timings = StartupTimings(started)
    child_env = dict(os.environ if env is None else env)
    child_env.pop("PHONEWIRE_RUNNER_ADDR", None)
    token = secrets.token_urlsafe(32)
    child_env[TOKEN_ENV] = token
    child_env.update(lifeline.env_entry())
    command = list(argv) if argv is not None else runner_argv(device)
    lifeline.sweep()
    try:
        proc = await asyncio.create_subprocess_exec(
            *command,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=child_env,
            **lifeline.spawn_options(),
        )
    except OSError as exc:
        raise ProtocolError(
            e.RUNNER_UNAVAILABLE, f"cannot start the runner ({command[0]}): {exc}", _hint_start(device)
        ) from exc
    timings.spawned_ms = (time.monotonic() - started) * 1000
    lifeline.record(proc.pid)
    assert proc.stdout is not None and proc.stderr is not None
    runner = RunnerProcess(proc, 0, device, timings, token)
    runner._drains.append(asyncio.create_task(_drain(proc.stderr, runner.stderr_tail)))
    try:
        port = await _await_listening(runner, proc.stdout, startup_budget_s)
    except BaseException:
        await runner.stop(graceful=False)
        raise
    runner.port = port
    timings.listening_ms = (time.monotonic() - started) * 1000
    runner._drains.append(asyncio.create_task(_drain(proc.stdout, runner.stdout_tail)))
    return runner


async def _await_listening(runner: RunnerProcess, stdout: asyncio.StreamReader, budget_s: float) -> int:
    async def read_port() -> int | None:
        while True:
            line = await stdout.readline()
            if not line:
                return None
            runner.stdout_tail.append(line.decode(errors="replace"))
            match = LISTENING_RE.search(line)
            if match:
                return int(match.group(1))

    reader = asyncio.create_task(read_port())
    exited = asyncio.create_task(runner.proc.wait())
    try:
        done, _ = await asyncio.wait({reader, exited}, timeout=budget_s, return_when=asyncio.FIRST_COMPLETED)
        if reader in done and reader.result() is not None:
            port = reader.result()
            assert port is not None
            return port
        if not done:
            raise ProtocolError(
                e.RUNNER_UNAVAILABLE,
                f"runner for {runner.device!r} did not report a listening port within {budget_s:.3g} s",
                _hint_start(runner.device),
            )
        # stdout closed or the process exited before LISTENING: report its stderr.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(1.0):
                await runner.proc.wait()
        await runner._finish_drains()
        tail = runner.stderr_text()[-2000:]
        code = runner.proc.returncode
        raise ProtocolError(
            e.RUNNER_UNAVAILABLE,
            f"runner for {runner.device!r} exited (code {code}) before listening" + (f": {tail}" if tail else ""),
            _hint_start(runner.device),
        )
    finally:
        for task in (reader, exited):
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task


def attach_token(port: int, env: Mapping[str, str]) -> str:
    """The bearer token for attaching to the runner on ``port``: ``PHONEWIRE_RUNNER_TOKEN``, else the runner's own
    ``runner-PORT.token`` file in this user's runtime directory; UNAUTHORIZED with a hint when neither is usable."""
    named = env.get(TOKEN_ENV, "").strip()
    if named:
        if not valid_token(named):
            raise ProtocolError(
                e.UNAUTHORIZED,
                f"{TOKEN_ENV} is not a usable token (printable ASCII without spaces, at most 512 characters)",
                f"Set {TOKEN_ENV} to the token the runner was started with, or unset it to use the token file.",
            )
        return named
    path = runner_token_path(port, dict(env))
    token = read_token_file(path)
    if token is None:
        raise ProtocolError(
            e.UNAUTHORIZED,
            f"no token for the runner on port {port}: {TOKEN_ENV} is unset and {path} is missing or unreadable",
            f"Set {TOKEN_ENV} to the runner's token, or attach as the user who started the runner (it writes "
            f"{path}, mode 0600, when it generated its own token).",
        )
    return token


def _clean_leftovers(device: str) -> None:
    from phonewire.devices.registry import clean_leftovers

    clean_leftovers(device)


def _hint_start(device: str) -> str:
    from phonewire.devices.registry import start_hint

    return start_hint(device)
