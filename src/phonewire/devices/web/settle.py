"""Settled screens: after an action, the next snapshot waits (bounded) until the page shows a screen that holds
still — no main-frame navigation under way, the document complete, STILL_FRAMES animation frames in a row that
began with its DOM structure unchanged and nothing scrolled since the frame before (QUIET_MS without a change on a
page that draws no frames), no finite animation or transition running, and no reaction of the page still on its
way: no fetch or XHR unanswered, no short timer (at most
PENDING_TIMER_MS) or animation frame that an event handler asked for (or a callback of one, up to three generations:
Vue starts a transition two frames after a click) and that has not run yet (a search box's debounce), no WebSocket
message an event handler sent that no message has answered yet (at most PENDING_SOCKET_MS: NiceGUI talks to its
server over a WebSocket), and none received within QUIET_MS on a socket the page has sent on.  Text changing in
place (a ticking clock) does not count as movement; a scroll does (a smooth scroll a tap started —
``scroll-behavior: smooth``, ``scrollIntoView({behavior: "smooth"})``, an anchor link — moves the whole screen for a
few hundred ms while the DOM stays still).  All of it is bounded by SETTLE_MAX_S (SCROLL_SETTLE_MAX_S while the
content still scrolls): a page that polls never holds still.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from phonewire.devices.web import js
from phonewire.devices.web.cdp import CdpProtocolError
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

#: Settling before a snapshot that follows an action (unscaled; the time scale multiplies the bounds).
#: Frames in a row that must begin with nothing changed since the frame before (about one frame's wait, 16.7 ms at
#: 60 Hz, on a page that reacted at once): the page's own signal that its reaction is over, instead of a fixed window.
STILL_FRAMES = 1
#: The window that judges a page drawing no frames (a hidden document runs no animation frames).
QUIET_MS = 100
SETTLE_MAX_S = 1.0
#: While the content is still scrolling at SETTLE_MAX_S, the wait goes on until it rests, up to this long: a smooth
#: scroll across a long page eases out over more than a second (Chromium: ~1.5 s for 5,700 px).
SCROLL_SETTLE_MAX_S = 3.0
NAVIGATION_WAIT_S = 10.0
#: A navigation the page asked for counts as under way this long, until the browser starts loading it.
NAVIGATION_REQUEST_GRACE_S = 1.0
SETTLE_POLL_S = 0.05
#: A timer an event handler sets with at most this delay is the page's reaction on its way (a debounce).
PENDING_TIMER_MS = 1000
#: A WebSocket message an event handler sent is the page's reaction on its way until an answer comes, or this long.
PENDING_SOCKET_MS = 1000
#: A same-document link a click followed is on its way until the page scrolls, or this long (a smooth scroll to an
#: anchor starts some frames after the click: tests/e2e/test_web_find_more.py's anchor case caught it).
PENDING_JUMP_MS = 500

# Installed in every document from its start (Page.addScriptToEvaluateOnNewDocument): the time of the last
# structural DOM change, and of the last action (ACTION_MARK), so a snapshot taken long after the screen came to
# rest need not watch it for QUIET_MS again.  It also counts the page's reactions on their way (``requests``: fetch
# and XHR calls not answered yet; ``timers``: timers of at most PENDING_TIMER_MS set while an event was dispatched,
# not fired or cleared yet; ``sockets``: WebSockets an event handler sent a message on that no message has answered
# yet); one ending counts as a change, and so does any message received on a socket the page has sent on.
OBSERVER_SCRIPT = f"({js.load('observer.js')})({PENDING_TIMER_MS}, {PENDING_SOCKET_MS}, {PENDING_JUMP_MS})"

# After an action: the action itself counts as a change (its effect may start a moment later).
ACTION_MARK = "window.__phonewireQuiet ? (window.__phonewireQuiet.last = performance.now(), 0) : 0"

# Resolves once the document is complete, nothing is on its way or animating, and STILL_FRAMES frames began with no
# element added or removed, no attribute changed and nothing scrolled (any element: a capturing listener sees every
# scroll event) since the frame before; or after MAX ms — after SCROLL_MAX ms while the content is still scrolling
# then; true when it became still (quiet.js, called with them).
QUIET_SCRIPT = js.load("quiet.js")


class Navigation(Protocol):
    """What settling reads of a page: whether the browser loads a main-frame document, and since when (loop
    time) the page asked for a navigation that has not started loading yet."""

    loading: bool
    requested_at: float | None


def navigating(page: Navigation) -> bool:
    if page.loading:
        return True
    asked = page.requested_at
    return asked is not None and asyncio.get_running_loop().time() - asked < NAVIGATION_REQUEST_GRACE_S


async def settle_screen(page: Navigation, evaluate: Callable[[str], Awaitable[Any]], scale: float) -> str | None:
    """Wait (bounded) until ``page`` shows a settled screen.  Returns why the screen is still not settled when the
    navigation bound ran out (the snapshot's quality says so), else ``None``.  A quiet window that a navigation
    interrupts (its document goes away) starts again on the new document.  ``evaluate`` runs a script in the
    page and awaits its promise."""
    loop = asyncio.get_running_loop()
    nav_end = loop.time() + NAVIGATION_WAIT_S * scale
    bounds = (QUIET_MS, round(SETTLE_MAX_S * scale * 1000), round(SCROLL_SETTLE_MAX_S * scale * 1000),
              round(PENDING_SOCKET_MS * scale), STILL_FRAMES)  # fmt: skip
    quiet = f"({QUIET_SCRIPT})({', '.join(map(str, bounds))})"
    for _ in range(4):
        while navigating(page) and loop.time() < nav_end:
            await asyncio.sleep(SETTLE_POLL_S)
        if navigating(page):
            return "a navigation was still under way"
        try:
            await asyncio.wait_for(evaluate(quiet), SCROLL_SETTLE_MAX_S * scale + 1)
        except (CdpProtocolError, TimeoutError):
            continue  # the document went away under the quiet window (a navigation): settle the new one
        except ProtocolError as exc:
            if exc.code != e.COMMAND_FAILED:
                raise
            continue
        if not navigating(page):
            return None
    return "a navigation was still under way" if navigating(page) else None
