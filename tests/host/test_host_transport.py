# ruff: noqa: E501  (case tables read best one case per line)
"""The transport's typed failures, each produced by a real loopback peer behaving badly (issue 4, slice 2)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import struct
from collections.abc import Awaitable, Callable

import pytest

from phonewire.host.rules import FailureShape
from phonewire.host.transport import (
    ConnectionFailed,
    MalformedReply,
    Transport,
    TransportError,
    TransportTimeout,
    parse_address,
)

Behaviour = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]
OK_BODY = b'{"ok":true,"data":{"n":1}}'


def reply(body: bytes, status: str = "200 OK", extra: bytes = b"") -> bytes:
    return (
        b"HTTP/1.1 "
        + status.encode()
        + b"\r\nContent-Length: %d\r\nConnection: close\r\n" % len(body)
        + extra
        + b"\r\n"
        + body
    )


async def read_request(reader: asyncio.StreamReader) -> bytes:
    head = await reader.readuntil(b"\r\n\r\n")
    length = next(
        int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")
    )
    return await reader.readexactly(length)


def exchange(behaviour: Behaviour, window: float = 2.0, max_reply_bytes: int = 1 << 20) -> object:
    """Run one send against a peer with ``behaviour``; return the envelope or the raised TransportError."""

    async def main() -> object:
        tasks: list[asyncio.Task[None]] = []

        writers: list[asyncio.StreamWriter] = []

        def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            writers.append(writer)

            async def run() -> None:
                try:
                    await behaviour(reader, writer)
                finally:
                    writer.close()

            tasks.append(asyncio.ensure_future(run()))

        server = await asyncio.start_server(accept, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        try:
            return await Transport("127.0.0.1", port, token="t0ken", max_reply_bytes=max_reply_bytes).send(
                {"command": "tap"}, window
            )
        except TransportError as exc:
            return exc
        finally:
            server.close()
            for task in tasks:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
            for writer in writers:
                writer.close()
            await server.wait_closed()

    return asyncio.run(main())


async def answer_ok(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    body = json.loads(await read_request(reader))
    assert body == {"command": "tap"}
    writer.write(reply(OK_BODY))
    await writer.drain()


async def answer_error_500(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await read_request(reader)
    writer.write(reply(b'{"ok":false,"error":{"code":"COMMAND_FAILED","message":"m","hint":"h"}}', "500 Error"))
    await writer.drain()


async def close_at_once(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await read_request(reader)


async def half_reply(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await read_request(reader)
    writer.write(reply(OK_BODY)[:-5])
    await writer.drain()


async def reset(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await read_request(reader)
    sock = writer.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await read_request(reader)
    await asyncio.sleep(10)


async def not_http(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await read_request(reader)
    writer.write(b"SSH-2.0-OpenSSH\r\n\r\n")
    await writer.drain()


async def not_json(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await read_request(reader)
    writer.write(reply(b"<html>hello</html>"))
    await writer.drain()


async def not_envelope(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await read_request(reader)
    writer.write(reply(b'{"result": 1}'))
    await writer.drain()


async def huge(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await read_request(reader)
    writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 99999999\r\n\r\n{")
    await writer.drain()


async def huge_chunked(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await read_request(reader)
    writer.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
    chunk = b"x" * 4096
    with contextlib.suppress(ConnectionError):
        for _ in range(400):
            writer.write(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
            await writer.drain()


def test_ok_and_error_envelopes_are_returned_whatever_the_http_status() -> None:
    """send-once: the envelope is authoritative; the HTTP status is informational."""
    ok = exchange(answer_ok)
    assert getattr(ok, "ok", None) is True and getattr(ok, "data", None) == {"n": 1}
    err = exchange(answer_error_500)
    assert getattr(err, "ok", None) is False
    assert err.error.code == "COMMAND_FAILED" and err.error.hint == "h"  # type: ignore[attr-defined]


CASES = [
    ("peer closed before replying → connection-shaped, closedBeforeReply", close_at_once, ConnectionFailed, "closedBeforeReply"),
    ("peer hung up mid-reply → connection-shaped, hungUp", half_reply, ConnectionFailed, "hungUp"),
    ("peer reset the connection → connection-shaped", reset, ConnectionFailed, None),
    ("no reply within the window → timeout-shaped", silent, TransportTimeout, "exchange"),
    ("not HTTP → malformed", not_http, MalformedReply, "http"),
    ("HTTP but not JSON → malformed", not_json, MalformedReply, "json"),
    ("JSON but not an envelope → malformed", not_envelope, MalformedReply, "envelope"),
    ("declared reply over the size cap → malformed before reading it", huge, MalformedReply, "tooLarge"),
    ("streamed reply over the size cap → malformed", huge_chunked, MalformedReply, "tooLarge"),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_typed_failure(case: tuple[str, Behaviour, type[TransportError], str | None]) -> None:
    rule, behaviour, kind, detail = case
    result = exchange(behaviour, window=0.5)
    assert isinstance(result, kind), rule
    if detail is not None:
        assert result.detail == detail, rule
    assert result.delivered, rule  # the request left the host in every one of these


def test_reset_detail_is_reset_or_hung_up() -> None:
    result = exchange(reset)
    assert isinstance(result, ConnectionFailed)
    assert result.detail in ("reset", "closedBeforeReply")
    assert result.shape is FailureShape.CONNECTION


def test_refused_connection_was_never_delivered() -> None:
    """lifecycle: connection refused is connection-shaped, and the command provably never left the host."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # bound, not listening: connects are refused

        async def main() -> TransportError:
            try:
                await Transport("127.0.0.1", port, token=None).send({"command": "tap"}, 1.0)
            except TransportError as exc:
                return exc
            raise AssertionError("connect succeeded")

        failure = asyncio.run(main())
    assert isinstance(failure, ConnectionFailed)
    assert (failure.detail, failure.delivered) == ("refused", False)


ADDRESS_CASES = [
    ("127.0.0.1:8080", ("127.0.0.1", 8080)),
    ("9000", ("127.0.0.1", 9000)),
    ("localhost:7", ("127.0.0.1", 7)),  # never resolved: it could resolve to ::1, where anyone may bind
]


@pytest.mark.parametrize(("text", "expected"), ADDRESS_CASES)
def test_parse_address(text: str, expected: tuple[str, int]) -> None:
    assert parse_address(text) == expected


@pytest.mark.parametrize(
    "bad",
    # the last four: a runner listens on 127.0.0.1 only, and another user can bind 127.0.0.2 or [::1] on the
    # same port to be sent the token of 127.0.0.1's runner (adversarial re-run)
    ["host:port", "127.0.0.1:0", "127.0.0.1:70000", "", "127.0.0.2:4000", "[::1]:7", "example.test:80", "10.0.0.1:1"],
)
def test_parse_address_rejects_garbage(bad: str) -> None:
    with pytest.raises(ValueError, match="runner"):
        parse_address(bad)


def test_every_request_carries_the_runner_token_as_a_bearer_header() -> None:
    """issue 15: the host sends ``Authorization: Bearer <token>`` with every request."""
    heads: list[bytes] = []

    async def record(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        heads.append(head)
        length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.startswith(b"Content-Length"))
        await reader.readexactly(length)
        writer.write(reply(OK_BODY))
        await writer.drain()

    result = exchange(record)
    assert not isinstance(result, TransportError) and getattr(result, "ok", None) is True
    assert b"\r\nAuthorization: Bearer t0ken\r\n" in heads[0]
