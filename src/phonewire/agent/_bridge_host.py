"""The front ends' one way to a device: a host session (spawned or attached runner) and an agent session on it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from phonewire.agent.core import AgentSession


@asynccontextmanager
async def agent_session(
    device: str | None, *, app: str | None = None, runner: str | None = None
) -> AsyncIterator[AgentSession]:
    """Start the runner for ``device`` (or attach to ``runner`` / ``PHONEWIRE_RUNNER_ADDR``), open ``app`` if given,
    and yield the agent session.  On exit — normal, error or cancellation — the host session is closed, which stops
    a runner it started (an attached runner is left running)."""
    from phonewire.host.session import HostSession

    host = HostSession(device, runner_addr=runner)
    try:
        await host.start()
        session = AgentSession(host)
        if app:
            await session.open_app(app)
        yield session
    finally:
        await host.close()
