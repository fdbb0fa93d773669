"""Maestro's selectors over snapshot nodes: parsed from a flow, matched the way Maestro's documentation says.  Pure.

A selector is a string (``tapOn: Login``: the text) or a map of ``text``, ``id``, ``index``, ``point``, the states
``enabled`` / ``checked`` / ``focused`` / ``selected``, and the relations ``below`` / ``above`` / ``leftOf`` /
``rightOf`` / ``childOf`` / ``containsChild`` (each itself a selector).  ``text`` and ``id`` are regular
expressions that must match the whole text (case-insensitive, as Maestro's), or equal it exactly (``Total: $15``
unescaped still finds itself); ``text`` looks at an element's label and value.

Which of the matching nodes is meant, in this order:

1. the screen's root (the application) never is;
2. a control and its own caption are one target (the control), and a text beside a control with the same label
   is the control's (a form label); a container merely holding the matching text is not the target when what is
   inside it matches — phonewire's own selector rules (agent/selectors.py), applied to Maestro's matches;
3. with a position relation (``below`` …) the nearest to the anchor first, as Maestro sorts them;
4. ``index: N`` picks the N-th (0-based; document order, or nearness with a relation);
5. otherwise more than one left is AMBIGUOUS_MATCH — never the first of several.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from phonewire.agent.view import node_line
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import INTERACTIVE_ROLES, Node, rect_of

#: Position relations: the node's place against the anchor's, and how far it is (for Maestro's nearest-first sort).
POSITIONS: Final = ("below", "above", "leftOf", "rightOf")
RELATIONS: Final = (*POSITIONS, "childOf", "containsChild")
STATES: Final = ("enabled", "checked", "focused", "selected")
#: Every key a selector map may hold (``optional`` and ``label`` are the command's, accepted beside them).
SELECTOR_KEYS: Final = ("text", "id", "index", "point", *STATES, *RELATIONS)
_FLAGS: Final = re.IGNORECASE | re.DOTALL | re.MULTILINE
_ROOTS: Final = frozenset({"Application", "Window"})


@dataclass(frozen=True)
class Selector:
    text: str | None = None
    id: str | None = None
    index: int | None = None
    #: ``"50%, 50%"`` (of the screen) or ``"100, 200"`` (points), as written (variables still in it).
    point: str | None = None
    states: tuple[tuple[str, bool], ...] = ()
    relations: tuple[tuple[str, Selector], ...] = ()

    def describe(self) -> str:
        parts = [f"text {self.text!r}"] if self.text is not None else []
        parts += [f"id {self.id!r}"] if self.id is not None else []
        parts += [f"point {self.point}"] if self.point is not None else []
        parts += [f"{k}={v}" for k, v in self.states]
        parts += [f"{k} ({s.describe()})" for k, s in self.relations]
        parts += [f"index {self.index}"] if self.index is not None else []
        return ", ".join(parts) or "anything"

    def strings(self) -> list[str]:
        """Every string in it (for variables)."""
        out = [s for s in (self.text, self.id, self.point) if s is not None]
        for _, inner in self.relations:
            out += inner.strings()
        return out

    def substituted(self, sub: Any) -> Selector:
        """The selector with ``sub`` (str → str) applied to its strings."""
        return Selector(
            None if self.text is None else sub(self.text),
            None if self.id is None else sub(self.id),
            self.index,
            None if self.point is None else sub(self.point),
            self.states,
            tuple((k, s.substituted(sub)) for k, s in self.relations),
        )


class SelectorError(ValueError):
    """A malformed selector (the flow's parser turns it into FLOW_INVALID / FLOW_UNSUPPORTED with the line)."""

    def __init__(self, message: str, *, unsupported: bool = False) -> None:
        super().__init__(message)
        self.unsupported = unsupported


def parse_selector(value: Any) -> Selector:
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        return Selector(text=str(value))
    if not isinstance(value, dict) or not value:
        raise SelectorError("a selector is a text or a map such as {id: login, below: Password}")
    kwargs: dict[str, Any] = {}
    states: list[tuple[str, bool]] = []
    relations: list[tuple[str, Selector]] = []
    for key, raw in value.items():
        if key in ("optional", "label"):
            continue
        if key not in SELECTOR_KEYS:
            raise SelectorError(
                f"selector key {key!r} is not supported (supported: {', '.join(SELECTOR_KEYS)})", unsupported=True
            )
        if key in STATES:
            states.append((key, _state(key, raw)))
        elif key in RELATIONS:
            relations.append((key, parse_selector(raw)))
        else:
            kwargs[key] = _term(key, raw)
    if "point" in kwargs and len(value) - sum(k in ("optional", "label") for k in value) > 1:
        raise SelectorError("point stands alone: it names a place, not an element")
    return Selector(states=tuple(states), relations=tuple(relations), **kwargs)


def _state(key: str, raw: Any) -> bool:
    if not isinstance(raw, bool):
        raise SelectorError(f"{key} takes true or false, got {raw!r}")
    return raw


def _term(key: str, raw: Any) -> str | int:
    """``text`` / ``id`` / ``point`` (a text; text and id regular expressions) or ``index`` (a whole number)."""
    if key == "index":
        if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0:
            raise SelectorError(f"index must be a whole number from 0, got {raw!r}")
        return raw
    if not isinstance(raw, str | int | float) or isinstance(raw, bool):
        raise SelectorError(f"{key} must be a text, got {raw!r}")
    if key != "point":
        _compiles(str(raw), key)
    return str(raw)


def _compiles(pattern: str, key: str) -> None:
    if "${" in pattern:
        return  # checked once its variables are in
    try:
        re.compile(pattern, _FLAGS)
    except re.error as exc:
        raise SelectorError(f"{key} {pattern!r} is not a regular expression Maestro could read ({exc})") from exc


def _matches(pattern: str, text: object) -> bool:
    if text is None or text == "":
        return False
    s = str(text)
    if s == pattern:
        return True
    try:
        return re.fullmatch(pattern, s, _FLAGS) is not None
    except re.error:
        return False


def _rect(node: Node) -> tuple[float, float, float, float]:
    r = rect_of(node)
    return (float(r.get("x", 0)), float(r.get("y", 0)), float(r.get("width", 0)), float(r.get("height", 0)))


def _ancestors(node: Node, parents: dict[int, Any]) -> list[int]:
    out: list[int] = []
    parent = node.get("parentIndex")
    while parent is not None and parent not in out:
        out.append(int(parent))
        parent = parents.get(int(parent))
    return out


def _own_terms(sel: Selector, node: Node) -> bool:
    if node.get("type") in _ROOTS:
        return False
    if sel.text is not None and not (_matches(sel.text, node.get("label")) or _matches(sel.text, node.get("value"))):
        return False
    if sel.id is not None and not _matches(sel.id, node.get("identifier")):
        return False
    for key, want in sel.states:
        have = node.get("enabled") is not False if key == "enabled" else bool(node.get(key))
        if key == "checked":
            have = str(node.get("value")) in ("1", "true") if node.get("type") in ("CheckBox", "Switch",
                                                                               "RadioButton") else False  # fmt: skip
        if have is not want:
            return False
    return True


def _one_target(found: list[Node], parents: dict[int, Any], *, by_text: bool) -> list[Node]:
    """Rule 2: a control and its caption are one target; a container holding the text is not the target."""
    if by_text:  # a control whose label is borrowed from its row's text: the text is what a person reads and taps
        texts = {n.get("label") for n in found if n.get("type") == "StaticText"}
        found = [n for n in found if not (n.get("nameFrom") and n.get("label") in texts)]
    controls = [n for n in found if n.get("type") in INTERACTIVE_ROLES]
    chosen = {int(n["index"]) for n in found}
    if controls:
        labels = {n.get("label") for n in controls if n.get("label")}
        found = [
            n for n in found
            if not any(p in chosen for p in _ancestors(n, parents))
            and not (n.get("type") == "StaticText" and n.get("label") in labels)
        ]  # fmt: skip
        return found
    holders = {p for n in found for p in _ancestors(n, parents) if p in chosen}
    return [n for n in found if int(n["index"]) not in holders]


def _distance(relation: str, node: Node, anchor: Node) -> float | None:
    """How far ``node`` lies from ``anchor`` in ``relation``'s direction (None: not that way at all), plus how far
    it is off the anchor's row (``leftOf`` / ``rightOf``) or column (``below`` / ``above``): the nearest is in line
    with the anchor."""
    x, y, w, h = _rect(node)
    ax, ay, aw, ah = _rect(anchor)
    off_row = max(0.0, ay - (y + h), y - (ay + ah))
    off_column = max(0.0, ax - (x + w), x - (ax + aw))
    if relation == "below":
        return max(0.0, y - (ay + ah)) + off_column if y + h / 2 > ay + ah else None
    if relation == "above":
        return max(0.0, ay - (y + h)) + off_column if y + h / 2 < ay else None
    if relation == "rightOf":
        return max(0.0, x - (ax + aw)) + off_row if x + w / 2 > ax + aw else None
    return max(0.0, ax - (x + w)) + off_row if x + w / 2 < ax else None  # leftOf


def candidates(sel: Selector, nodes: Sequence[Node]) -> list[Node]:
    """What ``sel`` selects among ``nodes``, in Maestro's order (before ``index``; see the module docstring)."""
    parents = {int(n["index"]): n.get("parentIndex") for n in nodes}
    found = [n for n in nodes if _own_terms(sel, n)]
    if sel.text is not None or sel.id is not None:  # (a selector of relations alone names any element there)
        found = _one_target(found, parents, by_text=sel.text is not None)
    nearness: dict[int, float] = {}
    for relation, inner in sel.relations:
        anchor = resolve(inner, nodes, what=f"the {relation} anchor")
        a = int(anchor["index"])
        if relation == "childOf":
            found = [n for n in found if a in _ancestors(n, parents)]
        elif relation == "containsChild":
            found = [n for n in found if int(n["index"]) in _ancestors(anchor, parents)]
        else:
            kept = []
            for n in found:
                d = _distance(relation, n, anchor)
                if d is not None:
                    nearness[int(n["index"])] = nearness.get(int(n["index"]), 0.0) + d
                    kept.append(n)
            found = kept
    if nearness:
        found.sort(key=lambda n: nearness.get(int(n["index"]), 0.0))
    return found


def resolve(sel: Selector, nodes: Sequence[Node], *, what: str = "the selector") -> Node:
    """The one node ``sel`` names: NOT_FOUND, or AMBIGUOUS_MATCH for several without ``index`` or a relation."""
    found = candidates(sel, nodes)
    if sel.index is not None:
        if sel.index >= len(found):
            raise ProtocolError(
                e.NOT_FOUND,
                f"{what} ({sel.describe()}) matches {len(found)} element(s) on screen: no index {sel.index}",
                "Indexes count from 0 among what matches the other terms; check them against `snapshot`.",
            )
        return found[sel.index]
    if not found:
        raise ProtocolError(
            e.NOT_FOUND,
            f"nothing on screen matches {what} ({sel.describe()})",
            "text and id are regular expressions matching the whole text (case-insensitive); check them against "
            "`snapshot`, or scroll first (scrollUntilVisible).",
        )
    positional = any(k in POSITIONS for k, _ in sel.relations)
    if len(found) > 1 and not positional:
        listing = "; ".join(node_line(n) for n in found[:8])
        raise ProtocolError(
            e.AMBIGUOUS_MATCH,
            f"{what} ({sel.describe()}) matches {len(found)} elements: {listing}",
            "Add index: N, an id, or a relation (below:, childOf:) to the selector so that it names one.",
        )
    return found[0]


def visible(sel: Selector, nodes: Sequence[Node]) -> list[Node]:
    """What ``sel`` matches that shows (not covered) — assertVisible's question, which never refuses ambiguity."""
    found = [n for n in candidates(sel, nodes) if not n.get("coveredBy")]
    if sel.index is not None:
        return found[sel.index : sel.index + 1]
    return found


def text_of(node: Node) -> str:
    """The text ``copyTextFrom`` copies: a field's value, else the label."""
    value = node.get("value")
    return str(value) if value not in (None, "") and node.get("type") != "StaticText" else str(node.get("label") or "")
