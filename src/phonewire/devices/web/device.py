"""The web phone: a touch phone emulated in headless Chromium, driven over the DevTools protocol.

Pieces (one module each): :mod:`.browser` the Chromium process, :mod:`.cdp` the DevTools pipe, :mod:`.profiles`
the screen metrics, :mod:`.server` the loopback server of the demo and the home screen, ``walker.js`` /
:mod:`.walk` the in-page snapshot walk, :mod:`.gestures` input events, :mod:`.controls` native controls,
:mod:`.settle` settled screens, :mod:`.capture` screenshots, :mod:`.page_script` evaluations, :mod:`.roles`; page
JavaScript in ``.js`` files beside them (:mod:`.js` loads them).  The device itself is built in rooms, each a class
the next one extends: :mod:`.pages` (targets, events, the app model, the error boundary) → :mod:`.view` (snapshot,
viewport, screenshot, logs, requests, video) → :mod:`.input` (taps, gestures, typing, keys, values) → :mod:`.back`
(home and back); :class:`WebDevice` here starts and stops the browser and answers the app commands.

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
its hooks run late.  Each new screen is a stack whose top is the app's page (``target.Page.below``); ``back`` on it, or
the page closing itself, shows the screen below.  A deep link (``open_url``) into a running app's origin navigates
that app.  ``back`` closes what the app would close first (Escape: a dialog, a drawer), then goes back in history, then
pops a screen, and only then shows home (:meth:`back.Buttons._back`).

Settled screens: every action on a page marks it unsettled, and the next snapshot first waits for the screen to
settle (:func:`settle.settle_screen`, bounded; a snapshot of a page still loading says so in ``quality``).

Errors are mapped in exactly one place (:meth:`pages.Pages._mapped`): a closed DevTools socket or a dead browser
→ DEVICE_UNAVAILABLE, a target that vanished → APP_NOT_AVAILABLE, any other DevTools failure → COMMAND_FAILED.

Counters: ``suppressed`` counts uncaught exceptions thrown by app pages (``Runtime.exceptionThrown``) — page
noise that the runner turns into a ``warning`` when it grows during a mutation; ``recorded`` counts renderer
crashes of app pages (``Inspector.targetCrashed``) — real failures.  The first command on a crashed app (or one
ended for not answering, pages.PAGE_SCRIPT_BUDGET_S) answers APP_CRASHED with what happened; then it is not running.
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
from typing import Any
from urllib.parse import urlsplit

from phonewire.devices.base import AppInfo, AppState, IssueCounters
from phonewire.devices.web.browser import SANDBOX_ON, BrowserLaunchError, BrowserProcess, start_failure, window_flags
from phonewire.devices.web.cdp import CdpClosed, CdpConnection, CdpError
from phonewire.devices.web.environment import Environment
from phonewire.devices.web.home import DEMO_APP_ID, home_html
from phonewire.devices.web.observe import CONSOLE_API, Observer
from phonewire.devices.web.pages import AUTO_ATTACH, DEMO_PATH, HOME_PATH, crashed
from phonewire.devices.web.profiles import Profile, resolve_profile
from phonewire.devices.web.screencast import Recording
from phonewire.devices.web.server import StaticServer
from phonewire.devices.web.target import Page
from phonewire.protocol import errors as e
from phonewire.protocol.commands import time_scale
from phonewire.protocol.errors import ProtocolError

__all__ = ["DEMO_APP_ID", "WebDevice"]

_START_TIMEOUT_S = 20.0  # launch to the first DevTools reply
#: How long a browser that failed to start is given to exit, so its status (a signal, a limit) is what the refusal says.
_EXIT_WAIT_S = 2.0


class WebDevice(Environment):
    kind = "web"

    def __init__(self, profile: str | None = None) -> None:
        self.profile: Profile = resolve_profile(profile)
        self._browser: BrowserProcess | None = None
        self._cdp: CdpConnection | None = None
        self._server = StaticServer.for_package_data({HOME_PATH: lambda: home_html(self._apps)})
        self._apps: dict[str, Page] = {}
        self._home: Page | None = None
        self._spare: Page | None = None
        self._by_session: dict[str, Page] = {}
        self._frame_pages: dict[str, Page] = {}
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
        self._permission: dict[str, str] = {}
        self._location: tuple[float, float, float] | str | None = "unset"
        self._connectivity = "online"
        self._appearance: str | None = None
        self._adopting: dict[str, int] = {}
        self._windows_closed: dict[str, int] = {}
        self._popups_blocked: dict[str, int] = {}
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
            if self._browser is not None:  # its pipe closed as it died: its status, once it is read, says how
                with contextlib.suppress(subprocess.TimeoutExpired):
                    await asyncio.to_thread(self._browser.process.wait, _EXIT_WAIT_S)
            why, hint = start_failure(self._browser, exc)
            self._open_failure = f"the web device could not start: {why}"
            await self.close()
            raise ProtocolError(e.DEVICE_UNAVAILABLE, self._open_failure, hint) from exc

    async def _start_browser(self, *, sandbox: bool | None) -> None:
        self._browser = BrowserProcess.launch(
            extra_flags=window_flags(self.profile.width, self.profile.height), sandbox=sandbox
        )
        self._cdp = await CdpConnection.open_pipe(self._browser.read_fd, self._browser.write_fd)
        self._cdp.subscribe(self._on_event)
        self._cdp.subscribe(self._on_frame_event)
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

    # -- app state -------------------------------------------------------------------------------------------------
    async def app_state(self, app_id: str) -> AppState:
        if app_id not in self._apps:
            self._url_of(app_id)  # (an id no app of this device can have: APP_UNKNOWN)
        with self._mapped():
            page = self._apps.get(app_id)
            if page is None:
                return AppState.NOT_RUNNING
            if page.crashed:  # said once, as what it is; then the app is simply not running
                self._forget(page, page.gone or "its renderer crashed")
                raise crashed(app_id, page)
            if page.gone:
                self._forget(page, page.gone)
                return AppState.NOT_RUNNING
            return page.state

    async def activate(self, app_id: str) -> None:
        with self._mapped(app_id):
            await self._front(self._live(app_id))

    async def launch_app(
        self, app_id: str, clear_state: bool = False, *, locale: str | None = None, timezone: str | None = None
    ) -> dict[str, Any]:
        url = self._url_of(app_id)
        with self._mapped(app_id):
            options = await self._launch_options(locale, timezone)  # refused before the app is touched
            old = self._apps.get(app_id)
            relaunched = old is not None and not old.gone
            if old is not None:
                await self._close_page(old)
            page = await self._attach(app_id, url, clear=clear_state)
            self._apps[app_id] = page
            await self._front(page)
            title = await self._title(page)
            launched = {"appBundleId": app_id, "state": AppState.FOREGROUND.value, "relaunched": relaunched, "url": url}
            return launched | ({"stateCleared": True} if clear_state else {}) | ({"title": title} if title else {}) | (
                options)  # fmt: skip

    async def _title(self, page: Page) -> str:
        """The title of the document the app shows (what loaded: a login page's where the app was asked), or ""."""
        try:
            title = await self._eval(page, "document.title")
        except (CdpError, ProtocolError):
            return ""
        return " ".join(title.split()) if isinstance(title, str) else ""

    async def _close_page(self, page: Page) -> None:
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
                title = await self._title(page)
                return {"appBundleId": owner, "state": AppState.FOREGROUND.value, "url": url, "navigated": True} | (
                    {"title": title} if title else {}
                )
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


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()
