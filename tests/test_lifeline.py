"""phonewire.lifeline: the records a start sweeps (by PID and start time, never by name), and the lifeline pipe a
child watches.  Real processes (``sleep``), started and ended here by PID."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from phonewire import lifeline


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    (tmp_path / "xdg").mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "xdg"))
    return {"XDG_RUNTIME_DIR": str(tmp_path / "xdg")}


def _sleeper() -> subprocess.Popen[bytes]:
    return subprocess.Popen(["sleep", "60"])


def _dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def _write(env: dict[str, str], pid: int, start: int, parent: int, parent_start: int) -> Path:
    directory = Path(env["XDG_RUNTIME_DIR"]) / "phonewire" / "children"
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    directory.parent.chmod(0o700)
    path = directory / f"{pid}.json"
    path.write_text(json.dumps({"pid": pid, "start": start, "parent": parent, "parentStart": parent_start}))
    return path


def test_a_start_sweep_kills_the_child_of_a_dead_parent_and_drops_its_record(env: dict[str, str]) -> None:
    child = _sleeper()
    try:
        start = lifeline.start_time(child.pid)
        assert start is not None
        path = _write(env, child.pid, start, _dead_pid(), 1)
        assert lifeline.sweep(env) == [child.pid]
        assert child.wait(10) == -9
        assert not path.exists()
    finally:
        child.kill()
        child.wait()


def test_the_sweep_leaves_the_child_of_a_living_parent(env: dict[str, str]) -> None:
    child = _sleeper()
    try:
        start = lifeline.start_time(child.pid)
        me = lifeline.start_time(os.getpid())
        assert start is not None and me is not None
        path = _write(env, child.pid, start, os.getpid(), me)
        assert lifeline.sweep(env) == []
        assert child.poll() is None and path.exists()
    finally:
        child.kill()
        child.wait()


def test_the_sweep_never_kills_a_reused_pid(env: dict[str, str]) -> None:
    """Same PID, another start time: another process, which the record does not name."""
    child = _sleeper()
    try:
        start = lifeline.start_time(child.pid)
        assert start is not None
        path = _write(env, child.pid, start - 1, _dead_pid(), 1)
        assert lifeline.sweep(env) == []
        assert child.poll() is None and not path.exists()
    finally:
        child.kill()
        child.wait()


def test_record_and_forget_round_trip(env: dict[str, str]) -> None:
    child = _sleeper()
    try:
        lifeline.record(child.pid, env)
        path = Path(env["XDG_RUNTIME_DIR"]) / "phonewire" / "children" / f"{child.pid}.json"
        body = json.loads(path.read_text())
        assert body["parent"] == os.getpid() and body["start"] == lifeline.start_time(child.pid)
        assert oct(path.parent.parent.stat().st_mode & 0o777) == "0o700"
        lifeline.forget(child.pid, env)
        assert not path.exists()
    finally:
        child.kill()
        child.wait()


WATCHER = """
import sys, time
from phonewire import lifeline
assert lifeline.watch_parent()
print("watching", flush=True)
time.sleep(60)
"""


def test_a_child_whose_lifeline_breaks_ends_itself() -> None:
    """The middle process (spawned with the lifeline) is SIGKILLed; its child sees EOF and stops (SIGTERM to
    itself, the default action: it ends)."""
    middle_code = f"""
import subprocess, sys, os
from phonewire import lifeline
env = {{**os.environ, **lifeline.env_entry()}}
child = subprocess.Popen([sys.executable, "-c", {WATCHER!r}], env=env, stdout=sys.stdout,
                         pass_fds=lifeline.spawn_options()["pass_fds"])
print(child.pid, flush=True)
child.wait()
"""
    middle = subprocess.Popen([sys.executable, "-c", middle_code], stdout=subprocess.PIPE)
    assert middle.stdout is not None
    pid = int(middle.stdout.readline())
    try:
        assert middle.stdout.readline() == b"watching\n"
        started = lifeline.start_time(pid)
        middle.kill()
        middle.wait()
        deadline = time.monotonic() + 5  # a bound on the wait
        while lifeline.start_time(pid) == started and time.monotonic() < deadline:
            time.sleep(0.05)
        assert lifeline.start_time(pid) != started
    finally:
        if lifeline.start_time(pid) is not None:
            os.kill(pid, 9)
        middle.stdout.close()
