"""The MCP server end to end: the SDK's own stdio client → ``phonewire mcp`` process → runner → Chromium (web device).

One server process serves the whole module; the checks read the page back (a counter went up by exactly one), and
every failing call must be a tool result with ``isError`` and a hint, after which the server keeps serving."""

from __future__ import annotations

import asyncio
import base64
import io
import os
import re
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import mcp.types as mt
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

pytestmark = pytest.mark.e2e

DEMO = "dev.phonewire.demo"
REF = re.compile(r"@e\d+ ")


@asynccontextmanager
async def mcp_session(device: str = "web", app: str = DEMO) -> AsyncIterator[ClientSession]:
    """A ``phonewire mcp`` process for ``device`` and ``app``; the SDK client closes stdin and reaps it on exit."""
    env = {k: v for k, v in os.environ.items() if k not in ("PHONEWIRE_RUNNER_ADDR", "PHONEWIRE_TIME_SCALE")}
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "phonewire", "mcp", "--device", device, "--app", app], env=env
    )
    with Path(os.devnull).open("w") as errlog:  # noqa: ASYNC230 - opened once, before any await
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            yield session


def run(body: Callable[[ClientSession], Awaitable[None]]) -> None:
    async def main() -> None:
        async with mcp_session() as session:
            await body(session)

    asyncio.run(main())


def text(result: mt.CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, mt.TextContent), block
    return block.text


async def ok(session: ClientSession, name: str, arguments: dict[str, Any] | None = None) -> mt.CallToolResult:
    result = await session.call_tool(name, arguments or {})
    assert not result.is_error, result.content
    return result


def _plain(view: str) -> list[str]:
    return [REF.sub("", line, count=1).strip() for line in view.splitlines()]


def find_line(view: str, pattern: str) -> str:
    for line in view.splitlines():
        if re.search(pattern, line):
            return line
    raise AssertionError(f"no line matching {pattern!r} in:\n{view}")


def likes(view: str, ref: str) -> int:
    """A like button's counter, read from its label ("Like N") on the line of its ref (the session keeps an
    element's ref across snapshots; -i prints its id only while another line shares its label)."""
    match = re.search(r'Button "Like (\d+)"', find_line(view, rf"^\s*{ref} "))
    assert match
    return int(match.group(1))


def test_mcp_over_stdio_lists_tools_taps_by_ref_and_reports_failures_as_tool_errors() -> None:
    async def body(session: ClientSession) -> None:
        # list tools: one per command, each with a JSON schema
        tools = {t.name: t for t in (await session.list_tools()).tools}
        assert {"snapshot", "tap", "fill", "type", "press", "scroll", "swipe", "screenshot", "open_app"} <= set(tools)
        assert tools["tap"].input_schema["required"] == ["target"]

        # tap row 1's like button by its ref: that row's counter goes up by exactly one, row 2's does not move
        before = text(await ok(session, "snapshot", {"interactive": True}))
        ref, ref2 = (find_line(before, rf"id=like-{row}\b").split()[0] for row in (1, 2))
        tapped = await ok(session, "tap", {"target": ref})
        assert text(tapped).startswith("ok: tap")
        after = text(await ok(session, "snapshot", {"interactive": True}))
        assert likes(after, ref) == likes(before, ref) + 1
        assert likes(after, ref2) == likes(before, ref2)

        # failures are tool results with isError and a hint — and the server keeps serving
        stale = await session.call_tool("tap", {"target": "@e9999"})
        assert stale.is_error and text(stale).startswith("STALE_REF: ") and "\nhint: " in text(stale)
        wrong_type = await session.call_tool("tap", {"target": 12})
        assert (
            wrong_type.is_error and text(wrong_type).startswith("INVALID_REQUEST: ") and "\nhint: " in text(wrong_type)
        )
        missing = await session.call_tool("fill", {"target": ref})  # no text
        assert missing.is_error and "needs parameter 'text'" in text(missing)
        unknown = await session.call_tool("teleport", {})
        assert unknown.is_error and "unknown tool" in text(unknown)
        unchanged = text(await ok(session, "snapshot", {"interactive": True}))
        assert _plain(unchanged) == _plain(after)  # none of the failed calls touched the page

        # the screenshot is image content, scaled to one pixel per point by default
        viewport = (await ok(session, "viewport")).structured_content
        shot = await ok(session, "screenshot")
        image = shot.content[0]
        assert isinstance(image, mt.ImageContent) and image.mime_type == "image/jpeg"
        from PIL import Image

        with Image.open(io.BytesIO(base64.b64decode(image.data))) as decoded:
            assert viewport is not None
            assert decoded.format == "JPEG" and decoded.size == (round(viewport["width"]), round(viewport["height"]))

    run(body)


def test_mcp_over_stdio_takes_forgiving_selectors_numbers_and_patterns() -> None:
    """Issue 25 item 4 over stdio: a label read as a person reads it taps once; a number and a pattern are waited
    for; a selector that cannot be read is an isError INVALID_REQUEST result and taps nothing."""

    async def body(session: ClientSession) -> None:
        before = text(await ok(session, "snapshot", {"interactive": True}))
        ref = find_line(before, r"id=like-2\b").split()[0]
        count = likes(before, ref)
        await ok(session, "tap", {"target": f"id=like-2 label=like {count}."})
        await ok(session, "wait", {"selector": f"id=like-2 value>{count}", "timeout_ms": 0})
        await ok(session, "wait", {"selector": r"id=like-2 label~=/^Like \d+$/", "timeout_ms": 0})
        refused = await session.call_tool("tap", {"target": "id=like-2 value<plenty"})
        assert refused.is_error and text(refused).startswith("INVALID_REQUEST: ") and "\nhint: " in text(refused)
        after = text(await ok(session, "snapshot", {"interactive": True}))
        assert likes(after, ref) == count + 1  # the forgiving tap landed once; the refused one did nothing

    run(body)
