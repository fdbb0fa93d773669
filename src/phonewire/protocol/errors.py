"""Error codes of the wire protocol, and the one exception type that carries them.

Every failure that reaches an agent is a :class:`ProtocolError` with one of the codes below, a message, and
optionally a hint phrased for the agent operating the device.  Lower layers (CDP, adb, sockets) raise their
own exceptions; each boundary maps them to a ``ProtocolError`` with ``raise ... from exc``.

Error tree::

    Exception
     └── ProtocolError(code, message, hint)     the only error type that crosses a layer boundary
"""

from __future__ import annotations

from typing import Final

# --- v1 codes (reference protocol) -------------------------------------------------------------------
INVALID_REQUEST: Final = "INVALID_REQUEST"
APP_BUNDLE_ID_REQUIRED: Final = "APP_BUNDLE_ID_REQUIRED"
APP_NOT_AVAILABLE: Final = "APP_NOT_AVAILABLE"
APP_BACKGROUNDED: Final = "APP_BACKGROUNDED"
TEXT_INPUT_NOT_FOCUSED: Final = "TEXT_INPUT_NOT_FOCUSED"
UNSUPPORTED_OPERATION: Final = "UNSUPPORTED_OPERATION"
RUNNER_BUSY: Final = "RUNNER_BUSY"
RUNNER_WEDGED: Final = "RUNNER_WEDGED"
XCTEST_RECORDED_FAILURE: Final = "XCTEST_RECORDED_FAILURE"
SNAPSHOT_FAILED: Final = "SNAPSHOT_FAILED"
COMMAND_TIMED_OUT: Final = "COMMAND_TIMED_OUT"
COMMAND_FAILED: Final = "COMMAND_FAILED"

# --- phonewire extensions -------------------------------------------------------------------------------
#: The device behind the runner is gone (browser crashed, adb disconnected, on-device agent died).
DEVICE_UNAVAILABLE: Final = "DEVICE_UNAVAILABLE"
#: An app id that the device does not know (not installed, not a URL, not the bundled demo).
APP_UNKNOWN: Final = "APP_UNKNOWN"
#: A resend of a commandId that already completed and whose reply the journal did not retain (snapshot,
#: screenshot, or an envelope over 16 KB): the command ran once and is never executed again.
COMMAND_ALREADY_COMPLETED: Final = "COMMAND_ALREADY_COMPLETED"
#: The request lacked the runner's bearer token (or the bridge refused the peer): nothing ran (HTTP 401).
UNAUTHORIZED: Final = "UNAUTHORIZED"
#: Host side: the command's fate is unknown (reply lost and not recoverable); re-observe before acting.
TRANSPORT_FAILED: Final = "TRANSPORT_FAILED"
#: Host side: the command was accepted by the runner and is still executing.
COMMAND_IN_FLIGHT: Final = "COMMAND_IN_FLIGHT"
#: Host side: the runner could not be started or reached.
RUNNER_UNAVAILABLE: Final = "RUNNER_UNAVAILABLE"
#: Agent side: a ref from an older snapshot no longer names exactly one element on screen.
STALE_REF: Final = "STALE_REF"
#: Agent side: a selector matched more than one element.
AMBIGUOUS_MATCH: Final = "AMBIGUOUS_MATCH"
#: Agent side: a selector matched nothing.
NOT_FOUND: Final = "NOT_FOUND"
#: The target is on screen but something else (a drawer, a modal's backdrop) is where a tap on it would land;
#: nothing was sent.  The agent checks it against the snapshot; the web phone's runner also answers it for a
#: command that cannot run while a page's own JavaScript dialog covers the page.
ELEMENT_COVERED: Final = "ELEMENT_COVERED"
#: The gesture's point, hit-tested at the instant it was to be sent, would not reach the element it names: the
#: element moved (a scroll, an animation, a re-render) or something came over that point since the view was taken;
#: nothing was sent.  The message says what is there now.
ELEMENT_MOVED: Final = "ELEMENT_MOVED"
#: The gesture names an element of a frame of another origin (web) whose page changed under it: the frame was
#: removed (nothing was sent), or it navigated while the gesture was being sent (the touch went out once, to the
#: page the frame was leaving; it is not sent again).  The message says which.
FRAME_CHANGED: Final = "FRAME_CHANGED"
#: The gesture's point is under the phone's on-screen keyboard (it is up because a text field has focus): a tap
#: there would type, not reach the app; nothing was sent.  Dismiss it (``keyboard hide``, ``press back``) first.
KEYBOARD_COVERS: Final = "KEYBOARD_COVERS"
#: ``recordStart`` while the device records already (one recording at a time): nothing changed, the running
#: recording goes on; the message names its file.
ALREADY_RECORDING: Final = "ALREADY_RECORDING"
#: Agent side: ``wait`` ran out of time before the screen showed (or stopped showing) what it waited for.
WAIT_TIMED_OUT: Final = "WAIT_TIMED_OUT"
#: A page's renderer crashed, or was ended because it stopped answering (the web phone): the app is gone, the other
#: apps are unharmed; launching it again starts it anew.
APP_CRASHED: Final = "APP_CRASHED"
#: Host side: a mutating command whose caller has gone (hung up, or its deadline passed — e.g. the daemon was
#: stopped and resumed) is never started late: nothing was sent to the runner.
CLIENT_GONE: Final = "CLIENT_GONE"
#: Agent side: a flow file that cannot run as written (not YAML, a command's argument malformed, an unknown
#: variable); the message names the file and line; nothing ran.
FLOW_INVALID: Final = "FLOW_INVALID"
#: Agent side: a flow names a command phonewire does not run (the message lists those it does); nothing ran.
FLOW_UNSUPPORTED: Final = "FLOW_UNSUPPORTED"
#: Agent side: a flow file too large, nested too deeply, or expanding (YAML aliases) past the bounds; nothing ran.
FLOW_TOO_LARGE: Final = "FLOW_TOO_LARGE"
#: Agent side: a flow that would not end (``runFlow`` of a flow already running, a ``repeat`` past its bound, more
#: steps than a run may take); up front nothing runs, while running it stops there.
FLOW_UNBOUNDED: Final = "FLOW_UNBOUNDED"

#: Codes the runner itself can put on the wire (the v1 set plus the runner-side extensions).
RUNNER_CODES: Final = (
    INVALID_REQUEST,
    APP_BUNDLE_ID_REQUIRED,
    APP_NOT_AVAILABLE,
    APP_BACKGROUNDED,
    TEXT_INPUT_NOT_FOCUSED,
    UNSUPPORTED_OPERATION,
    RUNNER_BUSY,
    RUNNER_WEDGED,
    XCTEST_RECORDED_FAILURE,
    SNAPSHOT_FAILED,
    COMMAND_TIMED_OUT,
    COMMAND_FAILED,
    DEVICE_UNAVAILABLE,
    APP_UNKNOWN,
    COMMAND_ALREADY_COMPLETED,
    UNAUTHORIZED,
    ELEMENT_COVERED,
    ELEMENT_MOVED,
    FRAME_CHANGED,
    KEYBOARD_COVERS,
    ALREADY_RECORDING,
    APP_CRASHED,
)

#: Codes produced above the runner (host session and agent layer).
CLIENT_CODES: Final = (
    TRANSPORT_FAILED,
    COMMAND_IN_FLIGHT,
    RUNNER_UNAVAILABLE,
    STALE_REF,
    AMBIGUOUS_MATCH,
    NOT_FOUND,
    WAIT_TIMED_OUT,
    CLIENT_GONE,
    FLOW_INVALID,
    FLOW_UNSUPPORTED,
    FLOW_TOO_LARGE,
    FLOW_UNBOUNDED,
)

ALL_CODES: Final = RUNNER_CODES + CLIENT_CODES

#: The one code a client may retry blindly: nothing ran.
RETRYABLE_CODES: Final = frozenset({RUNNER_BUSY})


class ProtocolError(Exception):
    """A failure with a wire error code.  ``hint`` is phrased for the agent operating the device."""

    def __init__(self, code: str, message: str, hint: str | None = None, *, state_reset: bool = False) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.hint = hint
        #: The envelope's ``stateReset``: the device or runner restarted before this error, app state is gone.
        #: Not part of the error object on the wire (it is a top-level envelope field).
        self.state_reset = state_reset

    def __repr__(self) -> str:
        return f"ProtocolError({self.code!r}, {self.message!r}, hint={self.hint!r})"

    def to_wire(self) -> dict[str, str]:
        error = {"code": self.code, "message": self.message}
        if self.hint:
            error["hint"] = self.hint
        return error
