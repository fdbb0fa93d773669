"""Run the ``phonewire`` CLI in-process or as a subprocess against a real daemon in a private directory."""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from procs import wait_gone

from phonewire.frontends.cli.main import main


@dataclass
class Result:
    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)


class Cli:
    def __init__(self, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.dir = tmp / "d"
        self.env = dict(os.environ)
        for name in ("PHONEWIRE_DEVICE", "PHONEWIRE_SESSION", "PHONEWIRE_RUNNER_ADDR"):
            self.env.pop(name, None)
            monkeypatch.delenv(name, raising=False)
        (tmp / "xdg").mkdir(mode=0o700, exist_ok=True)  # runtime files of runners these tests start (token files)
        extra = {
            "PHONEWIRE_DAEMON_DIR": str(self.dir),
            "PHONEWIRE_STATE_DIR": str(tmp / "state"),
            "XDG_RUNTIME_DIR": str(tmp / "xdg"),
        }
        self.env.update(extra)
        for k, v in extra.items():
            monkeypatch.setenv(k, v)
        self.monkeypatch = monkeypatch
        self.daemon_pids: set[int] = set()

    def setenv(self, name: str, value: str) -> None:
        self.env[name] = value
        self.monkeypatch.setenv(name, value)

    def __call__(self, *argv: str, stdin: str | None = None) -> Result:
        """In-process: ``main(argv)`` with stdout/stderr captured."""
        out, err = io.StringIO(), io.StringIO()
        if stdin is not None:
            self.monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(argv))
        self._note_daemon()
        return Result(code, out.getvalue(), err.getvalue())

    def sub(self, *argv: str, stdin: str | None = None) -> Result:
        """As a subprocess: ``python -m phonewire ...``."""
        proc = subprocess.run(
            [sys.executable, "-m", "phonewire", *argv],
            env=self.env,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=90,
            check=False,
        )
        self._note_daemon()
        return Result(proc.returncode, proc.stdout, proc.stderr)

    def daemon_pid(self) -> int | None:
        try:
            return int((self.dir / "daemon.pid").read_text())
        except (OSError, ValueError):
            return None

    def _note_daemon(self) -> None:
        pid = self.daemon_pid()
        if pid is not None:
            self.daemon_pids.add(pid)

    def stop(self) -> None:
        """Stop every daemon this test saw, by pid (SIGTERM: it stops its runners), and wait for it."""
        self._note_daemon()
        for pid in self.daemon_pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
            if not wait_gone(pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                wait_gone(pid, 5)


@contextlib.contextmanager
def cli_for(tmp: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Cli]:
    cli = Cli(tmp, monkeypatch)
    try:
        yield cli
    finally:
        cli.stop()


@contextlib.contextmanager
def web_cli(tmp_path_factory: pytest.TempPathFactory, name: str, *first: str) -> Iterator[Cli]:
    """A CLI with its own daemon whose web runner ``first`` (a command after ``--device web``) started; on the way
    out the daemon is stopped, and its runner must be gone with it."""
    with pytest.MonkeyPatch.context() as mp:
        cli = Cli(tmp_path_factory.mktemp(name), mp)
        runner_pid = None
        try:
            assert cli("--device", "web", *first).code == 0
            [runner_pid] = cli("daemon", "status", "--json").json()["data"]["runnerPids"]
            yield cli
        finally:
            cli.stop()
            if runner_pid is not None:
                assert wait_gone(runner_pid), "the daemon left its runner running"
