"""The real ``phonewire runner --device android:SERIAL`` process, with no phone attached, fails fast and clearly.

A tiny adb server stand-in on loopback answers the adb host protocol's ``host:devices`` request (the only request
discovery makes), so the runner talks to "an adb server" exactly as it would to the real one, without starting a
real adb daemon that would outlive the test.  ``ADBUTILS_ADB_PATH=/bin/false`` keeps adbutils from spawning one.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

RUNNER_MAIN = Path(__file__).resolve().parents[3] / "src" / "phonewire" / "runner" / "main.py"
pytestmark = pytest.mark.skipif(not RUNNER_MAIN.exists(), reason="the runner entry point is not built yet")


@contextmanager
def fake_adb_server(devices: str) -> Iterator[int]:
    """Serve ``host:devices`` → ``devices`` (adb's tab-separated list) on a loopback port until the block ends."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.2)
    stop = threading.Event()
    requests: list[str] = []

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with conn:
                conn.settimeout(5)
                length = int(conn.recv(4), 16)
                request = conn.recv(length).decode()
                requests.append(request)
                if request in ("host:devices", "host:devices-l"):
                    payload = devices.encode()
                    conn.sendall(b"OKAY" + f"{len(payload):04x}".encode() + payload)
                else:
                    message = b"unsupported by the test's adb stand-in"
                    conn.sendall(b"FAIL" + f"{len(message):04x}".encode() + message)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stop.set()
        thread.join(5)
        listener.close()
    assert requests, "the runner asked the adb server for its devices"


def run_runner(spec: str, adb_port: int) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("ANDROID_SERIAL", None)
    env.update(ANDROID_ADB_SERVER_PORT=str(adb_port), ADBUTILS_ADB_PATH="/bin/false", PHONEWIRE_RUNNER_PORT="0")
    # subprocess.run kills the runner if it outlives the timeout: a hang fails the test instead of blocking it.
    return subprocess.run(
        [sys.executable, "-m", "phonewire", "runner", "--device", spec],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_runner_with_no_adb_device_exits_with_a_clear_error_instead_of_serving() -> None:
    with fake_adb_server("") as port:
        result = run_runner("android:emulator-5554", port)
    assert result.returncode != 0
    assert "PHONEWIRE_RUNNER_LISTENING" not in result.stdout
    assert "no adb device with serial 'emulator-5554'" in result.stderr


def test_runner_with_an_unauthorized_device_says_so() -> None:
    with fake_adb_server("R58M123\tunauthorized\n") as port:
        result = run_runner("android", port)
    assert result.returncode != 0
    assert "adb device R58M123 is unauthorized" in result.stderr


def test_runner_without_an_adb_server_says_so() -> None:
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    closed_port = probe.getsockname()[1]
    probe.close()  # nothing listens there now
    result = run_runner("android:emulator-5554", closed_port)
    assert result.returncode != 0
    assert "adb server is not reachable" in result.stderr
