"""Input on the web phone: taps (a dialog's too), long presses, drags, scrolls, typing, keys and values set on
controls — each a gesture of gestures.py on the app's page, then the round trip that lets the page's answer
arrive (:meth:`~phonewire.devices.web.view.Views._settle`)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from functools import partial
from typing import Any, Final

from phonewire.devices.base import SCROLL_DRAG_MS, SCROLL_HOLD_MS, SCROLL_REST_MS
from phonewire.devices.web import (
    aiming,
    chooser,
    controls,
    dialogs,
    frames,
    gestures,
    js,
    readback,
    scrolling,
    sliders,
    zooming,
)
from phonewire.devices.web.cdp import CdpDialogOpen, CdpError, CdpProtocolError
from phonewire.devices.web.page_script import require_focus
from phonewire.devices.web.profiles import apple
from phonewire.devices.web.target import Page
from phonewire.devices.web.view import AFTER_ACTION, Views
from phonewire.devices.web.walk import CHANGE_MARK, FOCUS_PROBE, Aim, Probe, aim_of
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import finite

_FOCUS_ON = js.load("focus_on.js").strip()
_FOCUSED = js.load("focused.js")
_PRESS_GUARD = js.lending("press_guard.js")
_PRESS_END = js.load("press_end.js")
_SELECT_TEXT = js.load("select_text.js")
#: Resolves two animation frames later: a key's answer that the page renders a tick after the key has drawn by then.
TWO_FRAMES = "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(0))))"


#: Where a pinch's two fingers start: this many points apart (a thumb and a finger on a phone), and the closest
#: two fingertips can start.
PINCH_GAP: Final = 120.0
MIN_PINCH_GAP: Final = 8.0


class Inputs(Views):
    """Gestures, typing and keys on the app in front (or on the dialog it shows)."""

    async def _require_focus(self, page: Page, where: frames.Where | None = None) -> str:
        where = where or frames.Where(page.session)
        return await require_focus(where.session, where.context)

    async def _key(self, page: Page, spec: dict[str, Any], text: str | None = None) -> None:
        with self._may_close(page):
            await gestures.key(page.session, spec, text)
        page.unsettled = True
        await self._settle(page)

    async def tap(
        self, app_id: str, x: float, y: float, taps: int = 1, *, element: str | None = None, mark: str | None = None
    ) -> str | None:
        with self._mapped(app_id):
            page = self._live(app_id)
            if mark and (page.dialog is not None or page.chooser is not None):
                # the snapshot the tap was aimed by showed the page: a dialog or chooser came over it since
                aiming.check_aim(aiming.CHANGED, element, x, y)
            if page.dialog is not None:
                return await dialogs.tap(page, page.dialog, self._dialog_screen(page), (x, y), taps)
            if page.chooser is not None:
                return await chooser.tap(page, page.chooser, self._dialog_screen(page), x, y)
            aiming.check_on_screen(x, y, self.profile.width, self.profile.height, "tap")
            self._clear_of_keyboard(page, x, y, "tap")
            if page.frames.chain(element):  # an element of a frame of another origin (frames.py)
                return await self._frame_tap(page, (x, y), taps, str(element), mark)
            probe: Probe = (x, y, element or "", mark or "") if element or mark else (x, y)
            evaluate = partial(self._eval, page, await_promise=True)
            if taps == 1:
                # one evaluation: the aim checked (walker_perception.js's aim) and, when it is ok, the guard that
                # keeps the click at the point installed (gestures.GUARD_JS)
                aim = aim_of(await self._walker(page, probe, then=aiming.GUARD_IF_OK), x, y)
                aiming.check_aim(aim, element, x, y)
                page.unsettled = True
                with self._may_close(page), dialogs.may_open(page):
                    # the evaluation that answers once the click was handled also ends the action (_settle's work)
                    ran, wanted = await gestures.exact_tap(
                        page.session, evaluate, *aim.input, then=AFTER_ACTION, at=(x, y)
                    )
                    if ran:
                        await self._await_screens(page)
                        await self._keyboard_to(page, wanted)
                        return aim.hit
            else:
                aim = aim_of(await self._walker(page, probe), x, y)
                aiming.check_aim(aim, element, x, y)
                page.unsettled = True
                with self._may_close(page), dialogs.may_open(page):
                    if taps == 2:
                        await self._double_tap(page, aim, (x, y))
                    else:  # separate taps, each guarded as a single tap is (touch adjustment moves each one)
                        await self._separate_taps(page, aim, taps, at=(x, y))
            await self._settle(page)
            return aim.hit

    def zoomed(self, app_id: str) -> dict[str, Any] | None:
        top = self._apps.get(app_id)
        for page in top.stack() if top is not None else ():  # (the tap may have opened a screen over it)
            if page.zoom_said is not None:
                said, page.zoom_said = page.zoom_said, None
                return said
        return None

    async def _double_tap(self, page: Page, aim: Aim, at: tuple[float, float]) -> None:
        """Two taps within a double tap's window at the screen point ``at``: on a page that double-tap zooms there,
        the zoom and no click (zooming.py); elsewhere a double click on the element under the finger (lend_click.js:
        not moved to a link beside it)."""
        client = aim.client
        plan = await self._eval(page, f"({zooming.DOUBLE_TAP_ZOOM_JS})({client[0]}, {client[1]}, {self.profile.width})")
        ended: Any = None
        try:
            await gestures.taps(page.session, *aim.input, 2, at=at)
        finally:  # the guard (and the handler lent to the element under the finger) off once the taps' last event came
            ended = await self._eval(page, zooming.GUARD_OFF_JS, await_promise=True)
        if (
            isinstance(plan, dict) and isinstance(ended, dict) and not ended.get("prevented")
        ):  # (a page that took the touches: no zoom)
            done = await zooming.zoom(page.session, plan, at, self.profile.width, page.zoomed)
            page.zoomed = done.after if done.how == "block" else None
            page.zoom_said = done.to_wire()
            await self._eval(page, TWO_FRAMES, await_promise=True)  # the visual viewport's resize and scroll events

    async def _separate_taps(
        self,
        page: Page,
        aim: Aim,
        taps: int,
        *,
        where: frames.Where | None = None,
        sent: tuple[float, float] | None = None,
        at: tuple[float, float] | None = None,
    ) -> None:
        """``taps`` taps each guarded (in ``where``'s document, at ``aim``'s client point), sent at ``sent`` (the
        aim's input point unless given); ``at`` is their screen point (gestures.apart)."""
        where = where or frames.Where(page.session)
        evaluate = partial(frames.evaluate, where, await_promise=True)
        for i in range(taps):
            if i:
                await asyncio.sleep(gestures.SEPARATE_TAP_GAP_S)
            await frames.evaluate(where, f"({gestures.GUARD_JS})({aim.client[0]}, {aim.client[1]})")
            await gestures.exact_tap(page.session, evaluate, *(sent or aim.input), then="0", at=at)

    async def _frame_tap(
        self, page: Page, point: tuple[float, float], taps: int, element: str, mark: str | None
    ) -> str | None:
        """A tap on an element of a frame of another origin: aimed through its frames (frames.aim), guarded in the
        frame's document, sent at the page's input point; refused when the frame navigated before the finger
        lifted (nothing is sent again)."""
        then = aiming.GUARD_IF_OK if taps == 1 else ""
        aimed = await frames.aim(page.frames, partial(self._walker, page), point, element, mark, then=then)
        aiming.check_aim(aimed.inner, element, *point)
        before = page.frames.navigations.get(aimed.frame_id, 0)
        lifted: list[int] = []  # the frame's navigations when the finger lifted
        left: list[bool] = []  # the page itself saw the touch send it away (its DevTools events can come later)
        page.unsettled = True
        with self._may_close(page), dialogs.may_open(page):
            if taps == 1:
                evaluate = partial(frames.evaluate, aimed.where, await_promise=True)
                await gestures.exact_tap(
                    page.session, evaluate, *aimed.top.input, then="0",
                    touched=lambda: lifted.append(page.frames.navigations.get(aimed.frame_id, 0)),
                    left=lambda: left.append(True), at=point,
                )  # fmt: skip
            elif taps == 2:
                await gestures.taps(page.session, *aimed.top.input, taps, at=point)
            else:
                await self._separate_taps(page, aimed.inner, taps, where=aimed.where, sent=aimed.top.input, at=point)
        now = before + 1 if left else (lifted[0] if lifted else None)  # (left: it navigated, whatever DevTools said)
        frames.check_still(page.frames, aimed.frame_id, before, "tap", now)
        await self._settle(page)
        return aimed.inner.hit

    async def _page_scale(self, page: Page) -> float:
        """The visual viewport's scale: DevTools input events go to screen points divided by it."""
        return finite(await self._eval(page, "window.visualViewport ? visualViewport.scale : 1")) or 1.0

    async def long_press(
        self, app_id: str, x: float, y: float, duration_ms: float, *, element: str | None = None
    ) -> None:
        with self._mapped(app_id):
            page = self._live(app_id)
            dialogs.no_dialog(page, "long press")
            aiming.check_on_screen(x, y, self.profile.width, self.profile.height, "long press")
            self._clear_of_keyboard(page, x, y, "long press")
            if element and page.frames.chain(element):  # an element of a frame of another origin (frames.py)
                aimed = await frames.aim(page.frames, partial(self._walker, page), (x, y), element, None)
                aim, frame_id = aimed.top, aimed.frame_id
                aiming.check_aim(aimed.inner, element, x, y)
            else:
                aim, frame_id = aim_of(await self._walker(page, (x, y, element) if element else (x, y)), x, y), ""
                aiming.check_aim(aim, element, x, y)
            before = page.frames.navigations.get(frame_id, 0)
            # the document the press lands in, and the point there press_end.js reads (a frame's own px: its
            # visual viewport's scale is 1, the page's zoom is the top's)
            where, point = (aimed.where, aimed.inner.client) if frame_id else (frames.Where(page.session), (x, y))
            page.unsettled = True
            with dialogs.may_open(page):
                # a phone's long press makes no click, and its touches go to the element under the finger
                guard_at = aimed.inner.client if frame_id else aim.client
                await frames.evaluate(where, f"({_PRESS_GUARD})({guard_at[0]}, {guard_at[1]})")
                # (Android's long press fires the page's contextmenu; iOS's none)
                menu = not apple(self.profile.platform)
                await gestures.long_press(page.session, *aim.input, duration_ms, context_menu=menu)
                ended = await self._press_ended(where, point, frame_id)
            if frame_id:
                frames.check_still(page.frames, frame_id, before, "long press")
            await self._settle(page)
            if isinstance(ended, dict) and isinstance(ended.get("link"), str) and page.dialog is None:
                await self._walked(app_id)  # (the view under the menu: the page as its contextmenu handlers left it)
                await self._held_on_link(page, ended["link"], str(ended.get("text") or ""))

    async def _press_ended(self, where: frames.Where, point: tuple[float, float], frame_id: str) -> Any:
        """After a long press: the guard off; on text, the word selected; on a link, its menu (press_end.js).  None
        when the press's frame of another origin went away under it (frames.check_still then says so)."""
        try:
            return await frames.evaluate(
                where, f"({_PRESS_END})({point[0]}, {point[1]}, {_SELECT_TEXT})", await_promise=True
            )
        except (CdpError, ProtocolError):
            if not frame_id:
                raise
            return None

    async def _held_on_link(self, page: Page, href: str, text: str) -> None:
        """A long press held on a link the page left to the browser: the system's link menu (editing.py, where the
        clipboard its choices copy to is)."""
        raise NotImplementedError

    async def drag(
        self,
        app_id: str,
        start: tuple[float, float],
        end: tuple[float, float],
        *,
        duration_ms: float,
        hold_ms: float,
        settle_ms: float,
    ) -> None:
        with self._mapped(app_id):
            page = self._live(app_id)
            dialogs.no_dialog(page, "drag")
            # (a drag starts on the screen; it may end past its edge, as a finger slides off it)
            aiming.check_on_screen(*start, self.profile.width, self.profile.height, "drag")
            self._clear_of_keyboard(page, *start, "drag")
            scale = await self._page_scale(page)
            page.unsettled = True
            with dialogs.may_open(page):
                await gestures.drag(
                    page.session, (start[0] / scale, start[1] / scale), (end[0] / scale, end[1] / scale),
                    duration_ms=duration_ms, hold_ms=hold_ms, settle_ms=settle_ms,
                )  # fmt: skip
            await self._rest(page)
            await self._settle(page)

    async def pinch(self, app_id: str, x: float, y: float, scale: float, duration_ms: float) -> dict[str, Any]:
        """Two fingers around the point, :data:`PINCH_GAP` points apart at first (less on a narrow screen), that
        end ``scale`` times as far apart."""
        with self._mapped(app_id):
            page = self._live(app_id)
            dialogs.no_dialog(page, "pinch")
            aiming.check_on_screen(x, y, self.profile.width, self.profile.height, "pinch")
            # both fingers stay on the screen, level with the point and as far from it on either side, all the way:
            # near an edge they start closer (a spread cut short by the edge would end at another scale)
            room = 2 * min(x - 1, self.profile.width - 1 - x)
            start = min(PINCH_GAP, self.profile.width / 2, min(self.profile.width / 2, room) / max(scale, 1.0))
            if start < MIN_PINCH_GAP:
                raise ProtocolError(
                    e.INVALID_REQUEST,
                    f"a pinch at ({x:g}, {y:g}) leaves no room for two fingers: it is "
                    f"{min(x, self.profile.width - x):g} points from the screen's edge",
                    "Pinch at a point further from the edge (the target's centre), or scroll it further in first.",
                )
            was = await self._page_scale(page)
            page.unsettled = True
            with dialogs.may_open(page):
                await gestures.pinch(page.session, (x, y), (start, start * scale), duration_ms,
                                     self.profile.width - 1, zoom=partial(self._page_scale, page))  # fmt: skip
            await self._rest(page)
            await self._settle(page)
            now = await self._page_scale(page)
        was, now = round(was, 3), round(now, 3)  # (as `viewport` says the scale)
        way = "spread" if scale > 1 else "pinched"
        said = f"{way} two fingers at ({x:g}, {y:g}): {start:g} → {start * scale:g} points apart"
        if now == was:  # (a page that cannot zoom, or at its bound: the page may still have moved)
            return {"message": f"{said}; the page's zoom stayed at scale {now:.3g}"}
        # the scale changes every place and size on the screen, no line of the view: the reply says it (changed)
        return {"message": f"{said}; the page zoomed to scale {now:.3g} (was {was:.3g})",
                "zoomed": {"from": was, "to": now, "how": "pinch"}}  # fmt: skip

    async def _rest(self, page: Page) -> None:
        """After a drag: wait (bounded) until nothing scrolls any more — a fling decelerating, smooth scrolling,
        snapping — so the reply, its ``changed`` and the next snapshot show where the content came to rest."""
        if page.dialog is None:
            await self._eval(page, scrolling.REST_JS, await_promise=True)

    async def scroll(
        self,
        app_id: str,
        direction: str,
        *,
        amount: float,
        at: tuple[float, float] | None = None,
        reveal: Sequence[str] | None = None,
        reveal_only: bool = False,
    ) -> dict[str, Any]:
        with self._mapped(app_id):
            page = self._live(app_id)
            dialogs.no_dialog(page, "scroll")
            plan = await self._eval(page, scrolling.plan_expression(direction, amount, at, reveal, only=reveal_only))
            if not isinstance(plan, dict):
                raise ProtocolError(e.COMMAND_FAILED, "the page gave no scroll plan", "Take a snapshot.")
            if "from" not in plan:  # at the end already, or (find) the element shows: nothing to drag
                result = scrolling.outcome(plan, await self._eval(page, scrolling.MEASURE_JS))
                if result.get("distance"):  # find's jump went all the way
                    page.unsettled = True
                    await self._settle(page)
                return result
            page.unsettled = True
            start, end = (float(plan["from"][0]), float(plan["from"][1])), (float(plan["to"][0]), float(plan["to"][1]))
            with dialogs.may_open(page):
                await gestures.drag(
                    page.session, start, end, duration_ms=SCROLL_DRAG_MS, hold_ms=SCROLL_HOLD_MS,
                    settle_ms=SCROLL_REST_MS,
                )  # fmt: skip
            if page.dialog is not None:
                return {"direction": direction}
            await self._rest(page)
            result = scrolling.outcome(plan, await self._eval(page, scrolling.MEASURE_JS))
            await self._settle(page)
            return result

    async def type_text(self, app_id: str, text: str, *, element: str | None = None) -> None:
        with self._mapped(app_id):
            page = self._live(app_id)
            if page.dialog is not None:
                dialogs.typing_field(page.dialog).text += text
                return
            where = await self._focus_where(page, element)  # (the page's document, or a frame's: frames.py)
            ev = partial(frames.evaluate, where)
            kind = await self._require_focus(page, where)
            if element is not None:
                aiming.check_focus(await ev(f"({_FOCUS_ON})({json.dumps(element)})"))
            if not text:
                return
            page.unsettled = True
            if kind in controls.VALUE_KINDS:
                # a date/time/number field has no caret to type at: its value is set whole and read back
                current = await ev("document.activeElement.value") if kind == "input:number" else ""
                value = str(current or "") + text
                controls.checked(await ev(controls.expression(None, [value])), [value])
            else:
                # read back once the keys' handlers ran: a picker or mask may have rewritten the field (readback)
                before = await ev(readback.MARK_JS)
                with dialogs.may_open(page):
                    await gestures.type_text(page.session, text)
                if self.dialog(app_id) is not None:
                    return  # a key's handler opened a dialog: the reply says so, nothing more can be read now
                await self._settle(page)
                if before is not None:
                    try:
                        after = await ev(readback.READ_JS, await_promise=True)
                    except CdpProtocolError:  # the document went away under the read (typing navigated)
                        after = None
                    if went := readback.strays(after):
                        undone = await ev(readback.UNDO_JS) is True
                        raise readback.went_elsewhere(after, went, undone)
                    failed = readback.mismatch(before, after, text)
                    if failed is not None:
                        raise failed
                return
            await self._settle(page)

    async def _focus_where(self, page: Page, element: str | None = None) -> frames.Where:
        """Where the document that typing goes to runs: that of ``element``'s frame of another origin when it names
        one, else the one holding the focused element (the page's, or such a frame's)."""
        chain = page.frames.chain(element)
        if chain and (where := page.frames.contexts.get(chain[-1][1])) is not None:
            return where
        return await frames.focused(page.frames, frames.Where(page.session))

    async def keyboard_return(self, app_id: str) -> None:
        with self._mapped(app_id):
            page = self._live(app_id)
            if page.dialog is not None:  # return in a dialog is its OK
                await dialogs.answer(page, accept=True)
                return
            where = await self._focus_where(page)
            if not await self._activates(where):
                await self._require_focus(page, where)
            await self._key(page, gestures.ENTER, "\r")

    async def _activates(self, where: frames.Where) -> bool:
        """Whether Enter goes to a focused element that is no text field (a button, a link, a menu item): it
        activates it, as on every platform; a text field (or nothing) with focus is typing's business."""
        if await frames.evaluate(where, FOCUS_PROBE):
            return False
        return bool(await frames.evaluate(where, f"({_FOCUSED})({js.ACTIVE_ELEMENT}())"))

    async def keyboard_delete(self, app_id: str) -> None:
        with self._mapped(app_id):
            page = self._live(app_id)
            if page.dialog is not None:
                field = dialogs.typing_field(page.dialog)
                field.text = field.text[:-1]
                return
            where = await self._focus_where(page)
            kind = await self._require_focus(page, where)
            if kind in controls.VALUE_KINDS:
                # backspace in a date/time field clears it (one segment at a time would leave a half date); in a
                # number field it drops the last character
                current = str(await frames.evaluate(where, "document.activeElement.value") or "")
                value = current[:-1] if kind == "input:number" else ""
                page.unsettled = True
                await frames.evaluate(where, controls.expression(None, [value]))
                return
            await self._key(page, gestures.BACKSPACE)

    async def key(self, app_id: str, key: str) -> None:
        spec, text = gestures.KEYS[key]
        with self._mapped(app_id):
            page = self._live(app_id)
            if page.dialog is not None:
                if key == "escape":  # Escape is a dialog's Cancel
                    await dialogs.answer(page, accept=False)
                    return
                if key == "space":
                    dialogs.typing_field(page.dialog).text += " "
                    return
                raise dialogs.refused(page.dialog, f"the {key} key cannot be pressed")
            before = await self._eval(page, CHANGE_MARK)
            await self._key(page, spec, text)
            # the page's answer to a key may render a moment later (Gradio's list closes on Escape after the key):
            # when nothing changed yet, two frames more, as back waits, so the reply's `changed` sees it (findings
            # 4, F7; a key the page answered at once pays one round trip, ~1 ms, not the ~27 ms of the frames)
            with self._may_close(page):
                if await self._eval(page, CHANGE_MARK) == before:
                    await self._eval(page, TWO_FRAMES, await_promise=True)

    async def set_value(
        self, app_id: str, x: float, y: float, values: list[str], *, add: bool = False
    ) -> dict[str, Any]:
        with self._mapped(app_id):
            page = self._live(app_id)
            dialogs.no_dialog(page, "setting a value")
            page.unsettled = True
            try:
                answer = await self._eval(page, controls.expression((x, y), values, add=add))
                if isinstance(answer, dict) and answer.get("error") == "nothing" and values:
                    dragged = await self._drag_slider(page, (x, y), values[0])  # a slider the page draws
                    if dragged is not None:
                        await self._settle(page)
                        return dragged
                result = controls.checked(answer, values)
            except CdpDialogOpen:
                if page.dialog is None:
                    raise
                # the page's change handler opened a dialog: the value was set, its read-back waits on the dialog
                return {"selected": list(values)}
            await self._settle(page)
            return result

    async def _drag_slider(self, page: Page, point: tuple[float, float], text: str) -> dict[str, Any] | None:
        """The slider the page draws at ``point`` dragged to ``text`` (sliders.py), or None: there is none."""
        scale = await self._page_scale(page)

        async def drag(start: tuple[float, float], end: tuple[float, float]) -> None:
            self._clear_of_keyboard(page, *start, "drag")
            via = sliders.overshoot(start, end, self.profile.width, self.profile.height)
            await gestures.drag(
                page.session, (start[0] / scale, start[1] / scale), (end[0] / scale, end[1] / scale),
                duration_ms=sliders.DRAG_MS, hold_ms=0, settle_ms=sliders.DRAG_MS / 4,
                via=(via[0] / scale, via[1] / scale),
            )  # fmt: skip
            await self._rest(page)

        return await sliders.fill(partial(self._eval, page), drag, point, text)
