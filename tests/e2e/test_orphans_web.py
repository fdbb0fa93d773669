"""Nothing is left behind (issue 28, finding 1): kill -9 of any process that starts others — the CLI daemon,
``phonewire webdriver``, the bridge, the MCP server, a runner — leaves none of the processes it started (runners,
their Chromium and its helpers) running.  Each test takes the whole tree under the parent from /proc (PID and start
time, so a reused PID is never mistaken for a survivor), SIGKILLs the parent, and polls /proc for up to 5 s: a bound
on a wait, not a timing assertion.  Survivors are SIGKILLed by PID afterwards, so a failing test leaves none."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_harness import Cli
from procs import children, command, stop_process

from phonewire.lifeline import start_time

pytestmark = pytest.mark.e2e

DEMO = "dev.phonewire.demo"
#: The bound on the wait for the tree to go (issue 28: "leaves 0 of its processes within 5 s").
GONE_WITHIN_S = 5.0

Tree = set[tuple[int, int]]


def tree(pid: int) -> Tree:
    """Every process under ``pid`` (children, theirs, …) as (PID, start time)."""
    found: Tree = set()
    todo = [pid]
    while todo:
        for child in children(todo.pop()):
            started = start_time(child)
            if started is not None:
                found.add((child, started))
                todo.append(child)
    return found


def running(procs: Tree) -> Tree:
    return {(pid, started) for pid, started in procs if start_time(pid) == started}


def wait_for_browser(pid: int, within_s: float = 60.0) -> Tree:
    """The tree under ``pid`` once a Chromium runs in it."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        procs = tree(pid)
        if any("chrom" in command(p) or "headless" in command(p) for p, _ in procs):
            return procs
        time.sleep(0.1)
    raise AssertionError(f"no browser appeared under {pid}: {[command(p) for p, _ in tree(pid)]}")


def left_after(procs: Tree) -> Tree:
    """What of ``procs`` still runs once the wait's bound passes (or at once, when nothing does)."""
    deadline = time.monotonic() + GONE_WITHIN_S
    while running(procs) and time.monotonic() < deadline:
        time.sleep(0.05)
    return running(procs)


@contextlib.contextmanager
def reaping(procs: Tree) -> Iterator[None]:
    """SIGKILL, by PID and start time, whatever of ``procs`` a failing test left."""
    try:
        yield
    finally:
        for pid, _ in running(procs):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PHONEWIRE_")}
    (tmp / "xdg").mkdir(mode=0o700, exist_ok=True)
    env["XDG_RUNTIME_DIR"] = str(tmp / "xdg")
    env["PYTHONUNBUFFERED"] = "1"
    return env


def _kill_and_check(parent: subprocess.Popen[bytes], procs: Tree) -> None:
    assert procs, "the parent started nothing"
    with reaping(procs):
        parent.kill()
        parent.wait(10)
        left = left_after(procs)
        assert not left, f"left running after kill -9 of the parent: {[(p, command(p)) for p, _ in left]}"
    stop_process(parent)


def test_kill_9_of_the_bridge_leaves_none_of_its_processes(tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "phonewire", "bridge", "--port", "0", "--device", "web", "--app", DEMO]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=_env(tmp_path))
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().startswith(b"PHONEWIRE_BRIDGE_READY port=")
        _kill_and_check(proc, wait_for_browser(proc.pid))
    finally:
        stop_process(proc)


def test_kill_9_of_the_mcp_server_leaves_none_of_its_processes(tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "phonewire", "mcp", "--device", "web", "--app", DEMO]
    proc = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=_env(tmp_path)
    )
    try:
        _kill_and_check(proc, wait_for_browser(proc.pid))
    finally:
        stop_process(proc)


def test_kill_9_of_the_webdriver_server_leaves_none_of_its_processes(tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "phonewire", "webdriver", "--port", "0"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=_env(tmp_path))
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().decode()
        assert line.startswith("PHONEWIRE_WEBDRIVER_READY port="), line
        url = f"http://127.0.0.1:{int(line.split('=')[1])}/session"
        body = json.dumps({"capabilities": {"alwaysMatch": {"platformName": "web"}}}).encode()
        request = urllib.request.Request(url, body, {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=90) as reply:
            assert json.load(reply)["value"]["sessionId"]
        _kill_and_check(proc, wait_for_browser(proc.pid))
    finally:
        stop_process(proc)


def test_kill_9_of_the_cli_daemon_leaves_none_of_its_processes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cli = Cli(tmp_path, monkeypatch)
    try:
        assert cli.sub("--device", "web", "open", DEMO).code == 0
        pid = cli.daemon_pid()
        assert pid is not None
        procs = wait_for_browser(pid)
        with reaping(procs):
            os.kill(pid, signal.SIGKILL)
            left = left_after(procs)
            assert not left, f"left running after kill -9 of the daemon: {[(p, command(p)) for p, _ in left]}"
    finally:
        cli.stop()


def test_kill_9_of_a_runner_leaves_none_of_its_browser_processes(tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "phonewire", "runner", "--device", "web"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=_env(tmp_path))
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().startswith(b"PHONEWIRE_RUNNER_LISTENING port=")
        _kill_and_check(proc, wait_for_browser(proc.pid))
    finally:
        stop_process(proc)
