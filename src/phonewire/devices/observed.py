"""What a device observed on the side of the commands: console messages, page errors, logcat lines, requests.

A :class:`Ring` keeps the newest ``capacity`` entries, each stamped with a ``seq`` that only grows.  Readers
hold their own cursor (``since``: the ``next`` of their previous read), so the runner keeps no per-reader state and
two readers — an agent's ``logs`` and a trace recorder — never take entries from each other.  A reader that fell
more than ``capacity`` entries behind is told how many it missed (``dropped``).
"""

from __future__ import annotations

from collections import deque
from typing import Any

from phonewire.protocol.commands import MAX_ENTRY_CHARS


def cut(text: object, limit: int = MAX_ENTRY_CHARS) -> str:
    """``text`` as a string of at most ``limit`` characters (a cut one ends with an ellipsis)."""
    out = str(text)
    return out if len(out) <= limit else out[: limit - 1] + "…"


class Ring:
    def __init__(self, capacity: int) -> None:
        self._entries: deque[dict[str, Any]] = deque(maxlen=capacity)
        self._next = 0

    @property
    def next(self) -> int:
        return self._next

    def append(self, entry: dict[str, Any]) -> None:
        self._entries.append({"seq": self._next, **entry})
        self._next += 1

    def since(self, since: int) -> dict[str, Any]:
        """``{"entries": [...], "next": N, "dropped": k}``: the entries with ``seq >= since`` that are still kept."""
        oldest = self._entries[0]["seq"] if self._entries else self._next
        entries = [dict(e) for e in self._entries if e["seq"] >= since]
        return {"entries": entries, "next": self._next, "dropped": max(0, min(oldest, self._next) - since)}
