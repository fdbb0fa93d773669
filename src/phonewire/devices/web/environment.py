"""The phone's environment on the web phone: its light or dark mode (``appearance``: the page's
``prefers-color-scheme``), how it is held (``rotate``: the screen's metrics and orientation, so
the page's layout changes and ``orientationchange`` fires), where it is (``location``: the Geolocation API's
answer, or "position unavailable" when location is off), its network (``connectivity``: offline is
``navigator.onLine`` false and failing requests; the slow ones are DevTools' throttling presets) and the
permissions its apps have (``permissions``: what ``navigator.permissions.query`` answers and what the APIs behind
them allow).  Each applies to every page the phone has and to every page it makes later (``_follow_environment``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any, Final
from urllib.parse import urlsplit

from phonewire.devices.web import chooser, dialogs, js
from phonewire.devices.web.cdp import CdpError, CdpProtocolError, target_gone
from phonewire.devices.web.editing import Editing
from phonewire.devices.web.input import TWO_FRAMES as _TWO_FRAMES
from phonewire.devices.web.observe import NETWORK_ENABLE
from phonewire.devices.web.profiles import metrics, turned
from phonewire.devices.web.target import Page
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.request import TIMEZONE_HINT

#: ``Network.emulateNetworkConditions`` per connectivity (throughput in bytes/s; DevTools' Slow 3G and Fast 3G).
NETWORKS: Final[dict[str, dict[str, Any]]] = {
    "online": {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    "offline": {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    "slow-3g": {"offline": False, "latency": 2000, "downloadThroughput": 50_000, "uploadThroughput": 50_000},
    "fast-3g": {"offline": False, "latency": 562.5, "downloadThroughput": 180_000, "uploadThroughput": 84_375},
}
#: A permission as the phone names it → the W3C Permissions names behind it.
PERMISSION_NAMES: Final[dict[str, tuple[str, ...]]] = {
    "geolocation": ("geolocation",), "location": ("geolocation",), "notifications": ("notifications",),
    "camera": ("camera",), "microphone": ("microphone",), "clipboard": ("clipboard-read", "clipboard-write"),
    "clipboard-read": ("clipboard-read",), "clipboard-write": ("clipboard-write",), "midi": ("midi",),
    "sensors": ("accelerometer", "gyroscope", "magnetometer"), "persistent-storage": ("persistent-storage",),
    "background-sync": ("background-sync",), "screen-wake-lock": ("screen-wake-lock",),
}  # fmt: skip
SETTINGS: Final = {"grant": "granted", "deny": "denied", "reset": "prompt"}
#: The permission prompt (permission_prompt.js): the binding a page's request calls, and what the dialog says.
PROMPT_BINDING: Final = "__phonewirePermissionAsked"
PROMPT_JS: Final = f"({js.load('permission_prompt.js').strip()})({json.dumps(PROMPT_BINDING)})"
PROMPTS: Final = {"geolocation": "Would Like to Use Your Current Location",
                  "notifications": "Would Like to Send You Notifications",
                  "camera": "Would Like to Access the Camera",
                  "microphone": "Would Like to Access the Microphone",
                  "camera+microphone": "Would Like to Access the Camera and Microphone"}  # fmt: skip


class Environment(Editing):
    """Orientation, location, connectivity and permissions."""

    #: The position the phone reports (latitude, longitude, accuracy), None when location is off; unset: the
    #: browser's own (none: "position unavailable" too).
    _location: tuple[float, float, float] | str | None
    _connectivity: str
    _appearance: str | None

    def _pages(self) -> list[Page]:
        return [p for p in self._by_session.values() if not p.gone]

    async def _seen(self) -> None:
        """Once the phone changed: two frames of the page in front, so the page's own answer to the change (its
        ``orientationchange``, ``matchMedia`` change, ``offline`` listeners: they run at the next frame) has run
        before the reply, and the next snapshot shows it."""
        page = self._foreground()
        if page is None or page.frozen or page.dialog is not None:
            return
        with contextlib.suppress(ProtocolError, CdpError):
            await asyncio.wait_for(self._eval(page, _TWO_FRAMES, await_promise=True), 1.0 * self._scale)

    async def _follow_environment(self, page: Page) -> None:
        """A new page gets the phone's location and network (its metrics come with the profile), and its file
        choosers come to the phone (chooser.py)."""
        await page.session.send("Page.setInterceptFileChooserDialog", {"enabled": True})
        await page.session.send("Runtime.addBinding", {"name": PROMPT_BINDING})
        await page.session.send("Page.addScriptToEvaluateOnNewDocument", {"source": PROMPT_JS})
        if self._location != "unset":
            await page.session.send("Emulation.setGeolocationOverride", _position(self._location))
        if self._connectivity != "online":
            await self._emulate_network(page, self._connectivity)
        if self._appearance is not None:
            await page.session.send("Emulation.setEmulatedMedia", _scheme(self._appearance))

    async def _emulate_network(self, page: Page, connectivity: str) -> None:
        """The network conditions hold for the page's requests only while its Network domain is on: it is turned on
        for them (the observer still records nothing before the first ``network``) and off again once the phone is
        online, unless ``network`` captures."""
        if connectivity != "online":
            await page.session.send(*NETWORK_ENABLE)
        await page.session.send("Network.emulateNetworkConditions", NETWORKS[connectivity])
        if connectivity == "online" and not self._observer.network_domain:
            await page.session.send("Network.disable")

    async def rotate(self, orientation: str) -> dict[str, Any]:
        landscape = orientation == "landscape"
        with self._mapped():
            if self.profile.landscape == landscape:
                return {"orientation": orientation, "message": f"already {orientation}"}
            self.profile = turned(self.profile, landscape)
            for page in self._pages():
                turned_metrics = metrics(self.profile, keyboard=page.keyboard)  # (a keyboard up stays up)
                await page.session.send("Emulation.setDeviceMetricsOverride", turned_metrics)
                page.unsettled = True
            await self._seen()
            size = f"{self.profile.width}×{self.profile.height}"
            return {"orientation": orientation, "message": f"rotated to {orientation} ({size} points)"}

    async def set_location(self, position: tuple[float, float, float] | None) -> dict[str, Any]:
        with self._mapped():
            self._location = position
            for page in self._pages():
                await page.session.send("Emulation.setGeolocationOverride", _position(position))
        if position is None:
            return {"message": "location is off: apps asking for the position get none"}
        lat, lon, accuracy = position
        return {"message": f"the phone is at {lat:g}, {lon:g} (±{accuracy:g} m)"}

    async def set_connectivity(self, connectivity: str) -> dict[str, Any]:
        with self._mapped():
            self._connectivity = connectivity
            for page in self._pages():
                await self._emulate_network(page, connectivity)
                page.unsettled = True
        await self._seen()
        return {"connectivity": connectivity, "message": f"the phone is {connectivity}"}

    async def set_appearance(self, appearance: str) -> dict[str, Any]:
        with self._mapped():
            self._appearance = appearance
            for page in self._pages():
                await page.session.send("Emulation.setEmulatedMedia", _scheme(appearance))
                page.unsettled = True
        await self._seen()
        return {"appearance": appearance, "message": f"the phone is in {appearance} mode"}

    async def _launch_options(self, locale: str | None, timezone: str | None) -> dict[str, str]:
        """The language and time zone of the next app launched, given to the blank page it will take (the spare)
        before it loads: ``Emulation.setTimezoneOverride``, ``setLocaleOverride`` (Intl's default) and the user
        agent's ``acceptLanguage`` (``navigator.language`` and the Accept-Language header).  A zone Chromium does
        not know is INVALID_REQUEST, and the spare page is left as it was (nothing launched, nothing stopped)."""
        options = {k: v for k, v in (("locale", locale), ("timezone", timezone)) if v is not None}
        if not options:
            return options
        page = self._spare if self._spare is not None and not self._spare.gone else await self._new_page(None)
        self._spare = page
        if timezone is not None:
            try:
                await page.session.send("Emulation.setTimezoneOverride", {"timezoneId": timezone})
            except CdpProtocolError as exc:
                if target_gone(exc):
                    raise
                raise ProtocolError(e.INVALID_REQUEST, f"the phone knows no time zone {timezone!r}", TIMEZONE_HINT
                                    ) from exc  # fmt: skip
        if locale is not None:
            await page.session.send("Emulation.setLocaleOverride", {"locale": locale})
            agent = {"userAgent": self.profile.user_agent, "platform": self.profile.platform, "acceptLanguage": locale}
            await page.session.send("Emulation.setUserAgentOverride", agent)
        return options

    async def pick_file(self, app_id: str, files: list[str]) -> dict[str, Any]:
        with self._mapped(app_id):
            page = self._live(app_id)
            open_one = page.chooser
            if open_one is None:
                raise chooser.none_open()
            paths = chooser.checked_files(open_one, files)
            page.chooser, page.unsettled = None, True
            await chooser.pick(page.session, open_one, paths)
            await self._settle(page)
        return {"files": paths, "message": chooser.picked(paths)}

    def _asked(self, page: Page, params: dict[str, Any]) -> None:
        """A page's request for a permission (permission_prompt.js): the system's dialog when the phone has not
        decided it (and no dialog shows already), else the page's call goes on at once with what the phone has."""
        if params.get("name") != PROMPT_BINDING:
            return
        try:
            asked = json.loads(str(params.get("payload")))
            name, number = str(asked["name"]), int(asked["number"])
        except (ValueError, KeyError, TypeError):
            return  # not the script's call (a page calling the binding itself): nothing to show
        # (a request for both the camera and the microphone is one dialog; it asks when either is undecided)
        wanted = name.split("+")
        undecided = any(self._permission.get(w, "prompt") == "prompt" for w in wanted)
        if name not in PROMPTS or page.dialog is not None or not undecided:
            self._spawn(self._go_on(page, number))
            return
        host = urlsplit(page.url).hostname or page.url
        message = f"{json.dumps(host)} {PROMPTS[name]}"
        wire = {"type": dialogs.PERMISSION, "message": message, "permission": name}

        async def respond(allow: bool) -> None:
            await self.set_permissions("grant" if allow else "deny", wanted)
            await self._go_on(page, number)

        page.dialog, page.unsettled = dialogs.Dialog(dialogs.PERMISSION, message, wire=wire, respond=respond), True

    async def _go_on(self, page: Page, number: int) -> None:
        """Let the page's request run (its own call, now that the phone decided)."""
        with contextlib.suppress(ProtocolError, CdpError):
            await self._eval(page, f"window[Symbol.for('phonewire.permission')]({number})")

    async def set_permissions(self, setting: str, permissions: list[str]) -> dict[str, Any]:
        state = SETTINGS[setting]
        with self._mapped():
            for name in permissions:
                for w3c in PERMISSION_NAMES[name]:
                    await self._cdp_live.send("Browser.setPermission", {"permission": {"name": w3c}, "setting": state})
                    self._permission[w3c] = state
        done = {"grant": "granted", "deny": "denied", "reset": "reset (apps ask again)"}[setting]
        return {"message": f"{done}: {', '.join(permissions)}"}


def _scheme(appearance: str) -> dict[str, Any]:
    """``Emulation.setEmulatedMedia``'s parameters: the page's ``prefers-color-scheme``."""
    return {"features": [{"name": "prefers-color-scheme", "value": appearance}]}


def _position(position: tuple[float, float, float] | str | None) -> dict[str, float]:
    """``Emulation.setGeolocationOverride``'s parameters: none is "position unavailable" (location off)."""
    if not isinstance(position, tuple):
        return {}
    lat, lon, accuracy = position
    return {"latitude": lat, "longitude": lon, "accuracy": accuracy}
