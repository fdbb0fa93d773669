"""What the bridge and the MCP server share on the way to a device: the agent API they call (a protocol
:class:`~phonewire.agent.core.AgentSession` fits), the host + agent session, signal handling, the settled view
they answer after an action, the foreground-app and app-error rules, and image sizes."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Final, Protocol, TypeVar

from phonewire.agent.core import AgentSession
from phonewire.agent.params import Param
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import Node

T = TypeVar("T")


def port_error(prog: str, port: int) -> str | None:
    """Why ``--port`` is unusable for ``phonewire PROG`` (0 = any free port), or ``None``."""
    return None if 0 <= port <= 65535 else f"phonewire {prog}: --port must be 0..65535, got {port}"


def add_host_options(parser: argparse.ArgumentParser) -> None:
    """The options both front ends take for :func:`agent_session`: ``--device``, ``--app``, ``--runner``,
    ``--trace``."""
    parser.add_argument("--device", default=None, help="device spec, e.g. web or web:pixel-7 (default web)")
    parser.add_argument("--app", default=None, help="open this app before serving (e.g. dev.phonewire.demo)")
    parser.add_argument("--runner", default=None, help="attach to a runner at 127.0.0.1:PORT instead of starting one")
    parser.add_argument(
        "--trace", default=None, metavar="DIR", help="record every operation of the session into DIR from the start"
    )


@asynccontextmanager
async def agent_session(
    device: str | None, *, app: str | None = None, runner: str | None = None, trace: str | None = None
) -> AsyncIterator[AgentSession]:
    """Start the runner for ``device`` (or attach to ``runner`` / ``PHONEWIRE_RUNNER_ADDR``), start tracing into
    ``trace`` (resolved against the working directory) if given, open ``app`` if given, and yield the agent
    session.  On exit — normal, error or cancellation — the host session is closed, which stops
    a runner it started (an attached runner is left running)."""
    from phonewire.devices.registry import check_spec
    from phonewire.host.session import HostSession

    if device and not runner:
        check_spec(device)
    host = HostSession(device, runner_addr=runner)
    try:
        await host.start()
        session = AgentSession(host)
        if trace:
            await session.trace_start(trace)
        if app:
            await session.open_app(app)
        yield session
    finally:
        await host.close()


def run_server(name: str, main: Coroutine[Any, Any, int]) -> int:
    """Run a server front end's main coroutine and return its exit code: 1 with the reason on stderr when the
    runner did not start or the app did not open (a ProtocolError) or the system refused (an OSError, e.g. a port
    in use); 130 on Ctrl-C."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format=f"phonewire {name}: %(message)s")
    try:
        return asyncio.run(main)
    except ProtocolError as exc:
        print(f"phonewire {name}: {exc.code}: {exc.message}" + (f" ({exc.hint})" if exc.hint else ""), file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"phonewire {name}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


class SignalStop:
    """SIGINT/SIGTERM handling for a front end's main task.

    While the front end is starting (runner launch), a signal cancels the main task, so startup unwinds through
    its ``finally`` blocks and an owned runner is still stopped; once ``serving`` is set, a signal only sets
    ``event`` and the serve loop returns normally."""

    def __init__(self) -> None:
        self.event = asyncio.Event()
        self.serving = False
        self._task = asyncio.current_task()
        self._loop = asyncio.get_running_loop()

    def _on_signal(self) -> None:
        self.event.set()
        if not self.serving and self._task is not None:
            self._task.cancel()

    def __enter__(self) -> SignalStop:
        for sig in (signal.SIGINT, signal.SIGTERM):
            self._loop.add_signal_handler(sig, self._on_signal)
        return self

    def __exit__(self, *exc: object) -> None:
        for sig in (signal.SIGINT, signal.SIGTERM):
            self._loop.remove_signal_handler(sig)


# --- what the front ends need from the agent layer (phonewire.agent.core.AgentSession fits it) --------------------
class ActionLike(Protocol):
    @property
    def data(self) -> dict[str, Any]: ...
    @property
    def warning(self) -> str | None: ...
    @property
    def reactivated(self) -> bool: ...
    @property
    def state_reset(self) -> bool: ...


class ViewLike(Protocol):
    text: str
    nodes: list[Node]
    refs: dict[str, Node]
    quality: dict[str, Any]
    state_reset: bool

    def to_json(self) -> dict[str, Any]: ...


class AgentAPI(Protocol):
    app_id: str | None

    async def open_app(
        self, app_id: str, clear_state: bool = False, locale: str | None = None, timezone: str | None = None
    ) -> ActionLike: ...
    async def close_app(self, app_id: str | None = None) -> ActionLike: ...
    async def list_apps(self) -> list[dict[str, Any]]: ...
    async def snapshot(
        self, *, interactive: bool = False, diff: bool = False, all: bool = False, ocr: bool = False
    ) -> ViewLike: ...
    async def tap(self, target: str, *, count: int = 1) -> ActionLike: ...
    async def tap_point(self, x: float, y: float, *, count: int = 1, element: str | None = None) -> ActionLike: ...
    async def long_press(self, target: str, *, duration_ms: float = 800) -> ActionLike: ...
    async def fill(self, target: str, text: str) -> ActionLike: ...
    async def type(self, text: str) -> ActionLike: ...
    async def press(self, key: str) -> ActionLike: ...
    async def select(self, target: str, options: list[str], *, add: bool = False) -> ActionLike: ...
    async def swipe(self, x1: float, y1: float, x2: float, y2: float, *, duration_ms: float = 300) -> ActionLike: ...
    async def scroll(self, direction: str, target: str | None = None, *, amount: float = 0.6) -> ActionLike: ...
    async def find(self, selector: str, *, direction: str = "down", max_scrolls: int = ...) -> ActionLike: ...
    async def screenshot(self, *, format: str = "png", scale: str = "device", overlay_refs: bool = False) -> bytes: ...
    async def viewport(self) -> dict[str, float]: ...
    async def open_url(self, url: str) -> ActionLike: ...
    async def wait(
        self, selector: str | None = None, *, gone: bool = False, idle: bool = False, timeout_ms: int = ...
    ) -> ActionLike: ...


@dataclass(frozen=True, slots=True)
class Settle:
    """When the returned tree may be taken: two snapshots ``interval_s`` apart that agree, within ``budget_s``
    (a screen that never holds still — an animation, a timer — returns its latest state at the budget)."""

    interval_s: float
    budget_s: float


#: After a tap or typing: the app's reaction (a hash navigation, a re-render) lands within a frame or two.
TAP_SETTLE: Final = Settle(0.03, 0.5)
#: After a scroll or swipe: a fling decelerates for up to a few seconds, in steps that can repeat a frame.
DRAG_SETTLE: Final = Settle(0.12, 3.0)


async def settled_view(session: AgentAPI, settle: Settle = TAP_SETTLE, *, interactive: bool = False) -> ViewLike:
    """The screen after an action, once it holds still.

    An app may react to a gesture asynchronously (a hash navigation, a timer, a fling), so a snapshot taken the
    moment the gesture ends can show the screen before its effect.  Reference bridges return the tree after the
    app went idle; here the snapshot is repeated every ``settle.interval_s`` until two in a row agree."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + settle.budget_s
    view = await session.snapshot(interactive=interactive)
    while loop.time() < deadline:
        await asyncio.sleep(settle.interval_s)
        again = await session.snapshot(interactive=interactive)
        if again.text == view.text:
            return again
        view = again
    return view


def image_size(data: bytes) -> tuple[int, int] | None:
    """``(width, height)`` read from a PNG or JPEG header, or ``None``."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data[:2] == b"\xff\xd8":
        i = 2
        while i + 9 < len(data):
            if data[i] != 0xFF:
                return None
            marker = data[i + 1]
            if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
                i += 2
                continue
            length = int.from_bytes(data[i + 2 : i + 4], "big")
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
                height = int.from_bytes(data[i + 5 : i + 7], "big")
                width = int.from_bytes(data[i + 7 : i + 9], "big")
                return width, height
            i += 2 + length
    return None


async def adopt_foreground_app(session: AgentAPI) -> bool:
    """Make the device's foreground app the session's target when none was opened (the reference bridges act on
    "the currently focused app").  False when no app is in the foreground."""
    for app in await session.list_apps():
        app_id = app.get("appBundleId")
        if app.get("state") == "foreground" and isinstance(app_id, str) and app_id:
            session.app_id = app_id
            return True
    return False


def confine_outputs(params: Sequence[Param], kwargs: dict[str, Any]) -> None:
    """Paths an agent names for phonewire to write (``Param.writes``: a trace directory, a video file) are taken
    only under :func:`~phonewire.agent.checks.output_place`'s places (INVALID_REQUEST otherwise), made absolute."""
    from phonewire.agent.checks import output_place

    for p in params:
        value = kwargs.get(p.name)
        if p.writes and isinstance(value, str):
            kwargs[p.name] = str(output_place(value, f"the {p.name}", "Name a path of your own."))


#: Calls that never need the session's app: no foreground app is adopted for them.
APP_FREE: Final = frozenset({"open_app", "list_apps", "open_url", "stop"})


async def with_app_error_hint(run: Callable[[], Awaitable[T]], hint: str) -> T:
    """Run ``run``; an APP_BUNDLE_ID_REQUIRED failure gets the front end's own hint (how to open an app there)."""
    try:
        return await run()
    except ProtocolError as exc:
        if exc.code != e.APP_BUNDLE_ID_REQUIRED:
            raise
        raise ProtocolError(exc.code, exc.message, hint) from exc


async def prepare_app(session: AgentAPI, name: str) -> None:
    """Before a call that may need an app: with none open, adopt the foreground one (checked before anything is
    sent, so no action is ever repeated)."""
    if name not in APP_FREE and not session.app_id:
        await adopt_foreground_app(session)
