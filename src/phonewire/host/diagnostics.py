"""Diagnostics: one structured event per host decision, as JSON lines in a per-session file and in memory.

Every event is a flat JSON object with at least::

    {"ts": <unix seconds>, "session": <host session id>, "runner": <runner generation, 1-based>, "event": <kind>}

and the fields of its kind (docs/host.md lists them all).  The file is opened once, appended line by line and
flushed per event, so a crashed host still leaves a readable record.  :meth:`Diagnostics.recent` returns the
newest events from memory.

The default file is ``$PHONEWIRE_STATE_DIR/sessions/<session>.jsonl``; ``PHONEWIRE_STATE_DIR`` defaults to
``$XDG_STATE_HOME/phonewire`` (``~/.local/state/phonewire``).  That directory keeps the newest
:data:`KEEP_SESSION_FILES` session files.
"""

from __future__ import annotations

import collections
import json
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any, Final

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

    def __init__(self, session_id: str, path: Path | None, *, keep: int = DEFAULT_KEEP) -> None:
        self.session_id = session_id
        self.path = path
        self.runner_generation = 0
        self._events: collections.deque[dict[str, Any]] = collections.deque(maxlen=keep)
        self._file: IO[str] | None = None
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._file = path.open("a", encoding="utf-8")

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
            self._file.write(json.dumps(entry, separators=(",", ":"), default=str) + "\n")
            self._file.flush()
        return entry

    def recent(self, limit: int | None = None, *, event: str | None = None) -> list[dict[str, Any]]:
        """The newest events (oldest first), optionally only those of one kind."""
        items = [e for e in self._events if event is None or e["event"] == event]
        return items if limit is None else items[-limit:]

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def read_events(path: Path) -> list[dict[str, Any]]:
    """All events of a diagnostics file (for tools and tests)."""
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]
