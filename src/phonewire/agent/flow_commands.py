"""The Maestro commands phonewire runs, declared once, and the check of a whole flow before anything runs.  Pure.

:data:`COMMANDS` is the one list of what is supported (docs/flows.md embeds :func:`markdown_table`, and a test
checks it).  :func:`check_flow` turns a :class:`~phonewire.agent.flow_yaml.FlowFile` into :class:`Step` objects:
every command is known (else FLOW_UNSUPPORTED with its line and the list of COMMANDS), every argument has the
shape its command takes (FLOW_INVALID), every ``${NAME}`` names a variable the flow defines, ``runFlow`` files are
read and checked too (a file already being run is FLOW_UNBOUNDED: it would never end), and the most steps the
flow could take — ``repeat: times`` multiplied out, a ``while`` counted at its bound — fit :data:`MAX_FLOW_STEPS`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from phonewire.agent import flow_match as fm
from phonewire.agent.flow_yaml import MAX_FLOW_BYTES, FlowFile, RawCommand, invalid, nested_commands, parse_flow
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.request import MAX_DURATION_MS, MAX_TAPS, MAX_WAIT_MS

#: The most steps one run takes (every command run counts, those inside repeat and runFlow too).
MAX_FLOW_STEPS: Final = 10_000
#: The most times a ``repeat`` runs its commands (``times`` above it is refused; a ``while`` stops here).
MAX_REPEAT: Final = 100
#: The deepest ``runFlow`` nesting.
MAX_RUN_FLOW_DEPTH: Final = 8
#: How long a command waits for its element to show before NOT_FOUND (Maestro waits too).
LOOKUP_MS: Final = 7000
#: How long a command whose element is ``optional: true`` looks for it before going on without it.
OPTIONAL_LOOKUP_MS: Final = 1000
#: ``eraseText``'s default, as Maestro's.
ERASE_DEFAULT: Final = 50
#: ``swipe``'s default duration (ms).
SWIPE_MS: Final = 400
#: ``scrollUntilVisible``'s default timeout (ms), as Maestro's.
SCROLL_UNTIL_MS: Final = 20_000
#: ``waitForAnimationToEnd``'s default timeout (ms).
ANIMATION_MS: Final = 5000
#: The variable ``copyTextFrom`` sets (``${maestro.copiedText}``).
COPIED: Final = "maestro.copiedText"
#: Maestro's key names → phonewire's ``press`` keys.
KEYS: Final[dict[str, str]] = {
    "enter": "enter", "backspace": "delete", "delete": "delete", "home": "home", "back": "back",
    "volume up": "volumeUp", "volume down": "volumeDown", "tab": "tab", "escape": "escape", "space": "space",
    "up": "arrowUp", "down": "arrowDown", "left": "arrowLeft", "right": "arrowRight",
}  # fmt: skip
DIRECTIONS: Final = ("UP", "DOWN", "LEFT", "RIGHT")
HEADER_KEYS: Final = ("appId", "url", "name", "tags", "env")
_VAR: Final = re.compile(r"\$\{([^}]*)\}")
_NAME: Final = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class Step:
    """One command of a checked flow: ``args`` normalised (selectors parsed), ``body`` a block's commands."""

    command: str
    line: int
    file: str
    args: dict[str, Any]
    body: tuple[Step, ...] = ()
    #: The flow's variables where this step runs (a runFlow's ``env`` over its caller's).
    env: Mapping[str, str] = field(default_factory=dict)
    #: The most steps this one may take, itself and its block's.
    bound: int = 1
    #: The command's argument as written (a trace keeps it: ``trace export --maestro`` writes it back).
    raw: Any = None


@dataclass(frozen=True)
class Command:
    summary: str
    #: What the argument may be (docs/flows.md shows it).
    form: str


#: Every command phonewire runs, as Maestro spells it.  Anything else is refused, never skipped.
COMMANDS: Final[dict[str, Command]] = {
    "launchApp": Command("open the flow's app (or `appId`); `clearState: true` clears its stored data first",
                         "— \\| APP \\| {appId, clearState, stopApp}"),
    "stopApp": Command("stop the flow's app (or the one named)", "— \\| APP \\| {appId}"),
    "tapOn": Command("tap the element (or point) the selector names", "SELECTOR \\| {…selector, repeat, point}"),
    "longPressOn": Command("press and hold the element", "SELECTOR"),
    "inputText": Command("type text into the focused field", "TEXT"),
    "eraseText": Command("delete characters before the caret (default 50, at most the field's)",
                         "— \\| N \\| {charactersToErase}"),
    "pressKey": Command("press a key: " + ", ".join(k.title() for k in KEYS), "KEY"),
    "back": Command("the phone's Back button", "—"),
    "scroll": Command("scroll the screen down", "—"),
    "scrollUntilVisible": Command("scroll until the element shows (default DOWN, 20 s)",
                                  "{element, direction, timeout}"),
    "swipe": Command("swipe in a direction, between two points, or from an element",
                     "{direction} \\| {start, end} \\| {from, direction}, duration"),
    "assertVisible": Command("fail unless the element shows (waits up to 7 s)", "SELECTOR"),
    "assertNotVisible": Command("fail while the element shows (waits up to 7 s for it to go)", "SELECTOR"),
    "waitForAnimationToEnd": Command("wait until the screen holds still (default 5 s; not a failure)",
                                     "— \\| {timeout}"),
    "extendedWaitUntil": Command("wait until an element shows or is gone", "{visible \\| notVisible, timeout}"),
    "openLink": Command("open a URL as the OS would", "URL \\| {link}"),
    "runFlow": Command("run another flow file, or inline commands, maybe only `when` an element shows",
                       "FILE \\| {file \\| commands, env, when: {visible \\| notVisible \\| platform}}"),
    "repeat": Command(f"run commands `times` times or `while` a condition holds (at most {MAX_REPEAT})",
                      "{times, while: {visible \\| notVisible}, commands}"),
    "takeScreenshot": Command("write the screen as NAME.png beside the flow", "NAME \\| {path}"),
    "copyTextFrom": Command("copy an element's text onto the phone's clipboard and into ${maestro.copiedText}",
                            "SELECTOR"),
    "pasteText": Command("type the clipboard's text into the focused field", "—"),
    "setLocation": Command("the position the phone reports to apps", "{latitude, longitude}"),
}  # fmt: skip
#: Commands Maestro has and phonewire refuses with a reason of its own (not just "unsupported").
REFUSED: Final[dict[str, str]] = {
    "travel": "phonewire sets one position (setLocation), it does not move the phone along a route",
    "clearState": "phonewire clears an app's data only as it launches it: use `launchApp: {clearState: true}`",
    "runScript": "phonewire runs no JavaScript of a flow",
    "evalScript": "phonewire runs no JavaScript of a flow",
    "assertTrue": "phonewire runs no JavaScript of a flow",
}


def supported_list() -> str:
    return ", ".join(COMMANDS)


@dataclass
class _Checking:
    root: Path
    stack: tuple[str, ...]
    depth: int = 0
    #: Files a runFlow names must lie inside this folder (None: anywhere the user can read).
    jail: Path | None = None


def load_file(path: Path, shown: str) -> FlowFile:
    try:
        with path.open("rb") as f:
            data = f.read(MAX_FLOW_BYTES + 1)
    except OSError as exc:
        raise invalid(shown, None, f"cannot read it ({exc.strerror})", "Name a flow file of yours.") from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise invalid(shown, None, "it is not UTF-8 text", "A flow file is YAML text.") from exc
    return parse_flow(text, shown)


def check_flow(
    flow: FlowFile, path: Path, env: Mapping[str, str], *, confine: bool = False
) -> tuple[tuple[Step, ...], dict[str, str]]:
    """The checked steps of ``flow`` (read from ``path``) and its variables (the header's ``env`` under ``env``)."""
    for key, line in flow.header_lines.items():
        if key not in HEADER_KEYS:
            raise _unsupported(flow.name, line, f"header key {key!r}", f"Header keys: {', '.join(HEADER_KEYS)}.")
    variables = dict(_env(flow.header.get("env"), flow.name, flow.header_lines.get("env")))
    variables.update(env)
    ctx = _Checking(path.parent, (str(path.resolve()),), jail=path.parent.resolve() if confine else None)
    steps = _steps(flow.commands, flow.name, variables, ctx)
    total = sum(s.bound for s in steps)
    if total > MAX_FLOW_STEPS:
        raise ProtocolError(
            e.FLOW_UNBOUNDED,
            f"{flow.name}: it may take {total} steps, more than a run takes ({MAX_FLOW_STEPS}); nothing ran",
            "Lower repeat's times, or split the flow into several runs.",
        )
    return steps, variables


def _unsupported(name: str, line: int | None, what: str, hint: str) -> ProtocolError:
    where = f"{name}:{line}" if line else name
    return ProtocolError(e.FLOW_UNSUPPORTED, f"{where}: {what} is not supported; nothing ran", hint)


def _env(value: Any, name: str, line: int | None) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(k, str) and _NAME.match(k) for k in value):
        raise invalid(name, line, "env is a map of NAME: value", "E.g. env: {USERNAME: alice}.")
    return {k: "" if v is None else str(v).lower() if isinstance(v, bool) else str(v) for k, v in value.items()}


def _check_vars(texts: list[str], env: Mapping[str, str], name: str, line: int) -> None:
    for text in texts:
        for found in _VAR.findall(text):
            if found == COPIED:
                continue
            if not _NAME.match(found):
                raise _unsupported(name, line, f"the expression ${{{found}}}",
                                   "phonewire substitutes variables (${NAME}) and runs no JavaScript.")  # fmt: skip
            if found not in env:
                raise invalid(name, line, f"${{{found}}} is not defined",
                              "Define it in the header's env, in runFlow's env, or pass it: flow run --env "
                              f"{found}=VALUE.")  # fmt: skip


def _steps(commands: tuple[RawCommand, ...], name: str, env: Mapping[str, str], ctx: _Checking) -> tuple[Step, ...]:
    out = []
    for raw in commands:
        if raw.name in REFUSED:
            raise _unsupported(name, raw.line, f"{raw.name} ({REFUSED[raw.name]})",
                               f"Supported commands: {supported_list()}.")  # fmt: skip
        parse = _PARSERS.get(raw.name)
        if parse is None:
            raise _unsupported(name, raw.line, f"the command {raw.name!r}", f"Supported commands: {supported_list()}.")
        try:
            step = parse(raw, name, env, ctx)
        except fm.SelectorError as exc:
            if exc.unsupported:
                raise _unsupported(name, raw.line, str(exc).split(" is not supported")[0], str(exc)) from exc
            raise invalid(name, raw.line, f"{raw.name}: {exc}", "See docs/flows.md for the command's form.") from exc
        _check_vars(_strings(step.args), env, name, raw.line)
        out.append(step)
    return tuple(out)


def _strings(args: Mapping[str, Any]) -> list[str]:
    out: list[str] = []
    for v in args.values():
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, fm.Selector):
            out += v.strings()
    return out


# -- the parsers, one per command ------------------------------------------------------------------------------------
Parser = Callable[[RawCommand, str, Mapping[str, str], _Checking], Step]


def _bad(raw: RawCommand, name: str, message: str) -> ProtocolError:
    return invalid(name, raw.line, f"{raw.name}: {message}", f"{raw.name} takes {COMMANDS[raw.name].form}".replace(
        "\\|", "|") + " (docs/flows.md).")  # fmt: skip


def _keys(raw: RawCommand, name: str, allowed: tuple[str, ...]) -> dict[str, Any]:
    arg = raw.arg if isinstance(raw.arg, dict) else {}
    for key in arg:
        if key not in allowed and key != "label":
            raise _unsupported(name, raw.line, f"{raw.name}'s option {key!r}", f"Its options: {', '.join(allowed)}.")
    return dict(arg)


def _number(raw: RawCommand, name: str, value: Any, what: str, bounds: tuple[float, float]) -> float:
    low, high = bounds
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise _bad(raw, name, f"{what} must be a number from {low:g} to {high:g}, got {value!r}")
    return float(value)


def _text(raw: RawCommand, name: str, value: Any, what: str) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise _bad(raw, name, f"{what} must be a text, got {value!r}")
    return str(value)


def _step(raw: RawCommand, name: str, env: Mapping[str, str], **args: Any) -> Step:
    return Step(raw.name, raw.line, name, args, env=env, raw=raw.arg)


def _selector_command(raw: RawCommand, name: str, env: Mapping[str, str], _ctx: _Checking) -> Step:
    if raw.arg is None:
        raise _bad(raw, name, "it needs a selector")
    extra = ("repeat", "delay", "retryTapIfNoChange", "waitToSettleTimeoutMs", "optional")
    options = _keys(raw, name, (*fm.SELECTOR_KEYS, *extra)) if isinstance(raw.arg, dict) else {}
    sel = fm.parse_selector({k: v for k, v in raw.arg.items() if k not in extra} if isinstance(raw.arg, dict)
                            else raw.arg)  # fmt: skip
    args: dict[str, Any] = {"selector": sel, "optional": options.get("optional") is True}
    if "repeat" in options:
        args["count"] = int(_number(raw, name, options["repeat"], "repeat", (1, MAX_TAPS)))
    if raw.name != "tapOn" and sel.point is not None and raw.name not in ("longPressOn",):
        raise _bad(raw, name, "point names no element")
    return _step(raw, name, env, **args)


def _app(raw: RawCommand, name: str, env: Mapping[str, str], _ctx: _Checking) -> Step:
    if raw.arg is None:
        return _step(raw, name, env)
    if isinstance(raw.arg, str):
        return _step(raw, name, env, appId=raw.arg)
    options = _keys(raw, name, ("appId", "clearState", "stopApp") if raw.name == "launchApp" else ("appId",))
    args: dict[str, Any] = {}
    if "appId" in options:
        args["appId"] = _text(raw, name, options["appId"], "appId")
    for flag in ("clearState", "stopApp"):
        if flag in options:
            if not isinstance(options[flag], bool):
                raise _bad(raw, name, f"{flag} takes true or false")
            args[flag] = options[flag]
    return _step(raw, name, env, **args)


def _input(raw: RawCommand, name: str, env: Mapping[str, str], _ctx: _Checking) -> Step:
    value = raw.arg.get("text") if isinstance(raw.arg, dict) and set(raw.arg) <= {"text", "label"} else raw.arg
    return _step(raw, name, env, text=_text(raw, name, value, "the text"))


def _erase(raw: RawCommand, name: str, env: Mapping[str, str], _ctx: _Checking) -> Step:
    value = raw.arg
    if isinstance(value, dict):
        value = _keys(raw, name, ("charactersToErase",)).get("charactersToErase", ERASE_DEFAULT)
    count = ERASE_DEFAULT if value is None else int(_number(raw, name, value, "the count", (0, 10_000)))
    return _step(raw, name, env, count=count)


def _key(raw: RawCommand, name: str, env: Mapping[str, str], _ctx: _Checking) -> Step:
    key = _text(raw, name, raw.arg, "the key")
    if key.lower() not in KEYS:
        raise _unsupported(name, raw.line, f"the key {key!r}", f"Keys: {', '.join(k.title() for k in KEYS)}.")
    return _step(raw, name, env, key=KEYS[key.lower()], keyName=key)


def _bare(raw: RawCommand, name: str, env: Mapping[str, str], _ctx: _Checking) -> Step:
    if raw.arg is not None and not (isinstance(raw.arg, dict) and set(raw.arg) <= {"label"}):
        raise _bad(raw, name, "it takes no argument")
    return _step(raw, name, env)


def _direction(raw: RawCommand, name: str, value: Any) -> str:
    d = _text(raw, name, value, "direction").upper()
    if d not in DIRECTIONS:
        raise _bad(raw, name, f"direction is one of {', '.join(DIRECTIONS)}, got {value!r}")
    return d


def _scroll_until(raw: RawCommand, name: str, env: Mapping[str, str], _ctx: _Checking) -> Step:
    if not isinstance(raw.arg, dict) or "element" not in raw.arg:
        raise _bad(raw, name, "it needs an element")
    o = _keys(raw, name, ("element", "direction", "timeout", "speed", "visibilityPercentage", "centerElement"))
    if o.get("centerElement") is True:
        raise _unsupported(name, raw.line, "scrollUntilVisible's centerElement: true", "Leave centerElement out.")
    timeout = _number(raw, name, o.get("timeout", SCROLL_UNTIL_MS), "timeout", (0, MAX_WAIT_MS))
    direction = _direction(raw, name, o.get("direction", "DOWN"))
    return _step(raw, name, env, selector=fm.parse_selector(o["element"]), direction=direction, timeout=timeout)


def _swipe(raw: RawCommand, name: str, env: Mapping[str, str], _ctx: _Checking) -> Step:
    if not isinstance(raw.arg, dict):
        raise _bad(raw, name, "it needs a direction, or start and end")
    o = _keys(raw, name, ("direction", "start", "end", "from", "duration"))
    duration = _number(raw, name, o.get("duration", SWIPE_MS), "duration", (0, MAX_DURATION_MS))
    args: dict[str, Any] = {"duration": duration}
    if "start" in o or "end" in o:
        if "start" not in o or "end" not in o or "direction" in o:
            raise _bad(raw, name, "start and end go together, without direction")
        args.update(start=_text(raw, name, o["start"], "start"), end=_text(raw, name, o["end"], "end"))
    elif "direction" in o:
        args["direction"] = _direction(raw, name, o["direction"])
        if "from" in o:
            args["selector"] = fm.parse_selector(o["from"])
    else:
        raise _bad(raw, name, "it needs a direction, or start and end")
    return _step(raw, name, env, **args)


def _assert(raw: RawCommand, name: str, env: Mapping[str, str], ctx: _Checking) -> Step:
    if raw.arg is None:
        raise _bad(raw, name, "it needs a selector")
    arg = raw.arg
    if isinstance(arg, dict):
        _keys(raw, name, (*fm.SELECTOR_KEYS, "optional"))
        arg = {k: v for k, v in arg.items() if k != "optional"}
    return _step(raw, name, env, selector=fm.parse_selector(arg), timeout=float(LOOKUP_MS))


def _animation(raw: RawCommand, name: str, env: Mapping[str, str], _ctx: _Checking) -> Step:
    o = _keys(raw, name, ("timeout",)) if isinstance(raw.arg, dict) else {}
    if raw.arg is not None and not isinstance(raw.arg, dict):
        raise _bad(raw, name, "it takes only a timeout")
    return _step(
        raw, name, env, timeout=_number(raw, name, o.get("timeout", ANIMATION_MS), "timeout", (0, MAX_WAIT_MS))
    )


def _extended_wait(raw: RawCommand, name: str, env: Mapping[str, str], _ctx: _Checking) -> Step:
    o = _keys(raw, name, ("visible", "notVisible", "timeout")) if isinstance(raw.arg, dict) else {}
    if ("visible" in o) == ("notVisible" in o):
        raise _bad(raw, name, "it needs visible or notVisible (one of them)")
    gone = "notVisible" in o
    return _step(raw, name, env, selector=fm.parse_selector(o["notVisible" if gone else "visible"]), gone=gone,
                 timeout=_number(raw, name, o.get("timeout", LOOKUP_MS), "timeout", (0, MAX_WAIT_MS)))  # fmt: skip


def _link(raw: RawCommand, name: str, env: Mapping[str, str], _ctx: _Checking) -> Step:
    value = _keys(raw, name, ("link", "autoVerify", "browser")).get("link") if isinstance(raw.arg, dict) else raw.arg
    return _step(raw, name, env, link=_text(raw, name, value, "the link"))


def _condition(raw: RawCommand, name: str, value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict) or len(value) != 1:
        raise _bad(raw, name, f"{what} is one of visible: SELECTOR, notVisible: SELECTOR" +
                   (", platform: NAME" if what == "when" else ""))  # fmt: skip
    ((key, arg),) = value.items()
    if key == "platform" and what == "when":
        return {"platform": _text(raw, name, arg, "platform")}
    if key not in ("visible", "notVisible"):
        raise _unsupported(name, raw.line, f"the condition {key!r}", "Conditions: visible, notVisible"
                           + (", platform." if what == "when" else "."))  # fmt: skip
    return {"selector": fm.parse_selector(arg), "gone": key == "notVisible"}


def _run_flow(raw: RawCommand, name: str, env: Mapping[str, str], ctx: _Checking) -> Step:
    o = _keys(raw, name, ("file", "env", "when", "commands")) if isinstance(raw.arg, dict) else {"file": raw.arg}
    if ("file" in o) == ("commands" in o):
        raise _bad(raw, name, "it takes a file or commands (one of them)")
    inner_env = {**env, **_env(o.get("env"), name, raw.line)}
    args: dict[str, Any] = {}
    if "when" in o:
        args["when"] = _condition(raw, name, o["when"], "when")
    if ctx.depth >= MAX_RUN_FLOW_DEPTH:
        raise ProtocolError(e.FLOW_UNBOUNDED, f"{name}:{raw.line}: runFlow nested deeper than {MAX_RUN_FLOW_DEPTH}; "
                            "nothing ran", "Flatten the flows.")  # fmt: skip
    if "commands" in o:
        commands = nested_commands(o["commands"], raw.line, name)
        body = _steps(commands, name, inner_env, _Checking(ctx.root, ctx.stack, ctx.depth + 1, ctx.jail))
    else:
        shown = _text(raw, name, o["file"], "file")
        path = (ctx.root / shown).resolve()
        if ctx.jail is not None and not path.is_relative_to(ctx.jail):
            raise invalid(name, raw.line, f"runFlow {shown} is outside the flow's folder", "Keep the flows together.")
        if str(path) in ctx.stack:
            raise ProtocolError(
                e.FLOW_UNBOUNDED,
                f"{name}:{raw.line}: runFlow {shown} runs a flow that is already running ({Path(ctx.stack[-1]).name} "
                "calls it again): it would never end; nothing ran",
                "A flow cannot run itself, directly or through another flow.",
            )
        sub = load_file(path, shown)
        sub_env = {**_env(sub.header.get("env"), sub.name, sub.header_lines.get("env")), **inner_env}
        inner = _Checking(path.parent, (*ctx.stack, str(path)), ctx.depth + 1, ctx.jail)
        body = _steps(sub.commands, sub.name, sub_env, inner)
        args["file"] = shown
    step = Step(raw.name, raw.line, name, args, body, env, 1 + sum(s.bound for s in body))
    return step


def _repeat(raw: RawCommand, name: str, env: Mapping[str, str], ctx: _Checking) -> Step:
    if not isinstance(raw.arg, dict) or "commands" not in raw.arg:
        raise _bad(raw, name, "it needs commands")
    o = _keys(raw, name, ("times", "while", "commands"))
    if "times" not in o and "while" not in o:
        raise _bad(raw, name, "it needs times or while")
    times = o.get("times", MAX_REPEAT)
    if isinstance(times, str) and times.isdigit():
        times = int(times)
    if isinstance(times, bool) or not isinstance(times, int) or not 0 <= times <= MAX_REPEAT:
        raise ProtocolError(e.FLOW_UNBOUNDED if isinstance(times, int) and times > MAX_REPEAT else e.FLOW_INVALID,
                            f"{name}:{raw.line}: repeat's times must be a whole number from 0 to {MAX_REPEAT}, got "
                            f"{times!r}; nothing ran", "Repeat fewer times, or split the flow.")  # fmt: skip
    args: dict[str, Any] = {"times": times, "bounded": "times" in o}
    if "while" in o:
        args["while"] = _condition(raw, name, o["while"], "while")
    body = _steps(nested_commands(o["commands"], raw.line, name), name, env, ctx)
    return Step(raw.name, raw.line, name, args, body, env, 1 + times * sum(s.bound for s in body))


def _location(raw: RawCommand, name: str, env: Mapping[str, str], _ctx: _Checking) -> Step:
    if not isinstance(raw.arg, dict):
        raise _bad(raw, name, "it needs latitude and longitude")
    o = _keys(raw, name, ("latitude", "longitude"))
    out: dict[str, float] = {}
    for key, bound in (("latitude", 90.0), ("longitude", 180.0)):
        value = o.get(key)
        try:
            out[key] = _number(raw, name, float(value) if isinstance(value, str) else value, key, (-bound, bound))
        except ValueError:
            raise _bad(raw, name, f"{key} must be a number, got {value!r}") from None
    return _step(raw, name, env, **out)


def _screenshot(raw: RawCommand, name: str, env: Mapping[str, str], _ctx: _Checking) -> Step:
    value = _keys(raw, name, ("path",)).get("path") if isinstance(raw.arg, dict) else raw.arg
    return _step(raw, name, env, path=_text(raw, name, value, "the file name"))


_PARSERS: Final[dict[str, Parser]] = {
    "launchApp": _app, "stopApp": _app, "tapOn": _selector_command, "longPressOn": _selector_command,
    "inputText": _input, "eraseText": _erase, "pressKey": _key, "back": _bare, "scroll": _bare,
    "scrollUntilVisible": _scroll_until, "swipe": _swipe, "assertVisible": _assert, "assertNotVisible": _assert,
    "waitForAnimationToEnd": _animation, "extendedWaitUntil": _extended_wait, "openLink": _link,
    "runFlow": _run_flow, "repeat": _repeat, "takeScreenshot": _screenshot, "copyTextFrom": _assert,
    "pasteText": _bare, "setLocation": _location,
}  # fmt: skip
assert set(_PARSERS) == set(COMMANDS), "every command has one parser"


def markdown_table() -> str:
    """The supported commands as docs/flows.md shows them (checked by a test)."""
    lines = ["| command | argument | does |", "| --- | --- | --- |"]
    lines += [f"| `{name}` | {c.form} | {c.summary} |" for name, c in COMMANDS.items()]
    return "\n".join(lines)


def substitute_all(value: Any, env: Mapping[str, str]) -> Any:
    """``value`` (a command's argument as written) with its variables substituted in every string."""
    if isinstance(value, str):
        return substitute(value, env)
    if isinstance(value, list):
        return [substitute_all(v, env) for v in value]
    if isinstance(value, dict):
        return {k: substitute_all(v, env) for k, v in value.items()}
    return value


def substitute(text: str, env: Mapping[str, str]) -> str:
    """``text`` with each ``${NAME}`` replaced (every name was checked up front; ${maestro.copiedText} may be
    empty: nothing copied yet)."""
    return _VAR.sub(lambda m: env.get(m.group(1), ""), text)
