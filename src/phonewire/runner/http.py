"""The HTTP adapter: a thin asyncio socket loop around h11.  One request per connection, ``Connection: close``.

Framing rules (all rejections are INVALID_REQUEST envelopes; the envelope is authoritative, the status informational):

=======  ==========================================================================================================
status   when
=======  ==========================================================================================================
200      an ok envelope
500      an error envelope (from the command path)
400      the bytes are not HTTP/1.0 or HTTP/1.1 (HTTP/0.9 and HTTP/2.0 request lines included), or a finished header
         block lacks a usable Content-Length
         (missing, malformed, or chunked transfer coding instead)
401      the request lacks ``Authorization: Bearer <the runner's token>`` or carries another token (UNAUTHORIZED,
         checked before anything else in the head; nothing ran, nothing journaled)
403      the Host header is not a loopback name (or is missing), or the request carries an Origin header: a web page
         in the user's own browser must never drive their phone
405      a method other than POST
408      the header block was not complete within the head deadline (2 s × time scale, at least 1 s), or the whole
         request not within the read deadline (10 s × time scale, at least 1 s)
413      the declared (or received) body exceeds 2 MB: decided from the header block, before buffering the body
431      the header block exceeds 16 KB
503      more connections are open than the cap and none of them is still reading its request (RUNNER_BUSY,
         nothing ran)
=======  ==========================================================================================================

Slow clients cannot deny service: at the cap, a new connection is admitted by dropping (closing without a reply)
the oldest connection that is still reading its request — stalled heads and bodies make way, a connection whose
request is being answered never does.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import ipaddress
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import h11

from phonewire.protocol import commands as c
from phonewire.protocol import errors as e
from phonewire.protocol.envelope import fail
from phonewire.protocol.errors import ProtocolError
from phonewire.runner.executor import Reply

#: Whole-request read deadline (unscaled seconds): from accept to the last body byte.
READ_DEADLINE_S: Final = 10.0
#: Header-block deadline (unscaled seconds): from accept to the end of the request head.
HEAD_DEADLINE_S: Final = 2.0
#: Deadline for writing one reply (unscaled seconds).
WRITE_DEADLINE_S: Final = 30.0
#: Floors of the scaled deadlines (seconds).
MIN_READ_DEADLINE_S: Final = 1.0
MIN_HEAD_DEADLINE_S: Final = 1.0
MIN_WRITE_DEADLINE_S: Final = 5.0
#: Concurrent connections served; beyond it the oldest one still reading its request is dropped, else RUNNER_BUSY.
MAX_CONNECTIONS: Final = 64
MAX_HEADER_BYTES: Final = 16 * 1024
#: After an early rejection, how long unread request bytes are drained so the client can read the reply.
LINGER_S: Final = 0.5
_LINGER_MAX_BYTES: Final = 4 * c.MAX_REQUEST_BYTES

HINT_HEADERS: Final = "Send only the needed headers."
HINT_BODY: Final = f"Send a body of at most {c.MAX_REQUEST_BYTES} bytes; split long text into several type commands."

log = logging.getLogger("phonewire.runner")

_REASONS: Final = {
    200: b"OK",
    400: b"Bad Request",
    401: b"Unauthorized",
    403: b"Forbidden",
    405: b"Method Not Allowed",
    408: b"Request Timeout",
    413: b"Content Too Large",
    431: b"Request Header Fields Too Large",
    500: b"Internal Server Error",
    503: b"Service Unavailable",
}


class FramingError(Exception):
    """A request refused by the adapter before the command path sees it."""

    def __init__(self, status: int, message: str, hint: str | None = None, *, code: str = e.INVALID_REQUEST) -> None:
        super().__init__(message)
        self.status = status
        self.reply = Reply(status, fail(ProtocolError(code, message, hint)).encode())


HINT_TOKEN: Final = (
    "Nothing ran. Send the runner's token as 'Authorization: Bearer TOKEN': it is PHONEWIRE_RUNNER_TOKEN of the "
    "runner's environment, or the runner-PORT.token file (0600) in its user's runtime directory."
)


def check_token(headers: Sequence[tuple[bytes, bytes]], token: bytes) -> None:
    """Exactly one ``Authorization: Bearer <token>`` header (the scheme case-insensitive, the token compared in
    constant time); 401 UNAUTHORIZED otherwise."""
    values = [v for k, v in headers if k == b"authorization"]
    if not values:
        raise FramingError(401, "the request lacks the runner's bearer token", HINT_TOKEN, code=e.UNAUTHORIZED)
    if len(values) > 1:  # which one would count is a guess: refused, whatever they hold
        raise FramingError(
            400, f"the request carries {len(values)} Authorization headers; exactly one is taken",
            "Nothing ran. Send one 'Authorization: Bearer TOKEN' header (a proxy or an HTTP library may have added "
            "the other).", code=e.INVALID_REQUEST,
        )  # fmt: skip
    scheme, _, presented = values[0].partition(b" ")
    if scheme.lower() != b"bearer":
        shown = scheme[:20].decode("ascii", "replace")
        raise FramingError(
            401, f"the Authorization header uses the {shown!r} scheme; the runner takes Bearer", HINT_TOKEN,
            code=e.UNAUTHORIZED,
        )  # fmt: skip
    if not hmac.compare_digest(presented.strip(), token):
        raise FramingError(401, "the request carries a wrong bearer token", HINT_TOKEN, code=e.UNAUTHORIZED)


def is_loopback_host(value: bytes) -> bool:
    """``localhost``, ``127.x.x.x`` or ``[::1]``, with an optional port."""
    try:
        text = value.decode("ascii").strip().lower()
    except UnicodeDecodeError:
        return False
    if text.startswith("["):
        host, sep, rest = text[1:].partition("]")
        if not sep or (rest and not (rest.startswith(":") and rest[1:].isdigit())):
            return False
    else:
        host, sep, port = text.partition(":")
        if sep and not port.isdigit():
            return False
    if host in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_head(event: h11.Request, token: bytes) -> int:
    """Apply the protocol's own checks to a finished header block; return the declared body length."""
    size = len(event.method) + len(event.target) + sum(len(k) + len(v) + 4 for k, v in event.headers)
    if size > MAX_HEADER_BYTES:  # h11 caps only a block that arrives in pieces; this caps one that arrives at once
        raise FramingError(431, f"the header block exceeds {MAX_HEADER_BYTES} bytes", HINT_HEADERS)
    if event.http_version not in (b"1.0", b"1.1"):  # h11 parses any digit.digit
        version = event.http_version.decode("ascii", "replace")
        raise FramingError(400, f"HTTP/{version} is not supported", "Send one HTTP/1.1 POST with a JSON body.")
    check_token(event.headers, token)
    if event.method != b"POST":
        raise FramingError(405, f"method {event.method.decode('latin-1')} is not allowed", "Send one POST per command.")
    hosts = [v for k, v in event.headers if k == b"host"]
    if len(hosts) != 1 or not is_loopback_host(hosts[0]):
        shown = hosts[0].decode("latin-1") if hosts else "(none)"
        raise FramingError(403, f"Host {shown!r} is not a loopback name", "Address the runner as 127.0.0.1:PORT.")
    if any(k == b"origin" for k, _ in event.headers):
        raise FramingError(
            403, "requests carrying an Origin header are refused", "Browsers may not drive the runner; use a client."
        )
    if any(k == b"transfer-encoding" for k, _ in event.headers):
        raise FramingError(400, "chunked transfer coding is not supported", "Send the body with a Content-Length.")
    lengths = [v for k, v in event.headers if k == b"content-length"]
    if not lengths:
        raise FramingError(400, "the request lacks a Content-Length", "Send the JSON body with a Content-Length.")
    declared = int(lengths[0])  # h11 has validated it: digits only, duplicates agree
    if declared > c.MAX_REQUEST_BYTES:
        raise FramingError(413, f"declared body of {declared} bytes exceeds {c.MAX_REQUEST_BYTES} bytes", HINT_BODY)
    return declared


Handler = Callable[[bytes], Awaitable[Reply]]


@dataclass(slots=True)
class Limits:
    read_deadline: float = READ_DEADLINE_S
    write_deadline: float = WRITE_DEADLINE_S
    max_connections: int = MAX_CONNECTIONS
    head_deadline: float = HEAD_DEADLINE_S

    @classmethod
    def scaled(cls, scale: float) -> Limits:
        """Deadlines follow the time scale, down to a floor: a tiny scale in tests must not turn a briefly
        descheduled client on a busy machine into a refused request."""
        return cls(
            max(READ_DEADLINE_S * scale, MIN_READ_DEADLINE_S),
            max(WRITE_DEADLINE_S * scale, MIN_WRITE_DEADLINE_S),
            MAX_CONNECTIONS,
            max(HEAD_DEADLINE_S * scale, MIN_HEAD_DEADLINE_S),
        )


class HttpServer:
    """Serves ``handler`` on loopback.  ``on_stop`` is called after a reply with ``stop_after`` is flushed."""

    def __init__(self, handler: Handler, limits: Limits, on_stop: Callable[[], None], *, token: str) -> None:
        self._handler = handler
        self._token = token.encode("ascii")
        self._limits = limits
        self._on_stop = on_stop
        #: Every connection counted against the cap.
        self._open: set[asyncio.Task[Any]] = set()
        #: Connections still reading their request, oldest first (a dict keeps insertion order): who makes way.
        self._reading: dict[asyncio.Task[Any], asyncio.StreamWriter] = {}
        #: Connections dropped to admit a newer one: they end without a reply.
        self._dropped: set[asyncio.Task[Any]] = set()
        #: Connections that have read a whole request and have not written its reply yet.
        self._answering: set[asyncio.Task[Any]] = set()
        self._server: asyncio.Server | None = None
        self._busy_reply = Reply(
            503,
            fail(
                ProtocolError(
                    e.RUNNER_BUSY,
                    f"more than {limits.max_connections} connections are open",
                    "Nothing ran. Retry in a moment with fewer parallel requests.",
                )
            ).encode(),
        )

    async def start(self, port: int) -> int:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", port, limit=2**16, backlog=128)
        return int(self._server.sockets[0].getsockname()[1])

    async def close(self) -> None:
        """Stop listening (connections already accepted keep being served)."""
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 1.0)

    async def wait_answered(self) -> None:
        """Wait until every request read so far has had its reply written (unbounded: the caller bounds it)."""
        while self._answering:
            await asyncio.wait(set(self._answering))

    def _make_way(self) -> bool:
        """At the cap: drop the oldest connection still reading its request; False when there is none."""
        for task, writer in self._reading.items():
            del self._reading[task]
            self._open.discard(task)
            self._dropped.add(task)
            writer.transport.abort()  # its read sees the end of the stream; it ends without a reply
            return True
        return False

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        me = asyncio.current_task()
        assert me is not None, "start_server runs each connection in its own task"
        self._open.add(me)
        try:
            if len(self._open) > self._limits.max_connections and not self._make_way():
                await self._respond(reader, writer, None, self._busy_reply, linger=True)
                return
            self._reading[me] = writer
            conn = h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_HEADER_BYTES)
            methods: list[bytes] = []
            loop = asyncio.get_running_loop()
            read_by = loop.time() + self._limits.read_deadline
            try:
                # One deadline, no extra task (unlike wait_for): the head's first, then the whole request's.
                async with asyncio.timeout_at(min(loop.time() + self._limits.head_deadline, read_by)) as deadline:
                    body = await self._read(conn, reader, writer, methods, lambda: deadline.reschedule(read_by))
            except (FramingError, h11.RemoteProtocolError, TimeoutError) as exc:
                if me not in self._dropped:
                    reply, linger = self._refusal(exc, head_read=bool(methods))
                    head_only = methods[:1] == [b"HEAD"]
                    await self._respond(reader, writer, conn, reply, linger=linger, head_only=head_only)
                return
            finally:
                self._reading.pop(me, None)
            if body is None or me in self._dropped:  # the client left before sending anything, or made way
                return
            answering = me
            self._answering.add(answering)
            try:
                try:
                    result = await self._handler(body)
                except Exception as exc:  # a runner bug: still answer an envelope, and keep serving
                    result = Reply(
                        500,
                        fail(ProtocolError(e.COMMAND_FAILED, f"runner error: {type(exc).__name__}: {exc}")).encode(),
                    )
                await self._respond(reader, writer, conn, result, linger=False)
            finally:
                self._answering.discard(answering)
            if result.stop_after:
                self._on_stop()
        except (ConnectionError, OSError):
            pass
        except Exception:  # never let one connection's surprise escape as an unhandled callback error
            log.exception("connection handler failed")
        finally:
            self._open.discard(me)
            self._reading.pop(me, None)
            self._dropped.discard(me)
            writer.close()

    def _refusal(self, exc: Exception, *, head_read: bool) -> tuple[Reply, bool]:
        """The reply to a request the adapter refuses while reading it, and whether to linger after it."""
        if isinstance(exc, FramingError):
            return exc.reply, True
        if isinstance(exc, h11.RemoteProtocolError):
            if exc.error_status_hint == 431:
                return FramingError(431, f"the header block exceeds {MAX_HEADER_BYTES} bytes", HINT_HEADERS).reply, True
            hint = "Send one HTTP/1.1 POST with a JSON body."
            return FramingError(400, f"malformed HTTP request: {exc}", hint).reply, True
        if head_read:
            message = f"the request was not complete within {self._limits.read_deadline:.1f} s"
        else:
            message = f"the request head was not complete within {self._limits.head_deadline:.1f} s"
        return FramingError(408, message, "Send the whole request at once.").reply, False

    async def _read(
        self,
        conn: h11.Connection,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        methods: list[bytes],
        on_head: Callable[[], None],
    ) -> bytes | None:
        body = bytearray()
        while True:
            event = conn.next_event()
            if event is h11.NEED_DATA:
                data = await reader.read(65536)
                conn.receive_data(data)
            elif isinstance(event, h11.Request):
                methods.append(event.method)
                on_head()
                check_head(event, self._token)
                if conn.they_are_waiting_for_100_continue:
                    writer.write(conn.send(h11.InformationalResponse(status_code=100, headers=[])) or b"")
            elif isinstance(event, h11.Data):
                body += event.data
                if len(body) > c.MAX_REQUEST_BYTES:  # unreachable with a validated Content-Length; kept as a guard
                    raise FramingError(413, f"body exceeds {c.MAX_REQUEST_BYTES} bytes", HINT_BODY)
            elif isinstance(event, h11.EndOfMessage):
                return bytes(body)
            elif isinstance(event, h11.ConnectionClosed):
                return None

    async def _respond(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        conn: h11.Connection | None,
        reply: Reply,
        *,
        linger: bool,
        head_only: bool = False,
    ) -> None:
        writer.write(_encode(conn, reply, head_only=head_only))
        async with asyncio.timeout(self._limits.write_deadline):
            await writer.drain()
        if linger:
            # Unread request bytes would make the close a reset that can destroy the reply before the client
            # reads it: stop writing, then discard what the client still sends, briefly.
            with contextlib.suppress(Exception):
                writer.write_eof()
                await asyncio.wait_for(_discard(reader), LINGER_S)


async def _discard(reader: asyncio.StreamReader) -> None:
    total = 0
    while total < _LINGER_MAX_BYTES:
        chunk = await reader.read(65536)
        if not chunk:
            return
        total += len(chunk)


def _encode(conn: h11.Connection | None, reply: Reply, *, head_only: bool = False) -> bytes:
    """Serialize ``reply`` with h11.  Without a usable connection state (a refusal before any request was read, or
    a request h11 could not parse), a fresh h11 connection that saw a minimal request does the serializing."""
    if conn is None or conn.our_state is not h11.SEND_RESPONSE:
        conn = h11.Connection(h11.SERVER)
        method = b"HEAD" if head_only else b"POST"
        conn.receive_data(method + b" / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n")
        conn.next_event()
    headers = [
        ("Content-Type", "application/json"),
        ("Content-Length", str(len(reply.body))),
        ("Connection", "close"),
    ]
    out = conn.send(h11.Response(status_code=reply.status, headers=headers, reason=_REASONS.get(reply.status, b"")))
    if not head_only:  # a reply to HEAD is the header block alone
        out = (out or b"") + (conn.send(h11.Data(data=reply.body)) or b"")
    return (out or b"") + (conn.send(h11.EndOfMessage()) or b"")
