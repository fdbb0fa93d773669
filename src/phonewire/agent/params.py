"""Parameters of the front ends' methods: declared once, validated strictly, rendered as JSON Schema.

Pure: no I/O.  The JSON-RPC bridge and the MCP server both describe each method as one or more :class:`Form`
(alternative parameter sets, e.g. ``tap`` by ``{x, y}`` or by ``{target}``); :func:`choose_form` picks the form
a request means and :func:`validate` checks it, raising ``ProtocolError(INVALID_REQUEST)`` with a hint that shows
the expected shape.  :func:`json_schema` renders a form for an MCP tool listing.

Frame strings are the PhoneAgent convention for an element's rectangle, ``{{x, y}, {w, h}}`` in screen points;
:func:`parse_frame` is strict about that form.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from phonewire.protocol.errors import INVALID_REQUEST, ProtocolError

Kind = Literal["string", "number", "integer", "boolean", "frame", "strings"]

FRAME_FORM: Final = "{{x, y}, {w, h}}"
FRAME_EXAMPLE: Final = "{{20.0, 120.0}, {350.0, 44.0}}"
_NUM: Final = r"([-+]?(?:\d+(?:\.\d*)?|\.\d+))"
_FRAME_RE: Final = re.compile(rf"\{{\s*\{{\s*{_NUM}\s*,\s*{_NUM}\s*\}}\s*,\s*\{{\s*{_NUM}\s*,\s*{_NUM}\s*\}}\s*\}}")
_JSON_TYPES: Final[dict[str, str]] = {
    "string": "string",
    "number": "number",
    "integer": "integer",
    "boolean": "boolean",
    "frame": "string",
    "strings": "array",
}


@dataclass(frozen=True, slots=True)
class Frame:
    """A rectangle in screen points, as named by a frame string."""

    x: float
    y: float
    width: float
    height: float

    @property
    def center(self) -> tuple[float, float]:
        return (self.x + self.width / 2, self.y + self.height / 2)

    def __str__(self) -> str:
        return format_frame(self.x, self.y, self.width, self.height)


def format_frame(x: float, y: float, width: float, height: float) -> str:
    """The frame string of a rectangle (one decimal, as the reference trees print them)."""
    return f"{{{{{x:.1f}, {y:.1f}}}, {{{width:.1f}, {height:.1f}}}}}"


def parse_frame(text: str, *, name: str = "coordinate") -> Frame:
    """Parse ``{{x, y}, {w, h}}`` strictly: four finite numbers, width and height not negative."""
    match = _FRAME_RE.fullmatch(text.strip())
    hint = f"Copy the frame string of an element from the tree; it looks like {FRAME_EXAMPLE} (form {FRAME_FORM})."
    if text.strip() in ("none", "frame=none"):  # copied from an element the tree marks frame=none (findings 3, E8)
        raise _placeless(f"parameter {name!r} is {text.strip()!r}, the mark of an element the tree prints frame=none")
    if match is None:
        raise ProtocolError(INVALID_REQUEST, f"parameter {name!r} is not a frame string: {text[:80]!r}", hint)
    x, y, w, h = (float(match.group(i)) for i in range(1, 5))
    if not all(math.isfinite(v) for v in (x, y, w, h)):
        raise ProtocolError(INVALID_REQUEST, f"parameter {name!r} has a non-finite number", hint)
    if w < 0 or h < 0:
        raise ProtocolError(INVALID_REQUEST, f"parameter {name!r} has a negative width or height", hint)
    if w == 0 or h == 0:
        # an element with no place on the screen (an option of a closed select): its "centre" is a point that is
        # not on it (the screen's origin, for a frame of zeros), so nothing is tapped
        raise _placeless(f"parameter {name!r} is a frame with no size ({text.strip()[:80]})")
    return Frame(x, y, w, h)


def _placeless(what: str) -> ProtocolError:
    """An element with no place on the screen (an option of a closed select): there is no point to tap."""
    return ProtocolError(
        INVALID_REQUEST,
        f"{what}: the element has no place on the screen to tap, so nothing was tapped",
        'Act on the element by its ref instead: `tap {"target": "@eN"}` (a tap on an option chooses it), or '
        '`select {"target": "@eN", "options": ["…"]}` on its select. The tree marks such elements frame=none.',
    )


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    kind: Kind
    description: str
    required: bool = False
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    default: Any = None
    #: How the CLI's usage line names its value (default: the name in capitals).
    metavar: str = ""
    #: The CLI's one-letter spelling of a boolean option (``-i``).
    short: str = ""
    #: A path phonewire writes (a trace directory, a video file): the bridge and the MCP server take it only under
    #: the places :func:`phonewire.agent.checks.output_place` allows (the CLI's user names their own paths).
    writes: bool = False
    #: Paths phonewire reads (files handed to a page's file chooser): the CLI resolves them against its working
    #: directory, as it does the paths it writes.
    reads: bool = False

    def signature(self) -> str:
        shown: str = {"frame": "frame string", "strings": "string[]"}.get(self.kind, self.kind)
        if self.choices:
            shown = "|".join(self.choices)
        return f"{self.name}: {shown}" + ("" if self.required else "?")

    def bounds(self) -> str:
        """The values a number takes, as a hint says them (``from 0.01 to 1, default 0.6``); "" for none."""
        if self.kind not in ("number", "integer") or self.minimum is None or self.maximum is None:
            return ""
        default = f", default {self.default}" if self.default is not None else ""
        return f"from {_plain(self.minimum)} to {_plain(self.maximum)}{default}"

    def check(self, value: object, where: str) -> Any:
        """The validated value (frames parsed, integral floats made ints) or INVALID_REQUEST."""
        expected = f"{where} parameter {self.name!r} must be"
        hint = f"{where} takes {{{self.signature()}}}: {self.description}"
        if self.kind in ("string", "frame"):
            if not isinstance(value, str):
                raise ProtocolError(INVALID_REQUEST, f"{expected} a string, got {_json_type(value)}", hint)
            if self.kind == "frame":
                return parse_frame(value, name=self.name)
            if self.choices and value not in self.choices:
                raise ProtocolError(
                    INVALID_REQUEST, f"{expected} one of {', '.join(self.choices)}; got {value[:40]!r}", hint
                )
            return value
        if self.kind == "strings":
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ProtocolError(INVALID_REQUEST, f"{expected} an array of strings, got {_json_type(value)}", hint)
            if self.required and not value:
                raise ProtocolError(INVALID_REQUEST, f"{expected} at least one string", hint)
            if self.maximum is not None and len(value) > self.maximum:
                raise ProtocolError(INVALID_REQUEST, f"{expected} at most {_plain(self.maximum)} strings", hint)
            return list(value)
        if self.kind == "boolean":
            if not isinstance(value, bool):
                raise ProtocolError(INVALID_REQUEST, f"{expected} true or false, got {_json_type(value)}", hint)
            return value
        # number / integer
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ProtocolError(INVALID_REQUEST, f"{expected} a {self.kind}, got {_json_type(value)}", hint)
        if not math.isfinite(value):
            raise ProtocolError(INVALID_REQUEST, f"{expected} a finite number", hint)
        number: float | int = value
        if self.kind == "integer" and isinstance(value, float):
            if not value.is_integer():
                raise ProtocolError(INVALID_REQUEST, f"{expected} a whole number, got {value}", hint)
            number = int(value)
        return self._in_range(number, expected, where, hint)

    def _in_range(self, number: float, expected: str, where: str, hint: str) -> float:
        """``number`` when it lies within the bounds; else INVALID_REQUEST whose hint says them."""
        if self.bounds():
            hint = f"{where} takes {self.name} {self.bounds()}: {self.description}"
        if self.minimum is not None and number < self.minimum:
            raise ProtocolError(
                INVALID_REQUEST, f"{expected} at least {_plain(self.minimum)}, got {_shown(number)}", hint
            )
        if self.maximum is not None and number > self.maximum:
            raise ProtocolError(
                INVALID_REQUEST, f"{expected} at most {_plain(self.maximum)}, got {_shown(number)}", hint
            )
        return number

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": _JSON_TYPES[self.kind], "description": self.description}
        if self.kind == "frame":
            out["description"] = f"{self.description} Form {FRAME_FORM}, e.g. {FRAME_EXAMPLE}."
        if self.kind == "strings":
            out["items"] = {"type": "string"}
            if self.required:
                out["minItems"] = 1
            if self.maximum is not None:
                out["maxItems"] = int(self.maximum)
            if self.default is not None:
                out["default"] = self.default
            return out
        if self.choices:
            out["enum"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.default is not None:
            out["default"] = self.default
        return out


@dataclass(frozen=True, slots=True)
class Form:
    """One accepted parameter set of a method."""

    params: tuple[Param, ...]

    @property
    def names(self) -> frozenset[str]:
        return frozenset(p.name for p in self.params)

    @property
    def required(self) -> frozenset[str]:
        return frozenset(p.name for p in self.params if p.required)

    def signature(self) -> str:
        return "{" + ", ".join(p.signature() for p in self.params) + "}"

    def example(self) -> str:
        """A JSON-ish example of the required part, for hints."""
        parts = []
        for p in self.params:
            if p.required:
                sample = {"string": '"…"', "frame": f'"{FRAME_EXAMPLE}"', "boolean": "true", "strings": '["…"]'}.get(
                    p.kind, "0"
                )
                if p.choices:
                    sample = f'"{p.choices[0]}"'
                parts.append(f'"{p.name}": {sample}')
        return "{" + ", ".join(parts) + "}"


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _shown(v: float) -> str:
    """A number as a message shows it: ``1e+308``, never its 309 digits."""
    return f"{v:.6g}" if abs(v) >= 1e15 else str(v)


def _plain(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else str(v)


def forms_hint(where: str, forms: tuple[Form, ...]) -> str:
    if len(forms) == 1:
        return f"{where} takes {forms[0].signature()}, e.g. {forms[0].example()}."
    shapes = " or ".join(f.signature() for f in forms)
    return f"{where} takes {shapes}."


def choose_form(where: str, forms: tuple[Form, ...], raw: Mapping[str, Any]) -> int:
    """Index of the form that ``raw`` means; INVALID_REQUEST naming the first problem otherwise.

    A form fits when every given name belongs to it and all its required names are given.  When none fits, the
    error is about the closest form: one that knows every given name (then a required one is missing), else the
    unknown name."""
    given = {k for k, v in raw.items() if v is not None}
    for i, form in enumerate(forms):
        if given <= form.names and form.required <= given:
            return i
    known = frozenset().union(*(f.names for f in forms))
    unknown = sorted(given - known)
    hint = forms_hint(where, forms)
    if unknown:
        raise ProtocolError(INVALID_REQUEST, f"{where} has no parameter {unknown[0]!r}", hint)
    for form in forms:
        if given <= form.names:
            missing = sorted(form.required - given)
            raise ProtocolError(INVALID_REQUEST, f"{where} needs parameter {missing[0]!r}", hint)
    raise ProtocolError(INVALID_REQUEST, f"{where} got a mix of parameters from different forms", hint)


def validate(where: str, form: Form, raw: Mapping[str, Any]) -> dict[str, Any]:
    """Checked values of ``raw`` against ``form`` (null counts as absent; absent optional ones are omitted)."""
    out: dict[str, Any] = {}
    by_name = {p.name: p for p in form.params}
    for name, value in raw.items():
        if value is None:
            continue
        param = by_name.get(name)
        if param is None:
            raise ProtocolError(INVALID_REQUEST, f"{where} has no parameter {name!r}", forms_hint(where, (form,)))
        out[name] = param.check(value, where)
    for name in sorted(form.required - out.keys()):
        raise ProtocolError(INVALID_REQUEST, f"{where} needs parameter {name!r}", forms_hint(where, (form,)))
    return out


def parse_params(where: str, forms: tuple[Form, ...], raw: object) -> tuple[int, dict[str, Any]]:
    """Choose and validate in one step; ``raw`` may be absent (``None``) for an empty parameter object."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise ProtocolError(
            INVALID_REQUEST, f"{where} params must be a JSON object, got {_json_type(raw)}", forms_hint(where, forms)
        )
    index = choose_form(where, forms, raw)
    return index, validate(where, forms[index], raw)


def json_schema(form: Form) -> dict[str, Any]:
    """JSON Schema of one form (an MCP tool's ``inputSchema``)."""
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {p.name: p.schema() for p in form.params},
        "additionalProperties": False,
    }
    required = [p.name for p in form.params if p.required]
    if required:
        schema["required"] = required
    return schema
