"""An MCP client that cancels a tool call (``notifications/cancelled``: the SDK sends it when the caller stops
waiting) while the tap it asked for is still on the runner: the tap runs to its end, once, and the server goes on
serving.  Real processes: the SDK's stdio client, ``phonewire mcp``, a runner with the double device, whose
``hang.<ms>`` app makes every app-scoped command take that long.  The waits are liveness bounds, not speed checks."""

from __future__ import annotations

import asyncio

import anyio
from test_mcp_web import mcp_session

APP = "hang.3000"  # every tap and snapshot of this app takes 3 s
#: When the client stops waiting: inside the tap, which the reply's look at the screen (its settled diff, 0-3 s)
#: precedes (3-6 s) — half a command's time from either edge, a liveness margin rather than a speed check.
CANCEL_AFTER_S = 4.5


def test_a_cancelled_tap_runs_to_its_end_once_and_the_server_answers_the_next_call() -> None:
    async def main() -> list[str]:
        async with mcp_session("double", APP) as session:
            assert not (await session.call_tool("open_app", {"app_id": APP})).is_error
            with anyio.move_on_after(CANCEL_AFTER_S) as waited:  # the client stops waiting: the SDK cancels it
                await session.call_tool("tap", {"target": "120 122"})
            assert waited.cancelled_caught
            with anyio.fail_after(30):  # before the fix: the server's connection closed here
                snapshot = await session.call_tool("snapshot", {})
        assert not snapshot.is_error, snapshot.content
        block = snapshot.content[0]
        assert block.type == "text"
        return [line.strip() for line in block.text.splitlines() if "taps=" in line]

    lines = asyncio.run(main())
    assert len(lines) == 1 and lines[0].endswith('StaticText "taps=1"'), lines  # it landed, once
