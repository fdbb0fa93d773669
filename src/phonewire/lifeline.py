"""Every process phonewire starts dies with the process that started it; nothing is left behind.

Three layers, each covering what the one before cannot::

    parent                                     child (a runner, a query worker)
    ──────                                     ─────────────────────────────────
    spawn_options() ──fork──► preexec: PR_SET_PDEATHSIG(SIGTERM); parent already gone? exit at once
       │                      (Linux; kept across exec.  It fires when the parent *thread* that forked exits,
       │                       so a parent that forks from a worker thread relies on the pipe below)
       │  holds the write end of the lifeline pipe (never inherited by anything else)
       │                    ──► watch_parent(): a thread blocks reading the read end (fd in PHONEWIRE_LIFELINE_FD);
       │                        EOF = every holder of the write end is gone = the parent died, however (SIGKILL,
       │                        a crash, a setuid exec that dropped the death signal).  It asks the child to stop
       │                        (SIGTERM, the child's own graceful path) and ends it after GRACE_S regardless.
       │
    record(pid) ──► <runtime dir>/children/PID.json: the child's PID and start time, and its parent's
    sweep()     ──► at every start: a record whose parent (PID + start time, from /proc) is gone but whose child
                    (same PID, same start time, this user's) still runs — a child that was stopped (SIGSTOP) when
                    its parent died sees neither signal nor EOF — is SIGKILLed; the record is removed.  Never by
                    name: a PID alone may have been reused, a PID with its start time has not.

Imports only the standard library: the runner imports it before anything heavy.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

#: The environment variable that names the child's end of the lifeline pipe.
LIFELINE_ENV: Final = "PHONEWIRE_LIFELINE_FD"
#: How long a child whose parent died may take to stop by itself before it is ended (seconds).
GRACE_S: Final = 3.0
_PR_SET_PDEATHSIG: Final = 1

try:
    _LIBC: ctypes.CDLL | None = ctypes.CDLL("libc.so.6", use_errno=True)  # loaded here, never in a forked child
except OSError:  # not glibc Linux: the pipe still ties the child to its parent
    _LIBC = None

_lock = threading.Lock()
_pipe: tuple[int, int] | None = None  # (read end, write end) of this process's lifeline


def set_death_signal(signum: int) -> None:
    """``PR_SET_PDEATHSIG``: the kernel sends ``signum`` to this process when the thread that forked it exits."""
    if _LIBC is not None:
        _LIBC.prctl(_PR_SET_PDEATHSIG, int(signum), 0, 0, 0)


def _lifeline() -> tuple[int, int]:
    """This process's lifeline pipe, made once: every child gets the read end; the write end stays here (not
    inheritable), so it closes exactly when this process ends."""
    global _pipe
    with _lock:
        if _pipe is None:
            _pipe = os.pipe()  # both ends close-on-exec: a child gets the read end only through pass_fds
        return _pipe


def spawn_options(signum: int = signal.SIGTERM) -> dict[str, Any]:
    """Keyword arguments for ``subprocess.Popen`` / ``asyncio.create_subprocess_exec`` that tie the child to this
    process: ``preexec_fn`` (the death signal, and an exit if this process is already gone), ``pass_fds`` (the
    read end of the lifeline) and the ``env`` entry that names it — merge ``env_entry`` into the child's env."""
    read_end, _ = _lifeline()
    parent = os.getpid()

    def preexec() -> None:
        set_death_signal(signum)
        if os.getppid() != parent:  # the parent died between fork and prctl: nobody would signal us
            os._exit(1)

    return {"preexec_fn": preexec, "pass_fds": (read_end,)}


def env_entry() -> dict[str, str]:
    return {LIFELINE_ENV: str(_lifeline()[0])}


def watch_parent(on_lost: Callable[[], None] | None = None, environ: dict[str, str] | None = None) -> bool:
    """In a child: watch the lifeline the parent passed (``PHONEWIRE_LIFELINE_FD``) from a daemon thread.  When it
    breaks, call ``on_lost`` (default: SIGTERM to this process) and end the process after :data:`GRACE_S` if it
    is still running.  The variable is removed from the environment and the fd made close-on-exec, so nothing
    this child starts holds it.  False when no lifeline was passed (the child was started by hand)."""
    env = os.environ if environ is None else environ
    raw = env.pop(LIFELINE_ENV, "")
    if not raw.isdigit():
        return False
    fd = int(raw)
    try:
        os.set_inheritable(fd, False)
    except OSError:
        return False
    lost = on_lost or (lambda: os.kill(os.getpid(), signal.SIGTERM))

    def watch() -> None:
        while True:
            try:
                data = os.read(fd, 1)
            except InterruptedError:
                continue
            except OSError:
                data = b""
            if not data:
                break
        with contextlib.suppress(Exception):
            lost()
        ender = threading.Timer(GRACE_S, os._exit, args=(1,))
        ender.daemon = True
        ender.start()

    threading.Thread(target=watch, name="phonewire-lifeline", daemon=True).start()
    return True


# -- records and the sweep -------------------------------------------------------------------------------------
def start_time(pid: int) -> int | None:
    """The start time of ``pid`` (clock ticks since boot, /proc/PID/stat field 22), or None once it is gone or a
    zombie.  A PID with its start time names one process for good."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    if fields[0] in ("Z", "X"):
        return None
    return int(fields[19])


def _owner(pid: int) -> int | None:
    try:
        return Path(f"/proc/{pid}").stat().st_uid
    except OSError:
        return None


def _records_dir(environ: dict[str, str] | None = None) -> Path:
    from phonewire.runtime import make_private_dir, user_runtime_dir

    base = make_private_dir(user_runtime_dir(environ))  # first: makedirs would create it 0755 on the way
    return Path(make_private_dir(str(Path(base) / "children")))


def record(pid: int, environ: dict[str, str] | None = None) -> None:
    """Note that this process started ``pid`` (best effort: no record only means no sweep for it)."""
    child = start_time(pid)
    me = start_time(os.getpid())
    if child is None or me is None:
        return
    body = {"pid": pid, "start": child, "parent": os.getpid(), "parentStart": me}
    with contextlib.suppress(OSError):
        path = _records_dir(environ) / f"{pid}.json"
        tmp = path.with_suffix(".tmp")
        import json  # (here, not at the top: the browser's prestart imports this module and must stay light)

        tmp.write_text(json.dumps(body))
        tmp.replace(path)


def forget(pid: int, environ: dict[str, str] | None = None) -> None:
    with contextlib.suppress(OSError):
        (_records_dir(environ) / f"{pid}.json").unlink(missing_ok=True)


def sweep(environ: dict[str, str] | None = None) -> list[int]:
    """End what a dead parent of this user left running; answers the PIDs ended."""
    import json  # (see record)

    ended: list[int] = []
    try:
        paths = list(_records_dir(environ).glob("*.json"))
    except OSError:
        return ended
    uid = os.getuid()
    for path in paths:
        try:
            body = json.loads(path.read_text())
            pid, start = int(body["pid"]), int(body["start"])
            parent, parent_start = int(body["parent"]), int(body["parentStart"])
        except (OSError, ValueError, KeyError, TypeError):
            with contextlib.suppress(OSError):
                path.unlink()
            continue
        if start_time(parent) == parent_start:
            continue  # its parent still runs and owns it
        if start_time(pid) == start and _owner(pid) == uid:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
                ended.append(pid)
        with contextlib.suppress(OSError):
            path.unlink()
    return ended
