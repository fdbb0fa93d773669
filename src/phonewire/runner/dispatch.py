"""Dispatch: one validated :class:`~phonewire.protocol.request.Request` in, one :class:`Envelope` out, by calling the
:class:`~phonewire.devices.base.Device`.

This is the runner's single exception-to-wire boundary for device work (:func:`map_exception`): a
``ProtocolError`` from a backend keeps its code, unless the code is one only the runner may vouch for
(RUNNER_BUSY, RUNNER_WEDGED, COMMAND_ALREADY_COMPLETED) or not a runner code at all; that, and anything else,
becomes COMMAND_FAILED.  On the way it applies the contract between backend and runner:

* a device whose :meth:`~phonewire.devices.base.Device.health` is not ``None`` (its browser or agent died) is
  replaced at once by a fresh one (``renew``), before the command runs or right after the command that found it
  dead; that reply carries ``stateReset: true`` and, when it is an error, says what was lost.  Only a device that
  cannot be renewed answers DEVICE_UNAVAILABLE (the host then replaces the whole runner);
* app-scoped commands ask :meth:`~phonewire.devices.base.Device.app_state` first: ``notRunning`` →
  APP_NOT_AVAILABLE; ``background`` → snapshot answers APP_BACKGROUNDED (observation never re-fronts), every other
  app-scoped command re-fronts the app with :meth:`~phonewire.devices.base.Device.activate` and its reply, ok or
  error, carries ``reactivated: true``;
* mutating commands are bracketed by the suppressed-issue counter: growth across an ok mutation stamps ``warning``;
* actions (:data:`CHANGE_TRACKED`) are bracketed by the device's change mark
  (:meth:`~phonewire.devices.base.Device.change_mark`): the ok reply carries ``changed`` (did the screen change by
  the time the action answered) when the device can tell.

The runner never retries a command, with the one exception the protocol makes: a snapshot capture that throws
(SNAPSHOT_FAILED, or a backend bug) is retried once after a short pause (0.4 s x time scale), here, for every
backend.  App-state and device failures are not capture failures and are never retried.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
from collections.abc import Awaitable, Callable
from typing import Any, Final

from phonewire.devices.base import AppState, Device
from phonewire.protocol import commands as c
from phonewire.protocol import errors as e
from phonewire.protocol.envelope import Envelope, JSONObject, fail, ok
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.request import Request

DEFAULT_LONG_PRESS_MS: Final = 800.0
DEFAULT_DRAG_MS: Final = 300.0
DEFAULT_HOLD_MS: Final = 50.0
DEFAULT_SETTLE_MS: Final = 0.0
DEFAULT_SCREENSHOT_QUALITY: Final = 80
DEFAULT_SCROLL_AMOUNT: Final = 0.6
#: ``setLocation`` without an accuracy: a phone's GPS fix outdoors (metres).
DEFAULT_ACCURACY_M: Final = 10.0
SNAPSHOT_RETRY_PAUSE_S: Final = 0.4

WARNING_SUPPRESSED: Final = (
    "the command succeeded, but the device muted {n} issue(s) while it ran; a gesture may have missed its target. "
    "Re-observe the screen (snapshot) and confirm the effect before continuing."
)


#: Codes a backend may raise.  The others promise something only the runner (nothing ran: RUNNER_BUSY /
#: RUNNER_WEDGED; ran earlier: COMMAND_ALREADY_COMPLETED) or the host can vouch for, and a host acts on that promise
#: (it resends a command refused as busy), so a backend raising one becomes COMMAND_FAILED.
BACKEND_CODES: Final = frozenset(e.RUNNER_CODES) - {e.RUNNER_BUSY, e.RUNNER_WEDGED, e.COMMAND_ALREADY_COMPLETED}


def map_exception(exc: Exception) -> ProtocolError:
    """The one mapping of a backend exception to a wire error."""
    if isinstance(exc, ProtocolError):
        if exc.code in BACKEND_CODES:
            return exc
        return ProtocolError(
            e.COMMAND_FAILED,
            f"the device backend failed with {exc.code}: {exc.message}",
            "It may have taken effect: observe the screen (snapshot) before sending it again.",
        )
    return ProtocolError(
        e.COMMAND_FAILED,
        f"the device backend failed: {type(exc).__name__}: {exc}",
        "Observe the screen (snapshot) before retrying; if it keeps failing, restart the runner.",
    )


Handler = Callable[[Device, Request], Awaitable[JSONObject]]


def _message(text: str) -> JSONObject:
    return {"message": text}


async def _viewport(d: Device, r: Request) -> JSONObject:
    rect = await d.viewport(_app(r))
    data: JSONObject = dict(rect.to_wire())
    page = await d.page_shown(_app(r))
    if page is not None:
        data["page"] = dict(page)
    return data


async def _tap(d: Device, r: Request) -> JSONObject:
    x, y, taps = float(r.args["x"]), float(r.args["y"]), int(r.args.get("numberOfTaps", 1))
    element, mark = r.args.get("element"), r.args.get("mark")
    hit = await d.tap(_app(r), x, y, taps, element=str(element) if element else None, mark=str(mark) if mark else None)
    data = _message(f"tapped ({x:g}, {y:g})" + (f" {taps} times" if taps != 1 else ""))
    if hit:
        data["hit"] = hit
    # a double tap may zoom the page (a phone's browser does, on a page not laid out for it): the reply says so
    zoomed = d.zoomed(_app(r)) if taps == 2 else None
    return zoom_noted(data, zoomed) if zoomed else data


#: What the reply of a double tap that zoomed says, by how (Device.zoomed).
ZOOM_NOTES: Final = {
    "block": "the page zoomed {way} to scale {to:.3g} (was {was:.3g}) to fit the block under the finger: a double tap "
    "there again zooms back out",
    "out": "the page zoomed out to scale {to:.3g} (was {was:.3g}), the least it goes to",
    "none": "the page did not zoom: the block under the finger already fits the screen at scale {to:.3g}; a double tap "
    "on a page not laid out for phones clicks nothing (tap once to click)",
}


def zoom_noted(data: JSONObject, zoomed: dict[str, Any]) -> JSONObject:
    """A double tap's reply with what it did to the page's zoom (``zoomed``: Device.zoomed's answer): ``zoomed``,
    its scales, how and the sentence that says it (each front end puts it after its own words).  Pure."""
    was, now, how = float(zoomed["from"]), float(zoomed["to"]), str(zoomed["how"])
    note = ZOOM_NOTES[how].format(way="in" if now >= was else "out", to=now, was=was)
    return {**data, "zoomed": {"from": was, "to": now, "how": how, "note": note}}


async def _long_press(d: Device, r: Request) -> JSONObject:
    x, y = float(r.args["x"]), float(r.args["y"])
    duration = float(r.args.get("durationMs", DEFAULT_LONG_PRESS_MS))
    element = r.args.get("element")
    await d.long_press(_app(r), x, y, duration, element=str(element) if element else None)
    return _message(f"long-pressed ({x:g}, {y:g}) for {duration:g} ms")


async def _drag(d: Device, r: Request) -> JSONObject:
    start = (float(r.args["fromX"]), float(r.args["fromY"]))
    end = (float(r.args["toX"]), float(r.args["toY"]))
    await d.drag(
        _app(r),
        start,
        end,
        duration_ms=float(r.args.get("durationMs", DEFAULT_DRAG_MS)),
        hold_ms=float(r.args.get("holdMs", DEFAULT_HOLD_MS)),
        settle_ms=float(r.args.get("settle", DEFAULT_SETTLE_MS)),
    )
    return _message(f"dragged ({start[0]:g}, {start[1]:g}) to ({end[0]:g}, {end[1]:g})")


async def _type(d: Device, r: Request) -> JSONObject:
    text, element = str(r.args["text"]), r.args.get("element")
    await d.type_text(_app(r), text, element=str(element) if element else None)
    return _message(f"typed {len(text)} character(s)")


async def _keyboard_return(d: Device, r: Request) -> JSONObject:
    await d.keyboard_return(_app(r))
    return _message("pressed return")


async def _keyboard_delete(d: Device, r: Request) -> JSONObject:
    await d.keyboard_delete(_app(r))
    # what was pressed, not what it did: at the field's start, or with its text selected, a backspace deletes
    # nothing or more than one character (the reply's diff says which)
    return _message("pressed delete (backspace)")


async def _key(d: Device, r: Request) -> JSONObject:
    name = str(r.args["key"])
    await d.key(_app(r), name)
    return _message(f"pressed {name}")


async def _key_or_combo(d: Device, r: Request) -> JSONObject:
    modifiers = [str(m) for m in r.args.get("modifiers") or []]
    if not modifiers:
        return await _key(d, r)
    return await d.key_combo(_app(r), str(r.args["key"]), modifiers)


async def _select_text(d: Device, r: Request) -> JSONObject:
    start, end = r.args.get("start"), r.args.get("end")
    return await d.select_text(
        _app(r), float(r.args["x"]), float(r.args["y"]), str(r.args.get("mode", "element")),
        start=None if start is None else int(start), end=None if end is None else int(end),
    )  # fmt: skip


async def _get_clipboard(d: Device, r: Request) -> JSONObject:
    return await d.get_clipboard()


async def _set_clipboard(d: Device, r: Request) -> JSONObject:
    return await d.set_clipboard(str(r.args["text"]))


async def _rotate(d: Device, r: Request) -> JSONObject:
    return await d.rotate(str(r.args["orientation"]))


async def _set_location(d: Device, r: Request) -> JSONObject:
    if "latitude" not in r.args:
        return await d.set_location(None)
    accuracy = float(r.args.get("accuracy", DEFAULT_ACCURACY_M))
    return await d.set_location((float(r.args["latitude"]), float(r.args["longitude"]), accuracy))


async def _set_connectivity(d: Device, r: Request) -> JSONObject:
    return await d.set_connectivity(str(r.args["connectivity"]))


async def _set_permissions(d: Device, r: Request) -> JSONObject:
    return await d.set_permissions(str(r.args["setting"]), [str(p) for p in r.args["permissions"]])


async def _pinch(d: Device, r: Request) -> JSONObject:
    duration = float(r.args.get("durationMs", DEFAULT_DRAG_MS))
    return await d.pinch(_app(r), float(r.args["x"]), float(r.args["y"]), float(r.args["pinchScale"]), duration)


async def _pick_file(d: Device, r: Request) -> JSONObject:
    return await d.pick_file(_app(r), [str(f) for f in r.args["files"]])


async def _set_appearance(d: Device, r: Request) -> JSONObject:
    return await d.set_appearance(str(r.args["appearance"]))


async def _set_value(d: Device, r: Request) -> JSONObject:
    values = [str(v) for v in r.args["values"]]
    return await d.set_value(_app(r), r.args["x"], r.args["y"], values, add=bool(r.args.get("add", False)))


async def _scroll(d: Device, r: Request) -> JSONObject:
    direction = str(r.args["direction"])
    at = (float(r.args["x"]), float(r.args["y"])) if "x" in r.args and "y" in r.args else None
    # what ``find`` looks for: selector terms (``key=value``, ``||`` between alternatives), or a plain text
    terms = r.args.get("revealTerms")
    text = r.args.get("reveal")
    reveal = [str(t) for t in terms] if terms else ([f"text={text}"] if text else None)
    data = await d.scroll(
        _app(r),
        direction,
        amount=float(r.args.get("amount", DEFAULT_SCROLL_AMOUNT)),
        at=at,
        reveal=reveal,
        reveal_only=bool(r.args.get("revealOnly", False)) and reveal is not None,
    )
    went = str(data.get("direction") or direction)
    distance = data.get("distance")
    if distance is None:
        text = f"scrolled {went}"
    elif distance < 0.5:
        text = f"did not move {went}: " + ("at the end" if data.get("atEnd") else "nothing scrolled there")
    else:
        text = f"scrolled {went} {distance:.0f} pt" + (", reached the end" if data.get("atEnd") else "")
    return {**data, "direction": went, "message": text}


async def _snapshot(d: Device, r: Request) -> JSONObject:
    return dict(await d.snapshot(_app(r)))


async def _button(d: Device, r: Request) -> JSONObject:
    name = str(r.args["button"])
    did = await d.button(name)
    data = _message(f"pressed {name}")
    if did:
        data.update(did)
        if did.get("message"):
            data["message"] = f"pressed {name}: {did['message']}"
    return data


async def _screenshot(d: Device, r: Request) -> JSONObject:
    shot = await d.screenshot(
        format=str(r.args.get("format", "png")),
        scale=str(r.args.get("scale", "device")),
        quality=int(r.args.get("quality", DEFAULT_SCREENSHOT_QUALITY)),
    )
    return {
        "imageBase64": base64.b64encode(shot.data).decode("ascii"),
        "format": shot.format,
        "width": shot.width,
        "height": shot.height,
    }


async def _launch_app(d: Device, r: Request) -> JSONObject:
    options = {name: str(r.args[name]) for name in ("locale", "timezone") if name in r.args}
    return await d.launch_app(_app(r), clear_state=r.args.get("clearState") is True, **options)


async def _terminate_app(d: Device, r: Request) -> JSONObject:
    return await d.terminate_app(_app(r))


async def _list_apps(d: Device, r: Request) -> JSONObject:
    return {"apps": [app.to_wire() for app in await d.list_apps()]}


async def _open_url(d: Device, r: Request) -> JSONObject:
    return await d.open_url(str(r.args["url"]))


async def _reset(d: Device, r: Request) -> JSONObject:
    return await d.reset()


async def _logs(d: Device, r: Request) -> JSONObject:
    return await d.logs(r.app_id, int(r.args.get("since", 0)))


async def _hide_keyboard(d: Device, r: Request) -> JSONObject:
    return await d.hide_keyboard()


async def _network(d: Device, r: Request) -> JSONObject:
    return await d.network(int(r.args.get("since", 0)))


async def _record_start(d: Device, r: Request) -> JSONObject:
    return await d.record_start(str(r.args["path"]))


async def _record_stop(d: Device, r: Request) -> JSONObject:
    return await d.record_stop()


#: Actions whose ok reply says whether the screen changed (``changed``), where the device can tell.
CHANGE_TRACKED: Final = frozenset(
    {c.TAP, c.LONG_PRESS, c.DRAG, c.TYPE, c.KEYBOARD_RETURN, c.KEYBOARD_DELETE, c.KEY, c.SET_VALUE, c.BUTTON, c.SCROLL}
)

#: Commands whose ok reply says when a page's own dialog opened during them (``dialog``) or that they answered it.
DIALOG_NOTED: Final = CHANGE_TRACKED | {c.LAUNCH_APP, c.OPEN_URL}


def noted_dialog(data: JSONObject, before: JSONObject | None, after: JSONObject | None) -> JSONObject:
    """The reply of a command that ran with dialog ``before`` open and left dialog ``after`` open (each None when
    there was none; the same object while the same dialog stays open): ``dialog`` and a message that say a new
    one opened, and the message says when the command answered the one that was open.  Pure."""
    if after is before:
        return data
    notes: list[str] = []
    # (a reply that names what it closed, back's, says the dialog's fate already)
    if before is not None and before.get("answer") and "closed" not in data:
        choices = before.get("choices")
        if isinstance(choices, list) and before["answer"] in choices:  # a system menu (the link menu): its choice
            notes.append(f"{json.dumps(before['answer'], ensure_ascii=False)} chosen in the {before.get('type')}")
        else:
            notes.append(f"the {before.get('type')} dialog was {before['answer']}")
    if after is not None:
        data = {**data, "dialog": after}
        kind = str(after.get("type"))
        text = json.dumps(str(after.get("message") or ""), ensure_ascii=False)
        article = "an" if kind[:1] in "aeiou" else "a"
        choices = after.get("choices")
        if isinstance(choices, list):
            buttons = ", ".join(json.dumps(str(choice), ensure_ascii=False) for choice in choices)
            notes.append(f"{article} {kind} opened: {text} (tap one of {buttons}, or press back to close it)")
        else:
            answers = {"alert": "OK", "permission": "Allow or Don't Allow"}.get(kind, "OK or Cancel")
            answer = f"answer it: tap {answers}, or press back to dismiss it"
            notes.append(f"{article} {kind} dialog opened: {text} ({answer})")
    message = data.get("message")
    if notes and isinstance(message, str):
        data = {**data, "message": "; ".join([message, *notes])}
    return data


#: Every command that reaches the device (status, uptime and shutdown are the runner's own).
HANDLERS: Final[dict[str, Handler]] = {
    c.VIEWPORT: _viewport,
    c.TAP: _tap,
    c.LONG_PRESS: _long_press,
    c.DRAG: _drag,
    c.TYPE: _type,
    c.KEYBOARD_RETURN: _keyboard_return,
    c.KEYBOARD_DELETE: _keyboard_delete,
    c.SNAPSHOT: _snapshot,
    c.BUTTON: _button,
    c.SCREENSHOT: _screenshot,
    c.LAUNCH_APP: _launch_app,
    c.TERMINATE_APP: _terminate_app,
    c.LIST_APPS: _list_apps,
    c.OPEN_URL: _open_url,
    c.RESET: _reset,
    c.KEY: _key_or_combo,
    c.SELECT_TEXT: _select_text,
    c.GET_CLIPBOARD: _get_clipboard,
    c.SET_CLIPBOARD: _set_clipboard,
    c.ROTATE: _rotate,
    c.SET_LOCATION: _set_location,
    c.SET_CONNECTIVITY: _set_connectivity,
    c.SET_PERMISSIONS: _set_permissions,
    c.SET_APPEARANCE: _set_appearance,
    c.PICK_FILE: _pick_file,
    c.PINCH: _pinch,
    c.HIDE_KEYBOARD: _hide_keyboard,
    c.SET_VALUE: _set_value,
    c.SCROLL: _scroll,
    c.LOGS: _logs,
    c.NETWORK: _network,
    c.RECORD_START: _record_start,
    c.RECORD_STOP: _record_stop,
}


def _app(r: Request) -> str:
    assert r.app_id is not None, "parse_request guarantees appBundleId for app-scoped commands"
    return r.app_id


def _capture_failure(exc: Exception) -> bool:
    """A snapshot failure worth one more try: the capture itself threw."""
    return not isinstance(exc, ProtocolError) or exc.code == e.SNAPSHOT_FAILED


#: Why an app-scoped failure after a device restart happened, in front of the failure's own message.
STATE_LOST: Final = "the device was restarted ({why}) and every app's state was lost (open apps, sign-in, navigation)"
STATE_LOST_HINT: Final = "Open the app again (launchApp / open), then take a snapshot before acting."
#: How long closing a dead device may take before a new one is opened anyway (seconds).
RENEW_CLOSE_S: Final = 5.0

Renew = Callable[[], Device]
"""Makes a fresh, unopened device of the same spec (the registry's ``create_device`` bound to the spec)."""


class Dispatcher:
    def __init__(
        self,
        device: Device,
        *,
        snapshot_retry_pause: float = SNAPSHOT_RETRY_PAUSE_S,
        renew: Renew | None = None,
    ) -> None:
        self.device = device
        self.snapshot_retry_pause = snapshot_retry_pause
        self.renew = renew
        self.restarts = 0
        self._renewing: asyncio.Lock | None = None

    async def run(self, request: Request) -> Envelope:
        """Execute one command on the device.  Never raises (except cancellation): failures are envelopes."""
        reactivated = False
        restarted: str | None = None  # why the device was replaced during this command
        mutating = request.command in c.MUTATING
        before: int | None = None
        try:
            reason = self.device.health()
            if reason is not None:
                await self._replace(reason)
                restarted = reason
            before = self._suppressed() if mutating else None
            if request.command in c.APP_SCOPED:
                reactivated = await self._front(request)
            data = await self._execute(request)
        except Exception as exc:
            error = map_exception(exc)
            lost = self._dead_reason() if restarted is None else None
            if lost is not None:  # the device died while the command ran
                try:
                    await self._replace(lost)
                except ProtocolError as unavailable:
                    return fail(unavailable, reactivated=reactivated)
                return fail(
                    ProtocolError(
                        e.DEVICE_UNAVAILABLE,
                        f"{request.command} did not complete: {STATE_LOST.format(why=lost)}",
                        "Open the app again (launchApp / open) and take a snapshot to see whether the command took "
                        "effect before repeating it.",
                    ),
                    reactivated=reactivated,
                    state_reset=True,
                )
            if restarted is not None and error.code != e.DEVICE_UNAVAILABLE:
                error = ProtocolError(
                    error.code, f"{STATE_LOST.format(why=restarted)}: {error.message}", STATE_LOST_HINT
                )
            return fail(error, reactivated=reactivated, state_reset=restarted is not None)
        # The command ran: nothing after this point may turn its reply into a failure (the agent would repeat it).
        return ok(
            data,
            reactivated=reactivated,
            warning=self._warning(before) if mutating else None,
            state_reset=restarted is not None,
        )

    def _dead_reason(self) -> str | None:
        try:
            return self.device.health()
        except Exception as exc:
            return f"health check failed: {type(exc).__name__}: {exc}"

    async def _replace(self, reason: str) -> None:
        """Close the dead device and open a fresh one in its place; DEVICE_UNAVAILABLE when that cannot be done."""
        if self._renewing is None:
            self._renewing = asyncio.Lock()
        async with self._renewing:
            if self._dead_reason() is None:
                return  # another command replaced it while this one waited
            if self.renew is None:
                raise ProtocolError(
                    e.DEVICE_UNAVAILABLE,
                    f"the device is unavailable: {reason}",
                    "Nothing ran. This runner cannot renew its device: start a new runner.",
                )
            old = self.device
            with contextlib.suppress(Exception):
                await asyncio.wait_for(old.close(), RENEW_CLOSE_S)
            try:
                fresh = self.renew()
                await fresh.open()
            except Exception as exc:
                detail = exc.message if isinstance(exc, ProtocolError) else f"{type(exc).__name__}: {exc}"
                raise ProtocolError(
                    e.DEVICE_UNAVAILABLE,
                    f"the device is unavailable ({reason}) and could not be restarted: {detail}",
                    "Nothing ran. A host replaces the runner on its next command; if this persists, check the "
                    "device (for the web phone: that /usr/bin/chromium starts).",
                ) from exc
            self.device = fresh
            self.restarts += 1

    def _suppressed(self) -> int | None:
        """The device's count of suppressed page issues (``None`` if it cannot be read: a count never fails a
        command)."""
        try:
            return self.device.counters().suppressed
        except Exception:
            return None

    def _warning(self, before: int | None) -> str | None:
        """The warning for a mutation during which the suppressed-issue counter grew (none if it cannot be read)."""
        now = self._suppressed()
        grown = 0 if before is None or now is None else now - before
        return WARNING_SUPPRESSED.format(n=grown) if grown > 0 else None

    async def _mark(self, app_id: str | None) -> str | None:
        try:
            return await self.device.change_mark(app_id)
        except Exception:
            return None  # a mark is a courtesy: it never fails the command

    async def _execute(self, request: Request) -> JSONObject:
        if request.command in DIALOG_NOTED:
            shown = self._dialog(request.app_id)
            data = await self._run_handler(request)
            return noted_dialog(data, shown, self._dialog(request.app_id))
        return await self._run_handler(request)

    def _dialog(self, app_id: str | None) -> JSONObject | None:
        try:
            return self.device.dialog(app_id)
        except Exception:
            return None  # like the change mark, a courtesy

    async def _run_handler(self, request: Request) -> JSONObject:
        handler = HANDLERS[request.command]
        if request.command in CHANGE_TRACKED:
            before = await self._mark(request.app_id)
            data = await handler(self.device, request)
            after = await self._mark(request.app_id) if before is not None else None
            if after is not None and "changed" not in data:
                data = {**data, "changed": before != after}
            return data
        if request.command != c.SNAPSHOT:
            return await handler(self.device, request)
        try:
            return await handler(self.device, request)
        except Exception as exc:
            if not _capture_failure(exc):
                raise
        await asyncio.sleep(self.snapshot_retry_pause)
        return await handler(self.device, request)

    async def _front(self, request: Request) -> bool:
        """Make sure the target app is in front; ``True`` when it had to be re-fronted."""
        app_id = _app(request)
        state = await self.device.app_state(app_id)
        if state is AppState.FOREGROUND:
            return False
        if state is AppState.NOT_RUNNING:
            raise ProtocolError(
                e.APP_NOT_AVAILABLE,
                f"app {app_id!r} is not running",
                "Open it first (CLI `open APP`, bridge `open_app`, wire `launchApp`); nothing else launches an app.",
            )
        if request.command == c.SNAPSHOT:
            raise ProtocolError(
                e.APP_BACKGROUNDED,
                f"app {app_id!r} is running in the background",
                "A snapshot never changes the screen. Bring the app to the front (launchApp, or any other "
                "command for it, which re-fronts it) and snapshot again.",
            )
        await self.device.activate(app_id)
        return True


def describe_device(device: Device) -> dict[str, Any]:
    """Device facts for ``status``; never raises."""
    try:
        return dict(device.describe())
    except Exception as exc:
        return {"kind": device.kind, "describeError": f"{type(exc).__name__}: {exc}"}
