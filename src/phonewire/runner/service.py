"""The runner's command path, between the HTTP adapter and the device: body → envelope.

Order of decisions for one request body::

    JSON object? ── no ──► INVALID_REQUEST
    parse_request (types, fields, appBundleId) ── bad ──► INVALID_REQUEST / APP_BUNDLE_ID_REQUIRED
    status / uptime ──► answered here, on the transport path: no journal, no queue, within milliseconds
    commandId present? ── no ──► INVALID_REQUEST
    finished in the journal ──► the journaled answer (never executed again)
    in flight ──► attach: wait for the same execution, share its reply
    shutdown ──► journaled, acknowledged; the adapter stops the runner once the reply is flushed
    shutdown acknowledged earlier ──► RUNNER_BUSY (nothing ran; the device is about to close)
    otherwise ──► the execution gate (executor)
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any, Final

from phonewire.devices.base import Device, IssueCounters
from phonewire.protocol import commands as c
from phonewire.protocol import errors as e
from phonewire.protocol.commands import Timing
from phonewire.protocol.envelope import Envelope, fail, ok
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.jsonlimits import bounded_int
from phonewire.protocol.request import Request, parse_request
from phonewire.runner.dispatch import SNAPSHOT_RETRY_PAUSE_S, Dispatcher, Renew, describe_device
from phonewire.runner.executor import Executor, Reply
from phonewire.runner.gate import Gate
from phonewire.runner.journal import Fate, Journal

#: The answer to a command that arrives after shutdown was acknowledged: the device is about to close.
SHUTTING_DOWN: Final = ProtocolError(
    e.RUNNER_BUSY,
    "the runner is shutting down; nothing ran",
    "Nothing ran. Send the command again; a host starts a new runner for it.",
)


def _invalid(message: str, hint: str | None = None) -> ProtocolError:
    return ProtocolError(e.INVALID_REQUEST, message, hint)


def _reject_constant(name: str) -> float:
    raise ValueError(f"{name} is not JSON")


def decode_body(body: bytes) -> object:
    """JSON text → value; INVALID_REQUEST for anything that is not strict JSON."""
    try:
        return json.loads(body, parse_constant=_reject_constant, parse_int=bounded_int)
    except RecursionError:
        raise _invalid("request body nests too deeply", "Send a flat JSON object.") from None
    except ValueError as exc:  # includes UnicodeDecodeError and JSONDecodeError
        raise _invalid(f"request body is not JSON: {exc}", 'Send one JSON object, e.g. {"command": "status"}.') from exc


class Runner:
    def __init__(
        self,
        device: Device,
        timing: Timing,
        clock: Callable[[], float] = time.monotonic,
        *,
        renew: Renew | None = None,
    ) -> None:
        self.timing = timing
        self._clock = clock
        self._started = clock()
        self.journal = Journal()
        self.gate = Gate(timing.wedge_threshold)
        self.dispatcher = Dispatcher(device, snapshot_retry_pause=SNAPSHOT_RETRY_PAUSE_S * timing.scale, renew=renew)
        self.executor = Executor(self.gate, self.journal, self.dispatcher.run, clock)
        self.stop_requested = False

    @property
    def device(self) -> Device:
        """The device in use now (the dispatcher replaces one that died)."""
        return self.dispatcher.device

    def uptime_ms(self) -> int:
        return int((self._clock() - self._started) * 1000)

    async def handle(self, body: bytes) -> Reply:
        try:
            request = parse_request(decode_body(body))
        except ProtocolError as exc:
            return Reply.of(fail(exc))
        if request.command in c.TRANSPORT_PATH:  # answered here, before the journal and the execution queue
            return Reply.of(self.status(request) if request.command == c.STATUS else self.uptime())
        command_id = request.command_id
        if command_id is None:
            return Reply.of(
                fail(
                    _invalid(
                        f"{request.command} needs a commandId",
                        "Stamp every command except status and uptime with a fresh unique commandId; "
                        "the runner uses it to never execute a command twice.",
                    )
                )
            )
        entry = self.journal.get(command_id)
        if entry is not None and entry.fate is not Fate.NOT_ACCEPTED and entry.command != request.command:
            return Reply.of(
                fail(
                    _invalid(
                        f"commandId {command_id!r} was already used for {entry.command}",
                        "Use a fresh commandId for every new command.",
                    )
                )
            )
        replayed = self.journal.replay(command_id)
        if isinstance(replayed, bytes):
            status = 200 if replayed.startswith(b'{"ok":true') else 500
            return Reply(status, replayed)
        if isinstance(replayed, Envelope):
            return Reply.of(replayed)
        running = self.executor.in_flight(command_id)
        if running is not None:
            return await asyncio.shield(running.reply)
        if request.command == c.SHUTDOWN:
            return self._shutdown(request)
        if self.stop_requested:
            return Reply.of(fail(SHUTTING_DOWN))
        submitted = self.executor.submit(request, self.timing.budget(request.command))
        if isinstance(submitted, Reply):
            return submitted
        return await asyncio.shield(submitted.reply)

    def uptime(self) -> Envelope:
        return ok({"uptimeMs": self.uptime_ms(), "protocolVersion": c.PROTOCOL_VERSION})

    def status(self, request: Request) -> Envelope:
        lookup = request.args.get("statusCommandId")
        if isinstance(lookup, str):
            return ok(self.journal.lookup(lookup))
        try:
            counters = self.device.counters()
        except Exception:  # status answers whatever a backend does
            counters = IssueCounters(-1, -1)
        data: dict[str, Any] = {
            "protocolVersion": c.PROTOCOL_VERSION,
            "uptimeMs": self.uptime_ms(),
            "state": self.gate.state(self._clock()).value,
            "suppressedIssues": counters.suppressed,
            "recordedFailures": counters.recorded,
            "running": self.executor.running(),
            "queued": self.gate.queued,
            "draining": self.executor.draining,
            "device": describe_device(self.device),
            "deviceHealth": self._health(),
            "deviceRestarts": self.dispatcher.restarts,
        }
        return ok(data)

    def _health(self) -> str | None:
        try:
            return self.device.health()
        except Exception as exc:
            return f"health check failed: {type(exc).__name__}: {exc}"

    def _shutdown(self, request: Request) -> Reply:
        assert request.command_id is not None
        envelope = ok({"message": "shutting down"})
        reply = Reply.of(envelope, stop_after=True)
        self.journal.accept(request.command_id, request.command)
        self.journal.start(request.command_id)
        self.journal.finish(request.command_id, envelope, reply.body)
        self.stop_requested = True
        return reply
