"""Selectors: a pure parser and matcher over snapshot nodes.  No I/O.

Grammar::

    selector    := alternative ( "||" alternative )*
    alternative := term ( WS term )*
    term        := KEY "=" VALUE | BOOLKEY | WORD
    VALUE       := WORD | '"' chars '"' | "'" chars "'"      (backslash escapes the next character)

Keys:

==========  ==========================================================================================
``id``      identifier, exact
``role``    role (``Button``, ``TextField`` …), case-insensitive
``label``   label, exact
``text``    label or value, case-insensitive substring; when some nodes match exactly, only they count
``value``   value, exact
booleans    ``visible``, ``enabled``, ``selected``, ``focused``, ``editable`` = ``true``/``false``
            (a bare boolean key means ``=true``)
==========  ==========================================================================================

A bare word (or quoted string) is ``text=WORD``.  **Words are phrases**: bare words in a row are one phrase,
``Log in`` is ``text="Log in"`` (never ``Log`` AND ``in``), and bare words after an unquoted ``text=``,
``label=`` or ``value=`` continue its value (``label=Sign in`` is ``label="Sign in"``).  Terms of one alternative
are ANDed; alternatives are tried in order and the first that matches anything decides
(``id=save || label=Save``).

Which of the matching nodes is the target, in this order:

1. the screen's root (the application) never is: its title contains half the words on screen;
2. exact text beats containing text (``text`` compares the whole label or value, case-insensitive);
3. a control beats anything else (a link named "Groups" over a table cell that says "Groups") — except a
   control whose label is borrowed (rule 5);
4. a control that matches with its own caption is one target (the control); a container that merely contains
   the words is not the target when something inside it matches (the element itself is);
5. a static text beside a control with the same label is dropped (a form label and its field are one target) —
   unless the control's label is borrowed (``nameFrom``: a checkbox named by its row's text): then the text is
   what a person reads and taps, and it is the target, not the control (``role=CheckBox`` still names the
   control).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import INTERACTIVE_ROLES, TEXT_INPUT_ROLES, Node, rect_of

STRING_KEYS: Final = ("id", "role", "label", "text", "value")
#: The screen's root roles: never a target (an application's title contains half the words on its screen).
ROOT_ROLES: Final = frozenset({"Application", "Window"})
#: Keys whose value is free text: bare words after ``key=word`` continue it.
PHRASE_KEYS: Final = frozenset({"label", "text", "value"})
BOOL_KEYS: Final = ("visible", "enabled", "selected", "focused", "editable")
_TRUE: Final = frozenset({"true", "1", "yes", "on"})
_FALSE: Final = frozenset({"false", "0", "no", "off"})

_HINT = (
    "Selector terms are key=value (keys: id, role, label, text, value, visible, enabled, selected, focused, "
    'editable), ANDed by spaces, alternatives joined by "||"; quote values with spaces: label="Sign in".'
)


@dataclass(frozen=True, slots=True)
class Term:
    key: str
    value: str | bool


@dataclass(frozen=True, slots=True)
class Selector:
    alternatives: tuple[tuple[Term, ...], ...]
    source: str


def _invalid(message: str) -> ProtocolError:
    return ProtocolError(e.INVALID_REQUEST, message, _HINT)


def _tokens(source: str) -> list[tuple[str, bool]]:
    """Split into (token, was_quoted_somewhere) words; ``||`` is its own token."""
    out: list[tuple[str, bool]] = []
    i, n = 0, len(source)
    while i < n:
        ch = source[i]
        if ch.isspace():
            i += 1
            continue
        if source.startswith("||", i):
            out.append(("||", False))
            i += 2
            continue
        buf: list[str] = []
        quoted = False
        while i < n and not source[i].isspace() and not source.startswith("||", i):
            ch = source[i]
            if ch in "\"'":
                quote = ch
                quoted = True
                i += 1
                while True:
                    if i >= n:
                        raise _invalid(f"unterminated {quote} quote in selector {source!r}")
                    ch = source[i]
                    if ch == "\\" and i + 1 < n:
                        buf.append(source[i + 1])
                        i += 2
                    elif ch == quote:
                        i += 1
                        break
                    else:
                        buf.append(ch)
                        i += 1
            elif ch == "\\" and i + 1 < n:
                buf.append(source[i + 1])
                i += 2
            else:
                buf.append(ch)
                i += 1
        out.append(("".join(buf), quoted))
    return out


def parse(source: str) -> Selector:
    """Parse a selector; INVALID_REQUEST with a hint for anything malformed."""
    if not source or not source.strip():
        raise _invalid("empty selector")
    alternatives: list[tuple[Term, ...]] = []
    current: list[Term] = []
    extendable = False  # the last term is a phrase the next bare word continues
    for raw in _raw_words(source):
        if raw == "||":
            if not current:
                raise _invalid(f"empty alternative in selector {source!r}")
            alternatives.append(tuple(current))
            current, extendable = [], False
            continue
        term = _term(raw, source)
        bare = _unquoted_eq(raw) < 0 and term.key == "text"
        if bare and extendable and current:
            last = current[-1]
            current[-1] = Term(last.key, f"{last.value} {term.value}")
            extendable = not _quoted(raw)
            continue
        current.append(term)
        extendable = term.key in PHRASE_KEYS and isinstance(term.value, str) and not _quoted(raw)
    if not current:
        raise _invalid(f"empty alternative in selector {source!r}")
    alternatives.append(tuple(current))
    return Selector(tuple(alternatives), source)


def _quoted(raw: str) -> bool:
    """Whether a raw word carries a quote (the user said where the value ends)."""
    return '"' in raw or "'" in raw


def _raw_words(source: str) -> list[str]:
    """Words with their quotes kept (so ``label="a=b"`` splits on the first *unquoted* ``=``)."""
    words: list[str] = []
    i, n = 0, len(source)
    while i < n:
        if source[i].isspace():
            i += 1
            continue
        if source.startswith("||", i):
            words.append("||")
            i += 2
            continue
        start = i
        while i < n and not source[i].isspace() and not source.startswith("||", i):
            if source[i] == "\\":
                i += 2
                continue
            if source[i] in "\"'":
                quote = source[i]
                i += 1
                while i < n and source[i] != quote:
                    i += 2 if source[i] == "\\" else 1
                if i >= n:
                    raise _invalid(f"unterminated {quote} quote in selector {source!r}")
            i += 1
        words.append(source[start:i])
    return words


def _unquote(raw: str, source: str) -> str:
    tokens = _tokens(raw)
    if len(tokens) != 1:
        raise _invalid(f"cannot read {raw!r} in selector {source!r}")
    return tokens[0][0]


def _term(raw: str, source: str) -> Term:
    eq = _unquoted_eq(raw)
    if eq < 0:
        word = _unquote(raw, source)
        if raw == word and word.lower() in BOOL_KEYS:
            return Term(word.lower(), True)
        return Term("text", word)
    key = raw[:eq].strip().lower()
    value = _unquote(raw[eq + 1 :], source) if raw[eq + 1 :] else ""
    if key in BOOL_KEYS:
        lowered = value.lower()
        if lowered in _TRUE:
            return Term(key, True)
        if lowered in _FALSE:
            return Term(key, False)
        raise _invalid(f"{key} takes true or false, got {value!r}")
    if key not in STRING_KEYS:
        raise _invalid(f"unknown selector key {key!r}")
    if value == "":
        raise _invalid(f"{key}= needs a value")
    return Term(key, value)


def _unquoted_eq(raw: str) -> int:
    i, n = 0, len(raw)
    while i < n:
        ch = raw[i]
        if ch == "\\":
            i += 2
            continue
        if ch in "\"'":
            return -1  # a quote before any '=': the whole word is a (quoted) text
        if ch == "=":
            return i
        i += 1
    return -1


# --- matching -----------------------------------------------------------------------------------------------


def _is_visible(node: Node) -> bool:
    r = rect_of(node)
    return float(r.get("width", 0)) > 0 and float(r.get("height", 0)) > 0


def _bool_of(node: Node, key: str) -> bool:
    if key == "visible":
        return _is_visible(node)
    if key == "enabled":
        return node.get("enabled") is not False
    if key == "editable":
        return node.get("type") in TEXT_INPUT_ROLES and node.get("enabled") is not False
    return bool(node.get(key))


def _term_matches(node: Node, term: Term) -> bool:
    if isinstance(term.value, bool):
        return _bool_of(node, term.key) is term.value
    want = term.value
    if term.key == "id":
        return node.get("identifier") == want
    if term.key == "role":
        return str(node.get("type") or "").lower() == want.lower()
    if term.key == "label":
        return node.get("label") == want
    if term.key == "value":
        return node.get("value") == want
    # text: case-insensitive substring of label or value
    low = want.lower()
    return any(low in str(t).lower() for t in (node.get("label"), node.get("value")) if t)


def _text_exact(node: Node, terms: tuple[Term, ...]) -> bool:
    for term in terms:
        if term.key == "text" and isinstance(term.value, str):
            low = term.value.lower()
            if not any(str(t).lower() == low for t in (node.get("label"), node.get("value")) if t):
                return False
    return True


def _has_ancestor_in(node: Node, chosen: set[int], parents: dict[int, Any]) -> bool:
    parent = node.get("parentIndex")
    seen: set[int] = set()
    while parent is not None and parent not in seen:
        if parent in chosen:
            return True
        seen.add(parent)
        parent = parents.get(parent, _MISSING)
        if parent is _MISSING:
            return False
    return False


_MISSING: Final = object()


def match(selector: Selector, nodes: Sequence[Node], *, prefer: Callable[[Node], bool] | None = None) -> list[Node]:
    """The nodes the first matching alternative selects, by the rules of the module docstring.  ``prefer``: when
    some matches satisfy it, only those count, before anything else is decided (``fill`` prefers text fields, so
    a group that bears the field's name does not hide the field)."""
    all_parents = {int(n["index"]): n.get("parentIndex") for n in nodes}
    for terms in selector.alternatives:
        found = [n for n in nodes if n.get("type") not in ROOT_ROLES and all(_term_matches(n, t) for t in terms)]
        if not found:
            continue
        if prefer is not None and any(prefer(n) for n in found):
            found = [n for n in found if prefer(n)]
        if any(t.key == "text" for t in terms):
            exact = [n for n in found if _text_exact(n, terms)]
            if exact:
                found = exact
        texts = {n.get("label") for n in found if n.get("type") == "StaticText"}
        found = [n for n in found if not (n.get("nameFrom") and _is_control(n) and n.get("label") in texts)]
        controls = [n for n in found if _is_control(n)]
        if controls:
            found = controls
        chosen = {int(n["index"]) for n in found}
        if controls:  # a control and its own caption (or a nested control) are one target: the outer control
            found = [n for n in found if not _has_ancestor_in(n, chosen, all_parents)]
        else:  # a container holding the words is not the target when something inside it matches
            inner_parents = {
                p for n in found for p in _ancestors(n, all_parents) if p in chosen and p != int(n["index"])
            }
            found = [n for n in found if int(n["index"]) not in inner_parents]
        control_labels = {n.get("label") for n in found if n.get("type") in INTERACTIVE_ROLES and n.get("label")}
        return [n for n in found if not (n.get("type") == "StaticText" and n.get("label") in control_labels)]
    return []


def _is_control(node: Node) -> bool:
    return node.get("type") in INTERACTIVE_ROLES


def _ancestors(node: Node, parents: dict[int, Any]) -> list[int]:
    out: list[int] = []
    parent = node.get("parentIndex")
    while parent is not None and parent not in out:
        out.append(int(parent))
        parent = parents.get(parent)
    return out
