"""JSON read from outside, with its nesting depth bounded before it is parsed.

``json.loads`` recurses once per nesting level: 100,000 nested ``[`` raise ``RecursionError`` (or worse, run a
thread's stack out).  Every front end that reads JSON from a client reads it through :func:`loads_limited`, which
measures the depth with a flat scan first and refuses anything deeper than :data:`MAX_JSON_DEPTH` with
``ProtocolError(INVALID_REQUEST)`` and a hint; malformed JSON is refused the same way.

Pure: no I/O.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

from phonewire.protocol.errors import INVALID_REQUEST, ProtocolError

#: The longest integer read from JSON (digits): every bound phonewire has is far below 10**20; a 5000-digit number
#: is refused by its size, not by the interpreter's int-conversion limit (whose message tells the client to call
#: ``sys.set_int_max_str_digits()``, which they cannot).
MAX_INT_DIGITS: Final = 100
#: The deepest nesting any phonewire request needs is about 4 (a batch of argv arrays in an object); this
#: leaves room for clients' own structure while staying far below the interpreter's recursion limit.
MAX_JSON_DEPTH: Final = 64

# A string (escapes included) or one bracket: brackets inside strings are skipped with the string.
_TOKENS: Final = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in ``text`` (0 for a scalar), counted without recursion.

    Unbalanced or malformed input is measured as far as it goes; :func:`json.loads` reports the rest."""
    depth = deepest = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif token in "]}":
            depth -= 1
    return deepest


def bounded_int(text: str) -> int:
    """``json.loads``'s ``parse_int``: an integer of at most :data:`MAX_INT_DIGITS` digits, else INVALID_REQUEST."""
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise ProtocolError(
            INVALID_REQUEST,
            f"a number of {digits} digits; at most {MAX_INT_DIGITS} are read",
            "Send numbers within the bounds the reference gives (points, milliseconds, counts).",
        )
    return int(text)


def loads_limited(text: str | bytes, *, what: str = "request", hint: str) -> Any:
    """``json.loads(text)`` when it is JSON no deeper than :data:`MAX_JSON_DEPTH`; INVALID_REQUEST with ``hint``
    otherwise (``what`` names the input in the message: "batch input", "request line")."""
    try:
        decoded = text.decode("utf-8") if isinstance(text, bytes) else text
    except UnicodeDecodeError as exc:
        raise ProtocolError(INVALID_REQUEST, f"{what} is not UTF-8: {exc.reason}", hint) from exc
    depth = json_depth(decoded)
    if depth > MAX_JSON_DEPTH:
        raise ProtocolError(
            INVALID_REQUEST, f"{what} nests JSON {depth} levels deep; at most {MAX_JSON_DEPTH} are accepted", hint
        )
    try:
        return json.loads(decoded, parse_int=bounded_int)
    except ValueError as exc:
        raise ProtocolError(INVALID_REQUEST, f"{what} is not JSON: {exc}", hint) from exc


def top_level_id(text: str) -> str | int | None:
    """The ``"id"`` member of the JSON object ``text`` when it is a string or an integer (a JSON-RPC id), found
    without parsing the rest: a request too deep (or otherwise unreadable) past its id can still be answered by id.
    ``None`` when there is none at the top level, or it is not a plain id."""
    depth = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
        elif token in "]}":
            depth -= 1
        elif depth == 1 and token == '"id"':
            after = text[match.end() :].lstrip()
            if not after.startswith(":"):
                continue  # a value "id", not the key
            try:
                value, _ = json.JSONDecoder().raw_decode(after[1:].lstrip())
            except (ValueError, RecursionError):
                return None
            return value if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)) else None
    return None
