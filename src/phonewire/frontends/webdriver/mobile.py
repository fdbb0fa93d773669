"""``POST /execute/sync`` with ``mobile:`` commands: one table, name → handler.

==================  ============================================  ==========================================
command             arguments                                     does
==================  ============================================  ==========================================
``launchApp``       ``appId`` / ``bundleId`` / ``appPackage``,    open the app (agent ``open_app``) in that
                    ``locale``, ``timezone``                      language and time zone
``activateApp``     the same                                      bring it to the front (``open_app``)
``terminateApp``    the same                                      stop it (``close_app``); answers true
``queryAppState``   the same                                      0 unknown, 1 not running, 3 background, 4 foreground
``listApps``        —                                             the device's apps (``list_apps``)
``pressButton``     ``name``: home, back, volumeUp …              press it (``press``)
``scroll``          ``direction`` (up/down/left/right), ``amount``, reveal content that way (``scroll``); answers
                    ``target`` (the container's element)          ``{distance, atEnd}``
``find``            ``selector``, ``direction``, ``maxScrolls``   scroll until it shows (``find``); its line
``swipe``           ``direction``, ``velocity`` ignored           the finger moves that way across the screen
``deepLink``        ``url``                                       open it as the OS would (``open_url``)
``waitFor``         ``selector``, ``gone``, ``timeoutMs``         phonewire's ``wait``
``selectOptions``   ``target``, ``options`` (list), ``add``       choose a select's options (``select``)
``traceStart``      ``dir``                                       record the session (``trace_start``)
``traceStop``       —                                             stop recording (``trace_stop``)
``logs``            —                                             log entries since the previous call (``logs``)
``network``         ``url``, ``status`` (filters)                 requests since the previous call (``network``)
``recordStart``     ``file`` (.mp4 / .webm)                       record the screen (``record_start``)
``recordStop``      —                                             finish the video (``record_stop``)
``selectText``      ``target``, ``word`` / ``all`` / ``from``+``to``   select its text (``select_text``); the text
``getClipboard``    —                                             the clipboard, base64 (Appium's shape)
``setClipboard``    ``content`` (base64), ``contentType``         put plain text on it (``clipboard_set``)
``setGeolocation``  ``latitude``, ``longitude``, ``accuracy``     the phone's position (``location``)
``resetGeolocation`` —                                            location off (``location_off``)
``setConnectivity`` ``mode``, or ``airplaneMode`` / ``wifi`` +    the phone's network (``connectivity``)
                    ``data`` (Appium's booleans)
``setAppearance``   ``style``: light, dark (Appium's)               the phone's mode (``appearance``)
``hideKeyboard``    ``keys``, ``strategy`` ignored                dismiss the keyboard (``keyboard_hide``)
``changePermissions`` ``permissions`` (list), ``action``:         grant / deny (revoke) / reset (``permissions``)
                    grant, deny, revoke, reset
``pickFile``        ``files`` (list of names in the files dir)    hand them to the page's file chooser (``pick_file``)
``pinch``           ``target``, ``scale``, ``durationMs``         two fingers on it, apart or together (``pinch``)
``flowRun``         ``file``, ``env`` (list of NAME=VALUE)        run a Maestro flow (``flow_run``); its steps
==================  ============================================  ==========================================

The orientation endpoints (``GET`` / ``POST /session/{id}/orientation``, ``PORTRAIT`` / ``LANDSCAPE``) are
routes.py's (``rotate``).

Files a client names (``traceStart``'s ``dir``, ``recordStart``'s ``file``, ``pickFile``'s ``files``, ``flowRun``'s
``file``, and the files that flow's ``runFlow`` and ``takeScreenshot`` name, which stay in its folder) are relative
names inside the server's files directory (``--files-dir``; default ``$XDG_STATE_HOME/phonewire/webdriver``,
0700): a WebDriver client may be another machine (``--allow-remote``, or a Grid hub in front), so it never chooses
a path on the server's disk (nor, for ``pickFile``, a file of the server's to hand a page).  An absolute name, ``..``,
a symlink on the way, or (for a video) a file that exists already is ``invalid argument``.
"""

from __future__ import annotations

import base64
import binascii
import os
import stat
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from phonewire.frontends.webdriver.errors import INVALID_ARGUMENT, UNSUPPORTED_OPERATION, WebDriverError

if TYPE_CHECKING:
    from phonewire.frontends.webdriver.session import WebDriverSession

Params = Mapping[str, Any]
Handler = Callable[["WebDriverSession", Params], Awaitable[Any]]

#: Appium's app states.
NOT_INSTALLED, NOT_RUNNING, BACKGROUND, FOREGROUND = 0, 1, 3, 4
#: How far a ``mobile: swipe`` moves the finger, as a fraction of the screen, through its centre.
SWIPE_REACH: Final = 0.6


def _string(params: Params, *keys: str) -> str:
    for key in keys:
        value = params.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    raise WebDriverError(INVALID_ARGUMENT, f"this command needs {' or '.join(keys)}")


def _number(params: Params, key: str, default: Any, *, integer: bool = False) -> Any:
    """``params[key]`` when it is a number (an integer with ``integer``), ``default`` when absent; else
    ``invalid argument`` (a wrong type is never silently replaced by the default)."""
    value = params.get(key, default)
    kinds = (int,) if integer else (int, float)
    if value is None or isinstance(value, bool) or not isinstance(value, kinds):
        kind = "an integer" if integer else "a number"
        raise WebDriverError(INVALID_ARGUMENT, f"{key} must be {kind}, got {str(value)[:40]!r}")
    return value


def _app(params: Params) -> str:
    return _string(params, "appId", "bundleId", "appPackage")


async def _launch(s: WebDriverSession, p: Params) -> None:
    locale, timezone = (_string(p, name) if p.get(name) is not None else None for name in ("locale", "timezone"))
    await s.agent.open_app(_app(p), locale=locale, timezone=timezone)


async def _terminate(s: WebDriverSession, p: Params) -> bool:
    await s.agent.close_app(_app(p))
    return True


async def _query(s: WebDriverSession, p: Params) -> int:
    app = _app(p)
    for entry in await s.agent.list_apps():
        if entry.get("appBundleId") == app:
            return {"foreground": FOREGROUND, "background": BACKGROUND}.get(str(entry.get("state")), NOT_RUNNING)
    return NOT_INSTALLED


async def _list(s: WebDriverSession, p: Params) -> list[dict[str, Any]]:
    return await s.agent.list_apps()


async def _press(s: WebDriverSession, p: Params) -> None:
    await s.agent.press(_string(p, "name", "button"))


async def _scroll(s: WebDriverSession, p: Params) -> dict[str, Any]:
    target = p.get("target")
    result = await s.agent.scroll(
        _string(p, "direction"), target if isinstance(target, str) else None, amount=_number(p, "amount", 0.6)
    )
    return {k: result.data.get(k) for k in ("distance", "atEnd")}


async def _find(s: WebDriverSession, p: Params) -> dict[str, Any]:
    direction = p.get("direction", "down")
    result = await s.agent.find(
        _string(p, "selector"),
        direction=direction if isinstance(direction, str) else "down",
        **({"max_scrolls": _number(p, "maxScrolls", 0, integer=True)} if "maxScrolls" in p else {}),
    )
    return {k: result.data.get(k) for k in ("line", "ref", "scrolls", "distance")}


async def _swipe(s: WebDriverSession, p: Params) -> None:
    direction = _string(p, "direction").lower()
    dx, dy = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}.get(direction, (None, None))
    if dx is None or dy is None:
        raise WebDriverError(INVALID_ARGUMENT, f"swipe direction must be up, down, left or right, got {direction!r}")
    vp = await s.window_rect()
    cx, cy = vp["x"] + vp["width"] / 2, vp["y"] + vp["height"] / 2
    hx, hy = dx * SWIPE_REACH * vp["width"] / 2, dy * SWIPE_REACH * vp["height"] / 2
    await s.agent.swipe(cx - hx, cy - hy, cx + hx, cy + hy, duration_ms=200)


async def _deep_link(s: WebDriverSession, p: Params) -> None:
    await s.agent.open_url(_string(p, "url"))


async def _wait(s: WebDriverSession, p: Params) -> str:
    result = await s.agent.wait(
        _string(p, "selector"), gone=bool(p.get("gone", False)), timeout_ms=_number(p, "timeoutMs", 5000)
    )
    return str(result.data.get("message", ""))


async def _select(s: WebDriverSession, p: Params) -> str:
    options = p.get("options")
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        raise WebDriverError(INVALID_ARGUMENT, 'options must be a list of strings, e.g. {"options": ["Delete"]}')
    result = await s.agent.select(_string(p, "target"), options, add=bool(p.get("add", False)))
    return str(result.data.get("message", ""))


def _refuse_name(name: str, why: str) -> WebDriverError:
    return WebDriverError(
        INVALID_ARGUMENT,
        f'{name!r} {why}; name a file relative to the server\'s files directory, e.g. "run-1" or "run-1.mp4" '
        "(the reply says where it went; the server's --files-dir sets that directory)",
    )


def _encodable(name: str) -> bool:
    """A name the file system can take (a lone surrogate cannot be encoded: the OS call would raise, not refuse)."""
    try:
        os.fsencode(name)
    except UnicodeEncodeError:
        return False
    return True


def confined(files_dir: Path, name: str, *, new_file: bool) -> Path:
    """``name`` inside ``files_dir`` (created 0700 when missing): a relative name without ``..``, no symlink on
    the way, and (``new_file``) nothing there yet.  The client never picks a path outside the directory."""
    if "\0" in name or len(name) > 255 or not _encodable(name):
        raise _refuse_name(name[:80], "is not a file name")
    relative = Path(name)
    if relative.is_absolute() or name.startswith("~"):
        raise _refuse_name(name, "is an absolute path")
    if any(part == ".." for part in relative.parts) or not relative.parts:
        raise _refuse_name(name, "leaves the files directory")
    from phonewire.runtime import NotPrivateError, make_private_dir

    try:
        make_private_dir(str(files_dir))
    except NotPrivateError as exc:
        raise WebDriverError(INVALID_ARGUMENT, f"the server's files directory is refused: {exc}") from exc
    path = files_dir
    for part in relative.parts:
        path = path / part
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise _refuse_name(name, f"cannot be used ({exc.strerror})") from exc
        if stat.S_ISLNK(st.st_mode):
            raise _refuse_name(name, "goes through a symlink")
        if new_file and path == files_dir / relative:
            raise _refuse_name(name, "exists already (a video is never written over a file)")
    return path


async def _trace_start(s: WebDriverSession, p: Params) -> str:
    directory = confined(s.files_dir, _string(p, "dir"), new_file=False)
    return str((await s.agent.trace_start(str(directory))).data.get("message", ""))


async def _trace_stop(s: WebDriverSession, p: Params) -> str:
    return str((await s.agent.trace_stop()).data.get("message", ""))


async def _logs(s: WebDriverSession, p: Params) -> Any:
    return (await s.agent.logs()).data.get("entries", [])


async def _network(s: WebDriverSession, p: Params) -> Any:
    status = p.get("status")
    if status is not None and (isinstance(status, bool) or not isinstance(status, int)):
        raise WebDriverError(INVALID_ARGUMENT, 'status must be an integer HTTP status, e.g. {"status": 404}')
    url = p.get("url")
    return (await s.agent.network(url if isinstance(url, str) else None, status=status)).data.get("requests", [])


async def _record_start(s: WebDriverSession, p: Params) -> str:
    file = confined(s.files_dir, _string(p, "file"), new_file=True)
    file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    return str((await s.agent.record_start(str(file))).data.get("message", ""))


async def _record_stop(s: WebDriverSession, p: Params) -> str:
    return str((await s.agent.record_stop()).data.get("message", ""))


async def _select_text(s: WebDriverSession, p: Params) -> str:
    start, end = p.get("from", p.get("start")), p.get("to", p.get("end"))
    for name, value in (("from", start), ("to", end)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise WebDriverError(INVALID_ARGUMENT, f"{name} must be an integer character offset")
    result = await s.agent.select_text(
        _string(p, "target"), word=bool(p.get("word", False)), all=bool(p.get("all", False)), start=start, end=end
    )
    return str(result.data.get("selected", ""))


async def _get_clipboard(s: WebDriverSession, p: Params) -> str:
    text = str((await s.agent.clipboard_get()).data.get("text", ""))
    return base64.b64encode(text.encode()).decode("ascii")


async def _set_clipboard(s: WebDriverSession, p: Params) -> None:
    kind = p.get("contentType", "plaintext")
    if kind != "plaintext":
        raise WebDriverError(UNSUPPORTED_OPERATION, f"contentType {kind!r}: the phone's clipboard takes plaintext")
    try:
        text = base64.b64decode(_string(p, "content"), validate=True).decode()
    except (binascii.Error, UnicodeDecodeError) as exc:
        raise WebDriverError(INVALID_ARGUMENT, "content must be base64 of UTF-8 text") from exc
    await s.agent.clipboard_set(text)


async def _set_geolocation(s: WebDriverSession, p: Params) -> str:
    accuracy = p.get("accuracy")
    result = await s.agent.location(
        _number(p, "latitude", None), _number(p, "longitude", None),
        accuracy=None if accuracy is None else _number(p, "accuracy", None),
    )  # fmt: skip
    return str(result.data.get("message", ""))


async def _reset_geolocation(s: WebDriverSession, p: Params) -> str:
    return str((await s.agent.location_off()).data.get("message", ""))


async def _set_connectivity(s: WebDriverSession, p: Params) -> str:
    mode = p.get("mode")
    if not isinstance(mode, str):  # Appium's shape: offline when airplane mode is on, or wifi and data are off
        off = p.get("airplaneMode") is True or (p.get("wifi") is False and p.get("data") is False)
        mode = "offline" if off else "online"
    return str((await s.agent.connectivity(mode)).data.get("message", ""))


async def _hide_keyboard(s: WebDriverSession, p: Params) -> str:
    return str((await s.agent.keyboard_hide()).data.get("message", ""))


async def _set_appearance(s: WebDriverSession, p: Params) -> str:
    return str((await s.agent.appearance(_string(p, "style", "appearance"))).data.get("message", ""))


async def _change_permissions(s: WebDriverSession, p: Params) -> str:
    names = p.get("permissions")
    names = [names] if isinstance(names, str) else names
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise WebDriverError(INVALID_ARGUMENT, 'permissions must be a list of names, e.g. ["geolocation"]')
    action = {"revoke": "deny"}.get(str(p.get("action", "grant")), str(p.get("action", "grant")))
    return str((await s.agent.permissions(action, names)).data.get("message", ""))


async def _pick_file(s: WebDriverSession, p: Params) -> str:
    names = p.get("files")
    names = [names] if isinstance(names, str) else names
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        raise WebDriverError(INVALID_ARGUMENT, 'files must be a list of file names, e.g. ["photo.png"]')
    files = [str(confined(s.files_dir, n, new_file=False)) for n in names]
    return str((await s.agent.pick_file(files)).data.get("message", ""))


async def _pinch(s: WebDriverSession, p: Params) -> str:
    scale, duration = _number(p, "scale", 2.0), _number(p, "durationMs", 300)
    return str((await s.agent.pinch(_string(p, "target"), scale=scale, duration_ms=duration)).data.get("message", ""))


async def _flow_run(s: WebDriverSession, p: Params) -> Any:
    from phonewire.agent import flow_run

    file = confined(s.files_dir, _string(p, "file"), new_file=False)
    env = p.get("env")
    if env is not None and (not isinstance(env, list) or not all(isinstance(v, str) for v in env)):
        raise WebDriverError(INVALID_ARGUMENT, "mobile: flowRun's env is a list of NAME=VALUE strings")
    return (await flow_run.run(s.agent, s.agent.flow_eyes(), str(file), env, confine=True)).data.get("steps", [])


@dataclass(frozen=True, slots=True)
class Command:
    """One ``mobile:`` command: its handler and the operation of the table it performs (agent/operations.py)."""

    handler: Handler
    operation: str


#: The ``mobile:`` commands, each declared against the operation table (a test checks the operation is the one its
#: handler calls).
MOBILE: Final[dict[str, Command]] = {
    "launchApp": Command(_launch, "open_app"),
    "activateApp": Command(_launch, "open_app"),
    "terminateApp": Command(_terminate, "close_app"),
    "queryAppState": Command(_query, "list_apps"),
    "listApps": Command(_list, "list_apps"),
    "pressButton": Command(_press, "press"),
    "scroll": Command(_scroll, "scroll"),
    "find": Command(_find, "find"),
    "swipe": Command(_swipe, "swipe"),
    "deepLink": Command(_deep_link, "open_url"),
    "waitFor": Command(_wait, "wait"),
    "selectOptions": Command(_select, "select"),
    "traceStart": Command(_trace_start, "trace_start"),
    "traceStop": Command(_trace_stop, "trace_stop"),
    "logs": Command(_logs, "logs"),
    "network": Command(_network, "network"),
    "recordStart": Command(_record_start, "record_start"),
    "recordStop": Command(_record_stop, "record_stop"),
    "selectText": Command(_select_text, "select_text"),
    "getClipboard": Command(_get_clipboard, "clipboard_get"),
    "setClipboard": Command(_set_clipboard, "clipboard_set"),
    "setGeolocation": Command(_set_geolocation, "location"),
    "resetGeolocation": Command(_reset_geolocation, "location_off"),
    "setConnectivity": Command(_set_connectivity, "connectivity"),
    "changePermissions": Command(_change_permissions, "permissions"),
    "setAppearance": Command(_set_appearance, "appearance"),
    "pickFile": Command(_pick_file, "pick_file"),
    "pinch": Command(_pinch, "pinch"),
    "hideKeyboard": Command(_hide_keyboard, "keyboard_hide"),
    "flowRun": Command(_flow_run, "flow_run"),
}


async def run_mobile(session: WebDriverSession, name: str, params: Params) -> Any:
    command = MOBILE.get(name)
    if command is None:
        raise WebDriverError(
            UNSUPPORTED_OPERATION, f"unknown command 'mobile: {name}'; phonewire has: {', '.join(sorted(MOBILE))}"
        )
    return await command.handler(session, params)


async def execute(session: WebDriverSession, body: Mapping[str, Any]) -> Any:
    """Execute Script: ``mobile: NAME`` with its parameters; phonewire runs no other script."""
    script, args = body.get("script"), body.get("args", [])
    if not isinstance(script, str) or not isinstance(args, list):
        raise WebDriverError(INVALID_ARGUMENT, 'execute takes {"script": STRING, "args": [...]}')
    if not script.strip().startswith("mobile:"):
        raise WebDriverError(
            UNSUPPORTED_OPERATION,
            "phonewire runs no scripts; execute takes `mobile:` commands only (docs/webdriver.md lists them)",
        )
    params = args[0] if args and isinstance(args[0], dict) else {}
    return await run_mobile(session, script.strip().removeprefix("mobile:").strip(), params)
