"""Helpers for the runner's black-box tests: start a real runner process, talk raw HTTP to it over loopback."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import h11

_ids = itertools.count(1)
#: The bearer token of every runner these helpers start (given in its environment); requests carry it by default.
TOKEN = secrets.token_urlsafe(32)
#: That token's header line, for tests that write a request head by hand.
AUTH_LINE = f"Authorization: Bearer {TOKEN}\r\n"


def new_id(prefix: str = "cmd") -> str:
    return f"{prefix}-{os.getpid()}-{next(_ids)}"


@dataclass
class RunnerProcess:
    proc: subprocess.Popen[str]
    port: int
    stderr_path: Path

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace")

    def stop(self) -> int:
        """Stop the runner (SIGTERM, then SIGKILL) and return its exit code."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        return self.proc.returncode


def runner_command(device: str = "double") -> list[str]:
    return [sys.executable, "-m", "phonewire", "runner", "--device", device]


def start_runner(
    device: str = "double", *, scale: float | None = None, port: int | None = None, env: dict[str, str] | None = None
) -> RunnerProcess:
    """Start a runner; its token is :data:`TOKEN` unless ``env`` says otherwise (``PHONEWIRE_RUNNER_TOKEN`` set to
    ``""``: the runner generates its own and writes the token file)."""
    environ = dict(os.environ)
    environ.pop("PHONEWIRE_TIME_SCALE", None)
    environ.pop("PHONEWIRE_RUNNER_PORT", None)
    environ["PHONEWIRE_RUNNER_TOKEN"] = TOKEN
    environ.update(env or {})
    env = environ
    if scale is not None:
        env["PHONEWIRE_TIME_SCALE"] = str(scale)
    if port is not None:
        env["PHONEWIRE_RUNNER_PORT"] = str(port)
    fd, name = tempfile.mkstemp(prefix="phonewire-runner-", suffix=".stderr")
    stderr_path = Path(name)
    with os.fdopen(fd, "w") as err:
        proc = subprocess.Popen(runner_command(device), stdout=subprocess.PIPE, stderr=err, text=True, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith("PHONEWIRE_RUNNER_LISTENING port="):
        proc.kill()
        proc.wait()
        raise AssertionError(f"runner did not come up: {line!r} {stderr_path.read_text()}")
    return RunnerProcess(proc, int(line.strip().split("=", 1)[1]), stderr_path)


@contextlib.contextmanager
def running(device: str = "double", *, scale: float | None = None) -> Iterator[RunnerProcess]:
    runner = start_runner(device, scale=scale)
    try:
        yield runner
    finally:
        runner.stop()
        runner.stderr_path.unlink(missing_ok=True)


# -- raw HTTP ----------------------------------------------------------------------------------------------------
@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def envelope(self) -> dict[str, Any]:
        value = json.loads(self.body)
        assert isinstance(value, dict)
        return value

    @property
    def code(self) -> str | None:
        env = self.envelope
        return None if env["ok"] else str(env["error"]["code"])

    @property
    def data(self) -> dict[str, Any]:
        env = self.envelope
        assert env["ok"] is True, env
        data = env["data"]
        assert isinstance(data, dict)
        return data


def connect(port: int, timeout: float = 10.0) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def read_all(sock: socket.socket) -> bytes:
    chunks = []
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


def exchange(
    port: int, raw: bytes, *, byte_by_byte: bool = False, half_close: bool = True, timeout: float = 10.0
) -> bytes:
    """Send ``raw`` (whole, or one byte per send), optionally half-close, and read until the runner closes."""
    with connect(port, timeout) as sock:
        try:
            if byte_by_byte:
                for i in range(len(raw)):
                    sock.sendall(raw[i : i + 1])
            else:
                sock.sendall(raw)
            if half_close:
                sock.shutdown(socket.SHUT_WR)
        except (BrokenPipeError, ConnectionResetError):
            pass
        return read_all(sock)


def parse_response(raw: bytes) -> Response:
    """Parse one HTTP response with h11 (client side); the runner must close right after it."""
    conn = h11.Connection(h11.CLIENT)
    conn.send(h11.Request(method="POST", target="/", headers=[("Host", "127.0.0.1"), ("Content-Length", "0")]))
    conn.send(h11.EndOfMessage())
    conn.receive_data(raw)
    conn.receive_data(b"")
    status, headers, body = 0, {}, bytearray()
    while True:
        event = conn.next_event()
        if isinstance(event, h11.Response):
            status = event.status_code
            headers = {k.decode().lower(): v.decode() for k, v in event.headers}
        elif isinstance(event, h11.Data):
            body += event.data
        elif isinstance(event, h11.EndOfMessage):
            break
        elif isinstance(event, h11.InformationalResponse):
            continue
        else:
            raise AssertionError(f"unexpected {event!r} in {raw!r}")
    return Response(status, headers, bytes(body))


def request_bytes(
    body: bytes, headers: list[tuple[str, str]] | None = None, *, method: str = "POST", token: str | None = TOKEN
) -> bytes:
    """One request; ``token`` goes in ``Authorization: Bearer`` (``None``: no Authorization header)."""
    head = [f"{method} / HTTP/1.1", "Host: 127.0.0.1"]
    if token is not None:
        head.append(f"Authorization: Bearer {token}")
    if headers is None:
        head.append(f"Content-Length: {len(body)}")
    else:
        head.extend(f"{k}: {v}" for k, v in headers)
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


def post_raw(port: int, body: bytes, **kwargs: Any) -> Response:
    return parse_response(exchange(port, request_bytes(body), **kwargs))


def post(port: int, command: str, **fields: Any) -> Response:
    obj: dict[str, Any] = {"command": command, **fields}
    if command not in ("status", "uptime") and "commandId" not in fields:
        obj["commandId"] = new_id(command)
    return post_raw(port, json.dumps(obj).encode())


def status(port: int) -> dict[str, Any]:
    return post(port, "status").data


def fate(port: int, command_id: str) -> dict[str, Any]:
    return post(port, "status", statusCommandId=command_id).data


def taps(port: int, app_id: str) -> int:
    return int(status(port)["device"]["taps"].get(app_id, 0))


def wait_for_state(port: int, state: str, limit_s: float = 30.0) -> dict[str, Any]:
    """Poll ``status`` until it reports ``state`` (a liveness bound, not a timing assertion)."""
    end = time.monotonic() + limit_s
    while True:
        current = status(port)
        if current["state"] == state:
            return current
        if time.monotonic() > end:
            raise AssertionError(f"runner never reached {state!r}; last status {current}")
        time.sleep(0.02)


def run_ok(port: int, command: str, **fields: Any) -> dict[str, Any]:
    """Send a command that must succeed; return its data."""
    return post(port, command, **fields).data
