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

from collections import OrderedDict
from typing import Any, Final

from phonewire.devices.observed import Ring, cut
from phonewire.protocol.commands import MAX_LOG_ENTRIES, MAX_NETWORK_ENTRIES, MAX_PENDING_REQUESTS

#: Domains the first ``logs`` / ``network`` turn on for each app page.
LOG_ENABLE: Final[tuple[str, dict[str, Any]]] = ("Log.enable", {})
NETWORK_ENABLE: Final[tuple[str, dict[str, Any]]] = ("Network.enable", {"maxPostDataSize": 0})


def _remote_text(arg: dict[str, Any]) -> str:
    """A console argument as the console shows it (a string bare, anything else by its value or description)."""
    if "value" in arg:
        value = arg["value"]
        return value if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else str(value)
    return str(arg.get("description") or arg.get("unserializableValue") or arg.get("type", ""))


class Observer:
    def __init__(self) -> None:
        self.logs = Ring(MAX_LOG_ENTRIES)
        self.requests = Ring(MAX_NETWORK_ENTRIES)
        self.log_domain = False
        self.network_domain = False
        self._pending: OrderedDict[tuple[str, str], dict[str, Any]] = OrderedDict()

    def on_event(self, method: str, params: dict[str, Any], app_id: str, session_id: str) -> None:
        if method == "Runtime.consoleAPICalled":
            text = " ".join(_remote_text(a) for a in params.get("args") or [])
            frame = ((params.get("stackTrace") or {}).get("callFrames") or [{}])[0]
            self._log("console", str(params.get("type", "log")), text, stamp=params.get("timestamp"),
                      url=frame.get("url"), app_id=app_id)  # fmt: skip
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
        entry: dict[str, Any] = {"time": _seconds(stamp, 1000), "kind": kind, "level": level, "text": cut(text)}
        if url:
            entry["url"] = cut(url)
        entry["app"] = app_id
        self.logs.append(entry)

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
