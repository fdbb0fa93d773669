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
from typing import Any, Final

from phonewire.devices.web.cdp import CdpError
from phonewire.devices.web.editing import Editing
from phonewire.devices.web.input import TWO_FRAMES as _TWO_FRAMES
from phonewire.devices.web.observe import NETWORK_ENABLE
from phonewire.devices.web.profiles import metrics, turned
from phonewire.devices.web.target import Page
from phonewire.protocol.errors import ProtocolError

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
        """A new page gets the phone's location and network (its metrics come with the profile)."""
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
