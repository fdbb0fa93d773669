"""Screenshots of the page on the screen: PNG or JPEG, at device pixels or at CSS scale (one pixel per point, at most
``CSS_MAX_SIDE`` on the long side).

The image's size is read from its header (PNG's IHDR, JPEG's start-of-frame), not by decoding it: decoding costs
more than the capture itself and an image library is a slow import on the runner's path.
"""

from __future__ import annotations

import base64
import struct
from typing import Any

from phonewire.devices.base import Screenshot
from phonewire.devices.web.cdp import CdpSession
from phonewire.devices.web.profiles import Profile
from phonewire.protocol.request import css_image_size


async def screenshot(
    session: CdpSession, profile: Profile, *, format: str = "png", scale: str = "device", quality: int = 80
) -> Screenshot:
    # optimizeForSpeed: a faster encoder (larger files; on loopback time matters more than bytes)
    params: dict[str, Any] = {"format": format, "captureBeyondViewport": False, "optimizeForSpeed": True}
    if format == "jpeg":
        params["quality"] = max(0, min(100, quality))
    if scale == "css":
        metrics = await session.send("Page.getLayoutMetrics")
        vv = metrics.get("cssVisualViewport") or metrics.get("visualViewport") or {}
        width, height = float(vv.get("clientWidth", profile.width)), float(vv.get("clientHeight", profile.height))
        # one pixel per point, scaled down further when the long side would exceed CSS_MAX_SIDE
        fit = css_image_size(width, height)[0] / max(width, 1.0)
        params["clip"] = {
            "x": vv.get("pageX", 0),
            "y": vv.get("pageY", 0),
            "width": width,
            "height": height,
            "scale": fit / profile.dpr,
        }
    data = base64.b64decode((await session.send("Page.captureScreenshot", params))["data"])
    width, height = image_size(data)
    return Screenshot(data, format, width, height)


_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: JPEG start-of-frame markers (baseline, extended, progressive, lossless …); C4, C8 and CC are not frames.
_JPEG_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def image_size(data: bytes) -> tuple[int, int]:
    """(width, height) of a PNG or JPEG image from its header; ValueError when it is neither or is cut short."""
    if data.startswith(_PNG_SIGNATURE) and len(data) >= 24 and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    if data.startswith(b"\xff\xd8"):
        at = 2
        while at + 4 <= len(data):
            if data[at] != 0xFF:
                break
            marker = data[at + 1]
            if marker == 0xFF:  # fill byte
                at += 1
                continue
            if marker in (0x01, *range(0xD0, 0xD8)):  # markers without a length
                at += 2
                continue
            (length,) = struct.unpack(">H", data[at + 2 : at + 4])
            if marker in _JPEG_SOF and at + 9 <= len(data):
                height, width = struct.unpack(">HH", data[at + 5 : at + 9])
                return int(width), int(height)
            at += 2 + length
    raise ValueError("not a PNG or JPEG image, or its header is cut short")
