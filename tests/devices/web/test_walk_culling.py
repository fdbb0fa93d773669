"""The walk leaves out what lies outside the screen, and keeps what reaches into it through overflow."""

from __future__ import annotations

import asyncio
from pathlib import Path

from web_phone import Phone, requires_chromium

from loopback import serving
from phonewire.devices.web.home import DEMO_APP_ID

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


def _fixed_page(phone: Phone, url: str) -> dict[str, dict[str, object]]:
    phone.run(phone.device.open_url(url))
    phone.run(asyncio.sleep(0.1))
    assert phone.eval("getComputedStyle(document.getElementById('chat')).position", url) == "fixed"
    # the footer holding them lies far below the screen: the walk culls it
    assert (
        phone.eval("document.getElementById('foot').getBoundingClientRect().y", url) > 2 * phone.device.profile.height
    )
    return {str(n["identifier"]): n for n in phone.snapshot(url)["nodes"] if n["identifier"]}


def _on_screen(phone: Phone, node: dict[str, object]) -> bool:
    rect = node["rect"]
    assert isinstance(rect, dict)
    return bool(rect["y"] >= 0 and rect["y"] + rect["height"] <= phone.device.profile.height and rect["width"] > 0)


def test_fixed_elements_of_a_subtree_below_the_screen_are_shown_and_tapped(phone: Phone) -> None:
    """A chat button, a toast and a banner that are position: fixed inside a footer far below the screen show on
    it (a person sees and taps them), so the view lists them where they are, and a tap there reaches the button."""
    with serving(PAGES) as base:
        url = base + "fixed_in_culled.html"
        try:
            nodes = _fixed_page(phone, url)
            assert nodes["chat"]["label"] == "Chat" and _on_screen(phone, nodes["chat"])
            assert nodes["toast"]["label"] == "Saved" and _on_screen(phone, nodes["toast"])
            assert "inline" in nodes and _on_screen(phone, nodes["inline"])
            assert "foot" not in nodes and "taps" not in nodes  # the rest of the footer stays off screen
            rect = nodes["chat"]["rect"]
            assert isinstance(rect, dict)
            phone.run(phone.device.tap(url, rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] / 2))
            assert phone.eval("document.getElementById('taps').textContent", url) == "1"
        finally:
            phone.run(phone.device.terminate_app(url))
            phone.run(phone.device.activate(DEMO_APP_ID))


def test_a_fixed_element_styled_by_another_origins_sheet_is_found_by_hit_testing_the_screen(phone: Phone) -> None:
    """Another origin's style rules cannot be read, so the walk hit-tests the screen for what a culled subtree shows."""
    with serving(PAGES) as base, serving(PAGES) as other:
        assert base != other
        url = base + "fixed_in_culled.html?css=" + other + "fixed.css"
        try:
            nodes = _fixed_page(phone, url)
            assert (
                phone.eval(
                    "(() => { try { return document.styleSheets[1].cssRules.length; } "
                    "catch (e) { return e.name; } })()",
                    url,
                )
                == "SecurityError"
            )
            assert nodes["chat"]["label"] == "Chat" and _on_screen(phone, nodes["chat"])
        finally:
            phone.run(phone.device.terminate_app(url))
            phone.run(phone.device.activate(DEMO_APP_ID))
