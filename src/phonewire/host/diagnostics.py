"""Diagnostics: one structured event per host decision, as JSON lines in a per-session file and in memory.

Every event is a flat JSON object with at least::

    {"ts": <unix seconds>, "session": <host session id>, "runner": <runner generation, 1-based>, "event": <kind>}

and the fields of its kind (docs/host.md lists them all).  The file is opened once, appended line by line and
flushed per event, so a crashed host still leaves a readable record.  :meth:`Diagnostics.recent` returns the
newest events from memory.

The default file is ``$PHONEWIRE_STATE_DIR/sessions/<session>.jsonl``; ``PHONEWIRE_STATE_DIR`` defaults to
``$XDG_STATE_HOME/phonewire`` (``~/.local/state/phonewire``).  That directory keeps the newest
:data:`KEEP_SESSION_FILES` session files.

The record holds app URLs, ports and pids, so it is the owner's alone: directories are made 0700 and files
0600.  A session's file is bounded: past :data:`MAX_FILE_BYTES` it is rotated to ``<session>.old.jsonl``
(replacing the previous one), so a session keeps at most twice that on disk.

Diagnostics are best-effort.  A directory that cannot be made, a file that cannot be opened, a full disk or a
read-only file system never fails a command, a stop or a close: the file is given up (``write_error`` says why)
and events stay in memory.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any, Final

from phonewire.runtime import make_private_dir

DEFAULT_KEEP: Final = 2000

# event kinds
PREFLIGHT: Final = "preflight"
SEND_FAILED: Final = "sendFailed"
STATUS_RECOVERY: Final = "statusRecovery"
INVALIDATION: Final = "invalidation"
RETRY: Final = "retry"
STARTUP: Final = "startup"
LIFECYCLE_RESET: Final = "lifecycleReset"
RECORDED_FAILURE: Final = "recordedFailure"
RUNNER_STOPPED: Final = "runnerStopped"

#: Fields every event carries.
BASE_FIELDS: Final = ("ts", "session", "runner", "event")
#: The schema: the fields each kind may carry besides the base ones (docs/host.md documents each).
EVENT_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    PREFLIGHT: ("command", "app", "decision", "reason", "recencyAgeMs", "ok", "failure"),
    SEND_FAILED: ("command", "app", "commandId", "shape", "detail", "delivered", "action", "preflightSkipped",
                  "skipReason"),
    STATUS_RECOVERY: ("command", "app", "commandId", "state", "action", "reason", "probeError"),
    INVALIDATION: ("reason", "lifecycle", "reachable", "processAlive", "stop", "address"),
    RUNNER_STOPPED: ("pid", "how", "returncode", "tookMs"),
    RETRY: ("command", "commandId", "outcome", "attempt", "retry", "reason", "delayMs", "code"),
    STARTUP: ("phase", "device", "address", "pid", "phases", "code", "message"),
    LIFECYCLE_RESET: ("app", "confirmed", "failure"),
    RECORDED_FAILURE: ("command", "app", "successWithWarning", "reason"),
}  # fmt: skip
EVENT_KINDS: Final = tuple(EVENT_FIELDS)


def state_dir(environ: Mapping[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    explicit = env.get("PHONEWIRE_STATE_DIR")
    if explicit:
        return Path(explicit)
    xdg = env.get("XDG_STATE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".local" / "state"
    return base / "phonewire"


#: Session files kept in the default directory; older ones are removed when a new session starts.
KEEP_SESSION_FILES: Final = 100
#: A session file is rotated when it passes this size (one rotated generation is kept).
MAX_FILE_BYTES: Final = 1024 * 1024
_FILE_MODE: Final = 0o600


def default_path(session_id: str, environ: Mapping[str, str] | None = None) -> Path:
    return state_dir(environ) / "sessions" / f"{session_id}.jsonl"


def prune(directory: Path, keep: int = KEEP_SESSION_FILES) -> int:
    """Remove all but the ``keep`` newest ``*.jsonl`` files of ``directory``; returns how many were removed."""
    try:
        files = sorted(directory.glob("*.jsonl"), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return 0
    removed = 0
    for old in files[keep:]:
        try:
            old.unlink()
            removed += 1
        except OSError:
            pass
    return removed


class Diagnostics:
    """Append-only event log of one host session.  ``path=None`` keeps events in memory only."""

    def __init__(
        self, session_id: str, path: Path | None, *, keep: int = DEFAULT_KEEP, max_bytes: int = MAX_FILE_BYTES
    ) -> None:
        self.session_id = session_id
        self.path = path
        self.runner_generation = 0
        self.write_error: str | None = None
        self._max_bytes = max_bytes
        self._events: collections.deque[dict[str, Any]] = collections.deque(maxlen=keep)
        self._file: IO[str] | None = None
        self._size = 0
        if path is not None:
            try:
                make_private_dir(str(path.parent), narrow=True)
                self._open()
            except OSError as exc:
                self._give_up(exc)

    def _open(self) -> None:
        assert self.path is not None
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, _FILE_MODE)
        try:
            os.fchmod(fd, _FILE_MODE)  # a file left by an older version may be 0644
            self._size = os.fstat(fd).st_size
            self._file = os.fdopen(fd, "a", encoding="utf-8")
        except BaseException:
            os.close(fd)
            raise

    def _give_up(self, exc: OSError) -> None:
        self.write_error = f"diagnostics file {self.path} disabled: {exc.strerror or exc}"
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.close()
        self._file = None

    def record(self, event: str, **fields: Any) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "ts": round(time.time(), 6),
            "session": self.session_id,
            "runner": self.runner_generation,
            "event": event,
        }
        entry.update(fields)
        self._events.append(entry)
        if self._file is not None:
            line = json.dumps(entry, separators=(",", ":"), default=str) + "\n"
            try:
                if self._size + len(line) > self._max_bytes and self._size > 0:
                    self._rotate()
                self._file.write(line)
                self._file.flush()
                self._size += len(line.encode())
            except OSError as exc:
                self._give_up(exc)
        return entry

    def _rotate(self) -> None:
        assert self.path is not None and self._file is not None
        self._file.close()
        self._file = None
        self.path.replace(self.path.with_name(self.path.stem + ".old.jsonl"))
        self._open()

    def recent(self, limit: int | None = None, *, event: str | None = None) -> list[dict[str, Any]]:
        """The newest events (oldest first), optionally only those of one kind."""
        items = [e for e in self._events if event is None or e["event"] == event]
        return items if limit is None else items[-limit:]

    def close(self) -> None:
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.close()
            self._file = None


def read_events(path: Path) -> list[dict[str, Any]]:
    """All events of a diagnostics file (for tools and tests)."""
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]
