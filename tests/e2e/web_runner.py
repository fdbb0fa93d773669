"""Helpers for the web end-to-end tests, written once: a real runner process, phones on it, and a loopback server
for the hostile pages.

``RunnerProc`` starts ``python -m phonewire runner --device KIND``, reads its ``PHONEWIRE_RUNNER_LISTENING``
line, sends commands as real HTTP POSTs over loopback, and is stopped by its PID (SIGTERM, then SIGKILL) in a
``finally``.  ``own_phone`` is a ``phonewire.Phone`` that starts (and stops) a runner and Chromium of its own;
``attached_phone`` is a ``phonewire.Phone`` attached to a ``RunnerProc`` that is already running (one browser for
many tests: every app is closed first, so the phone starts on the home screen).  ``HostileSite`` serves
tests/e2e/hostile/ on loopback from a thread of the test process.
"""

from __future__ import annotations

import contextlib
import http.client
import itertools
import json
import os
import secrets
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from procs import stop_process

import phonewire
from loopback import free_port, serving

__all__ = ["HostileSite", "RunnerProc", "SharedRunner", "attached_phone", "free_port", "own_phone", "runner_process"]

HOSTILE_DIR = Path(__file__).resolve().parent / "hostile"
_ids = itertools.count(1)


class RunnerProc:
    def __init__(self, device: str = "web", *, scale: float | None = None, env: dict[str, str] | None = None) -> None:
        environ = dict(os.environ)
        environ.pop("PHONEWIRE_RUNNER_PORT", None)
        environ.pop("PHONEWIRE_TIME_SCALE", None)
        self.token = secrets.token_urlsafe(32)
        environ["PHONEWIRE_RUNNER_TOKEN"] = self.token
        if scale is not None:
            environ["PHONEWIRE_TIME_SCALE"] = str(scale)
        environ.update(env or {})
        fd, name = tempfile.mkstemp(prefix="phonewire-e2e-", suffix=".stderr")
        self.stderr_path = Path(name)
        with os.fdopen(fd, "w") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "phonewire", "runner", "--device", device],
                stdout=subprocess.PIPE,
                stderr=err,
                stdin=subprocess.DEVNULL,
                text=True,
                env=environ,
            )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line.startswith("PHONEWIRE_RUNNER_LISTENING port="):
            self.stop()
            raise AssertionError(f"runner did not come up: {line!r}\n{self.stderr()}")
        self.port = int(line.strip().split("=", 1)[1])

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace")

    def send(self, command: str, app: str | None = None, *, timeout: float = 60, **fields: Any) -> dict[str, Any]:
        """One POST, one envelope.  Mutating commands get a fresh commandId unless one is given."""
        body: dict[str, Any] = {"command": command, **fields}
        if app is not None:
            body["appBundleId"] = app
        body.setdefault("commandId", f"e2e-{os.getpid()}-{next(_ids)}")
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            headers = {
                "Content-Type": "application/json",
                "Connection": "close",
                "Authorization": f"Bearer {self.token}",
            }
            conn.request("POST", "/", json.dumps(body), headers)
            reply = conn.getresponse()
            envelope = json.loads(reply.read())
        finally:
            conn.close()
        assert isinstance(envelope, dict)
        return envelope

    def ok(self, command: str, app: str | None = None, **fields: Any) -> dict[str, Any]:
        envelope = self.send(command, app, **fields)
        assert envelope["ok"] is True, envelope
        data = envelope["data"]
        assert isinstance(data, dict)
        return data

    def code(self, command: str, app: str | None = None, **fields: Any) -> str:
        envelope = self.send(command, app, **fields)
        assert envelope["ok"] is False, envelope
        return str(envelope["error"]["code"])

    def close_apps(self) -> None:
        """Terminate every app that runs (the phone is back on its home screen, as a fresh one starts)."""
        for app in self.ok("listApps")["apps"]:
            if app["state"] != "notRunning":
                self.ok("terminateApp", app["appBundleId"])

    def stop(self) -> int:
        code = stop_process(self.proc, 15)
        self.stderr_path.unlink(missing_ok=True)
        assert code is not None
        return code


class SharedRunner:
    """The session's runner; a new one replaces it if it stopped (a test that failed badly must not fail the rest)."""

    def __init__(self) -> None:
        self.current: RunnerProc | None = None

    def get(self) -> RunnerProc:
        if self.current is not None and self.current.proc.poll() is not None:
            self.current.stop()
            self.current = None
        if self.current is None:
            self.current = RunnerProc("web")
        return self.current

    def stop(self) -> None:
        if self.current is not None:
            self.current.stop()
            self.current = None


@contextlib.contextmanager
def runner_process(device: str = "web", **kwargs: Any) -> Iterator[RunnerProc]:
    runner = RunnerProc(device, **kwargs)
    try:
        yield runner
    finally:
        runner.stop()


@contextlib.contextmanager
def own_phone(state_dir: Path, device: str = "web", *, trace: Path | None = None) -> Iterator[phonewire.Phone]:
    """A ``phonewire.Phone`` that starts its own runner and browser (stopped when the block ends), with its state
    files under ``state_dir`` and no ``PHONEWIRE_RUNNER_ADDR`` to attach to, while the block runs."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PHONEWIRE_STATE_DIR", str(state_dir))
        mp.delenv("PHONEWIRE_RUNNER_ADDR", raising=False)
        with phonewire.Phone(device=device, trace=trace) as phone:
            yield phone


@contextlib.contextmanager
def attached_phone(runner: RunnerProc, state_dir: Path) -> Iterator[phonewire.Phone]:
    """A ``phonewire.Phone`` (a fresh agent session: its own refs, trace and diagnostics under ``state_dir``) on
    ``runner``, which keeps running after the block; every app is closed first."""
    runner.close_apps()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PHONEWIRE_STATE_DIR", str(state_dir))
        mp.setenv("PHONEWIRE_RUNNER_TOKEN", runner.token)
        with phonewire.Phone(runner=f"127.0.0.1:{runner.port}") as phone:
            yield phone


def attached_env(runner: RunnerProc) -> dict[str, str]:
    """What a process's environment needs to drive ``runner`` (which keeps running after it); every app is closed
    first.  For a process that records nothing, e.g. an exported test replayed on the session's runner."""
    runner.close_apps()
    return {"PHONEWIRE_RUNNER_ADDR": f"127.0.0.1:{runner.port}", "PHONEWIRE_RUNNER_TOKEN": runner.token}


class HostileSite:
    """tests/e2e/hostile/ over loopback HTTP, served from a thread of the test process."""

    def __init__(self) -> None:
        self._stack = contextlib.ExitStack()
        self.base = self._stack.enter_context(serving(HOSTILE_DIR, name="hostile-site"))

    def url(self, page: str) -> str:
        return self.base + page

    def close(self) -> None:
        self._stack.close()


class WebDriverServer:
    """A ``phonewire webdriver`` process on a free port (``url``), with more ``args`` and ``env`` if given, stopped
    by :meth:`stop`."""

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
        self.url = f"http://127.0.0.1:{int(line.split('=')[1])}"

    def stop(self) -> None:
        stop_process(self.proc, 30)


def node(phone: phonewire.Phone, ident: str) -> dict[str, object]:
    """The node of the current screen with this identifier."""
    return dict(next(n for n in phone.snapshot().nodes if n.get("identifier") == ident))
