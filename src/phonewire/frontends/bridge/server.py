"""``phonewire bridge``: the PhoneAgent-style JSON-RPC bridge, newline-delimited JSON over loopback TCP.

::

    phonewire bridge [--port 45678] [--device web] [--app APP_ID]

Listens on 127.0.0.1 (peers that are not loopback are refused), starts a host session for the device, and prints
``PHONEWIRE_BRIDGE_READY port=N`` on stdout once it accepts connections.  Each line is one request
``{"id": …, "method": "…", "params": {…}}``; each reply is one line ``{"id": …, "result": {…}}`` or
``{"id": …, "error": {"code", "message", "hint"}}``.  A malformed line gets an error reply and the connection keeps
working.  A connection is served one request at a time; requests from all connections run one at a time.

The methods live in :mod:`phonewire.frontends.bridge.methods`; docs/bridge.md documents them.  SIGINT, SIGTERM or the
``stop`` method end the bridge and stop the runner it started.

Lifecycle::

    start runner (host session) → listen → READY line → serve … → stop signal → close listener and
    connections → close the host session (stops an owned runner) → exit 0
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import logging
import socket
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from phonewire.frontends.bridge.methods import AgentAPI, Dispatcher, encode_reply, error_reply
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

__all__ = [
    "DEFAULT_PORT",
    "READY_LINE",
    "BridgeServer",
    "LineFramer",
    "LineTooLong",
    "bind_listener",
    "is_loopback",
    "main",
    "serve",
]

log = logging.getLogger("phonewire.bridge")

DEFAULT_PORT: Final = 45678
READY_LINE: Final = "PHONEWIRE_BRIDGE_READY port={port}"
#: Longest request line accepted (the wire protocol's request cap).
MAX_LINE_BYTES: Final = 2 * 1024 * 1024
_READ_CHUNK: Final = 64 * 1024


# --- framing (pure) -------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class LineTooLong:
    """A line longer than the cap: it is discarded up to its newline and answered with one error."""

    size: int


class LineFramer:
    """Bytes in, complete lines out.  Blank lines are skipped; an overlong line becomes one :class:`LineTooLong`."""

    def __init__(self, max_line: int = MAX_LINE_BYTES) -> None:
        self.max_line = max_line
        self._buffer = bytearray()
        self._discarding = False
        self._discarded = 0

    def feed(self, data: bytes) -> Iterator[bytes | LineTooLong]:
        self._buffer += data
        while True:
            newline = self._buffer.find(b"\n")
            if newline < 0:
                break
            line = bytes(self._buffer[:newline])
            del self._buffer[: newline + 1]
            if self._discarding:
                size, self._discarding, self._discarded = self._discarded + len(line), False, 0
                yield LineTooLong(size)
            elif len(line) > self.max_line:
                yield LineTooLong(len(line))
            elif line.strip():
                yield line.strip()
        if len(self._buffer) > self.max_line:
            self._discarding = True
            self._discarded += len(self._buffer)
            self._buffer.clear()

    @property
    def pending(self) -> bool:
        """Bytes of an unfinished line are buffered (or being discarded)."""
        return bool(self._buffer) or self._discarding


def _too_long_reply(event: LineTooLong, limit: int) -> bytes:
    error = ProtocolError(
        e.INVALID_REQUEST,
        f"request line of {event.size} bytes exceeds the {limit}-byte limit",
        "Split long input into several type/enter_text calls.",
    )
    return encode_reply(error_reply(None, error))


def is_loopback(peer: object) -> bool:
    if not isinstance(peer, tuple) or not peer:
        return False
    try:
        return ipaddress.ip_address(str(peer[0]).split("%", 1)[0]).is_loopback
    except ValueError:
        return False


# --- the server -------------------------------------------------------------------------------------------------
class BridgeServer:
    """Serves one :class:`Dispatcher` on a loopback TCP port.  ``aclose()`` closes the listener and connections."""

    def __init__(self, dispatcher: Dispatcher, *, max_line: int = MAX_LINE_BYTES) -> None:
        self.dispatcher = dispatcher
        self.max_line = max_line
        self._server: asyncio.Server | None = None
        self._connections: set[asyncio.Task[None]] = set()

    @property
    def port(self) -> int:
        assert self._server is not None and self._server.sockets
        port: int = self._server.sockets[0].getsockname()[1]
        return port

    async def start(self, listener: int | socket.socket) -> None:
        """Serve on a port of 127.0.0.1, or on a listening socket made by :func:`bind_listener`."""
        if isinstance(listener, socket.socket):
            self._server = await asyncio.start_server(self._on_connect, sock=listener)
        else:
            self._server = await asyncio.start_server(self._on_connect, "127.0.0.1", listener, reuse_address=True)

    async def _on_connect(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        if not is_loopback(peer):
            log.warning("refused bridge connection from %r (loopback peers only)", peer)
            writer.close()
            return
        task = asyncio.current_task()
        assert task is not None
        self._connections.add(task)
        try:
            await self._serve(reader, writer)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        except asyncio.CancelledError:
            # aclose() cancels connections; the handler is a top-level task of the stream server, which would
            # log a cancelled handler as an error, so the cancellation ends here.
            pass
        finally:
            self._connections.discard(task)
            writer.close()
            with contextlib.suppress(ConnectionError, OSError):
                await writer.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        framer = LineFramer(self.max_line)
        while True:
            data = await reader.read(_READ_CHUNK)
            if not data:
                return
            for event in framer.feed(data):
                if isinstance(event, LineTooLong):
                    writer.write(_too_long_reply(event, self.max_line))
                else:
                    writer.write(encode_reply(await self.dispatcher.handle(event)))
                await writer.drain()
                if self.dispatcher.stop_requested.is_set():
                    return

    async def aclose(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._connections):
            task.cancel()
        if self._connections:
            await asyncio.gather(*self._connections, return_exceptions=True)
        if self._server is not None:
            with contextlib.suppress(Exception):
                await self._server.wait_closed()


def bind_listener(port: int) -> socket.socket:
    """Bind and listen on 127.0.0.1 before anything else starts, so a busy port fails fast (no runner launched);
    connections made before serving starts wait in the backlog."""
    return socket.create_server(("127.0.0.1", port), backlog=64)


async def serve(session: AgentAPI, listener: int | socket.socket, stop: asyncio.Event | None = None) -> None:
    """Serve ``session`` until ``stop`` is set (by a signal handler of the caller) or the ``stop`` method."""
    dispatcher = Dispatcher(session)
    server = BridgeServer(dispatcher)
    await server.start(listener)
    try:
        print(READY_LINE.format(port=server.port), flush=True)
        waits = [asyncio.ensure_future(dispatcher.stop_requested.wait())]
        if stop is not None:
            waits.append(asyncio.ensure_future(stop.wait()))
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for w in waits:
                w.cancel()
    finally:
        await server.aclose()


async def _run(args: argparse.Namespace) -> int:
    from phonewire.frontends.serving import SignalStop, agent_session

    try:
        listener = bind_listener(args.port)
    except OSError as exc:
        print(f"phonewire bridge: cannot listen on 127.0.0.1:{args.port}: {exc}", file=sys.stderr)
        return 1
    with listener, SignalStop() as signals:
        try:
            async with agent_session(args.device, app=args.app, runner=args.runner) as session:
                signals.serving = True
                await serve(session, listener, signals.event)
        except asyncio.CancelledError:
            if not signals.event.is_set():
                raise
            return 130
    return 0


def _parser() -> argparse.ArgumentParser:
    from phonewire.frontends.serving import add_host_options

    parser = argparse.ArgumentParser(
        prog="phonewire bridge", description="PhoneAgent-style JSON-RPC bridge: newline-delimited JSON on 127.0.0.1."
    )
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="TCP port on 127.0.0.1 (0 = any free port)")
    add_host_options(parser)
    return parser


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    if not 0 <= args.port <= 65535:
        print(f"phonewire bridge: --port must be 0..65535, got {args.port}", file=sys.stderr)
        return 2
    from phonewire.frontends.serving import run_server

    return run_server("bridge", _run(args))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
