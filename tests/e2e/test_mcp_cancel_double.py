"""An MCP client that cancels a tool call (``notifications/cancelled``: the SDK sends it when the caller stops
waiting) while the tap it asked for is still on the runner: the tap runs to its end, once, and the server goes on
serving.  Real processes: the SDK's stdio client, ``phonewire mcp``, a runner with the double device, whose
``hang.<ms>`` app makes every app-scoped command take that long.  The waits are liveness bounds, not speed checks."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

APP = "hang.1500"  # every tap and snapshot of this app takes 1.5 s


def test_a_cancelled_tap_runs_to_its_end_once_and_the_server_answers_the_next_call() -> None:
    async def main() -> list[str]:
        env = {k: v for k, v in os.environ.items() if k not in ("PHONEWIRE_RUNNER_ADDR", "PHONEWIRE_TIME_SCALE")}
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "phonewire", "mcp", "--device", "double", "--app", APP], env=env
        )
        with Path(os.devnull).open("w") as errlog:  # noqa: ASYNC230 - opened once, before any await
            async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                assert not (await session.call_tool("open_app", {"app_id": APP})).is_error
                with anyio.move_on_after(0.5) as waited:  # the client stops waiting: the SDK cancels the request
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
