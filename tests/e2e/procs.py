"""Whether a process the tests started (or one it started) still runs, and which processes it started.  One definition
for every e2e test."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any


def alive(pid: int) -> bool:
    """True while ``pid`` runs.  A zombie has exited (it is only not reaped yet); our own child is reaped here.  A
    process whose main thread is a zombie while another of its threads is still exiting has not: its files (its
    listening socket) close with its last thread, and a client that connected in between is reset (a daemon killed
    under load: the next command's connection was reset instead of refused)."""
    try:
        reaped, _ = os.waitpid(pid, os.WNOHANG)
        if reaped == pid:
            return False
    except ChildProcessError:
        pass  # not our child
    fields = _stat(pid)
    if fields is None:
        return False
    if fields[0] not in ("Z", "X"):
        return True
    try:
        threads = [t.name for t in Path(f"/proc/{pid}/task").iterdir()]
    except OSError:
        return False
    return any((f := _stat(f"{pid}/task/{t}")) is not None and f[0] not in ("Z", "X") for t in threads)


def wait_gone(pid: int, within_s: float = 20.0) -> bool:
    """True once ``pid`` no longer runs, polling until ``within_s`` (a liveness bound, not a timing assertion)."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.05)
    return not alive(pid)


def _stat(pid: int | str) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (state, ppid, pgrp, …), or None once it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def children(pid: int) -> list[int]:
    """The PIDs of ``pid``'s direct children (any thread's), from /proc's parent links."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := _stat(entry.name)) is not None and int(fields[1]) == pid:
            found.append(int(entry.name))
    return found


def command(pid: int) -> str:
    """The command name of ``pid`` ("" once it is gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""
    return stat[stat.index("(") + 1 : stat.rindex(")")]


def stop_process(proc: subprocess.Popen[Any], grace_s: float = 20.0) -> int | None:
    """Stop a process the test started, by its PID: SIGTERM, SIGKILL after ``grace_s``; then close our ends of its
    pipes.  Answers its exit status."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(grace_s)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
    for pipe in (proc.stdin, proc.stdout, proc.stderr):
        if pipe is not None:
            pipe.close()
    return proc.returncode
