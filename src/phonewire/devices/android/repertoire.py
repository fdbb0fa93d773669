"""The phone's repertoire on Android (issue 24), through uiautomator2's documented device API and adb: the
device clipboard (``clipboard`` / ``set_clipboard``: the agent's ``getClipboard`` / ``setClipboard`` JSON-RPC
calls), rotation (``set_orientation``: ``natural`` or ``left``, then the display re-read, so points keep mapping to
pixels), dark mode (``cmd uimode night``), and keys with modifiers (``press(keycode, meta)``: the agent's
``pressKeyCode`` with Android's meta state — ctrl+a, ctrl+c and ctrl+v select, copy and paste in a text field as a
hardware keyboard's would), an app's language on launch (``cmd locale set-app-locales``: Android 13's per-app
language, which the app keeps until it is set again; a time zone is the whole phone's, refused), and the on-screen
keyboard: the input method's window of the dump is a ``Keyboard`` node (hierarchy.py), a tap under the one the last
snapshot showed is refused (KEYBOARD_COVERS), and ``hideKeyboard`` presses back while the dump shows it, as Android's
back closes the keyboard first (unverified on a live phone: docs/android.md).  The rest of the repertoire
(selection, location, connectivity, permissions) stays the base class's UNSUPPORTED_OPERATION."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, TypeVar

from phonewire.devices.android.agent import Agent
from phonewire.devices.android.hierarchy import parse_hierarchy
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import Rect

T = TypeVar("T")

#: Android's KeyEvent key codes of the keys a combination takes, and its meta state bits.
KEYCODES: Final[dict[str, int]] = {
    **{chr(ord("a") + i): 29 + i for i in range(26)}, **{str(d): 7 + d for d in range(10)},
    "enter": 66, "backspace": 67, "tab": 61, "shiftTab": 61, "space": 62, "escape": 111, "arrowUp": 19,
    "arrowDown": 20, "arrowLeft": 21, "arrowRight": 22, "pageUp": 92, "pageDown": 93, "lineStart": 122,
    "lineEnd": 123,
}  # fmt: skip
META: Final[dict[str, int]] = {"shift": 0x1, "alt": 0x2, "ctrl": 0x1000, "meta": 0x10000}
#: ``cmd uimode night``'s argument per appearance.
_NIGHT: Final = {"light": "no", "dark": "yes"}
#: uiautomator2's orientation names.
ORIENTATION: Final = {"portrait": "natural", "landscape": "left"}


def clear_data(agent: Agent, app_id: str) -> None:
    """``pm clear`` (clearState): stops the app and deletes its data and caches, as a fresh install has them."""
    cleared = agent.shell(["pm", "clear", app_id])
    if cleared.exit_code != 0 or "Success" not in cleared.output:
        raise ProtocolError(e.COMMAND_FAILED, f"pm clear {app_id} failed: {cleared.output.strip()[:200]}",
                            "Nothing was launched; the app may be a protected system app.")  # fmt: skip


def app_locale(agent: Agent, app_id: str, locale: str | None, timezone: str | None) -> dict[str, str]:
    """Launch options before the app starts: its language (Android 13+ per-app locales); a time zone refused
    (UNSUPPORTED_OPERATION: Android has one for every app).  Either refusal comes before the app is touched."""
    if timezone is not None:
        raise ProtocolError(
            e.UNSUPPORTED_OPERATION,
            f"Android gives every app the phone's time zone; {app_id} cannot have {timezone} alone",
            "Set the phone's zone (Settings › System › Date & time; an emulator's -timezone option), then open the app "
            "without --timezone; nothing was launched.",
        )
    if locale is None:
        return {}
    answer = agent.shell(["cmd", "locale", "set-app-locales", app_id, "--locales", locale])
    if answer.exit_code != 0 or answer.output.strip():
        raise ProtocolError(
            e.UNSUPPORTED_OPERATION,
            f"this phone did not give {app_id} the language {locale}: {answer.output.strip()[:200]}",
            "Per-app languages need Android 13 or later; else change the phone's language in Settings and open the "
            "app without --locale; nothing was launched.",
        )
    return {"locale": locale}


class AndroidRepertoire:
    """What AndroidDevice adds for the repertoire (it provides the methods declared here)."""

    if TYPE_CHECKING:

        async def _run(self, work: Callable[[Agent], T]) -> T: ...

        def _read_display(self, agent: Agent) -> None: ...

        density: float
        _keyboard: Rect | None

    async def get_clipboard(self) -> dict[str, Any]:
        text = str(await self._run(lambda agent: agent.clipboard) or "")
        return {"text": text, "message": f"the clipboard holds {json.dumps(text, ensure_ascii=False)}"}

    async def set_clipboard(self, text: str) -> dict[str, Any]:
        await self._run(lambda agent: agent.set_clipboard(text))
        return {"message": f"the clipboard holds {json.dumps(text, ensure_ascii=False)}"}

    async def rotate(self, orientation: str) -> dict[str, Any]:
        def work(agent: Agent) -> None:
            agent.set_orientation(ORIENTATION[orientation])
            self._read_display(agent)  # the screen's width and height swapped: points map to the new pixels

        await self._run(work)
        return {"orientation": orientation, "message": f"rotated to {orientation}"}

    async def set_appearance(self, appearance: str) -> dict[str, Any]:
        """Dark mode on or off: ``cmd uimode night yes|no`` (Android 10+), the system setting apps follow."""
        answer = await self._run(lambda agent: agent.shell(["cmd", "uimode", "night", _NIGHT[appearance]]))
        if answer.exit_code != 0 or "Night mode:" not in answer.output:
            raise ProtocolError(
                e.UNSUPPORTED_OPERATION,
                f"this phone did not take dark mode {_NIGHT[appearance]}: {answer.output.strip()[:200]}",
                "`cmd uimode night` needs Android 10 or later.",
            )
        return {"appearance": appearance, "message": f"the phone is in {appearance} mode"}

    async def key_combo(self, app_id: str, key: str, modifiers: list[str]) -> dict[str, Any]:
        meta = sum(META[m] for m in modifiers) | (META["shift"] if key == "shiftTab" else 0)
        await self._run(lambda agent: agent.press(KEYCODES[key], meta=meta))
        return {"message": f"pressed {'+'.join([*modifiers, key])}"}

    async def hide_keyboard(self) -> dict[str, Any]:
        def work(agent: Agent) -> bool:
            if parse_hierarchy(agent.dump_hierarchy(), self.density).keyboard is None:
                return False
            agent.press("back")  # back closes the keyboard first, the app keeps its screen
            return True

        self._keyboard = None
        hidden = await self._run(work)
        return {"hidden": hidden, "message": "hid the keyboard (back)" if hidden else "no keyboard was up"}
