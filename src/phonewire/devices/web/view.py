"""What the web phone shows and keeps: the walk behind a snapshot (the walker primed while the screen settles, then
run: walk.py, settle.py), the viewport, the change mark of a reply's ``changed``, screenshots, and the logs,
requests and video of observe.py and screencast.py.  Also the round trip after an action (:meth:`Views._settle`)
that input.py and back.py end with."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Iterator
from functools import partial
from typing import Any

from phonewire.devices.base import Screenshot
from phonewire.devices.video import VideoWriter, already_recording, codec_for
from phonewire.devices.web import capture, chooser, dialogs, frames, js, keyboard, settle
from phonewire.devices.web.cdp import CdpDialogOpen, CdpError, CdpProtocolError, target_gone
from phonewire.devices.web.dialogs import Dialog
from phonewire.devices.web.marks import mark_selection
from phonewire.devices.web.observe import CONSOLE_FLUSH, LOG_ENABLE, NETWORK_ENABLE
from phonewire.devices.web.page_script import evaluate
from phonewire.devices.web.pages import MAX_SCREENS, Pages
from phonewire.devices.web.screencast import Recording
from phonewire.devices.web.target import Page
from phonewire.devices.web.walk import (
    CHANGE_MARK,
    DEFINE_WALKER,
    WALKER_MISSING,
    Probe,
    page_shown,
    snapshot_from_walk,
    walker_call,
)
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.request import css_image_size
from phonewire.protocol.snapshot import Rect, Snapshot, add_keyboard, keyboard_covers

#: How the page is shown: the walk's ``shown`` (walker.js), read alone.
_SHOWN_JS = (
    "(v => { const se = document.scrollingElement || document.documentElement; return {scale: v ? v.scale : 1, "
    "width: se.scrollWidth, height: se.scrollHeight, left: v ? v.pageLeft : scrollX, top: v ? v.pageTop : scrollY, "
    "visibleWidth: v ? v.width : innerWidth, visibleHeight: v ? v.height : innerHeight}; })(window.visualViewport)"
)
#: The screen in points: the visual viewport at its scale.
_SCREEN_JS = "(v => v ? [v.width * v.scale, v.height * v.scale] : [innerWidth, innerHeight])(window.visualViewport)"
_SELECTION_PROBE = js.load("selection.js")
_SELECTION = f"({_SELECTION_PROBE})()"


def windows_limited(snapshot: Snapshot, closed: int, blocked: int = 0) -> None:
    """Say in ``snapshot``'s quality that the app tried to open ``closed`` windows past its screens and they were
    closed (pages.MAX_SCREENS), and ``blocked`` windows past one per tap that the phone blocked (popups.js)."""
    quality: Any = snapshot["quality"]
    said = []
    if blocked:
        said.append(
            f"the app tried to open {blocked} window(s) more than one per tap; the phone blocked them, as a phone's "
            "browser blocks popups"
        )
    if closed:
        said.append(
            f"the app tried to open {closed} more window(s) than the phone keeps ({MAX_SCREENS} screens per app); "
            "they were closed unopened"
        )
    reason = "; ".join(said) + ". `back` leaves the screens it has"
    if quality.get("state") == "healthy":
        quality.update(state="degraded", reasonCode="windows_limited", reason=reason)
    else:
        quality["reason"] = f"{quality.get('reason')}; {reason}"


#: Ends an action in the page: its time marked (settle.ACTION_MARK), and whether the focused element wants the
#: keyboard now (keyboard.py), in one evaluation — the tap's answer runs it as its ``then`` too.
AFTER_ACTION = f"({settle.ACTION_MARK}, {keyboard.WANTED_OR_NULL_JS})"


class Views(Pages):
    """The screen as the agent reads it, and the helpers every action ends with."""

    # -- helpers for app-scoped commands ---------------------------------------------------------------------------
    async def _eval(self, page: Page, expression: str, *, await_promise: bool = False) -> Any:
        return await evaluate(page.session, expression, await_promise=await_promise)

    async def _walker(self, page: Page, probe: Probe | None = None, *, then: str = "") -> Any:
        """The walk, or with ``probe`` the aim of a gesture at that screen point (walk.py's :class:`Aim`), from the
        walker stored in the page (walk.py's walker_call), defined first where it is missing.  ``then``: a function
        expression called with the probe's answer in the same evaluation (what it returns is the value)."""
        document = page.documents
        wrap = (lambda call: f"({then})({call})") if then else (lambda call: call)
        if page.walker_in == document:
            value = await self._eval(page, wrap(walker_call(probe)), await_promise=probe is None)
            if value != WALKER_MISSING:
                return value
        value = await self._eval(page, wrap(walker_call(probe, define=True)), await_promise=probe is None)
        page.walker_in = document
        return value

    def _prime_walker(self, page: Page) -> asyncio.Future[None] | None:
        """In a document the walker is not defined in yet (a new screen after a launch or a navigation), define it
        now, while the snapshot waits for the screen to hold still: the page's main thread is idle then, and the
        walk that follows finds it compiled and ready (the first snapshot after a launch: 85.0 vs 89.8 ms p50, 16
        alternating starts; the walker's functions still compile on their first call)."""
        if page.walker_in == page.documents:
            return None
        document = page.documents

        async def define() -> None:
            await self._eval(page, DEFINE_WALKER)
            if page.documents == document:
                page.walker_in = document

        return asyncio.ensure_future(define())

    async def _settle(self, page: Page) -> None:
        """One round trip through the page's main thread after a gesture or key: events the page emitted while
        handling the input (an uncaught exception) arrive before its reply, so the runner's counter bracket
        around the command sees them.  It also marks the action's time in the page (``settle.ACTION_MARK``), from
        which the next snapshot's quiet window counts.  Costs well under a millisecond."""
        if page.dialog is not None:
            return  # the page runs nothing until the dialog is answered
        wanted = None
        with self._may_close(page):
            reply = await page.session.send("Runtime.evaluate", {"expression": AFTER_ACTION, "returnByValue": True})
            wanted = (reply.get("result") or {}).get("value")
            await self._await_screens(page)
        await self._keyboard_to(page, wanted)

    # -- the on-screen keyboard (keyboard.py) ----------------------------------------------------------------------
    async def _follow_focus(self, page: Page, *, lower_only: bool = False) -> None:
        """After an action: the keyboard up while a field that takes typing has focus, down once none has
        (``lower_only``: only down — a snapshot sees the keyboard go when the page took the focus away)."""
        if page.gone or page.frozen or page.dialog is not None or (lower_only and not page.keyboard):
            return
        try:
            wanted = bool(await self._eval(page, keyboard.WANTED_JS))
        except (ProtocolError, CdpProtocolError):  # the page's scripts broke the probe, or it navigated: as it is
            return
        await self._keyboard_to(page, wanted, lower_only=lower_only)

    async def _keyboard_to(self, page: Page, wanted: object, *, lower_only: bool = False) -> None:
        """The keyboard up (``wanted`` true) or down, as the page's focused element asked in the evaluation that
        ended an action (keyboard.WANTED_OR_NULL_JS; None: not known, the keyboard stays as it is)."""
        if not isinstance(wanted, bool) or page.gone or page.frozen or page.dialog is not None:
            return
        if wanted != page.keyboard and (page.keyboard or not lower_only):
            with self._may_close(page):
                await keyboard.turn(page, self.profile, wanted, self._scale)

    def _keyboard_shown(self, page: Page, snapshot: Snapshot) -> None:
        """The snapshot of ``page`` lists the keyboard when it is up over it."""
        if page.keyboard:
            add_keyboard(snapshot, keyboard.rect(self.profile))

    def _clear_of_keyboard(self, page: Page, x: float, y: float, what: str) -> None:
        """KEYBOARD_COVERS when the keyboard is up over ``page`` and (x, y) is under it."""
        if page.keyboard and page.dialog is None and (over := keyboard.under(self.profile, x, y)) is not None:
            raise keyboard_covers(over, x, y, what)

    async def _lower_keyboard(self, page: Page) -> None:
        """Dismiss the keyboard: the field loses focus (its ``blur`` fires), the page's view is the whole screen."""
        await self._eval(page, keyboard.BLUR_JS)
        await keyboard.turn(page, self.profile, False, self._scale)

    @contextlib.contextmanager
    def _may_close(self, page: Page) -> Iterator[None]:
        """An action on a screen that an app opened may close it (a Done button calling ``window.close()``): its
        target goes mid-action, and the screen below it shows again.  The action happened."""
        try:
            yield
        except CdpProtocolError as exc:
            if not (target_gone(exc) and any(p is not page and not p.gone for p in page.stack())):
                raise
            page.gone = page.gone or "its page closed"
            self._pop(page)

    # -- what the screen shows (a dialog over the page: dialogs.py) ------------------------------------------------
    def dialog(self, app_id: str | None) -> dict[str, Any] | None:
        page = self._apps.get(app_id) if app_id else self._foreground()
        if page is None or page.gone or page.dialog is None:
            return None
        return page.dialog.wire

    def _dialog_screen(self, page: Page) -> Rect:
        return dialogs.viewport(page, self.profile.width, self.profile.height)

    def _dialog_snapshot(self, page: Page, dialog: Dialog) -> Snapshot:
        return dialogs.snapshot(page, dialog, self._dialog_screen(page), self.kind)

    async def viewport(self, app_id: str) -> Rect:
        with self._mapped(app_id):
            page = self._live(app_id)
            if page.dialog is not None:
                return self._dialog_screen(page)
            # the screen in points (the visual viewport at its scale: docs/snapshot.md's coordinate model)
            w, h = await self._eval(page, _SCREEN_JS)
            return Rect.of(0, 0, w, h)

    async def page_shown(self, app_id: str) -> dict[str, float] | None:
        with self._mapped(app_id):
            page = self._live(app_id)
            if page.dialog is not None:
                return None
            return page_shown(await self._eval(page, _SHOWN_JS))

    async def change_mark(self, app_id: str | None) -> str | None:
        page = self._live(app_id) if app_id else self._foreground()
        if page is None:
            return "home"
        if page.dialog is not None:
            return f"{page.target_id}:dialog:{id(page.dialog)}"  # a dialog opening (or another one) is a change
        if page.chooser is not None:
            return f"{page.target_id}:chooser:{id(page.chooser)}"
        if settle.navigating(page):
            return f"navigating:{asyncio.get_running_loop().time()}"  # a new screen is on its way: a change
        return await frames.marks(page.frames, f"{page.target_id}:{await self._eval(page, CHANGE_MARK)}")

    async def snapshot(self, app_id: str) -> Snapshot:
        with self._mapped(app_id):
            page = self._live(app_id)
            if page.dialog is not None:
                return self._dialog_snapshot(page, page.dialog)
        try:
            walked = await self._walked(app_id)
        except ProtocolError:
            top = self._apps.get(app_id)
            if top is None or top.dialog is None:
                raise
            return self._dialog_snapshot(top, top.dialog)  # a timer opened one while the page settled
        return await self._with_chooser(app_id, walked)

    async def _with_chooser(self, app_id: str, walked: Snapshot) -> Snapshot:
        """The page's file chooser, when it opened one, as the phone's sheet over the view just walked."""
        page = self._apps.get(app_id)
        if page is None or page.chooser is None or page.last_walk is None:
            return walked
        with self._mapped(app_id):
            await chooser.read_accept(page.session, page.chooser)
        return chooser.snapshot(page.last_walk, page.chooser, self._dialog_screen(page), self.kind)

    async def _walked(self, app_id: str) -> Snapshot:
        with self._mapped(app_id):
            page = self._live(app_id)
            loading = None
            if page.unsettled:
                primed = self._prime_walker(page)
                try:
                    loading = await settle.settle_screen(
                        page, partial(self._eval, page, await_promise=True), self._scale
                    )
                finally:
                    if primed is not None:
                        with contextlib.suppress(Exception):  # the walk below meets whatever went wrong
                            await primed
            await self._follow_focus(page, lower_only=True)
            page.unsettled = False
            if loading is None and settle.navigating(page):
                loading = "a navigation was under way"
            selection = asyncio.ensure_future(self._selection(page))  # pipelined behind the walk: no round trip more
            try:
                walk = await self._walker(page)
            except ProtocolError as exc:
                selection.cancel()
                if exc.code != e.COMMAND_FAILED:
                    raise
                # (the runner retries a failed capture once after a short pause; the device does not)
                raise ProtocolError(
                    e.SNAPSHOT_FAILED, exc.message, "Retry the snapshot; if it keeps failing, take a screenshot."
                ) from exc
            except BaseException:
                selection.cancel()
                raise
            if not isinstance(walk, dict):
                selection.cancel()
                raise ProtocolError(e.SNAPSHOT_FAILED, "the page returned no snapshot", "Retry the snapshot.")
            page.frames.shown.clear()
            if walk.get("frames"):  # frames of another origin: each walked in its own document (frames.py)
                await frames.join(page.frames, walk, frames.Where(page.session))
            page.last_walk = walk
            snapshot = mark_selection(
                snapshot_from_walk(walk, self.kind, loading=loading), *await self._selected(page, selection)
            )
            self._keyboard_shown(page, snapshot)
            closed, blocked = self._windows_closed.pop(app_id, 0), self._popups_blocked.pop(app_id, 0)
            if closed or blocked:
                windows_limited(snapshot, closed, blocked)
            return snapshot

    async def _selection(self, page: Page) -> Any:
        """The page's text selection (selection.js), or None; a page whose scripts break the probe has none."""
        try:
            return await self._eval(page, _SELECTION)
        except (ProtocolError, CdpError):
            return None

    @staticmethod
    async def _selected(page: Page, probed: Awaitable[Any]) -> list[Any]:
        """The selection the page's probe found (``probed``), else those in the frames of another origin the walk
        just joined into the view (each asked in the frame's own document)."""
        found = await probed
        if found is None and page.frames.shown:
            return await frames.selections(page.frames, _SELECTION_PROBE)
        return [found]

    async def screenshot(self, *, format: str = "png", scale: str = "device", quality: int = 80) -> Screenshot:
        with self._mapped():
            page = self._foreground() or await self._ensure_home()
            if page.dialog is not None:  # the renderer draws no frame until the dialog is answered
                raise dialogs.refused(page.dialog, "no screenshot can be taken (the page draws nothing under it)")
            shot = await capture.screenshot(page.session, self.profile, format=format, scale=scale, quality=quality)
        if not page.keyboard:
            return shot
        css = css_image_size(self.profile.width, self.profile.height) if scale == "css" else None
        return await asyncio.to_thread(keyboard.drawn, shot, self.profile, css, quality)

    # -- logs, requests, video (observe.py, screencast.py) ---------------------------------------------------------
    def _app_pages(self) -> list[Page]:
        return [p for p in self._apps.values() if not p.gone]

    async def _enable(self, method: str, params: dict[str, Any]) -> None:
        for page in self._app_pages():
            with contextlib.suppress(CdpProtocolError, CdpDialogOpen):  # a page closing under us, or in a dialog
                await page.session.send(method, params)

    async def logs(self, app_id: str | None, since: int) -> dict[str, Any]:
        with self._mapped():
            if not self._observer.log_domain:
                self._observer.log_domain = True
                await self._enable(*LOG_ENABLE)
            for page in self._app_pages():  # console calls a flooding page holds back (console_budget.js) come now
                if not page.frozen and page.dialog is None and (app_id is None or page.app_id == app_id):
                    with contextlib.suppress(CdpError):  # a page closing under us: it has nothing more to say
                        await page.session.send("Runtime.evaluate", {"expression": CONSOLE_FLUSH})
            return self._observer.logs.since(since, keep=(lambda x: x.get("app") == app_id) if app_id else None)

    async def network(self, since: int) -> dict[str, Any]:
        with self._mapped():
            if not self._observer.network_domain:
                self._observer.network_domain = True
                await self._enable(*NETWORK_ENABLE)
            out = self._observer.requests.since(since)
            out["requests"] = out.pop("entries")
            return out

    async def record_start(self, path: str) -> dict[str, Any]:
        codec_for(path)
        if self._recording is not None:
            raise already_recording(self._recording.writer.path)
        with self._mapped():
            page = self._foreground() or await self._ensure_home()
            try:
                writer = await asyncio.to_thread(VideoWriter, path, self.profile.width, self.profile.height)
            except OSError as exc:
                raise ProtocolError(
                    e.INVALID_REQUEST, f"cannot write {path}: {exc.strerror or exc}", "Pass a writable file path."
                ) from exc
            recording = Recording(writer, self.profile.width, self.profile.height)
            self._recording = recording  # before the screencast starts: its first frame is acknowledged
            try:
                await recording.follow(page.session)
            except BaseException:  # refused (a dialog covers the page): nothing records, the name stays free
                self._recording = None
                await recording.discard()
                raise
            return {"path": path, "width": writer.width, "height": writer.height, "codec": writer.codec}

    async def record_stop(self) -> dict[str, Any]:
        recording, self._recording = self._recording, None
        if recording is None:
            return await super().record_stop()
        with self._mapped():
            return await recording.stop()


#: The layers a back closes first, as the view describes them (``Dialog "Menu" id=drawer``): open dialogs, modals
#: and popovers that show; ``at``/``quiet``: when the DOM last changed structurally and whether it held still for
