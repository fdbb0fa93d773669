"""Screenshots of the page on the screen: PNG or JPEG, at device pixels or at CSS scale (one pixel per point)."""

from __future__ import annotations

import base64
import io
from typing import Any

from phonewire.devices.base import Screenshot
from phonewire.devices.web.cdp import CdpSession
from phonewire.devices.web.profiles import Profile


async def screenshot(
    session: CdpSession, profile: Profile, *, format: str = "png", scale: str = "device", quality: int = 80
) -> Screenshot:
    # optimizeForSpeed: a faster PNG encoder (larger files; on loopback time matters more than bytes)
    params: dict[str, Any] = {"format": format, "captureBeyondViewport": False, "optimizeForSpeed": True}
    if format == "jpeg":
        params["quality"] = max(0, min(100, quality))
    if scale == "css":
        metrics = await session.send("Page.getLayoutMetrics")
        vv = metrics.get("cssVisualViewport") or metrics.get("visualViewport") or {}
        params["clip"] = {
            "x": vv.get("pageX", 0),
            "y": vv.get("pageY", 0),
            "width": vv.get("clientWidth", profile.width),
            "height": vv.get("clientHeight", profile.height),
            "scale": 1 / profile.dpr,
        }
    data = base64.b64decode((await session.send("Page.captureScreenshot", params))["data"])
    from PIL import Image  # imported on first use: keeps the runner's cold start short

    with Image.open(io.BytesIO(data)) as image:
        width, height = image.size
    return Screenshot(data, format, width, height)
