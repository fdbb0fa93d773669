"""What a device observed on the side of the commands: console messages, page errors, logcat lines, requests.

A :class:`Ring` keeps the newest ``capacity`` entries, each stamped with a ``seq`` that only grows.  Readers
hold their own cursor (``since``: the ``next`` of their previous read), so the runner keeps no per-reader state and
two readers — an agent's ``logs`` and a trace recorder — never take entries from each other.  A reader that fell
more than ``capacity`` entries behind is told how many it missed (``dropped``).

Bounded in bytes too: an entry's text or URL is cut at MAX_ENTRY_CHARS characters, visibly (:func:`cut`), and a
read answers at most MAX_OBSERVED_REPLY_BYTES of entries, the newest; ``truncated`` counts the older ones it left
out (a reader's next read starts after the newest, so they are missed like the ``dropped`` ones).

An entry may be kept undecoded (:meth:`Ring.append_raw`: the bytes a device received) and made an entry only
when a read reaches it: a page that logs 10 000 lines costs the decoding of the ones a reader gets, not of all.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any, Final

from phonewire.protocol.commands import MAX_ENTRY_CHARS, MAX_OBSERVED_REPLY_BYTES
from phonewire.protocol.envelope import encode_json


def cut(text: object, limit: int = MAX_ENTRY_CHARS) -> str:
    """``text`` as a string of at most ``limit`` characters; a cut one ends with ``…[truncated: N chars]`` (``N``: the
    whole text's length), or just ``…`` when ``limit`` is too small for that."""
    out = str(text)
    if len(out) <= limit:
        return out
    marker = f"…[truncated: {len(out)} chars]"
    if len(marker) * 2 > limit:
        marker = "…"
    return out[: limit - len(marker)] + marker


#: The key of an entry kept undecoded (its bytes), until a read decodes it.
RAW: Final = "_raw"
Decode = Callable[[bytes], dict[str, Any]]
"""Bytes kept by :meth:`Ring.append_raw` → the entry's fields (never raises)."""


class Ring:
    def __init__(self, capacity: int, decode: Decode | None = None) -> None:
        self._entries: deque[dict[str, Any]] = deque(maxlen=capacity)
        self._next = 0
        self._decode = decode

    @property
    def next(self) -> int:
        return self._next

    def append(self, entry: dict[str, Any]) -> None:
        self._entries.append({"seq": self._next, **entry})
        self._next += 1

    def append_raw(self, raw: bytes, **fields: Any) -> None:
        """Keep ``raw`` undecoded (with ``fields``, which ``keep`` filters read); the ring's ``decode`` makes it an
        entry when a read reaches it."""
        self._entries.append({"seq": self._next, **fields, RAW: raw})
        self._next += 1

    def skip(self, count: int) -> None:
        """``count`` entries that were never kept (dropped at their source): their numbers are used up, so a read
        since before them counts them as dropped."""
        self._next += max(0, count)

    def _decoded(self, entry: dict[str, Any]) -> dict[str, Any]:
        """``entry``, decoded in place if it was kept raw (so each is decoded once, whoever reads it)."""
        raw = entry.get(RAW)
        if raw is not None and self._decode is not None:
            fields = {k: v for k, v in entry.items() if k not in ("seq", RAW)}
            decoded = {"seq": entry["seq"], **self._decode(raw), **fields}
            entry.clear()
            entry.update(decoded)
        return entry

    def since(
        self,
        since: int,
        *,
        keep: Callable[[dict[str, Any]], bool] | None = None,
        max_bytes: int = MAX_OBSERVED_REPLY_BYTES,
    ) -> dict[str, Any]:
        """``{"entries": [...], "next": N, "dropped": k, "truncated": t}``: the entries with ``seq >= since`` that are
        still kept (and that ``keep`` accepts), the newest that fit in ``max_bytes`` of JSON (the newest always
        does); ``truncated`` counts the older ones left out for size."""
        # dropped: the numbers from ``since`` on that the ring no longer holds (pushed out, or skipped at the source)
        held = sum(1 for e in self._entries if e["seq"] >= since)
        entries = [e for e in self._entries if e["seq"] >= since and (keep is None or keep(e))]
        first, size = len(entries), 0
        while first > 0:  # from the newest; the older ones left out are never decoded
            size += len(encode_json(self._decoded(entries[first - 1]))) + 1  # the comma between entries
            if size > max_bytes and first < len(entries):
                break
            first -= 1
        return {"entries": [dict(e) for e in entries[first:]], "next": self._next,
                "dropped": max(0, self._next - max(since, 0) - held), "truncated": first}  # fmt: skip
