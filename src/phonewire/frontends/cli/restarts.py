"""What a daemon restart lost: the apps its sessions had open, kept in the daemon directory (``sessions.json``,
0600) so that the daemon started after another one ended — killed, crashed, stopped by its idle timeout — tells a
session that its app went with the old daemon, instead of answering as if nothing had happened::

    daemon A: a session opens app X ──► sessions.json {"pid": A, "apps": {"default<TAB>web": "X"}}
    daemon A ends (kill -9, idle, SIGTERM)        the runner and app X end with it
    daemon B starts ──► reads the file of pid A: lost = {"default<TAB>web": "X"}
    the first command of session default on web ──► its reply carries
        note: the daemon was restarted (the previous one, pid A, ended): app X of this session is no longer open …

``phonewire daemon stop`` removes the file: a restart asked for is no surprise.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Final

from phonewire.runtime import write_private_file

FILE: Final = "sessions.json"


class SessionApps:
    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.path = Path(directory) / FILE
        #: What the previous daemon's sessions had open: ``"NAME<TAB>DEVICE"`` → app id.
        self.lost: dict[str, str] = {}
        self.previous_pid: int | None = None
        self._saved: dict[str, str] = {}
        self._forgotten = False
        with contextlib.suppress(OSError, ValueError, TypeError, AttributeError):
            body = json.loads(self.path.read_text(encoding="utf-8"))
            pid = int(body["pid"])
            if pid != os.getpid():
                self.previous_pid = pid
                self.lost = {str(k): str(v) for k, v in body["apps"].items()}

    def created(self, name: str, device: str) -> str | None:
        """A session ``name`` on ``device`` was created now: the note for it, when the previous daemon's session of
        that name and device had an app open."""
        app = self.lost.pop(f"{name}\t{device}", None)
        if app is None:
            return None
        return (
            f"the daemon was restarted (the previous one, pid {self.previous_pid}, ended): app {app} of this session "
            f"is no longer open, and what it showed is gone. Open it again: `phonewire open {app}`."
        )

    def save(self, apps: dict[tuple[str, str], str | None]) -> None:
        """Keep what the sessions have open now (written only when it changed)."""
        current = {f"{name}\t{device}": app for (name, device), app in apps.items() if app}
        if current == self._saved or self._forgotten:
            return
        with contextlib.suppress(OSError):
            write_private_file(str(self.path), json.dumps({"pid": os.getpid(), "apps": current}))
            self._saved = current

    def forget(self) -> None:
        """The daemon stops because it was asked to: nothing is kept from here on."""
        self._forgotten = True
        self.lost.clear()
        self._saved = {}
        self.path.unlink(missing_ok=True)
