"""Re-finding the element a ref named, in a fresh snapshot.  Pure, no I/O.

A ref (``@e3``) belongs to the snapshot that issued it.  Acting on it never taps the old coordinates: the
session takes a fresh snapshot and :func:`refind` looks for *the same element* there, and answers it only when
that is proven — otherwise STALE_REF, never a guess:

* **serial** — a backend that can tell elements apart for their lifetime (the web device: one per DOM node,
  never reused within a document, never equal across documents) puts a ``serial`` in each node.  When the old
  node and the fresh snapshot carry serials, only the node with the same serial can be the element, and only
  while it still shows the same identity (below; an element with an identifier may have changed only the
  numbers in its identifier, label and value: ``Like 0`` → ``Like 1``, ``row-3`` → ``row-2``) in the same
  place (its whole context, or its row's anchor — :meth:`Index.anchor`, the row's title — is exactly the same).
  A recycled element (a virtual list's row node showing another item, ``Row 1`` → ``Row 13``) or a vanished one
  is STALE_REF.  A ref whose element left the screen is kept (:class:`RefTable`'s retired refs) and re-finds it
  on its return by the serial alone, with its identity unchanged.
* **identity** (backends without serials) — role + label + identifier, plus the value for roles whose value is
  not user state (a text field's contents, a switch's position or a slider's level change while it stays the
  same element).  Identifiers are often positions (``row-3-delete``, ``grid-cell-1-0``) and numbers in texts
  change (``Like 0`` → ``Like 1``), so for an element with an identifier the numbers in its identifier, label
  and value are blanked: its **shape**.  Elements of one shape are told apart by
* **context** — the first texts inside the element (when it has no label and is not a screen or a scroll
  container: an unlabeled row's content), the labels in its row (texts and controls, left to right) and its
  ancestors' labels.

Decision order without serials (first that applies):

1. the screen is unchanged (every node has the same identity and place) → the node at the same place;
2. the element's context was unique among the elements of its shape in the old snapshot, and exactly one
   element of that shape has that context now → it;
3. the same with its first context text only (a row's title; other texts such as a counter may have changed);
4. the same with the numbers in its context blanked (the only text in its row is a counter that changed);
   for each, the element found must not show, where this one's own label/value changed, those of another
   twin that shares some of its context (unless more elements show them now than twins did), and must share
   more of its context with this element than with any of its twins (a counter that moved to the next row
   may make the first text agree; the rest of the row tells);
5. otherwise STALE_REF (gone, ambiguous, or not provably the same element).

So twins (the unlabeled delete button of every row) need a row that tells them apart, and an identifier that
encodes a position never carries a ref to the element that took that position.  The limit without serials: an
element removed and replaced by one of its shape whose context passes the same proof (the same row title, say:
nothing on the screen tells them apart) counts as the same element.
"""

from __future__ import annotations

import re
import weakref
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from phonewire.agent.view import STATEFUL_ROLES, Rendered, is_interactive, row_mates
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import SCROLL_ROLES, Node, Rect, rect_of

Identity = tuple[Any, ...]

#: How many texts inside a node count towards its context.
INNER_TEXTS = 3
#: Elements whose content is not what places them: screens and scroll containers (content comes and goes while
#: they stay the same element) and inputs (the texts inside a text view or an editor are what the user typed).
_CONTENT_COMES_AND_GOES = SCROLL_ROLES | STATEFUL_ROLES | {"Application", "Window", "WebView"}
STALE_HINT = "The screen changed since that snapshot: run `snapshot` again and use the new refs."


def identity(node: Node) -> Identity:
    role = node.get("type")
    value = None if role in STATEFUL_ROLES else node.get("value")
    return (role, node.get("label"), node.get("identifier"), value)


_DIGITS = re.compile(r"\d+")


def _blank(text: Any) -> Any:
    return _DIGITS.sub("#", text) if isinstance(text, str) else text


def shape(node: Node) -> Identity:
    """The identity of an element *with an identifier*, with the numbers in its identifier, label and value
    blanked: a counter in a label (``Like 0`` → ``Like 1``) does not make it another element, and an identifier
    that encodes a position (``row-3-delete``) does not make it this one.  Without an identifier, its identity
    (then the texts are all there is to tell ``Item 1`` from ``Item 2``)."""
    if not node.get("identifier"):
        return identity(node)
    return tuple(_blank(part) for part in identity(node))


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
        #: What the screen looks like: every node's identity, place and serial, in order.
        self.signature = tuple((identity(n), _rect_key(n), n.get("serial")) for n in nodes)
        self.by_shape: dict[Identity, list[Node]] = {}
        #: serial -> nodes (one, unless a backend repeats one); empty when the backend gives no serials.
        self.by_serial: dict[str, list[Node]] = {}
        for n in nodes:
            self.by_shape.setdefault(shape(n), []).append(n)
            serial = n.get("serial")
            if serial is not None:
                self.by_serial.setdefault(str(serial), []).append(n)

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
        return [str(n["label"]) for n in self._inner_nodes(node)]

    def _inner_nodes(self, node: Node, most: int = INNER_TEXTS) -> list[Node]:
        """The first ``most`` labeled nodes inside ``node``, in order."""
        if self._children is None:
            self._children = {}
            for n in self.nodes:
                self._children.setdefault(n.get("parentIndex"), []).append(n)
        out: list[Node] = []
        stack = list(reversed(self._children.get(node.get("index"), [])))
        while stack and len(out) < most:
            child = stack.pop()
            if child.get("label"):
                out.append(child)
            stack.extend(reversed(self._children.get(child.get("index"), [])))
        return out

    def row_nodes(self, node: Node) -> list[Node]:
        """The labeled nodes that :meth:`row_texts` reads (``node`` among them when it has a label), and those
        inside an unlabeled ``node`` (a row's cells): what its row shows, element by element."""
        inside = [] if node.get("label") or node.get("type") in _CONTENT_COMES_AND_GOES else self._inner_nodes(node, 50)
        return [n for n in (node, *self._row_mates(node), *inside) if n.get("label")]

    def context(self, node: Node) -> tuple[str, ...]:
        """Texts that place ``node``: the first texts inside it (an unlabeled row's content), the labels in its
        row (left to right), then its ancestors' labels (inner first).  Computed once per node of this snapshot."""
        key = int(node["index"])
        known = self._contexts.get(key)
        if known is None:
            known = self._contexts[key] = self._context(node)
        return known

    def surroundings(self, node: Node) -> tuple[str, ...]:
        """:meth:`context` without the texts inside ``node``: what stands around it (a renamed control's own content
        changed with its name)."""
        context = self.context(node)
        if not node.get("label") and node.get("type") not in _CONTENT_COMES_AND_GOES:
            return context[len(self._inner_texts(node)) :]
        return context

    def row_texts(self, node: Node) -> list[str]:
        """The texts of ``node``'s row, the one that tells it from other rows first: the first text inside it (when
        its context starts with its content), then the labels of it and its row mates, left to right — its own
        label first when it is the row's leftmost text (a row's title)."""
        out: list[str] = []
        if not node.get("label") and node.get("type") not in _CONTENT_COMES_AND_GOES:
            out.extend(self._inner_texts(node)[:1])
        row = [node, *self._row_mates(node)]
        row.sort(key=lambda n: float(rect_of(n).get("x", 0)))
        out.extend(str(n["label"]) for n in row if n.get("label"))
        return out

    def anchor(self, node: Node) -> str | None:
        """The text that tells ``node``'s row from the others (the first of :meth:`row_texts`: the row's title)."""
        texts = self.row_texts(node)
        return texts[0] if texts else None

    def _row_mates(self, node: Node) -> list[Node]:
        """The texts and labeled controls in ``node``'s row (view.row_mates) beside it, not over it: one whose box
        overlaps ``node``'s lies over or under it (a toast's text across the row of the buttons it covers), and the
        row must read the same once it has gone (a toast that hid itself renumbered every button it had covered)."""
        if self._mates is None:
            self._mates = row_mates(self.nodes, controls=True)
        box = Rect.of(**rect_of(node))
        mates = (self.by_index[m] for m in self._mates.get(int(node["index"]), ()))
        return [m for m in mates if not box.overlaps(Rect.of(**rect_of(m)))]

    def _context(self, node: Node) -> tuple[str, ...]:
        # The texts inside an element are its content only when it has no label (an unlabeled row) and is not a
        # screen or a scroll container (whose content comes and goes while it stays the same element).
        content = not node.get("label") and node.get("type") not in _CONTENT_COMES_AND_GOES
        out: list[str] = self._inner_texts(node) if content else []
        mates = sorted(self._row_mates(node), key=lambda m: float(rect_of(m).get("x", 0)))
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


def _claims(refs: Iterable[tuple[str, tuple[Node, Index]]], index: Index, *, returning: bool = False) -> dict[int, str]:
    """Node index (in ``index``) -> the one of ``refs`` that re-finds to it; two that re-find one element: neither."""
    found: dict[int, str] = {}
    taken: set[int] = set()
    for ref, (node, issued) in refs:
        try:
            now = refind(ref, node, issued, index, returning=returning)
        except ProtocolError:
            continue
        key = int(now["index"])
        if key in taken:  # two old refs re-find one element: neither may claim it
            found.pop(key, None)
            continue
        taken.add(key)
        found[key] = ref
    return found


def _rect_key(node: Node) -> tuple[int, int, int, int]:
    r = rect_of(node)
    return (round(float(r.get("x", 0))), round(float(r.get("y", 0))),
            round(float(r.get("width", 0))), round(float(r.get("height", 0))))  # fmt: skip


def refind(ref: str, node: Node, issued: Index, fresh: Index, *, returning: bool = False) -> Node:
    """The element of ``fresh`` that is ``node`` of ``issued``; STALE_REF when gone, ambiguous or not proven.

    ``returning``: ``node`` left the screen since (a retired ref, :class:`RefTable`): only its serial can find it,
    and only showing exactly what it showed, in a row whose first text (or whole context) is exactly the one it
    stood in — a recycled row node that shows another item (``Row 1`` → ``Row 35``) never passes, even where the
    numbers alone differ."""
    if issued.same_screen(fresh):
        return fresh.nodes[issued.position(node)]
    serial = node.get("serial")
    if serial is not None and fresh.by_serial:
        return _by_serial(ref, node, str(serial), issued, fresh, returning=returning)
    if returning:
        raise _gone(ref, node)
    return _by_context(ref, node, issued, fresh)


def _by_serial(ref: str, node: Node, serial: str, issued: Index, fresh: Index, *, returning: bool = False) -> Node:
    found = fresh.by_serial.get(serial, [])
    if len(found) != 1:
        raise _gone(ref, node) if not found else _ambiguous(ref, node, len(found))
    now = found[0]
    if returning:
        if identity(now) != identity(node) or not _same_place(node, issued, now, fresh):
            raise ProtocolError(
                e.STALE_REF,
                f"@{ref} ({_describe(node)}) left the screen, and what shows now is not provably that element",
                STALE_HINT,
            )
        return now
    # only the numbers in its identifier or texts may have changed (``Like 0`` -> ``Like 1``; ``row-3`` -> ``row-2``)
    same = identity(now) == identity(node) or (bool(node.get("identifier")) and shape(now) == shape(node))
    if not same and _renamed(node, issued, now, fresh):
        return now
    if not same:
        raise ProtocolError(
            e.STALE_REF,
            f"@{ref} ({_describe(node)}) is now {_describe(now)}: the element shows something else",
            STALE_HINT,
        )
    if not _same_place(node, issued, now, fresh):
        raise ProtocolError(  # a recycled element: a virtual list's row that shows another item
            e.STALE_REF,
            f"@{ref} ({_describe(node)}) now stands in another row (the texts around it changed)",
            STALE_HINT,
        )
    return now


def _renamed(node: Node, issued: Index, now: Node, fresh: Index) -> bool:
    """The same DOM node (its serial) is a control that now says something else — a select's box showing the option
    just chosen (jQuery UI's selectmenu: ``Medium`` → ``Fast``), a Play button become Pause, a checkbox whose name
    follows its state, a status line of the page's (``id=status``) that says the new state: the same element, not
    another one, when its role and identifier stay (a text that is no control: when it has an identifier), everything
    around it (its row mates' and ancestors' texts) is the same, and it has an identifier or has not moved.  Not when
    only the numbers in its texts changed (``Open Row 1`` → ``Open Row 2``): that is how a virtual list's recycled row
    node looks, numbers being what tell such rows apart (issue 23)."""
    if not (is_interactive(node) or node.get("identifier")) or now.get("type") != node.get("type"):
        return False
    if now.get("identifier") != node.get("identifier"):
        return False
    if _blanked_texts(now) == _blanked_texts(node):
        return False
    if issued.surroundings(node) != fresh.surroundings(now):
        return False
    return bool(node.get("identifier")) or _rect_key(node)[:2] == _rect_key(now)[:2]


def _blanked_texts(node: Node) -> tuple[Any, Any]:
    return _blank(node.get("label")), _blank(node.get("value"))


def _same_place(node: Node, issued: Index, now: Node, fresh: Index) -> bool:
    """The same DOM element still stands where it stood: its whole context is the same, or the text that anchored
    its row (:meth:`Index.anchor`: the row's title) is still in its row, exactly — a counter that changed beside it
    and texts that appeared (an icon's name, a hint, a validation message) do not make it another row's; a recycled
    row node has lost its anchor, also when only a number in it changed (a virtual list's node that showed ``Row 1``
    shows ``Row 13``: numbers are what tell such rows apart, so they are not blanked here)."""
    if issued.context(node) == fresh.context(now):
        return True
    anchor = issued.anchor(node)
    return anchor is None or anchor in fresh.row_texts(now) or _scrolled_sideways(node, issued, now, fresh)


def _scrolled_sideways(node: Node, issued: Index, now: Node, fresh: Index) -> bool:
    """The row's anchor left the screen sideways, and nothing took its place: a wide row scrolled left or right
    (every cell of Fava's journal got a new ref, "drawn anew", on each sideways scroll).  The element kept its line
    (it did not move up or down by half its height: a recycled row node goes to another line); of the texts its row
    showed, each one whose node is still on screen shows what it showed, and at least one is (a recycled row's texts
    show another item; a row whose every text is new proves nothing)."""
    a, b = rect_of(node), rect_of(now)
    if abs(float(b["y"]) - float(a["y"])) > float(a["height"]) / 2:
        return False
    kept = 0
    for shown in issued.row_nodes(node):
        if shown is node or shown.get("serial") is None:
            continue
        there = fresh.by_serial.get(str(shown["serial"]), [])
        if len(there) > 1 or (there and there[0].get("label") != shown.get("label")):
            return False
        kept += len(there)
    return kept > 0


def _by_context(ref: str, node: Node, issued: Index, fresh: Index) -> Node:
    key = shape(node)
    candidates = fresh.by_shape.get(key, [])
    if not candidates:
        raise _gone(ref, node)
    twins = issued.by_shape.get(key) or [node]
    for proof, texts in _PROOFS:
        old = proof(issued.context(node))
        if old is None or sum(1 for t in twins if proof(issued.context(t)) == old) != 1:
            continue  # this part of the context did not tell the element apart from its twins
        same = [c for c in candidates if proof(fresh.context(c)) == old]
        if len(same) > 1:
            raise _ambiguous(ref, node, len(same))
        if same and _closest(node, same[0], twins, issued, fresh, texts):
            return same[0]
    if len(candidates) > 1:
        raise _ambiguous(ref, node, len(candidates))
    raise ProtocolError(
        e.STALE_REF,
        f"@{ref} ({_describe(node)}) cannot be told from the one like it now on screen: nothing around it "
        "proves it is the same element",
        STALE_HINT,
    )


def _whole(context: tuple[str, ...]) -> tuple[str, ...] | None:
    return context


def _anchor(context: tuple[str, ...]) -> tuple[str, ...] | None:
    return context[:1] or None


def _numbers_blanked(context: tuple[str, ...]) -> tuple[str, ...] | None:
    return tuple(_blank(text) for text in context)


def _closest(  # noqa: PLR0917 - one question about six things
    node: Node, found: Node, twins: list[Node], issued: Index, fresh: Index, texts: _Part
) -> bool:
    """``node`` is, of its twins in the old snapshot, the one ``found`` resembles.  ``found``'s own texts, when they
    changed, are not those of another twin that shares some of its context (unless more elements show them now
    than twins did: ``Like 0`` became ``Like 1`` beside another ``Like 1``) — row 2's number, moved up, is not
    row 1's; and ``found`` shares more of its context (compared as ``texts`` makes them) with ``node`` than with
    any other twin — a counter that moved from one row to the next can make the first text agree; the rest of
    the row says which row it is."""
    now = Counter(texts(fresh.context(found)) or ())
    scores = {t.get("index"): sum((Counter(texts(issued.context(t)) or ()) & now).values()) for t in twins}
    own = _own_texts(found)
    if own != _own_texts(node):
        # the twins that showed these texts and could be ``found`` (they share some of its context)
        others = [t for t in twins if _own_texts(t) == own and t.get("index") != node.get("index")]
        had = len(others)
        near = any(scores[t.get("index")] for t in others)
        shows = sum(1 for c in fresh.by_shape.get(shape(node), []) if _own_texts(c) == own)
        if near and shows <= had:
            return False
    best = max(scores.values())
    return [index for index, score in scores.items() if score == best] == [node.get("index")]


def _own_texts(node: Node) -> tuple[Any, Any]:
    return identity(node)[1], identity(node)[3]


_Part = Callable[[tuple[str, ...]], tuple[str, ...] | None]
#: The parts of an element's context that prove it is the same element, strongest first (see the docstring),
#: each with the way :func:`_closest` compares texts for it.
_PROOFS: tuple[tuple[_Part, _Part], ...] = ((_whole, _whole), (_anchor, _whole), (_numbers_blanked, _numbers_blanked))


def _gone(ref: str, node: Node) -> ProtocolError:
    return ProtocolError(e.STALE_REF, f"@{ref} ({_describe(node)}) is no longer on screen", STALE_HINT)


def _ambiguous(ref: str, node: Node, count: int) -> ProtocolError:
    return ProtocolError(
        e.STALE_REF,
        f"@{ref} ({_describe(node)}) now matches {count} elements and cannot be told apart",
        STALE_HINT,
    )


def _describe(node: Node) -> str:
    label = node.get("label") or node.get("identifier") or node.get("value")
    return f'{node.get("type")} "{label}"' if label else str(node.get("type"))


#: How many refs of elements that left the screen a session keeps for their return (oldest dropped first).  Each
#: keeps the snapshot that issued it (its context is read there): about 15 refs leave per screen scrolled, so this
#: holds some 70 snapshots.
RETIRED_MAX = 1000


class RefTable:
    """The refs a session has issued.  Each names a node *of the snapshot that issued it* (kept with that
    snapshot's :class:`Index`), so refs issued at different times never get mixed up: a new ``snapshot``
    replaces the table; an AMBIGUOUS_MATCH answer adds its candidates under new numbers (or the refs that
    already name them, when the screen is the one the table's snapshot showed).

    Numbers are never reused for another element within a session: a new snapshot gives an element the ref it
    had in the previous table when that ref re-finds to it (:func:`refind`, the same rule a tap applies), and a
    new number otherwise.  So a ref kept from any earlier snapshot either still names its element or answers
    STALE_REF; it can never come to mean a different element.

    **Retired refs** (backends with serials: the web device).  A ref whose element a new snapshot no longer shows
    (a row scrolled out of view) leaves the table but is kept, with the snapshot that issued it, among the
    ``retired`` (the newest :data:`RETIRED_MAX`).  When a later snapshot shows the node of that serial again, the
    ref re-finds it by the same rule (the serial, then the same identity and place — a recycled row node showing
    another item does not get it) and the element gets its old ref back; acting on a retired ref re-finds it the
    same way (or STALE_REF).  Without serials (Android, iOS) nothing is retired: an element that comes back gets a
    new number, because a context proof cannot tell it from an element of its shape that took its place."""

    def __init__(self) -> None:
        self.refs: dict[str, tuple[Node, Index]] = {}
        #: The change mark of the snapshot that issued the table (web): while the page has not changed since, the
        #: table's nodes are the screen as it is (a tap may go to their places unchecked by a fresh snapshot).
        self.mark: str | None = None
        #: The snapshot that issued the table (the one ``mark`` is of).
        self.index: Index | None = None
        #: ref -> (node, the snapshot that issued it), oldest first; only nodes that carry a serial.
        self.retired: dict[str, tuple[Node, Index]] = {}
        self.next = 1

    def refind(self, ref: str, fresh: Index) -> Node:
        """The element of ``fresh`` that ``ref`` names (:func:`refind`; a retired ref by its serial alone), or
        STALE_REF — also for a ref this session never issued."""
        if ref in self.refs:
            node, issued = self.refs[ref]
            return refind(ref, node, issued, fresh)
        self.check(ref)
        node, issued = self.retired[ref]
        return refind(ref, node, issued, fresh, returning=True)

    def check(self, ref: str) -> None:
        """STALE_REF for a ref this session never issued (or one that left long ago), before any I/O."""
        if ref not in self.refs and ref not in self.retired:
            raise ProtocolError(
                e.STALE_REF,
                f"@{ref} was not issued by this session's last snapshot",
                "Run `snapshot` and use a ref from its output.",
            )

    def carried_over(self, index: Index) -> dict[int, str]:
        """Node index (in ``index``) -> the ref that named the same element in the current table (or, for an
        element the table does not re-find, a retired ref whose serial ``index`` shows)."""
        found = _claims(self.refs.items(), index)
        if self.retired and index.by_serial:
            back = ((ref, held) for ref, held in self.retired.items() if str(held[0].get("serial")) in index.by_serial)
            for key, ref in _claims(back, index, returning=True).items():
                found.setdefault(key, ref)
        return found

    def namer(self, index: Index) -> Callable[[Node], str]:
        carried = self.carried_over(index) if self.refs or self.retired else {}

        def name(node: Node) -> str:
            ref = carried.get(int(node["index"]))
            if ref is None:
                ref = f"e{self.next}"
                self.next += 1
            return ref

        return name

    def reset(self, index: Index, rendered: Rendered, mark: str | None = None) -> None:
        old, self.refs = self.refs, {ref: (node, index) for ref, node in rendered.refs.items()}
        self.mark, self.index = mark, index
        for ref in self.refs:
            self.retired.pop(ref, None)
        for ref, held in old.items():
            if ref not in self.refs and held[0].get("serial") is not None:
                self.retired.pop(ref, None)
                self.retired[ref] = held  # the newest last
        while len(self.retired) > RETIRED_MAX:
            del self.retired[next(iter(self.retired))]

    def settle(self, index: Index, rendered: Rendered, mark: str | None = None) -> None:
        """:meth:`reset` for the view an action's reply issued (its settled diff): besides the refs it issued, a ref
        the table held that still names an element of the new screen keeps naming it (an earlier snapshot's
        ``@e6`` of a row a selector's answer listed as ``@e8`` too: both still mean that row)."""
        old = dict(self.refs)
        self.reset(index, rendered, mark)
        for ref, (node, issued) in old.items():
            if ref in self.refs:
                continue
            try:
                now = refind(ref, node, issued, index)
            except ProtocolError:
                continue
            self.refs[ref] = (now, index)
            self.retired.pop(ref, None)

    def clear(self) -> None:
        self.refs = {}  # ``next`` keeps counting: numbers are never reused within a session
        self.mark, self.index = None, None
        self.retired = {}

    def claim(self, node: Node, index: Index) -> str:
        """The ref ``node`` (of snapshot ``index``) carries over, or a new one; a retired ref that re-finds it
        is in the table again."""
        ref = self.carried_over(index).get(int(node["index"]))
        if ref is None:
            return self.add(node, index)
        held = self.retired.pop(ref, None)
        if held is not None:
            self.refs[ref] = (node, index)
        return ref

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
