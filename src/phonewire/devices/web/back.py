"""The web phone's buttons: home, and back in the order an Android phone uses (:meth:`Buttons._back`)."""

from __future__ import annotations

from typing import Any

from phonewire.devices.web import chooser, dialogs, gestures, js
from phonewire.devices.web.input import Inputs
from phonewire.devices.web.target import Page
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

#: The layers a back closes first, as the view describes them (``Dialog "Menu" id=drawer``): open dialogs, modals
#: and popovers that show; ``at``/``quiet``: when the DOM last changed structurally and whether it held still for
#: 100 ms before back (a page that keeps moving cannot tell that it answered Escape).  Called with ``at`` = null
#: before the Escape: read once the page has been still for 100 ms (an action just ran, a modal is still
#: mounting: findings 3, E15), or after 600 ms of a page that keeps moving; then with the first call's ``at``: read
#: two frames later, when the page's answer to the key has rendered, with ``changed`` = the DOM changed
#: structurally since (layers.js).
LAYERS_JS = js.load("layers.js")


class Buttons(Inputs):
    """The phone's own buttons."""

    # -- device-scoped ---------------------------------------------------------------------------------------------
    async def button(self, name: str) -> dict[str, Any] | None:
        with self._mapped():
            if name == "home":
                await self._front(None)
                return None
            if name == "back":
                page = self._foreground()
                if page is None:
                    return {"message": "already home", "back": "home"}  # back does nothing there, as on a phone
                return await self._back(page)
            raise ProtocolError(
                e.UNSUPPORTED_OPERATION,
                f"the web phone has no {name} button",
                "The web phone has home and back buttons only.",
            )

    async def hide_keyboard(self) -> dict[str, Any]:
        with self._mapped():
            page = self._foreground()
            if page is None or not page.keyboard or page.dialog is not None:
                return {"hidden": False, "message": "no keyboard was up"}
            await self._lower_keyboard(page)
            return {"hidden": True, "message": "hid the keyboard (the field lost focus)"}

    async def _back(self, page: Page) -> dict[str, Any]:
        """Back, in the order an Android phone uses: what the app would close first (a drawer or dialog is app
        state, not history: the page gets Escape, the key its dialogs and drawers close on), then the page's
        history, then the screen this one was opened from, and only then the app leaves for the home screen."""
        page.unsettled = True
        if page.dialog is not None:  # the dialog first: back is its Cancel
            dialog = await dialogs.answer(page, accept=False)
            title = dialog.title()
            return {"message": f"dismissed the {title} (Cancel)", "back": "closed", "closed": title}
        if page.chooser is not None:  # the file chooser's sheet: back is its Cancel too
            open_one, page.chooser = page.chooser, None
            await chooser.cancel(page.session, open_one)
            title = f'sheet "{open_one.title()}"'
            return {"message": f"dismissed the {title} (Cancel)", "back": "closed", "closed": title}
        if page.keyboard:  # the keyboard next, as on an Android phone
            await self._lower_keyboard(page)
            return {"message": "closed the keyboard (the field lost focus)", "back": "closed", "closed": "Keyboard"}
        before = await self._eval(page, f"({LAYERS_JS})(null)", await_promise=True)
        await gestures.key(page.session, gestures.KEYS["escape"][0])
        after = await self._eval(page, f"({LAYERS_JS})({float(before['at'])!r})", await_promise=True)
        closed = [layer for layer in before["layers"] if layer not in after["layers"]]
        await self._settle(page)
        if closed:
            return {"message": f"closed {closed[0]}", "back": "closed", "closed": closed[0]}
        if after["changed"] and before["quiet"]:
            # a drawer or menu that is no dialog: the page answered Escape by changing its screen
            return {"message": "the page closed what was open (it answered Escape)", "back": "closed"}
        history = await page.session.send("Page.getNavigationHistory")
        index = int(history.get("currentIndex", 0))
        entries = history.get("entries") or []
        if 0 < index < len(entries) + 1 and entries[index - 1].get("url") != "about:blank":
            previous = entries[index - 1]
            commits = page.commits
            await page.session.send("Page.navigateToHistoryEntry", {"entryId": previous["id"]})
            if await dialogs.asked_to_leave(page, commits, self._scale):
                return {"message": f"asked to go back to {previous.get('url')}", "back": "history",
                        "url": previous.get("url")}  # fmt: skip
            return {"message": f"went back to {previous.get('url')}", "back": "history", "url": previous.get("url")}
        if after["layers"]:
            return {
                "message": f"{after['layers'][0]} stays open: it did not close on Escape and the app has no history",
                "back": "stayed",
            }
        below = next((p for p in page.stack() if p is not page and not p.gone), None)
        if below is not None:
            # a screen opened by a link or window.open: it closes, the screen it came from shows again
            self._pop(page)
            await self._close_target(page, "closed by back")
            await self._front(below)
            return {"message": f"closed this screen; back to {below.url}", "back": "screen", "url": below.url}
        await self._front(None)  # nothing to close or go back to: the app goes to the background
        return {"message": "left the app: the home screen shows", "back": "home"}
