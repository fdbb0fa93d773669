"""The Android device's ``logs``: the logcat lines of the app's process, read with ``logcat -d -v threadtime``.

Pure parsing here (:func:`parse_threadtime`) plus the cursor rule (:class:`Follower`); the device runs the shell
commands.  A ``threadtime`` line is ``MM-DD hh:mm:ss.mmm  PID  TID L Tag: message`` (``L`` one of V D I W E F A);
buffer markers (``--------- beginning of main``) and anything else that does not parse are skipped.

Each read asks for the lines since the newest time stamp already taken (``-t 'MM-DD hh:mm:ss.mmm'``, which logcat
answers inclusively), and drops the lines of that very millisecond it already took — so two identical lines in the
same millisecond are both kept, and none is taken twice.  The first read of a process takes its last
:data:`FIRST_LINES` lines.  A new process of the app (a new PID) starts afresh.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Final

from phonewire.devices.observed import cut

FIRST_LINES: Final = 200
LEVELS: Final = {"V": "verbose", "D": "debug", "I": "info", "W": "warning", "E": "error", "F": "fatal", "A": "fatal"}
_LINE: Final = re.compile(
    r"^(?P<stamp>\d\d-\d\d \d\d:\d\d:\d\d\.\d{3})\s+(?P<pid>\d+)\s+(?P<tid>\d+)\s+(?P<level>[VDIWEFA])\s+"
    r"(?P<tag>.*?)\s*: (?P<message>.*)$"
)


def parse_threadtime(text: str) -> list[dict[str, Any]]:
    """The lines of ``logcat -v threadtime`` output: ``{stamp, pid, tid, level, tag, message, line}``."""
    out = []
    for raw in text.splitlines():
        match = _LINE.match(raw)
        if match is None:
            continue
        out.append({"stamp": match["stamp"], "pid": int(match["pid"]), "tid": int(match["tid"]),
                    "level": LEVELS[match["level"]], "tag": match["tag"], "message": match["message"],
                    "line": raw})  # fmt: skip
    return out


def logcat_command(pid: int, since_stamp: str | None) -> list[str]:
    return ["logcat", "-d", "-v", "threadtime", "--pid", str(pid), "-t", since_stamp or str(FIRST_LINES)]


@dataclass
class Follower:
    """What one process's logcat reads have taken so far."""

    pid: int
    stamp: str | None = None
    #: Lines of ``stamp``'s millisecond already taken, with their counts.
    taken: Counter[str] = field(default_factory=Counter)

    def command(self) -> list[str]:
        return logcat_command(self.pid, self.stamp)

    def new_lines(self, output: str) -> list[dict[str, Any]]:
        """The lines of ``output`` not taken before (in order), remembered as taken."""
        fresh = []
        seen_now: Counter[str] = Counter()
        for line in parse_threadtime(output):
            if line["pid"] != self.pid:
                continue
            if self.stamp is not None and line["stamp"] < self.stamp:
                continue
            if line["stamp"] == self.stamp:
                seen_now[line["line"]] += 1
                if seen_now[line["line"]] <= self.taken[line["line"]]:
                    continue
            fresh.append(line)
        for line in fresh:
            if line["stamp"] != self.stamp:
                self.stamp, self.taken = line["stamp"], Counter()
            self.taken[line["line"]] += 1
        return fresh


def entry(line: dict[str, Any], app_id: str) -> dict[str, Any]:
    """A logcat line as a ``logs`` entry."""
    return {"stamp": line["stamp"], "kind": "logcat", "level": line["level"],
            "text": cut(f"{line['tag']}: {line['message']}"), "pid": line["pid"], "tid": line["tid"],
            "app": app_id}  # fmt: skip
