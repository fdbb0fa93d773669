"""A hostile web page against the trace of the session that visits it, on the real runner and Chromium: its console
messages carry markup (the report must show them as text, never run them), and its login form sends the password
in a GET request's URL (the trace must not keep it: not in the request, not in any later step)."""

from __future__ import annotations

import http.server
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from web_runner import own_phone

from loopback import serve
from phonewire.frontends.cli.main import main as cli_main

pytestmark = pytest.mark.e2e

CHROMIUM = "/usr/bin/chromium"
PASSWORD = "hunter2-Zq9"
LOGIN = b"""<!doctype html><html><head><meta name="viewport" content="width=device-width"><title>Login</title></head>
<body><form action="/done" method="get">
<label>User <input id="u" name="u"></label><label>Password <input id="p" name="p" type="password"></label>
<button id="go">Sign in</button></form>
<script>
console.log('<img src=x id=pwn onerror="document.title=1">');
console.error('</pre></li><script>document.title="pwned"</scr' + 'ipt>');
</script></body></html>"""
DONE = b"""<!doctype html><html><head><meta name="viewport" content="width=device-width"><title>Done</title></head>
<body><h1>Welcome</h1></body></html>"""


class _Pages(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = DONE if self.path.startswith("/done") else LOGIN
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serve(_Pages) as base:
        yield base


@pytest.fixture(scope="module")
def recorded(site: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    base = tmp_path_factory.mktemp("hostile-trace")
    directory = base / "trace"
    with own_phone(base / "state", trace=directory) as phone:
        phone.open_url(site + "/login")
        phone.fill("id=u", "ann")
        phone.fill("id=p", PASSWORD)
        phone.tap("id=go")
        phone.wait("text=Welcome")
        phone.network()  # the agent's own read of the requests is traced as well
    yield directory


def test_a_password_a_get_form_puts_in_a_url_is_in_no_file_of_the_trace(recorded: Path) -> None:
    text = (recorded / "trace.jsonl").read_text()
    assert "/done?u=ann" in text  # the request was recorded ...
    assert "p=%5Bredacted%5D" in text or "p=[redacted]" in text  # ... with the password scrubbed
    for path in (p for p in recorded.rglob("*") if p.is_file()):
        assert PASSWORD.encode() not in path.read_bytes(), path


def test_console_markup_of_a_page_is_text_in_the_report(recorded: Path, tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    assert cli_main(["trace", "view", str(recorded), "-o", str(report)]) == 0
    assert "&lt;img src=x id=pwn" in report.read_text()
    dom = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", report.as_uri()],
        capture_output=True, text=True, timeout=60, check=True,
    ).stdout  # fmt: skip
    assert 'id="pwn"' not in dom
    assert "<title>phonewire trace:" in dom  # no script of the page renamed it
    assert dom.count("<script") == 1
