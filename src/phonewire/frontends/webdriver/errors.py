"""W3C WebDriver errors: the one table from phonewire error codes to W3C error codes, and the reply shape.

Every failure leaves the server as ``{"value": {"error", "message", "stacktrace"}}`` with the HTTP status the
W3C specification gives its error code (section 6.6, "Errors").  Two kinds of failure reach this module:

* a :class:`~phonewire.protocol.errors.ProtocolError` from the agent core, host or runner — its code is mapped by
  :data:`PHONEWIRE_TO_W3C` (every code in :data:`phonewire.protocol.errors.ALL_CODES` is there; a test checks);
* a :class:`WebDriverError` raised by the front end itself (an unknown session id, a bad capability, a route
  that does not exist).

``stacktrace`` never holds a Python traceback: it carries the phonewire code and hint, which is what a test author
can act on.

Error tree::

    Exception
     ├── ProtocolError(code, message, hint)   → PHONEWIRE_TO_W3C[code]
     └── WebDriverError(error, message)       → the W3C code it names
"""

from __future__ import annotations

import json
from typing import Any, Final

from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

# --- W3C error codes and their HTTP statuses (W3C WebDriver, "Errors" table) -----------------------------------
ELEMENT_CLICK_INTERCEPTED: Final = "element click intercepted"
ELEMENT_NOT_INTERACTABLE: Final = "element not interactable"
INVALID_ARGUMENT: Final = "invalid argument"
INVALID_SELECTOR: Final = "invalid selector"
INVALID_SESSION_ID: Final = "invalid session id"
JAVASCRIPT_ERROR: Final = "javascript error"
NO_SUCH_ALERT: Final = "no such alert"
NO_SUCH_ELEMENT: Final = "no such element"
NO_SUCH_WINDOW: Final = "no such window"
SESSION_NOT_CREATED: Final = "session not created"
STALE_ELEMENT_REFERENCE: Final = "stale element reference"
TIMEOUT: Final = "timeout"
UNEXPECTED_ALERT_OPEN: Final = "unexpected alert open"
UNKNOWN_COMMAND: Final = "unknown command"
UNKNOWN_ERROR: Final = "unknown error"
UNKNOWN_METHOD: Final = "unknown method"
UNSUPPORTED_OPERATION: Final = "unsupported operation"

W3C_STATUS: Final[dict[str, int]] = {
    ELEMENT_CLICK_INTERCEPTED: 400,
    ELEMENT_NOT_INTERACTABLE: 400,
    INVALID_ARGUMENT: 400,
    INVALID_SELECTOR: 400,
    INVALID_SESSION_ID: 404,
    JAVASCRIPT_ERROR: 500,
    NO_SUCH_ALERT: 404,
    NO_SUCH_ELEMENT: 404,
    NO_SUCH_WINDOW: 404,
    SESSION_NOT_CREATED: 500,
    STALE_ELEMENT_REFERENCE: 404,
    TIMEOUT: 500,
    UNEXPECTED_ALERT_OPEN: 500,
    UNKNOWN_COMMAND: 404,
    UNKNOWN_ERROR: 500,
    UNKNOWN_METHOD: 405,
    UNSUPPORTED_OPERATION: 500,
}

#: THE table: every phonewire error code → the W3C error a WebDriver client sees.
PHONEWIRE_TO_W3C: Final[dict[str, str]] = {
    # the request itself
    e.INVALID_REQUEST: INVALID_ARGUMENT,
    e.APP_UNKNOWN: INVALID_ARGUMENT,
    e.AMBIGUOUS_MATCH: INVALID_ARGUMENT,  # never from find (W3C takes the first match); a target naming several
    e.UNSUPPORTED_OPERATION: UNSUPPORTED_OPERATION,
    e.ALREADY_RECORDING: INVALID_ARGUMENT,  # mobile: recordStart while recording; recordStop finishes that one
    e.FLOW_INVALID: INVALID_ARGUMENT,  # mobile: flowRun of a flow that cannot run (nothing ran)
    e.FLOW_UNSUPPORTED: UNSUPPORTED_OPERATION,
    e.FLOW_TOO_LARGE: INVALID_ARGUMENT,
    e.FLOW_UNBOUNDED: INVALID_ARGUMENT,
    # the app (the "window" of a phone session)
    e.APP_BUNDLE_ID_REQUIRED: NO_SUCH_WINDOW,
    e.APP_NOT_AVAILABLE: NO_SUCH_WINDOW,
    e.APP_BACKGROUNDED: NO_SUCH_WINDOW,
    e.APP_CRASHED: NO_SUCH_WINDOW,  # the app's window is gone; the session's other apps are not
    # elements
    e.NOT_FOUND: NO_SUCH_ELEMENT,
    e.STALE_REF: STALE_ELEMENT_REFERENCE,
    e.ELEMENT_COVERED: ELEMENT_CLICK_INTERCEPTED,
    e.ELEMENT_MOVED: ELEMENT_CLICK_INTERCEPTED,  # what is at the element's point now is named in the message
    e.FRAME_CHANGED: STALE_ELEMENT_REFERENCE,  # the element's frame was removed or navigated: its document is gone
    e.KEYBOARD_COVERS: ELEMENT_CLICK_INTERCEPTED,  # the on-screen keyboard is over the point
    e.TEXT_INPUT_NOT_FOCUSED: ELEMENT_NOT_INTERACTABLE,
    # time
    e.COMMAND_TIMED_OUT: TIMEOUT,
    e.WAIT_TIMED_OUT: TIMEOUT,
    e.CLIENT_GONE: TIMEOUT,  # the command's deadline passed before it could start: nothing ran
    # the machinery behind the session: the message and stacktrace say which
    e.RUNNER_BUSY: UNKNOWN_ERROR,
    e.RUNNER_WEDGED: UNKNOWN_ERROR,
    e.RUNNER_UNAVAILABLE: UNKNOWN_ERROR,
    e.DEVICE_UNAVAILABLE: UNKNOWN_ERROR,
    e.TRANSPORT_FAILED: UNKNOWN_ERROR,
    e.COMMAND_IN_FLIGHT: UNKNOWN_ERROR,
    e.COMMAND_ALREADY_COMPLETED: UNKNOWN_ERROR,
    e.COMMAND_FAILED: UNKNOWN_ERROR,
    e.SNAPSHOT_FAILED: UNKNOWN_ERROR,
    e.XCTEST_RECORDED_FAILURE: UNKNOWN_ERROR,
    e.UNAUTHORIZED: UNKNOWN_ERROR,
}


class WebDriverError(Exception):
    """A failure the WebDriver front end itself detects, already in W3C terms."""

    def __init__(
        self, error: str, message: str, *, status: int | None = None, data: dict[str, Any] | None = None
    ) -> None:
        if error not in W3C_STATUS:
            raise ValueError(f"not a W3C error code: {error!r}")
        super().__init__(message)
        self.error = error
        self.message = message
        self.status = W3C_STATUS[error] if status is None else status
        #: The error's ``data`` (``unexpected alert open``: ``{"text": the dialog's message}``).
        self.data = data


def error_body(error: str, message: str, stacktrace: str = "", data: dict[str, Any] | None = None) -> bytes:
    value: dict[str, Any] = {"error": error, "message": message, "stacktrace": stacktrace}
    if data is not None:
        value["data"] = data
    return json.dumps({"value": value}, ensure_ascii=False).encode("utf-8", "backslashreplace")  # lone surrogates


def to_w3c(exc: Exception) -> tuple[int, bytes]:
    """THE exception-to-wire boundary: (HTTP status, body) for any failure.  An exception that is neither a
    ProtocolError nor a WebDriverError is a server bug: ``unknown error`` naming its type, no traceback."""
    if isinstance(exc, WebDriverError):
        return exc.status, error_body(exc.error, exc.message, data=exc.data)
    if isinstance(exc, ProtocolError):
        error = PHONEWIRE_TO_W3C.get(exc.code, UNKNOWN_ERROR)
        trace = f"phonewire {exc.code}" + (f": {exc.hint}" if exc.hint else "")
        return W3C_STATUS[error], error_body(error, exc.message, trace)
    return 500, error_body(UNKNOWN_ERROR, f"phonewire webdriver error: {type(exc).__name__}: {exc}")
