"""The phone's repertoire on iOS (issue 24), through WebDriverAgent's documented routes: the pasteboard
(``POST /session/S/wda/getPasteboard`` / ``setPasteboard``, base64 content of type ``plaintext``) and the
orientation (``POST /session/S/orientation`` ``{"orientation": "LANDSCAPE"}``) and the on-screen keyboard's dismissal
(``POST /session/S/wda/keyboard/dismiss``; a tap under the keyboard the last source showed, an
``XCUIElementTypeKeyboard``, is refused with KEYBOARD_COVERS — unverified on a live device, docs/ios.md).  WDA
reads the pasteboard only while it is in front (iOS 14's pasteboard rule): XCUITest brings it there for the call.
The rest of the repertoire (selection, keys with modifiers, location, connectivity, permissions) stays the base
class's UNSUPPORTED_OPERATION."""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, TypeVar

from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

T = TypeVar("T")

#: WDA's orientation names.
ORIENTATION: Final = {"portrait": "PORTRAIT", "landscape": "LANDSCAPE"}


class IosRepertoire:
    """What IosDevice adds for the repertoire (it provides the methods declared here)."""

    if TYPE_CHECKING:

        def _call(self, method: str, route: str, body: Any = None, *, timeout_s: float | None = None) -> Any: ...

        async def _run(self, work: Callable[[], T], *, source: bool = False) -> T: ...

        def _forget(self) -> None: ...

    async def get_clipboard(self) -> dict[str, Any]:
        raw = await self._run(lambda: self._call("POST", "/wda/getPasteboard", {"contentType": "plaintext"}))
        try:
            text = base64.b64decode(str(raw or ""), validate=True).decode()
        except (binascii.Error, UnicodeDecodeError) as exc:
            raise ProtocolError(e.COMMAND_FAILED, "WDA answered a pasteboard that is no UTF-8 text") from exc
        return {"text": text, "message": f"the clipboard holds {json.dumps(text, ensure_ascii=False)}"}

    async def set_clipboard(self, text: str) -> dict[str, Any]:
        content = base64.b64encode(text.encode()).decode("ascii")
        await self._run(
            lambda: self._call("POST", "/wda/setPasteboard", {"content": content, "contentType": "plaintext"})
        )
        return {"message": f"the clipboard holds {json.dumps(text, ensure_ascii=False)}"}

    async def rotate(self, orientation: str) -> dict[str, Any]:
        self._forget()
        await self._run(lambda: self._call("POST", "/orientation", {"orientation": ORIENTATION[orientation]}))
        return {"orientation": orientation, "message": f"rotated to {orientation}"}

    async def hide_keyboard(self) -> dict[str, Any]:
        self._forget()
        await self._run(lambda: self._call("POST", "/wda/keyboard/dismiss", {}))
        return {"hidden": True, "message": "dismissed the keyboard"}
