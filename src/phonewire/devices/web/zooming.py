"""Double-tap zoom on the web phone, as a phone's browser does it: on a page not laid out for the phone, a double
tap zooms in on the block of text or content under the finger, and a double tap on a page it zoomed (still at
that scale) zooms back out to the whole width.  The page gets the two taps' touch events and no click, no double
click (double_tap_zoom.js has the rules of when, and the guard that keeps the clicks from the page).

Chromium's touch emulation has no double-tap zoom of its own (a double tap there is always a double click), so
the zoom is made here with the browser's own page scale (``Emulation.setPageScaleFactor``, which keeps it within
the page's limits) and a scroll of the visual viewport onto the block (``DOM.scrollIntoViewIfNeeded`` on the root
element with the rect to show, which moves the visual viewport as a finger's scroll does, not the layout
viewport).  How far and where, after Chrome on Android: the block's width fitted to the screen less a small
margin, never past the page's own size (a scale of 1, the most legible), centred when it is smaller than the
screen, else its top left shown (moved only as far as keeps the finger's point on the screen).  Not followed: the
animation (the zoom is done when the reply comes), the 300 ms a browser that double-tap zooms waits after a single
tap for a second (a single tap clicks at once here), a double tap on a frame (a double click there), and text
autosizing.  Everything the view and the gestures do follows the scale (docs/snapshot.md's coordinate model).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from phonewire.devices.web import js
from phonewire.devices.web.cdp import CdpSession

#: The page script that decides and guards (see the module's docstring).
DOUBLE_TAP_ZOOM_JS: Final = js.lending("double_tap_zoom.js")
#: The two taps' last event (their double click) waited for this long before the guard is taken away.
OVER_WAIT_S: Final = 0.12
#: The guard taken away once the taps' last event came, or after OVER_WAIT_S: whether the page cancelled a touch.
GUARD_OFF_JS: Final = (
    "window.__phonewireZoom ? Promise.race([__phonewireZoom.over, new Promise(r => setTimeout(r, "
    f"{OVER_WAIT_S * 1000:g}))]).then(() => __phonewireZoom.off()) : null"
)
#: A double tap zooms in no further than this: the page at its own size.
LEGIBLE_SCALE: Final = 1.0
#: Screen points left free either side of the block zoomed to.
MARGIN: Final = 5.0
#: Scales closer than this are the same (a double tap that would not change the zoom zooms out instead).
SAME_SCALE: Final = 0.01
#: Asked for to zoom out: below any page's minimum scale, which the browser then keeps it at.
ZOOM_OUT_ASK: Final = 0.01

Box = tuple[float, float, float, float]
Point = tuple[float, float]


def zoom_in_scale(block_width: float, screen_width: float) -> float:
    """The scale that fits a block ``block_width`` CSS px wide on a screen ``screen_width`` points wide, its margin
    either side; never above the legible scale."""
    return min(LEGIBLE_SCALE, (screen_width - 2 * MARGIN) / max(block_width, 1.0))


def block_view(block: Box, point: Point, shown: tuple[float, float]) -> Point:
    """The top left (CSS px, as ``block``) of the part of the page to show after zooming in on ``block`` at the
    finger's ``point``, the screen showing ``shown`` (width, height in CSS px at the new scale): each way, a block
    smaller than the screen centred, a larger one from its start — moved on only as far as keeps the point on the
    screen (MARGIN from its far edge)."""
    out: list[float] = []
    for start, size, at, room in ((block[0], block[2], point[0], shown[0]), (block[1], block[3], point[1], shown[1])):
        if size < room:
            out.append(start - (room - size) / 2)
        else:
            out.append(max(start, at + MARGIN - room))
    return out[0], out[1]


def anchored_view(point: Point, screen_point: Point, scale: float) -> Point:
    """The top left of the part of the page to show at ``scale`` that keeps ``point`` (CSS px) under the finger at
    ``screen_point`` (screen points): a zoom out about the finger."""
    return point[0] - screen_point[0] / scale, point[1] - screen_point[1] / scale


async def _scale_to(session: CdpSession, scale: float) -> tuple[float, float, float]:
    """The page scaled to ``scale`` (or the nearest its limits allow); the visual viewport's scale, width and height
    then (CSS px)."""
    await session.send("Emulation.setPageScaleFactor", {"pageScaleFactor": scale})
    reply = await session.send(
        "Runtime.evaluate",
        {"expression": "(v => [v.scale, v.width, v.height])(visualViewport)", "returnByValue": True},
    )
    s, w, h = reply["result"]["value"]
    return float(s), float(w), float(h)


async def _show(session: CdpSession, left: float, top: float, width: float, height: float) -> None:
    """The visual viewport moved to show the rect (CSS px from the root element's border box), as far as the page
    reaches."""
    root = await session.send("Runtime.evaluate", {"expression": "document.documentElement"})
    object_id = root["result"].get("objectId")
    if object_id:
        rect = {"x": left, "y": top, "width": width, "height": height}
        await session.send("DOM.scrollIntoViewIfNeeded", {"objectId": object_id, "rect": rect})


@dataclass(frozen=True, slots=True)
class Zoomed:
    """What a double tap's zoom did: the scale before and after, and how — ``block`` (zoomed to fit the block under
    the finger), ``out`` (back out to the page's least scale) or ``none`` (the block already fits at the least
    scale, where the page is: nothing to zoom)."""

    before: float
    after: float
    how: str

    def to_wire(self) -> dict[str, Any]:
        return {"from": round(self.before, 4), "to": round(self.after, 4), "how": self.how}


async def zoom(
    session: CdpSession, plan: dict[str, Any], screen_point: Point, screen_width: float, last: float | None
) -> Zoomed:
    """The double tap's zoom, ``plan`` being double_tap_zoom.js's answer, the finger at ``screen_point`` on a screen
    ``screen_width`` points wide, ``last`` the scale the page's last double tap zoomed it to (None: it zoomed out,
    or none did)."""
    x, y, w, h = (float(v) for v in plan["block"])
    block: Box = (x, y, w, h)
    point: Point = (float(plan["point"][0]), float(plan["point"][1]))
    before = float(plan["scale"])
    if last is None or abs(before - last) >= SAME_SCALE:
        scale, width, height = await _scale_to(session, zoom_in_scale(block[2], screen_width))
        if abs(scale - before) >= SAME_SCALE:
            await _show(session, *block_view(block, point, (width, height)), width, height)
            return Zoomed(before, scale, "block")
    scale, width, height = await _scale_to(session, ZOOM_OUT_ASK)
    await _show(session, *anchored_view(point, screen_point, scale), width, height)
    return Zoomed(before, scale, "out" if abs(scale - before) >= SAME_SCALE else "none")
