"""Console messages, page errors and network requests of the web device's app pages, from DevTools events.

The reader task hands every event of an app page to :meth:`Observer.on_event` (no I/O there).  Console messages
(``Runtime.consoleAPICalled``) and page errors (``Runtime.exceptionThrown``) arrive anyway — the Runtime domain is
on for every page — and go to a bounded :class:`~phonewire.devices.observed.Ring`; browser log entries
(``Log.entryAdded``: a failed load, a deprecation) need the Log domain, which the first ``logs`` turns on.  Requests
need the Network domain, which the first ``network`` turns on for every app page (and every page made after it):
a session that never asks pays nothing.  A request becomes an entry when it finishes or fails::

    requestWillBeSent ──► responseReceived ──► loadingFinished   → {method, url, status, size, ms, type}
                      └──────────────────────► loadingFailed     → {..., error}
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any, Final

from phonewire.devices.observed import Ring, cut
from phonewire.devices.web import js
from phonewire.protocol.commands import MAX_ENTRY_CHARS, MAX_LOG_ENTRIES, MAX_NETWORK_ENTRIES, MAX_PENDING_REQUESTS

#: The console event the device keeps undecoded (the pipe reader routes it here before decoding anything).
CONSOLE_API: Final = "Runtime.consoleAPICalled"
#: A console event up to this size is kept as bytes and decoded when a ``logs`` read reaches it; a larger one is
#: decoded (and its text cut) at once, so the ring holds at most this much per entry.
RAW_CONSOLE_BYTES: Final = 16 * 1024

#: The most console calls of one page a second that reach the log at once, and the most held for the end of that
#: second (console_budget.js): the ring keeps MAX_LOG_ENTRIES, so a page logging more is flooding; the calls past
#: both are dropped in the page and counted in the log's ``dropped`` (the page says how many in a line that starts
#: with CONSOLE_DROPPED, which the device reads as that count, never as an entry).
MAX_CONSOLE_PER_S: Final = MAX_LOG_ENTRIES
CONSOLE_DROPPED: Final = "\u2063phonewire: console calls dropped: "
#: Run in every page before its own scripts: its console on that budget, each string cut as the log keeps it.
CONSOLE_BUDGET_JS: Final = (
    f"({js.load('console_budget.js').strip()})({MAX_CONSOLE_PER_S}, {MAX_ENTRY_CHARS}, {json.dumps(CONSOLE_DROPPED)})"
)
#: Lets a page's held console calls through (before a read of the log: it never misses the newest).
CONSOLE_FLUSH: Final = 'window[Symbol.for("phonewire.consoleBudget")]?.()'
_DROPPED_RAW: Final = json.dumps(CONSOLE_DROPPED)[1:-1].encode()

#: Domains the first ``logs`` / ``network`` turn on for each app page.
LOG_ENABLE: Final[tuple[str, dict[str, Any]]] = ("Log.enable", {})
NETWORK_ENABLE: Final[tuple[str, dict[str, Any]]] = ("Network.enable", {"maxPostDataSize": 0})


def _remote_text(arg: dict[str, Any]) -> str:
    """A console argument as the console shows it (a string bare, anything else by its value or description)."""
    if "value" in arg:
        value = arg["value"]
        return value if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else str(value)
    return str(arg.get("description") or arg.get("unserializableValue") or arg.get("type", ""))


def console_entry(params: dict[str, Any]) -> dict[str, Any]:
    """A ``Runtime.consoleAPICalled`` event's entry fields (``app`` aside)."""
    text = " ".join(_remote_text(a) for a in params.get("args") or [])
    # the first frame with a URL: the page's own call, not the console budget's wrapper (an init script, no URL)
    frames = (params.get("stackTrace") or {}).get("callFrames") or []
    frame: dict[str, Any] = next((f for f in frames if f.get("url")), {})  # not shaped as Chromium's: raises
    return _log_fields("console", str(params.get("type", "log")), text, params.get("timestamp"), frame.get("url"))


def _decode_console(raw: bytes) -> dict[str, Any]:
    try:
        params = json.loads(raw).get("params") or {}
        return console_entry(params if isinstance(params, dict) else {})
    except (ValueError, AttributeError, TypeError, LookupError):  # not JSON, or not shaped like Chromium's events
        return _log_fields("console", "log", "[a console message that could not be read]", None, None)


def _log_fields(kind: str, level: str, text: str, stamp: Any, url: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"time": _seconds(stamp, 1000), "kind": kind, "level": level, "text": cut(text)}
    if url:
        entry["url"] = cut(url)
    return entry


class Observer:
    def __init__(self) -> None:
        self.logs = Ring(MAX_LOG_ENTRIES, decode=_decode_console)
        self.requests = Ring(MAX_NETWORK_ENTRIES)
        self.log_domain = False
        self.network_domain = False
        self._pending: OrderedDict[tuple[str, str], dict[str, Any]] = OrderedDict()

    def on_console(self, raw: bytes, app_id: str) -> None:
        """A console event of ``app_id``'s page, as the pipe delivered it: kept undecoded unless it is large; the
        page's count of calls it dropped (CONSOLE_DROPPED) counts among the ring's dropped entries."""
        if _DROPPED_RAW in raw:
            entry = _decode_console(raw)
            text = str(entry.get("text", ""))
            if text.startswith(CONSOLE_DROPPED) and text[len(CONSOLE_DROPPED) :].isdigit():
                self.logs.skip(int(text[len(CONSOLE_DROPPED) :]))
                return
        if len(raw) <= RAW_CONSOLE_BYTES:
            self.logs.append_raw(raw, app=app_id)
        else:
            self.logs.append({**_decode_console(raw), "app": app_id})

    def on_event(self, method: str, params: dict[str, Any], app_id: str, session_id: str) -> None:
        if method == CONSOLE_API:
            self.logs.append({**console_entry(params), "app": app_id})
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails") or {}
            exception = details.get("exception") or {}
            text = exception.get("description") or details.get("text") or "uncaught exception"
            self._log("error", "error", text, stamp=params.get("timestamp"), url=details.get("url"), app_id=app_id)
        elif method == "Log.entryAdded":
            entry = params.get("entry") or {}
            self._log("log", str(entry.get("level", "info")), entry.get("text", ""), stamp=entry.get("timestamp"),
                      url=entry.get("url"), app_id=app_id)  # fmt: skip
        elif method.startswith("Network.") and self.network_domain:
            self._network(method, params, app_id, session_id)

    def _log(self, kind: str, level: str, text: str, *, stamp: Any, url: Any, app_id: str) -> None:
        self.logs.append({**_log_fields(kind, level, text, stamp, url), "app": app_id})

    def _network(self, method: str, params: dict[str, Any], app_id: str, session_id: str) -> None:
        key = (session_id, str(params.get("requestId", "")))
        if method == "Network.requestWillBeSent":
            request = params.get("request") or {}
            if key in self._pending and params.get("redirectResponse"):  # a redirect ends the previous hop
                self._finish(key, status=(params["redirectResponse"] or {}).get("status"))
            self._pending[key] = {
                "time": _seconds(params.get("wallTime"), 1), "method": request.get("method", "GET"),
                "url": cut(request.get("url", "")), "type": params.get("type", "Other"), "app": app_id,
                "_t0": params.get("timestamp"),
            }  # fmt: skip
            while len(self._pending) > MAX_PENDING_REQUESTS:
                self._pending.popitem(last=False)
        elif method == "Network.responseReceived":
            pending = self._pending.get(key)
            if pending is not None:
                pending["status"] = (params.get("response") or {}).get("status")
        elif method == "Network.loadingFinished":
            self._finish(key, size=params.get("encodedDataLength"), t1=params.get("timestamp"))
        elif method == "Network.loadingFailed":
            self._finish(key, t1=params.get("timestamp"), error=params.get("errorText") or "failed")

    def _finish(self, key: tuple[str, str], *, status: Any = None, size: Any = None, t1: Any = None,
                error: str | None = None) -> None:  # fmt: skip
        pending = self._pending.pop(key, None)
        if pending is None:
            return
        t0 = pending.pop("_t0", None)
        entry = {**pending, "status": status if status is not None else pending.get("status", 0),
                 "size": int(size or 0)}  # fmt: skip
        entry["ms"] = (
            round((t1 - t0) * 1000, 1) if isinstance(t0, int | float) and isinstance(t1, int | float) else None
        )
        if error is not None:
            entry["error"] = cut(error)
        self.requests.append(entry)


def _seconds(stamp: Any, per_second: float) -> float | None:
    return round(stamp / per_second, 3) if isinstance(stamp, int | float) else None
