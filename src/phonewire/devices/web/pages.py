"""The web phone's pages: the page targets it attaches (an app's screens, the home screen), the events the browser
sends about them, and the app model on top — which page is in front, which are frozen in the background, the
screens an app opened (``Page.below``: target.py), and the one error boundary (:meth:`Pages._mapped`).
``WebDevice`` (device.py) is the orchestrator; this is the ground floor of its rooms (view.py, input.py, back.py
build on it)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Coroutine, Iterator
from typing import Any, Final
from urllib.parse import urlsplit

from phonewire.devices.base import AppState, Device
from phonewire.devices.web import dialogs, frames, js, settle
from phonewire.devices.web.cdp import (
    STOP_SHARE,
    CdpClosed,
    CdpConnection,
    CdpDialogOpen,
    CdpError,
    CdpProtocolError,
    CdpSession,
    target_gone,
)
from phonewire.devices.web.chooser import FileChooser
from phonewire.devices.web.dialogs import Dialog
from phonewire.devices.web.home import DEMO_APP_ID, HOME_APP, home_items
from phonewire.devices.web.observe import CONSOLE_BUDGET_JS, LOG_ENABLE, NETWORK_ENABLE, Observer
from phonewire.devices.web.profiles import Profile, apply_profile
from phonewire.devices.web.screencast import Recording
from phonewire.devices.web.server import StaticServer
from phonewire.devices.web.target import Page, freeze, thaw
from phonewire.devices.web.walk import PAGE_HOOKS_JS
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

log = logging.getLogger("phonewire.web")

DEMO_PATH = "/demo/index.html"
HOME_PATH = "/__home__"
LOAD_TIMEOUT_S = 15.0
#: What the browser is asked: attach every new page, paused before its first script (pages only).
AUTO_ATTACH: dict[str, Any] = {
    "autoAttach": True,
    "waitForDebuggerOnStart": True,
    "flatten": True,
    "filter": [{"type": "page", "exclude": False}],
}
#: How long a page that announced itself (Target.targetCreated with an opener) may take to arrive auto-attached
#: before it is attached the late way.
AUTO_ATTACH_GRACE_S = 0.5
#: The longest one call into a page may be held by the page's own script (``while(true){}``) before that script is
#: stopped (``Runtime.terminateExecution``); a page that still does not answer after half as long again
#: (cdp.STOP_SHARE; stuck where no script runs: a layout of a document too deep or too big) is ended (``Page.crash``)
#: and its app answers APP_CRASHED (cdp.CdpSession.guard).  One page costs the other apps and sessions of the phone
#: at most about one and a half times this, plus a fifth of it where the call waited on purpose and a fifth to see
#: the crash (cdp.PROBE_SHARE): 3.8 s, under the 5 s the phone promises (bench/bench_hostile.py measures it).
#: Scaled up with the time scale, never down (a short scale shortens the runner's budgets, not what a page may
#: legitimately take).
PAGE_SCRIPT_BUDGET_S = 2.0
#: The most screens (its page and the windows it opened) one app keeps: a window past them is closed unopened (a page
#: opening windows without end took the phone for 39 s: every new target is set up and attached), and the app's
#: next snapshot says so (quality reasonCode ``windows_limited``).
MAX_SCREENS = 10
#: A page's window.open past one per tap is blocked, as a phone's browser blocks it (popups.js); the page says so in
#: a console line that starts with this, which the device counts for the app's next snapshot (no log entry).
POPUP_BLOCKED = "\u2063phonewire: popup blocked: "
POPUPS_JS = f"({js.load('popups.js').strip()})({json.dumps(POPUP_BLOCKED)})"
_POPUP_RAW = json.dumps(POPUP_BLOCKED)[1:-1].encode()
#: How long an action waits for a window its page opened to become the app's new screen (scaled).
POPUP_WAIT_S = 1.0
# Resolves a task after the load event: the page's own load handlers have run by then (ours, added at commit,
# would otherwise answer before them, and an alert() in theirs would open after the reply said "loaded").  The task
# is a message, not a timer: settle.OBSERVER_SCRIPT counts a timer set in an event handler as the page's reaction
# on its way, and its firing as a change, so a timer here restarted the next snapshot's quiet window at the load
# event instead of at the page's last change (~25 ms of the demo's first snapshot).
_LOADED = js.load("loaded.js")

RESTART_HINT = (
    "The browser behind the web phone is gone; the runner starts a new one on the next command "
    "(every app's state is lost: open the app again)."
)


async def clear_origin(session: CdpSession, url: str) -> None:
    """Delete what ``url``'s origin stored (local and session storage, IndexedDB, caches, service workers) and the
    cookies the browser would send to ``url``; other origins keep theirs (an app's state is its origin's)."""
    parts = urlsplit(url)
    origin = f"{parts.scheme}://{parts.hostname}" + (f":{parts.port}" if parts.port else "")
    await session.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
    for cookie in (await session.send("Network.getCookies", {"urls": [url]}))["cookies"]:
        await session.send("Network.deleteCookies", {k: cookie[k] for k in ("name", "domain", "path")})


def crashed(app_id: str, page: Page) -> ProtocolError:
    """APP_CRASHED for the app whose page ``page`` was: what happened, and that launching it again starts it anew."""
    return ProtocolError(
        e.APP_CRASHED,
        f"{app_id} crashed: {page.gone or 'its renderer crashed'}",
        "The other apps of the phone are unharmed. Launch it again with launchApp (it starts anew: its state is "
        "lost); a page that crashes every time is too big or too deep for the browser.",
    )


#: What a page shows over itself: its JavaScript dialog (dialogs.py), its file chooser (chooser.py), the permission
#: dialog its request opens (environment.py; the page's binding call).
_MODAL_EVENTS: Final = frozenset(
    {"Page.javascriptDialogOpening", "Page.javascriptDialogClosed", "Page.fileChooserOpened", "Runtime.bindingCalled"}
)


class Pages(Device):
    """The state every room of the web device shares (set up by ``WebDevice.__init__``) and its pages."""

    kind = "web"
    profile: Profile
    _cdp: CdpConnection | None
    _server: StaticServer
    _apps: dict[str, Page]
    _home: Page | None
    _spare: Page | None
    _by_session: dict[str, Page]
    #: The sessions of frames in renderers of their own (frames.py) → the page they are part of.
    _frame_pages: dict[str, Page]
    _suppressed: int
    _recorded: int
    _closed: bool
    _observer: Observer
    _recording: Recording | None
    #: Pages that app pages opened (popups being adopted as the app's new screen), and other owned tasks.
    _tasks: set[asyncio.Task[Any]]
    #: Targets adopted (or being adopted) as an app's new screen: from ``Target.attachedToTarget`` (paused before
    #: their first script) or, failing that, ``Target.targetCreated`` — never both.
    _adopted: set[str]
    #: Per app: screens being adopted now, and windows closed unopened because the app had MAX_SCREENS already (the
    #: next snapshot of the app says so, once).
    _adopting: dict[str, int]
    _windows_closed: dict[str, int]
    #: Per app: windows its page tried to open past one per tap, blocked (popups.js; said once, as above).
    _popups_blocked: dict[str, int]
    _scale: float

    # -- error boundary --------------------------------------------------------------------------------------------
    @contextlib.contextmanager
    def _mapped(self, app_id: str | None = None) -> Iterator[None]:
        """The one place where lower-layer failures become protocol errors."""
        try:
            reason = self.health()
            if reason is not None:
                raise ProtocolError(e.DEVICE_UNAVAILABLE, reason, RESTART_HINT)
            yield
        except ProtocolError:
            raise
        except CdpClosed as exc:
            raise ProtocolError(e.DEVICE_UNAVAILABLE, self.health() or str(exc), RESTART_HINT) from exc
        except CdpDialogOpen as exc:
            # a dialog opened (by a timer, by the page loading) while a command that cannot run under it ran
            page = self._apps.get(app_id) if app_id else self._foreground()
            dialog = page.dialog if page is not None else None
            if dialog is None:  # a page not adopted yet
                dialog = next((p.dialog for p in self._by_session.values() if p.dialog), None) or Dialog("alert", "")
            raise dialogs.refused(dialog, "the page opened a dialog") from exc
        except CdpProtocolError as exc:
            page = self._apps.get(app_id) if app_id else None
            if page is not None and page.crashed:
                self._forget(page, page.gone or "its renderer crashed")
                raise crashed(app_id or page.app_id, page) from exc
            if page is not None and (page.gone or target_gone(exc)):
                self._forget(page, page.gone or "the page target closed")
                raise ProtocolError(
                    e.APP_NOT_AVAILABLE,
                    f"{app_id} is not running ({page.gone or 'its page closed'})",
                    "Launch it again with launchApp.",
                ) from exc
            raise ProtocolError(e.COMMAND_FAILED, f"the browser refused {exc.method}: {exc.message}") from exc
        except (OSError, TimeoutError) as exc:
            raise ProtocolError(e.COMMAND_FAILED, f"web device failure: {exc}") from exc

    # -- events (reader task; no I/O) ------------------------------------------------------------------------------
    def _on_console(self, raw: bytes, session_id: str) -> bool:
        page = self._by_session.get(session_id)
        if page is not None and page.app_id and page is not self._home:
            if _POPUP_RAW in raw:
                self._popups_blocked[page.app_id] = self._popups_blocked.get(page.app_id, 0) + 1
            else:
                self._observer.on_console(raw, page.app_id)
        return True  # nothing else reads console events

    def _on_frame_event(self, method: str, params: dict[str, Any], session_id: str | None) -> None:
        """An event about frames (frames.py) on a page's session or a frame's own; a frame just attached is set up
        and let run.  (A subscriber of its own beside :meth:`_on_event`.)"""
        if method not in frames.EVENTS or not session_id:
            return
        page = self._by_session.get(session_id)
        session = page.session if page is not None else None
        if page is None and (page := self._frame_pages.get(session_id)) is not None:
            session = page.frames.own.get(session_id)
        if page is None or session is None:
            return
        child = page.frames.on_event(method, params, session)
        if method == "Target.detachedFromTarget":
            self._frame_pages.pop(str(params.get("sessionId") or ""), None)
        if child is not None:
            self._frame_pages[child.session_id] = page
            child.guard(PAGE_SCRIPT_BUDGET_S * max(self._scale, 1.0), lambda method: self._script_stopped(page, method))
            self._spawn(frames.follow(child, (PAGE_HOOKS_JS, settle.OBSERVER_SCRIPT)))

    def _on_event(self, method: str, params: dict[str, Any], session_id: str | None) -> None:
        page = self._by_session.get(session_id) if session_id else None
        if page is not None and page.app_id and page is not self._home and session_id:
            self._observer.on_event(method, params, page.app_id, session_id)
        if method == "Page.screencastFrame":
            if self._recording is not None:
                self._recording.on_frame(params, session_id)
        elif method == "Runtime.exceptionThrown":
            if page is not None and page is not self._home:
                self._suppressed += 1
        elif method == "Inspector.targetCrashed":
            if page is not None:
                page.gone = page.gone or "its renderer crashed (out of memory, or past a browser limit)"
                page.crashed = True
                if page is not self._home:
                    self._recorded += 1
        elif method.startswith("Page.frame") and page is not None and params.get("frameId") == page.target_id:
            if method == "Page.frameStartedLoading":
                page.loading, page.requested_at = True, None
            elif method == "Page.frameStoppedLoading":
                page.loading, page.requested_at = False, None
            elif method == "Page.frameRequestedNavigation" and params.get("disposition", "currentTab") == "currentTab":
                page.requested_at = asyncio.get_running_loop().time()
        elif method in ("Page.frameNavigated", "Page.navigatedWithinDocument") and page is not None:
            frame = params.get("frame") or {}
            if (frame.get("id") or params.get("frameId")) == page.target_id:
                page.commits += 1
                if method == "Page.frameNavigated":  # a new document: its chooser's input is gone with the old one
                    page.documents, page.chooser = page.documents + 1, None
        elif method in _MODAL_EVENTS and page is not None:
            self._on_modal(page, method, params)
        elif method == "Page.windowOpen" and page is not None and page is not self._home:
            page.opening = asyncio.get_running_loop().time()
        elif method == "Target.attachedToTarget" and session_id is None:
            self._on_attached(params)
        elif method == "Target.targetCreated":
            self._on_target_created(params.get("targetInfo") or {})
        elif method == "Target.detachedFromTarget":
            gone = self._by_session.get(params.get("sessionId", ""))
            if gone is not None and gone.gone is None:
                gone.gone = "its page closed"
                self._pop(gone)

    def _on_attached(self, params: dict[str, Any]) -> None:
        """A page auto-attached by the browser, paused before its first script: one that an app's page opened is
        adopted as the app's new screen (hooks first, then it runs); any other is let run and left."""
        info = params.get("targetInfo") or {}
        session_id, target_id = str(params.get("sessionId") or ""), str(info.get("targetId") or "")
        if not params.get("waitingForDebugger") or not session_id or not target_id:
            return  # a session the device opened itself (Target.attachToTarget), or a page that was running already
        opener_id = info.get("openerId")
        opener = next((p for p in self._by_session.values() if p.target_id == opener_id), None) if opener_id else None
        adoptable = (
            info.get("type") == "page" and opener is not None and opener is not self._home and not opener.gone
            and bool(opener.app_id) and not self._closed
        )  # fmt: skip
        if opener is not None and adoptable and target_id not in self._adopted:
            self._adopted.add(target_id)
            if self._screens_full(opener):
                self._spawn(self._close_window(opener, target_id, session_id))
                return
            self._spawn(self._adopt(opener, target_id, str(info.get("url") or ""), session_id=session_id))
        else:
            self._spawn(self._let_go(session_id))

    def _screens_full(self, opener: Page) -> bool:
        """Whether ``opener``'s app keeps :data:`MAX_SCREENS` screens already (adopted, or being adopted)."""
        top = self._apps.get(opener.app_id)
        screens = (len(list(top.stack())) if top is not None else 0) + self._adopting.get(opener.app_id, 0)
        return screens >= MAX_SCREENS

    async def _close_window(self, opener: Page, target_id: str, session_id: str | None = None) -> None:
        """A window past the app's :data:`MAX_SCREENS`: closed before it runs, and counted for the view."""
        opener.opening = None
        self._windows_closed[opener.app_id] = self._windows_closed.get(opener.app_id, 0) + 1
        cdp = self._cdp
        if cdp is None:
            return
        with contextlib.suppress(CdpError, CdpClosed, TimeoutError):
            if session_id is not None:  # paused before its first script, on the opener's thread: let it go first
                await asyncio.wait_for(cdp.send("Runtime.runIfWaitingForDebugger", None, session_id), 2.0)
            await cdp.send("Target.closeTarget", {"targetId": target_id})

    async def _let_go(self, session_id: str) -> None:
        """Let an auto-attached target that is no new screen (or one adopted already) run, and leave its session
        (the device attaches its own pages itself)."""
        cdp = self._cdp
        if cdp is None:
            return
        with contextlib.suppress(CdpError, CdpClosed):
            await cdp.session(session_id).send("Runtime.runIfWaitingForDebugger")
            await cdp.send("Target.detachFromTarget", {"sessionId": session_id})

    def _on_target_created(self, info: dict[str, Any]) -> None:
        """A page that an app's page opened (``target=_blank``, ``window.open``) and that did not arrive auto-attached
        is adopted as its new screen, once it is clear it will not (a short grace)."""
        opener_id = info.get("openerId")
        if info.get("type") != "page" or not opener_id or self._closed:
            return
        opener = next((p for p in self._by_session.values() if p.target_id == opener_id), None)
        if opener is None or opener is self._home or opener.gone or not opener.app_id:
            return
        self._spawn(self._adopt_unless_attached(opener, str(info.get("targetId")), str(info.get("url") or "")))

    async def _adopt_unless_attached(self, opener: Page, target_id: str, url: str) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + AUTO_ATTACH_GRACE_S * self._scale
        while target_id not in self._adopted and loop.time() < deadline:
            await asyncio.sleep(0.01)
        if target_id not in self._adopted:
            self._adopted.add(target_id)
            if self._screens_full(opener):
                await self._close_window(opener, target_id)
                return
            await self._adopt(opener, target_id, url)

    def _script_stopped(self, page: Page, method: str) -> None:
        """A page's script held ``method`` past its budget and is being stopped: counted as a muted issue (a
        mutation's reply warns of it) and logged."""
        if page is not self._home:
            self._suppressed += 1
        log.warning("%s: its script held %s past %.3g s and was stopped", page.app_id or page.target_id, method,
                    PAGE_SCRIPT_BUDGET_S * max(self._scale, 1.0))  # fmt: skip

    def _hung(self, page: Page, method: str) -> None:
        """A page that did not answer even once its script was stopped is ended (cdp.CdpSession.guard)."""
        budget = PAGE_SCRIPT_BUDGET_S * max(self._scale, 1.0)
        page.gone = (
            f"it stopped answering ({method} held for {(1 + STOP_SHARE) * budget:.3g} s, past the end of its own "
            "script: a document too deep or too big to lay out) and was ended so the phone keeps serving"
        )
        page.crashed = True
        log.warning("%s: %s", page.app_id or page.target_id, page.gone)

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- pages -----------------------------------------------------------------------------------------------------
    def _url_of(self, app_id: str) -> str:
        if app_id == DEMO_APP_ID:
            return self._server.url(DEMO_PATH)
        if app_id.startswith(("http://", "https://")) and len(app_id) > len("https://"):
            return app_id
        raise ProtocolError(
            e.APP_UNKNOWN,
            f"no app {app_id!r} on the web device",
            f"Use {DEMO_APP_ID} (the bundled demo) or an http(s) URL as the app id.",
        )

    @property
    def _cdp_live(self) -> CdpConnection:
        if self._cdp is None:
            raise ProtocolError(e.DEVICE_UNAVAILABLE, "the web device is not open", RESTART_HINT)
        return self._cdp

    async def _attach(self, app_id: str, url: str, *, clear: bool = False) -> Page:
        """A page showing ``url`` (the spare blank page if there is one, else a new target); ``clear``: the URL's
        origin's stored data and cookies deleted before it loads (other origins keep theirs)."""
        page, self._spare = self._spare, None
        if page is None or page.gone:
            page = await self._new_page(None)
        else:  # made before a first logs / network turned their domains on: the app's page follows them too
            await self._follow_domains(page)
        page.app_id, page.url = app_id, url
        if clear:
            await clear_origin(page.session, url)
        await self._navigate(page, url)
        if page.crashed:  # it never finished loading, and was ended for not answering
            self._by_session.pop(page.session.session_id, None)
            raise crashed(app_id, page)
        # The app's history starts at its own page: `back` must never return to the blank page the target was
        # created with (that would blank the app instead of backgrounding it).
        await page.session.send("Page.resetNavigationHistory")
        page.unsettled = True
        return page

    async def _new_page(self, target_id: str | None, *, session_id: str | None = None) -> Page:
        """Create (or take) a blank page target, attach to it (or take the session it was auto-attached with) and
        apply the device profile."""
        cdp = self._cdp_live
        if target_id is None:
            target_id = (await cdp.send("Target.createTarget", {"url": "about:blank"}))["targetId"]
        resume = session_id is not None  # auto-attached, paused before its first script: it runs once set up
        if session_id is None:
            attached = await cdp.send("Target.attachToTarget", {"targetId": target_id, "flatten": True})
            session_id = str(attached["sessionId"])
        page = Page("", target_id, cdp.session(session_id), "about:blank")
        budget = PAGE_SCRIPT_BUDGET_S * max(self._scale, 1.0)
        page.session.guard(
            budget, lambda method: self._script_stopped(page, method), lambda method: self._hung(page, method)
        )
        self._by_session[session_id] = page
        await apply_profile(
            page.session,
            self.profile,
            init_scripts=(PAGE_HOOKS_JS, settle.OBSERVER_SCRIPT, CONSOLE_BUDGET_JS, POPUPS_JS),
            resume=resume,
        )
        await self._follow_domains(page)
        await self._follow_environment(page)
        await page.session.send("Target.setAutoAttach", frames.FRAME_ATTACH)  # frames of another site (frames.py)
        return page

    async def _follow_environment(self, page: Page) -> None:
        """Give a new page the phone's environment (environment.py: location, network)."""

    def _asked(self, page: Page, params: dict[str, Any]) -> None:
        """The page asked for a permission (environment.py's prompt)."""

    def _on_modal(self, page: Page, method: str, params: dict[str, Any]) -> None:
        if method == "Page.javascriptDialogOpening":
            page.dialog = Dialog.opening(params)
        elif method == "Page.javascriptDialogClosed":
            page.dialog, page.unsettled = None, True
        elif method == "Page.fileChooserOpened":
            page.chooser, page.unsettled = FileChooser.opening(params), True
        else:
            self._asked(page, params)

    async def _follow_domains(self, page: Page) -> None:
        for on, (method, params) in ((self._observer.log_domain, LOG_ENABLE),
                                     (self._observer.network_domain, NETWORK_ENABLE)):  # fmt: skip
            if on:
                await page.session.send(method, params)

    async def _ensure_home(self) -> Page:
        if self._home is None or self._home.gone:
            self._home = await self._attach(HOME_APP, self._server.url(HOME_PATH))
        return self._home

    async def _navigate(self, page: Page, url: str) -> None:
        """Navigate and wait (bounded) for the load event; Page.navigate itself answers at commit."""
        try:
            result = await page.session.send("Page.navigate", {"url": url})
        except CdpDialogOpen:
            return  # beforeunload asked: the navigation goes on once it is answered OK
        if result.get("errorText"):
            raise ProtocolError(
                e.COMMAND_FAILED,
                f"could not load {url}: {result['errorText']}",
                "Check that the URL is reachable from this machine.",
            )
        # a page that never loads is still usable; one that opened a dialog while loading shows it
        with contextlib.suppress(TimeoutError, CdpProtocolError, CdpDialogOpen):
            await asyncio.wait_for(
                page.session.send("Runtime.evaluate", {"expression": _LOADED, "awaitPromise": True}), LOAD_TIMEOUT_S
            )

    def _forget(self, page: Page, reason: str) -> None:
        page.gone = page.gone or reason
        if self._apps.get(page.app_id) is page:
            del self._apps[page.app_id]
        self._by_session.pop(page.session.session_id, None)

    def _live(self, app_id: str) -> Page:
        page = self._apps.get(app_id)
        if page is not None and page.crashed:
            self._forget(page, page.gone or "its renderer crashed")
            raise crashed(app_id, page)
        if page is not None and page.gone:
            page = self._pop(page) or page
        if page is None or page.gone:
            if page is not None:
                self._forget(page, page.gone or "gone")
            raise ProtocolError(e.APP_NOT_AVAILABLE, f"{app_id} is not running", "Launch it with launchApp.")
        return page

    async def _freeze(self, top: Page) -> None:
        for page in top.stack():  # the app's every screen
            if page.dialog is not None and not page.gone:
                await dialogs.answer(page, accept=False)  # a phone dismisses a dialog whose app leaves the screen
            if not page.frozen and not page.gone:
                await freeze(page.session)
                page.frozen = True

    # -- screens of one app (pages it opened) -----------------------------------------------------------------------
    async def _adopt(self, opener: Page, target_id: str, url: str, *, session_id: str | None = None) -> None:
        """Attach to a page that ``opener`` opened and make it the top screen of ``opener``'s app (the phone shows
        it; ``back`` returns to the screen below).  Auto-attached (``session_id``), it is paused before its first
        script: it runs once the page hooks are registered.  Otherwise its first document may have started before
        them, so they run in it too (each is idempotent); click listeners it added before are not known."""
        self._adopting[opener.app_id] = self._adopting.get(opener.app_id, 0) + 1
        try:
            await self._adopt_now(opener, target_id, url, session_id)
        finally:
            self._adopting[opener.app_id] -= 1

    async def _adopt_now(self, opener: Page, target_id: str, url: str, session_id: str | None) -> None:
        try:
            page = await self._new_page(target_id, session_id=session_id)
            # attached late: its document may have run without the hooks (an auto-attached one had them first, and
            # is not evaluated into: a dialog its first script opened would hold the evaluation)
            for script in (PAGE_HOOKS_JS, settle.OBSERVER_SCRIPT) if session_id is None else ():
                with contextlib.suppress(CdpProtocolError):
                    await page.session.send("Runtime.evaluate", {"expression": script})
        except (CdpError, ProtocolError):
            opener.opening = None
            if session_id is not None:  # never left paused: a setup that failed half way lets it run, unadopted
                self._by_session.pop(session_id, None)
                await self._let_go(session_id)
            return  # the page closed at once, or the browser went: nothing to show
        top = self._apps.get(opener.app_id)
        if top is None or top.gone or self._closed:
            opener.opening = None
            await self._close_targets(page)
            return
        page.app_id, page.url, page.below, page.unsettled = opener.app_id, url, top, True
        page.state = top.state
        self._apps[opener.app_id] = page
        if top.state is AppState.FOREGROUND:
            await page.session.send("Page.bringToFront")
        else:
            await self._freeze(page)
        opener.opening = None

    async def _await_screens(self, page: Page) -> None:
        """After an action on ``page``: when it asked for a new window, wait (bounded) until that window is
        adopted as the app's new screen, so the reply and the next command see it."""
        if page.opening is None:
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + POPUP_WAIT_S * self._scale
        while page.opening is not None and loop.time() < deadline:
            await asyncio.sleep(0.01)
        page.opening = None  # blocked, or it never came: the app stays on this screen

    def _pop(self, gone: Page) -> Page | None:
        """``gone`` (an app's top screen) closed: the live screen below it becomes the top, shown when the app is
        in front.  None when no screen is left."""
        below = next((p for p in gone.stack() if p is not gone and not p.gone), None)
        if below is None or self._apps.get(gone.app_id) is not gone:
            return None
        self._apps[gone.app_id] = below
        below.state, below.unsettled = gone.state, True
        self._by_session.pop(gone.session.session_id, None)
        if below.state is AppState.FOREGROUND and not self._closed:
            self._spawn(self._show(below))
        return below

    async def _show(self, page: Page) -> None:
        with contextlib.suppress(CdpError):
            if page.frozen:
                await thaw(page.session)
                page.frozen = False
            await page.session.send("Page.bringToFront")

    async def _close_targets(self, top: Page) -> None:
        """Close ``top`` and every screen below it."""
        for page in list(top.stack()):
            await self._close_target(page, "terminated")

    async def _close_target(self, page: Page, why: str) -> None:
        if page.dialog is not None and not page.gone:
            with contextlib.suppress(CdpError):
                await dialogs.answer(page, accept=False)
        self._by_session.pop(page.session.session_id, None)
        page.gone = page.gone or why
        with contextlib.suppress(CdpProtocolError):
            await self._cdp_live.send("Target.closeTarget", {"targetId": page.target_id})

    async def _front(self, page: Page | None) -> None:
        """Show ``page`` (None: the home screen); every other app goes to the background, frozen."""
        for other in list(self._apps.values()):
            if other is not page and other.state is AppState.FOREGROUND and not other.gone:
                other.state = AppState.BACKGROUND
                await self._freeze(other)
        shown = page if page is not None else await self._ensure_home()
        for screen in shown.stack():  # the app's every screen runs again; its top is shown
            if screen.frozen and not screen.gone:
                await thaw(screen.session)
                screen.frozen = False
        await shown.session.send("Page.bringToFront")
        if self._recording is not None:
            with contextlib.suppress(CdpDialogOpen):  # a page in a dialog draws no frames until it is answered
                await self._recording.follow(shown.session)
        if page is not None:
            page.state = AppState.FOREGROUND
        else:
            # refresh the launcher's icons in place (a reload would race a screenshot of the home screen)
            items = json.dumps(home_items(self._apps))
            await shown.session.send(
                "Runtime.evaluate", {"expression": f"document.getElementById('apps').innerHTML = {items}"}
            )

    def _foreground(self) -> Page | None:
        return next((p for p in self._apps.values() if p.state is AppState.FOREGROUND and not p.gone), None)
