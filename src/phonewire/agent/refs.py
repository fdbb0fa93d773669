"""Re-finding the element a ref named, in a fresh snapshot.  Pure, no I/O.

A ref (``@e3``) belongs to the snapshot that issued it.  Acting on it never taps the old coordinates: the
session takes a fresh snapshot and :func:`refind` looks for *the same element* there:

* **identity** — role + label + identifier, plus the value for roles whose value is not user state (a text
  field's contents, a switch's position or a slider's level change while it stays the same element); when
  nothing has exactly that identity, an element *with an identifier* may also be found with the numbers in
  its label/value changed (a ``Like 0`` button that now reads ``Like 1``);
* **context** — when several elements share that identity (a "+" button in each row, unlabeled list rows),
  the first texts inside the element, the texts in its row and its ancestors' labels tell them apart.

Decision order (first that applies):

1. the screen is unchanged (every node has the same identity and place) → the node at the same place;
2. exactly one element with the identity → it;
3. exactly one of those with the same context → it;
4. exactly one candidate has the same first context text (a row's title; other texts such as a counter may
   have changed) → it;
5. otherwise STALE_REF (gone, or ambiguous) — never a guess.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from phonewire.agent.view import STATEFUL_ROLES, Rendered, row_mates
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

Node = dict[str, Any]
Identity = tuple[Any, ...]

#: How many texts inside a node count towards its context.
INNER_TEXTS = 3
STALE_HINT = "The screen changed since that snapshot: run `snapshot` again and use the new refs."


def identity(node: Node) -> Identity:
    role = node.get("type")
    value = None if role in STATEFUL_ROLES else node.get("value")
    return (role, node.get("label"), node.get("identifier"), value)


_DIGITS = re.compile(r"\d+")


def loose_identity(node: Node) -> Identity | None:
    """For an element with an identifier: its identity with the numbers in its texts blanked, so a counter in a
    label (``Like 0`` → ``Like 1``) does not make it a different element.  ``None`` without an identifier
    (then the texts are all there is to tell ``Item 1`` from ``Item 2``)."""
    identifier = node.get("identifier")
    if not identifier:
        return None
    role = node.get("type")
    label = node.get("label")
    value = None if role in STATEFUL_ROLES else node.get("value")
    return (role, identifier, _DIGITS.sub("#", label) if label else None, _DIGITS.sub("#", value) if value else None)


class Index:
    """Per-snapshot lookups that :func:`refind` needs (built once per snapshot)."""

    def __init__(self, nodes: Sequence[Node]) -> None:
        self.nodes = list(nodes)
        self.by_index = {int(n["index"]): n for n in nodes}
        self._mates: dict[int, list[int]] | None = None
        self._children: dict[Any, list[Node]] | None = None
        self._contexts: dict[int, tuple[str, ...]] = {}
        self._position = {id(n): i for i, n in enumerate(self.nodes)}
        self._same_screen: weakref.WeakKeyDictionary[Index, bool] = weakref.WeakKeyDictionary()
        #: What the screen looks like: every node's identity and place, in order.
        self.signature = tuple((identity(n), _rect_key(n)) for n in nodes)
        self.by_identity: dict[Identity, list[Node]] = {}
        self.by_loose_identity: dict[Identity, list[Node]] = {}
        for n in nodes:
            self.by_identity.setdefault(identity(n), []).append(n)
            loose = loose_identity(n)
            if loose is not None:
                self.by_loose_identity.setdefault(loose, []).append(n)

    def same_screen(self, other: Index) -> bool:
        """Every node has the same identity and place in both snapshots (compared once per pair)."""
        if other is self:
            return True
        known = self._same_screen.get(other)
        if known is None:
            known = self._same_screen[other] = self.signature == other.signature
        return known

    def position(self, node: Node) -> int:
        """Where ``node`` (a node of this snapshot) stands in it."""
        found = self._position.get(id(node))
        return found if found is not None else self.nodes.index(node)

    def _inner_texts(self, node: Node) -> list[str]:
        """The first labels inside ``node`` (a container's own content: the texts of a list row)."""
        if self._children is None:
            self._children = {}
            for n in self.nodes:
                self._children.setdefault(n.get("parentIndex"), []).append(n)
        out: list[str] = []
        stack = list(reversed(self._children.get(node.get("index"), [])))
        while stack and len(out) < INNER_TEXTS:
            child = stack.pop()
            if child.get("label"):
                out.append(str(child["label"]))
            stack.extend(reversed(self._children.get(child.get("index"), [])))
        return out

    def context(self, node: Node) -> tuple[str, ...]:
        """Texts that place ``node``: the first texts inside it, its row's texts (left to right), then its
        ancestors' labels (inner first).  Computed once per node of this snapshot."""
        key = int(node["index"])
        known = self._contexts.get(key)
        if known is None:
            known = self._contexts[key] = self._context(node)
        return known

    def _context(self, node: Node) -> tuple[str, ...]:
        if self._mates is None:
            self._mates = row_mates(self.nodes)
        out: list[str] = self._inner_texts(node)
        mates = sorted(
            (self.by_index[m] for m in self._mates.get(int(node["index"]), ())),
            key=lambda m: float((m.get("rect") or {}).get("x", 0)),
        )
        out.extend(str(m.get("label")) for m in mates if m.get("label"))
        parent = node.get("parentIndex")
        seen: set[int] = set()
        while parent is not None and parent in self.by_index and parent not in seen:
            seen.add(parent)
            p = self.by_index[parent]
            if p.get("label"):
                out.append(str(p["label"]))
            parent = p.get("parentIndex")
        return tuple(out)


def _rect_key(node: Node) -> tuple[int, int, int, int]:
    r = node.get("rect") or {}
    return (round(float(r.get("x", 0))), round(float(r.get("y", 0))),
            round(float(r.get("width", 0))), round(float(r.get("height", 0))))  # fmt: skip


def refind(ref: str, node: Node, issued: Index, fresh: Index) -> Node:
    """The element of ``fresh`` that is ``node`` of ``issued``; STALE_REF when gone or ambiguous."""
    if issued.same_screen(fresh):
        return fresh.nodes[issued.position(node)]
    candidates = fresh.by_identity.get(identity(node), [])
    loose = loose_identity(node)
    if not candidates and loose is not None:
        candidates = fresh.by_loose_identity.get(loose, [])
    if not candidates:
        raise ProtocolError(e.STALE_REF, f"@{ref} ({_describe(node)}) is no longer on screen", STALE_HINT)
    if len(candidates) == 1:
        return candidates[0]
    old_context = issued.context(node)
    same_context = [c for c in candidates if fresh.context(c) == old_context]
    if len(same_context) == 1:
        return same_context[0]
    if old_context:
        anchor = old_context[0]
        anchored = [c for c in candidates if fresh.context(c)[:1] == (anchor,)]
        if len(anchored) == 1:
            return anchored[0]
    raise ProtocolError(
        e.STALE_REF,
        f"@{ref} ({_describe(node)}) now matches {len(candidates)} elements and cannot be told apart",
        STALE_HINT,
    )


def _describe(node: Node) -> str:
    label = node.get("label") or node.get("identifier") or node.get("value")
    return f'{node.get("type")} "{label}"' if label else str(node.get("type"))


class RefTable:
    """The refs a session has issued.  Each names a node *of the snapshot that issued it* (kept with that
    snapshot's :class:`Index`), so refs issued at different times never get mixed up: a new ``snapshot``
    replaces the table; an AMBIGUOUS_MATCH answer adds its candidates under new numbers (or the refs that
    already name them, when the screen is the one the table's snapshot showed).

    Numbers are never reused for another element within a session: a new snapshot gives an element the ref it
    had in the previous table when that ref re-finds to it (:func:`refind`, the same rule a tap applies), and a
    new number otherwise.  So a ref kept from any earlier snapshot either still names its element or answers
    STALE_REF; it can never come to mean a different element."""

    def __init__(self) -> None:
        self.refs: dict[str, tuple[Node, Index]] = {}
        self.next = 1

    def carried_over(self, index: Index) -> dict[int, str]:
        """Node index (in ``index``) -> the ref that named the same element in the current table."""
        found: dict[int, str] = {}
        taken: set[int] = set()
        for ref, (node, issued) in self.refs.items():
            try:
                now = refind(ref, node, issued, index)
            except ProtocolError:
                continue
            key = int(now["index"])
            if key in taken:  # two old refs re-find one element: neither may claim it
                found.pop(key, None)
                continue
            taken.add(key)
            found[key] = ref
        return found

    def namer(self, index: Index) -> Callable[[Node], str]:
        carried = self.carried_over(index) if self.refs else {}

        def name(node: Node) -> str:
            ref = carried.get(int(node["index"]))
            if ref is None:
                ref = f"e{self.next}"
                self.next += 1
            return ref

        return name

    def reset(self, index: Index, rendered: Rendered) -> None:
        self.refs = {ref: (node, index) for ref, node in rendered.refs.items()}

    def clear(self) -> None:
        self.refs = {}  # ``next`` keeps counting: numbers are never reused within a session

    def existing(self, node: Node, index: Index) -> str | None:
        for ref, (known, known_index) in self.refs.items():
            if known.get("index") == node.get("index") and known_index.same_screen(index):
                return ref
        return None

    def add(self, node: Node, index: Index) -> str:
        ref = self.existing(node, index)
        if ref is None:
            ref = f"e{self.next}"
            self.next += 1
            self.refs[ref] = (node, index)
        return ref
