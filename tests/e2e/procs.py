"""Whether a process the tests started (or one it started) still runs.  One definition for every e2e test."""

from __future__ import annotations

import os
import time
from pathlib import Path


def alive(pid: int) -> bool:
    """True while ``pid`` runs.  A zombie has exited (it is only not reaped yet); our own child is reaped here."""
    try:
        reaped, _ = os.waitpid(pid, os.WNOHANG)
        if reaped == pid:
            return False
    except ChildProcessError:
        pass  # not our child
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def wait_gone(pid: int, within_s: float = 20.0) -> bool:
    """True once ``pid`` no longer runs, polling until ``within_s`` (a liveness bound, not a timing assertion)."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.05)
    return not alive(pid)
