"""Loopback HTTP for the tests, written once: a server on 127.0.0.1 (a free port) run from a thread of the test
process, a folder served by it, and a free port for a process a test starts.  Used by tests/e2e, tests/devices/web,
tests/realapps and tests/grid_harness.py (tests/ is on ``sys.path`` through tests/conftest.py).

``serve(handler)`` yields the base URL ``http://127.0.0.1:PORT`` and stops the server (shutdown, close, thread
joined) when the block ends, however it ends.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any


class QuietFiles(http.server.SimpleHTTPRequestHandler):
    """Serves a folder (``directory=``) without logging each request to stderr."""

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextlib.contextmanager
def serve(handler: Callable[..., http.server.BaseHTTPRequestHandler], name: str = "loopback-http") -> Iterator[str]:
    """``handler`` on 127.0.0.1 (a free port) from a daemon thread; yields ``http://127.0.0.1:PORT``."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name=name, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


@contextlib.contextmanager
def serving(directory: Path, handler: type[QuietFiles] = QuietFiles, name: str = "loopback-files") -> Iterator[str]:
    """``directory`` over loopback HTTP; yields the base URL with its trailing ``/``."""
    with serve(functools.partial(handler, directory=str(directory)), name) as base:
        yield base + "/"


def free_port() -> int:
    """A loopback port nothing listens on right now (for a process that must be told its port)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
