"""Editing on the web phone: keys pressed with modifiers (keys.py), text selected as a long press and its handles
would (select_text.js: a real selection, the page's ``selectionchange`` fires), and the phone's clipboard — the
browser's own, so a page's ``copy`` / ``paste`` handlers and ``navigator.clipboard`` see what ``clipboard set``
put there, and ``clipboard get`` reads what the page copied."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any, Final

from phonewire.devices.web import dialogs, js, keys, link_menu
from phonewire.devices.web.back import Buttons
from phonewire.devices.web.target import Page
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

_SELECT: Final = js.load("select_text.js")
#: The page reads and writes the clipboard as any page would; the device lends it the permissions for the call.
_READ: Final = "navigator.clipboard.readText()"
_CLIPBOARD_PERMISSIONS: Final = ("clipboard-read", "clipboard-write")


class Editing(Buttons):
    """Keys with modifiers, text selection and the clipboard."""

    #: The permission settings the phone was given (``permissions``), by W3C name: "granted", "denied", "prompt".
    _permission: dict[str, str]

    async def key_combo(self, app_id: str, key: str, modifiers: list[str]) -> dict[str, Any]:
        combo = "+".join([*modifiers, key])
        with self._mapped(app_id):
            page = self._live(app_id)
            dialogs.no_dialog(page, f"pressing {combo}")
            page.unsettled = True
            with self._may_close(page), dialogs.may_open(page):
                for event in keys.combo_events(key, modifiers, self.profile.platform):
                    await page.session.send("Input.dispatchKeyEvent", event)
            await self._settle(page)
            return {"message": f"pressed {combo}"}

    async def select_text(
        self, app_id: str, x: float, y: float, mode: str, *, start: int | None = None, end: int | None = None
    ) -> dict[str, Any]:
        with self._mapped(app_id):
            page = self._live(app_id)
            dialogs.no_dialog(page, "selecting text")
            page.unsettled = True
            call = f"({_SELECT})({x!r}, {y!r}, {json.dumps(mode)}, {int(start or 0)}, {int(end or 0)})"
            answer = await self._eval(page, call)
            await self._settle(page)
        if not isinstance(answer, dict) or "selected" not in answer:
            raise _refused(answer if isinstance(answer, dict) else {}, start, end)
        text = str(answer["selected"])
        shown = json.dumps(text if len(text) <= 80 else text[:79] + "…", ensure_ascii=False)
        return {"selected": text, "message": f"selected {shown} in {answer.get('where')}"}

    # -- the clipboard ---------------------------------------------------------------------------------------------
    async def _clipboard_page(self) -> Page:
        """The page in front (the app's, or the home screen): the one that has focus, as clipboard calls need."""
        page = self._foreground() or await self._ensure_home()
        if page.dialog is not None:
            raise dialogs.refused(page.dialog, "the clipboard cannot be reached")
        return page

    @contextlib.asynccontextmanager
    async def _lent_clipboard(self) -> AsyncIterator[None]:
        """The clipboard permissions granted for one call, then set back to what the phone was given."""
        cdp = self._cdp_live
        for name in _CLIPBOARD_PERMISSIONS:
            await cdp.send("Browser.setPermission", {"permission": {"name": name}, "setting": "granted"})
        try:
            yield
        finally:
            for name in _CLIPBOARD_PERMISSIONS:
                setting = self._permission.get(name, "prompt")
                with contextlib.suppress(Exception):
                    await cdp.send("Browser.setPermission", {"permission": {"name": name}, "setting": setting})

    async def _write_clipboard(self, page: Page, text: str) -> None:
        async with self._lent_clipboard():
            await self._eval(page, f"navigator.clipboard.writeText({json.dumps(text)})", await_promise=True)

    # -- the link menu a long press opens --------------------------------------------------------------------------
    async def _held_on_link(self, page: Page, href: str, text: str) -> None:
        """The system's link menu over the page (link_menu.py); a choice opens the link here or in a new tab (a
        new screen of the app, as a link with target=_blank opens one), or copies its address or text to the
        phone's clipboard."""

        async def open_here(url: str) -> None:
            await self._eval(page, f"location.assign({json.dumps(url)})")

        async def open_tab(url: str) -> None:
            # a click of a link the page did not write, as the browser's own menu makes it: with the user's
            # activation (so no popup blocker stops it), and the page as the new tab's opener
            script = f"(() => {{ const a = document.createElement('a'); a.href = {json.dumps(url)}; " \
                     "a.target = '_blank'; a.click(); })()"  # fmt: skip
            await page.session.send("Runtime.evaluate", {"expression": script, "userGesture": True})
            await self._await_screens(page)  # the reply sees the new tab, the app's new screen

        async def copy(value: str) -> None:
            await self._write_clipboard(page, value)

        opened = link_menu.menu(self.profile.platform, href, text, open_here=open_here, open_tab=open_tab, copy=copy)
        page.dialog, page.unsettled = opened, True

    async def get_clipboard(self) -> dict[str, Any]:
        with self._mapped():
            page = await self._clipboard_page()
            async with self._lent_clipboard():
                text = await self._eval(page, _READ, await_promise=True)
        text = str(text or "")
        return {"text": text, "message": f"the clipboard holds {_shown(text)}" if text else "the clipboard is empty"}

    async def set_clipboard(self, text: str) -> dict[str, Any]:
        with self._mapped():
            page = await self._clipboard_page()
            await self._write_clipboard(page, text)
        return {"message": f"the clipboard holds {_shown(text)}"}


def _shown(text: str) -> str:
    return json.dumps(text if len(text) <= 80 else text[:79] + "…", ensure_ascii=False)


def _refused(answer: dict[str, Any], start: int | None, end: int | None) -> ProtocolError:
    if answer.get("error") == "range":
        return ProtocolError(
            e.INVALID_REQUEST,
            f"characters {start}–{end} are past the end of the text ({answer.get('length')} characters)",
            "Offsets count from 0 in the element's text; snapshot shows the text.",
        )
    return ProtocolError(
        e.NOT_FOUND,
        "no text to select there",
        "Target a text or a text field (snapshot shows StaticText and TextField nodes).",
    )
