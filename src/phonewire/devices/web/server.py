"""The loopback static server the web device owns: serves the bundled demo app and the home screen.

Minimal by design (GET/HEAD of files under one root, no directory listings, no path escapes); asyncio, so it
shares the runner's loop.  Started by :meth:`WebDevice.open`, stopped by :meth:`WebDevice.close`.

Every path lives under an unguessable per-server prefix (:attr:`StaticServer.prefix`): any local user can
connect to a loopback port, and the home screen lists the URLs of the apps that run (a query string may carry a
session or sign-in code).  Only the runner, which makes the URLs, knows the prefix; anything else is 404.
"""

from __future__ import annotations

import asyncio
import contextlib
import mimetypes
import secrets
from collections.abc import Callable
from importlib import resources
from importlib.resources.abc import Traversable
from urllib.parse import unquote, urlsplit

_TYPES = {".js": "text/javascript", ".css": "text/css", ".html": "text/html", ".svg": "image/svg+xml"}


class StaticServer:
    def __init__(self, root: Traversable, dynamic: dict[str, Callable[[], str]] | None = None) -> None:
        self.root = root
        self.dynamic = dynamic or {}
        self.port = 0
        self.prefix = "/" + secrets.token_urlsafe(18)
        self._server: asyncio.Server | None = None

    @classmethod
    def for_package_data(cls, dynamic: dict[str, Callable[[], str]] | None = None) -> StaticServer:
        return cls(resources.files("phonewire").joinpath("apps"), dynamic)

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{self.prefix}{path}"

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)
            self._server = None

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
            method, target, *_ = head.split(b"\r\n", 1)[0].decode("latin-1").split(" ")
            status, ctype, body = self._resolve(unquote(urlsplit(target).path))
            header = (
                f"HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {len(body)}\r\n"
                "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
            )
            writer.write(header.encode("latin-1") + (b"" if method == "HEAD" else body))
            await writer.drain()
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError, ValueError):
            pass
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    def _resolve(self, full_path: str) -> tuple[str, str, bytes]:
        if not full_path.startswith(self.prefix + "/"):
            return "404 Not Found", "text/plain", b"not found"
        path = full_path[len(self.prefix) :]
        if path in self.dynamic:
            return "200 OK", "text/html; charset=utf-8", self.dynamic[path]().encode()
        parts = [p for p in path.split("/") if p]
        if any(p in ("..", ".") or p.startswith(".") for p in parts):
            return "404 Not Found", "text/plain", b"not found"
        node = self.root
        for part in parts:
            node = node.joinpath(part)
        if node.is_dir():
            node = node.joinpath("index.html")
        if not node.is_file():
            return "404 Not Found", "text/plain", b"not found"
        suffix = "." + node.name.rsplit(".", 1)[-1] if "." in node.name else ""
        ctype = _TYPES.get(suffix) or mimetypes.guess_type(node.name)[0] or "application/octet-stream"
        if ctype.startswith("text/"):
            ctype += "; charset=utf-8"
        return "200 OK", ctype, node.read_bytes()
