"""The phone's repertoire as agent operations (issue 24): keys pressed with modifiers, text selection, the
clipboard, the on-screen keyboard, and the phone's environment — orientation, location, connectivity, permissions.
A mixin of :class:`~phonewire.agent.core.AgentSession`: each method checks its arguments before any I/O (a latitude
of 91, an unknown permission, a key combination no keyboard has: INVALID_REQUEST with a hint), then sends one wire
command.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TypeVar

from phonewire.agent.checks import invalid
from phonewire.agent.hooks import Observers, operation
from phonewire.agent.results import ActionResult, action_result
from phonewire.protocol import commands as c
from phonewire.protocol.request import MAX_ACCURACY_M, NUMBER_BOUNDS

if TYPE_CHECKING:
    from phonewire.agent.link import Link

T = TypeVar("T")

#: ``press`` key names → wire command (+ button name).
KEYS: Final[dict[str, tuple[str, str | None]]] = {
    "enter": (c.KEYBOARD_RETURN, None),
    "return": (c.KEYBOARD_RETURN, None),
    "delete": (c.KEYBOARD_DELETE, None),
    "backspace": (c.KEYBOARD_DELETE, None),
    **{name.lower(): (c.BUTTON, name) for name in c.BUTTONS},
    **{name.lower(): (c.KEY, name) for name in c.KEYS},
}
#: The names a combination may give a modifier → the wire's.
MODIFIER_NAMES: Final = {
    "ctrl": "ctrl", "control": "ctrl", "shift": "shift", "alt": "alt", "option": "alt", "meta": "meta",
    "cmd": "meta", "command": "meta",
}  # fmt: skip
#: A combination's key as written (lower case) → the wire's.
COMBO_KEY_NAMES: Final = {
    **{k.lower(): k for k in c.COMBO_KEYS}, "return": "enter", "delete": "backspace", "esc": "escape",
}  # fmt: skip
KEY_COMBO_HINT: Final = (
    "Write modifiers then one key, joined by +: ctrl+a, shift+arrowRight, meta+c, ctrl+shift+z.  Modifiers: ctrl, "
    "shift, alt, meta (cmd); keys: a letter, a digit, enter, backspace, tab, space, escape, the arrows, pageUp, "
    "pageDown, lineStart, lineEnd."
)


def parse_combo(combo: str) -> tuple[str, list[str]]:
    """``ctrl+shift+z`` → ("z", ["ctrl", "shift"]); INVALID_REQUEST naming what no keyboard has."""
    words = [w.strip().lower() for w in combo.strip().split("+")]
    if len(words) < 2:
        raise invalid(f"unknown key {combo!r}", f"Keys: {', '.join(sorted(KEYS))}; or a combination: ctrl+a.")
    if any(not w for w in words):
        raise invalid(f"unknown key combination {combo!r}", KEY_COMBO_HINT)
    *mods, key = words
    unknown = [m for m in mods if m not in MODIFIER_NAMES]
    if unknown:
        raise invalid(f"unsupported key combination {combo!r}: {unknown[0]!r} is no modifier", KEY_COMBO_HINT)
    modifiers = [MODIFIER_NAMES[m] for m in mods]
    if len(set(modifiers)) != len(modifiers):
        raise invalid(f"unsupported key combination {combo!r}: a modifier named twice", KEY_COMBO_HINT)
    if key in {b.lower() for b in c.BUTTONS}:
        raise invalid(
            f"unsupported key combination {combo!r}: {key} is one of the phone's buttons, which take no modifiers",
            f"Press it alone (`press {key}`); `press lineStart` / `lineEnd` move a text caret.",
        )
    if key not in COMBO_KEY_NAMES:
        raise invalid(f"unsupported key combination {combo!r}: {key!r} is no key a combination takes", KEY_COMBO_HINT)
    return COMBO_KEY_NAMES[key], modifiers


def _absolute(files: list[str]) -> list[str]:
    """Files as this process names them, made absolute (the runner may have another working directory)."""
    return [str(Path(f).expanduser().absolute()) if f.strip() else f for f in files]


def _choose(name: str, value: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise invalid(f"unknown {name} {value!r}", f"{name.capitalize()}: {', '.join(choices)}.")


def _check_bound(name: str, value: float, what: str) -> None:
    low, high = NUMBER_BOUNDS[name]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise invalid(f"{what} {value!r} is not between {low:g} and {high:g}", _BOUND_HINTS[name])


_BOUND_HINTS: Final = {
    "latitude": "Latitude is degrees north of the equator, -90 to 90 (Paris: 48.8566); give it first, then longitude.",
    "longitude": "Longitude is degrees east of Greenwich, -180 to 180 (Paris: 2.3522).",
    "accuracy": f"The accuracy is a radius in metres, 0 to {MAX_ACCURACY_M:g} (a GPS fix outdoors: about 10).",
    "start": "Offsets count characters from 0 in the element's text.",
    "end": "Offsets count characters from 0 in the element's text.",
    "pinchScale": "Above 1 spreads the fingers (zoom in: 2 doubles their distance), below 1 pinches (0.5 halves it).",
    "durationMs": "How long the fingers move, in milliseconds (default 300).",
}


class Repertoire:
    """What AgentSession adds for the phone's repertoire (it provides the methods declared here)."""

    if TYPE_CHECKING:
        observers: Observers
        _link: Link

        async def _locked(self, fn: Callable[[], Awaitable[T]]) -> T: ...

        async def _acted(self, fn: Callable[[], Awaitable[ActionResult]]) -> ActionResult: ...

        async def resolve(self, target: str) -> tuple[float, float, dict[str, Any]]: ...

    async def press_combo(self, combo: str) -> ActionResult:
        """``press ctrl+a``: one key with modifiers held (AgentSession.press sends anything with a ``+`` here)."""
        key, modifiers = parse_combo(combo)
        return await self._acted(lambda: self._act(c.KEY, {"key": key, "modifiers": modifiers}, app=True))

    async def _act(self, command: str, fields: Mapping[str, Any], *, app: bool = False) -> ActionResult:
        return action_result(await self._link.send(command, fields, app=app))

    @operation
    async def select_text(
        self, target: str, *, word: bool = False, all: bool = False, start: int | None = None, end: int | None = None
    ) -> ActionResult:
        """Select the target's text (its whole text; ``word``: the word at the target's point; ``all``: select
        all; ``start``/``end``: those characters of its text) — a real selection the page sees."""
        ranged = start is not None or end is not None
        if sum((word, all, ranged)) > 1:
            raise invalid("select-text takes one of --word, --all or --from/--to", "Pick one way to select.")
        if ranged:
            if start is None or end is None:
                raise invalid("a range needs both --from and --to", _BOUND_HINTS["start"])
            _check_bound("start", start, "start")
            _check_bound("end", end, "end")
            if start > end:
                raise invalid(f"the range {start}–{end} ends before it starts", _BOUND_HINTS["start"])
        mode = "word" if word else "all" if all else "range" if ranged else "element"

        async def run() -> ActionResult:
            x, y, info = await self.resolve(target)
            fields: dict[str, Any] = {"x": x, "y": y, "mode": mode}
            if ranged:
                fields.update(start=start, end=end)
            return action_result(await self._link.send(c.SELECT_TEXT, fields, app=True), info)

        return await self._acted(run)

    @operation
    async def clipboard_get(self) -> ActionResult:
        """The phone's clipboard (``.data["text"]``)."""
        return await self._locked(lambda: self._act(c.GET_CLIPBOARD, {}))

    @operation
    async def clipboard_set(self, text: str) -> ActionResult:
        """Put ``text`` on the phone's clipboard (a paste in any app then pastes it)."""
        return await self._locked(lambda: self._act(c.SET_CLIPBOARD, {"text": text}))

    @operation
    async def rotate(self, orientation: str) -> ActionResult:
        _choose("orientation", orientation, c.ORIENTATIONS)
        return await self._acted(lambda: self._act(c.ROTATE, {"orientation": orientation}))

    @operation
    async def location(self, latitude: float, longitude: float, *, accuracy: float | None = None) -> ActionResult:
        """The position the phone reports to apps (the Geolocation API, the platform's location services)."""
        _check_bound("latitude", latitude, "latitude")
        _check_bound("longitude", longitude, "longitude")
        fields: dict[str, Any] = {"latitude": float(latitude), "longitude": float(longitude)}
        if accuracy is not None:
            _check_bound("accuracy", accuracy, "accuracy")
            fields["accuracy"] = float(accuracy)
        return await self._locked(lambda: self._act(c.SET_LOCATION, fields))

    @operation
    async def location_off(self) -> ActionResult:
        """Location services off: apps asking for the position get none."""
        return await self._locked(lambda: self._act(c.SET_LOCATION, {}))

    @operation
    async def appearance(self, mode: str) -> ActionResult:
        """The system's light or dark mode (a web page's ``prefers-color-scheme``)."""
        _choose("appearance", mode, c.APPEARANCES)
        return await self._acted(lambda: self._act(c.SET_APPEARANCE, {"appearance": mode}))

    @operation
    async def connectivity(self, mode: str) -> ActionResult:
        _choose("connectivity", mode, c.CONNECTIVITY)
        return await self._locked(lambda: self._act(c.SET_CONNECTIVITY, {"connectivity": mode}))

    @operation
    async def pick_file(self, files: list[str]) -> ActionResult:
        """Hand ``files`` to the file chooser the app opened (relative paths: against this process's directory)."""
        if not files:
            raise invalid("name at least one file", "pick-file PATH [PATH…]: the files to hand the chooser.")
        paths = _absolute(files)
        return await self._acted(lambda: self._act(c.PICK_FILE, {"files": paths}, app=True))

    @operation
    async def pinch(self, target: str, *, scale: float = 2.0, duration_ms: float = 300) -> ActionResult:
        """Two fingers on the target that end ``scale`` times as far apart as they start."""
        _check_bound("pinchScale", scale, "scale")
        _check_bound("durationMs", duration_ms, "duration")

        async def run() -> ActionResult:
            x, y, info = await self.resolve(target)
            fields = {"x": x, "y": y, "pinchScale": float(scale), "durationMs": float(duration_ms)}
            return action_result(await self._link.send(c.PINCH, fields, app=True), info)

        return await self._acted(run)

    @operation
    async def permissions(self, setting: str, names: list[str]) -> ActionResult:
        """Grant, deny or reset (apps ask again) permissions for the phone's apps."""
        _choose("setting", setting, c.PERMISSION_SETTINGS)
        if not names:
            raise invalid("name at least one permission", f"Permissions: {', '.join(c.PERMISSIONS)}.")
        wanted = [n.strip().lower() for n in names]
        unknown = [n for n in wanted if n not in c.PERMISSIONS]
        if unknown:
            raise invalid(f"unknown permission {unknown[0]!r}", f"Permissions: {', '.join(c.PERMISSIONS)}.")
        return await self._locked(lambda: self._act(c.SET_PERMISSIONS, {"setting": setting, "permissions": wanted}))

    @operation
    async def keyboard_hide(self) -> ActionResult:
        """Dismiss the on-screen keyboard (what is under it can be tapped again); says so when none was up."""
        return await self._acted(lambda: self._act(c.HIDE_KEYBOARD, {}))
