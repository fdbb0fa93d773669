"""One POST per command to a runner, under one whole-transport deadline.

Connecting and the HTTP exchange spend from the same budget (``window``), so a slow connect shrinks the
exchange's share instead of granting each stage the full window.  The window comes from
:class:`phonewire.protocol.commands.Timing` and strictly exceeds the runner's own budget for the command, so the
host always outlasts the runner's verdict.

Failures are typed so the session rules can decide without string matching::

    TransportError(shape, detail, delivered)
     ├── ConnectionFailed   shape=CONNECTION  detail: refused | reset | hungUp | closedBeforeReply | unreachable
     ├── TransportTimeout   shape=TIMEOUT     detail: connect | exchange
     └── MalformedReply     shape=MALFORMED   detail: http | json | envelope | tooLarge

``delivered`` is False only when the request provably never left the host (the connection was never
established), which is the one case where a mutating command may be given to a new runner.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any, Final

import h11

from phonewire.host.rules import FailureShape
from phonewire.protocol.envelope import Envelope, decode_envelope, encode_json

#: Replies larger than this are refused as malformed (screenshots are the largest legitimate replies).
DEFAULT_MAX_REPLY_BYTES: Final = 64 * 1024 * 1024
_READ_CHUNK: Final = 256 * 1024


class TransportError(Exception):
    shape: FailureShape = FailureShape.CONNECTION

    def __init__(self, detail: str, message: str, *, delivered: bool) -> None:
        super().__init__(message)
        self.detail = detail
        self.message = message
        self.delivered = delivered

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.detail!r}, {self.message!r}, delivered={self.delivered})"


class ConnectionFailed(TransportError):
    shape = FailureShape.CONNECTION


class TransportTimeout(TransportError):
    shape = FailureShape.TIMEOUT


class MalformedReply(TransportError):
    shape = FailureShape.MALFORMED


#: The names a runner address may use: a runner listens on 127.0.0.1 only.  Any other host (127.0.0.2, ::1, a
#: name that resolves elsewhere) could be a socket another user bound, and would be sent the runner's token.
RUNNER_HOSTS: frozenset[str] = frozenset({"127.0.0.1", "localhost"})


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (or ``PORT``) → ``("127.0.0.1", port)``; ``ValueError`` with a readable message otherwise,
    including for any host but 127.0.0.1 / localhost (which is taken as 127.0.0.1, never resolved)."""
    host, sep, port_text = text.strip().rpartition(":")
    if not sep:
        host, port_text = "127.0.0.1", text.strip()
    host = host.strip("[]") or "127.0.0.1"
    try:
        port = int(port_text)
    except ValueError:
        raise ValueError(f"runner address must be HOST:PORT, got {text!r}") from None
    if not 0 < port < 65536:
        raise ValueError(f"runner port must be 1..65535, got {port}")
    if host.lower() not in RUNNER_HOSTS:
        raise ValueError(
            f"runner address {text!r}: a runner listens on 127.0.0.1 only, and its token is never sent elsewhere"
        )
    return "127.0.0.1", port


class Transport:
    """Sends request bodies to one runner address.  Stateless between sends (one connection per command)."""

    def __init__(
        self, host: str, port: int, *, token: str | None, max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES
    ) -> None:
        """``token``: the runner's bearer token, sent as ``Authorization: Bearer`` (``None`` sends none)."""
        self.host = host
        self.port = port
        self.max_reply_bytes = max_reply_bytes
        host_header = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        self._headers: list[tuple[str, str]] = [
            ("Host", host_header),
            ("Content-Type", "application/json"),
            ("Connection", "close"),
        ]
        if token is not None:
            self._headers.append(("Authorization", f"Bearer {token}"))

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    async def send(self, body: dict[str, Any], window: float) -> Envelope:
        """Encode ``body``, POST it, return the reply envelope (ok or error) or raise a :class:`TransportError`."""
        return await self.post(encode_json(body), window)

    async def post(self, payload: bytes, window: float) -> Envelope:
        stage = "connect"
        writer: asyncio.StreamWriter | None = None
        received_any = False
        eof = False
        try:
            async with asyncio.timeout(window):
                reader, writer = await asyncio.open_connection(self.host, self.port)
                stage = "send"
                conn = h11.Connection(h11.CLIENT, max_incomplete_event_size=64 * 1024)
                headers = [*self._headers, ("Content-Length", str(len(payload)))]
                writer.write(conn.send(h11.Request(method="POST", target="/", headers=headers)) or b"")
                writer.write(conn.send(h11.Data(data=payload)) or b"")
                writer.write(conn.send(h11.EndOfMessage()) or b"")
                await writer.drain()
                stage = "receive"
                body = bytearray()
                while True:
                    event = conn.next_event()
                    if event is h11.NEED_DATA:
                        chunk = await reader.read(_READ_CHUNK)
                        if chunk:
                            received_any = True
                        else:
                            eof = True
                        conn.receive_data(chunk)
                        continue
                    if isinstance(event, h11.Response):
                        self._check_length(event)
                    elif isinstance(event, h11.Data):
                        body += event.data
                        if len(body) > self.max_reply_bytes:
                            raise MalformedReply(
                                "tooLarge", f"reply exceeds {self.max_reply_bytes} bytes", delivered=True
                            )
                    elif isinstance(event, h11.EndOfMessage):
                        break
                    elif isinstance(event, h11.ConnectionClosed):
                        raise _closed(received_any)
        except TransportError:
            raise
        except TimeoutError as exc:
            detail = "connect" if stage == "connect" else "exchange"
            raise TransportTimeout(
                detail,
                f"no reply from the runner at {self.address} within {window:.3g} s",
                delivered=stage != "connect",
            ) from exc
        except h11.RemoteProtocolError as exc:
            if eof:
                raise _closed(received_any) from exc
            raise MalformedReply("http", f"runner sent malformed HTTP: {exc}", delivered=True) from exc
        except ConnectionRefusedError as exc:
            raise ConnectionFailed(
                "refused", f"runner at {self.address} refused the connection", delivered=False
            ) from exc
        except ConnectionResetError as exc:
            raise ConnectionFailed(
                "reset", f"runner at {self.address} reset the connection", delivered=stage != "connect"
            ) from exc
        except (BrokenPipeError, asyncio.IncompleteReadError) as exc:
            raise ConnectionFailed("hungUp", f"runner at {self.address} hung up", delivered=True) from exc
        except OSError as exc:
            raise ConnectionFailed(
                "unreachable", f"cannot reach the runner at {self.address}: {exc}", delivered=stage != "connect"
            ) from exc
        finally:
            if writer is not None:
                _close_quietly(writer)
        try:
            obj = json.loads(body)
        except ValueError as exc:
            raise MalformedReply("json", "runner reply is not JSON", delivered=True) from exc
        try:
            return decode_envelope(obj)
        except ValueError as exc:
            raise MalformedReply("envelope", f"runner reply is not an envelope: {exc}", delivered=True) from exc

    def _check_length(self, response: h11.Response) -> None:
        for name, value in response.headers:
            if name == b"content-length" and int(value) > self.max_reply_bytes:
                raise MalformedReply(
                    "tooLarge", f"reply declares {int(value)} bytes, over {self.max_reply_bytes}", delivered=True
                )


def _closed(received_any: bool) -> ConnectionFailed:
    if received_any:
        return ConnectionFailed("hungUp", "runner hung up in the middle of its reply", delivered=True)
    return ConnectionFailed("closedBeforeReply", "runner closed the connection before replying", delivered=True)


def _close_quietly(writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(OSError, RuntimeError):  # the loop is closing, or the socket is already gone
        writer.close()
