"""A real loopback TCP proxy that injects network faults between a host and a runner, and counts requests.

Each accepted connection carries one HTTP request (the wire protocol closes after each exchange).  The proxy
reads the request, asks ``rule(index, body)`` what to do with it, and then:

=====================  ===========================================================================================
fault                  effect
=====================  ===========================================================================================
``PASS``               forward, relay the reply
``DROP_REPLY``         forward, wait for the whole reply (the command completed), close without relaying it
``RESET_MID_REPLY``    forward, relay half the reply, then reset the connection (RST)
``DELAY``              forward, hold the reply for ``delay_s``, then relay it
``HANG_UP_EARLY``      forward, close the host's connection at once while the runner still works on it
``DROP_REQUEST``       never forward; close the host's connection (the runner never sees the command)
``BLACKHOLE``          never forward, never answer; keep the connection open until the host gives up
=====================  ===========================================================================================
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import enum
import json
import socket
import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


class Fault(enum.Enum):
    PASS = "pass"
    DROP_REPLY = "dropReply"
    RESET_MID_REPLY = "resetMidReply"
    DELAY = "delay"
    HANG_UP_EARLY = "hangUpEarly"
    DROP_REQUEST = "dropRequest"
    BLACKHOLE = "blackhole"


@dataclass(frozen=True)
class Plan:
    fault: Fault
    delay_s: float = 0.0


Rule = Callable[[int, dict[str, Any]], Plan]


def pass_all(_index: int, _body: dict[str, Any]) -> Plan:
    return Plan(Fault.PASS)


class FaultProxy:
    def __init__(self, upstream_port: int, rule: Rule = pass_all) -> None:
        self.upstream_port = upstream_port
        self.rule = rule
        self.port = 0
        self.requests: list[str] = []  # command name of every request, in arrival order
        self.faults: collections.Counter[Fault] = collections.Counter()
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._writers: list[asyncio.StreamWriter] = []

    def count(self, command: str | None = None) -> int:
        return len(self.requests) if command is None else sum(1 for c in self.requests if c == command)

    async def start(self) -> FaultProxy:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for writer in self._writers:
            writer.close()
        if self._server is not None:
            await self._server.wait_closed()

    async def __aenter__(self) -> FaultProxy:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.append(writer)  # closed in close() even if its task is cancelled before it ever ran
        task = asyncio.ensure_future(self._handle(reader, writer))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            raw, body = await _read_request(reader)
            command = str(body.get("command"))
            index = len(self.requests)
            self.requests.append(command)
            plan = self.rule(index, body)
            self.faults[plan.fault] += 1
            if plan.fault is Fault.BLACKHOLE:
                while await reader.read(65536):
                    pass
                return
            if plan.fault is Fault.DROP_REQUEST:
                return
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
            try:
                up_writer.write(raw)
                await up_writer.drain()
                if plan.fault is Fault.HANG_UP_EARLY:
                    _abort(writer)
                reply = await up_reader.read()
                while chunk := await up_reader.read(65536):
                    reply += chunk
            finally:
                up_writer.close()
            if plan.fault is Fault.HANG_UP_EARLY or plan.fault is Fault.DROP_REPLY:
                return
            if plan.fault is Fault.DELAY:
                await asyncio.sleep(plan.delay_s)
            if plan.fault is Fault.RESET_MID_REPLY:
                writer.write(reply[: len(reply) // 2])
                await writer.drain()
                _abort(writer)
                return
            writer.write(reply)
            await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError, ValueError):
            pass
        finally:
            writer.close()


def _abort(writer: asyncio.StreamWriter) -> None:
    """Close with an RST instead of a FIN."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


async def _read_request(reader: asyncio.StreamReader) -> tuple[bytes, dict[str, Any]]:
    head = await reader.readuntil(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    body = await reader.readexactly(length)
    parsed = json.loads(body)
    return head + body, parsed if isinstance(parsed, dict) else {}
