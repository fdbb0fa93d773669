"""Loopback pages for the aim tests (tests/e2e/test_aim_*.py): two servers on 127.0.0.1, on two ports (so a frame of
the second is cross-origin to a page of the first), serving one store of what the pages' own click handlers saw.

Every page loads tests/e2e/aim/recorder.js, which reports each click synchronously (``POST /record``): the id of the
element marked ``data-aim`` that the click reached, or None for a click that reached none.  A page is either a file
of tests/e2e/aim/ or HTML that the test registers under a path (:meth:`AimSite.put`); ``/other/...`` paths are
served the same way by the second origin.
"""

from __future__ import annotations

import contextlib
import http.server
import json
import threading
from pathlib import Path
from typing import Any

from loopback import serve

AIM_DIR = Path(__file__).resolve().parent / "aim"


class AimSite:
    """Both origins, their pages and the click store.  ``base`` / ``other`` are ``http://127.0.0.1:PORT``."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._clicks: list[str | None] = []
        self._pages: dict[str, str] = {}
        self._stack = contextlib.ExitStack()
        handler = self._handler()
        self.base = self._stack.enter_context(serve(handler, "aim-site"))
        self.other = self._stack.enter_context(serve(handler, "aim-site-other"))

    def close(self) -> None:
        self._stack.close()

    def put(self, path: str, html: str) -> str:
        """Serve ``html`` at ``path`` (on both origins); returns its URL on the first."""
        with self._lock:
            self._pages[path.lstrip("/")] = html
        return f"{self.base}/{path.lstrip('/')}"

    def url(self, name: str) -> str:
        return f"{self.base}/{name}"

    def clear(self) -> None:
        with self._lock:
            self._clicks.clear()

    def clicks(self) -> list[str | None]:
        """What the pages' click handlers reported since the last :meth:`clear`, in order."""
        with self._lock:
            return list(self._clicks)

    def _handler(self) -> type[http.server.BaseHTTPRequestHandler]:
        site = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if self.path == "/record":
                    ident = json.loads(body or b"{}").get("id")
                    with site._lock:
                        site._clicks.append(ident if isinstance(ident, str) else None)
                self._send(204, b"", "text/plain")

            def do_GET(self) -> None:
                path = self.path.split("?", 1)[0].lstrip("/")
                with site._lock:
                    html = site._pages.get(path)
                if html is not None:
                    self._send(200, html.encode(), "text/html; charset=utf-8")
                    return
                file = (AIM_DIR / path).resolve()
                if AIM_DIR not in file.parents or not file.is_file():
                    self._send(404, b"not here", "text/plain")
                    return
                kind = "text/javascript" if file.suffix == ".js" else "text/html; charset=utf-8"
                self._send(200, file.read_bytes(), kind)

            def _send(self, status: int, body: bytes, kind: str) -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

        return Handler
