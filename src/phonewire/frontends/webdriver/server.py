"""``phonewire webdriver``: the W3C WebDriver HTTP server.

::

    phonewire webdriver [--host 127.0.0.1] [--port 4723] [--idle-timeout S] [--max-sessions N] [--allow-remote]
                        [--files-dir DIR]

HTTP is h11 (already phonewire's HTTP parser, in the runner): sans-I/O, so this adapter is one small asyncio
loop; no ASGI stack, no new dependency.  Connections are kept alive (Selenium and Appium clients pool them);
requests on one connection are answered in order; sessions on different connections run concurrently.

Who may connect (checked once per connection, before a request is read):

* default — a loopback peer whose socket belongs to the server's own uid (the bridge's peer-uid check, which a
  Grid relay node run by the same user passes); every request must name a loopback ``Host`` and carry no
  ``Origin`` (a web page in the user's browser never drives their phone).  Refusals are ``403`` with a W3C body.
* ``--allow-remote`` — any peer, but every request must carry HTTP basic-auth credentials equal to
  ``PHONEWIRE_WEBDRIVER_CREDENTIALS`` (``user:password``; clients put them in the URL,
  ``http://user:password@host:4723``), else ``401``.  Binding a non-loopback ``--host`` needs it.

Prints ``PHONEWIRE_WEBDRIVER_READY port=N`` once listening.  SIGINT/SIGTERM end every session (stopping the
runner each one started) and exit 0.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import hmac
import json
import logging
import os
import socket
import sys
from pathlib import Path
from typing import Any, Final

import h11

from phonewire.frontends.bridge.server import is_loopback, peer_is_ours
from phonewire.frontends.webdriver.errors import INVALID_ARGUMENT, UNKNOWN_ERROR, WebDriverError, error_body, to_w3c
from phonewire.frontends.webdriver.routes import DEFAULT_IDLE_TIMEOUT_S, DEFAULT_MAX_SESSIONS, Service
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.jsonlimits import bounded_int
from phonewire.runner.http import is_loopback_host

log = logging.getLogger("phonewire.webdriver")

DEFAULT_PORT: Final = 4723
READY_LINE: Final = "PHONEWIRE_WEBDRIVER_READY port={port}"
CREDENTIALS_ENV: Final = "PHONEWIRE_WEBDRIVER_CREDENTIALS"
MAX_BODY_BYTES: Final = 16 * 1024 * 1024
MAX_HEADER_BYTES: Final = 64 * 1024
#: After a 413: how long what the client still sends is read and dropped before the connection closes.
DRAIN_S: Final = 10.0
#: A connection that sends nothing for this long is closed (keep-alive pools reconnect).
IDLE_CONNECTION_S: Final = 600.0
#: The challenge every 401 carries (RFC 9110 requires one).  HTTP clients that hold credentials send them only
#: when challenged — Java's, which a Selenium Grid relay node uses, fails the request without it.
CHALLENGE: Final = (b"www-authenticate", b'Basic realm="phonewire webdriver", charset="UTF-8"')


class TooLarge(Exception):
    """A request body over MAX_BODY_BYTES (by its Content-Length, or as it streams in)."""


class Refused(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class WebDriverServer:
    def __init__(self, service: Service, *, credentials: str | None = None) -> None:
        self.service = service
        #: ``user:password`` required of every request (``--allow-remote``); ``None``: owner-only on loopback.
        self.credentials = credentials
        self._server: asyncio.Server | None = None
        self._connections: set[asyncio.Task[Any]] = set()

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.sockets[0].getsockname()[1])

    async def start(self, listener: socket.socket) -> None:
        self._server = await asyncio.start_server(self._on_connect, sock=listener, limit=2**16)

    async def aclose(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._connections):
            task.cancel()
        if self._connections:
            await asyncio.gather(*self._connections, return_exceptions=True)

    # -- admission --------------------------------------------------------------------------------------------
    def _admit_peer(self, writer: asyncio.StreamWriter) -> str | None:
        if self.credentials is not None:
            return None
        peer = writer.get_extra_info("peername")
        if not is_loopback(peer):
            return "only loopback peers may connect (start with --allow-remote and credentials to serve others)"
        if peer_is_ours(peer, writer.get_extra_info("sockname")) is False:
            return "phonewire webdriver serves only the user who started it"
        return None

    def _admit_request(self, request: h11.Request) -> None:
        headers = {k.lower(): v for k, v in request.headers}
        if self.credentials is not None:
            auth = headers.get(b"authorization", b"")
            scheme, _, token = auth.partition(b" ")
            try:
                given = base64.b64decode(token, validate=True) if scheme.lower() == b"basic" else b""
            except ValueError:
                given = b""
            if not hmac.compare_digest(given, self.credentials.encode()):
                raise Refused(401, "credentials required: http://USER:PASSWORD@HOST:PORT")
            return
        if b"origin" in headers:
            raise Refused(403, "requests from web pages (with an Origin header) are refused")
        if not is_loopback_host(headers.get(b"host", b"")):
            raise Refused(403, "the Host header must name a loopback address")

    # -- connections ------------------------------------------------------------------------------------------
    async def _on_connect(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._connections.add(task)
        try:
            refusal = self._admit_peer(writer)
            conn = h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_HEADER_BYTES)
            if refusal is not None:
                log.warning("refused connection from %r: %s", writer.get_extra_info("peername"), refusal)
                await self._refuse(reader, writer, conn, Refused(403, refusal))
                return
            await self._serve(reader, writer, conn)
        except (ConnectionError, OSError, TimeoutError, asyncio.CancelledError, h11.RemoteProtocolError):
            pass
        finally:
            self._connections.discard(task)
            writer.close()

    async def _refuse(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, conn: h11.Connection, refused: Refused
    ) -> None:
        # read the request head first, so the refusal is an HTTP reply the client can parse
        with contextlib.suppress(TimeoutError, h11.RemoteProtocolError):
            async with asyncio.timeout(2.0):
                while not isinstance(event := conn.next_event(), h11.Request):
                    if event is h11.NEED_DATA:
                        conn.receive_data(await reader.read(65536))
                    elif isinstance(event, h11.ConnectionClosed):
                        return
        writer.write(_reply(conn, refused.status, error_body(UNKNOWN_ERROR, refused.message), close=True))
        await writer.drain()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, conn: h11.Connection) -> None:
        while True:
            try:
                request, body = await self._read(reader, conn)
            except TooLarge:
                await self._too_large(reader, writer, conn)
                return
            if request is None:
                return
            try:
                self._admit_request(request)
            except Refused as refused:
                writer.write(_reply(conn, refused.status, error_body(UNKNOWN_ERROR, refused.message), close=True,
                                    extra=[CHALLENGE] if refused.status == 401 else []))  # fmt: skip
                await writer.drain()
                return
            status, payload = await self._answer(request, body)
            writer.write(_reply(conn, status, payload, head_only=request.method == b"HEAD"))
            await writer.drain()
            if conn.our_state is h11.MUST_CLOSE or conn.their_state is h11.MUST_CLOSE:
                return
            conn.start_next_cycle()

    async def _read(self, reader: asyncio.StreamReader, conn: h11.Connection) -> tuple[h11.Request | None, bytes]:
        request: h11.Request | None = None
        body = bytearray()
        async with asyncio.timeout(IDLE_CONNECTION_S):
            while True:
                event = conn.next_event()
                if event is h11.NEED_DATA:
                    conn.receive_data(await reader.read(65536))
                elif isinstance(event, h11.Request):
                    request = event
                    length = dict(event.headers).get(b"content-length", b"0")
                    if length.isdigit() and len(length) < 20 and int(length) > MAX_BODY_BYTES:
                        raise TooLarge
                elif isinstance(event, h11.Data):
                    body += event.data
                    if len(body) > MAX_BODY_BYTES:
                        raise TooLarge
                elif isinstance(event, h11.EndOfMessage):
                    return request, bytes(body)
                elif isinstance(event, h11.ConnectionClosed) or event is h11.PAUSED:
                    return None, b""

    async def _too_large(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, conn: h11.Connection
    ) -> None:
        """413 with a W3C body, then read (and drop) what the client still sends, briefly: closing a socket with
        unread data resets the connection, and the client would see the reset instead of the reply."""
        message = f"the request body is over {MAX_BODY_BYTES // (1024 * 1024)} MiB, the most this server reads"
        writer.write(_reply(conn, 413, error_body(INVALID_ARGUMENT, message), close=True))
        await writer.drain()
        with contextlib.suppress(OSError):
            writer.write_eof()
        dropped = 0
        with contextlib.suppress(TimeoutError, OSError):
            async with asyncio.timeout(DRAIN_S):
                while dropped < 4 * MAX_BODY_BYTES and (chunk := await reader.read(1 << 20)):
                    dropped += len(chunk)

    async def _answer(self, request: h11.Request, body: bytes) -> tuple[int, bytes]:
        method = request.method.decode("ascii", "replace").upper()
        path = request.target.decode("utf-8", "replace").split("?", 1)[0]
        if method == "HEAD":
            method = "GET"
        try:
            decoded: Any = {}
            if body.strip():
                try:
                    decoded = json.loads(body, parse_int=bounded_int)
                except (ValueError, RecursionError) as exc:
                    raise WebDriverError(INVALID_ARGUMENT, f"the request body is not JSON: {exc}") from exc
                if not isinstance(decoded, dict):
                    raise WebDriverError(INVALID_ARGUMENT, "the request body must be a JSON object")
            value = await self.service.handle(method, path.rstrip("/") or "/", decoded)
            # a page's lone surrogate cannot be UTF-8: it goes out as its JSON \uXXXX escape (envelope.encode_json)
            return 200, json.dumps({"value": value}, ensure_ascii=False).encode("utf-8", "backslashreplace")
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # THE boundary: every failure becomes a W3C error (errors.to_w3c)
            if not isinstance(exc, WebDriverError | ProtocolError):
                log.warning("%s %s failed: %s: %s", method, path, type(exc).__name__, exc)
            return to_w3c(exc)


def _reply(
    conn: h11.Connection,
    status: int,
    payload: bytes,
    *,
    close: bool = False,
    head_only: bool = False,
    extra: list[tuple[bytes, bytes]] | None = None,
) -> bytes:
    headers = [
        (b"content-type", b"application/json; charset=utf-8"),
        (b"content-length", str(len(payload)).encode()),
        (b"cache-control", b"no-cache"),
        *(extra or []),
    ]
    if close:
        headers.append((b"connection", b"close"))
    if conn.our_state is not h11.SEND_RESPONSE:  # refusing before a request was read
        conn = h11.Connection(h11.SERVER)
        conn.receive_data(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        conn.next_event()
        conn.next_event()
    out = conn.send(h11.Response(status_code=status, headers=headers)) or b""
    if not head_only:
        out += conn.send(h11.Data(data=payload)) or b""
    return out + (conn.send(h11.EndOfMessage()) or b"")


# --- the command ------------------------------------------------------------------------------------------------
def bind_listener(host: str, port: int) -> socket.socket:
    return socket.create_server((host, port), backlog=128, reuse_port=False)


async def serve(
    service: Service, listener: socket.socket, stop: asyncio.Event, *, credentials: str | None = None
) -> None:
    server = WebDriverServer(service, credentials=credentials)
    await server.start(listener)
    service.start_reaper()
    try:
        print(READY_LINE.format(port=server.port), flush=True)
        await stop.wait()
    finally:
        await server.aclose()
        await service.aclose()


def _is_loopback_name(host: str) -> bool:
    return host == "localhost" or is_loopback((host, 0))


async def _run(args: argparse.Namespace) -> int:
    from phonewire.frontends.serving import SignalStop

    credentials = None
    if args.allow_remote:
        credentials = os.environ.get(CREDENTIALS_ENV, "")
        if ":" not in credentials:
            print(f"phonewire webdriver: --allow-remote needs {CREDENTIALS_ENV}=user:password", file=sys.stderr)
            return 2
    elif not _is_loopback_name(args.host):
        print(
            f"phonewire webdriver: {args.host} is not a loopback address; binding it needs --allow-remote "
            f"(and {CREDENTIALS_ENV})",
            file=sys.stderr,
        )
        return 2
    try:
        listener = bind_listener(args.host, args.port)
    except OSError as exc:
        print(f"phonewire webdriver: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 1
    with listener, SignalStop() as signals:
        signals.serving = True
        service = Service(idle_timeout_s=args.idle_timeout, files_dir=args.files_dir, max_sessions=args.max_sessions)
        await serve(service, listener, signals.event, credentials=credentials)
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="phonewire webdriver", description="W3C WebDriver server: every session drives a phone of its own."
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="TCP port (default 4723; 0 = any free port)")
    parser.add_argument(
        "--idle-timeout", type=float, default=DEFAULT_IDLE_TIMEOUT_S,
        help="end a session after this many seconds without a command (default 300)",
    )  # fmt: skip
    parser.add_argument(
        "--max-sessions", type=int, default=DEFAULT_MAX_SESSIONS,
        help=f"sessions at once, each a phone of its own (default {DEFAULT_MAX_SESSIONS})",
    )  # fmt: skip
    parser.add_argument("--allow-remote", action="store_true", help=f"serve any peer that sends {CREDENTIALS_ENV}")
    parser.add_argument(
        "--files-dir", default=None,
        help="where mobile: traceStart / recordStart write; clients name files inside it only "
        "(default $XDG_STATE_HOME/phonewire/webdriver)",
    )  # fmt: skip
    return parser


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    from phonewire.frontends.serving import port_error, run_server

    if (problem := port_error("webdriver", args.port)) is not None:
        print(problem, file=sys.stderr)
        return 2
    if args.max_sessions < 1:
        print("phonewire webdriver: --max-sessions must be >= 1", file=sys.stderr)
        return 2
    if args.idle_timeout <= 0:
        print("phonewire webdriver: --idle-timeout must be > 0", file=sys.stderr)
        return 2
    if args.files_dir:
        args.files_dir = Path(args.files_dir).expanduser().absolute()

    return run_server("webdriver", _run(args))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
