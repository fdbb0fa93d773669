"""The one place where WebDriverAgent failures become protocol errors.

:func:`map_failure` is called by :meth:`IosDevice._run` for everything a worker thread raises; the result is
raised ``from`` the original.  Rows are tried top to bottom (most specific first)::

    ProtocolError                                      passed through (our own checks)
    SourceError (ours)                                 SNAPSHOT_FAILED     the page source was unreadable
    WdaUnreachable                                     DEVICE_UNAVAILABLE  WDA not running at the URL / crashed
    WdaNoAnswer                                        DEVICE_UNAVAILABLE  WDA stopped answering; fate unknown
    WdaBadReply                                        DEVICE_UNAVAILABLE  not WDA at that URL
    WdaError, by W3C error (and message)
     ├── invalid session id                            DEVICE_UNAVAILABLE  (only after one re-creation failed)
     ├── session not created                           DEVICE_UNAVAILABLE
     ├── any error whose message says "locked"         DEVICE_UNAVAILABLE  the phone is locked
     ├── any error whose message says "not installed"  APP_UNKNOWN
     ├── invalid element state + "keyboard must be present"  TEXT_INPUT_NOT_FOCUSED
     ├── no such alert                                 COMMAND_FAILED      the alert went away
     ├── invalid element state + "for alert"           COMMAND_FAILED      the alert has no button of that label
     ├── unknown command, unknown method               UNSUPPORTED_OPERATION  this WDA lacks the route
     ├── unsupported operation                         UNSUPPORTED_OPERATION
     ├── invalid argument                              INVALID_REQUEST
     ├── stale element reference (on /source)          SNAPSHOT_FAILED     the tree changed while WDA read it
     ├── unable to capture screen                      COMMAND_FAILED
     └── any other (unknown error, timeout …)          SNAPSHOT_FAILED for a source read, else COMMAND_FAILED
    any other Exception                                COMMAND_FAILED

:attr:`Mapped.lost` says the session should be dropped and WDA re-checked before the next command.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from phonewire.devices.ios.client import WdaBadReply, WdaError, WdaNoAnswer, WdaUnreachable
from phonewire.devices.ios.source import SourceError
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

_REOBSERVE: Final = "Re-observe (snapshot) before repeating a mutation: it may or may not have happened."

HINT_NOT_RUNNING: Final = (
    "Start WebDriverAgent on the phone (simulator: `xcodebuild test-without-building -scheme WebDriverAgentRunner "
    "-destination 'id=UDID'`; device: the same, or Xcode, plus `iproxy 8100 8100`) and check that `curl "
    "URL/status` answers ready; the next command reconnects."
)
HINT_NO_ANSWER: Final = (
    "WebDriverAgent stopped answering (it may be busy waiting for the app to idle, or its XCTest run crashed). "
    "Check `curl URL/status`; restart WebDriverAgentRunner if it does not answer. " + _REOBSERVE
)
HINT_LOCKED: Final = "Unlock the phone (WDA cannot drive a locked screen), then resend."
HINT_SESSION: Final = (
    "WebDriverAgent refused a new session. Check `curl URL/status`; restart WebDriverAgentRunner if it keeps refusing."
)


@dataclass(frozen=True, slots=True)
class Mapped:
    error: ProtocolError
    lost: bool  # drop the session and re-check WDA before the next command


def _with_url(hint: str, url: str) -> str:
    return hint.replace("URL", url)


def map_failure(exc: BaseException, *, url: str, source: bool = False) -> Mapped:
    """The most specific protocol error for ``exc`` (see the module docstring for the table).

    ``source`` is true when the failing call read the page source (unknown errors then mean SNAPSHOT_FAILED)."""
    if isinstance(exc, ProtocolError):
        return Mapped(exc, False)
    if isinstance(exc, SourceError):
        return Mapped(
            ProtocolError(
                e.SNAPSHOT_FAILED,
                f"WebDriverAgent's page source could not be read ({exc})",
                "Take the snapshot again; a screen in mid-transition can produce a broken source.",
            ),
            False,
        )
    if isinstance(exc, WdaUnreachable):
        return Mapped(
            ProtocolError(e.DEVICE_UNAVAILABLE, f"WebDriverAgent is not running at {url} ({exc.detail})",
                          _with_url(HINT_NOT_RUNNING, url)),
            True,
        )  # fmt: skip
    if isinstance(exc, WdaNoAnswer):
        return Mapped(
            ProtocolError(e.DEVICE_UNAVAILABLE, f"WebDriverAgent at {url} stopped answering ({exc.detail})",
                          _with_url(HINT_NO_ANSWER, url)),
            True,
        )  # fmt: skip
    if isinstance(exc, WdaBadReply):
        return Mapped(
            ProtocolError(e.DEVICE_UNAVAILABLE, f"the server at {url} does not answer like WebDriverAgent "
                          f"({exc.detail})", f"Check that {url} is WebDriverAgent's port (8100 by default)."),
            True,
        )  # fmt: skip
    if isinstance(exc, WdaError):
        return Mapped(_map_wda_error(exc, url, source), exc.error in ("invalid session id", "session not created"))
    return Mapped(
        ProtocolError(e.COMMAND_FAILED, f"the iOS backend failed ({type(exc).__name__}: {exc})",
                      "Re-observe (snapshot) before retrying."),
        False,
    )  # fmt: skip


def _map_wda_error(exc: WdaError, url: str, source: bool) -> ProtocolError:
    said = f"WebDriverAgent: {exc.error}: {exc.message.strip()[:300]}"
    message = exc.message.lower()
    if exc.error in ("invalid session id", "session not created"):
        return ProtocolError(e.DEVICE_UNAVAILABLE, said, _with_url(HINT_SESSION, url))
    if "locked" in message:
        return ProtocolError(e.DEVICE_UNAVAILABLE, said, HINT_LOCKED)
    if "not installed" in message:
        return ProtocolError(e.APP_UNKNOWN, said, "listApps shows the apps WDA sees; install the app first.")
    if exc.error == "invalid element state" and "keyboard must be present" in message:
        return ProtocolError(e.TEXT_INPUT_NOT_FOCUSED, said,
                             "Tap a text field first (the keyboard must be on screen), then resend.")  # fmt: skip
    if exc.error == "no such alert":
        return ProtocolError(e.COMMAND_FAILED, said, "The alert is gone: take a snapshot.")
    if exc.error == "invalid element state" and "for alert" in message:
        hint = "The alert on screen has no button of that label (another alert?): take a snapshot."
        return ProtocolError(e.COMMAND_FAILED, said, hint)
    if exc.error in ("unknown command", "unknown method", "unsupported operation"):
        return ProtocolError(
            e.UNSUPPORTED_OPERATION, said,
            f"This WebDriverAgent has no {exc.method} {exc.path.split('?')[0]}: update WebDriverAgent "
            "(appium/WebDriverAgent) or use another command.",
        )  # fmt: skip
    if exc.error == "invalid argument":
        return ProtocolError(e.INVALID_REQUEST, said, "Check the command's arguments (coordinates, app id, URL).")
    if source or exc.error == "stale element reference":
        return ProtocolError(
            e.SNAPSHOT_FAILED, said, "Take the snapshot again; if it keeps failing the tree may be too deep for WDA."
        )
    if exc.error == "unable to capture screen":
        return ProtocolError(e.COMMAND_FAILED, said, "Take the screenshot again; unlock the phone if it is locked.")
    return ProtocolError(e.COMMAND_FAILED, said, "Re-observe (snapshot) and try a different approach.")
