"""The web phone: a touch phone emulated in headless Chromium, driven over the DevTools protocol.

Pieces (one module each): :mod:`.browser` the Chromium process, :mod:`.cdp` the DevTools pipe, :mod:`.profiles`
the screen metrics, :mod:`.server` the loopback server of the demo and the home screen, ``walker.js`` /
:mod:`.walk` the in-page snapshot walk, :mod:`.gestures` input events, :mod:`.controls` native controls,
:mod:`.settle` settled screens, :mod:`.capture` screenshots, :mod:`.page_script` evaluations, :mod:`.roles`.

Apps are page targets, one per app id (``dev.phonewire.demo`` or any http(s) URL)::

    notRunning ──launch_app / open_url──► foreground ──(another app fronted, home)──► background (frozen)
        ▲                                    ▲                                            │
        └───── terminate_app / crash ────────┴──────────── activate / launch_app ─────────┘

A background page is frozen with ``Page.setWebLifecycleState`` (its timers really stop) and made active again
when re-fronted.  The home screen is a launcher page of its own; it is not an app.

Screens: a page an app opens (``target=_blank``, ``window.open``) is that app's new screen.  The browser attaches
every new page before it runs (``Target.setAutoAttach`` on the browser, pages only, ``waitForDebuggerOnStart``):
a page with an app page as its ``openerId`` arrives as ``Target.attachedToTarget``, paused; it gets the device
profile and the page hooks, then runs (``Runtime.runIfWaitingForDebugger``) — so the listeners and mutations of
its first script are seen.  Every other page attached that way is let run and left (the device attaches its own
pages itself).  A page that arrives only as ``Target.targetCreated`` with an ``openerId`` is attached afterwards,
its hooks run late.  Each new screen is a stack whose top is the app's page (``_Page.below``); ``back`` on it, or
the page closing itself, shows the screen below.  A deep link (``open_url``) into a running app's origin navigates
that app.  ``back`` closes what the app would close first (Escape: a dialog, a drawer), then goes back in history, then
pops a screen, and only then shows home (:meth:`WebDevice._back`).

Settled screens: every action on a page marks it unsettled, and the next snapshot first waits for the screen to
settle (:func:`settle.settle_screen`, bounded; a snapshot of a page still loading says so in ``quality``).

Errors are mapped in exactly one place (:meth:`WebDevice._mapped`): a closed DevTools socket or a dead browser
→ DEVICE_UNAVAILABLE, a target that vanished → APP_NOT_AVAILABLE, any other DevTools failure → COMMAND_FAILED.

Counters: ``suppressed`` counts uncaught exceptions thrown by app pages (``Runtime.exceptionThrown``) — page
noise that the runner turns into a ``warning`` when it grows during a mutation; ``recorded`` counts renderer
crashes of app pages (``Inspector.targetCrashed``) — real failures.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Coroutine, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any
from urllib.parse import urlsplit

from phonewire.devices.base import (
    SCROLL_DRAG_MS,
    SCROLL_HOLD_MS,
    SCROLL_REST_MS,
    AppInfo,
    AppState,
    Device,
    IssueCounters,
    Screenshot,
)
from phonewire.devices.video import VideoWriter, already_recording, codec_for
from phonewire.devices.web import capture, controls, dialogs, gestures, readback, scrolling, settle
from phonewire.devices.web.browser import SANDBOX_ON, BrowserLaunchError, BrowserProcess, window_flags
from phonewire.devices.web.cdp import (
    CdpClosed,
    CdpConnection,
    CdpDialogOpen,
    CdpError,
    CdpProtocolError,
    CdpSession,
)
from phonewire.devices.web.dialogs import Dialog
from phonewire.devices.web.home import DEMO_APP_ID, HOME_APP, home_html, home_items
from phonewire.devices.web.observe import CONSOLE_API, LOG_ENABLE, NETWORK_ENABLE, Observer
from phonewire.devices.web.page_script import evaluate, require_focus
from phonewire.devices.web.profiles import Profile, apply_profile, resolve_profile
from phonewire.devices.web.screencast import Recording
from phonewire.devices.web.server import StaticServer
from phonewire.devices.web.walk import (
    CHANGE_MARK,
    DEFINE_WALKER,
    PAGE_HOOKS_JS,
    WALKER_MISSING,
    describe,
    snapshot_from_walk,
    tree_from_walk,
    walker_call,
)
from phonewire.protocol import errors as e
from phonewire.protocol.commands import time_scale
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import RawNode, Rect, Snapshot, build_snapshot

DEMO_PATH = "/demo/index.html"
HOME_PATH = "/__home__"
LOAD_TIMEOUT_S = 15.0
_START_TIMEOUT_S = 20.0  # launch to the first DevTools reply
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
# Resolves a task after the load event: the page's own load handlers have run by then (ours, added at commit,
# would otherwise answer before them, and an alert() in theirs would open after the reply said "loaded").  The task
# is a message, not a timer: settle.OBSERVER_SCRIPT counts a timer set in an event handler as the page's reaction
# on its way, and its firing as a change, so a timer here restarted the next snapshot's quiet window at the load
# event instead of at the page's last change (~25 ms of the demo's first snapshot).
_LOADED = (
    "new Promise(r => { const done = () => { const c = new MessageChannel(); c.port1.onmessage = () => r(0); "
    "c.port2.postMessage(0); }; document.readyState === 'complete' ? done() : addEventListener('load', done); })"
)

#: Resolves two animation frames later: a key's answer that the page renders a tick after the key has drawn by then.
_TWO_FRAMES = "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(0))))"


async def freeze(session: CdpSession) -> None:
    """Put a background page to sleep: hidden, then frozen (its timers and tasks really stop)."""
    await session.send("Emulation.setFocusEmulationEnabled", {"enabled": False})
    await session.send("Page.setWebLifecycleState", {"state": "frozen"})


async def thaw(session: CdpSession) -> None:
    """Wake a frozen page and make it visible again.  Freezing hides the page (``WasHidden``) and ``active`` only
    unfreezes it; the full browser shows it again on ``Page.bringToFront``, but ``chromium-headless-shell`` (no
    tabs, no windows to activate) leaves it hidden for good, and a hidden page draws no frames, so every later
    ``Input.dispatchTouchEvent`` waits forever for its ack.  Focus emulation counts the page as captured, which
    shows it in both browsers; :func:`freeze` turns it off again first, so a background page is hidden."""
    await session.send("Page.setWebLifecycleState", {"state": "active"})
    await session.send("Emulation.setFocusEmulationEnabled", {"enabled": True})


@dataclass(slots=True)
class _Page:
    """One attached page target (an app, or the home screen)."""

    app_id: str
    target_id: str
    session: CdpSession
    url: str
    state: AppState = AppState.FOREGROUND
    frozen: bool = False
    gone: str | None = None  # why the target vanished (crash, closed by the page)
    #: An action ran since the last snapshot: the next one waits for the screen to settle.
    unsettled: bool = False
    #: The main frame is loading a new document (Page.frameStartedLoading … frameStoppedLoading).
    loading: bool = False
    #: When the page last asked for a navigation that has not started loading yet (loop time).
    requested_at: float | None = None
    #: The screen this one was opened from (``target=_blank``, ``window.open``): the same app's previous screen,
    #: shown again when this one closes or ``back`` leaves it.  The app's entry in ``WebDevice._apps`` is its top.
    below: _Page | None = None
    #: The page asked for a new window (``Page.windowOpen``) that is not adopted yet (loop time).
    opening: float | None = None
    #: The JavaScript dialog the page shows now (dialogs.py), and the last view walked (shown under it).
    dialog: Dialog | None = None
    last_walk: dict[str, Any] | None = None
    #: Main-frame navigations committed (``Page.frameNavigated``, ``Page.navigatedWithinDocument``).
    commits: int = 0
    #: Documents the main frame committed (``Page.frameNavigated``), and the one of them the walker was defined in
    #: (walk.py's walker_call): in a document the device has not seen yet, the walker is defined without asking.
    documents: int = 0
    walker_in: int | None = None

    def stack(self) -> Iterator[_Page]:
        """This screen and the ones below it, top first."""
        page: _Page | None = self
        while page is not None:
            yield page
            page = page.below


class WebDevice(Device):
    kind = "web"

    def __init__(self, profile: str | None = None) -> None:
        self.profile: Profile = resolve_profile(profile)
        self._browser: BrowserProcess | None = None
        self._cdp: CdpConnection | None = None
        self._server = StaticServer.for_package_data({HOME_PATH: lambda: home_html(self._apps)})
        self._apps: dict[str, _Page] = {}
        self._home: _Page | None = None
        self._spare: _Page | None = None
        self._by_session: dict[str, _Page] = {}
        self._suppressed = 0
        self._recorded = 0
        self._closed = False
        self._open_failure: str | None = None
        self._observer = Observer()
        self._recording: Recording | None = None
        #: Pages that app pages opened (popups being adopted as the app's new screen), and other owned tasks.
        self._tasks: set[asyncio.Task[Any]] = set()
        #: Targets adopted (or being adopted) as an app's new screen: from ``Target.attachedToTarget`` (paused before
        #: their first script) or, failing that, ``Target.targetCreated`` — never both.
        self._adopted: set[str] = set()
        try:
            self._scale = time_scale()
        except ValueError:
            self._scale = 1.0

    # -- lifecycle -------------------------------------------------------------------------------------------------
    async def open(self) -> None:
        try:
            await self._server.start()
            try:
                await self._start_browser(sandbox=None)
            except CdpClosed:
                # Exited before its first reply.  Where a sandbox was asked for and the machine has none that
                # works (a container without user namespaces), start without one, and say so in describe().
                if self._browser is None or self._browser.sandbox != SANDBOX_ON:
                    raise
                await self._drop_browser()
                await self._start_browser(sandbox=False)
        except (BrowserLaunchError, CdpError, OSError, TimeoutError) as exc:
            why = (self._browser.exit_reason() if self._browser is not None else None) or str(exc) or "no reply"
            self._open_failure = f"the web device could not start: {why}"
            await self.close()
            raise ProtocolError(
                e.DEVICE_UNAVAILABLE, self._open_failure, "Check that /usr/bin/chromium is installed and runs."
            ) from exc

    async def _start_browser(self, *, sandbox: bool | None) -> None:
        self._browser = BrowserProcess.launch(
            extra_flags=window_flags(self.profile.width, self.profile.height), sandbox=sandbox
        )
        self._cdp = await CdpConnection.open_pipe(self._browser.read_fd, self._browser.write_fd)
        self._cdp.subscribe(self._on_event)
        self._cdp.route_raw(CONSOLE_API, self._on_console)  # a page flooding its console: kept, decoded when read
        # The first reply is the sign that the browser is up.  Its first blank page becomes the first app's page
        # (a renderer already started), so a cold start pays for one page; the home screen is made when first
        # shown.
        targets = await asyncio.wait_for(self._cdp.send("Target.getTargets"), _START_TIMEOUT_S)
        blank = next((t["targetId"] for t in targets["targetInfos"] if t.get("type") == "page"), None)
        # Target.targetCreated with its openerId: a page an app opened becomes that app's new screen.
        await self._cdp.send("Target.setDiscoverTargets", {"discover": True})
        # and every new page attached before it runs: a page an app opens gets the hooks before its first script
        await self._cdp.send("Target.setAutoAttach", AUTO_ATTACH)
        self._spare = await self._new_page(blank)

    async def _drop_browser(self) -> None:
        if self._cdp is not None:
            await self._cdp.close()
            self._cdp = None
        if self._browser is not None:
            await asyncio.to_thread(self._browser.stop)
            self._browser = None

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._recording is not None:  # the file is finished, as far as the frames go
            recording, self._recording = self._recording, None
            with contextlib.suppress(Exception):
                await asyncio.wait_for(recording.stop(), 10)
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._cdp is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._cdp.send("Browser.close"), 1)
            await self._cdp.close()
        if self._browser is not None:
            await asyncio.to_thread(self._browser.stop)
        await self._server.stop()

    def health(self) -> str | None:
        if self._open_failure:
            return self._open_failure
        if self._closed:
            return "the web device is closed"
        if self._browser is not None and (reason := self._browser.exit_reason()):
            return reason
        if self._cdp is not None and self._cdp.closed:
            return self._cdp.closed_reason
        return None

    def counters(self) -> IssueCounters:
        return IssueCounters(self._suppressed, self._recorded)

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, **self.profile.describe()}
        if self._browser is not None:
            out["browserPid"] = self._browser.pid
            out["browser"] = self._browser.binary
            out["sandbox"] = self._browser.sandbox
        if self._server.port:
            out["demoUrl"] = self._server.url(DEMO_PATH)
        return out

    # -- error boundary --------------------------------------------------------------------------------------------
    @contextlib.contextmanager
    def _mapped(self, app_id: str | None = None) -> Iterator[None]:
        """The one place where lower-layer failures become protocol errors."""
        try:
            reason = self.health()
            if reason is not None:
                raise ProtocolError(e.DEVICE_UNAVAILABLE, reason, _RESTART_HINT)
            yield
        except ProtocolError:
            raise
        except CdpClosed as exc:
            raise ProtocolError(e.DEVICE_UNAVAILABLE, self.health() or str(exc), _RESTART_HINT) from exc
        except CdpDialogOpen as exc:
            # a dialog opened (by a timer, by the page loading) while a command that cannot run under it ran
            page = self._apps.get(app_id) if app_id else self._foreground()
            dialog = page.dialog if page is not None else None
            if dialog is None:  # a page not adopted yet
                dialog = next((p.dialog for p in self._by_session.values() if p.dialog), None) or Dialog("alert", "")
            raise dialogs.refused(dialog, "the page opened a dialog") from exc
        except CdpProtocolError as exc:
            page = self._apps.get(app_id) if app_id else None
            if page is not None and (page.gone or _target_gone(exc)):
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
            self._observer.on_console(raw, page.app_id)
        return True  # nothing else reads console events

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
                page.gone = "its renderer crashed"
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
                if method == "Page.frameNavigated":
                    page.documents += 1
        elif method == "Page.javascriptDialogOpening" and page is not None:
            page.dialog = Dialog.opening(params)
        elif method == "Page.javascriptDialogClosed" and page is not None:
            page.dialog, page.unsettled = None, True
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
            self._spawn(self._adopt(opener, target_id, str(info.get("url") or ""), session_id=session_id))
        else:
            self._spawn(self._let_go(session_id))

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

    async def _adopt_unless_attached(self, opener: _Page, target_id: str, url: str) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + AUTO_ATTACH_GRACE_S * self._scale
        while target_id not in self._adopted and loop.time() < deadline:
            await asyncio.sleep(0.01)
        if target_id not in self._adopted:
            self._adopted.add(target_id)
            await self._adopt(opener, target_id, url)

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
            raise ProtocolError(e.DEVICE_UNAVAILABLE, "the web device is not open", _RESTART_HINT)
        return self._cdp

    async def _attach(self, app_id: str, url: str) -> _Page:
        """A page showing ``url`` (the spare blank page if there is one, else a new target)."""
        page, self._spare = self._spare, None
        if page is None or page.gone:
            page = await self._new_page(None)
        else:  # made before a first logs / network turned their domains on: the app's page follows them too
            await self._follow_domains(page)
        page.app_id, page.url = app_id, url
        await self._navigate(page, url)
        # The app's history starts at its own page: `back` must never return to the blank page the target was
        # created with (that would blank the app instead of backgrounding it).
        await page.session.send("Page.resetNavigationHistory")
        page.unsettled = True
        return page

    async def _new_page(self, target_id: str | None, *, session_id: str | None = None) -> _Page:
        """Create (or take) a blank page target, attach to it (or take the session it was auto-attached with) and
        apply the device profile."""
        cdp = self._cdp_live
        if target_id is None:
            target_id = (await cdp.send("Target.createTarget", {"url": "about:blank"}))["targetId"]
        resume = session_id is not None  # auto-attached, paused before its first script: it runs once set up
        if session_id is None:
            attached = await cdp.send("Target.attachToTarget", {"targetId": target_id, "flatten": True})
            session_id = str(attached["sessionId"])
        page = _Page("", target_id, cdp.session(session_id), "about:blank")
        self._by_session[session_id] = page
        await apply_profile(
            page.session, self.profile, init_scripts=(PAGE_HOOKS_JS, settle.OBSERVER_SCRIPT), resume=resume
        )
        await self._follow_domains(page)
        return page

    async def _follow_domains(self, page: _Page) -> None:
        for on, (method, params) in ((self._observer.log_domain, LOG_ENABLE),
                                     (self._observer.network_domain, NETWORK_ENABLE)):  # fmt: skip
            if on:
                await page.session.send(method, params)

    async def _ensure_home(self) -> _Page:
        if self._home is None or self._home.gone:
            self._home = await self._attach(HOME_APP, self._server.url(HOME_PATH))
        return self._home

    async def _navigate(self, page: _Page, url: str) -> None:
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

    def _forget(self, page: _Page, reason: str) -> None:
        page.gone = page.gone or reason
        if self._apps.get(page.app_id) is page:
            del self._apps[page.app_id]
        self._by_session.pop(page.session.session_id, None)

    def _live(self, app_id: str) -> _Page:
        page = self._apps.get(app_id)
        if page is not None and page.gone:
            page = self._pop(page) or page
        if page is None or page.gone:
            if page is not None:
                self._forget(page, page.gone or "gone")
            raise ProtocolError(e.APP_NOT_AVAILABLE, f"{app_id} is not running", "Launch it with launchApp.")
        return page

    async def _freeze(self, top: _Page) -> None:
        for page in top.stack():  # the app's every screen
            if page.dialog is not None and not page.gone:
                await self._answer(page, accept=False)  # a phone dismisses a dialog whose app leaves the screen
            if not page.frozen and not page.gone:
                await freeze(page.session)
                page.frozen = True

    # -- screens of one app (pages it opened) -----------------------------------------------------------------------
    async def _adopt(self, opener: _Page, target_id: str, url: str, *, session_id: str | None = None) -> None:
        """Attach to a page that ``opener`` opened and make it the top screen of ``opener``'s app (the phone shows
        it; ``back`` returns to the screen below).  Auto-attached (``session_id``), it is paused before its first
        script: it runs once the page hooks are registered.  Otherwise its first document may have started before
        them, so they run in it too (each is idempotent); click listeners it added before are not known."""
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

    async def _await_screens(self, page: _Page) -> None:
        """After an action on ``page``: when it asked for a new window, wait (bounded) until that window is
        adopted as the app's new screen, so the reply and the next command see it."""
        if page.opening is None:
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + POPUP_WAIT_S * self._scale
        while page.opening is not None and loop.time() < deadline:
            await asyncio.sleep(0.01)
        page.opening = None  # blocked, or it never came: the app stays on this screen

    def _pop(self, gone: _Page) -> _Page | None:
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

    async def _show(self, page: _Page) -> None:
        with contextlib.suppress(CdpError):
            if page.frozen:
                await thaw(page.session)
                page.frozen = False
            await page.session.send("Page.bringToFront")

    async def _close_targets(self, top: _Page) -> None:
        """Close ``top`` and every screen below it."""
        for page in list(top.stack()):
            await self._close_target(page, "terminated")

    async def _close_target(self, page: _Page, why: str) -> None:
        if page.dialog is not None and not page.gone:
            with contextlib.suppress(CdpError):
                await self._answer(page, accept=False)
        self._by_session.pop(page.session.session_id, None)
        page.gone = page.gone or why
        with contextlib.suppress(CdpProtocolError):
            await self._cdp_live.send("Target.closeTarget", {"targetId": page.target_id})

    async def _front(self, page: _Page | None) -> None:
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

    def _foreground(self) -> _Page | None:
        return next((p for p in self._apps.values() if p.state is AppState.FOREGROUND and not p.gone), None)

    # -- app state -------------------------------------------------------------------------------------------------
    async def app_state(self, app_id: str) -> AppState:
        self._url_of(app_id)
        with self._mapped():
            page = self._apps.get(app_id)
            if page is None:
                return AppState.NOT_RUNNING
            if page.gone:
                self._forget(page, page.gone)
                return AppState.NOT_RUNNING
            return page.state

    async def activate(self, app_id: str) -> None:
        with self._mapped(app_id):
            await self._front(self._live(app_id))

    async def launch_app(self, app_id: str) -> dict[str, Any]:
        url = self._url_of(app_id)
        with self._mapped(app_id):
            old = self._apps.get(app_id)
            relaunched = old is not None and not old.gone
            if old is not None:
                await self._close_page(old)
            page = await self._attach(app_id, url)
            self._apps[app_id] = page
            await self._front(page)
            return {"appBundleId": app_id, "state": AppState.FOREGROUND.value, "relaunched": relaunched, "url": url}

    async def _close_page(self, page: _Page) -> None:
        self._forget(page, "terminated")
        await self._close_targets(page)

    async def terminate_app(self, app_id: str) -> dict[str, Any]:
        self._url_of(app_id)
        with self._mapped(app_id):
            page = self._apps.get(app_id)
            was_running = page is not None and not page.gone
            was_front = page is not None and page.state is AppState.FOREGROUND
            if page is not None:
                await self._close_page(page)
            if was_front:
                await self._front(None)
            return {"appBundleId": app_id, "wasRunning": was_running}

    async def list_apps(self) -> list[AppInfo]:
        with self._mapped():
            titles: dict[str, str] = {}
            infos = await self._cdp_live.send("Target.getTargets")
            for info in infos["targetInfos"]:
                titles[info["targetId"]] = info.get("title", "")
            apps = [
                AppInfo(p.app_id, AppState.NOT_RUNNING if p.gone else p.state, titles.get(p.target_id) or None)
                for p in self._apps.values()
            ]
            if DEMO_APP_ID not in self._apps:
                apps.append(AppInfo(DEMO_APP_ID, AppState.NOT_RUNNING, "phonewire demo"))
            return sorted(apps, key=lambda a: a.app_id)

    async def open_url(self, url: str) -> dict[str, Any]:
        if not url.startswith(("http://", "https://")):
            raise ProtocolError(
                e.APP_UNKNOWN,
                f"no app on the web device opens {url.split(':', 1)[0]!r} URLs",
                "Open an http:// or https:// URL.",
            )
        with self._mapped(url):
            owner = self._owner_of(url)
            if owner is not None:
                # a deep link into a running app: that app's page goes there (no new app)
                page = self._live(owner)
                await self._front(page)
                page.unsettled = True
                await self._navigate(page, url)
                page.url = url
                return {"appBundleId": owner, "state": AppState.FOREGROUND.value, "url": url, "navigated": True}
        return await self.launch_app(url)

    def _owner_of(self, url: str) -> str | None:
        """The running app a URL belongs to: the app with that id, else the foreground app of the URL's origin,
        else another running app of that origin (the launch URL's origin is an app's; the demo's is the device's
        loopback server).  None: the URL opens as an app of its own."""
        running = [p for p in self._apps.values() if not p.gone]
        if any(p.app_id == url for p in running):
            return url
        origin = _origin(url)
        same = [p for p in running if _origin(self._url_of(p.app_id)) == origin]
        same.sort(key=lambda p: p.state is not AppState.FOREGROUND)
        return same[0].app_id if same else None

    async def reset(self) -> dict[str, Any]:
        with self._mapped():
            dropped = [p.app_id for p in self._apps.values() if p.gone]
            for app_id in dropped:
                self._forget(self._apps[app_id], "reset")
            return {"reset": True, "dropped": dropped}

    # -- helpers for app-scoped commands ---------------------------------------------------------------------------
    async def _eval(self, page: _Page, expression: str, *, await_promise: bool = False) -> Any:
        return await evaluate(page.session, expression, await_promise=await_promise)

    async def _walker(self, page: _Page, probe: tuple[float, float] | None = None, *, before: str = "") -> Any:
        """The walk, or with ``probe`` the description of what a tap at that point hits, from the walker stored in
        the page (walk.py's walker_call), defined first where it is missing.  ``before``: an expression evaluated
        first, in the same evaluation."""
        document = page.documents
        if page.walker_in == document:
            value = await self._eval(page, before + walker_call(probe), await_promise=probe is None)
            if value != WALKER_MISSING:
                return value
            before = ""  # (it ran)
        value = await self._eval(page, before + walker_call(probe, define=True), await_promise=probe is None)
        page.walker_in = document
        return value

    def _prime_walker(self, page: _Page) -> asyncio.Future[None] | None:
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

    async def _settle(self, page: _Page) -> None:
        """One round trip through the page's main thread after a gesture or key: events the page emitted while
        handling the input (an uncaught exception) arrive before its reply, so the runner's counter bracket
        around the command sees them.  It also marks the action's time in the page (``settle.ACTION_MARK``), from
        which the next snapshot's quiet window counts.  Costs well under a millisecond."""
        if page.dialog is not None:
            return  # the page runs nothing until the dialog is answered
        with self._may_close(page):
            await page.session.send("Runtime.evaluate", {"expression": settle.ACTION_MARK})
            await self._await_screens(page)

    @contextlib.contextmanager
    def _may_close(self, page: _Page) -> Iterator[None]:
        """An action on a screen that an app opened may close it (a Done button calling ``window.close()``): its
        target goes mid-action, and the screen below it shows again.  The action happened."""
        try:
            yield
        except CdpProtocolError as exc:
            if not (_target_gone(exc) and any(p is not page and not p.gone for p in page.stack())):
                raise
            page.gone = page.gone or "its page closed"
            self._pop(page)

    # -- JavaScript dialogs (dialogs.py) ---------------------------------------------------------------------------
    @contextlib.contextmanager
    def _may_open_dialog(self, page: _Page) -> Iterator[None]:
        """An action whose effect is a dialog (a click handler calling ``confirm()``) ends there: the page answers
        nothing more until the dialog is answered, and the reply says it opened (the runner reads ``dialog()``)."""
        try:
            yield
        except CdpDialogOpen:
            if page.dialog is None:
                raise

    def dialog(self, app_id: str | None) -> dict[str, Any] | None:
        page = self._apps.get(app_id) if app_id else self._foreground()
        if page is None or page.gone or page.dialog is None:
            return None
        return page.dialog.wire

    async def _answer(self, page: _Page, *, accept: bool) -> Dialog:
        """Answer the page's dialog: OK (a prompt with its field's text) or Cancel."""
        dialog = page.dialog
        assert dialog is not None
        params: dict[str, Any] = {"accept": accept}
        if accept and dialog.kind == "prompt":
            params["promptText"] = dialog.text
        try:
            await page.session.send("Page.handleJavaScriptDialog", params)
        except CdpProtocolError as exc:
            if _target_gone(exc):
                raise
            # "No dialog is showing": it closed by itself (the page navigated) — nothing left to answer
        dialog.wire["answer"] = "accepted" if accept else "dismissed"
        if page.dialog is dialog:
            page.dialog = None
        page.unsettled = True
        return dialog

    async def _asked_to_leave(self, page: _Page, commits: int) -> bool:
        """After a step away was asked for (``commits`` counted before): wait (bounded) until a navigation commits
        or the page's ``beforeunload`` dialog opens instead; True for the dialog (the page stays until it is
        answered OK)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + LEAVE_WAIT_S * self._scale
        while page.dialog is None and page.commits == commits and not page.gone and loop.time() < deadline:
            await asyncio.sleep(0.01)
        return page.dialog is not None and page.dialog.kind == "beforeunload"

    def _dialog_viewport(self, page: _Page) -> Rect:
        walk = page.last_walk
        if walk is not None:
            return Rect.of(0, 0, walk.get("w"), walk.get("h"))
        return Rect.of(0, 0, self.profile.width, self.profile.height)

    def _dialog_snapshot(self, page: _Page, dialog: Dialog) -> Snapshot:
        """The dialog over the page's last walked view (the page answers no walk while the dialog is open)."""
        viewport = self._dialog_viewport(page)
        root = tree_from_walk(page.last_walk) if page.last_walk is not None else RawNode("Application", rect=viewport)
        dialogs.cover(root, dialogs.node(dialog, viewport))
        return build_snapshot(root, viewport, self.kind)

    async def _tap_dialog(self, page: _Page, dialog: Dialog, x: float, y: float, taps: int) -> str:
        target = dialogs.hit(dialog, self._dialog_viewport(page), x, y)
        if target == "field":
            dialog.focused = True
            return f"TextField of the {dialog.title()}"
        if taps != 1:
            raise ProtocolError(e.INVALID_REQUEST, f"a dialog button takes one tap, not {taps}", dialogs.hint(dialog))
        await self._answer(page, accept=target == dialogs.OK)
        return f"Button {json.dumps(target)} of the {dialog.title()}"

    def _no_dialog(self, page: _Page, what: str) -> None:
        if page.dialog is not None:
            raise dialogs.refused(page.dialog, f"{what} cannot run")

    def _dialog_field(self, dialog: Dialog) -> Dialog:
        """The prompt whose field takes typing; TEXT_INPUT_NOT_FOCUSED for any other dialog or an untapped field."""
        if dialog.kind != "prompt" or not dialog.focused:
            raise ProtocolError(
                e.TEXT_INPUT_NOT_FOCUSED,
                f"no editable element has focus: {dialog.a_title()} is open"
                + (" (tap its TextField first)" if dialog.kind == "prompt" else ""),
                dialogs.hint(dialog),
            )
        return dialog

    async def _require_focus(self, page: _Page) -> str:
        return await require_focus(page.session)

    async def _key(self, page: _Page, spec: dict[str, Any], text: str | None = None) -> None:
        with self._may_close(page):
            await gestures.key(page.session, spec, text)
        page.unsettled = True
        await self._settle(page)

    # -- app-scoped ------------------------------------------------------------------------------------------------
    async def viewport(self, app_id: str) -> Rect:
        with self._mapped(app_id):
            page = self._live(app_id)
            if page.dialog is not None:
                return self._dialog_viewport(page)
            w, h = await self._eval(page, "[window.innerWidth, window.innerHeight]")
            return Rect.of(0, 0, w, h)

    async def tap(self, app_id: str, x: float, y: float, taps: int = 1) -> str | None:
        with self._mapped(app_id):
            page = self._live(app_id)
            if page.dialog is not None:
                return await self._tap_dialog(page, page.dialog, x, y, taps)
            page.unsettled = True
            if taps == 1:
                # one evaluation: install the guard that keeps the click at the point (gestures.GUARD_JS), probe
                hit = describe(await self._walker(page, (x, y), before=f"({gestures.GUARD_JS})({x}, {y}), "))
                with self._may_close(page), self._may_open_dialog(page):
                    # the evaluation that answers once the click was handled also marks the action (_settle's work)
                    evaluate = partial(self._eval, page, await_promise=True)
                    if await gestures.exact_tap(page.session, evaluate, x, y, then=settle.ACTION_MARK):
                        await self._await_screens(page)
                        return hit
            else:
                hit = describe(await self._walker(page, (x, y)))
                with self._may_close(page), self._may_open_dialog(page):
                    await gestures.taps(page.session, x, y, taps)
            await self._settle(page)
            return hit

    async def long_press(self, app_id: str, x: float, y: float, duration_ms: float) -> None:
        with self._mapped(app_id):
            page = self._live(app_id)
            self._no_dialog(page, "long press")
            page.unsettled = True
            with self._may_open_dialog(page):
                await gestures.long_press(page.session, x, y, duration_ms)
            await self._settle(page)

    async def drag(
        self,
        app_id: str,
        start: tuple[float, float],
        end: tuple[float, float],
        *,
        duration_ms: float,
        hold_ms: float,
        settle_ms: float,
    ) -> None:
        with self._mapped(app_id):
            page = self._live(app_id)
            self._no_dialog(page, "drag")
            page.unsettled = True
            with self._may_open_dialog(page):
                await gestures.drag(
                    page.session, start, end, duration_ms=duration_ms, hold_ms=hold_ms, settle_ms=settle_ms
                )
            await self._rest(page)
            await self._settle(page)

    async def _rest(self, page: _Page) -> None:
        """After a drag: wait (bounded) until nothing scrolls any more — a fling decelerating, smooth scrolling,
        snapping — so the reply, its ``changed`` and the next snapshot show where the content came to rest."""
        if page.dialog is None:
            await self._eval(page, scrolling.REST_JS, await_promise=True)

    async def scroll(
        self,
        app_id: str,
        direction: str,
        *,
        amount: float,
        at: tuple[float, float] | None = None,
        reveal: Sequence[str] | None = None,
        reveal_only: bool = False,
    ) -> dict[str, Any]:
        with self._mapped(app_id):
            page = self._live(app_id)
            self._no_dialog(page, "scroll")
            plan = await self._eval(page, scrolling.plan_expression(direction, amount, at, reveal, only=reveal_only))
            if not isinstance(plan, dict):
                raise ProtocolError(e.COMMAND_FAILED, "the page gave no scroll plan", "Take a snapshot.")
            if "from" not in plan:  # at the end already, or (find) the element shows: nothing to drag
                result = scrolling.outcome(plan, await self._eval(page, scrolling.MEASURE_JS))
                if result.get("distance"):  # find's jump went all the way
                    page.unsettled = True
                    await self._settle(page)
                return result
            page.unsettled = True
            start, end = (float(plan["from"][0]), float(plan["from"][1])), (float(plan["to"][0]), float(plan["to"][1]))
            with self._may_open_dialog(page):
                await gestures.drag(
                    page.session, start, end, duration_ms=SCROLL_DRAG_MS, hold_ms=SCROLL_HOLD_MS,
                    settle_ms=SCROLL_REST_MS,
                )  # fmt: skip
            if page.dialog is not None:
                return {"direction": direction}
            await self._rest(page)
            result = scrolling.outcome(plan, await self._eval(page, scrolling.MEASURE_JS))
            await self._settle(page)
            return result

    async def type_text(self, app_id: str, text: str) -> None:
        with self._mapped(app_id):
            page = self._live(app_id)
            if page.dialog is not None:
                self._dialog_field(page.dialog).text += text
                return
            kind = await self._require_focus(page)
            if not text:
                return
            page.unsettled = True
            if kind in controls.VALUE_KINDS:
                # a date/time/number field has no caret to type at: its value is set whole and read back
                current = await self._eval(page, "document.activeElement.value") if kind == "input:number" else ""
                value = str(current or "") + text
                controls.checked(await self._eval(page, controls.expression(None, [value])), [value])
            else:
                # read back once the keys' handlers ran: a picker or mask may have rewritten the field (readback)
                before = await self._eval(page, readback.MARK_JS)
                with self._may_open_dialog(page):
                    await gestures.type_text(page.session, text)
                if self.dialog(app_id) is not None:
                    return  # a key's handler opened a dialog: the reply says so, nothing more can be read now
                await self._settle(page)
                if before is not None:
                    try:
                        after = await self._eval(page, readback.READ_JS, await_promise=True)
                    except CdpProtocolError:  # the document went away under the read (typing navigated)
                        after = None
                    failed = readback.mismatch(before, after, text)
                    if failed is not None:
                        raise failed
                return
            await self._settle(page)

    async def keyboard_return(self, app_id: str) -> None:
        with self._mapped(app_id):
            page = self._live(app_id)
            if page.dialog is not None:  # return in a dialog is its OK
                await self._answer(page, accept=True)
                return
            await self._require_focus(page)
            await self._key(page, gestures.ENTER, "\r")

    async def keyboard_delete(self, app_id: str) -> None:
        with self._mapped(app_id):
            page = self._live(app_id)
            if page.dialog is not None:
                field = self._dialog_field(page.dialog)
                field.text = field.text[:-1]
                return
            kind = await self._require_focus(page)
            if kind in controls.VALUE_KINDS:
                # backspace in a date/time field clears it (one segment at a time would leave a half date); in a
                # number field it drops the last character
                current = str(await self._eval(page, "document.activeElement.value") or "")
                value = current[:-1] if kind == "input:number" else ""
                page.unsettled = True
                await self._eval(page, controls.expression(None, [value]))
                return
            await self._key(page, gestures.BACKSPACE)

    async def change_mark(self, app_id: str | None) -> str | None:
        page = self._live(app_id) if app_id else self._foreground()
        if page is None:
            return "home"
        if page.dialog is not None:
            return f"{page.target_id}:dialog:{id(page.dialog)}"  # a dialog opening (or another one) is a change
        if settle.navigating(page):
            return f"navigating:{asyncio.get_running_loop().time()}"  # a new screen is on its way: a change
        return f"{page.target_id}:{await self._eval(page, CHANGE_MARK)}"

    async def key(self, app_id: str, key: str) -> None:
        spec, text = gestures.KEYS[key]
        with self._mapped(app_id):
            page = self._live(app_id)
            if page.dialog is not None:
                if key == "escape":  # Escape is a dialog's Cancel
                    await self._answer(page, accept=False)
                    return
                if key == "space":
                    self._dialog_field(page.dialog).text += " "
                    return
                raise dialogs.refused(page.dialog, f"the {key} key cannot be pressed")
            before = await self._eval(page, CHANGE_MARK)
            await self._key(page, spec, text)
            # the page's answer to a key may render a moment later (Gradio's list closes on Escape after the key):
            # when nothing changed yet, two frames more, as back waits, so the reply's `changed` sees it (findings
            # 4, F7; a key the page answered at once pays one round trip, ~1 ms, not the ~27 ms of the frames)
            with self._may_close(page):
                if await self._eval(page, CHANGE_MARK) == before:
                    await self._eval(page, _TWO_FRAMES, await_promise=True)

    async def set_value(
        self, app_id: str, x: float, y: float, values: list[str], *, add: bool = False
    ) -> dict[str, Any]:
        with self._mapped(app_id):
            page = self._live(app_id)
            self._no_dialog(page, "setting a value")
            page.unsettled = True
            try:
                result = controls.checked(await self._eval(page, controls.expression((x, y), values, add=add)), values)
            except CdpDialogOpen:
                if page.dialog is None:
                    raise
                # the page's change handler opened a dialog: the value was set, its read-back waits on the dialog
                return {"selected": list(values)}
            await self._settle(page)
            return result

    async def snapshot(self, app_id: str) -> Snapshot:
        with self._mapped(app_id):
            page = self._live(app_id)
            if page.dialog is not None:
                return self._dialog_snapshot(page, page.dialog)
        try:
            return await self._walked(app_id)
        except ProtocolError:
            top = self._apps.get(app_id)
            if top is None or top.dialog is None:
                raise
            return self._dialog_snapshot(top, top.dialog)  # a timer opened one while the page settled

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
            page.unsettled = False
            if loading is None and settle.navigating(page):
                loading = "a navigation was under way"
            try:
                walk = await self._walker(page)
            except ProtocolError as exc:
                if exc.code != e.COMMAND_FAILED:
                    raise
                # (the runner retries a failed capture once after a short pause; the device does not)
                raise ProtocolError(
                    e.SNAPSHOT_FAILED, exc.message, "Retry the snapshot; if it keeps failing, take a screenshot."
                ) from exc
            if not isinstance(walk, dict):
                raise ProtocolError(e.SNAPSHOT_FAILED, "the page returned no snapshot", "Retry the snapshot.")
            page.last_walk = walk
            return snapshot_from_walk(walk, self.kind, loading=loading)

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

    async def _back(self, page: _Page) -> dict[str, Any]:
        """Back, in the order an Android phone uses: what the app would close first (a drawer or dialog is app
        state, not history: the page gets Escape, the key its dialogs and drawers close on), then the page's
        history, then the screen this one was opened from, and only then the app leaves for the home screen."""
        page.unsettled = True
        if page.dialog is not None:  # the dialog first: back is its Cancel
            dialog = await self._answer(page, accept=False)
            title = dialog.title()
            return {"message": f"dismissed the {title} (Cancel)", "back": "closed", "closed": title}
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
            if await self._asked_to_leave(page, commits):
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

    async def screenshot(self, *, format: str = "png", scale: str = "device", quality: int = 80) -> Screenshot:
        with self._mapped():
            page = self._foreground() or await self._ensure_home()
            if page.dialog is not None:  # the renderer draws no frame until the dialog is answered
                raise dialogs.refused(page.dialog, "no screenshot can be taken (the page draws nothing under it)")
            return await capture.screenshot(page.session, self.profile, format=format, scale=scale, quality=quality)

    # -- logs, requests, video (observe.py, screencast.py) ---------------------------------------------------------
    def _app_pages(self) -> list[_Page]:
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
#: 100 ms before back (a page that keeps moving cannot tell that it answered Escape).  Called with ``at`` = null
#: before the Escape: read once the page has been still for 100 ms (an action just ran, a modal is still
#: mounting: findings 3, E15), or after 600 ms of a page that keeps moving; then with the first call's ``at``: read
#: two frames later, when the page's answer to the key has rendered, with ``changed`` = the DOM changed
#: structurally since.
LAYERS_JS = """(at) => new Promise(done => {
  const frames = (f) => requestAnimationFrame(() => requestAnimationFrame(f));
  const start = performance.now();
  const still = (f) => {
    const q = window.__phonewireQuiet, now = performance.now();
    if (!q || now - q.last >= 100 || now - start >= 600) f(); else setTimeout(() => still(f), 20);
  };
  (at === null ? still : frames)(() => {
  const layers = [];
  const sel = "dialog[open], [role=dialog], [role=alertdialog], [aria-modal=true], [popover]";
  for (const el of document.querySelectorAll(sel)) {
    try { if (el.hasAttribute("popover") && !el.matches(":popover-open")) continue; } catch (err) { continue; }
    if (el.closest("[hidden], [aria-hidden=true]") || (el.tagName === "DIALOG" && !el.open)) continue;
    const r = el.getBoundingClientRect(), st = getComputedStyle(el);
    if (r.width < 1 || r.height < 1 || st.visibility === "hidden" || Number(st.opacity) === 0) continue;
    if (r.right <= 0 || r.bottom <= 0 || r.left >= innerWidth || r.top >= innerHeight) continue;
    const by = el.getAttribute("aria-labelledby");
    const text = (id) => (document.getElementById(id) || {}).textContent || "";
    const labelled = by ? by.split(/\\s+/).map(text).join(" ") : "";
    const name = (el.getAttribute("aria-label") || labelled).replace(/\\s+/g, " ").trim().slice(0, 60);
    const role = el.getAttribute("role") === "alertdialog" ? "Alert" : "Dialog";
    layers.push(role + (name ? ` ${JSON.stringify(name)}` : "") + (el.id ? ` id=${el.id}` : ""));
  }
  const q = window.__phonewireQuiet, now = performance.now();
  done({layers, at: now, quiet: !q || now - q.last >= 100, changed: at !== null && !!q && q.last > at});
})})"""


#: How long back waits for its history step to be taken, or for the page's beforeunload dialog (scaled).
LEAVE_WAIT_S = 1.0
#: How long an action waits for a window its page opened to become the app's new screen (scaled).
POPUP_WAIT_S = 1.0

_RESTART_HINT = (
    "The browser behind the web phone is gone; the runner starts a new one on the next command "
    "(every app's state is lost: open the app again)."
)


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def _target_gone(exc: CdpProtocolError) -> bool:
    text = exc.message.lower()
    return "session with given id not found" in text or "target closed" in text or "no target with given id" in text
