"""Shared set-up for the repro_*.py scripts (not collected by pytest: the names do not start with test_).

Each script expects the apps already served on loopback (see docs/realapps-findings-2.md, "Set-up"):
  DATASETTE_URL  default http://127.0.0.1:8731   (datasette serve db.sqlite, table `people`, 300 rows)
  TODOMVC_URL    default http://127.0.0.1:8732   (python3 -m http.server in node_modules/todomvc/examples)
and, for the third round (docs/realapps-findings-3.md, "Set-up"):
  FLASKADMIN_URL default http://127.0.0.1:8741   (Flask-Admin 2.2.1, the 120-book app in that doc)
  SWAGGER_URL    default http://127.0.0.1:8742   (swagger-ui-dist served by python3 -m http.server, local spec)
  WAGTAIL_URL    default http://127.0.0.1:8743   (Wagtail 8.0.1 `wagtail start`, ArticlePage, 60 articles,
                                                  superuser admin / pass1234)
and for round 3b (the same doc, "Round 3b"):
  NICEGUI_URL    default http://127.0.0.1:8744   (NiceGUI 3.18.0, apps/nicegui_contacts.py, 150 contacts)
and for the fourth round (docs/realapps-findings-4.md, "Set-up"; apps/setup_round4.sh serves both):
  STREAMLIT_URL  default http://127.0.0.1:8751   (Streamlit 1.67.0, apps/streamlit_orders.py)
  GRADIO_URL     default http://127.0.0.1:8752   (Gradio 6.31.0, apps/gradio_quotes.py)
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

DATASETTE = os.environ.get("DATASETTE_URL", "http://127.0.0.1:8731")
TODOMVC = os.environ.get("TODOMVC_URL", "http://127.0.0.1:8732")
FLASKADMIN = os.environ.get("FLASKADMIN_URL", "http://127.0.0.1:8741")
SWAGGER = os.environ.get("SWAGGER_URL", "http://127.0.0.1:8742")
WAGTAIL = os.environ.get("WAGTAIL_URL", "http://127.0.0.1:8743")
NICEGUI = os.environ.get("NICEGUI_URL", "http://127.0.0.1:8744")
STREAMLIT = os.environ.get("STREAMLIT_URL", "http://127.0.0.1:8751")
GRADIO = os.environ.get("GRADIO_URL", "http://127.0.0.1:8752")
WAGTAIL_USER, WAGTAIL_PASSWORD = "admin", "pass1234"


def wagtail_login(phone: Any, path: str = "/admin/") -> None:
    """Open Wagtail's admin at path and sign in (the login form comes first)."""
    phone.open(f"{WAGTAIL}{path}")
    phone.wait("role=SecureTextField")
    phone.fill("role=TextField label=Username*", WAGTAIL_USER)
    phone.fill("role=SecureTextField", WAGTAIL_PASSWORD)
    phone.tap('role=Button label="Sign in"')
    phone.wait('role=Button label="Toggle sidebar"')


def ref_of(view_text: str, pattern: str, nth: int = 0) -> str:
    """The @eN of the nth line of a snapshot text that matches the regex."""
    lines = [ln for ln in view_text.splitlines() if re.search(pattern, ln)]
    return lines[nth].split()[0]


class Timer:
    def __enter__(self) -> Timer:
        self.t = time.monotonic()
        return self

    def __exit__(self, *a: object) -> None:
        self.s = time.monotonic() - self.t


def verdict(ok: bool, what: str) -> None:
    print(("EXPECTED  " if ok else "FINDING   ") + what)


PHONEWIRE = str(Path(__file__).resolve().parents[3] / ".venv" / "bin" / "phonewire")


@contextlib.contextmanager
def webdriver_session(app: str, env: dict[str, str] | None = None) -> Iterator[Any]:
    """An Appium client session on ``app`` (a URL) through a ``phonewire webdriver`` of its own on a free loopback
    port; the session is quit and the server stopped (by its PID) however the block ends."""
    from appium import webdriver
    from appium.options.common.base import AppiumOptions

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [PHONEWIRE, "webdriver", "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )
    try:
        assert server.stdout is not None
        for line in server.stdout:
            if line.startswith("PHONEWIRE_WEBDRIVER_READY"):
                break
        o = AppiumOptions()
        o.load_capabilities({"platformName": "iOS", "appium:deviceName": "iPhone 15", "appium:app": app})
        d = webdriver.Remote(f"http://127.0.0.1:{port}", options=o)
        try:
            yield d
        finally:
            try:
                d.quit()
            except Exception as exc:
                print("quit:", type(exc).__name__, str(exc)[:120])
    finally:
        server.terminate()
        server.wait(30)
