"""A small Chrome DevTools Protocol client over the browser's private pipe pair.

The browser is started with ``--remote-debugging-pipe``: it reads commands from its fd 3 and writes replies and
events to its fd 4, each message one JSON text ended by a NUL byte.  There is no DevTools TCP listener, so no
other user or web page on the machine can reach the browser: the two pipe ends live only in this process.

One :class:`CdpConnection` owns both pipe ends.  Each call gets a message id and a future; the pipe reader
resolves futures and fans events out to subscribers.  Page targets are reached through sessions
(``Target.attachToTarget`` with ``flatten=true``): a :class:`CdpSession` is the same pipe plus a ``sessionId``
on every message.

Failure tree::

    CdpError                 base; never crosses the device boundary (pages.py maps it)
     ├── CdpProtocolError    the browser answered {"error": {...}} to one call
     ├── CdpDialogOpen       a JavaScript dialog (alert, confirm, prompt, beforeunload) is open on the call's page
     └── CdpClosed           the pipe is closed: every pending and later call fails with it

JavaScript dialogs: while one is open (``Page.javascriptDialogOpening`` … ``Page.javascriptDialogClosed``) the
page's renderer answers nothing that runs in it (input events, evaluations) until the dialog is answered.  So the
connection fails those calls on that session at once with :class:`CdpDialogOpen` — the ones pending when it opens
and any sent while it stays open — except the calls that the browser answers itself (:data:`DIALOG_SAFE`).  Their
late replies, if any, are dropped.

Events that arrive in floods (a page logging in a loop) can be routed undecoded (:meth:`CdpConnection.route_raw`):
the browser writes every event as ``{"method":"M","params":{…},"sessionId":"S"}`` (a flattened session's id is
appended last), so the method and the session are read off the bytes and the handler decides whether to decode.

Lifecycle: ``open_pipe()`` → open → (pipe closes or ``close()``) → closed, for good.  A closed connection is
never reused; the device makes a new browser and a new connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import Callable, Coroutine
from typing import Any, Final

EventHandler = Callable[[str, dict[str, Any], str | None], None]
"""``handler(method, params, session_id)``; called from the pipe reader, must not block."""

RawHandler = Callable[[bytes, str], bool]
"""``handler(message, session_id)`` for a routed event, undecoded; answers whether it took it (else it is decoded and
dispatched as usual).  Called from the pipe reader, must not block."""

#: How an event begins on the pipe, and what precedes its session id at its end.
_EVENT_HEAD = b'{"method":"'
_SESSION_TAIL = b',"sessionId":"'

MAX_MESSAGE_BYTES = 512 * 1024 * 1024
"""A reply larger than this (no NUL seen) means the stream is corrupt: the connection is closed."""


class CdpError(Exception):
    """Base of the CDP client's failures."""


class CdpProtocolError(CdpError):
    def __init__(self, method: str, code: int, message: str) -> None:
        super().__init__(f"{method}: {message} ({code})")
        self.method = method
        self.code = code
        self.message = message


def target_gone(exc: CdpProtocolError) -> bool:
    """The call failed because its page target went away (closed, crashed) under it."""
    text = exc.message.lower()
    return "session with given id not found" in text or "target closed" in text or "no target with given id" in text


class CdpDialogOpen(CdpError):
    """A JavaScript dialog is open on the call's page: the call would wait until it is answered."""

    def __init__(self, method: str) -> None:
        super().__init__(f"{method}: a JavaScript dialog is open on the page")
        self.method = method


#: Calls on a page's session that the browser answers while a JavaScript dialog is open on it.
#: (Not Page.captureScreenshot: it waits for a frame the renderer does not draw while the dialog is open.)
DIALOG_SAFE = frozenset(
    {"Page.handleJavaScriptDialog", "Page.bringToFront", "Page.getNavigationHistory", "Page.resetNavigationHistory"}
)


class CdpClosed(CdpError):
    """The DevTools pipe is closed (the browser exited or crashed)."""


class _Reader(asyncio.Protocol):
    """Splits the browser's output stream at NUL bytes and hands each message to the connection."""

    def __init__(self) -> None:
        self.connection: CdpConnection | None = None
        self._buffer = bytearray()
        #: Bytes of the buffer already searched for a NUL (none there).
        self._scanned = 0

    def data_received(self, data: bytes) -> None:
        connection = self.connection
        if connection is None:
            return
        buffer = self._buffer
        buffer += data
        start = 0
        # from where the previous chunk's search ended: a big message (a page logging 100 MB) is scanned once, not
        # once per chunk (quadratic: seconds of the event loop for a 512 MB message)
        while (end := buffer.find(b"\0", max(start, self._scanned))) >= 0:
            connection._on_message(bytes(buffer[start:end]))
            start = end + 1
        if start:
            del buffer[:start]
        self._scanned = len(buffer)
        if len(buffer) > MAX_MESSAGE_BYTES:
            connection._fail_all(f"DevTools pipe sent a message over {MAX_MESSAGE_BYTES} bytes")

    def eof_received(self) -> bool | None:
        if self.connection is not None:
            self.connection._fail_all("DevTools pipe closed (browser gone)")
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        if self.connection is not None:
            reason = f"DevTools pipe failed: {exc}" if exc else "DevTools pipe closed (browser gone)"
            self.connection._fail_all(reason)


class CdpConnection:
    def __init__(self, reader: asyncio.ReadTransport, writer: asyncio.WriteTransport) -> None:
        self._reader = reader
        self._writer = writer
        self._next_id = 0  # ids start at 1: id 0 is the browser module's warm-up call (browser.WARM_UP), not ours
        self._pending: dict[int, tuple[str, asyncio.Future[dict[str, Any]]]] = {}
        #: The session of each pending call on one (a call to a target that detaches fails: no reply comes).
        self._call_sessions: dict[int, str] = {}
        self._handlers: list[EventHandler] = []
        self._raw_routes: dict[bytes, RawHandler] = {}
        self._closed_reason: str | None = None
        #: Sessions whose page shows a JavaScript dialog now.
        self._dialogs: set[str] = set()

    @classmethod
    async def open_pipe(cls, read_fd: int, write_fd: int) -> CdpConnection:
        """Take ownership of ``read_fd`` (the browser's fd 4, its output) and ``write_fd`` (its fd 3)."""
        loop = asyncio.get_running_loop()
        protocol = _Reader()
        reader, _ = await loop.connect_read_pipe(lambda: protocol, os.fdopen(read_fd, "rb", buffering=0))
        try:
            writer, _ = await loop.connect_write_pipe(asyncio.Protocol, os.fdopen(write_fd, "wb", buffering=0))
        except BaseException:
            reader.close()
            raise
        connection = cls(reader, writer)
        protocol.connection = connection
        return connection

    @property
    def closed(self) -> bool:
        return self._closed_reason is not None

    @property
    def closed_reason(self) -> str | None:
        return self._closed_reason

    def subscribe(self, handler: EventHandler) -> None:
        self._handlers.append(handler)

    def route_raw(self, method: str, handler: RawHandler) -> None:
        """Hand ``method``'s events on a target session to ``handler`` as bytes, before any decoding: the
        subscribers see only the events it does not take."""
        self._raw_routes[method.encode()] = handler

    async def send(
        self, method: str, params: dict[str, Any] | None = None, session_id: str | None = None
    ) -> dict[str, Any]:
        return await self.start(method, params, session_id)

    def start(
        self, method: str, params: dict[str, Any] | None = None, session_id: str | None = None
    ) -> Coroutine[Any, Any, dict[str, Any]]:
        """Write the call now (calls go out in the order they are started) and answer what awaits its reply."""
        if self._closed_reason is not None:
            raise CdpClosed(self._closed_reason)
        if session_id in self._dialogs and method not in DIALOG_SAFE:
            raise CdpDialogOpen(method)
        self._next_id += 1
        msg_id = self._next_id
        message: dict[str, Any] = {"id": msg_id, "method": method, "params": params or {}}
        if session_id is not None:
            message["sessionId"] = session_id
            self._call_sessions[msg_id] = session_id
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[msg_id] = (method, future)
        try:
            self._writer.write(json.dumps(message).encode() + b"\0")
        except (OSError, RuntimeError) as exc:  # RuntimeError: the transport is already closing
            self._pending.pop(msg_id, None)
            self._fail_all(f"DevTools pipe failed: {exc}")
            raise CdpClosed(self._closed_reason or str(exc)) from exc
        return self._reply(msg_id, future)

    async def _reply(self, msg_id: int, future: asyncio.Future[dict[str, Any]]) -> dict[str, Any]:
        try:
            return await future
        finally:
            self._pending.pop(msg_id, None)
            self._call_sessions.pop(msg_id, None)

    def session(self, session_id: str) -> CdpSession:
        return CdpSession(self, session_id)

    async def close(self) -> None:
        self._fail_all("DevTools connection closed")
        self._writer.close()
        self._reader.close()
        await asyncio.sleep(0)  # let the transports run their close callbacks (they close the fds)

    # -- internals (called by the pipe reader) ----------------------------------------------------------------------
    def _on_message(self, raw: bytes) -> None:
        if self._raw_routes and raw.startswith(_EVENT_HEAD) and self._routed(raw):
            return
        try:
            message = json.loads(raw)
        except ValueError:
            self._fail_all("DevTools pipe sent a message that is not JSON")
            return
        if not isinstance(message, dict):
            return
        msg_id = message.get("id")
        if msg_id is not None:
            entry = self._pending.get(msg_id)
            if entry is None:
                return
            method, future = entry
            if future.done():
                return
            error = message.get("error")
            if error is not None:
                future.set_exception(CdpProtocolError(method, int(error.get("code", 0)), str(error.get("message", ""))))
            else:
                future.set_result(message.get("result") or {})
            return
        method = message.get("method", "")
        params = message.get("params") or {}
        session_id = message.get("sessionId")
        if method == "Target.detachedFromTarget":
            self._dialogs.discard(str(params.get("sessionId", "")))
            self._fail_session(str(params.get("sessionId", "")))
        elif method == "Page.javascriptDialogOpening" and session_id:
            self._dialogs.add(session_id)
            self._fail_dialog(session_id)
        elif method == "Page.javascriptDialogClosed" and session_id:
            self._dialogs.discard(session_id)
        for handler in list(self._handlers):
            handler(method, params, session_id)

    def _routed(self, raw: bytes) -> bool:
        """Whether a raw route took the event ``raw`` (see the module docstring for its shape)."""
        head = len(_EVENT_HEAD)
        handler = self._raw_routes.get(raw[head : raw.find(b'"', head)])
        if handler is None or not raw.endswith(b'"}'):
            return False
        at = raw.rfind(_SESSION_TAIL)  # a string inside params has its quotes escaped: the last one is the real one
        if at < 0:
            return False
        return handler(raw, raw[at + len(_SESSION_TAIL) : -2].decode("ascii", "replace"))

    def _fail_session(self, session_id: str) -> None:
        """The target of ``session_id`` went (closed, crashed): its pending calls fail now, as the browser never
        answers them (a tap on a button that closes its window would wait for the touch's acknowledgement forever)."""
        for msg_id, sid in list(self._call_sessions.items()):
            entry = self._pending.get(msg_id)
            if sid == session_id and entry is not None and not entry[1].done():
                entry[1].set_exception(CdpProtocolError(entry[0], -32001, "Session with given id not found."))

    def _fail_dialog(self, session_id: str) -> None:
        """A dialog opened on ``session_id``'s page: its pending calls that wait on the page fail now."""
        for msg_id, sid in list(self._call_sessions.items()):
            entry = self._pending.get(msg_id)
            if sid == session_id and entry is not None and not entry[1].done() and entry[0] not in DIALOG_SAFE:
                entry[1].set_exception(CdpDialogOpen(entry[0]))

    def _fail_all(self, reason: str) -> None:
        if self._closed_reason is None:
            self._closed_reason = reason
        for _method, future in list(self._pending.values()):
            if not future.done():
                future.set_exception(CdpClosed(self._closed_reason))
        self._pending.clear()
        with contextlib.suppress(Exception):
            self._reader.close()


#: Calls a page's busy main thread does not hold up, or that wait on purpose (a navigation, a promise): never
#: answered by stopping the page's script.
_UNGUARDED: Final = frozenset({
    "Page.navigate", "Page.reload", "Page.handleJavaScriptDialog", "Runtime.runIfWaitingForDebugger",
    "Runtime.terminateExecution", "Page.close", "Page.stopScreencast", "Page.screencastFrameAck",
})  # fmt: skip


#: A call that waits on purpose (``awaitPromise``: a load, a page's promise) is probed each this share of the budget:
#: a stuck page is then told from a waiting one a fifth of a budget after the wait began, not a whole budget.
PROBE_SHARE: Final = 0.2
#: A page whose script was stopped answers within milliseconds (bench_hostile's loop: 0.07 s at a load of 14 on two
#: cores); one that still does not after this share of the budget is stuck where no script runs, and is ended.
STOP_SHARE: Final = 0.5


def _settle(call: asyncio.Future[Any]) -> None:
    """A call whose answer no one waits for: cancelled if it is still unanswered, its error read if it failed."""
    if not call.done():
        call.cancel()
    elif not call.cancelled():
        call.exception()


class CdpSession:
    """Calls scoped to one attached target (flattened session).

    A page's own script cannot hold a call for longer than ``budget_s`` (:meth:`guard`): a call still unanswered
    then — ``while(true){}`` in the page, or a walk of a document too big to finish — gets
    ``Runtime.terminateExecution`` on the same session, which stops the script running in the page (the page
    itself lives on), and ``on_stopped(method)`` is told; the call then answers as the browser says (an
    evaluation that was the script stopped answers its exception)."""

    def __init__(self, connection: CdpConnection, session_id: str) -> None:
        self.connection = connection
        self.session_id = session_id
        self.budget_s: float | None = None
        self.on_stopped: Callable[[str], None] | None = None
        self.on_hung: Callable[[str], None] | None = None

    def guard(
        self, budget_s: float, on_stopped: Callable[[str], None], on_hung: Callable[[str], None] | None = None
    ) -> None:
        """Bound every call by ``budget_s``: past it the page's script is stopped (``on_stopped``); past half as long
        again (:data:`STOP_SHARE`) — the page is stuck where no script runs (a layout of a document too deep or too
        big) — the page's renderer is ended (``Page.crash``, served off its main thread; ``on_hung`` first) and
        the call fails."""
        self.budget_s, self.on_stopped, self.on_hung = budget_s, on_stopped, on_hung

    async def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        call = self.connection.start(method, params, self.session_id)  # written now: the order of calls holds
        if self.budget_s is None or method in _UNGUARDED:
            return await call
        task = asyncio.ensure_future(call)
        if not (params or {}).get("awaitPromise"):
            return await self._held(task, method, None)
        # it may wait on purpose (a promise, a load): a probe tells a page that is waiting from one that is stuck.
        # Once a probe's script was stopped, the page has what is left of half a budget more (at least a probe's
        # share) for the whole wait: each probe stopped afresh held the phone 3.4 s more (a 10⁶-element load: 6.9 s)
        stopped: list[float] = []
        while not (await asyncio.wait({task}, timeout=self.budget_s * PROBE_SHARE))[0]:
            probe = asyncio.ensure_future(
                self.connection.start("Runtime.evaluate", {"expression": "0", "returnByValue": True}, self.session_id)
            )
            try:
                await self._held(probe, "Runtime.evaluate", stopped)
            except BaseException:
                task.cancel()
                raise
        return await task

    async def _held(
        self, task: asyncio.Future[dict[str, Any]], method: str, stopped: list[float] | None
    ) -> dict[str, Any]:
        """``task``'s answer, the page's script stopped past the budget and the page ended past half a budget more
        (``stopped``: the wait this call is a probe of, and when a probe of it had the page's script stopped)."""
        assert self.budget_s is not None
        loop = asyncio.get_running_loop()
        if stopped:
            left = max(stopped[0] + self.budget_s * STOP_SHARE - loop.time(), self.budget_s * PROBE_SHARE)
            done, _ = await asyncio.wait({task}, timeout=left)
        else:
            done, _ = await asyncio.wait({task}, timeout=self.budget_s)
            if not done:
                if stopped is not None:
                    stopped.append(loop.time())
                if self.on_stopped is not None:
                    self.on_stopped(method)
                # not waited on before the call's own second wait: a renderer stuck in layout answers neither, and
                # waiting for the stop's reply first held the phone a budget more
                stop = asyncio.ensure_future(self.connection.send("Runtime.terminateExecution", None, self.session_id))
                done, _ = await asyncio.wait({task}, timeout=self.budget_s * STOP_SHARE)
                _settle(stop)
        if not done and self.on_hung is not None:
            self.on_hung(method)
            # the renderer ends at once; its call and the crash's own reply may never come (the session goes with
            # it), and waiting a budget for each held the phone 4 s more: a short look, then the call fails
            await self._crash(task, self.budget_s * PROBE_SHARE)
            if not task.done():
                task.cancel()
                raise CdpProtocolError(method, -32000, "the page stopped answering and was ended")
        return await task

    async def _crash(self, task: asyncio.Future[Any], look_s: float) -> None:
        """End the page's renderer (``Page.crash``) and look ``look_s`` for ``task`` and the crash to answer."""
        crash = asyncio.ensure_future(self.connection.send("Page.crash", None, self.session_id))
        await asyncio.wait({task, crash}, timeout=look_s, return_when=asyncio.ALL_COMPLETED)
        _settle(crash)  # an error of a crash that ended the session is expected
