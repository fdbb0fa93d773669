"""How gestures and keys are spelled in DevTools input events, on one page's session.  No device state: the
device decides when a gesture may run and settles the page afterwards.

Touch points carry a 1-point radius; every gesture ends with a touchEnd even when it fails half-way (a finger
left down would swallow the next gesture).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Final

from phonewire.devices.web import js
from phonewire.devices.web.cdp import CdpError, CdpProtocolError, CdpSession
from phonewire.protocol.errors import ProtocolError

#: Two taps this close are one double tap; three or more are separate taps, each its own gesture.
DOUBLE_TAP_GAP_S: Final = 0.03
SEPARATE_TAP_GAP_S: Final = 0.35
#: Two single taps closer than this (in screen points) and than APART_S are one double tap to the browser's
#: gesture detector: its second tap gets a click count of 2 (a double click's word selection; it moved a text
#: area's selection back under a field just tapped, and the keys typed next went nowhere: MiniWoB copy-paste).
DOUBLE_TAP_SLOP: Final = 25.0
#: … and the time within which the second is taken for a double click (longer than the gap of ``tap --count``).
APART_S: Final = 0.6
#: One touchMove per frame.
DRAG_STEP_S: Final = 1 / 60

ENTER: Final = {"key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13, "nativeVirtualKeyCode": 13}
BACKSPACE: Final = {"key": "Backspace", "code": "Backspace", "windowsVirtualKeyCode": 8, "nativeVirtualKeyCode": 8}
_SHIFT: Final = 8  # DevTools' modifier bit


def _spec(key: str, code: str, vk: int, **more: Any) -> dict[str, Any]:
    return {"key": key, "code": code, "windowsVirtualKeyCode": vk, "nativeVirtualKeyCode": vk, **more}


#: The ``key`` command's keys (protocol.commands.KEYS) → (event spec, the text the key types or None).
KEYS: Final[dict[str, tuple[dict[str, Any], str | None]]] = {
    "escape": (_spec("Escape", "Escape", 27), None),
    "tab": (_spec("Tab", "Tab", 9), None),
    "shiftTab": (_spec("Tab", "Tab", 9, modifiers=_SHIFT), None),
    "arrowUp": (_spec("ArrowUp", "ArrowUp", 38), None),
    "arrowDown": (_spec("ArrowDown", "ArrowDown", 40), None),
    "arrowLeft": (_spec("ArrowLeft", "ArrowLeft", 37), None),
    "arrowRight": (_spec("ArrowRight", "ArrowRight", 39), None),
    "pageUp": (_spec("PageUp", "PageUp", 33), None),
    "pageDown": (_spec("PageDown", "PageDown", 34), None),
    "space": (_spec(" ", "Space", 32), " "),
    # a keyboard's Home and End: the caret to the start or end of the line (the phone's home is a button)
    "lineStart": (_spec("Home", "Home", 36), None),
    "lineEnd": (_spec("End", "End", 35), None),
}
#: Typing: texts up to this long are typed key by key (keydown, keypress, input, keyup per character, so filters
#: and autocompletes react); of a longer text the bulk is inserted at once and the last KEYED_TAIL characters are
#: typed (measured in docs/web.md: a key costs about a frame when sent alone, so keys are sent pipelined).
KEYED_MAX: Final = 200
KEYED_TAIL: Final = 40
_PUNCTUATION: Final = {
    " ": ("Space", 32), "-": ("Minus", 189), "=": ("Equal", 187), "[": ("BracketLeft", 219),
    "]": ("BracketRight", 221), "\\": ("Backslash", 220), ";": ("Semicolon", 186), "'": ("Quote", 222),
    ",": ("Comma", 188), ".": ("Period", 190), "/": ("Slash", 191), "`": ("Backquote", 192),
}  # fmt: skip


def char_spec(ch: str) -> dict[str, Any] | None:
    """The key event spec of one printable ASCII character as a US keyboard types it, or None (not on it: the
    character is inserted as text)."""
    if not (" " <= ch <= "~"):
        return None
    if ch.isascii() and ch.isalpha():
        return _spec(ch, "Key" + ch.upper(), ord(ch.upper()))
    if ch.isdigit():
        return _spec(ch, "Digit" + ch, ord(ch))
    code, vk = _PUNCTUATION.get(ch, ("", 0))
    return _spec(ch, code, vk)


async def type_text(session: CdpSession, text: str) -> None:
    """Type ``text`` as a keyboard would: printable ASCII as key presses (sent pipelined, in order), anything else
    (newlines, other scripts, emoji) inserted as text; a long text's bulk inserted at once (:data:`KEYED_MAX`)."""
    if len(text) > KEYED_MAX:
        await session.send("Input.insertText", {"text": text[:-KEYED_TAIL]})
        text = text[-KEYED_TAIL:]
    sends = []
    run = ""
    for ch in text:
        spec = char_spec(ch)
        if spec is None:
            run += ch
            continue
        if run:
            sends.append(session.send("Input.insertText", {"text": run}))
            run = ""
        sends.append(
            session.send("Input.dispatchKeyEvent", {"type": "keyDown", **spec, "text": ch, "unmodifiedText": ch})
        )
        sends.append(session.send("Input.dispatchKeyEvent", {"type": "keyUp", **spec}))
    if run:
        sends.append(session.send("Input.insertText", {"text": run}))
    await asyncio.gather(*sends)


async def touch(session: CdpSession, kind: str, x: float | None = None, y: float | None = None) -> None:
    points = [] if x is None or y is None else [{"x": x, "y": y, "radiusX": 1, "radiusY": 1, "force": 1, "id": 0}]
    await session.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


async def touch_pair(session: CdpSession, x: float, y: float) -> None:
    """touchStart and touchEnd sent together, not one after the other's reply.  Each reply waits for the renderer
    to acknowledge its event, which costs a frame; sent back to back, both events ride the same frame
    (Playwright's touchscreen.tap does the same), halving a tap.  The session delivers them in order, and each
    is still acknowledged, so the tap lands exactly once."""
    await asyncio.gather(touch(session, "touchStart", x, y), touch(session, "touchEnd"))


#: Where and when each page's last single tap lifted (monotonic clock), for :func:`apart`.
_last_taps: weakref.WeakKeyDictionary[CdpSession, tuple[float, float, float]] = weakref.WeakKeyDictionary()


@contextlib.asynccontextmanager
async def apart(session: CdpSession, x: float, y: float) -> AsyncIterator[None]:
    """Around one tap command at the screen point (x, y): first wait, when needed, so that it is a tap of its own —
    two commands are two single taps, never a double tap, which a finger makes only by tapping about the same place
    twice in quick succession —, then remember where and when it lifted.  (Screen points: the input events' CSS px
    are those divided by the page's zoom, and the browser judges the distance on the screen.)"""
    last = _last_taps.get(session)
    if last is not None and abs(last[0] - x) <= DOUBLE_TAP_SLOP and abs(last[1] - y) <= DOUBLE_TAP_SLOP:
        wait = last[2] + APART_S - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
    yield
    _last_taps[session] = (x, y, time.monotonic())


async def hover_and_touch(session: CdpSession, x: float, y: float, at: tuple[float, float] | None = None) -> None:
    """The mouse moved to (x, y), then the touch pair there (:func:`touch_pair`), all in one batch, in order; a tap
    near the last one (``at``: the screen point, default (x, y)) waits until it cannot be taken for its second
    (:func:`apart`)."""
    points = [{"x": x, "y": y, "radiusX": 1, "radiusY": 1, "force": 1, "id": 0}]
    async with apart(session, *(at or (x, y))):
        await asyncio.gather(
            *_in_order(
                session.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y}),
                session.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": points}),
                session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []}),
            )
        )


async def taps(session: CdpSession, x: float, y: float, count: int, at: tuple[float, float] | None = None) -> None:
    async with apart(session, *(at or (x, y))):
        for i in range(count):
            if i:
                await asyncio.sleep(DOUBLE_TAP_GAP_S if count == 2 else SEPARATE_TAP_GAP_S)
            await touch_pair(session, x, y)


# A tap lands where it says.  Chromium moves the mouse events and the click of a touch tap to a clickable element
# near the finger ("touch adjustment": within a 25-point box on this platform, e.g. a link 11 points away from a
# word), and no switch or setting turns that off in this browser.  So a single tap is guarded: a listener (window,
# capture phase) stops the tap's mouse events and click when they arrive away from the tapped point, and the tap's
# click is then sent as a mouse click at the point itself (its pointer events stopped too, so the page sees one
# pointer sequence: the touch's).  The same adjustment moves the touch's own touchstart and pointer events to such
# an element when nothing under the finger takes clicks; the guard gives the element under the finger a click
# handler for the tap (an ``onclick`` that does nothing), which makes it the element the touch goes to.
# ``answer`` resolves with the guard's state when the tap's click arrives, or when ``release`` is called (no click
# came: the page cancelled the touch, or it landed in a frame).
GUARD_JS: Final = js.lending("tap_guard.js")
#: Sent once the touch pair was acknowledged: the guard's state, and the tap's end in the same evaluation — moved:
#: the guard lets the click sent again at the point through; else it is turned off and ``then`` runs.  Almost
#: always the click was handled before this evaluation runs (its task comes after the click's, so what the page's
#: handlers did and threw is reported before its reply).  If not, it answers when the click arrives, mid-way through
#: the click's task, prefixed ``late``: the caller then makes one more round trip through the page.
_GUARD_ANSWER: Final = js.load("tap_answer.js")
_GUARD_RELEASE: Final = "window.__phonewireTap ? (window.__phonewireTap.release(), 0) : 0"
_GUARD_OFF: Final = "(window.__phonewireTap ? window.__phonewireTap.off() : null, {after: (%(then)s)})"
#: How long a guarded tap waits for its click after the touch was acknowledged (a page that cancels the touch
#: never gets one).
CLICK_WAIT_S: Final = 0.12

Evaluate = Callable[[str], Awaitable[Any]]


#: A guarded tap's end: whether ``then`` ran after the click's task, and what it returned.
Tapped = tuple[bool, Any]


async def exact_tap(
    session: CdpSession,
    evaluate: Evaluate,
    x: float,
    y: float,
    *,
    then: str,
    touched: Callable[[], None] | None = None,
    left: Callable[[], None] | None = None,
    at: tuple[float, float] | None = None,
) -> Tapped:
    """One tap whose click lands at (x, y) (see GUARD_JS); the guard must already be installed at that point.
    ``evaluate`` runs an expression in the page and awaits its promise; ``then`` is an expression run in the page
    once the tap is over, in the evaluation that reads the guard's state (no round trip of its own).

    Two round trips when the click lands at the point: the touch pair, then that evaluation (_GUARD_ANSWER).  (True,
    what ``then`` returned) when it ran after the click's task; (False, None) when the caller must still make a round
    trip through the page (the click came late, or never, or the page went away under the tap: it navigated,
    closed, opened a dialog).
    ``touched`` is called once the touch pair was acknowledged (the finger lifted), before the click's answer;
    ``left`` when the touch's own handlers sent the document away before the click: the answer says so (the page's
    Navigation API saw it in the handler), or the document was gone before it could answer (the DevTools events of a
    frame in a renderer of its own may come after the touch's acknowledgement);
    ``at`` is the tap's screen point (:func:`hover_and_touch`).

    Sticky hover: the mouse is first moved to the point (sent in the same batch, before the touch), so the tapped
    element is ``:hover`` and got mouseover/mouseenter, and stays so until the next tap elsewhere, as on a phone's
    browser.  Without it Chromium's fake mouse moves (after any layout change) move the hover back to where the
    mouse last was, (0, 0), right after the tap.  The guard shows the page only that move's boundary events."""
    await hover_and_touch(session, x, y, at)
    if touched is not None:
        touched()
    answer = asyncio.ensure_future(evaluate(f"({_GUARD_ANSWER})(() => {then})"))
    try:
        try:
            reply = await asyncio.wait_for(asyncio.shield(answer), CLICK_WAIT_S)
        except TimeoutError:  # no click: the guard answers now
            await evaluate(_GUARD_RELEASE)
            reply = await answer
        state = reply.get("state") if isinstance(reply, dict) else None
        if left is not None and (state == "gone" or (isinstance(reply, dict) and reply.get("left"))):
            left()  # (gone: the document the guard was in was replaced before the answer reached it)
        if state not in ("moved", "late moved"):
            return (True, reply.get("after")) if state == "done" else (False, None)
        # the browser moved the click (touch adjustment): the guard stopped it; the click again, at the point
        base = {"x": x, "y": y, "button": "left", "pointerType": "mouse"}
        await asyncio.gather(
            *_in_order(
                session.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y}),
                session.send("Input.dispatchMouseEvent", {"type": "mousePressed", "clickCount": 1, **base}),
                session.send("Input.dispatchMouseEvent", {"type": "mouseReleased", "clickCount": 1, **base}),
            )
        )
        replayed = await evaluate(_GUARD_OFF % {"then": then})
        return True, replayed.get("after") if isinstance(replayed, dict) else None
    except (CdpError, ProtocolError) as failed:  # the tap navigated away (the page's context is gone): nothing to guard
        if left is not None and isinstance(failed, CdpProtocolError):
            left()  # its document gone (or its target) before its answer could run or resolve: before the click
        return False, None
    finally:
        if not answer.done():
            answer.cancel()
        await asyncio.gather(answer, return_exceptions=True)


def _in_order(*calls: Awaitable[Any]) -> list[asyncio.Future[Any]]:
    """Start ``calls`` now, written to the pipe in this order (each task's first step writes its message), none
    waiting for another's reply (each is still answered, in order)."""
    return [asyncio.ensure_future(call) for call in calls]


#: Android's long-press timeout (ViewConfiguration.getLongPressTimeout, 400 ms from Android 12, 500 before): a
#: finger held this long fires the page's contextmenu event.
CONTEXT_MENU_S: Final = 0.5


async def long_press(
    session: CdpSession, x: float, y: float, duration_ms: float, *, context_menu: bool = False
) -> None:
    """A finger held at (x, y) for ``duration_ms``.  ``context_menu`` (Android): once it has been held
    :data:`CONTEXT_MENU_S`, the page gets its contextmenu event, trusted, at the point — sent as a right-button
    press, whose mouse events the press's guard (press_guard.js) stops; Chromium's touch emulation fires none."""
    await touch(session, "touchStart", x, y)
    try:
        held = max(0.0, duration_ms) / 1000
        if context_menu and held >= CONTEXT_MENU_S:
            await asyncio.sleep(CONTEXT_MENU_S)
            base = {"x": x, "y": y, "button": "right", "clickCount": 1}
            await asyncio.gather(
                *_in_order(
                    session.send("Input.dispatchMouseEvent", {"type": "mousePressed", **base}),
                    session.send("Input.dispatchMouseEvent", {"type": "mouseReleased", **base}),
                )
            )
            held -= CONTEXT_MENU_S
        await asyncio.sleep(held)
    finally:
        with contextlib.suppress(CdpError):
            await touch(session, "touchEnd")


async def drag(
    session: CdpSession,
    start: tuple[float, float],
    end: tuple[float, float],
    *,
    duration_ms: float,
    hold_ms: float,
    settle_ms: float,
    via: tuple[float, float] | None = None,
) -> None:
    """Down at ``start``, hold, one move per frame paced so the velocity is the one ``duration_ms`` implies (by
    ``via`` first, when given), rest at ``end`` for ``settle_ms`` (≈0 release velocity: no fling), up."""
    (x0, y0), (x1, y1) = start, end
    path = [(start, via), (via, end)] if via is not None else [(start, end)]
    await touch(session, "touchStart", x0, y0)
    try:
        if hold_ms > 0:
            await asyncio.sleep(hold_ms / 1000)
        steps = max(2, round(max(0.0, duration_ms) / 1000 / DRAG_STEP_S / len(path)))
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        for n, ((ax, ay), (bx, by)) in enumerate(path):
            for i in range(1, steps + 1):
                f = i / steps
                await touch(session, "touchMove", ax + (bx - ax) * f, ay + (by - ay) * f)
                delay = t0 + (n + f) / len(path) * duration_ms / 1000 - loop.time()
                if delay > 0:
                    await asyncio.sleep(delay)
        if settle_ms > 0:
            await touch(session, "touchMove", x1, y1)
            await asyncio.sleep(settle_ms / 1000)
    finally:
        with contextlib.suppress(CdpError):
            await touch(session, "touchEnd")


async def pinch(
    session: CdpSession,
    centre: tuple[float, float],
    gaps: tuple[float, float],
    duration_ms: float,
    right: float,
    *,
    zoom: Callable[[], Awaitable[float]],
) -> None:
    """Two fingers (touch ids 0 and 1) level with ``centre``, ``gaps[0]`` apart at first and ``gaps[1]`` at the end,
    one move of both per frame over ``duration_ms``, then both up (each x kept within 1 … ``right``).  All in screen
    points: each event is sent in the page's CSS px at its scale *then* (``zoom``: the visual viewport's scale now).
    The browser zooms a zoomable page as the fingers spread, and the same CSS px would then lie further apart on the
    screen: sent at the first scale, a spread of 2 zoomed a 980-px page from 0.33 to its most, 5."""
    x, y = centre

    async def points(gap: float) -> list[dict[str, Any]]:
        z = await zoom()
        xs = (min(max(x - gap / 2, 1.0), right), min(max(x + gap / 2, 1.0), right))
        return [{"x": px / z, "y": y / z, "radiusX": 1, "radiusY": 1, "force": 1, "id": i} for i, px in enumerate(xs)]

    await session.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": await points(gaps[0])})
    try:
        steps = max(2, round(max(0.0, duration_ms) / 1000 / DRAG_STEP_S))
        for i in range(1, steps + 1):
            gap = gaps[0] + (gaps[1] - gaps[0]) * i / steps
            await session.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": await points(gap)})
            await asyncio.sleep(duration_ms / 1000 / steps)
    finally:
        with contextlib.suppress(CdpError):
            await touch(session, "touchEnd")


async def key(session: CdpSession, spec: dict[str, Any], text: str | None = None) -> None:
    """One key press: keyDown (with its text) or rawKeyDown, then keyUp."""
    down: dict[str, Any] = {"type": "keyDown" if text else "rawKeyDown", **spec}
    if text:
        down.update(text=text, unmodifiedText=text)
    await session.send("Input.dispatchKeyEvent", down)
    await session.send("Input.dispatchKeyEvent", {"type": "keyUp", **spec})
