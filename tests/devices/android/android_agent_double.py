"""A recording double of ``uiautomator2.Device`` and of adbutils' device list, for the Android backend's unit tests.

Every call is recorded as ``(method, args...)``; replies have the shapes uiautomator2 3.7.1 documents and returns:
``app_current()`` → ``{"package", "activity"}``, ``window_size()`` → ``(width, height)`` in pixels,
``shell([...])`` → an object with ``output`` and ``exit_code`` (uiautomator2's ``ShellResponse``),
``dump_hierarchy()`` → the XML text of a real dump, ``screenshot()`` → a ``PIL.Image.Image``.
A scripted failure (``fail["click"] = SomeError(...)``) is raised by the next call of that method.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from PIL import Image


class ShellResponse(NamedTuple):  # the shape of uiautomator2.abstract.ShellResponse
    output: str
    exit_code: int


class AdbDeviceInfo(NamedTuple):  # the shape of adbutils' AdbDeviceInfo (host:devices)
    serial: str
    state: str
    tags: dict[str, str] = {}  # noqa: RUF012 - never mutated


class FakeAdb:
    def __init__(self, *entries: tuple[str, str], error: Exception | None = None) -> None:
        self.entries = [AdbDeviceInfo(s, st) for s, st in entries]
        self.error = error
        self.calls = 0

    def list(self) -> list[AdbDeviceInfo]:
        self.calls += 1
        if self.error is not None:
            raise self.error
        return self.entries


class FakeClock:
    """``sleep`` advances ``now``: loops that wait on the device run instantly and deterministically."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


@dataclass
class FakeTouch:
    owner: AgentDouble

    def down(self, x: int, y: int) -> FakeTouch:
        self.owner.record("touch.down", x, y)
        return self

    def move(self, x: int, y: int) -> FakeTouch:
        self.owner.record("touch.move", x, y)
        return self

    def up(self, x: int, y: int) -> FakeTouch:
        self.owner.record("touch.up", x, y)
        return self


LAUNCHER = "com.google.android.apps.nexuslauncher"


@dataclass
class AgentDouble:
    xml: str = '<hierarchy rotation="0"/>'
    size: tuple[int, int] = (1080, 2400)
    dpi: int = 420
    foreground: str = LAUNCHER
    running: set[str] = field(default_factory=lambda: {LAUNCHER, "com.android.systemui"})
    installed: set[str] = field(default_factory=lambda: {LAUNCHER, "com.android.settings", "com.example.shop"})
    third_party: list[str] = field(default_factory=lambda: ["com.example.shop"])
    url_activity: str = "com.android.chrome/com.google.android.apps.chrome.Main"
    fronts_on_start: bool = True
    calls: list[tuple[Any, ...]] = field(default_factory=list)
    fail: dict[str, BaseException] = field(default_factory=dict)
    clock: FakeClock | None = None
    #: What ``logcat -v threadtime`` prints (the whole buffer; ``-t`` picks from it as logcat does).
    logcat: str = ""
    #: The device clipboard (uiautomator2's ``clipboard``: None when it holds no text).
    clip: str | None = None
    sideways: bool = False
    #: ``cmd uimode`` (Android 10+; False: an older phone, whose shell answers "Unknown command") and its night mode.
    uimode: bool = True
    night: str = "no"
    #: Each app's stored data (what ``pm clear`` deletes); a protected package's clear fails as Android's does.
    data: dict[str, set[str]] = field(default_factory=lambda: {"com.example.shop": {"cart", "cookies"}})
    protected: set[str] = field(default_factory=set)
    #: ``cmd locale set-app-locales`` (Android 13+; False: an older phone, which has no locale service) and each
    #: app's language as it stores it.
    per_app_locales: bool = True
    app_locales: dict[str, str] = field(default_factory=dict)

    def record(self, name: str, *args: Any) -> None:
        self.calls.append((name, *args))
        error = self.fail.pop(name, None)
        if error is not None:
            raise error

    def names(self) -> list[str]:
        return [c[0] for c in self.calls]

    # -- gestures and keys ------------------------------------------------------------------------------------
    @property
    def touch(self) -> FakeTouch:
        return FakeTouch(self)

    def click(self, x: int, y: int) -> None:
        self.record("click", x, y)

    def double_click(self, x: int, y: int, duration: float = 0.1) -> None:
        self.record("double_click", x, y, duration)

    def long_click(self, x: int, y: int, duration: float = 0.5) -> None:
        self.record("long_click", x, y, duration)

    def send_keys(self, text: str) -> None:
        self.record("send_keys", text)

    def press(self, key: str | int, meta: int | None = None) -> None:
        if meta is None:
            self.record("press", key)
        else:
            self.record("press", key, meta)

    # -- the clipboard and the orientation (uiautomator2's getClipboard / setClipboard / setOrientation) ---------
    @property
    def clipboard(self) -> str | None:
        self.record("clipboard")
        return self.clip

    def set_clipboard(self, text: str, label: str | None = None) -> None:
        self.record("set_clipboard", text)
        self.clip = text

    def set_orientation(self, value: str) -> None:
        self.record("set_orientation", value)
        self.sideways = value in ("left", "right")  # `wm size` stays the physical size; the window turns

    # -- observation -------------------------------------------------------------------------------------------
    def dump_hierarchy(self) -> str:
        self.record("dump_hierarchy")
        return self.xml

    def screenshot(self) -> Image.Image:
        self.record("screenshot")
        return Image.new("RGB", self.size, (30, 120, 200))

    @property
    def info(self) -> dict[str, Any]:  # the agent's deviceInfo
        self.record("info")
        return {"displayWidth": self.size[0], "displayHeight": self.size[1], "displaySizeDpX": 411, "sdkInt": 34}

    def window_size(self) -> tuple[int, int]:
        self.record("window_size")
        return (self.size[1], self.size[0]) if self.sideways else self.size

    # -- apps ----------------------------------------------------------------------------------------------------
    def app_current(self) -> dict[str, Any]:
        self.record("app_current")
        return {"package": self.foreground, "activity": ".MainActivity"}

    def app_start(self, package_name: str) -> None:
        self.record("app_start", package_name)
        if self.fronts_on_start:
            self.running.add(package_name)
            self.foreground = package_name

    def app_stop(self, package_name: str) -> None:
        self.record("app_stop", package_name)
        self.running.discard(package_name)
        if self.foreground == package_name:
            self.foreground = LAUNCHER

    def app_list(self, filter: str | None = None) -> list[str]:
        self.record("app_list", filter)
        return list(self.third_party)

    def app_list_running(self) -> list[str]:
        self.record("app_list_running")
        return sorted(self.running & self.installed | {"com.android.systemui"} & self.running)

    def shell(self, cmdargs: list[str]) -> ShellResponse:
        self.record("shell", tuple(cmdargs))
        head = tuple(cmdargs[:2])
        if head == ("wm", "size"):
            return ShellResponse(f"Physical size: {self.size[0]}x{self.size[1]}\n", 0)
        if head == ("cmd", "uimode"):
            return self._uimode(cmdargs)
        if head == ("cmd", "locale"):
            return self._locale(cmdargs)
        if head == ("wm", "density"):
            return ShellResponse(f"Physical density: {self.dpi}\n", 0)
        if cmdargs[0] == "logcat":
            return ShellResponse(self._logcat(cmdargs[cmdargs.index("-t") + 1]), 0)
        if cmdargs[0] == "pidof":
            return ShellResponse("4242\n", 0) if cmdargs[1] in self.running else ShellResponse("", 1)
        if cmdargs[0] == "pm":
            return self._pm(cmdargs[1], cmdargs[2])
        if head == ("am", "start"):
            if self.url_activity:
                package = self.url_activity.split("/")[0]
                self.foreground = package
                self.running.add(package)
                return ShellResponse(f"Starting: Intent {{ }}\nStatus: ok\nActivity: {self.url_activity}\n", 0)
            return ShellResponse("Error: Activity not started, unable to resolve Intent\n", 0)
        raise AssertionError(f"unexpected shell command {cmdargs}")

    def _pm(self, verb: str, package: str) -> ShellResponse:
        """``pm path PACKAGE``; ``pm clear PACKAGE``: stops the app and deletes its data ("Success"), else "Failed"."""
        if verb == "path":
            if package in self.installed:
                return ShellResponse(f"package:/data/app/{package}/base.apk\n", 0)
            return ShellResponse("", 1)
        assert verb == "clear", verb
        if package not in self.installed or package in self.protected:
            return ShellResponse("Failed\n", 1)
        self.running.discard(package)
        if self.foreground == package:
            self.foreground = LAUNCHER
        self.data.pop(package, None)
        return ShellResponse("Success\n", 0)

    def _locale(self, cmdargs: list[str]) -> ShellResponse:
        """Android 13+: ``cmd locale set-app-locales PACKAGE --locales TAGS`` prints nothing; before: no service."""
        if not self.per_app_locales:
            return ShellResponse("cmd: Can't find service: locale\n", 20)
        assert cmdargs[2] == "set-app-locales" and cmdargs[4] == "--locales", cmdargs
        self.app_locales[cmdargs[3]] = cmdargs[5]
        return ShellResponse("", 0)

    def _uimode(self, cmdargs: list[str]) -> ShellResponse:
        """Android 10+: ``cmd uimode night yes|no`` answers the mode; before, the shell knows no such command."""
        if not self.uimode:
            return ShellResponse("Unknown command: uimode\n", 255)
        self.night = cmdargs[3]
        return ShellResponse(f"Night mode: {self.night}\n", 0)

    def _logcat(self, since: str) -> str:
        """``-t N``: the last N lines; ``-t 'MM-DD hh:mm:ss.mmm'``: the lines from that time on (inclusive)."""
        lines = self.logcat.splitlines(keepends=True)
        if since.isdigit():
            return "".join(lines[-int(since) :])
        return "".join(line for line in lines if line[:18] >= since or not line[:1].isdigit())

    # -- the agent process -------------------------------------------------------------------------------------
    def start_uiautomator(self) -> None:
        self.record("start_uiautomator")

    def stop_uiautomator(self, wait: bool = True) -> None:
        self.record("stop_uiautomator", wait)
