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
import re
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
                _send(self, 204, b"", "text/plain")

            def do_GET(self) -> None:
                path = self.path.split("?", 1)[0].lstrip("/")
                with site._lock:
                    html = site._pages.get(path)
                if html is not None:
                    _send(self, 200, html.encode(), "text/html; charset=utf-8")
                    return
                file = (AIM_DIR / path).resolve()
                if AIM_DIR not in file.parents or not file.is_file():
                    _send(self, 404, b"not here", "text/plain")
                    return
                kind = "text/javascript" if file.suffix == ".js" else "text/html; charset=utf-8"
                _send(self, 200, file.read_bytes(), kind)

        return Handler


APG_DIR = Path(__file__).resolve().parents[1] / "apg" / "content"
#: A page's links to other hosts (a W3C style sheet, a font): dropped, the phone has no internet to wait on.
_FOREIGN = re.compile(rb"""<(?:link|script)\b[^>]*?(?:href|src)=["']https?://[^>]*>(?:\s*</script>)?""", re.I)


class ApgSite:
    """The vendored APG examples (tests/apg/content) on loopback, each HTML page served with aim/apg_recorder.js
    loaded first and its links to other hosts dropped; :meth:`clicks` are the recorder's reports."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._clicks: list[dict[str, Any]] = []
        self._stack = contextlib.ExitStack()
        self.base = self._stack.enter_context(serve(self._handler(), "apg-site"))

    def close(self) -> None:
        self._stack.close()

    def url(self, path: str) -> str:
        return f"{self.base}/{path}"

    def clear(self) -> None:
        with self._lock:
            self._clicks.clear()

    def clicks(self) -> list[dict[str, Any]]:
        with self._lock:
            return list(self._clicks)

    def _handler(self) -> type[http.server.BaseHTTPRequestHandler]:
        site = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if self.path == "/__aim/record":
                    report = json.loads(body or b"{}")
                    with site._lock:
                        site._clicks.append(report if isinstance(report, dict) else {})
                _send(self, 204, b"", "text/plain")

            def do_GET(self) -> None:
                path = self.path.split("?", 1)[0].split("#", 1)[0].lstrip("/")
                if path == "__aim/apg_recorder.js":
                    _send(self, 200, (AIM_DIR / "apg_recorder.js").read_bytes(), "text/javascript")
                    return
                file = (APG_DIR / path).resolve()
                if APG_DIR not in file.parents or not file.is_file():
                    _send(self, 404, b"not here", "text/plain")
                    return
                body = file.read_bytes()
                kind = _KINDS.get(file.suffix, "application/octet-stream")
                if file.suffix == ".html":
                    body = _FOREIGN.sub(b"", body)
                    body = re.sub(rb"<head>", b'<head><script src="/__aim/apg_recorder.js"></script>', body, count=1)
                _send(self, 200, body, kind)

        return Handler


_KINDS = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".json": "application/json",
}


def _send(handler: http.server.BaseHTTPRequestHandler, status: int, body: bytes, kind: str) -> None:
    handler.send_response(status)
    handler.send_header("Content-Type", kind)
    handler.send_header("Content-Length", str(len(body)))
    handler.send_header("Cache-Control", "no-store")
    handler.end_headers()
    handler.wfile.write(body)
