"""The loopback static server of the web device: serves the demo and the home page, nothing outside its root."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import phonewire
from phonewire.devices.web.server import StaticServer


async def get(server: StaticServer, path: str) -> tuple[int, bytes]:
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    await writer.drain()
    raw = await reader.read()
    writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def test_serves_the_demo_the_home_page_and_nothing_outside_its_root() -> None:
    async def scenario() -> list[tuple[int, bytes]]:
        server = StaticServer.for_package_data({"/__home__": lambda: "<p>home</p>"})
        await server.start()
        p = server.prefix
        try:
            return [
                await get(server, p + "/demo/index.html"),
                await get(server, p + "/demo/"),
                await get(server, p + "/__home__"),
                await get(server, p + "/demo/../../protocol/errors.py"),
                await get(server, p + "/demo/%2e%2e/%2e%2e/protocol/errors.py"),
                await get(server, p + "/demo/missing.js"),
            ]
        finally:
            await server.stop()

    index, directory, home, up, encoded_up, missing = asyncio.run(scenario())
    assert index[0] == 200 and b"phonewire demo" in index[1]
    assert directory == index
    assert home == (200, b"<p>home</p>")
    assert up[0] == encoded_up[0] == missing[0] == 404


def test_nothing_is_served_without_the_servers_secret_prefix() -> None:
    """Adversarial re-run: any local user could read /__home__, which lists the running apps' URLs (query strings
    included).  Without the per-server prefix every path is 404."""

    async def scenario() -> list[tuple[int, bytes]]:
        server = StaticServer.for_package_data({"/__home__": lambda: "<p>http://app/?code=SECRET</p>"})
        await server.start()
        try:
            assert server.url("/__home__").startswith(f"http://127.0.0.1:{server.port}{server.prefix}/")
            return [await get(server, "/__home__"), await get(server, "/demo/index.html"), await get(server, "/")]
        finally:
            await server.stop()

    for status, body in asyncio.run(scenario()):
        assert status == 404 and b"SECRET" not in body


def test_the_demo_is_one_document_that_loads_nothing_else() -> None:
    """Its style and script are inline: a cold start's first app loads in one request (a first load of three
    requests took ~33 ms longer to its load event, in paired runs)."""
    page = (Path(phonewire.__file__).parent / "apps" / "demo" / "index.html").read_text()
    assert "<style>" in page and "<script>" in page
    assert re.findall(r"""\\b(?:src|href)=["'](?!#)[^"']*""", page) == []
