"""``phonewire trace export DIR --maestro FILE``: a trace as a Maestro flow that ``flow run`` replays.

The flow replays the session's successful mutating steps, in order:

* an element the agent reached is named by the trace's stable selector, turned into Maestro's: ``id=…`` →
  ``{id: …}``, ``role=… label=…`` and ``text=…`` → the text (regular-expression characters escaped, so the text
  matches itself) — never by a ref, never by coordinates where an element was known; a bare point or a swipe stays
  coordinates (``point: X, Y``), because no element was known;
* ``open`` → ``launchApp`` (the first app is the header's ``appId``, or ``url`` for a web page); ``url`` →
  ``openLink``; ``fill`` → ``tapOn`` + ``eraseText`` + ``inputText``; ``type`` → ``inputText``; ``press`` →
  ``pressKey`` / ``back``; ``scroll down`` → ``scroll``, other directions → ``swipe``; ``find`` →
  ``scrollUntilVisible``; ``wait`` → ``assertVisible`` / ``assertNotVisible`` / ``waitForAnimationToEnd``;
* a flow's own steps (``assertVisible`` … recorded by ``flow run``) are written back as they ran;
* the rest (``select``: Maestro has no such command; reads; failed steps) are comments saying why.

Every command written is Maestro's own, with its documented options, so Maestro can run the file too; text typed
into a password field becomes ``${PHONEWIRE_SECRET_N}`` (pass it with ``--env``).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from phonewire.agent import selectors
from phonewire.agent.trace import CONTROL_OPS, read_steps
from phonewire.protocol.errors import ProtocolError

_POINT: Final = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*[ ,]\s*(-?\d+(?:\.\d+)?)\s*$")
_REF: Final = re.compile(r"^@?e\d+$")
#: phonewire key → Maestro's pressKey name.
KEYS: Final = {"enter": "Enter", "return": "Enter", "delete": "Backspace", "backspace": "Backspace",
               "home": "Home", "volumeup": "Volume Up", "volumedown": "Volume Down", "tab": "Tab"}  # fmt: skip
#: The flow's own steps that ``flow run`` records under Maestro's name.
OWN: Final = ("assertVisible", "assertNotVisible", "extendedWaitUntil", "copyTextFrom")
SECRET_VAR: Final = "PHONEWIRE_SECRET_{}"


def _scalar(value: object) -> str:
    """A YAML scalar that reads back as exactly ``value`` (a JSON string is a YAML double-quoted scalar)."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int | float):
        return f"{value:g}" if isinstance(value, float) else str(value)
    return json.dumps(str(value), ensure_ascii=True)


def _yaml(value: Any, indent: int) -> list[str]:
    """``value`` as block YAML lines at ``indent`` (maps and lists of plain values)."""
    pad = " " * indent
    if isinstance(value, dict):
        out = []
        for k, v in value.items():
            if isinstance(v, dict | list) and v:
                out += [f"{pad}{_key(k)}:", *_yaml(v, indent + 2)]
            else:
                out.append(f"{pad}{_key(k)}: {_scalar(v) if not isinstance(v, dict | list) else '{}'}")
        return out
    if isinstance(value, list):
        out = []
        for v in value:
            inner = _yaml(v, indent + 2)
            out.append(f"{pad}- {inner[0].lstrip()}" if inner else f"{pad}- null")
            out += inner[1:]
        return out
    return [f"{pad}{_scalar(value)}"]


def _key(key: object) -> str:
    text = str(key)
    return text if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", text) else _scalar(text)


def _comment(text: object) -> str:
    return "# " + json.dumps(str(text), ensure_ascii=True)[1:-1]


def regex_literal(text: str) -> str:
    """``text`` as a regular expression matching exactly itself (only the characters that mean something escaped)."""
    return re.sub(r"([.^$*+?()\[\]{}|\\])", r"\\\1", text)


def maestro_selector(selector: str) -> dict[str, Any] | str | None:
    """A phonewire selector as Maestro's (None: it has no Maestro form, e.g. role= alone or alternatives)."""
    try:
        parsed = selectors.parse(selector)
    except ProtocolError:
        return None
    if len(parsed.alternatives) != 1:
        return None
    out: dict[str, Any] = {}
    for term in parsed.alternatives[0]:
        if term.key == "id" and isinstance(term.value, str):
            out["id"] = regex_literal(term.value)
        elif term.key in ("label", "text") and isinstance(term.value, str):
            if "text" in out:
                return None
            out["text"] = regex_literal(term.value)
        elif term.key in ("enabled", "selected", "focused") and isinstance(term.value, bool):
            out[term.key] = term.value
        elif term.key != "role":  # a role narrows what Maestro's text already names; value= has no Maestro form
            return None
    if set(out) == {"text"}:
        return str(out["text"])
    return out or None


def _element(step: dict[str, Any]) -> tuple[dict[str, Any] | str | None, str]:
    """The Maestro selector of the element a step reached, and why not when there is none."""
    given = str((step.get("args") or {}).get("target", ""))
    found = step.get("target") or {}
    if found.get("selector"):
        sel = maestro_selector(str(found["selector"]))
        if sel is not None:
            return sel, ""
    point = _POINT.match(given)
    if point:
        return {"point": f"{float(point.group(1)):g}, {float(point.group(2)):g}"}, ""
    if given and not _REF.match(given):
        sel = maestro_selector(given)
        if sel is not None:
            return sel, ""
    return None, "the element had no selector Maestro can name"


class _Writer:
    def __init__(self) -> None:
        self.header: dict[str, Any] = {}
        self.lines: list[str] = []
        self.secrets = 0

    def command(self, name: str, arg: Any = None) -> None:
        if arg is None:
            self.lines.append(f"- {name}")
        elif isinstance(arg, dict | list):
            self.lines += [f"- {name}:", *_yaml(arg, 4)]
        else:
            self.lines.append(f"- {name}: {_scalar(arg)}")

    def note(self, n: object, text: str) -> None:
        self.lines.append(_comment(f"step {n}: {text}"))

    def step(self, step: dict[str, Any]) -> None:
        """Write one step of the trace: its operation's Maestro command(s), or a comment saying why not."""
        op, n = str(step.get("op")), step.get("n")
        given = step.get("args")
        args: dict[str, Any] = given if isinstance(given, dict) else {}
        if "error" in step:
            code = step["error"].get("code") if isinstance(step["error"], dict) else step["error"]
            return self.note(n, f"{op} failed ({code}); left out")
        if op in OWN:
            return self._own(n, op, args)
        if op in CONTROL_OPS:
            return None
        write = _BY_OP.get(op)
        if write is None:
            return self.note(n, f"{op}: no Maestro command replays it (read-only or phonewire's own); left out")
        return write(self, step, args)

    def _own(self, n: object, op: str, args: dict[str, Any]) -> None:
        written = args.get("maestro")
        if isinstance(written, dict) and len(written) == 1:
            ((name, arg),) = written.items()
            return self.command(str(name), arg)
        return self.note(n, f"{op} without its Maestro form; left out")

    def _open(self, step: dict[str, Any], args: dict[str, Any]) -> None:
        app = str(args.get("app_id", ""))
        clear = {"clearState": True} if args.get("clear_state") else {}
        if not self.header:
            self.header = {"url": app} if app.startswith(("http://", "https://")) else {"appId": app}
            return self.command("launchApp", clear or None)
        return self.command("launchApp", {"appId": app} | clear)

    def _close(self, step: dict[str, Any], args: dict[str, Any]) -> None:
        return self.command("stopApp", {"appId": args["app_id"]} if args.get("app_id") else None)

    def _touch(self, step: dict[str, Any], args: dict[str, Any]) -> None:
        """tap, long_press and fill: the element by its selector (``fill``: then eraseText and inputText)."""
        op = str(step.get("op"))
        sel, why = _element(step)
        if sel is None:
            return self.note(step.get("n"), f"{op} on {args.get('target')}: {why}; left out")
        if op == "long_press":
            return self.command("longPressOn", sel)
        count = int(args.get("count", 1) or 1)
        if count > 1:
            sel = {**sel, "repeat": count} if isinstance(sel, dict) else {"text": sel, "repeat": count}
        self.command("tapOn", sel)
        if op == "fill":
            result = step.get("result") if isinstance(step.get("result"), dict) else {}
            cleared = (result.get("data") or result).get("cleared") if isinstance(result, dict) else None
            self.command("eraseText", int(cleared) if isinstance(cleared, int) and cleared > 0 else None)
            self.command("inputText", self._text(step, args))
        return None

    def _press(self, step: dict[str, Any], args: dict[str, Any]) -> None:
        key = str(args.get("key", "")).lower()
        if key == "back":
            return self.command("back")
        if key in KEYS:
            return self.command("pressKey", KEYS[key])
        return self.note(step.get("n"), f"press {key}: Maestro has no such key; left out")

    def _swipe(self, step: dict[str, Any], args: dict[str, Any]) -> None:
        start = f"{float(args['x1']):g}, {float(args['y1']):g}"
        end = f"{float(args['x2']):g}, {float(args['y2']):g}"
        return self.command("swipe", {"start": start, "end": end, "duration": args.get("duration_ms", 300)})

    def _scroll(self, step: dict[str, Any], args: dict[str, Any]) -> None:
        direction = str(args.get("direction", "down")).upper()
        if direction == "DOWN" and not args.get("target"):
            return self.command("scroll")
        swipe = {"UP": "DOWN", "DOWN": "UP", "LEFT": "RIGHT", "RIGHT": "LEFT"}[direction]  # the finger's way
        return self.command("swipe", {"direction": swipe})

    def _find(self, step: dict[str, Any], args: dict[str, Any]) -> None:
        sel = maestro_selector(str(args.get("selector", "")))
        if sel is None:
            return self.note(step.get("n"), "find with a selector Maestro cannot name; left out")
        direction = str(args.get("direction", "down")).upper()
        return self.command("scrollUntilVisible", {"element": sel, "direction": direction})

    def _wait(self, step: dict[str, Any], args: dict[str, Any]) -> None:
        if args.get("idle"):
            return self.command("waitForAnimationToEnd")
        sel = maestro_selector(str(args.get("selector", "")))
        if sel is None:
            return self.note(step.get("n"), "wait with a selector Maestro cannot name; left out")
        return self.command("assertNotVisible" if args.get("gone") else "assertVisible", sel)

    def _text(self, step: dict[str, Any], args: dict[str, Any]) -> str:
        if step.get("secret"):
            self.secrets += 1
            return "${" + SECRET_VAR.format(self.secrets) + "}"
        return str(args.get("text", ""))


#: Each operation of the table that a Maestro command replays, and how it is written.
_BY_OP: Final[dict[str, Callable[[_Writer, dict[str, Any], dict[str, Any]], None]]] = {
    "open_app": _Writer._open,
    "open_url": lambda w, step, args: w.command("openLink", str(args.get("url", ""))),
    "close_app": _Writer._close,
    "tap": _Writer._touch,
    "long_press": _Writer._touch,
    "fill": _Writer._touch,
    "type": lambda w, step, args: w.command("inputText", w._text(step, args)),
    "press": _Writer._press,
    "swipe": _Writer._swipe,
    "scroll": _Writer._scroll,
    "find": _Writer._find,
    "wait": _Writer._wait,
}


def export_maestro(directory: str | Path) -> str:
    """The Maestro flow replaying the trace in ``directory``."""
    steps = read_steps(directory)
    writer = _Writer()
    for step in steps:
        writer.step(step)
    header = writer.header or {"appId": "dev.phonewire.demo"}
    names = ", ".join(SECRET_VAR.format(i + 1) for i in range(writer.secrets))
    head = [
        _comment(
            f"Replays the phonewire trace {Path(directory).name} ({len(steps)} step(s)); written by "
            "`phonewire trace export --maestro`. Run it with `phonewire flow run` (or Maestro)."
        ),
        *([_comment(f"Passwords: pass {names} with --env NAME=VALUE.")] if writer.secrets else []),
        *_yaml(header, 0),
        "---",
    ]
    return "\n".join(head + (writer.lines or ["- waitForAnimationToEnd  # nothing to replay"])) + "\n"


def write_maestro(directory: str | Path, output: str | Path) -> Path:
    from phonewire.runtime import open_private_output  # 0600, never through a symlink, never another user's file

    path = Path(output)
    fd = open_private_output(path)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(export_maestro(directory))
    return path
