"""The web phone's on-screen keyboard: up while a field that takes typing has focus, as a phone's keyboard is.

After every action on a page (:meth:`~phonewire.devices.web.view.Views._follow_focus`) the device asks the page
whether its focused element wants a keyboard (keyboard.js: a text, search, email, number … field, a textarea, a
contenteditable; not a date or colour field, which opens a picker, nor ``inputmode="none"``) and raises or lowers
the keyboard when the answer changed::

    down ──(an action leaves a field with focus: a tap on it, fill, a key)──► up
     ▲                                                                         │
     └──(focus left the field: a tap above the keyboard elsewhere, the page's blur; back; keyboard hide)───┘

Up, the page's view is the part of the screen above the keyboard (``Emulation.setDeviceMetricsOverride`` with the
profile's height less the keyboard's, the screen's size unchanged): ``window.visualViewport`` shrinks by the
keyboard's height and fires ``resize`` (so does ``window``: the layout viewport follows, as on Android Chrome with
``interactive-widget=resizes-content`` — iOS Safari shrinks only the visual viewport), and the focused field is
scrolled to just above the keyboard (keyboard_shown.js).  The snapshot lists a ``Keyboard`` node over the bottom
of the screen, a screenshot draws it there (:func:`drawn`: the image is the whole screen's), and a tap, long press
or drag that starts under it is refused (KEYBOARD_COVERS, nothing sent).
``back`` and ``keyboard hide`` lower it and take the focus from the field (its ``blur`` fires), as iOS's keyboard
dismissal does.  Typing (``fill``, ``type``) goes to the field whatever the keyboard covers.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Final

from phonewire.devices.base import Screenshot
from phonewire.devices.web import js
from phonewire.devices.web.cdp import CdpProtocolError
from phonewire.devices.web.page_script import evaluate
from phonewire.devices.web.profiles import Profile, metrics
from phonewire.devices.web.target import Page
from phonewire.protocol.snapshot import Rect

#: Whether the focused element wants the on-screen keyboard (keyboard.js on focus_probe.js's answer).
_WANTS: Final = js.load("keyboard.js").strip()
_KIND: Final = js.load("focus_probe.js").strip()
WANTED_JS: Final = f"(el => ({_WANTS})(el, ({_KIND})(el)))({js.ACTIVE_ELEMENT}())"
#: The same, null where the page's scripts broke the probe: read in the evaluation that ends an action (the tap's
#: answer, the settle's mark), so following the focus costs no round trip of its own.
WANTED_OR_NULL_JS: Final = f"(() => {{ try {{ return Boolean({WANTED_JS}); }} catch (e) {{ return null; }} }})()"
_SHOWN: Final = js.load("keyboard_shown.js").strip()
#: How long the page's two frames after the keyboard moved are waited for (times the time scale).
FRAMES_WAIT_S: Final = 1.0
#: The focused element loses focus (its ``blur`` fires), as when a phone's keyboard is dismissed.
BLUR_JS: Final = f"(el => {{ if (el && typeof el.blur === 'function') el.blur(); return 0; }})({js.ACTIVE_ELEMENT}())"


def rect(profile: Profile) -> Rect:
    """Where the keyboard is on the screen, in points: the bottom of it, the whole width."""
    return Rect(0, profile.height - profile.keyboard, profile.width, profile.keyboard)


def under(profile: Profile, x: float, y: float) -> Rect | None:
    """The keyboard's rect when the screen point (x, y) is under it (the keyboard being up), else None."""
    r = rect(profile)
    return r if r.y <= y and 0 <= x <= r.width else None


async def turn(page: Page, profile: Profile, up: bool, scale: float = 1.0) -> None:
    """Raise (``up``) or lower the keyboard on ``page``: its view resized, then two frames so the page's own
    ``resize`` handlers have run (and, up, the focused field scrolled above the keyboard)."""
    await page.session.send("Emulation.setDeviceMetricsOverride", metrics(profile, keyboard=up))
    page.keyboard = up
    page.unsettled = True
    shown = f"({_SHOWN})({js.ACTIVE_ELEMENT}(), {'true' if up else 'false'})"
    # a page that draws no frames: the keyboard is up all the same; a page the action navigated away (a form's
    # submit button): the new document is laid out in the new size from its start
    with contextlib.suppress(TimeoutError, CdpProtocolError):
        await asyncio.wait_for(evaluate(page.session, shown, await_promise=True), FRAMES_WAIT_S * scale)


#: The keyboard as a screenshot draws it: its tray and three rows of keys over a row of wider ones (light mode).
_TRAY, _KEY = (209, 212, 217), (252, 252, 254)
_ROWS: Final = (10, 9, 7, 3)


def drawn(shot: Screenshot, profile: Profile, css_size: tuple[int, int] | None, quality: int = 80) -> Screenshot:
    """``shot`` (the page's view above the keyboard) as the whole screen shows it: the keyboard drawn below it, so
    the image is the screen's size and a node's rect is where it shows (``css_size``: the css screenshot's size of
    the whole screen; None: device pixels).  Pillow, imported here: only a screenshot with the keyboard up pays."""
    import io

    from PIL import Image, ImageDraw

    with Image.open(io.BytesIO(shot.data)) as view:
        width, height = css_size or (round(profile.width * profile.dpr), round(profile.height * profile.dpr))
        per_point = width / profile.width
        canvas = Image.new("RGB", (width, height), _TRAY)
        above = max(1, round((profile.height - profile.keyboard) * per_point))
        canvas.paste(view.convert("RGB").resize((width, above)) if view.size != (width, above) else view, (0, 0))
    draw = ImageDraw.Draw(canvas)
    row_h = profile.keyboard * per_point / (len(_ROWS) + 1.5)  # (a suggestion bar's worth on top)
    for i, keys in enumerate(_ROWS):
        top = above + row_h * (i + 1.2)
        key_w = width / (10 if keys > 3 else 4)
        left = (width - key_w * keys) / 2
        for k in range(keys):
            x = left + k * key_w
            draw.rounded_rectangle((x + 3 * per_point, top, x + key_w - 3 * per_point, top + row_h * 0.8),
                                   radius=5 * per_point, fill=_KEY)  # fmt: skip
    out = io.BytesIO()
    if shot.format == "jpeg":
        canvas.save(out, format="JPEG", quality=max(0, min(100, quality)))
    else:
        canvas.save(out, format="PNG")
    return Screenshot(out.getvalue(), shot.format, width, height)
