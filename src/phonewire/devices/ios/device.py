"""The iOS backend: a :class:`Device` that fronts a WebDriverAgent (appium/WebDriverAgent) over HTTP.

``--device ios:http://HOST:PORT`` names the WDA; ``ios`` / ``ios:UDID`` find a booted simulator (``xcrun simctl``)
or a connected device (``xcrun devicectl``, else go-ios) (:mod:`phonewire.devices.ios.discovery`) and use the WDA on
127.0.0.1:8100 (``PHONEWIRE_WDA_URL`` overrides).

Session lifecycle (one long-lived session, never tied to an app)::

    open ─► GET /status (value.ready) ─► POST /session (no bundleId: deleting it must not terminate an app)
         ─► POST /session/S/appium/settings {"settings": {…}} ─► GET /session/S/wda/screen (scale)
    every command ─► session-scoped call ─(404 invalid session id: WDA refused it, nothing ran)─► new session,
                                           the same call once more
                  ─(unreachable / no answer / bad reply)─► DEVICE_UNAVAILABLE; the session is dropped and the
                                           next command re-checks /status and opens a new one.  A call whose
                                           reply was lost is never sent again.
    close ─► DELETE /session/S (best effort)

App state without a round trip (the runner asks :meth:`app_state` before every app-scoped command)::

    POST /wda/apps/state says 4 (foreground) ─► remembered for that bundle id, for STATE_FRESH_S (x time scale)
    app_state within that time, same app      ─► FOREGROUND without a call
    any command that can change the screen    ─► forgotten first (tap, type, drag, press, launch, activate,
    (every mutation) or any failure              terminate, openUrl, reset), so the next command asks WDA again

So a tap right after a snapshot is one ``/wda/tap``; a snapshot after a tap asks WDA again.  What the rule cannot
see is a foreground change that no command of this runner caused (a notification tapped by hand, an app that
switches itself) during those STATE_FRESH_S: a tap in that window lands on whatever is in front.

Alerts: the snapshot's JSON source holds an app's own alerts (``XCUIElementTypeAlert``, with its buttons and their
rects); a system alert (SpringBoard: permission prompts) is outside the app's tree, so when the source has no alert
one ``GET /alert/text`` asks WDA (and ``GET /wda/alert/buttons`` when there is one).  Either way the snapshot shows
an ``Alert`` node with its ``Button`` children, and everything outside it ``coveredBy`` the alert (a modal alert
swallows taps elsewhere).  A single tap inside one of those buttons — by ref or by point — is sent as ``POST
/alert/accept {"name": label}`` (WDA clicks the alert button with that label, or answers ``no such alert``), never
as a coordinate tap: a system alert's button rects are not reported by WDA and are laid out where iOS draws them.

Every WDA call runs in a worker thread (``asyncio.to_thread``), so the runner's event loop keeps answering
``status`` while WDA works; failures are mapped in one table (:mod:`phonewire.devices.ios.errors`).
"""

from __future__ import annotations

import asyncio
import base64
import io
import json
import math
import re
import time
import zoneinfo
from collections.abc import Callable
from typing import Any, Final, TypeVar

from PIL import Image

from phonewire.devices.base import AppInfo, AppState, Device, Screenshot
from phonewire.devices.ios.client import LAUNCH_TIMEOUT_S, SOURCE_TIMEOUT_S, WdaClient, WdaError, canonical_url
from phonewire.devices.ios.errors import map_failure
from phonewire.devices.ios.repertoire import IosRepertoire
from phonewire.devices.ios.source import keyboard_rect, parse_json_source, walk
from phonewire.protocol import errors as e
from phonewire.protocol.commands import time_scale
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.request import TIMEZONE_HINT, css_image_size
from phonewire.protocol.snapshot import INTERACTIVE_ROLES, RawNode, Rect, Snapshot, build_snapshot, refuse_under

T = TypeVar("T")

BACKEND: Final = "ios-wda"
SPRINGBOARD: Final = "com.apple.springboard"

#: Capabilities of the one session: no bundleId (the session must not own an app), no quiescence waits.
CAPABILITIES: Final[dict[str, Any]] = {
    "capabilities": {
        "alwaysMatch": {"shouldWaitForQuiescence": False, "shouldUseTestManagerForVisibilityDetection": False}
    }
}
#: ``POST /session/S/appium/settings`` — the ``settings`` wrapper is required by WDA.
SETTINGS: Final[dict[str, Any]] = {
    "settings": {"waitForIdleTimeout": 0.5, "animationCoolOffTimeout": 0, "snapshotMaxDepth": 60}
}
#: Attributes the snapshot does not read (``hittable`` is the expensive one: WDA hit-tests every element for it).
SOURCE_QUERY: Final = "format=json&excluded_attributes=hittable,accessible,traits,index"

#: ``XCUIApplicationState`` as ``/wda/apps/state`` reports it.
APP_STATES: Final[dict[int, AppState]] = {
    1: AppState.NOT_RUNNING,  # notRunning
    2: AppState.BACKGROUND,  # runningBackgroundSuspended
    3: AppState.BACKGROUND,  # runningBackground
    4: AppState.FOREGROUND,  # runningForeground
}
#: Wire button → WDA ``pressButton`` name; volume buttons exist only on real devices.
BUTTONS: Final[dict[str, str]] = {"home": "home", "volumeUp": "volumeup", "volumeDown": "volumedown"}
TAP_DOWN_MS: Final = 50
TAP_GAP_MS: Final = 80
#: How long a "foreground" answer of ``/wda/apps/state`` is trusted without asking again (x time scale), as long as
#: no command that can change the screen ran since.  A target's tap resolves its target with a snapshot first, so
#: the snapshot's check and the tap are milliseconds apart.
STATE_FRESH_S: Final = 2.0
#: Where iOS draws a standard alert (points): used only to place a system alert's buttons, whose rects WDA does not
#: report.  A tap inside them is sent to WDA by label, never as coordinates, so the layout only has to be plausible.
ALERT_WIDTH: Final = 270.0
ALERT_TEXT_HEIGHT: Final = 100.0
ALERT_BUTTON_HEIGHT: Final = 44.0

_BUNDLE_RE: Final = re.compile(r"^[A-Za-z0-9-]+(\.[A-Za-z0-9_-]+)+$")
_ELEMENT_KEY: Final = "element-6066-11e4-a52e-4f735466cecf"


def launch_environment(locale: str | None, timezone: str | None) -> tuple[list[str], dict[str, str]]:
    """An app's language and time zone for one launch, as an iOS app is given them from outside: the launch
    arguments ``-AppleLanguages (fr-FR) -AppleLocale fr_FR`` (they override the user defaults the app reads through
    Locale / NSLocale) and the process's ``TZ`` (TimeZone.current).  WebDriverAgent's ``/wda/apps/launch`` passes both
    to the app it starts (a running app is relaunched).  WDA checks no zone (an unknown one would be UTC without a
    word): a name the tz database here does not hold is INVALID_REQUEST, before anything is sent."""
    zones = zoneinfo.available_timezones()
    if timezone is not None and zones and timezone not in zones:
        raise ProtocolError(e.INVALID_REQUEST, f"no time zone is named {timezone!r}", TIMEZONE_HINT)
    arguments = ["-AppleLanguages", f"({locale})", "-AppleLocale", locale.replace("-", "_")] if locale else []
    return arguments, {"TZ": timezone} if timezone else {}


class IosDevice(IosRepertoire, Device):
    kind = "ios"

    def __init__(self, target: str | None = None, *, scale: float | None = None) -> None:
        self.target = target
        self.scale = time_scale() if scale is None else scale
        self.url: str | None = None
        self.udid: str | None = None
        self._client: WdaClient | None = None
        self._sid: str | None = None
        self.simulator: bool | None = None
        self.screen_scale: float = 1.0
        self.last_failure: str | None = None
        self._closed = False
        #: The clock the state cache reads (tests move it).
        self.clock: Callable[[], float] = time.monotonic
        #: (bundle id, when WDA last said it was in front); None when a command may have changed that since.
        self._front: tuple[str, float] | None = None
        #: The alert the last snapshot of an app showed: (bundle id, [(button rect, label)]).
        self._alert_buttons: tuple[str, list[tuple[Rect, str]]] | None = None
        #: The on-screen keyboard the last snapshot showed (repertoire.py: taps under it are refused).
        self._keyboard: Rect | None = None
        #: App-state checks answered from :attr:`_front` (``describe``).
        self.state_cache_hits = 0

    # -- plumbing ----------------------------------------------------------------------------------------------
    @property
    def client(self) -> WdaClient:
        if self._client is None:
            raise ProtocolError(e.DEVICE_UNAVAILABLE, "the iOS device is not open", "Restart the runner.")
        return self._client

    def _session(self) -> str:
        if self._sid is None:
            status = self.client.get("/status")
            if isinstance(status, dict) and status.get("ready") is False:
                raise ProtocolError(
                    e.DEVICE_UNAVAILABLE,
                    f"WebDriverAgent at {self.url} is not ready ({status.get('message', 'no message')})",
                    "Wait for WebDriverAgentRunner to finish starting (its log says ServerURLHere), then resend.",
                )
            ios = status.get("ios") if isinstance(status, dict) else None
            self.simulator = isinstance(ios, dict) and "simulatorVersion" in ios
            created = self.client.post("/session", CAPABILITIES)
            sid = created.get("sessionId") if isinstance(created, dict) else None
            if not isinstance(sid, str) or not sid:
                raise ProtocolError(e.DEVICE_UNAVAILABLE, f"WebDriverAgent at {self.url} returned no session id",
                                    "Restart WebDriverAgentRunner, then resend.")  # fmt: skip
            self.client.post(f"/session/{sid}/appium/settings", SETTINGS)
            self._sid = sid
        return self._sid

    def _call(self, method: str, route: str, body: Any = None, *, timeout_s: float | None = None) -> Any:
        """One session-scoped call.  ``invalid session id`` means WDA refused it before running it, so it is sent
        once more under a new session; every other failure propagates (and a lost reply is never resent)."""
        kwargs: dict[str, Any] = {} if timeout_s is None else {"timeout_s": timeout_s}
        for attempt in (1, 2):
            path = f"/session/{self._session()}{route}"
            try:
                if method == "GET":
                    return self.client.get(path, **kwargs)
                return self.client.post(path, body, **kwargs)
            except WdaError as exc:
                if exc.error != "invalid session id" or attempt == 2:
                    raise
                self._sid = None
        raise AssertionError("unreachable")

    def _forget(self) -> None:
        """A command that can change the screen (or the foreground app) is about to run: what the last observation
        said no longer holds."""
        self._front = None
        self._alert_buttons = None
        self._keyboard = None

    async def _run(self, work: Callable[[], T], *, source: bool = False) -> T:
        try:
            result = await asyncio.to_thread(work)
        except Exception as exc:
            self._forget()
            mapped = map_failure(exc, url=self.url or "WebDriverAgent", source=source)
            if mapped.lost:
                self._sid = None  # the next command re-checks /status and opens a new session
            if mapped.error.code == e.DEVICE_UNAVAILABLE:
                self.last_failure = mapped.error.message
            raise mapped.error from exc
        self.last_failure = None
        return result

    # -- lifecycle ---------------------------------------------------------------------------------------------
    async def open(self) -> None:
        url = self.target
        if url is None or not url.lower().startswith("http"):
            from phonewire.devices.ios.discovery import resolve

            found = await asyncio.to_thread(resolve, url)
            self.udid, url = found.udid, found.url
        try:
            self.url = canonical_url(url)
        except ValueError as exc:
            raise ProtocolError(e.INVALID_REQUEST, str(exc), "Write it as ios:http://127.0.0.1:8100.") from exc
        self._client = WdaClient(self.url, scale=self.scale)

        def work() -> None:
            sid = self._session()
            screen = self.client.get(f"/session/{sid}/wda/screen")
            scale = screen.get("scale") if isinstance(screen, dict) else None
            self.screen_scale = float(scale) if isinstance(scale, (int, float)) and scale > 0 else 1.0

        await self._run(work)

    async def close(self) -> None:
        self._closed = True
        client, sid, self._sid = self._client, self._sid, None
        if client is None or sid is None:
            return
        try:  # the session owns no app (created without bundleId), so deleting it terminates nothing
            await asyncio.to_thread(client.delete, f"/session/{sid}", timeout_s=2.0)
        except Exception:  # close must not raise: WDA may already be gone
            return

    def health(self) -> str | None:
        return "the iOS device was closed" if self._closed else None

    def describe(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "backend": BACKEND,
            "url": self.url,
            "udid": self.udid,
            "simulator": self.simulator,
            "screenScale": self.screen_scale,
            "session": self._sid is not None,
            "lastFailure": self.last_failure,
            "stateCacheHits": self.state_cache_hits,
        }

    # -- app state ---------------------------------------------------------------------------------------------
    @staticmethod
    def _check_bundle(app_id: str) -> None:
        if not _BUNDLE_RE.match(app_id):
            raise ProtocolError(
                e.APP_UNKNOWN,
                f"{app_id!r} is not an iOS bundle id",
                "On iOS an app id is its bundle id, e.g. com.apple.Preferences; listApps shows the running ones.",
            )

    def _state(self, app_id: str) -> AppState:
        raw = self._call("POST", "/wda/apps/state", {"bundleId": app_id})
        state = APP_STATES.get(raw) if isinstance(raw, int) else None
        if state is None:
            raise ProtocolError(
                e.APP_UNKNOWN,
                f"WebDriverAgent knows no app {app_id!r} (state {raw!r})",
                "Check the bundle id (listApps shows the running apps); install the app first.",
            )
        return state

    async def app_state(self, app_id: str) -> AppState:
        """WDA's answer, or FOREGROUND without a call when WDA said so for this app less than STATE_FRESH_S ago
        and no command that can change the screen ran since (see the module docstring)."""
        self._check_bundle(app_id)
        asked = self.clock()
        front = self._front
        if front is not None and front[0] == app_id and asked - front[1] <= STATE_FRESH_S * self.scale:
            self.state_cache_hits += 1
            return AppState.FOREGROUND
        state = await self._run(lambda: self._state(app_id))
        self._front = (app_id, asked) if state is AppState.FOREGROUND else None
        return state

    async def activate(self, app_id: str) -> None:
        self._check_bundle(app_id)
        self._forget()
        await self._run(lambda: self._call("POST", "/wda/apps/activate", {"bundleId": app_id}))

    async def launch_app(
        self, app_id: str, clear_state: bool = False, *, locale: str | None = None, timezone: str | None = None
    ) -> dict[str, Any]:
        self._check_bundle(app_id)
        if clear_state:
            raise ProtocolError(
                e.UNSUPPORTED_OPERATION,
                f"WebDriverAgent cannot clear {app_id}'s data (it has no clear-data route)",
                "Launch without clearState, or reinstall the app to start from a fresh state "
                "(xcrun simctl uninstall / install on a simulator); nothing was launched.",
            )
        arguments, environment = launch_environment(locale, timezone)
        self._forget()

        def work() -> dict[str, Any]:
            was_running = self._state(app_id) != AppState.NOT_RUNNING
            self._call("POST", "/wda/apps/launch", {"bundleId": app_id, "arguments": arguments,
                       "environment": environment}, timeout_s=LAUNCH_TIMEOUT_S)  # fmt: skip
            options = {k: v for k, v in (("locale", locale), ("timezone", timezone)) if v is not None}
            return {"appBundleId": app_id, "state": AppState.FOREGROUND.value, "wasRunning": was_running} | options

        return await self._run(work)

    async def terminate_app(self, app_id: str) -> dict[str, Any]:
        self._check_bundle(app_id)
        self._forget()

        def work() -> dict[str, Any]:
            was_running = self._state(app_id) != AppState.NOT_RUNNING
            if was_running:
                self._call("POST", "/wda/apps/terminate", {"bundleId": app_id})
            return {"appBundleId": app_id, "wasRunning": was_running}

        return await self._run(work)

    def _active_bundle(self) -> str | None:
        info = self.client.get("/wda/activeAppInfo")
        bundle = info.get("bundleId") if isinstance(info, dict) else None
        return str(bundle) if bundle else None

    async def list_apps(self) -> list[AppInfo]:
        def work() -> list[AppInfo]:
            running = self._call("GET", "/wda/apps/list")
            front = self._active_bundle()
            ids = {str(a["bundleId"]) for a in running if isinstance(a, dict) and a.get("bundleId")} if isinstance(
                running, list) else set()  # fmt: skip
            if front:
                ids.add(front)
            return [AppInfo(i, AppState.FOREGROUND if i == front else AppState.BACKGROUND) for i in sorted(ids)]

        return await self._run(work)

    async def open_url(self, url: str) -> dict[str, Any]:
        if not re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", url):
            raise ProtocolError(e.INVALID_REQUEST, f"{url!r} is not an absolute URL",
                                "Send a URL with a scheme, e.g. https://example.com or myapp://path.")  # fmt: skip
        self._forget()

        def work() -> dict[str, Any]:
            self._call("POST", "/url", {"url": url})
            return {"appBundleId": self._active_bundle(), "url": url}

        return await self._run(work)

    async def reset(self) -> dict[str, Any]:
        self._forget()
        self._sid = None  # the next call re-checks /status and opens a fresh session

        def work() -> dict[str, Any]:
            screen = self._call("GET", "/wda/screen")
            scale = screen.get("scale") if isinstance(screen, dict) else None
            if isinstance(scale, (int, float)) and scale > 0:
                self.screen_scale = float(scale)
            return {"reset": True, "screenScale": self.screen_scale}

        return await self._run(work)

    # -- app-scoped --------------------------------------------------------------------------------------------
    async def viewport(self, app_id: str) -> Rect:
        def work() -> Rect:
            size = self._call("GET", "/window/size")
            return Rect.of(0, 0, size.get("width"), size.get("height"))

        return await self._run(work)

    def _alert_button_at(self, app_id: str, x: float, y: float) -> str | None:
        """The label of the alert button the last snapshot of ``app_id`` showed at this point, if any."""
        if self._alert_buttons is None or self._alert_buttons[0] != app_id:
            return None
        for rect, label in self._alert_buttons[1]:
            if rect.x <= x < rect.x + rect.width and rect.y <= y < rect.y + rect.height:
                return label
        return None

    async def tap(
        self, app_id: str, x: float, y: float, taps: int = 1, *, element: str | None = None, mark: str | None = None
    ) -> str | None:
        button = self._alert_button_at(app_id, x, y) if taps == 1 else None
        refuse_under(None if button else self._keyboard, x, y, "tap")
        self._forget()
        if button is not None:
            # WDA clicks the alert's button by its label (or answers no such alert): one call, and never a tap on
            # whatever lies under a stale rect.
            await self._run(lambda: self._call("POST", "/alert/accept", {"name": button}))
            return f"Button {json.dumps(button, ensure_ascii=False)} of the alert"
        if taps == 1:
            await self._run(lambda: self._call("POST", "/wda/tap", {"x": x, "y": y}))
            return None
        # Several taps: one W3C pointer sequence (one call, taps as close as a finger's) — never
        # tapWithNumberOfTaps, which ignores the coordinates.
        steps: list[dict[str, Any]] = [{"type": "pointerMove", "duration": 0, "x": x, "y": y}]
        for n in range(taps):
            if n:
                steps.append({"type": "pause", "duration": TAP_GAP_MS})
            steps += [{"type": "pointerDown", "button": 0}, {"type": "pause", "duration": TAP_DOWN_MS},
                      {"type": "pointerUp", "button": 0}]  # fmt: skip
        actions = {"actions": [{"type": "pointer", "id": "finger1", "parameters": {"pointerType": "touch"},
                                "actions": steps}]}  # fmt: skip
        await self._run(lambda: self._call("POST", "/actions", actions))
        return None

    async def long_press(
        self, app_id: str, x: float, y: float, duration_ms: float, *, element: str | None = None
    ) -> None:
        refuse_under(self._keyboard, x, y, "long press")
        self._forget()
        body = {"x": x, "y": y, "duration": duration_ms / 1000.0}
        await self._run(lambda: self._call("POST", "/wda/touchAndHold", body))

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
        refuse_under(self._keyboard, *start, "drag")
        self._forget()
        distance = math.hypot(end[0] - start[0], end[1] - start[1])
        velocity = max(1.0, distance / max(duration_ms / 1000.0, 0.01))  # points per second
        body = {
            "fromX": start[0], "fromY": start[1], "toX": end[0], "toY": end[1],
            "pressDuration": max(0.0, hold_ms / 1000.0), "holdDuration": max(0.0, settle_ms / 1000.0),
            "velocity": round(velocity, 1),
        }  # fmt: skip
        await self._run(lambda: self._call("POST", "/wda/pressAndDragWithVelocity", body))

    def _probe_focus(self) -> None:
        """WDA types into nothing silently: ask for the focused element first (404 → none)."""
        try:
            active = self._call("GET", "/element/active")
        except WdaError as exc:
            if exc.error != "no such element":
                raise
            active = None
        if not (isinstance(active, dict) and (active.get(_ELEMENT_KEY) or active.get("ELEMENT"))):
            raise ProtocolError(
                e.TEXT_INPUT_NOT_FOCUSED,
                "no element has keyboard focus",
                "Tap a text field first (a TextField, SecureTextField or SearchField in the snapshot), then resend.",
            )

    def _keys(self, text: str) -> None:
        self._probe_focus()
        self._call("POST", "/wda/keys", {"value": [text]}, timeout_s=max(10.0, len(text) * 0.2))

    async def type_text(self, app_id: str, text: str, *, element: str | None = None) -> None:
        self._forget()
        await self._run(lambda: self._keys(text))

    async def keyboard_return(self, app_id: str) -> None:
        self._forget()
        await self._run(lambda: self._keys("\n"))

    async def keyboard_delete(self, app_id: str) -> None:
        self._forget()
        await self._run(lambda: self._keys("\b"))

    def _system_alert(self) -> tuple[str, list[str]] | None:
        """The alert WDA sees outside the app's source (SpringBoard), if any.  The probe never fails a snapshot: a
        WDA error (``no such alert``, or a WDA without these routes) means no alert to show; only a lost connection
        propagates."""
        try:
            text = self._call("GET", "/alert/text")
            buttons = self._call("GET", "/wda/alert/buttons")
        except WdaError:
            return None
        names = [str(b) for b in buttons] if isinstance(buttons, list) else []
        return str(text or ""), names

    async def snapshot(self, app_id: str) -> Snapshot:
        def work() -> Snapshot:
            tree = parse_json_source(self._call("GET", f"/source?{SOURCE_QUERY}", timeout_s=SOURCE_TIMEOUT_S), app_id)
            viewport = tree.rect if tree.rect.width > 0 and tree.rect.height > 0 else self._window()
            alert = next((n for n in walk(tree) if n.type == "Alert"), None)
            if alert is None:
                found = self._system_alert()
                if found is not None:
                    alert = system_alert_node(*found, viewport)
                    tree.children.append(alert)
            buttons: list[tuple[Rect, str]] = []
            if alert is not None:
                buttons = cover_outside(tree, alert)
            tree.rect = viewport
            snap = build_snapshot(tree, viewport, BACKEND)
            self._alert_buttons = (app_id, buttons) if buttons else None
            self._keyboard = keyboard_rect(tree)
            return snap

        self._alert_buttons = None
        return await self._run(work, source=True)

    def _window(self) -> Rect:
        size = self._call("GET", "/window/size")
        return Rect.of(0, 0, size.get("width"), size.get("height"))

    # -- device-scoped -----------------------------------------------------------------------------------------
    async def button(self, name: str) -> None:
        wda_name = BUTTONS.get(name)
        if wda_name is None:
            raise ProtocolError(
                e.UNSUPPORTED_OPERATION,
                f"iPhones have no {name} button",
                "Buttons on iOS: home, volumeUp, volumeDown (real devices). To go back, tap the app's back button "
                "(top left) or drag from the left edge.",
            )
        if wda_name != "home" and self.simulator:
            raise ProtocolError(
                e.UNSUPPORTED_OPERATION,
                f"the simulator has no {name} button",
                "Volume buttons can be pressed only on a real device; home works everywhere.",
            )
        self._forget()
        await self._run(lambda: self._call("POST", "/wda/pressButton", {"name": wda_name}))

    async def screenshot(self, *, format: str = "png", scale: str = "device", quality: int = 80) -> Screenshot:
        def work() -> Screenshot:
            data = base64.b64decode(str(self.client.get("/screenshot")))
            image: Image.Image = Image.open(io.BytesIO(data))
            image.load()
            size = css_image_size(image.width / self.screen_scale, image.height / self.screen_scale)
            if scale == "css" and size != image.size:
                image = image.resize(size)
            elif format == "png" and image.format == "PNG":
                return Screenshot(data, "png", image.width, image.height)
            out = io.BytesIO()
            if format == "jpeg":
                image.convert("RGB").save(out, format="JPEG", quality=quality)
            else:
                image.save(out, format="PNG")
            return Screenshot(out.getvalue(), format, image.width, image.height)

        return await self._run(work)


def system_alert_node(text: str, buttons: list[str], viewport: Rect) -> RawNode:
    """A system alert as WDA's alert routes describe it (text, button labels), laid out as iOS draws a standard
    alert: centred, 270 pt wide, two buttons side by side, otherwise one per row."""
    width = min(ALERT_WIDTH, max(1.0, viewport.width - 40))
    side_by_side = len(buttons) == 2
    rows = 1 if side_by_side else max(1, len(buttons))
    height = ALERT_TEXT_HEIGHT + rows * ALERT_BUTTON_HEIGHT
    left = viewport.x + (viewport.width - width) / 2
    top = viewport.y + max(0.0, (viewport.height - height) / 2)
    below = top + ALERT_TEXT_HEIGHT
    children = []
    for n, label in enumerate(buttons):
        if side_by_side:
            rect = Rect.of(left + n * width / 2, below, width / 2, ALERT_BUTTON_HEIGHT)
        else:
            rect = Rect.of(left, below + n * ALERT_BUTTON_HEIGHT, width, ALERT_BUTTON_HEIGHT)
        children.append(RawNode("Button", label=label, rect=rect, enabled=True))
    return RawNode("Alert", label=text, identifier="wda-alert", rect=Rect.of(left, top, width, height),
                   children=children)  # fmt: skip


def cover_outside(tree: RawNode, alert: RawNode) -> list[tuple[Rect, str]]:
    """Mark every interactive node outside ``alert`` as covered by it (a modal alert swallows taps elsewhere) and
    answer the alert's labelled buttons with their rects."""
    inside = {id(n) for n in walk(alert)}
    title = (alert.label or "").split("\n")[0].strip()
    cover = f"Alert {json.dumps(title, ensure_ascii=False)}" if title else "Alert"
    for node in walk(tree):
        if id(node) not in inside and (node.interactive or node.type in INTERACTIVE_ROLES):
            node.covered_by = cover
    return [(n.rect, n.label) for n in walk(alert)
            if n.type == "Button" and n.label and n.rect.width > 0 and n.rect.height > 0]  # fmt: skip
