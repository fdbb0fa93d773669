"""The CLI's verbs: argv parsing, execution on an :class:`AgentSession`, and output formatting.

Runs inside the daemon (the client only ships argv across the socket), so it may import what it likes.  Pure
parsing (:func:`parse_argv`) is separate from execution (:func:`execute`) so both are testable alone.

Exit codes (the client exits with them, in one place)::

    0  ok
    2  usage error: unknown verb, missing or malformed arguments, a malformed selector (INVALID_REQUEST)
    3  device or command error: any other error code (STALE_REF, NOT_FOUND, APP_NOT_AVAILABLE …)
    4  daemon failure: the daemon could not be started, reached, or answered nonsense
"""

from __future__ import annotations

import asyncio
import difflib
import math
import os
import re
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from phonewire.agent.core import AgentSession
from phonewire.agent.geometry import POINT
from phonewire.agent.imagefile import format_for_path
from phonewire.agent.operations import Operation, for_front_end
from phonewire.agent.params import Param
from phonewire.agent.results import REACTIVATED_NOTE, STATE_RESET_NOTE, ActionResult, View, stamp_fields
from phonewire.frontends.cli.grammar import FLAG_OPTIONS, VALUE_OPTIONS
from phonewire.frontends.cli.texts import cli_text
from phonewire.protocol import errors as e
from phonewire.protocol.envelope import encode_json
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.jsonlimits import loads_limited

EXIT_OK: Final = 0
EXIT_USAGE: Final = 2
EXIT_COMMAND: Final = 3
EXIT_DAEMON: Final = 4

USAGE_CODES: Final = frozenset({e.INVALID_REQUEST})

# -- the verb table --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Spec:
    usage: str
    summary: str
    min_args: int = 0
    max_args: int | None = 0  # None: any number
    flags: dict[str, str] = field(default_factory=dict)  # flag -> "bool" | "value"
    aliases: dict[str, str] = field(default_factory=dict)  # short -> long
    device: bool = True  # needs a device session
    #: The operation this verb projects (None: a CLI-only verb), and which of its parameters each option sets.
    operation: Operation | None = None
    options: dict[str, str] = field(default_factory=dict)  # flag -> the operation's parameter name


_OPS: Final = for_front_end("cli")


def _verb(name: str) -> Spec:
    """The CLI's projection of one operation, all from the table: usage and summary, the positional words (a
    ``target``, or ``find``'s selector, takes every word left over: ``find Person 150``), and each ``--option``
    checked by its parameter."""
    op = _OPS[name]
    positional = op.cli_arguments()
    variadic = any(p.name == "target" or p.kind == "strings" for p in positional) or (name == "find")
    max_args = None if variadic else len(positional) + (1 if op.cli_extra else 0)
    options = op.cli_options()
    flags = {flag: "bool" if p.kind == "boolean" else "values" if p.kind == "strings" else "value"
             for flag, p in options.items()}  # fmt: skip
    aliases = {p.short: flag for flag, p in options.items() if p.short}
    params = {flag: p.name for flag, p in options.items()}
    min_args = sum(1 for p in positional if p.required)
    return Spec(op.cli_usage, op.summary, min_args, max_args, flags, aliases, operation=op, options=params)


VERBS: Final[dict[str, Spec]] = {
    **{name: _verb(name) for name in _OPS},
    "devices": Spec("devices", "list the device kinds' devices (web profiles, attached Android devices)", device=False),
    "batch": Spec(
        "batch [FILE|-] [--strict]",
        "run JSON steps (argv arrays) and stop at the first error (--strict: "
        "also at the first action that changed nothing on screen)",
        0,
        1,
        {"--strict": "bool"},
        device=False,
    ),
    "daemon": Spec("daemon status|stop", "the background daemon", 1, 1, device=False),
}
GLOBAL_FLAGS: Final = {**dict.fromkeys(VALUE_OPTIONS, "value"), **dict.fromkeys(FLAG_OPTIONS, "bool")}

_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")
_SELECTOR_KEYS = ("id", "role", "label", "text", "value")


def usage_text() -> str:
    lines = [
        "usage: phonewire "
        + " ".join([*(f"[{o} {m}]" for o, m in VALUE_OPTIONS.items()), *(f"[{o}]" for o in FLAG_OPTIONS)])
        + " VERB ...",
        "",
        "verbs:",
    ]
    for spec in VERBS.values():
        lines.append(f"  {spec.usage:<60} {spec.summary}")
    lines += [
        f"  {'bridge [--port 45678]':<60} serve the JSON-RPC bridge",
        f"  {'mcp':<60} serve MCP over stdio",
        f"  {'webdriver [--host 127.0.0.1] [--port 4723]':<60} serve W3C WebDriver (Appium clients, Selenium Grid)",
        f"  {'runner --device SPEC':<60} serve the wire protocol for one device",
        f"  {'trace view DIR [-o FILE]':<60} write a trace's report: one self-contained HTML file",
        f"  {'trace export DIR --pytest FILE':<60} write a pytest module that replays a trace",
        f"  {'trace export DIR --maestro FILE':<60} write a Maestro flow that replays a trace (flow run, Maestro)",
        "",
        "TARGET is @eN (a ref from the last snapshot), X Y (a point), or a selector such as",
        "'role=Button label=\"Sign in\"' (see docs/cli.md).  Exit codes: 0 ok, 2 usage, 3 device/command, 4 daemon.",
    ]
    return "\n".join(lines)


def verb_help(words: list[str]) -> str | None:
    """One verb's help (``phonewire scroll --help``, ``phonewire help scroll``): its usage line, its summary and
    each of its words and options as the operation table declares them; None for a word that is no verb."""
    plain = [w for w in words if not w.startswith("-")]
    spec = VERBS.get(" ".join(plain[:2])) or VERBS.get(plain[0]) if plain else None
    if spec is None:
        return None
    lines = [f"usage: phonewire {spec.usage}", "", spec.summary]
    op = spec.operation
    if op is not None:
        lines += _param_lines("arguments", [(_metavar(p), p) for p in op.cli_arguments()])
        options = op.cli_options().items()
        lines += _param_lines("options", [(p.short or flag if p.kind == "boolean" else f"{flag} {_metavar(p)}", p)
                                          for flag, p in options])  # fmt: skip
    return "\n".join(lines)


def _metavar(p: Param) -> str:
    return "|".join(p.choices) if p.choices and not p.required else p.metavar or p.name.upper()


def _param_lines(title: str, params: list[tuple[str, Param]]) -> list[str]:
    lines = ["", f"{title}:"] if params else []
    for word, p in params:
        facts = [p.description]
        if p.choices:
            facts.append(f"One of {', '.join(p.choices)}.")
        if p.bounds():
            facts.append(p.bounds().capitalize() + ".")
        elif p.default is not None and p.kind != "boolean":
            facts.append(f"Default {p.default}.")
        lines.append(f"  {word:<16} {' '.join(facts)}")
    return lines


class UsageError(ProtocolError):
    def __init__(self, message: str, usage: str | None = None, said: str | None = None) -> None:
        hint = f"usage: phonewire {usage}" if usage else "Run `phonewire help` for the verbs."
        if said:  # what the word takes, before the usage line
            hint = f"{said}; {hint}"
        super().__init__(e.INVALID_REQUEST, message, hint)


@dataclass
class Invocation:
    verb: str
    args: list[str]
    flags: dict[str, Any]
    device: str | None = None
    session: str = "default"
    json: bool = False
    runner: str | None = None
    #: ``--trace DIR``: record this session's operations from this call on (DIR as the caller wrote it).
    trace: str | None = None
    #: The calling client's PHONEWIRE_RUNNER_TOKEN, for attaching to a runner that has no token file.
    runner_token: str | None = None
    #: ``--quiet``: an action's ok line without its diff under it.
    quiet: bool = False


def _store(into: dict[str, Any], name: str, value: Any, *, many: bool) -> None:
    """An option's value; a list option adds one each time it is given (``--env A=1 --env B=2``)."""
    if many:
        into.setdefault(name, []).append(value)
    else:
        into[name] = value


def unknown_verb(verb: str) -> UsageError:
    """The refusal of a verb the CLI has not got, naming the one meant where it is plain: the same letters without
    dashes or underscores (``long-press``: ``longpress``), or one a typo away (``snapshto``)."""
    squashed = verb.replace("-", "").replace("_", "").lower()
    meant = [v for v in VERBS if v.replace(" ", "") == squashed]
    meant = meant or difflib.get_close_matches(verb, list(VERBS), 1, 0.75)
    if not meant:
        return UsageError(f"unknown verb {verb!r}")
    spec = VERBS[meant[0]]
    return UsageError(f"unknown verb {verb!r}: did you mean `{meant[0]}`?", spec.usage)


def parse_argv(argv: list[str]) -> Invocation:
    """Split argv into global options, the verb, its arguments and flags; :class:`UsageError` if malformed."""
    globals_: dict[str, Any] = {}
    verb: str | None = None
    args: list[str] = []
    flags: dict[str, Any] = {}
    i = 0
    only_args = False
    while i < len(argv):
        token = argv[i]
        i += 1
        if only_args or not token.startswith("-") or token == "-" or _NUMBER.match(token):
            if verb is None:
                verb = token
                if f"{verb} {argv[i] if i < len(argv) else ''}" in VERBS:  # a two-word verb: `trace start`
                    verb = f"{verb} {argv[i]}"
                    i += 1
                if verb not in VERBS:
                    raise unknown_verb(verb)
            else:
                args.append(token)
            continue
        if token == "--":
            only_args = True
            continue
        name, eq, inline = token.partition("=")
        spec = VERBS.get(verb) if verb else None
        if spec is not None:
            name = spec.aliases.get(name, name)
        kind = GLOBAL_FLAGS.get(name) or (spec.flags.get(name) if spec else None)
        if kind is None:
            where = f" for {verb}" if verb else ""
            raise UsageError(f"unknown option {token!r}{where}", spec.usage if spec else None)
        if kind == "bool":
            if eq:
                raise UsageError(f"{name} takes no value", spec.usage if spec else None)
            value: Any = True
        elif eq:
            value = inline
        elif i < len(argv):
            value = argv[i]
            i += 1
        else:
            raise UsageError(f"{name} needs a value", spec.usage if spec else None)
        _store(globals_ if name in GLOBAL_FLAGS else flags, name, value, many=kind == "values")
    if verb is None:
        raise UsageError("no verb given")
    spec = VERBS[verb]
    if len(args) < spec.min_args or (spec.max_args is not None and len(args) > spec.max_args):
        need = "no arguments" if spec.max_args == 0 else "more arguments" if len(args) < spec.min_args else "fewer"
        raise UsageError(f"{verb} takes {need} (got {len(args)})", spec.usage)
    return Invocation(
        verb=verb,
        args=args,
        flags=flags,
        device=globals_.get("--device"),
        session=str(globals_.get("--session") or "default"),
        json=bool(globals_.get("--json")),
        runner=globals_.get("--runner"),
        trace=globals_.get("--trace"),
        quiet=bool(globals_.get("--quiet")),
    )


#: A selector term in one shell word: key, operator, value (agent/selectors.py's grammar).
_TERM: Final = re.compile(r"([A-Za-z]+)(==|~=|<=|>=|<|>|=)(.*)", re.DOTALL)


def join_target(words: list[str]) -> str:
    """Several shell words → one target: ``X Y`` stays a point; selector words keep their spaces quoted."""
    if len(words) == 1:
        word = words[0]
        plain_text = not any(ch in word for ch in "=\"'") and "||" not in word and not POINT.match(word)
        return _quoted(word) if plain_text and any(ch.isspace() for ch in word) else word
    parts = []
    for word in words:
        if not any(ch.isspace() for ch in word):
            parts.append(word)
            continue
        term = _TERM.match(word)
        if term and term.group(1).lower() in _SELECTOR_KEYS:
            key, op, value = term.groups()
            parts.append(word if op == "~=" else f"{key}{op}{_quoted(value)}")  # a /pattern/ keeps its spaces
        else:
            parts.append(_quoted(word))
    return " ".join(parts)


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _number(text: str, what: str, usage: str) -> float:
    shown = repr(text) if len(text) <= 40 else f"{text[:20]!r}… ({len(text)} characters)"
    try:
        value = float(text)
    except ValueError:
        raise UsageError(f"{what} must be a number, got {shown}", usage) from None
    if not math.isfinite(value):
        raise UsageError(f"{what} must be a finite number, got {shown}", usage)
    return value


def option(inv: Invocation, flag: str) -> Any:
    """The value of a verb's ``--option``, checked by the operation's parameter (its limits are the table's, which
    are the protocol's); the parameter's default when the option is absent."""
    spec = VERBS[inv.verb]
    assert spec.operation is not None
    param = spec.operation.param(spec.options[flag])
    if flag not in inv.flags:
        return param.default
    raw = inv.flags[flag]
    value = _number(str(raw), flag, spec.usage) if param.kind in ("number", "integer") else raw
    try:
        return param.check(value, inv.verb)
    except ProtocolError as exc:
        said = f"{flag} takes a number {param.bounds()}" if param.bounds() else None
        raise UsageError(exc.message.replace(f"parameter {param.name!r}", flag), spec.usage, said) from None


# -- execution ---------------------------------------------------------------------------------------------------


@dataclass
class Outcome:
    """What a verb produced: ``data`` for --json, ``text`` for people and agents, plus envelope stamps."""

    data: dict[str, Any]
    text: str
    warning: str | None = None
    reactivated: bool = False
    state_reset: bool = False


class Context:
    """What :func:`execute` needs from its host (the daemon, or a test)."""

    def __init__(
        self,
        session: Callable[[], Awaitable[AgentSession]],
        *,
        cwd: str = ".",
        devices: Callable[[], Awaitable[list[dict[str, Any]]]] | None = None,
        screenshot_dir: str | None = None,
    ) -> None:
        self.session = session
        self.cwd = cwd
        self.devices = devices
        self.screenshot_dir = screenshot_dir


def _action(result: ActionResult, text: str) -> Outcome:
    zoomed = result.data.get("zoomed")
    if isinstance(zoomed, dict) and zoomed.get("note"):
        text += f"; {zoomed['note']}"  # a double tap zoomed the page
    if result.data.get("changed") is False:
        text += " (nothing changed on screen)"  # the reply's `changed`: the device saw no change by the reply
    return Outcome(result.data, text, result.warning, result.reactivated, result.state_reset)


def _in_cwd(ctx: Context, path: str) -> str:
    """A path as the calling client meant it (the daemon runs elsewhere); an empty one stays empty (refused by the
    agent, never read as the working directory itself)."""
    return str(Path(ctx.cwd) / Path(path).expanduser()) if path.strip() else path


async def execute(inv: Invocation, ctx: Context) -> Outcome:
    """Run one parsed invocation (not ``batch`` / ``daemon``, which the daemon handles).  An action's text is its ok
    line with its settled diff under it (``--quiet``: the ok line alone)."""
    outcome = await _execute(inv, ctx)
    diff = outcome.data.get("diff")
    if isinstance(diff, list) and diff and not inv.quiet:
        outcome.text = "\n".join([outcome.text, *map(str, diff)])
    return outcome


async def _execute(inv: Invocation, ctx: Context) -> Outcome:
    verb, spec = inv.verb, VERBS[inv.verb]
    if verb == "devices":
        listed = await ctx.devices() if ctx.devices else []
        lines = [f"{d['device']}\t{d.get('kind', '')}\t{d.get('description', '')}".rstrip() for d in listed]
        return Outcome({"devices": listed}, "\n".join(lines))
    session = await ctx.session()
    if inv.trace:
        await session.trace_start(_in_cwd(ctx, inv.trace))
    op = spec.operation
    if op is None:
        raise UsageError(f"{verb} cannot run here", spec.usage)
    if verb == "screenshot":  # the image is written where the caller said (or into the private default folder)
        return await _screenshot(inv, ctx, session)
    kwargs = _arguments(inv, op, ctx)
    result = await getattr(session, op.method)(**kwargs)
    return _outcome(op, result, kwargs)


def _arguments(inv: Invocation, op: Operation, ctx: Context) -> dict[str, Any]:
    """The call's keyword arguments from the verb's words and ``--options``, by the table: numbers parsed, a
    parameter with choices checked (any case), a path the caller named resolved against its working directory, a
    ``target`` or selector joined from every word left over (but one for each word its followers take: ``fill
    TARGET… TEXT``; just one before a list: ``select TARGET OPTION…``)."""
    positional, usage = op.cli_arguments(), VERBS[inv.verb].usage
    kwargs: dict[str, Any] = {}
    words = list(inv.args)
    for i, p in enumerate(positional):
        if not words:
            break
        value, words = _take(p, positional[i + 1 :], words, usage)
        if p.choices and str(value).lower() not in p.choices:
            raise UsageError(f"unknown {p.name} {value!r}", usage)
        if p.reads and isinstance(value, list):
            value = [_in_cwd(ctx, v) for v in value]
        kwargs[p.name] = _in_cwd(ctx, value) if p.writes else value
    spec = VERBS[inv.verb]
    for flag in spec.options:
        value = option(inv, flag)
        if value is not None:
            kwargs[spec.options[flag]] = value
    return kwargs


def _take(p: Param, after: tuple[Param, ...], words: list[str], usage: str) -> tuple[Any, list[str]]:
    """One positional parameter's value from the words left, and the words left after it."""
    if p.kind == "strings" and not after:
        return words, []
    if p.kind in ("number", "integer"):
        number = _number(words[0], p.metavar or p.name, usage)
        return (int(number) if p.kind == "integer" and number.is_integer() else number), words[1:]
    if p.name in ("target", "selector"):
        take = 1 if any(q.kind == "strings" for q in after) else max(1, len(words) - len(after))
        return join_target(words[:take]), words[take:]
    if not after:  # the last word's text: as typed (one shell word, or all of them)
        return " ".join(words), []
    return words[0], words[1:]


def _outcome(op: Operation, result: object, kwargs: dict[str, Any]) -> Outcome:
    """A result as the CLI shows it: an action's ok line, a view's text, a list's lines, data by its declared text
    (else its JSON)."""
    if isinstance(result, ActionResult):
        return _action(result, "ok " + cli_text(op, result.data, kwargs))
    if isinstance(result, View):
        data = result.to_json()
        data["text"] = result.text
        return Outcome(data, cli_text(op, data, kwargs), state_reset=result.state_reset)
    if isinstance(result, list):  # answered under the verb's name (`apps`)
        return Outcome({op.spelling("cli"): result}, "\n".join(cli_text(op, row, {}) for row in result))
    data = result if isinstance(result, dict) else {"result": result}
    return Outcome(data, cli_text(op, data, kwargs) if op.cli_text else encode_json(data).decode())


async def _screenshot(inv: Invocation, ctx: Context, session: AgentSession) -> Outcome:
    requested = str(option(inv, "--format")) if "--format" in inv.flags else None
    fmt = format_for_path(inv.args[0], requested) if inv.args else requested or str(option(inv, "--format"))
    image = await session.screenshot(
        format=fmt, scale=option(inv, "--scale"), overlay_refs=option(inv, "--overlay-refs")
    )
    path = await asyncio.to_thread(_save, image, inv, ctx, fmt)
    return Outcome({"path": str(path), "bytes": len(image), "format": fmt}, f"ok screenshot {path}")


def _save(image: bytes, inv: Invocation, ctx: Context, fmt: str) -> Path:
    """Write the screenshot 0600, never through a symlink or into another user's file; the default folder is
    private (0700) or refused: another user may create ``/tmp/phonewire-UID-screenshots`` first, to read them."""
    from phonewire.runtime import NotPrivateError, make_private_dir, write_private_output

    if inv.args:
        path = Path(ctx.cwd) / Path(inv.args[0]).expanduser()
    else:
        folder = Path(ctx.screenshot_dir or Path(tempfile.gettempdir()) / f"phonewire-{os.getuid()}-screenshots")
        try:
            make_private_dir(str(folder), narrow=True)
        except OSError as exc:
            why = "it is another user's or open to others" if isinstance(exc, NotPrivateError) else exc.strerror
            raise ProtocolError(
                e.INVALID_REQUEST, f"cannot keep screenshots in {folder}: {why}",
                f"Pass a PATH (e.g. `screenshot shot.png`), or remove {folder}.",
            ) from exc  # fmt: skip
        stamp = time.strftime("%Y%m%d-%H%M%S") + f"-{int(time.time() * 1000) % 1000:03d}"
        path = folder / f"{inv.session}-{stamp}.{'jpg' if fmt == 'jpeg' else 'png'}"
    write_private_output(path, image, noun="PATH")
    return path.resolve()


# -- output --------------------------------------------------------------------------------------------------------


def exit_code_for(error: ProtocolError) -> int:
    return EXIT_USAGE if error.code in USAGE_CODES else EXIT_COMMAND


def render_outcome(outcome: Outcome, *, as_json: bool) -> str:
    if as_json:
        out = {
            "ok": True,
            "data": outcome.data,
            **stamp_fields(outcome.warning, outcome.reactivated, outcome.state_reset),
        }
        return encode_json(out).decode()
    lines = [f"note: {STATE_RESET_NOTE}"] if outcome.state_reset else []
    lines += [outcome.text] if outcome.text else []
    if outcome.reactivated:
        lines.append(f"note: {REACTIVATED_NOTE}")
    if outcome.warning:
        lines.append(f"warning: {outcome.warning}")
    return "\n".join(lines)


def render_error(error: ProtocolError, *, as_json: bool) -> str:
    if as_json:
        reply: dict[str, Any] = {"ok": False, "error": error.to_wire()}
        if error.state_reset:
            reply["stateReset"] = True
        return encode_json(reply).decode()
    text = f"error {error.code}: {error.message}"
    if error.hint:
        text += f"\nhint: {error.hint}"
    if error.state_reset:
        text += f"\nnote: {STATE_RESET_NOTE}"
    return text


def parse_steps(raw: str) -> list[list[str]]:
    """Batch input: a JSON array of steps, each an argv array (``["tap", "@e3"]``) or ``{"argv": [...]}``."""
    try:
        doc = loads_limited(raw, what="batch input", hint=f"usage: phonewire {VERBS['batch'].usage}")
    except ProtocolError as exc:
        raise UsageError(exc.message, VERBS["batch"].usage) from exc
    if isinstance(doc, dict) and isinstance(doc.get("steps"), list):
        doc = doc["steps"]
    if not isinstance(doc, list):
        raise UsageError("batch input must be a JSON array of steps", VERBS["batch"].usage)
    steps: list[list[str]] = []
    for n, raw_step in enumerate(doc):
        step = raw_step.get("argv") if isinstance(raw_step, dict) else raw_step
        if not isinstance(step, list) or not step or not all(isinstance(w, str | int | float) for w in step):
            raise UsageError(f'batch step {n} must be an argv array such as ["tap", "@e3"]', VERBS["batch"].usage)
        steps.append([str(w) for w in step])
    return steps
