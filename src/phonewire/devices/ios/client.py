"""A small synchronous HTTP client for WebDriverAgent: one call = one HTTP exchange, each with its own timeout.

It knows WDA's envelope (``{"value": …, "sessionId": …}``) and its W3C error bodies (``{"value": {"error",
"message", "traceback"}}`` with the HTTP status WDA chose), and nothing of the wire protocol: failures are raised
as the exceptions below and become protocol errors in one place, :mod:`phonewire.devices.ios.errors`.

Error tree::

    WdaFailure
     ├── WdaError(status, error, message)   WDA answered with a W3C error body
     ├── WdaUnreachable                     nothing listens at the URL (connection refused / no route):
     │                                      the request never reached WDA, so nothing ran
     ├── WdaNoAnswer                        the request was sent but no (complete) reply came back in time
     │                                      (timeout, reset, closed mid-reply): its fate is unknown
     └── WdaBadReply                        a reply that is not WDA's JSON envelope

The calls run in a worker thread (the device wraps them in ``asyncio.to_thread``); the client holds no lock and
keeps no connection open between calls.
"""

from __future__ import annotations

import http.client
import json
import socket
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

#: Per-call timeouts in seconds (unscaled; the device multiplies them by PHONEWIRE_TIME_SCALE).
TIMEOUT_S: Final = 10.0
SOURCE_TIMEOUT_S: Final = 25.0
LAUNCH_TIMEOUT_S: Final = 25.0
MAX_REPLY_BYTES: Final = 64 * 1024 * 1024


class WdaFailure(Exception):
    """Base of every failure of a WDA call."""

    def __init__(self, method: str, path: str, message: str) -> None:
        super().__init__(f"{method} {path}: {message}")
        self.method = method
        self.path = path
        self.detail = message


class WdaError(WdaFailure):
    """WDA answered with a W3C error (``status`` is the HTTP status, ``error`` the W3C error string)."""

    def __init__(self, method: str, path: str, status: int, error: str, message: str) -> None:
        super().__init__(method, path, f"{status} {error}: {message}")
        self.status = status
        self.error = error
        self.message = message


class WdaUnreachable(WdaFailure):
    """No connection could be opened: WDA is not running at the URL.  The request was never sent."""


class WdaNoAnswer(WdaFailure):
    """The request went out but no complete reply came back (timeout, reset): whether it ran is unknown."""


class WdaBadReply(WdaFailure):
    """The reply is not WDA's JSON envelope."""


@dataclass(frozen=True, slots=True)
class Call:
    method: str
    path: str
    status: int


@dataclass(slots=True)
class WdaClient:
    """``base_url`` is canonical: ``http://HOST:PORT`` (see :func:`canonical_url`)."""

    base_url: str
    scale: float = 1.0
    #: Every call made, in order (for ``describe`` counts and tests that read the backend side).
    on_call: Callable[[Call], None] | None = None
    _host: str = field(init=False)
    _port: int = field(init=False)

    def __post_init__(self) -> None:
        parts = urllib.parse.urlsplit(self.base_url)
        self._host = parts.hostname or "127.0.0.1"
        self._port = parts.port or 80

    def request(self, method: str, path: str, body: Any = None, *, timeout_s: float = TIMEOUT_S) -> Any:
        """One exchange; returns the envelope's ``value``."""
        payload = None if body is None else json.dumps(body).encode("utf-8")
        headers = {"Accept": "application/json"}
        if payload is not None:
            headers["Content-Type"] = "application/json; charset=utf-8"
        conn = http.client.HTTPConnection(self._host, self._port, timeout=timeout_s * self.scale)
        try:
            try:
                conn.connect()
            except (ConnectionRefusedError, socket.gaierror, OSError) as exc:
                raise WdaUnreachable(method, path, f"cannot connect to {self.base_url} ({exc})") from exc
            try:
                conn.request(method, path, body=payload, headers=headers)
                response = conn.getresponse()
                raw = response.read(MAX_REPLY_BYTES + 1)
            except TimeoutError as exc:
                raise WdaNoAnswer(method, path, f"no reply within {timeout_s * self.scale:g} s") from exc
            except (OSError, http.client.HTTPException) as exc:
                raise WdaNoAnswer(method, path, f"the connection broke before the reply ({exc})") from exc
        finally:
            conn.close()
        if self.on_call is not None:
            self.on_call(Call(method, path, response.status))
        return self._value(method, path, response.status, raw)

    @staticmethod
    def _value(method: str, path: str, status: int, raw: bytes) -> Any:
        if len(raw) > MAX_REPLY_BYTES:
            raise WdaBadReply(method, path, f"reply larger than {MAX_REPLY_BYTES} bytes")
        try:
            envelope = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise WdaBadReply(method, path, f"HTTP {status} with a body that is not JSON ({raw[:80]!r})") from exc
        except RecursionError as exc:  # [[[[… deeper than Python's parser goes: no WDA sends that
            raise WdaBadReply(method, path, f"HTTP {status} with JSON nested too deeply ({raw[:40]!r}…)") from exc
        if not isinstance(envelope, dict) or "value" not in envelope:
            raise WdaBadReply(method, path, f"HTTP {status} without a value ({str(envelope)[:80]})")
        value = envelope["value"]
        error = value.get("error") if isinstance(value, dict) else None
        if status >= 400 or isinstance(error, str):
            message = str(value.get("message", "")) if isinstance(value, dict) else str(value)
            raise WdaError(method, path, status, str(error or "unknown error"), message)
        return value

    # -- convenience --------------------------------------------------------------------------------------------
    def get(self, path: str, *, timeout_s: float = TIMEOUT_S) -> Any:
        return self.request("GET", path, timeout_s=timeout_s)

    def post(self, path: str, body: Any = None, *, timeout_s: float = TIMEOUT_S) -> Any:
        return self.request("POST", path, {} if body is None else body, timeout_s=timeout_s)

    def delete(self, path: str, *, timeout_s: float = TIMEOUT_S) -> Any:
        return self.request("DELETE", path, timeout_s=timeout_s)


def canonical_url(arg: str) -> str:
    """``http://HOST:PORT`` with no path or trailing slash — the one name of a WDA (and the daemon's key).

    Raises ValueError for anything that is not an http URL with a host and a port."""
    parts = urllib.parse.urlsplit(arg.strip())
    if parts.scheme.lower() != "http" or not parts.hostname:
        raise ValueError(f"{arg!r} is not an http://HOST:PORT WebDriverAgent URL")
    try:
        port = parts.port
    except ValueError as exc:
        raise ValueError(f"{arg!r} has an invalid port") from exc
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(f"{arg!r} has a path; give only http://HOST:PORT")
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port or 80}"
