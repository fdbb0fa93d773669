"""Running phonewire's own scripts in a page: one evaluation, its value, and the one mapping of a script that the
page's code broke (it overrides DOM APIs, say) to COMMAND_FAILED with a hint."""

from __future__ import annotations

from typing import Any

from phonewire.devices.web.cdp import CdpSession
from phonewire.devices.web.walk import FOCUS_PROBE
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError


async def evaluate(
    session: CdpSession, expression: str, *, await_promise: bool = False, context: int | None = None
) -> Any:
    """The value of ``expression`` in the session's page (``context``: in that execution context of it, a frame's)."""
    params: dict[str, Any] = {"expression": expression, "returnByValue": True, "awaitPromise": await_promise}
    if context is not None:
        params["contextId"] = context
    result = await session.send("Runtime.evaluate", params)
    if "exceptionDetails" in result:
        details = result["exceptionDetails"]
        text = details.get("exception", {}).get("description") or details.get("text", "script error")
        raise ProtocolError(
            e.COMMAND_FAILED,
            f"in-page script failed: {str(text)[:300]}",
            "The page's own scripts broke phonewire's in-page check (they override DOM APIs?). Take a "
            "screenshot to see the screen; relaunching the app may help.",
        )
    return result.get("result", {}).get("value")


async def require_focus(session: CdpSession, context: int | None = None) -> str:
    """The kind of the editable element that has focus (in ``context``'s document, a frame's, if given);
    TEXT_INPUT_NOT_FOCUSED when none has."""
    kind = await evaluate(session, FOCUS_PROBE, context=context)
    if kind in ("readonly", "disabled"):
        # a date picker's field (readonly) or a form a popup disabled: the field has focus but takes no typing
        raise ProtocolError(
            e.TEXT_INPUT_NOT_FOCUSED,
            f"the focused field is {'read-only' if kind == 'readonly' else 'disabled'}: it takes no typing",
            "Its own widget sets it (a calendar or picker the tap opened: snapshot to see it), or something on "
            "screen disabled it (a popup or dialog: dismiss it first).",
        )
    if not kind:
        raise ProtocolError(
            e.TEXT_INPUT_NOT_FOCUSED,
            "no editable element has focus",
            "Tap a text field first (snapshot shows TextField / SearchField nodes), then type.",
        )
    return str(kind)
