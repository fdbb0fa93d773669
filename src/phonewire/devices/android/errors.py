"""The one place where adb / uiautomator2 failures become protocol errors.

:func:`map_exception` is called by :meth:`AndroidDevice._run` for everything a worker thread raises, and the
result is raised ``from`` the original.  The order of the table is the order of specificity::

    ProtocolError                                   passed through unchanged (our own checks)
    HierarchyError (ours)                           SNAPSHOT_FAILED   the dump was not readable XML
    uiautomator2 exceptions
     ├── AccessibilityServiceAlreadyRegisteredError DEVICE_UNAVAILABLE  UiAutomation held by another client
     ├── InjectPermissionError                      DEVICE_UNAVAILABLE  the ROM refuses injected input
     ├── UiAutomationError (Launch…, NotConnected…) DEVICE_UNAVAILABLE  the on-device agent died / won't start
     ├── AdbShellError, ConnectError                DEVICE_UNAVAILABLE  adb lost the device
     ├── HTTPError                                  DEVICE_UNAVAILABLE  the on-device agent stopped answering
     ├── HierarchyEmptyError                        SNAPSHOT_FAILED
     ├── InputIMEError, AdbBroadcastError           COMMAND_FAILED      the agent's input method failed
     ├── AppNotFoundError                           APP_UNKNOWN
     └── RPCError, any other                        COMMAND_FAILED      the agent reported an error
    adbutils.AdbError (AdbTimeout, AdbConnection…)  DEVICE_UNAVAILABLE  adb lost the device / no adb server
    http.client.HTTPException, ConnectionError,
    TimeoutError, EOFError                          DEVICE_UNAVAILABLE  the agent's connection broke mid-call
    any other Exception                             COMMAND_FAILED

:data:`AGENT_LOST` and :data:`ADB_LOST` name the two DEVICE_UNAVAILABLE causes after which the device restarts its
agent before the next command (see :class:`~phonewire.devices.android.device.AndroidDevice`).
"""

from __future__ import annotations

import http.client
from dataclasses import dataclass
from typing import Final

import adbutils.errors as adb_errors
import uiautomator2.exceptions as u2_errors

from phonewire.devices.android.hierarchy import HierarchyError
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

AGENT_LOST: Final = "agent"
ADB_LOST: Final = "adb"
HELD: Final = "held"

_RESEND = "Re-observe (snapshot) before repeating a mutation: it may or may not have happened."

HINT_HELD: Final = (
    "Another UI-automation client holds the phone's UiAutomation service (Appium's UiAutomator2 server, another "
    "uiautomator2 session, Android Studio's Layout Inspector, or a `uiautomator dump` loop). Stop it, e.g. "
    "`adb shell am force-stop io.appium.uiautomator2.server`, then resend: phonewire restarts its agent on the "
    "next command."
)
HINT_AGENT: Final = (
    "The uiautomator2 agent on the phone died or stopped answering; phonewire restarts it on the next command, "
    "so resend after a moment. " + _RESEND
)
HINT_ADB: Final = (
    "adb lost the phone. Check the cable or network and that `adb devices` lists it as `device` (unlock it and "
    "accept the USB-debugging prompt if asked); the next command reconnects. " + _RESEND
)


@dataclass(frozen=True, slots=True)
class Mapped:
    error: ProtocolError
    cause: str | None  # AGENT_LOST / ADB_LOST / HELD when the device should restart its agent next time


def _device_unavailable(message: str, hint: str, cause: str) -> Mapped:
    return Mapped(ProtocolError(e.DEVICE_UNAVAILABLE, message, hint), cause)


def _detail(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    first = text[0] if text else ""
    return f"{type(exc).__name__}: {first[:300]}" if first else type(exc).__name__


def map_exception(exc: BaseException) -> Mapped:
    """The most specific protocol error for ``exc`` (see the module docstring for the table)."""
    if isinstance(exc, ProtocolError):
        return Mapped(exc, None)
    if isinstance(exc, HierarchyError):
        return Mapped(
            ProtocolError(
                e.SNAPSHOT_FAILED,
                f"the view hierarchy dump could not be read ({exc})",
                "Take the snapshot again; a screen in mid-transition can produce a broken dump.",
            ),
            None,
        )
    if isinstance(exc, u2_errors.AccessibilityServiceAlreadyRegisteredError):
        return _device_unavailable("UiAutomation is held by another client", HINT_HELD, HELD)
    if isinstance(exc, u2_errors.InjectPermissionError):
        return _device_unavailable(
            "the phone refuses injected input events",
            "Enable 'USB debugging (Security settings)' in Developer options (needed on Xiaomi/MIUI and some other "
            "ROMs), then resend.",
            AGENT_LOST,
        )
    if isinstance(exc, u2_errors.UiAutomationError):
        return _device_unavailable(f"the on-device agent is not running ({_detail(exc)})", HINT_AGENT, AGENT_LOST)
    if isinstance(exc, (u2_errors.AdbShellError, u2_errors.ConnectError, adb_errors.AdbError)):
        return _device_unavailable(f"adb lost the device ({_detail(exc)})", HINT_ADB, ADB_LOST)
    if isinstance(exc, (u2_errors.HTTPError, http.client.HTTPException, ConnectionError, TimeoutError, EOFError)):
        return _device_unavailable(f"the on-device agent stopped answering ({_detail(exc)})", HINT_AGENT, AGENT_LOST)
    if isinstance(exc, u2_errors.HierarchyEmptyError):
        return Mapped(
            ProtocolError(
                e.SNAPSHOT_FAILED,
                "the phone returned an empty view hierarchy",
                "The screen may be off, locked or mid-transition: wake and unlock the phone, then snapshot again.",
            ),
            None,
        )
    if isinstance(exc, (u2_errors.InputIMEError, u2_errors.AdbBroadcastError)):
        return Mapped(
            ProtocolError(
                e.COMMAND_FAILED,
                f"typing through the agent's input method failed ({_detail(exc)})",
                "The agent's keyboard (com.github.uiautomator/.AdbKeyboard) could not be installed or selected. "
                "Check that installing apps over USB is allowed, then resend.",
            ),
            None,
        )
    if isinstance(exc, u2_errors.AppNotFoundError):
        return Mapped(
            ProtocolError(e.APP_UNKNOWN, f"app not installed ({_detail(exc)})", "listApps shows the installed apps."),
            None,
        )
    if isinstance(exc, u2_errors.BaseException):
        return Mapped(
            ProtocolError(
                e.COMMAND_FAILED,
                f"the on-device agent reported an error ({_detail(exc)})",
                "Re-observe (snapshot) and try a different approach.",
            ),
            None,
        )
    return Mapped(
        ProtocolError(
            e.COMMAND_FAILED,
            f"the Android backend failed ({_detail(exc)})",
            "Re-observe (snapshot) before retrying.",
        ),
        None,
    )
