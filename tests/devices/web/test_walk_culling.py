"""The walk leaves out what lies outside the screen, and keeps what reaches into it through overflow."""

from __future__ import annotations

import asyncio
from pathlib import Path

from web_phone import Phone, requires_chromium

from loopback import serving
from phonewire.devices.web.device import DEMO_APP_ID

pytestmark = requires_chromium

PAGES = Path(__file__).resolve().parent / "pages"


def test_rows_below_the_screen_are_left_out_and_overflow_from_above_is_kept(phone: Phone) -> None:
    with serving(PAGES) as base:
        url = base + "culling.html"
        phone.run(phone.device.open_url(url))
        try:
            height = phone.device.profile.height
            phone.eval("window.scrollTo(0, 300); 1", url)
            phone.run(asyncio.sleep(0.1))
            nodes = {n["identifier"]: n for n in phone.snapshot(url)["nodes"] if n["identifier"]}
            # the 40 px box lies above the screen; the button its content pushed 600 px down shows
            assert "short" not in nodes and nodes["overflowing"]["label"] == "Reached through overflow"
            shown = sorted(int(i.split("-")[1]) for i in nodes if i.startswith("row-"))
            boxes = phone.eval(
                "[...document.querySelectorAll('#rows button')].map(b => b.getBoundingClientRect())"
                ".map(r => [r.y, r.height])",
                url,
            )
            expected = [i + 1 for i, (top, tall) in enumerate(boxes) if top < height and top + tall > 0]
            assert shown == expected and 0 < len(shown) < 120
        finally:
            phone.run(phone.device.terminate_app(url))
            phone.run(phone.device.activate(DEMO_APP_ID))
