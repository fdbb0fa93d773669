"""A WebDevice on real headless Chromium, driven synchronously by the device tests."""

from __future__ import annotations

import asyncio
import shutil
from typing import Any

import pytest

from phonewire.devices.web.device import WebDevice
from phonewire.devices.web.home import DEMO_APP_ID

requires_chromium = pytest.mark.skipif(shutil.which("chromium") is None, reason="Chromium is not installed")


class Phone:
    """A WebDevice on its own event loop, driven synchronously by the tests."""

    def __init__(self, profile: str | None = None) -> None:
        self.loop = asyncio.new_event_loop()
        self.device = WebDevice(profile)
        self.run(self.device.open())

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    def close(self) -> None:
        try:
            self.run(self.device.close())
        finally:
            self.loop.close()

    # conveniences
    def snapshot(self, app: str = DEMO_APP_ID) -> dict[str, Any]:
        return self.run(self.device.snapshot(app))  # type: ignore[no-any-return]

    def node(self, identifier: str, app: str = DEMO_APP_ID) -> dict[str, Any]:
        found: list[dict[str, Any]] = [n for n in self.snapshot(app)["nodes"] if n["identifier"] == identifier]
        assert len(found) == 1, f"expected one node {identifier!r}, found {found}"
        return found[0]

    def tap_node(self, identifier: str, app: str = DEMO_APP_ID, taps: int = 1) -> None:
        r = self.node(identifier, app)["rect"]
        self.run(self.device.tap(app, r["x"] + r["width"] / 2, r["y"] + r["height"] / 2, taps))

    def eval(self, expression: str, app: str = DEMO_APP_ID) -> Any:
        page = self.device._live(app)
        return self.run(self.device._eval(page, expression))

    def goto(self, screen: str, app: str = DEMO_APP_ID) -> None:
        self.eval(f"location.hash = {screen!r}", app)
