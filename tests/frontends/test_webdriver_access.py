"""Who may talk to ``phonewire webdriver`` (docs/webdriver.md, "Who may connect"), against the real server process
(no browser: ``/status`` and refusals start no phone).

* owner only (the default): a loopback peer of the server's own uid, a loopback ``Host``, no ``Origin``; a second
  Unix account is refused with 403 (run as root, which CI is; skipped otherwise — tests/runner/other_user.py);
* ``--allow-remote``: HTTP basic auth with ``PHONEWIRE_WEBDRIVER_CREDENTIALS`` on every request, else 401.
"""

from __future__ import annotations

import base64
import json
import os
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "runner"))
from other_user import other_user

CREDENTIALS = "grid:s3cret-for-this-test"


class Server:
    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "phonewire", "webdriver", "--port", "0", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().decode()
        assert line.startswith("PHONEWIRE_WEBDRIVER_READY port="), line
        self.port = int(line.split("=")[1])

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        assert self.proc.wait(30) == 0
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


def get_status(port: int, headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    status, value, _ = exchange(port, headers)
    return status, value


def exchange(port: int, headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any], Any]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/status", headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, json.load(reply)["value"], reply.headers
    except urllib.error.HTTPError as exc:
        with exc:
            return exc.code, json.load(exc)["value"], exc.headers


def basic(credentials: str) -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(credentials.encode()).decode()}


@pytest.fixture(scope="module")
def owner_only() -> Iterator[Server]:
    server = Server()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def remote() -> Iterator[Server]:
    server = Server("--allow-remote", env={"PHONEWIRE_WEBDRIVER_CREDENTIALS": CREDENTIALS})
    yield server
    server.stop()


def test_allow_remote_answers_401_without_or_with_wrong_credentials_and_200_with_them(remote: Server) -> None:
    status, value, headers = exchange(remote.port)
    assert (status, value["error"]) == (401, "unknown error")
    assert "credentials required: http://USER:PASSWORD@HOST:PORT" in value["message"]
    # the challenge: clients holding credentials (Java's, in a Grid relay node) send them only when challenged
    assert headers["WWW-Authenticate"].startswith('Basic realm="phonewire webdriver"')
    assert get_status(remote.port, basic("grid:wrong"))[0] == 401
    assert get_status(remote.port, {"Authorization": "Bearer " + CREDENTIALS})[0] == 401
    assert get_status(remote.port, {"Authorization": "Basic not-base64!"})[0] == 401
    status, value = get_status(remote.port, basic(CREDENTIALS))
    assert (status, value["ready"]) == (200, True)


def test_allow_remote_with_credentials_serves_any_host_header(remote: Server) -> None:
    """Behind a relay on another machine the Host names that machine: credentials decide, not the Host."""
    assert get_status(remote.port, {**basic(CREDENTIALS), "Host": "phones-1.lab.example:4723"})[0] == 200


def test_the_owner_is_served_but_a_web_page_or_a_foreign_host_name_is_refused(owner_only: Server) -> None:
    assert get_status(owner_only.port)[0] == 200
    status, value = get_status(owner_only.port, {"Origin": "http://evil.example"})
    assert status == 403 and "Origin" in value["message"]
    status, value = get_status(owner_only.port, {"Host": "evil.example"})
    assert status == 403 and "loopback" in value["message"]


INTRUDER = r"""
import json, socket, sys
with socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=30) as s:
    s.sendall(b"GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    data = b""
    while chunk := s.recv(65536):
        data += chunk
head, _, body = data.partition(b"\r\n\r\n")
print(json.dumps({"status": int(head.split(b" ", 2)[1]), "value": json.loads(body)["value"]}))
"""


def test_a_second_unix_account_on_loopback_is_refused_with_403(owner_only: Server) -> None:
    with other_user() as intruder:
        seen = intruder.python(INTRUDER, str(owner_only.port))
    assert seen["status"] == 403
    assert seen["value"]["message"] == "phonewire webdriver serves only the user who started it"
    assert get_status(owner_only.port)[0] == 200  # the owner still is


@pytest.mark.parametrize(
    ("args", "env", "complaint"),
    [
        (["--host", "0.0.0.0"], {}, "is not a loopback address; binding it needs --allow-remote"),
        (["--allow-remote"], {"PHONEWIRE_WEBDRIVER_CREDENTIALS": ""}, "--allow-remote needs"),
    ],
)
def test_serving_others_needs_allow_remote_and_its_credentials(
    args: list[str], env: dict[str, str], complaint: str
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "phonewire", "webdriver", "--port", "0", *args],
        capture_output=True, text=True, timeout=60, env={**os.environ, **env}, check=False,
    )  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    assert complaint in done.stderr
