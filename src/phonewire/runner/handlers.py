"""The runner's handlers: one function per command that reaches the device, turning a validated request's
arguments into one :class:`~phonewire.devices.base.Device` call and the reply's data (its message in the words
every front end shows).  :mod:`phonewire.runner.dispatch` calls them inside its error boundary; here they only
read arguments (``parse_request`` has checked them) and shape what the device answered.

Also here, pure: what a double tap that zoomed says (:func:`zoom_noted`) and what an action's reply says about a
page's own dialog (:func:`noted_dialog`), with the sets of commands each applies to.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Awaitable, Callable
from typing import Any, Final

from phonewire.devices.base import Device
from phonewire.protocol import commands as c
from phonewire.protocol.envelope import JSONObject
from phonewire.protocol.request import Request

DEFAULT_LONG_PRESS_MS: Final = 800.0
DEFAULT_DRAG_MS: Final = 300.0
DEFAULT_HOLD_MS: Final = 50.0
DEFAULT_SETTLE_MS: Final = 0.0
DEFAULT_SCREENSHOT_QUALITY: Final = 80
DEFAULT_SCROLL_AMOUNT: Final = 0.6
#: ``setLocation`` without an accuracy: a phone's GPS fix outdoors (metres).
DEFAULT_ACCURACY_M: Final = 10.0


Handler = Callable[[Device, Request], Awaitable[JSONObject]]


def _message(text: str) -> JSONObject:
    return {"message": text}


async def _viewport(d: Device, r: Request) -> JSONObject:
    rect = await d.viewport(app_of(r))
    data: JSONObject = dict(rect.to_wire())
    page = await d.page_shown(app_of(r))
    if page is not None:
        data["page"] = dict(page)
    return data


async def _tap(d: Device, r: Request) -> JSONObject:
    x, y, taps = float(r.args["x"]), float(r.args["y"]), int(r.args.get("numberOfTaps", 1))
    element, mark = r.args.get("element"), r.args.get("mark")
    hit = await d.tap(
        app_of(r), x, y, taps, element=str(element) if element else None, mark=str(mark) if mark else None
    )
    data = _message(f"tapped ({x:g}, {y:g})" + (f" {taps} times" if taps != 1 else ""))
    if hit:
        data["hit"] = hit
    # a double tap may zoom the page (a phone's browser does, on a page not laid out for it): the reply says so
    zoomed = d.zoomed(app_of(r)) if taps == 2 else None
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
    await d.long_press(app_of(r), x, y, duration, element=str(element) if element else None)
    return _message(f"long-pressed ({x:g}, {y:g}) for {duration:g} ms")


async def _drag(d: Device, r: Request) -> JSONObject:
    start = (float(r.args["fromX"]), float(r.args["fromY"]))
    end = (float(r.args["toX"]), float(r.args["toY"]))
    await d.drag(
        app_of(r),
        start,
        end,
        duration_ms=float(r.args.get("durationMs", DEFAULT_DRAG_MS)),
        hold_ms=float(r.args.get("holdMs", DEFAULT_HOLD_MS)),
        settle_ms=float(r.args.get("settle", DEFAULT_SETTLE_MS)),
    )
    return _message(f"dragged ({start[0]:g}, {start[1]:g}) to ({end[0]:g}, {end[1]:g})")


async def _type(d: Device, r: Request) -> JSONObject:
    text, element = str(r.args["text"]), r.args.get("element")
    await d.type_text(app_of(r), text, element=str(element) if element else None)
    return _message(f"typed {len(text)} character(s)")


async def _keyboard_return(d: Device, r: Request) -> JSONObject:
    await d.keyboard_return(app_of(r))
    return _message("pressed return")


async def _keyboard_delete(d: Device, r: Request) -> JSONObject:
    await d.keyboard_delete(app_of(r))
    # what was pressed, not what it did: at the field's start, or with its text selected, a backspace deletes
    # nothing or more than one character (the reply's diff says which)
    return _message("pressed delete (backspace)")


async def _key(d: Device, r: Request) -> JSONObject:
    name = str(r.args["key"])
    await d.key(app_of(r), name)
    return _message(f"pressed {name}")


async def _key_or_combo(d: Device, r: Request) -> JSONObject:
    modifiers = [str(m) for m in r.args.get("modifiers") or []]
    if not modifiers:
        return await _key(d, r)
    return await d.key_combo(app_of(r), str(r.args["key"]), modifiers)


async def _select_text(d: Device, r: Request) -> JSONObject:
    start, end = r.args.get("start"), r.args.get("end")
    return await d.select_text(
        app_of(r), float(r.args["x"]), float(r.args["y"]), str(r.args.get("mode", "element")),
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
    return await d.pinch(app_of(r), float(r.args["x"]), float(r.args["y"]), float(r.args["pinchScale"]), duration)


async def _pick_file(d: Device, r: Request) -> JSONObject:
    return await d.pick_file(app_of(r), [str(f) for f in r.args["files"]])


async def _set_appearance(d: Device, r: Request) -> JSONObject:
    return await d.set_appearance(str(r.args["appearance"]))


async def _set_value(d: Device, r: Request) -> JSONObject:
    values = [str(v) for v in r.args["values"]]
    return await d.set_value(app_of(r), r.args["x"], r.args["y"], values, add=bool(r.args.get("add", False)))


async def _scroll(d: Device, r: Request) -> JSONObject:
    direction = str(r.args["direction"])
    at = (float(r.args["x"]), float(r.args["y"])) if "x" in r.args and "y" in r.args else None
    # what ``find`` looks for: selector terms (``key=value``, ``||`` between alternatives), or a plain text
    terms = r.args.get("revealTerms")
    text = r.args.get("reveal")
    reveal = [str(t) for t in terms] if terms else ([f"text={text}"] if text else None)
    data = await d.scroll(
        app_of(r),
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
    return dict(await d.snapshot(app_of(r)))


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
    return await d.launch_app(app_of(r), clear_state=r.args.get("clearState") is True, **options)


async def _terminate_app(d: Device, r: Request) -> JSONObject:
    return await d.terminate_app(app_of(r))


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


def app_of(r: Request) -> str:
    """The request's app (app-scoped commands always carry one)."""
    assert r.app_id is not None, "parse_request guarantees appBundleId for app-scoped commands"
    return r.app_id
