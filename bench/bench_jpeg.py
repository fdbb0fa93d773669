"""Where a JPEG screenshot at CSS scale goes: raw ``Page.captureScreenshot`` variants on the demo's list screen.

    .venv/bin/python bench/bench_jpeg.py [--rounds 15] [BINARY[|FLAG,FLAG…] …]

Each browser given (default: the web phone's) is started with the device's flags (plus any given after ``|``) and
the device profile's metrics, on the demo; the variants below run in every round, browsers alternating, the order
swapped every round, so both see the same load.  Prints p50 per variant and browser, the browser's CPU per capture
(user + system of its process group: the part load does not inflate), and a check that the clip is in document
coordinates (a scrolled page: a clip at y = 0 against one at the visual viewport's pageY, each compared with the
viewport itself), which is why the device reads the layout metrics before every capture.  Asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import io
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_web  # the bench directory is not a package
from phonewire.devices.web import browser as browser_module
from phonewire.devices.web.browser import BrowserProcess, window_flags
from phonewire.devices.web.cdp import CdpConnection, CdpSession
from phonewire.devices.web.pages import DEMO_PATH
from phonewire.devices.web.profiles import resolve_profile
from phonewire.devices.web.server import StaticServer

PROFILE = resolve_profile(None)
LOADED = "new Promise(r => document.readyState === 'complete' ? r(0) : onload = () => r(0))"
CLIP = {"x": 0, "y": 0, "width": PROFILE.width, "height": PROFILE.height, "scale": 1 / PROFILE.dpr}
FAST = {"captureBeyondViewport": False, "optimizeForSpeed": True}
JPEG = {"format": "jpeg", "quality": 80, "clip": CLIP}
DEVICE = "JPEG q80 CSS clip, optimizeForSpeed (the device's)"
CAPTURE = "Page.captureScreenshot"
VARIANTS: dict[str, tuple[str, dict[str, Any]]] = {
    "getLayoutMetrics": ("Page.getLayoutMetrics", {}),
    DEVICE: (CAPTURE, {**JPEG, **FAST}),
    "  without optimizeForSpeed": (CAPTURE, {**JPEG, "captureBeyondViewport": False}),
    "  at quality 50": (CAPTURE, {**JPEG, **FAST, "quality": 50}),
    "  with fromSurface false": (CAPTURE, {**JPEG, **FAST, "fromSurface": False}),
    "  PNG instead of JPEG": (CAPTURE, {"format": "png", "clip": CLIP, **FAST}),
    "JPEG q80 device pixels, no clip": (CAPTURE, {"format": "jpeg", "quality": 80, **FAST}),
    "requestAnimationFrame round trip": (
        "Runtime.evaluate",
        {"expression": "new Promise(r => requestAnimationFrame(() => r(1)))", "awaitPromise": True},
    ),
}  # fmt: skip


async def open_phone(spec: str, url: str) -> tuple[BrowserProcess, CdpConnection, CdpSession]:
    binary, _, flags = spec.partition("|")
    browser_module.CHROMIUM = binary  # what BrowserProcess.launch starts
    extra = tuple(f for f in flags.split(",") if f)
    browser = BrowserProcess.launch(extra_flags=window_flags(PROFILE.width, PROFILE.height) + extra)
    cdp = await CdpConnection.open_pipe(browser.read_fd, browser.write_fd)
    target = (await cdp.send("Target.createTarget", {"url": "about:blank"}))["targetId"]
    session = cdp.session((await cdp.send("Target.attachToTarget", {"targetId": target, "flatten": True}))["sessionId"])
    await session.send(
        "Emulation.setDeviceMetricsOverride",
        {"width": PROFILE.width, "height": PROFILE.height, "deviceScaleFactor": PROFILE.dpr, "mobile": True},
    )
    await session.send("Page.navigate", {"url": url})
    await session.send("Runtime.evaluate", {"expression": LOADED, "awaitPromise": True})
    return browser, cdp, session


async def clip_check(session: CdpSession) -> tuple[float, float]:
    """Mean pixel difference against the viewport (downscaled) of a clip at y = 0 and of one at the visual
    viewport's pageY, on the page scrolled to y = 1500."""
    from PIL import Image, ImageChops, ImageStat

    def image(reply: dict[str, Any]) -> Image.Image:
        return Image.open(io.BytesIO(base64.b64decode(reply["data"]))).convert("RGB")

    def diff(a: Image.Image, b: Image.Image) -> float:
        return float(sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3)

    tall = "document.body.style.minHeight = '10000px'; document.body.style.background = 'linear-gradient(red, blue)'"
    await session.send("Runtime.evaluate", {"expression": f"{tall}; scrollTo(0, 1500)"})
    await asyncio.sleep(0.3)
    page_y = (await session.send("Page.getLayoutMetrics"))["cssVisualViewport"]["pageY"]
    viewport = image(await session.send(CAPTURE, {"format": "png", "captureBeyondViewport": False}))
    viewport = viewport.resize((PROFILE.width, PROFILE.height))
    out = []
    for y in (0, page_y):
        shot = await session.send(CAPTURE, {"format": "png", "clip": {**CLIP, "y": y}, **FAST})
        out.append(diff(image(shot), viewport))
    return out[0], out[1]


async def run(specs: list[str], rounds: int) -> None:
    server = StaticServer.for_package_data()
    await server.start()
    phones = [await open_phone(spec, server.url(DEMO_PATH)) for spec in specs]
    try:
        samples: dict[tuple[int, str], list[float]] = {(i, k): [] for i in range(len(phones)) for k in VARIANTS}
        cpu: dict[int, list[float]] = {i: [] for i in range(len(phones))}
        for r in range(rounds):
            order = list(range(len(phones)))
            for i in order if r % 2 == 0 else order[::-1]:
                browser, _, session = phones[i]
                for name, (method, params) in VARIANTS.items():
                    started = time.perf_counter()
                    await session.send(method, params)
                    samples[(i, name)].append(time.perf_counter() - started)
                group = bench_web._group(browser.pid)
                before = bench_web._cpu_s(group)
                for _ in range(5):
                    await session.send(*VARIANTS[DEVICE])
                cpu[i].append((bench_web._cpu_s(group) - before) / 5)
        print(f"JPEG at CSS scale, raw CDP on the demo list; {rounds} rounds; load average "
              f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")  # fmt: skip
        names = [spec.rsplit("/", 1)[-1][-30:] for spec in specs]
        print(f"{'p50':<52}" + "".join(f"{n:>32}" for n in names))
        for name in VARIANTS:
            print(
                f"{name:<52}"
                + "".join(f"{statistics.median(samples[(i, name)]) * 1000:29.2f} ms" for i in range(len(phones)))
            )
        print(f"{'browser CPU per device JPEG (median of rounds)':<52}"
              + "".join(f"{statistics.median(cpu[i]) * 1000:29.2f} ms" for i in range(len(phones))))  # fmt: skip
        at_top, at_page_y = await clip_check(phones[0][2])
        print(f"clip check (page scrolled to 1500), mean pixel difference from the viewport: clip at y = 0 "
              f"{at_top:.2f}, clip at the viewport's pageY {at_page_y:.2f} (document coordinates)")  # fmt: skip
    finally:
        for browser, cdp, _ in phones:
            await cdp.close()
            browser.stop()
        await server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("browsers", nargs="*", help="BINARY or BINARY|--flag,--flag (default: the web phone's)")
    args = parser.parse_args()
    asyncio.run(run(args.browsers or [browser_module.CHROMIUM], args.rounds))


if __name__ == "__main__":
    main()
