"""What both front ends share on the way to a device: the host + agent session, and signal handling."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from collections.abc import AsyncIterator, Coroutine
from contextlib import asynccontextmanager
from typing import Any

from phonewire.agent.core import AgentSession
from phonewire.protocol.errors import ProtocolError


def add_host_options(parser: argparse.ArgumentParser) -> None:
    """The options both front ends take for :func:`agent_session`: ``--device``, ``--app``, ``--runner``."""
    parser.add_argument("--device", default=None, help="device spec, e.g. web or web:pixel-7 (default web)")
    parser.add_argument("--app", default=None, help="open this app before serving (e.g. dev.phonewire.demo)")
    parser.add_argument("--runner", default=None, help="attach to a runner at 127.0.0.1:PORT instead of starting one")


@asynccontextmanager
async def agent_session(
    device: str | None, *, app: str | None = None, runner: str | None = None
) -> AsyncIterator[AgentSession]:
    """Start the runner for ``device`` (or attach to ``runner`` / ``PHONEWIRE_RUNNER_ADDR``), open ``app`` if given,
    and yield the agent session.  On exit — normal, error or cancellation — the host session is closed, which stops
    a runner it started (an attached runner is left running)."""
    from phonewire.devices.registry import check_spec
    from phonewire.host.session import HostSession

    if device and not runner:
        check_spec(device)
    host = HostSession(device, runner_addr=runner)
    try:
        await host.start()
        session = AgentSession(host)
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
