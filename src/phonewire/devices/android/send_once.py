"""uiautomator2's device object, made to send a gesture to the agent at most once.

uiautomator2 answers any ``HTTPError`` or ``UiAutomationNotConnectedError`` from the agent by restarting the agent
and sending the same JSON-RPC call again.  For a read that is harmless; for a gesture it can act twice, because an
``HTTPError`` also covers a non-200 reply from an agent that may already have performed the tap.  phonewire
promises that a mutation never happens twice, so for the gesture and key methods below the call is resent only
when it provably never reached the agent:

* the connection to the agent's port could not be opened (``HTTPError`` raised from an adb error while
  connecting), or
* the agent answered that UiAutomation was not connected (nothing was injected).

Every other failure of a gesture is raised as is; the device maps it (DEVICE_UNAVAILABLE, "re-observe before
repeating a mutation") and restarts the agent before the next command.
"""

from __future__ import annotations

from typing import Any, Final

import adbutils
import uiautomator2
import uiautomator2.core as u2_core
import uiautomator2.exceptions as u2_errors

#: JSON-RPC methods of the agent that change the screen (what uiautomator2's click, double_click, long_click,
#: swipe, drag, touch.*, press and clipboard typing send).
GESTURE_METHODS: Final = frozenset({
    "click", "swipe", "swipePoints", "drag", "injectInputEvent", "pressKey", "pressKeyCode", "pasteClipboard",
    "clearInputText",
})  # fmt: skip


def never_delivered(exc: BaseException) -> bool:
    """True when ``exc`` proves the call did not reach the agent (so sending it again cannot repeat it)."""
    if isinstance(exc, u2_errors.UiAutomationNotConnectedError):
        return True
    return isinstance(exc, u2_errors.HTTPError) and isinstance(exc.__cause__, adbutils.AdbError)


class SendOnceDevice(uiautomator2.Device):  # type: ignore[misc]  # uiautomator2 ships no type information
    def jsonrpc_call(self, method: str, params: Any = None, timeout: float = 10) -> Any:
        if method not in GESTURE_METHODS:
            return super().jsonrpc_call(method, params, timeout)
        try:
            return self._send(method, params, timeout)
        except (u2_errors.HTTPError, u2_errors.UiAutomationNotConnectedError) as exc:
            if not never_delivered(exc):
                raise
        self.stop_uiautomator()
        self.start_uiautomator()
        return self._send(method, params, timeout)

    def _send(self, method: str, params: Any, timeout: float) -> Any:
        return u2_core._jsonrpc_call(self._dev, self._device_server_port, method, params, timeout, self._debug)
