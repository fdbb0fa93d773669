"""Host sessions: the rules of :mod:`phonewire.host.rules` applied to real runners.

Two objects::

    HostSession                 what the front ends hold (implements CommandSender); lives as long as the agent
     └── RunnerSession          one runner, from start or attach to invalidation; never reused afterwards
          ├── Transport         one POST per command, one deadline
          └── RunnerProcess     the owned process (None when attached to a runner someone else started)

The lifecycle of a RunnerSession is drawn in :mod:`phonewire.host.runner_session`.

``HostSession.send`` gets the current runner session (starting a new one when the last was invalidated or its
process died), lets it execute one attempt, and asks :func:`rules.decide_retry` whether another attempt — always
with a fresh command id — is allowed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
import uuid
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from phonewire.host import diagnostics as d
from phonewire.host import rules as r
from phonewire.host.diagnostics import Diagnostics
from phonewire.host.launcher import DEFAULT_STARTUP_BUDGET_S, RunnerProcess, attach_token, spawn_runner
from phonewire.host.reply import HostReply
from phonewire.host.runner_session import Clock, HostError, RunnerSession, to_ms
from phonewire.host.transport import Transport, parse_address
from phonewire.protocol import errors as e
from phonewire.protocol.commands import MUTATING, Timing
from phonewire.protocol.envelope import encode_json
from phonewire.protocol.errors import ProtocolError

#: Who the commands sent from this task are for (a front end sets it for the task that serves one caller, e.g. the
#: CLI daemon per client request): answers why that caller no longer wants them — it hung up, its deadline passed
#: (a daemon stopped with SIGSTOP and resumed) — or ``None``.  A mutating command is never started for a caller
#: that has gone: it would run late, for nobody, and an agent that retried after its own timeout would tap twice.
OWNER: ContextVar[Callable[[], str | None] | None] = ContextVar("phonewire_owner", default=None)


def check_owner(command: str) -> None:
    """CLIENT_GONE, before anything is sent, when ``command`` mutates and its caller has gone."""
    check = OWNER.get()
    reason = check() if check is not None and command in MUTATING else None
    if reason is not None:
        raise ProtocolError(
            e.CLIENT_GONE,
            f"{command} was not started: {reason}",
            "Nothing was sent to the phone. Take a snapshot to see the screen, then send the command again if it is "
            "still wanted.",
        )


class HostSession:
    """The host's one object per agent: owns the current runner session and replaces it after invalidation.

    ``HostSession(device="double")`` spawns runners for that device spec; ``HostSession(runner_addr="127.0.0.1:N")``
    (or ``PHONEWIRE_RUNNER_ADDR``) attaches to a runner that is already listening.  Implements
    :class:`phonewire.host.CommandSender`.
    """

    def __init__(
        self,
        device: str | None = None,
        *,
        runner_addr: str | None = None,
        timing: Timing | None = None,
        diagnostics_path: str | Path | None = None,
        write_diagnostics: bool = True,
        startup_budget_s: float = DEFAULT_STARTUP_BUDGET_S,
        env: Mapping[str, str] | None = None,
        clock: Clock = time.monotonic,
        healthy_window_s: float = r.HEALTHY_MUTATION_WINDOW_S,
    ) -> None:
        self.env: dict[str, str] = dict(os.environ if env is None else env)
        addr = runner_addr or self.env.get("PHONEWIRE_RUNNER_ADDR") or None
        try:
            self.attach_to: tuple[str, int] | None = parse_address(addr) if addr else None
        except ValueError as exc:
            raise ProtocolError(
                e.RUNNER_UNAVAILABLE,
                str(exc),
                "Give the runner address as 127.0.0.1:PORT (the port its LISTENING line printed), or unset "
                "PHONEWIRE_RUNNER_ADDR.",
            ) from exc
        self.device = device or "web"
        try:
            self.timing = timing or Timing.from_env(self.env)
            named = Timing.from_env(self.env).scale if self.env.get("PHONEWIRE_TIME_SCALE", "").strip() else None
        except ValueError as exc:
            raise ProtocolError(
                e.RUNNER_UNAVAILABLE,
                str(exc),
                "Set PHONEWIRE_TIME_SCALE to a positive number (1 keeps the protocol's own budgets), or unset it.",
            ) from exc
        # Spawned runners get the host's scale, or a smaller one the env names: never a larger one, which would
        # give the runner budgets past the host's windows (the window > budget invariant).
        if named is None or named > self.timing.scale:
            self.env["PHONEWIRE_TIME_SCALE"] = repr(self.timing.scale)
        self.startup_budget_s = startup_budget_s
        self.clock = clock
        self.healthy_window_s = healthy_window_s
        self.session_id = uuid.uuid4().hex[:12]
        path: Path | None = None
        if write_diagnostics:
            path = Path(diagnostics_path) if diagnostics_path else d.default_path(self.session_id, self.env)
            if not diagnostics_path:
                d.prune(path.parent, d.KEEP_SESSION_FILES - 1)
        self.diag = Diagnostics(self.session_id, path)
        self._runner: RunnerSession | None = None
        self._lock = asyncio.Lock()
        self._closed = False
        #: A runner this session spawned was replaced by a new one: the next reply tells the agent its app state
        #: (open apps, sign-in, navigation) is gone.
        self._state_lost = False

    # -- public API --------------------------------------------------------------------------------------------
    @property
    def runner(self) -> RunnerSession | None:
        """The current runner session (``None`` before the first command)."""
        return self._runner

    @property
    def diagnostics_path(self) -> Path | None:
        return self.diag.path

    def diagnostics(self, limit: int | None = None, *, event: str | None = None) -> list[dict[str, Any]]:
        """The newest diagnostics events, oldest first (optionally only one kind)."""
        return self.diag.recent(limit, event=event)

    async def start(self) -> RunnerSession:
        """Start (or attach to) the runner now instead of on the first command."""
        return await self._current()

    async def send(self, command: str, fields: Mapping[str, Any] | None = None) -> HostReply:
        if self._closed:
            raise ProtocolError(e.RUNNER_UNAVAILABLE, "this host session is closed", "Open a new session.")
        body = dict(fields) if fields else {}
        body.pop("command", None)
        body.pop("commandId", None)
        try:
            encode_json(body)
        except (TypeError, ValueError, RecursionError) as exc:  # checked before any runner is started or asked
            raise ProtocolError(
                e.INVALID_REQUEST,
                f"{command}: the request fields are not JSON ({exc})",
                "Send finite numbers, strings and booleans only.",
            ) from exc
        attempt = 0
        while True:
            check_owner(command)
            runner = await self._current()
            check_owner(command)  # starting a runner takes a while
            command_id = None if command in r.READINESS_PROBES else uuid.uuid4().hex
            result = await runner.execute(command, body, command_id)
            answered = result.envelope is not None and command not in r.READINESS_PROBES
            restarted = answered and self._state_lost
            if answered:
                self._state_lost = False  # told once: on the first reply the new runner gave
            if result.outcome is r.Outcome.OK:
                assert result.envelope is not None
                return HostReply.of(result.envelope, recovered=result.recovered, runner_restarted=restarted)
            if restarted and result.error is not None:
                result.error.state_reset = True
            decision = r.decide_retry(command, result.outcome, attempt, scale=self.timing.scale)
            self.diag.record(
                d.RETRY,
                command=command,
                commandId=command_id,
                outcome=result.outcome.value,
                attempt=attempt,
                retry=decision.retry,
                reason=decision.reason,
                delayMs=to_ms(decision.delay_s),
                code=None if result.error is None else result.error.code,
            )
            if not decision.retry:
                assert result.error is not None
                raise result.error
            if decision.delay_s > 0:
                await asyncio.sleep(decision.delay_s)
            attempt += 1

    async def close(self) -> None:
        """Stop the runner this session owns (graceful when reachable) and close the diagnostics file."""
        if self._closed:
            return
        self._closed = True
        async with self._lock:
            runner, self._runner = self._runner, None
            if runner is not None and not runner.invalidated:
                alive = runner.process_alive()
                await runner.invalidate(r.INVALIDATE_CLOSED, reachable=alive is not False)
        self.diag.close()

    async def __aenter__(self) -> HostSession:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # -- runner sessions ---------------------------------------------------------------------------------------
    async def _current(self) -> RunnerSession:
        async with self._lock:
            runner = self._runner
            if runner is None or not await runner.usable():
                runner = await self._new_runner()
                self._runner = runner
            return runner

    async def _new_runner(self) -> RunnerSession:
        self.diag.runner_generation += 1
        if self.attach_to is not None:
            host, port = self.attach_to
            try:
                token = attach_token(port, self.env)
            except ProtocolError as missing:
                # No token to send: say first whether anything listens there at all (a wrong port is the
                # likelier mistake than a missing token).
                failure = missing
                if not await _listening(host, port):
                    failure = ProtocolError(
                        e.RUNNER_UNAVAILABLE,
                        f"nothing listens on {host}:{port}: no runner to attach to",
                        "Start a runner (`phonewire runner --device web` prints its port) and give that address, "
                        "or unset PHONEWIRE_RUNNER_ADDR / --runner to let phonewire start one.",
                    )
                self.diag.record(d.STARTUP, phase="failed", address=f"{host}:{port}", code=failure.code)
                raise failure from None
            self.diag.record(d.STARTUP, phase="attached", address=f"{host}:{port}")
            return self._session(Transport(host, port, token=token), None)
        if self._runner is not None:  # a spawned runner replaces one that held this session's app state
            self._state_lost = True
        try:
            process = await spawn_runner(self.device, env=self.env, startup_budget_s=self.startup_budget_s)
        except ProtocolError as exc:
            self.diag.record(d.STARTUP, phase="failed", device=self.device, code=exc.code, message=exc.message)
            raise
        self.diag.record(
            d.STARTUP,
            phase="listening",
            device=self.device,
            pid=process.pid,
            address=f"127.0.0.1:{process.port}",
            phases={k: None if v is None else round(v, 3) for k, v in process.timings.as_dict().items()},
        )
        return self._session(Transport("127.0.0.1", process.port, token=process.token), process)

    def _session(self, transport: Transport, process: RunnerProcess | None) -> RunnerSession:
        return RunnerSession(
            transport,
            process=process,
            timing=self.timing,
            diagnostics=self.diag,
            clock=self.clock,
            healthy_window_s=self.healthy_window_s,
        )


__all__ = ["HostError", "HostSession", "RunnerSession"]


async def _listening(host: str, port: int, timeout: float = 2.0) -> bool:
    """Whether a TCP connection to ``host:port`` is accepted (closed at once, nothing sent)."""
    try:
        _reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
    except (OSError, TimeoutError):
        return False
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()
    return True
