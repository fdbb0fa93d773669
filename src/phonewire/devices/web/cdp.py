"""A small Chrome DevTools Protocol client over one websocket.

One :class:`CdpConnection` owns the browser's websocket.  Each call gets a message id and a future; a reader
task resolves futures and fans events out to subscribers.  Page targets are reached through sessions
(``Target.attachToTarget`` with ``flatten=true``): a :class:`CdpSession` is the same socket plus a
``sessionId`` on every message.

Failure tree::

    CdpError                 base; never crosses the device boundary (device.py maps it)
     ├── CdpProtocolError    the browser answered {"error": {...}} to one call
     └── CdpClosed           the socket is closed: every pending and later call fails with it

Lifecycle: ``connect()`` → open → (socket closes or ``close()``) → closed, for good.  A closed connection
is never reused; the device makes a new browser and a new connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

EventHandler = Callable[[str, dict[str, Any], str | None], None]
"""``handler(method, params, session_id)``; called on the reader task, must not block."""


class CdpError(Exception):
    """Base of the CDP client's failures."""


class CdpProtocolError(CdpError):
    def __init__(self, method: str, code: int, message: str) -> None:
        super().__init__(f"{method}: {message} ({code})")
        self.method = method
        self.code = code
        self.message = message


class CdpClosed(CdpError):
    """The DevTools socket is closed (the browser exited or crashed)."""


class CdpConnection:
    def __init__(self, ws: ClientConnection) -> None:
        self._ws = ws
        self._next_id = 0
        self._pending: dict[int, tuple[str, asyncio.Future[dict[str, Any]]]] = {}
        self._handlers: list[EventHandler] = []
        self._closed_reason: str | None = None
        self._reader = asyncio.get_running_loop().create_task(self._read_loop(), name="cdp-reader")

    @classmethod
    async def connect(cls, url: str) -> CdpConnection:
        # No compression (loopback; it only costs CPU), no size limit (screenshots), no keepalive pings
        # (a page stuck in a long task must not make the socket look dead).
        ws = await connect(url, compression=None, max_size=None, ping_interval=None, proxy=None, open_timeout=10)
        return cls(ws)

    @property
    def closed(self) -> bool:
        return self._closed_reason is not None

    @property
    def closed_reason(self) -> str | None:
        return self._closed_reason

    def subscribe(self, handler: EventHandler) -> None:
        self._handlers.append(handler)

    async def send(
        self, method: str, params: dict[str, Any] | None = None, session_id: str | None = None
    ) -> dict[str, Any]:
        if self._closed_reason is not None:
            raise CdpClosed(self._closed_reason)
        self._next_id += 1
        msg_id = self._next_id
        message: dict[str, Any] = {"id": msg_id, "method": method, "params": params or {}}
        if session_id is not None:
            message["sessionId"] = session_id
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[msg_id] = (method, future)
        try:
            await self._ws.send(json.dumps(message))
        except (WebSocketException, OSError) as exc:
            self._pending.pop(msg_id, None)
            self._fail_all(f"DevTools socket failed: {exc}")
            raise CdpClosed(self._closed_reason or str(exc)) from exc
        try:
            return await future
        finally:
            self._pending.pop(msg_id, None)

    def session(self, session_id: str) -> CdpSession:
        return CdpSession(self, session_id)

    async def close(self) -> None:
        self._fail_all("DevTools connection closed")
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._ws.close(), 2)
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._reader

    # -- internals ------------------------------------------------------------------------------------------------
    async def _read_loop(self) -> None:
        reason = "DevTools socket closed (browser gone)"
        try:
            async for raw in self._ws:
                message = json.loads(raw)
                msg_id = message.get("id")
                if msg_id is not None:
                    entry = self._pending.get(msg_id)
                    if entry is None:
                        continue
                    method, future = entry
                    if future.done():
                        continue
                    error = message.get("error")
                    if error is not None:
                        future.set_exception(
                            CdpProtocolError(method, int(error.get("code", 0)), str(error.get("message", "")))
                        )
                    else:
                        future.set_result(message.get("result") or {})
                else:
                    method = message.get("method", "")
                    params = message.get("params") or {}
                    session_id = message.get("sessionId")
                    for handler in list(self._handlers):
                        handler(method, params, session_id)
        except (WebSocketException, OSError, ValueError) as exc:
            reason = f"DevTools socket failed: {exc}"
        finally:
            self._fail_all(reason)

    def _fail_all(self, reason: str) -> None:
        if self._closed_reason is None:
            self._closed_reason = reason
        for _method, future in list(self._pending.values()):
            if not future.done():
                future.set_exception(CdpClosed(self._closed_reason))
        self._pending.clear()


class CdpSession:
    """Calls scoped to one attached target (flattened session)."""

    def __init__(self, connection: CdpConnection, session_id: str) -> None:
        self.connection = connection
        self.session_id = session_id

    async def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return await self.connection.send(method, params, self.session_id)
