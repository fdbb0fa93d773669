"""Selectors: a pure parser and matcher over snapshot nodes.  No I/O.

Grammar::

    selector    := alternative ( "||" alternative )*
    alternative := term ( WS term )*
    term        := KEY OP VALUE | BOOLKEY | WORD
    OP          := "=" | "==" | "<" | "<=" | ">" | ">=" | "~="
    VALUE       := WORD | '"' chars '"' | "'" chars "'"      (backslash escapes the next character)
                 | "/" regex "/" [i]                          (after ~=: kept verbatim, spaces and backslashes too)

Keys:

==============  ===================================================================================================
``id``          identifier, exact
``role``        role (``Button``, ``TextField`` …), case-insensitive
``label``       label, as a person reads it: case, surrounding punctuation and whitespace, and quote marks do not
                matter (``label=Action`` is ``"Action:"``; :func:`fold`), nor the spaces of a whole label that
                reads the same without them (``Gro ceries`` is ``Groceries``); ``label==`` is exact
``text``        label or value, as a person reads it (:func:`fold`), containing the words; when some nodes hold
                them exactly, only they count; ``text==`` is the label or value exactly
``value``       value, exact
``KEY<N`` …     ``value``, ``label``, ``text`` compared as numbers (``<``, ``<=``, ``>``, ``>=``): the first number
                in the value (``value``: else in the label, for text that shows a value), ``$1,045.50`` is 1045.5
``KEY~=/RE/``   ``label``, ``text``, ``value``, ``id``: the regular expression (Python's) found in it; ``/RE/i``
                ignores case
booleans        ``visible``, ``enabled``, ``selected``, ``focused``, ``editable`` = ``true``/``false``
                (a bare boolean key means ``=true``)
==============  ===================================================================================================

A bare word (or quoted string) is ``text=WORD``.  **Words are phrases**: bare words in a row are one phrase,
``Log in`` is ``text="Log in"`` (never ``Log`` AND ``in``), and bare words after an unquoted ``text=``,
``label=`` or ``value=`` continue its value (``label=Sign in`` is ``label="Sign in"``).  A quoted word inside a
phrase is part of it (``Deselect file "Sums.ipynb"`` is the text ``Deselect file Sums.ipynb``: quote marks do not
matter to ``text=``).  Terms of one alternative are ANDed; alternatives are tried in order and the first that matches
anything decides (``id=save || label=Save``).  A term that cannot be read (an unknown key, ``id<3``, a pattern that
does not compile, a number that is not one) is INVALID_REQUEST before anything runs.

Which of the matching nodes is the target, in this order:

1. the screen's root (the application) never is: its title contains half the words on screen;
2. exact text beats containing text (``text`` compares the whole label or value, folded);
3. a control beats anything else (a link named "Groups" over a table cell that says "Groups") — except a
   control whose label is borrowed (rule 5);
4. a control that matches with its own caption is one target (the control); a container that merely contains
   the words is not the target when something inside it matches (the element itself is);
5. a static text beside a control with the same label is dropped (a form label and its field are one target) —
   unless the control's label is borrowed (``nameFrom``: a checkbox named by its row's text): then the text is
   what a person reads and taps, and it is the target, not the control (``role=CheckBox`` still names the
   control).

:func:`mentions_only` tells ``find`` when what it found merely mentions the words (a paragraph holding them among
others, not a control or a row): it looks further before it settles on that; a gesture aimed by bare words at such
a text alone is refused (agent/resolve.py).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.folding import fold
from phonewire.protocol.snapshot import INTERACTIVE_ROLES, ROLES, TEXT_INPUT_ROLES, Node, rect_of

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
    'editable), ANDed by spaces, alternatives joined by "||"; quote values with spaces: label="Sign in". '
    "label== / text== match exactly; value<45.5 (also <=, >, >=) compares numbers; text~=/RE/ matches a pattern."
)
#: Operators after a key (longest first); ``=`` is read by :func:`_unquoted_eq`.
_KEY_OP: Final = re.compile(r"([A-Za-z]+)(==|~=|<=|>=|<|>)")
NUMERIC_OPS: Final = frozenset({"<", "<=", ">", ">="})
NUMERIC_KEYS: Final = frozenset({"value", "label", "text"})
PATTERN_KEYS: Final = frozenset({"label", "text", "value", "id"})
_NUMBER: Final = re.compile(r"[-+]?(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?|[-+]?\.\d+")


def number_in(text: object) -> float | None:
    """The first number written in ``text`` (``"$1,045.50"`` → 1045.5), or ``None``."""
    found = _NUMBER.search(str(text)) if text is not None else None
    return float(found.group(0).replace(",", "")) if found else None


@dataclass(frozen=True, slots=True)
class Term:
    key: str
    value: str | bool | float | re.Pattern[str]
    #: ``=`` (as a person reads it), ``==`` (exact), a comparison (:data:`NUMERIC_OPS`) or ``~=`` (a pattern).
    op: str = "="
    #: :func:`fold` of a string value, computed once.
    folded: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.value, str) and not self.folded:
            object.__setattr__(self, "folded", fold(self.value))


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


_STRING = r'"(?:[^"\\]|\\.)*"'
#: A line of the view as it prints (``@e12 Button "Save" id=save value="x" [disabled] (3 options, select one)``).
_VIEW_LINE: Final = re.compile(
    rf"(?:@e\d+\s+)?(?P<role>[A-Z][A-Za-z]+)(?:\s+(?P<label>{_STRING}))?(?:\s+id=(?P<id>{_STRING}|[^\s\[(]+))?"
    rf"(?:\s+value={_STRING})?(?:\s+\[[a-z,]+\])?(?:\s+\([^)]*\))*"
)


def _view_line(source: str) -> tuple[Term, ...] | None:
    """A view line pasted as a selector (issue 23: ``Link "20"`` read as the text "Link 20" matched nothing): its
    role, label and identifier — not its value or flags, which change while it stays the element."""
    found = _VIEW_LINE.fullmatch(source.strip())
    if found is None or found.group("role") not in ROLES or not (found.group("label") or found.group("id")):
        return None
    terms = [Term("role", found.group("role"))]
    label, identifier = found.group("label"), found.group("id")
    if label:
        text = json.loads(label)
        # a label the view cut short ("…") is its beginning
        cut = text.endswith("…") and len(text) > 1
        terms.append(Term("label", re.compile("^" + re.escape(text[:-1])), "~=") if cut else Term("label", text, "=="))
    if identifier:
        terms.append(Term("id", json.loads(identifier) if identifier.startswith('"') else identifier, "=="))
    return tuple(terms)


def parse(source: str) -> Selector:
    """Parse a selector; INVALID_REQUEST with a hint for anything malformed.  A view line (``Button "Save"``) is
    its role, label and identifier first, the words it holds if those match nothing."""
    if not source or not source.strip():
        raise _invalid("empty selector")
    line = _view_line(source)
    if line is not None:
        return Selector((line, *parse_terms(source).alternatives), source)
    return parse_terms(source)


def parse_terms(source: str) -> Selector:
    """The grammar above, term by term."""
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
        bare = _unquoted_eq(raw) < 0 and _key_op(raw) is None and term.key == "text"
        if bare and extendable and current:
            last = current[-1]
            current[-1] = Term(last.key, f"{last.value} {term.value}", last.op)
            extendable = not _quoted(raw)
            continue
        current.append(term)
        phrase = term.key in PHRASE_KEYS and term.op in ("=", "==") and isinstance(term.value, str)
        extendable = phrase and not _quoted(raw)
    if not current:
        raise _invalid(f"empty alternative in selector {source!r}")
    alternatives.append(tuple(current))
    return Selector(tuple(alternatives), source)


def _quoted(raw: str) -> bool:
    """Whether a raw word carries a quote (the user said where the value ends)."""
    return '"' in raw or "'" in raw


_PATTERN_START: Final = re.compile(r"[A-Za-z]+~=/")


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
        pattern = _PATTERN_START.match(source, i)
        end = _pattern_end(source, pattern.end()) if pattern else _word_end(source, i)
        words.append(source[i:end])
        i = end
    return words


def _pattern_end(source: str, i: int) -> int:
    """Where ``KEY~=/RE/flags`` ends, from just past its opening slash: the expression verbatim, to its closing
    slash, then its flags."""
    n = len(source)
    while i < n and source[i] != "/":
        i += 2 if source[i] == "\\" else 1
    if i >= n:
        raise _invalid(f"unterminated /pattern/ in selector {source!r}")
    i += 1
    while i < n and source[i].isalpha():
        i += 1
    return i


def _word_end(source: str, i: int) -> int:
    """Where the word at ``i`` ends: at unquoted white space or ``||``, a quoted part and an escape kept whole."""
    n = len(source)
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
    return i


def _unquote(raw: str, source: str) -> str:
    tokens = _tokens(raw)
    if len(tokens) != 1:
        raise _invalid(f"cannot read {raw!r} in selector {source!r}")
    return tokens[0][0]


def _key_op(raw: str) -> tuple[str, str, str] | None:
    """``(key, operator, rest)`` when ``raw`` starts with a known key and an operator other than ``=``."""
    found = _KEY_OP.match(raw)
    if found is None or found.group(1).lower() not in STRING_KEYS + BOOL_KEYS:
        return None
    return found.group(1).lower(), found.group(2), raw[found.end() :]


def _operator_term(key: str, op: str, rest: str, source: str) -> Term:
    if op == "==":
        value = _unquote(rest, source) if rest else ""
        if key not in PHRASE_KEYS:
            raise _invalid(f"{key}== is not a key that matches exactly (label==, text==, value==); use {key}=")
        if not value:
            raise _invalid(f"{key}== needs a value")
        return Term(key, value, "==")
    if op == "~=":
        return Term(key, _pattern(key, rest), "~=")
    if key not in NUMERIC_KEYS:
        raise _invalid(f"{key}{op} compares numbers; only value, label and text do (e.g. value<45.5)")
    number = number_in(_unquote(rest, source)) if rest else None
    if number is None or _NUMBER.fullmatch(_unquote(rest, source).strip()) is None:
        raise _invalid(f"{key}{op} takes a number, got {rest[:40]!r}")
    return Term(key, number, op)


def _pattern(key: str, rest: str) -> re.Pattern[str]:
    """``KEY~=/REGEX/flags``'s expression, compiled."""
    if key not in PATTERN_KEYS:
        raise _invalid(f"{key}~= is not a pattern key (patterns: {', '.join(sorted(PATTERN_KEYS))})")
    found = re.fullmatch(r"/(.*)/([A-Za-z]*)", rest, re.DOTALL)
    if found is None:
        raise _invalid(f"a pattern is written {key}~=/REGEX/ (or /REGEX/i), got {rest[:60]!r}")
    flags = found.group(2)
    if set(flags) - {"i"}:
        raise _invalid(f"unknown pattern flag(s) {flags!r}: only i (ignore case)")
    try:
        return re.compile(found.group(1), re.IGNORECASE if flags else 0)
    except re.error as exc:
        raise _invalid(f"the pattern /{found.group(1)[:60]}/ does not compile: {exc}") from exc


def _term(raw: str, source: str) -> Term:
    operator = _key_op(raw)
    if operator is not None:
        return _operator_term(*operator, source)
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


def _fields(node: Node, key: str) -> list[Any]:
    """What a term of ``key`` reads of ``node`` (set values only)."""
    if key == "id":
        wanted: tuple[Any, ...] = (node.get("identifier"),)
    elif key == "label":
        wanted = (node.get("label"),)
    elif key == "value":
        wanted = (node.get("value"),)
    else:
        wanted = (node.get("label"), node.get("value"))
    return [t for t in wanted if t is not None and t != ""]


def _compare(number: float, op: str, want: float) -> bool:
    return {"<": number < want, "<=": number <= want, ">": number > want, ">=": number >= want}[op]


def _term_matches(node: Node, term: Term) -> bool:
    want = term.value
    if isinstance(want, bool):
        return _bool_of(node, term.key) is want
    if isinstance(want, re.Pattern):
        return any(want.search(str(t)) for t in _fields(node, term.key))
    if isinstance(want, float):
        read = _fields(node, term.key) or (_fields(node, "label") if term.key == "value" else [])
        numbers = [number_in(t) for t in read[:1]] if term.key == "value" else [number_in(t) for t in read]
        return any(n is not None and _compare(n, term.op, want) for n in numbers)
    if term.key == "id":
        return node.get("identifier") == want
    if term.key == "role":
        return str(node.get("type") or "").lower() == want.lower()
    if term.key == "value":
        return node.get("value") == want
    if term.op == "==":
        return want in _fields(node, term.key)
    if term.key == "label":
        label = node.get("label")
        return label is not None and _same_words(fold(label), term.folded)
    # text: the folded words inside the folded label or value
    return any(term.folded in fold(t) or _same_words(fold(t), term.folded) for t in _fields(node, "text"))


def _same_words(folded: str, want: str) -> bool:
    """Whether ``folded`` (a folded label or value) is ``want`` (a folded term), also where the page's markup made the
    spaces differ from what the screen shows: a highlight drawn as an inline-block inside a word is set apart by the
    names' rule (WPT: ``a<span style="display: inline-block">b</span>c`` is "a b c"), while the screen shows one word
    (Fava's autocomplete: "Expenses:Food: Gro ceries" for "Expenses:Food:Groceries")."""
    return folded == want or (" " in folded + want and folded.replace(" ", "") == want.replace(" ", ""))


def _holds_exactly(node: Node, term: Term) -> bool:
    """A ``text=`` term that ``node`` matches with its whole label or value (folded), not by containing it."""
    return any(_same_words(fold(t), term.folded) for t in _fields(node, "text"))


def _text_exact(node: Node, terms: tuple[Term, ...]) -> bool:
    return all(_holds_exactly(node, t) for t in terms if t.key == "text" and t.op == "=" and isinstance(t.value, str))


def mentions_only(selector: Selector, node: Node) -> bool:
    """Whether ``node`` matches ``selector`` only by holding its words among others (a paragraph that mentions
    "Janessa" in an instruction), and is no control or row: ``find`` looks further before it settles on it."""
    if _is_control(node):
        return False
    for terms in selector.alternatives:
        if all(_term_matches(node, t) for t in terms):
            return not _text_exact(node, terms)
    return False


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
        if any(t.key == "text" and t.op == "=" for t in terms):
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
