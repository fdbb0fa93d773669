"""The Android device: a phone reached through the adb server, driven by uiautomator2's on-device agent.

uiautomator2 keeps one agent process on the phone (``app_process`` running its UiAutomation server, reached over
an adb-forwarded HTTP port), so a tap is one JSON-RPC round trip instead of an ``adb shell input`` JVM start, and a
hierarchy read is one call instead of ``uiautomator dump`` to a file.  The library is synchronous: every call to it
runs in a worker thread (:meth:`AndroidDevice._run`), one at a time under a lock, and every failure is mapped to a
protocol error in one place (:mod:`phonewire.devices.android.errors`).

Lifecycle::

    AndroidDevice(serial)        nothing touched yet
      └─ open()                  adb device list → choose the serial → start the agent → read size and density
           ├─ commands           each in a worker thread; a lost agent or adb connection answers
           │                     DEVICE_UNAVAILABLE and makes the next command restart the agent first
           │                     (``start_uiautomator``), so the runner keeps serving and recovers by itself
           └─ close()            stop the agent (best effort, never raises); health() reports it from then on

Coordinates on the wire are points; the phone works in pixels.  ``pixels = points × density`` with density from
``wm density`` (dpi / 160), else from the agent's display info (pixels per dp), else 1.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import re
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Final, TypeVar

from phonewire.devices.android import errors as android_errors
from phonewire.devices.android.agent import Agent, default_adb, default_connect
from phonewire.devices.android.discovery import AdbLister, choose_serial, list_devices
from phonewire.devices.android.hierarchy import (
    choose_scroller,
    content_shift,
    has_focused_text_input,
    parse_hierarchy,
    parse_wm_density,
    parse_wm_size,
    scrollers,
)
from phonewire.devices.android.logcat import Follower
from phonewire.devices.android.logcat import entry as logcat_entry
from phonewire.devices.android.repertoire import AndroidRepertoire, app_locale, clear_data
from phonewire.devices.base import (
    SCROLL_DRAG_MS,
    SCROLL_HOLD_MS,
    SCROLL_REST_MS,
    AppInfo,
    AppState,
    Device,
    Screenshot,
    scroll_drag,
)
from phonewire.devices.observed import Ring
from phonewire.protocol import errors as e
from phonewire.protocol.commands import MAX_LOG_ENTRIES
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.request import css_image_size
from phonewire.protocol.snapshot import Rect, Snapshot, build_snapshot, refuse_under

T = TypeVar("T")

BACKEND: Final = "uiautomator2"

#: Windows of these packages take focus over an app without the app leaving the screen (system dialogs, the
#: notification shade, permission prompts): a running app under them still counts as foreground.
OVERLAY_PACKAGES: Final = frozenset({
    "android", "com.android.systemui",
    "com.android.permissioncontroller", "com.google.android.permissioncontroller",
    "com.android.packageinstaller", "com.google.android.packageinstaller",
})  # fmt: skip

#: Hardware buttons → uiautomator2 key names.
BUTTON_KEYS: Final = {"home": "home", "back": "back", "volumeUp": "volume_up", "volumeDown": "volume_down"}

_PACKAGE_RE: Final = re.compile(r"^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+$")
_ACTIVITY_RE: Final = re.compile(r"^Activity:\s*([A-Za-z0-9_.]+)/", re.M)

#: How long launchApp / activate / openUrl wait for the app to reach the foreground, and how often they look.
FOREGROUND_WAIT_S: Final = 10.0
POLL_S: Final = 0.2
#: Interval between finger moves in a drag (each move is one agent round trip on top).
DRAG_STEP_S: Final = 0.016
#: A drag this close to its end jumps to the end point (no sub-millisecond sleeps).
DRAG_END_SLACK_S: Final = 0.001
DOUBLE_TAP_GAP_S: Final = 0.08


class AndroidDevice(AndroidRepertoire, Device):
    kind = "android"

    def __init__(
        self,
        serial: str | None,
        *,
        adb: AdbLister | None = None,
        connect: Callable[[str], Agent] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._wanted = serial
        self._adb = adb
        #: The on-screen keyboard the last snapshot's dump showed; an action that may change the screen forgets it.
        self._keyboard: Rect | None = None
        self._connect = connect or default_connect
        self._sleep = sleep
        self._clock = clock
        self._lock = threading.Lock()
        self._agent: Agent | None = None
        self.serial: str | None = None
        self.density = 1.0
        self.natural_px: tuple[int, int] = (0, 0)
        #: The last lost-agent / lost-adb failure, cleared by the next success (``status`` shows it).
        self.last_failure: str | None = None
        self._restart_agent = False
        self._closed = False
        #: ``logs``: the logcat lines taken so far (all apps), and per app the process being followed.
        self._logcat = Ring(MAX_LOG_ENTRIES)
        self._followers: dict[str, Follower] = {}

    # -- the boundary: one worker thread per call, one lock, one mapping -----------------------------------------
    async def _run(self, work: Callable[[Agent], T]) -> T:
        return await self._run_raw(lambda: work(self._require_agent()))

    async def _run_raw(self, work: Callable[[], T]) -> T:
        try:
            result = await asyncio.to_thread(self._locked, work)
        except ProtocolError:
            raise
        except Exception as exc:
            mapped = android_errors.map_exception(exc)
            if mapped.cause is not None:
                self.last_failure = mapped.error.message
                self._restart_agent = True
            raise mapped.error from exc
        self.last_failure = None
        return result

    def _locked(self, work: Callable[[], T]) -> T:
        with self._lock:
            return work()

    def _require_agent(self) -> Agent:
        agent = self._agent
        if agent is None:
            raise ProtocolError(
                e.DEVICE_UNAVAILABLE,
                "the Android device is not open" if not self._closed else "the Android device was closed",
                "Restart the runner (phonewire runner --device android[:SERIAL]).",
            )
        if self._restart_agent:
            agent.start_uiautomator()  # no-op when the agent answers its ping; relaunches it otherwise
            self._restart_agent = False
        return agent

    # -- lifecycle ----------------------------------------------------------------------------------------------
    async def open(self) -> None:
        await self._run_raw(self._open_sync)

    def _open_sync(self) -> None:
        entries = list_devices(self._adb if self._adb is not None else default_adb())
        serial = choose_serial(entries, self._wanted)
        agent = self._connect(serial)
        self.serial = serial
        self._agent = agent
        self._read_display(agent)

    def _read_display(self, agent: Agent) -> None:
        size = parse_wm_size(agent.shell(["wm", "size"]).output)
        if size is None:  # fall back to the window size in the current orientation
            width, height = agent.window_size()
            size = (int(width), int(height))
        self.natural_px = size
        density = parse_wm_density(agent.shell(["wm", "density"]).output)
        if density is None:  # fall back to the agent's display info: pixels per dp
            info = agent.info
            try:
                density = float(info["displayWidth"]) / float(info["displaySizeDpX"])
            except (KeyError, TypeError, ValueError, ZeroDivisionError):
                density = None
        self.density = density if density is not None and density > 0 else 1.0

    async def close(self) -> None:
        agent, self._agent = self._agent, None
        self._closed = True
        if agent is None:
            return
        with contextlib.suppress(Exception):  # close must not raise: the phone may already be gone
            await asyncio.to_thread(agent.stop_uiautomator, False)

    def health(self) -> str | None:
        # A lost agent or adb connection is not reported here: the runner refuses every command of an unhealthy
        # device, while the next command is exactly what restarts the agent.  describe() shows the last failure.
        return "the Android device was closed" if self._closed else None

    def describe(self) -> dict[str, Any]:
        width, height = self.natural_px
        return {
            "kind": self.kind,
            "serial": self.serial,
            "backend": BACKEND,
            "density": self.density,
            "screen": {"width": round(width / self.density, 1), "height": round(height / self.density, 1)},
            "lastFailure": self.last_failure,
        }

    # -- geometry -----------------------------------------------------------------------------------------------
    def _px(self, value: float) -> int:
        return max(0, round(value * self.density))

    def _viewport_for_rotation(self, rotation: int) -> Rect:
        width, height = self.natural_px
        if rotation % 2 == 1:
            width, height = height, width
        return Rect(0, 0, width / self.density, height / self.density)

    # -- app state ----------------------------------------------------------------------------------------------
    @staticmethod
    def _check_package(app_id: str) -> None:
        if not _PACKAGE_RE.match(app_id):
            raise ProtocolError(
                e.APP_UNKNOWN,
                f"{app_id!r} is not an Android package name",
                "On Android an app id is its package name, e.g. com.android.settings; listApps shows them.",
            )

    @staticmethod
    def _foreground(agent: Agent) -> str | None:
        try:
            current = agent.app_current()
        except Exception as exc:
            # adbutils raises AdbError("Couldn't get focused app") when no window has focus (screen off, keyguard
            # transition): that is "nothing in front", not a lost connection.
            if "focused app" in str(exc):
                return None
            raise
        package = current.get("package") if isinstance(current, dict) else None
        return str(package) if package else None

    @staticmethod
    def _running(agent: Agent, app_id: str) -> bool:
        result = agent.shell(["pidof", app_id])
        if "not found" in result.output:  # very old toolboxes lack pidof
            return app_id in agent.app_list_running()
        return result.exit_code == 0 and bool(result.output.strip())

    # -- logs: the app process's logcat lines (logcat.py) ---------------------------------------------------------
    async def logs(self, app_id: str | None, since: int) -> dict[str, Any]:
        if not app_id:
            raise ProtocolError(
                e.INVALID_REQUEST, "logs on Android needs appBundleId (the app whose process to read)",
                "Open an app first; logs reads that app's logcat lines.",
            )  # fmt: skip
        self._check_package(app_id)

        def work(agent: Agent) -> None:
            pids = agent.shell(["pidof", app_id]).output.split()
            if not pids or not pids[0].isdigit():
                return  # not running: nothing new
            pid = int(pids[0])
            follower = self._followers.get(app_id)
            if follower is None or follower.pid != pid:
                follower = self._followers[app_id] = Follower(pid)
            for line in follower.new_lines(agent.shell(follower.command()).output):
                self._logcat.append(logcat_entry(line, app_id))

        await self._run(work)
        return self._logcat.since(since, keep=lambda x: x.get("app") == app_id)

    @staticmethod
    def _installed(agent: Agent, app_id: str) -> bool:
        return agent.shell(["pm", "path", app_id]).output.strip().startswith("package:")

    def _state(self, agent: Agent, app_id: str) -> AppState:
        foreground = self._foreground(agent)
        if foreground == app_id:
            return AppState.FOREGROUND
        if self._running(agent, app_id):
            return AppState.FOREGROUND if foreground in OVERLAY_PACKAGES else AppState.BACKGROUND
        if self._installed(agent, app_id):
            return AppState.NOT_RUNNING
        raise self._unknown(app_id)

    @staticmethod
    def _unknown(app_id: str) -> ProtocolError:
        return ProtocolError(
            e.APP_UNKNOWN,
            f"no app {app_id!r} is installed on this phone",
            "listApps shows the installed apps; install it first (adb install).",
        )

    def _wait_foreground(self, agent: Agent, app_id: str) -> bool:
        deadline = self._clock() + FOREGROUND_WAIT_S
        while True:
            if self._foreground(agent) == app_id:
                return True
            if self._clock() >= deadline:
                return False
            self._sleep(POLL_S)

    async def app_state(self, app_id: str) -> AppState:
        self._check_package(app_id)
        return await self._run(lambda agent: self._state(agent, app_id))

    async def activate(self, app_id: str) -> None:
        self._check_package(app_id)

        def work(agent: Agent) -> None:
            # The launcher intent brings a running app's task to the front as it was (no cold start).
            agent.app_start(app_id)
            if not self._wait_foreground(agent, app_id):
                raise self._not_fronted(app_id)

        await self._run(work)

    @staticmethod
    def _not_fronted(app_id: str) -> ProtocolError:
        return ProtocolError(
            e.COMMAND_FAILED,
            f"{app_id} did not come to the foreground within {FOREGROUND_WAIT_S:.0f} s",
            "The app may have no launcher activity, or a dialog or lock screen is in front: take a snapshot.",
        )

    async def launch_app(
        self, app_id: str, clear_state: bool = False, *, locale: str | None = None, timezone: str | None = None
    ) -> dict[str, Any]:
        self._check_package(app_id)

        def work(agent: Agent) -> dict[str, Any]:
            if not self._installed(agent, app_id):
                raise self._unknown(app_id)
            options = app_locale(agent, app_id, locale, timezone)  # refused before the app is touched
            was_running = self._running(agent, app_id)
            if clear_state:
                clear_data(agent, app_id)
            agent.app_start(app_id)
            if not self._wait_foreground(agent, app_id):
                raise self._not_fronted(app_id)
            return {"appBundleId": app_id, "state": AppState.FOREGROUND.value, "wasRunning": was_running} | (
                {"stateCleared": True} if clear_state else {}) | options  # fmt: skip

        return await self._run(work)

    async def terminate_app(self, app_id: str) -> dict[str, Any]:
        self._check_package(app_id)

        def work(agent: Agent) -> dict[str, Any]:
            if not self._installed(agent, app_id):
                raise self._unknown(app_id)
            was_running = self._running(agent, app_id)
            agent.app_stop(app_id)
            return {"appBundleId": app_id, "wasRunning": was_running}

        return await self._run(work)

    async def list_apps(self) -> list[AppInfo]:
        def work(agent: Agent) -> list[AppInfo]:
            foreground = self._foreground(agent)
            running = set(agent.app_list_running())
            installed = set(agent.app_list("-3"))  # third-party apps; running system apps come from `running`
            apps = []
            for app_id in sorted(running | installed):
                if app_id == foreground:
                    state = AppState.FOREGROUND
                elif app_id in running:
                    state = AppState.BACKGROUND
                else:
                    state = AppState.NOT_RUNNING
                apps.append(AppInfo(app_id, state))
            return apps

        return await self._run(work)

    async def open_url(self, url: str) -> dict[str, Any]:
        if not re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", url):
            raise ProtocolError(
                e.INVALID_REQUEST,
                f"{url!r} is not an absolute URL",
                "Send a URL with a scheme, e.g. https://example.com or tel:123.",
            )

        def work(agent: Agent) -> dict[str, Any]:
            result = agent.shell(["am", "start", "-W", "-a", "android.intent.action.VIEW", "-d", url])
            if "Error" in result.output or "unable to resolve" in result.output.lower():
                raise ProtocolError(
                    e.APP_UNKNOWN,
                    f"no app on the phone opens {url!r}",
                    "Install an app that handles this kind of link (a browser for http/https), then resend.",
                )
            match = _ACTIVITY_RE.search(result.output)
            package = match.group(1) if match else self._foreground(agent)
            return {"appBundleId": package, "url": url}

        return await self._run(work)

    async def reset(self) -> dict[str, Any]:
        def work(agent: Agent) -> dict[str, Any]:
            self._read_display(agent)
            return {"reset": True, "density": self.density}

        self._restart_agent = True
        return await self._run(work)

    # -- app-scoped ---------------------------------------------------------------------------------------------
    async def viewport(self, app_id: str) -> Rect:
        def work(agent: Agent) -> Rect:
            width, height = agent.window_size()
            return Rect(0, 0, width / self.density, height / self.density)

        return await self._run(work)

    async def tap(
        self, app_id: str, x: float, y: float, taps: int = 1, *, element: str | None = None, mark: str | None = None
    ) -> None:
        refuse_under(self._keyboard, x, y, "tap")
        self._keyboard = None
        px, py = self._px(x), self._px(y)

        def work(agent: Agent) -> None:
            if taps == 2:
                agent.double_click(px, py, DOUBLE_TAP_GAP_S)
                return
            for _ in range(taps):  # more than two: separate taps, as on the other devices
                agent.click(px, py)

        await self._run(work)

    async def long_press(
        self, app_id: str, x: float, y: float, duration_ms: float, *, element: str | None = None
    ) -> None:
        refuse_under(self._keyboard, x, y, "long press")
        self._keyboard = None
        px, py = self._px(x), self._px(y)
        await self._run(lambda agent: agent.long_click(px, py, duration_ms / 1000.0))

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
        self._keyboard = None
        (fx, fy), (tx, ty) = (self._px(start[0]), self._px(start[1])), (self._px(end[0]), self._px(end[1]))

        def work(agent: Agent) -> None:
            touch = agent.touch
            touch.down(fx, fy)
            try:
                if hold_ms > 0:
                    self._sleep(hold_ms / 1000.0)
                duration = duration_ms / 1000.0
                began = self._clock()
                # Move at the velocity the duration implies, whatever each round trip costs; the loop is bounded
                # by the number of steps, so it ends even if the clock stood still.
                for _ in range(int(duration / DRAG_STEP_S) + 1):
                    elapsed = self._clock() - began
                    if elapsed >= duration - DRAG_END_SLACK_S:
                        break
                    done = elapsed / duration
                    touch.move(round(fx + (tx - fx) * done), round(fy + (ty - fy) * done))
                    self._sleep(min(DRAG_STEP_S, duration - elapsed))
                touch.move(tx, ty)
                if settle_ms > 0:
                    self._sleep(settle_ms / 1000.0)
            finally:
                touch.up(tx, ty)  # never leave a finger down on the phone

        await self._run(work)

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
        """A drag through the scroll container (``hierarchy.choose_scroller``: the innermost ``scrollable`` element
        around ``at`` that scrolls that way, else the largest one, else the screen), measured by comparing the
        dumps before and after (``hierarchy.content_shift``).  The content counts as at its end when it moved
        less than half the drag (a list that stops short) or not at all.  ``reveal`` is ignored: ``find`` scrolls
        and looks (with ``reveal_only`` nothing moves: ``"located": false``, as UiAutomator2 finds only what shows).
        Tested on recorded dumps only; on a real phone the axis of a RecyclerView is a guess from its shape, and the
        dump after the drag is taken when uiautomator reports the screen idle."""
        if reveal_only:
            return {"direction": direction, "distance": 0.0, "atEnd": None, "located": False}
        sideways = direction in ("left", "right")

        def plan(agent: Agent) -> tuple[str, Rect, bool]:
            xml = agent.dump_hierarchy()
            chosen = choose_scroller(scrollers(xml, self.density), direction, at)
            if chosen is not None:
                return xml, chosen.rect, True
            width, height = agent.window_size()
            return xml, Rect(0, 0, width / self.density, height / self.density), False

        before, box, found = await self._run(plan)
        start, end = scroll_drag(box, direction, amount, at)
        await self.drag(
            app_id, start, end, duration_ms=SCROLL_DRAG_MS, hold_ms=SCROLL_HOLD_MS, settle_ms=SCROLL_REST_MS
        )
        after = await self._run(lambda agent: agent.dump_hierarchy())
        container = "a scroll container" if found else "the screen"
        if after == before:
            return {"direction": direction, "distance": 0.0, "atEnd": True, "changed": False, "container": container}
        shift = content_shift(before, after, box, self.density, sideways=sideways)
        if shift is None:
            return {"direction": direction, "distance": None, "atEnd": None, "changed": True, "container": container}
        moved = max(0.0, shift if direction in ("down", "right") else -shift)
        dragged = abs(end[0] - start[0]) + abs(end[1] - start[1])
        return {"direction": direction, "distance": round(moved, 1), "atEnd": moved < dragged / 2,
                "changed": True, "container": container}  # fmt: skip

    def _probe_focus(self, agent: Agent, *, or_any: bool = False) -> None:
        """TEXT_INPUT_NOT_FOCUSED only when the probe positively finds no focused text input (``or_any``: no focused
        node at all — Enter activates a focused button or list item)."""
        try:
            focused = has_focused_text_input(agent.dump_hierarchy(), or_any=or_any)
        except Exception:  # a probe that fails does not block typing
            return
        if not focused:
            raise ProtocolError(
                e.TEXT_INPUT_NOT_FOCUSED,
                "no text field has keyboard focus",
                "Tap a text field first (a TextField, SecureTextField or SearchField in the snapshot), then resend.",
            )

    async def type_text(self, app_id: str, text: str, *, element: str | None = None) -> None:
        def work(agent: Agent) -> None:
            self._probe_focus(agent)
            agent.send_keys(text)  # the agent's input method: full Unicode, unlike `adb shell input text`

        await self._run(work)

    async def keyboard_return(self, app_id: str) -> None:
        def work(agent: Agent) -> None:
            self._probe_focus(agent, or_any=True)
            agent.press("enter")

        await self._run(work)

    async def keyboard_delete(self, app_id: str) -> None:
        def work(agent: Agent) -> None:
            self._probe_focus(agent)
            agent.press("del")

        await self._run(work)

    async def snapshot(self, app_id: str) -> Snapshot:
        def work(agent: Agent) -> Snapshot:
            hierarchy = parse_hierarchy(agent.dump_hierarchy(), self.density, app_id)
            viewport = self._viewport_for_rotation(hierarchy.rotation)
            hierarchy.root.rect = viewport
            self._keyboard = hierarchy.keyboard  # (repertoire.py: a tap under it is refused)
            return build_snapshot(hierarchy.root, viewport, BACKEND)

        return await self._run(work)

    # -- device-scoped ------------------------------------------------------------------------------------------
    async def button(self, name: str) -> None:
        key = BUTTON_KEYS.get(name)
        if key is None:
            raise ProtocolError(
                e.UNSUPPORTED_OPERATION,
                f"Android phones have no {name} button on the wire",
                f"Buttons on Android: {', '.join(BUTTON_KEYS)}.",
            )
        await self._run(lambda agent: agent.press(key))

    async def screenshot(self, *, format: str = "png", scale: str = "device", quality: int = 80) -> Screenshot:
        def work(agent: Agent) -> Screenshot:
            image = agent.screenshot()
            if scale == "css":
                image = image.resize(css_image_size(image.width / self.density, image.height / self.density))
            out = io.BytesIO()
            if format == "jpeg":
                image.convert("RGB").save(out, format="JPEG", quality=quality)
            else:
                image.save(out, format="PNG")
            return Screenshot(out.getvalue(), format, image.width, image.height)

        return await self._run(work)
