"""``phonewire bridge``: the PhoneAgent-style JSON-RPC bridge, newline-delimited JSON over loopback TCP.

::

    phonewire bridge [--port 45678] [--device web] [--app APP_ID] [--trace DIR]

Listens on 127.0.0.1 (peers that are not loopback are refused), starts a host session for the device, and prints
``PHONEWIRE_BRIDGE_READY port=N`` on stdout once it accepts connections.  Each line is one request
``{"id": …, "method": "…", "params": {…}}``; each reply is one line ``{"id": …, "result": {…}}`` or
``{"id": …, "error": {"code", "message", "hint"}}``.  A malformed line gets an error reply and the connection keeps
working.  A connection is served one request at a time; requests from all connections run one at a time.

Owner only (PhoneAgent clients send no token): on Linux a connection is admitted only when the peer's socket
belongs to the bridge's own uid (:func:`peer_uid` reads the kernel's socket tables, /proc/net/tcp and tcp6);
elsewhere the check is unavailable and the bridge says so on stderr when it starts.  A refused peer gets one
UNAUTHORIZED error line and the connection is closed.  A connection whose first line is not a JSON object (an
HTTP request line smuggled in by a web page, say) is closed after one error line, and nothing it sent runs —
not even complete request lines later in the same buffer.

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
import json
import logging
import os
import socket
import struct
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from phonewire.frontends.bridge.methods import Dispatcher, encode_reply, error_reply
from phonewire.frontends.serving import AgentAPI, port_error
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

__all__ = [
    "DEFAULT_PORT",
    "READY_LINE",
    "BridgeServer",
    "LineFramer",
    "LineTooLong",
    "bind_listener",
    "first_line_is_object",
    "is_loopback",
    "main",
    "peer_is_ours",
    "peer_uid",
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


# --- owner-only admission (pure parsing + one /proc read) ------------------------------------------------------
#: The kernel's tables of TCP sockets (IPv4, IPv6) that name each socket's owner uid.
PROC_NET_TCP: Final = ("/proc/net/tcp", "/proc/net/tcp6")
PEER_CHECK_UNAVAILABLE: Final = (
    "the peer-uid check is unavailable on this system (no /proc/net/tcp): any local user who can connect to "
    "127.0.0.1:{port} can drive the phone"
)


def _proc_address(field: str) -> tuple[ipaddress.IPv4Address | ipaddress.IPv6Address, int] | None:
    """``0100007F:1F90`` (IPv4) or 32 hex digits + port (IPv6) → (address, port).  The kernel prints each 32-bit
    word of the address in host byte order, the port as a plain hex number."""
    hex_addr, _, hex_port = field.partition(":")
    try:
        words = [int(hex_addr[i : i + 8], 16) for i in range(0, len(hex_addr), 8)]
        raw = b"".join(struct.pack("=I", w) for w in words)
        address = ipaddress.ip_address(raw)
        port = int(hex_port, 16)
    except (ValueError, struct.error):
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped, port
    return address, port


def _norm(address: str, port: int) -> tuple[ipaddress.IPv4Address | ipaddress.IPv6Address, int] | None:
    try:
        parsed = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        return parsed.ipv4_mapped, port
    return parsed, port


def peer_uid(table: str, peer: tuple[str, int], ours: tuple[str, int]) -> int | None:
    """The uid owning the socket whose local address is ``peer`` and remote address ``ours`` in the text of
    /proc/net/tcp or tcp6 (``None``: no such row).  Pure: the caller reads the file."""
    want_local, want_remote = _norm(*peer), _norm(*ours)
    if want_local is None or want_remote is None:
        return None
    for line in table.splitlines()[1:]:
        cols = line.split()
        if len(cols) < 8:
            continue
        if _proc_address(cols[1]) == want_local and _proc_address(cols[2]) == want_remote:
            try:
                return int(cols[7])
            except ValueError:
                return None
    return None


def _peer_check_available() -> bool:
    return Path(PROC_NET_TCP[0]).exists()


def peer_is_ours(peer: object, ours: object) -> bool | None:
    """Whether the peer's socket belongs to this process's uid; ``None`` when the check is unavailable."""
    if not _peer_check_available():
        return None
    if not (isinstance(peer, tuple) and isinstance(ours, tuple) and len(peer) >= 2 and len(ours) >= 2):
        return False
    for path in PROC_NET_TCP:
        try:
            table = Path(path).read_text(encoding="ascii", errors="replace")
            uid = peer_uid(table, (str(peer[0]), int(peer[1])), (str(ours[0]), int(ours[1])))
        except OSError:
            continue
        if uid is not None:
            return uid == os.getuid()
    return False


def first_line_is_object(line: bytes) -> bool:
    """The first line of a connection must be one JSON object (a JSON-RPC request); an HTTP request line is not."""
    if not line.startswith(b"{"):
        return False
    try:
        return isinstance(json.loads(line), dict)
    except (ValueError, RecursionError):
        return False


def _refusal(message: str, hint: str) -> bytes:
    return encode_reply(error_reply(None, ProtocolError(e.UNAUTHORIZED, message, hint)))


_NOT_OURS: Final = _refusal(
    "the bridge serves only connections of the user who started it",
    "Connect as the user who started `phonewire bridge`, or start a bridge of your own.",
)
_NOT_JSON_RPC: Final = _refusal(
    "the first line of a connection must be a JSON object; the connection is closed and nothing ran",
    'Send newline-delimited JSON-RPC only, e.g. {"id": 1, "method": "get_context"}.',
)

#: After a refusal, how long (and how much of) what the client still sends is read and discarded, so that closing
#: with unread bytes does not reset the connection before the client reads the refusal.
_LINGER_S: Final = 0.5
_LINGER_MAX_BYTES: Final = 1024 * 1024


async def _refuse(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, line: bytes) -> None:
    """Write one refusal line, stop writing, and discard (never run) what the client still sends, briefly."""
    writer.write(line)
    await writer.drain()
    writer.write_eof()
    with contextlib.suppress(TimeoutError, ConnectionError, OSError):
        async with asyncio.timeout(_LINGER_S):
            total = 0
            while total < _LINGER_MAX_BYTES and (chunk := await reader.read(_READ_CHUNK)):
                total += len(chunk)


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
        if peer_is_ours(peer, writer.get_extra_info("sockname")) is False:
            log.warning("refused bridge connection from %r: its socket belongs to another user", peer)
            with contextlib.suppress(ConnectionError, OSError):
                await _refuse(reader, writer, _NOT_OURS)
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
        first = True
        while True:
            data = await reader.read(_READ_CHUNK)
            if not data:
                return
            for event in framer.feed(data):
                if first and (isinstance(event, LineTooLong) or not first_line_is_object(event)):
                    # an overlong first line cannot be shown to be a JSON object either: the same refusal
                    await _refuse(reader, writer, _NOT_JSON_RPC)
                    return  # the rest of the buffer (e.g. an HTTP body holding a request line) is never run
                if isinstance(event, LineTooLong):
                    writer.write(_too_long_reply(event, self.max_line))
                else:
                    first = False
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
        if not _peer_check_available():
            print(f"phonewire bridge: {PEER_CHECK_UNAVAILABLE.format(port=server.port)}", file=sys.stderr, flush=True)
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
            async with agent_session(args.device, app=args.app, runner=args.runner, trace=args.trace) as session:
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
    if (problem := port_error("bridge", args.port)) is not None:
        print(problem, file=sys.stderr)
        return 2
    from phonewire.frontends.serving import run_server

    return run_server("bridge", _run(args))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
