"""The CDP client against a scripted peer on a pipe pair (as the browser's fds 3/4): ids, events, sessions,
NUL framing, and closing."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import pytest

from phonewire.devices.web.cdp import CdpClosed, CdpConnection, CdpDialogOpen, CdpProtocolError


class PeerPipe:
    """The browser's side of the pipe pair: reads NUL-ended commands, writes replies (in chunks it chooses)."""

    def __init__(self, commands_fd: int, replies_fd: int) -> None:
        self._in = commands_fd
        self._out = replies_fd
        self._buffer = b""

    async def recv(self) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            chunk = await asyncio.to_thread(os.read, self._in, 65536)
            if not chunk:
                raise EOFError
            self._buffer += chunk
        raw, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(raw)  # type: ignore[no-any-return]

    def send(self, message: dict[str, Any]) -> None:
        os.write(self._out, json.dumps(message).encode() + b"\0")

    def send_bytes(self, data: bytes) -> None:
        os.write(self._out, data)

    def close(self) -> None:
        for fd in (self._in, self._out):
            with contextlib.suppress(OSError):
                os.close(fd)


Peer = Callable[[PeerPipe], Coroutine[Any, Any, None]]


async def with_peer(peer: Peer, body: Callable[[CdpConnection], Awaitable[Any]]) -> Any:
    commands_r, commands_w = os.pipe()
    replies_r, replies_w = os.pipe()
    pipe = PeerPipe(commands_r, replies_w)
    cdp = await CdpConnection.open_pipe(replies_r, commands_w)
    task = asyncio.create_task(peer(pipe))
    try:
        return await body(cdp)
    finally:
        await cdp.close()
        pipe.close()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


def test_replies_are_matched_by_id_and_sessions_are_tagged() -> None:
    seen: list[dict[str, Any]] = []

    async def peer(pipe: PeerPipe) -> None:
        while True:
            msg = await pipe.recv()
            seen.append(msg)
            pipe.send({"method": "Page.event", "params": {"n": msg["id"]}, "sessionId": "S"})
            pipe.send({"id": msg["id"], "result": {"echo": msg["method"]}})

    events: list[tuple[str, dict[str, Any], str | None]] = []

    async def body(cdp: CdpConnection) -> tuple[Any, Any]:
        cdp.subscribe(lambda m, p, s: events.append((m, p, s)))
        a = await cdp.send("A.a")
        b = await cdp.session("S").send("B.b", {"x": 1})
        return a, b

    a, b = asyncio.run(with_peer(peer, body))
    assert (a, b) == ({"echo": "A.a"}, {"echo": "B.b"})
    assert [m.get("sessionId") for m in seen] == [None, "S"] and seen[1]["params"] == {"x": 1}
    assert [(m, s) for m, _p, s in events] == [("Page.event", "S"), ("Page.event", "S")]


def test_messages_split_across_reads_and_joined_in_one_read_are_framed_by_nul() -> None:
    async def peer(pipe: PeerPipe) -> None:
        first = await pipe.recv()
        second = await pipe.recv()
        whole = (
            json.dumps({"id": first["id"], "result": {"n": 1, "big": "x" * 200_000}}).encode()
            + b"\0"
            + json.dumps({"id": second["id"], "result": {"n": 2}}).encode()
            + b"\0"
        )
        for i in range(0, len(whole), 7919):  # a message cut at arbitrary points, two in one stream
            pipe.send_bytes(whole[i : i + 7919])
            await asyncio.sleep(0)

    async def body(cdp: CdpConnection) -> list[dict[str, Any]]:
        return list(await asyncio.gather(cdp.send("A.a"), cdp.send("B.b")))

    one, two = asyncio.run(with_peer(peer, body))
    assert one["n"] == 1 and len(one["big"]) == 200_000 and two == {"n": 2}


def test_an_error_reply_raises_cdp_protocol_error() -> None:
    async def peer(pipe: PeerPipe) -> None:
        while True:
            msg = await pipe.recv()
            pipe.send({"id": msg["id"], "error": {"code": -32000, "message": "No target"}})

    async def body(cdp: CdpConnection) -> None:
        await cdp.send("Target.closeTarget")

    with pytest.raises(CdpProtocolError) as info:
        asyncio.run(with_peer(peer, body))
    assert info.value.code == -32000 and info.value.method == "Target.closeTarget"


def test_a_closed_pipe_fails_every_pending_and_later_call() -> None:
    async def peer(pipe: PeerPipe) -> None:
        await pipe.recv()
        await pipe.recv()  # two calls arrive, none is answered
        pipe.close()

    async def body(cdp: CdpConnection) -> tuple[list[BaseException | Any], bool, str | None]:
        pending = await asyncio.gather(cdp.send("A.a"), cdp.send("B.b"), return_exceptions=True)
        try:
            await cdp.send("C.c")
            later_failed = False
        except CdpClosed:
            later_failed = True
        return list(pending), later_failed, cdp.closed_reason

    pending, later_failed, reason = asyncio.run(with_peer(peer, body))
    assert all(isinstance(p, CdpClosed) for p in pending)
    assert later_failed and reason and "closed" in reason


def test_a_reply_that_is_not_json_closes_the_connection() -> None:
    async def peer(pipe: PeerPipe) -> None:
        await pipe.recv()
        pipe.send_bytes(b"{not json\0")

    async def body(cdp: CdpConnection) -> tuple[BaseException | Any, bool]:
        results = await asyncio.gather(cdp.send("A.a"), return_exceptions=True)
        return results[0], cdp.closed

    result, closed = asyncio.run(with_peer(peer, body))
    assert isinstance(result, CdpClosed) and closed


def test_the_reader_splits_messages_at_nul_however_the_chunks_fall() -> None:
    from phonewire.devices.web.cdp import _Reader

    class Sink:
        def __init__(self) -> None:
            self.messages: list[bytes] = []

        def _on_message(self, data: bytes) -> None:
            self.messages.append(data)

        def _fail_all(self, reason: str) -> None:
            raise AssertionError(reason)

    stream = b"".join(m + b"\0" for m in (b"x" * 200_000, b'{"a":1}', b"", b'{"b":2}' * 1000))
    for size in (1, 7, 65_536, len(stream)):
        reader, sink = _Reader(), Sink()
        reader.connection = sink  # type: ignore[assignment]
        for i in range(0, len(stream), size):
            reader.data_received(stream[i : i + size])
        assert sink.messages == [b"x" * 200_000, b'{"a":1}', b"", b'{"b":2}' * 1000], size


def test_a_dialog_fails_the_pages_pending_and_later_calls_at_once_but_not_its_answer_or_other_sessions() -> None:
    """A JavaScript dialog: the renderer answers nothing on that page until it is answered, so its pending call
    (the touch that opened it) and any later one fail at once with CdpDialogOpen; the answer goes through, other
    sessions are untouched, and once the dialog closes the page's calls go through again."""
    sent: list[str] = []

    async def peer(pipe: PeerPipe) -> None:
        while True:
            msg = await pipe.recv()
            sent.append(msg["method"])
            if msg["method"] == "Input.dispatchTouchEvent":  # opens a dialog; its reply never comes
                pipe.send({"method": "Page.javascriptDialogOpening", "params": {"type": "confirm"}, "sessionId": "S"})
            elif msg["method"] == "Page.handleJavaScriptDialog":
                pipe.send({"id": msg["id"], "result": {}})
                pipe.send({"method": "Page.javascriptDialogClosed", "params": {"result": True}, "sessionId": "S"})
            else:
                pipe.send({"id": msg["id"], "result": {"ok": msg["method"]}})

    async def body(cdp: CdpConnection) -> list[Any]:
        page, other = cdp.session("S"), cdp.session("T")
        out: list[Any] = []
        for call in (
            page.send("Input.dispatchTouchEvent"),
            page.send("Runtime.evaluate"),
            other.send("Runtime.evaluate"),
            page.send("Page.handleJavaScriptDialog", {"accept": True}),
            page.send("Runtime.evaluate"),
        ):
            try:
                out.append(await asyncio.wait_for(call, 5))
            except CdpDialogOpen as exc:
                out.append(exc.method)
        return out

    result = asyncio.run(with_peer(peer, body))
    assert result == [
        "Input.dispatchTouchEvent",  # failed when the dialog opened
        "Runtime.evaluate",  # refused without being sent
        {"ok": "Runtime.evaluate"},  # another page
        {},  # the answer
        {"ok": "Runtime.evaluate"},  # the dialog closed: the page answers again
    ]
    assert sent.count("Runtime.evaluate") == 2  # the refused one never reached the browser


def test_a_routed_event_reaches_its_raw_handler_undecoded_and_the_rest_reach_the_subscribers() -> None:
    """As the browser writes them: compact JSON, the method first, a flattened session's id appended last."""
    text = {"type": "string", "value": 'a ,"sessionId":"X"'}
    console = {"method": "Runtime.consoleAPICalled", "params": {"args": [text]}, "sessionId": "S1"}

    async def peer(pipe: PeerPipe) -> None:
        msg = await pipe.recv()
        for event in (console, {**console, "sessionId": "S2"}, {"method": "Page.loadEventFired", "params": {},
                                                                   "sessionId": "S1"}):  # fmt: skip
            pipe.send_bytes(json.dumps(event, separators=(",", ":")).encode() + b"\0")
        pipe.send({"id": msg["id"], "result": {}})

    raw: list[tuple[bytes, str]] = []
    events: list[tuple[str, str | None]] = []

    async def body(cdp: CdpConnection) -> None:
        cdp.subscribe(lambda m, p, s: events.append((m, s)))

        def route(data: bytes, sid: str) -> bool:
            raw.append((data, sid))
            return sid == "S1"

        cdp.route_raw("Runtime.consoleAPICalled", route)
        await cdp.send("A.a")

    asyncio.run(with_peer(peer, body))
    assert [sid for _data, sid in raw] == ["S1", "S2"]  # the quoted look-alike inside the text is not the session
    assert json.loads(raw[0][0]) == console
    # S2's handler declined it: decoded and dispatched as usual; S1's was taken
    assert events == [("Runtime.consoleAPICalled", "S2"), ("Page.loadEventFired", "S1")]
