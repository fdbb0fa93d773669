"""The CDP client against a scripted loopback websocket peer: ids, events, sessions, and closing."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection, serve

from phonewire.devices.web.cdp import CdpClosed, CdpConnection, CdpProtocolError

Peer = Callable[[ServerConnection], Awaitable[None]]


async def with_peer(peer: Peer, body: Callable[[CdpConnection], Awaitable[Any]]) -> Any:
    async with serve(peer, "127.0.0.1", 0) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        cdp = await CdpConnection.connect(f"ws://127.0.0.1:{port}")
        try:
            return await body(cdp)
        finally:
            await cdp.close()


def test_replies_are_matched_by_id_and_sessions_are_tagged() -> None:
    seen: list[dict[str, Any]] = []

    async def peer(ws: ServerConnection) -> None:
        async for raw in ws:
            msg = json.loads(raw)
            seen.append(msg)
            await ws.send(json.dumps({"method": "Page.event", "params": {"n": msg["id"]}, "sessionId": "S"}))
            await ws.send(json.dumps({"id": msg["id"], "result": {"echo": msg["method"]}}))

    events: list[tuple[str, dict[str, Any], str | None]] = []

    async def body(cdp: CdpConnection) -> tuple[Any, Any]:
        cdp.subscribe(lambda m, p, s: events.append((m, p, s)))
        a, b = await asyncio.gather(cdp.send("A.a"), cdp.session("S").send("B.b", {"x": 1}))
        return a, b

    a, b = asyncio.run(with_peer(peer, body))
    assert (a, b) == ({"echo": "A.a"}, {"echo": "B.b"})
    assert [m.get("sessionId") for m in seen] == [None, "S"] and seen[1]["params"] == {"x": 1}
    assert [(m, s) for m, _p, s in events] == [("Page.event", "S"), ("Page.event", "S")]


def test_an_error_reply_raises_cdp_protocol_error() -> None:
    async def peer(ws: ServerConnection) -> None:
        async for raw in ws:
            msg = json.loads(raw)
            await ws.send(json.dumps({"id": msg["id"], "error": {"code": -32000, "message": "No target"}}))

    async def body(cdp: CdpConnection) -> None:
        await cdp.send("Target.closeTarget")

    with pytest.raises(CdpProtocolError) as info:
        asyncio.run(with_peer(peer, body))
    assert info.value.code == -32000 and info.value.method == "Target.closeTarget"


def test_a_closed_socket_fails_every_pending_and_later_call() -> None:
    async def peer(ws: ServerConnection) -> None:
        await ws.recv()
        await ws.recv()  # two calls arrive, none is answered
        await ws.close()

    async def body(cdp: CdpConnection) -> tuple[list[BaseException | Any], bool, str | None]:
        pending = await asyncio.gather(cdp.send("A.a"), cdp.send("B.b"), return_exceptions=True)
        try:
            await cdp.send("C.c")
            later_failed = False
        except CdpClosed:
            later_failed = True
        return pending, later_failed, cdp.closed_reason

    pending, later_failed, reason = asyncio.run(with_peer(peer, body))
    assert all(isinstance(p, CdpClosed) for p in pending)
    assert later_failed and reason
