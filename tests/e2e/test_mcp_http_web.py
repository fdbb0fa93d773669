"""``phonewire mcp --http`` end to end: the SDK's own Streamable HTTP client → the server process → runner → Chromium.

One server process (its token generated, in the runtime directory) serves the module.  Every refused request is
checked on the page too: the like counter it would have bumped did not move."""

from __future__ import annotations

import asyncio
import os
import re
import stat
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx2
import mcp.types as mt
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from procs import stop_process

from phonewire.frontends.mcp_server import tool_list

pytestmark = pytest.mark.e2e

DEMO = "dev.phonewire.demo"
TAP_LIKE_1: dict[str, Any] = {
    "jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "tap", "arguments": {"target": "id=like-1"}},
}  # fmt: skip


class HttpServer:
    """A ``phonewire mcp --http --port 0`` process with its stderr in a file; :meth:`stop` ends it by PID."""

    def __init__(self, tmp: Path, *args: str, env: dict[str, str] | None = None) -> None:
        base = {k: v for k, v in os.environ.items() if k not in ("PHONEWIRE_RUNNER_ADDR", "PHONEWIRE_MCP_TOKEN")}
        self.errlog = tmp / "mcp-http.err"
        with self.errlog.open("wb") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "phonewire", "mcp", "--http", "--port", "0", *args],
                stdout=subprocess.PIPE, stderr=err, env={**base, "PYTHONUNBUFFERED": "1", **(env or {})},
            )  # fmt: skip
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().decode()
        assert line.startswith("PHONEWIRE_MCP_READY url="), (line, self.stderr())
        self.url = line.strip().split("=", 1)[1]
        self.port = int(self.url.rsplit(":", 1)[1].split("/")[0])

    def stderr(self) -> str:
        return self.errlog.read_text(errors="replace")

    def token_file(self) -> Path:
        match = re.search(r"token file: (\S+) \(0600\)", self.stderr())
        assert match, self.stderr()
        return Path(match.group(1))

    def stop(self) -> int | None:
        return stop_process(self.proc, 30)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpServer]:
    s = HttpServer(tmp_path_factory.mktemp("mcp-http"), "--app", DEMO)
    try:
        yield s
    finally:
        s.stop()


def token_of(server: HttpServer) -> str:
    return server.token_file().read_text().strip()


@asynccontextmanager
async def client(server: HttpServer, mode: str = "auto", **headers: str) -> AsyncIterator[Client]:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token_of(server)}", **headers})
    async with http, Client(streamable_http_client(server.url, http_client=http), mode=mode) as c:
        yield c


def text(result: mt.CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, mt.TextContent), block
    return block.text


async def likes(c: Client, row: int) -> int:
    """Row ``row``'s like counter, read from the page's own button text (the snapshot's raw nodes)."""
    view = (await c.call_tool("snapshot", {"json": True})).structured_content
    assert view is not None
    label = next(n["label"] for n in view["nodes"] if n.get("identifier") == f"like-{row}")
    match = re.fullmatch(r"Like (\d+)", label)
    assert match, label
    return int(match.group(1))


def test_token_is_written_0600_in_the_runtime_directory_and_its_path_printed(server: HttpServer) -> None:
    from phonewire.runtime import user_runtime_dir

    path = server.token_file()
    assert path == Path(user_runtime_dir()) / f"mcp-{server.port}.token"
    mode = path.stat().st_mode
    assert stat.S_IMODE(mode) == 0o600 and path.stat().st_uid == os.getuid()
    assert len(token_of(server)) >= 32


@pytest.mark.parametrize("mode", ["2026-07-28", "legacy"])
def test_the_sdk_client_lists_the_stdio_tools_and_a_tap_lands_once(server: HttpServer, mode: str) -> None:
    """The stateless 2026-07-28 exchange and a 2025-11-25 client's handshake both: the tool table is the one stdio
    serves (one declaration), and a tap by selector bumps row 1's counter by exactly one, row 2's not at all."""

    async def body() -> None:
        async with client(server, mode) as c:
            listed = (await c.list_tools()).tools
            assert [(t.name, t.input_schema) for t in listed] == [(t.name, t.input_schema) for t in tool_list()]
            before1, before2 = await likes(c, 1), await likes(c, 2)
            tapped = await c.call_tool("tap", {"target": "id=like-1"})
            assert not tapped.is_error and text(tapped).startswith("ok: tap"), text(tapped)
            assert (await likes(c, 1), await likes(c, 2)) == (before1 + 1, before2)

    asyncio.run(body())


async def _raw(server: HttpServer, headers: dict[str, str]) -> httpx2.Response:
    async with httpx2.AsyncClient() as http:
        return await http.post(
            server.url, json=TAP_LIKE_1, headers={"Accept": "application/json, text/event-stream", **headers}
        )


@pytest.mark.parametrize(
    ("case", "status", "code"),
    [
        ("no token", 401, "UNAUTHORIZED"),
        ("wrong token", 401, "UNAUTHORIZED"),
        ("foreign Origin", 403, "INVALID_REQUEST"),
        ("wrong Host", 403, "INVALID_REQUEST"),
        ("loopback Host, other port", 403, "INVALID_REQUEST"),
    ],
)
def test_a_refused_request_gets_its_status_and_code_and_taps_nothing(
    server: HttpServer, case: str, status: int, code: str
) -> None:
    good = {"Authorization": f"Bearer {token_of(server)}"}
    headers = {
        "no token": {},
        "wrong token": {"Authorization": "Bearer not-the-token"},
        "foreign Origin": {**good, "Origin": "http://evil.example"},
        "wrong Host": {**good, "Host": f"evil.example:{server.port}"},
        "loopback Host, other port": {**good, "Host": f"127.0.0.1:{server.port + 1}"},
    }[case]

    async def body() -> None:
        async with client(server) as c:
            before = await likes(c, 1)
            reply = await _raw(server, headers)
            assert reply.status_code == status, reply.text
            error = reply.json()["error"]
            assert error["data"]["code"] == code and error["data"]["hint"].startswith("Nothing ran."), error
            if status == 401:
                assert reply.headers["www-authenticate"].startswith("Bearer")
            assert await likes(c, 1) == before  # nothing ran

    asyncio.run(body())


def test_the_sdk_client_without_the_token_is_refused(server: HttpServer) -> None:
    async def body() -> None:
        async with httpx2.AsyncClient() as http, Client(streamable_http_client(server.url, http_client=http)) as c:
            await c.list_tools()

    with pytest.raises(Exception) as caught:  # the SDK's own error, inside task groups
        asyncio.run(body())
    leaves = list(_leaves(caught.value))
    assert any("401" in str(leaf) or "UNAUTHORIZED" in str(leaf) for leaf in leaves), leaves


def _leaves(exc: BaseException) -> Iterator[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            yield from _leaves(inner)
    else:
        yield exc


def test_own_origin_is_served(server: HttpServer) -> None:
    """A request whose Origin is the server's own (no page is served there, so no web page has it) is not refused."""

    async def body() -> None:
        async with client(server, Origin=f"http://127.0.0.1:{server.port}") as c:
            assert (await c.list_tools()).tools

    asyncio.run(body())


def test_stopping_the_server_removes_its_token_file_and_exits_0(tmp_path: Path) -> None:
    s = HttpServer(tmp_path)
    path = s.token_file()
    assert path.exists()
    assert s.stop() == 0, s.stderr()
    assert not path.exists()


@pytest.mark.parametrize(
    ("args", "env", "message"),
    [
        (["--allow-remote"], {}, "--allow-remote needs PHONEWIRE_MCP_TOKEN"),
        (["--host", "0.0.0.0"], {}, "is not a loopback address; serving it needs --allow-remote"),
        ([], {"PHONEWIRE_MCP_TOKEN": "has space"}, "PHONEWIRE_MCP_TOKEN must be"),
    ],
)
def test_unsafe_or_bad_settings_are_refused_before_anything_starts(
    args: list[str], env: dict[str, str], message: str
) -> None:
    base = {k: v for k, v in os.environ.items() if k != "PHONEWIRE_MCP_TOKEN"}
    done = subprocess.run(
        [sys.executable, "-m", "phonewire", "mcp", "--http", "--port", "0", *args],
        capture_output=True, text=True, env={**base, **env}, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert "PHONEWIRE_MCP_READY" not in done.stdout


def test_allow_remote_with_a_token_warns_and_serves_that_token(tmp_path: Path) -> None:
    s = HttpServer(tmp_path, "--allow-remote", env={"PHONEWIRE_MCP_TOKEN": "a-token-for-remote-clients"})
    try:
        assert "WARNING: --allow-remote" in s.stderr() and "token: from PHONEWIRE_MCP_TOKEN" in s.stderr()

        async def body() -> None:
            bad = await _raw(s, {"Authorization": "Bearer wrong"})
            assert bad.status_code == 401
            http = httpx2.AsyncClient(headers={"Authorization": "Bearer a-token-for-remote-clients"})
            async with http, Client(streamable_http_client(s.url, http_client=http)) as c:
                assert (await c.list_tools()).tools

        asyncio.run(body())
    finally:
        assert s.stop() == 0, s.stderr()


def test_a_screenshot_is_a_jpeg_at_css_scale_by_default_and_a_png_at_device_pixels_on_request(
    server: HttpServer,
) -> None:
    """Decoded, not trusted: the default image is a JPEG the viewport's size in points (iphone-15: 393 × 852, under
    the 1568 px cap); scale=device with format=png is a PNG three pixels a point."""
    import base64
    import io

    from PIL import Image

    async def body() -> None:
        async with client(server) as c:
            viewport = (await c.call_tool("viewport", {})).structured_content
            assert viewport is not None
            points = (round(viewport["width"]), round(viewport["height"]))
            for args, fmt, size in (
                ({}, "JPEG", points),
                ({"format": "png", "scale": "device"}, "PNG", (points[0] * 3, points[1] * 3)),
            ):
                shot = await c.call_tool("screenshot", args)
                image = shot.content[0]
                assert isinstance(image, mt.ImageContent) and image.mime_type == f"image/{fmt.lower()}"
                with Image.open(io.BytesIO(base64.b64decode(image.data))) as decoded:
                    assert (decoded.format, decoded.size) == (fmt, size)
                    assert max(decoded.size) <= 1568 or args
                assert shot.structured_content == {"format": fmt.lower(), "bytes": len(base64.b64decode(image.data)),
                                                   "width": size[0], "height": size[1]}  # fmt: skip

    asyncio.run(body())


def test_forgiving_selectors_numbers_and_patterns_over_http(server: HttpServer) -> None:
    """Issue 25 item 4 through MCP over HTTP: a label read as a person reads it, a number, a pattern; a selector that
    cannot be read is an isError INVALID_REQUEST result and taps nothing."""

    async def body() -> None:
        async with client(server) as c:
            count = await likes(c, 3)
            number = await c.call_tool("wait", {"selector": f"id=like-3 value>={count} value<{count + 1}",
                                                "timeout_ms": 0})  # fmt: skip
            assert not number.is_error, text(number)
            tapped = await c.call_tool("tap", {"target": f"id=like-3 label=LIKE {count}:"})
            assert not tapped.is_error, text(tapped)
            assert await likes(c, 3) == count + 1
            pattern = await c.call_tool("wait", {"selector": r"id=like-3 label~=/^like \d+$/i", "timeout_ms": 0})
            assert not pattern.is_error, text(pattern)
            for bad in ("id=like-3 value<lots", "label~=/Like (/", "role~=/Button/"):
                refused = await c.call_tool("tap", {"target": bad})
                assert refused.is_error and text(refused).startswith("INVALID_REQUEST: "), text(refused)
            assert await likes(c, 3) == count + 1

    asyncio.run(body())


def test_a_body_that_is_not_json_rpc_gets_an_error_and_the_server_keeps_serving(server: HttpServer) -> None:
    async def body() -> None:
        headers = {"Authorization": f"Bearer {token_of(server)}", "Accept": "application/json, text/event-stream",
                   "Content-Type": "application/json"}  # fmt: skip
        async with httpx2.AsyncClient() as http:
            for raw in (b"{ not json", b'{"jsonrpc": "2.0", "id": 1}', b"[]"):
                reply = await http.post(server.url, content=raw, headers=headers)
                assert 400 <= reply.status_code < 500, (raw, reply.status_code, reply.text)
                assert "error" in reply.json(), reply.text
        async with client(server) as c:
            assert (await c.list_tools()).tools

    asyncio.run(body())
