"""Targets: what ``@e3``, ``"X Y"`` or a selector names now, and where a gesture on it lands.

A ref is re-found on a fresh snapshot (:mod:`phonewire.agent.refs`) or answers STALE_REF; a selector matches the
fresh snapshot (:mod:`phonewire.agent.selectors`): nothing is AMBIGUOUS_MATCH / NOT_FOUND.  (A tap may go by the
screen the agent last saw instead, while the device confirms it has not changed: :meth:`Resolver.held`.)  A target
that something else covers (its node carries ``coveredBy``: the device hit-tested the point a tap would use) is
ELEMENT_COVERED, and a selector that matches covered and uncovered elements means the uncovered ones — unless the
element is only partly on the screen and the part that shows is covered (a button under a fixed tab bar, the rest
of it below the screen): then the page is scrolled to bring it into the open (:func:`into_view`), once, and it is
found again.  Nothing else here sends anything.
"""

from __future__ import annotations

import re
import time
from typing import Any

from phonewire.agent import selectors
from phonewire.agent.checks import check_reachable, invalid, is_text_input
from phonewire.agent.geometry import centre, has_box, point_of, select_of
from phonewire.agent.hooks import Observers
from phonewire.agent.link import Link
from phonewire.agent.refs import Index, RefTable
from phonewire.agent.view import node_line
from phonewire.protocol import commands as c
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import KEYBOARD, Node, rect_of

_REF = re.compile(r"^@?(e\d+)$")
#: Said first when nothing matches while the on-screen keyboard is up: what lies under it is not on the screen.
_KEYBOARD_UP = (
    "The on-screen keyboard is up (a text field has focus) and covers the bottom of the screen: what is under it is "
    "not listed; `keyboard hide` or `press back` dismisses it. "
)

#: A resolved target: the node, the ref it carries (if any) and the snapshot it was found in.
Found = tuple[Node, str | None, Index]


class Resolver:
    """One session's refs and how its targets resolve."""

    def __init__(self, link: Link, observers: Observers) -> None:
        self.link = link
        self.refs = RefTable()
        self.observers = observers
        #: Set by the last ref/selector resolution: how long the fresh-snapshot check took (seconds).
        self.last_check_s: float = 0.0

    async def resolve(self, target: str) -> tuple[float, float, dict[str, Any]]:
        """The current centre of ``target`` (``@eN``, ``"X Y"`` or a selector) and what it resolved to."""
        point = point_of(target)
        if point is not None:
            return point[0], point[1], {}
        node, ref, found_in = await self.find(target)
        return self.place(node, ref, found_in, target)

    def place(self, node: Node, ref: str | None, found_in: Index, target: str) -> tuple[float, float, dict[str, Any]]:
        """Where a gesture on ``node`` lands (see :meth:`check_place`)."""
        self.check_place(node, found_in, target)
        x, y = centre(node, found_in)
        return x, y, {"target": {"ref": ref, "type": node.get("type"), "label": node.get("label"),
                                 "x": round(x, 1), "y": round(y, 1)}}  # fmt: skip

    def check_place(self, node: Node, found_in: Index, target: str) -> None:
        """INVALID_REQUEST for an element with no place on the screen (a select's option, listed under it, shows
        only while the select is open): a gesture there would land on the screen's origin, so nothing is sent."""
        if not has_box(node):
            owner = select_of(node, found_in)
            hint = (
                f"Choose it with `select TARGET OPTION` on its select ({self.line(owner, found_in)}), or `tap` the "
                "option: a tap chooses it."
                if owner is not None
                else "Act on an element that shows on the screen (`snapshot` lists them with their places)."
            )
            raise invalid(f"{target!r} ({node_line(node)}) has no place on the screen to touch", hint)

    def held(self, target: str) -> tuple[Node, str | None, Index, str] | None:
        """For ``@eN`` naming an element that carries a serial and had its own uncovered place in the snapshot that
        issued the ref (a snapshot with a change mark): that node as that snapshot showed it, and the mark (the
        device sends the gesture only while the page has not changed since, re-finds the element by its serial and
        checks the point in the evaluation that sends it); else None (the target resolves on a fresh snapshot).
        A selector likewise, when it names exactly one such element of that snapshot (the screen the agent last
        saw, or the one the last action's reply left): matched there as it would be on a fresh one, which is the
        same screen while the mark holds — what else it matches, or nothing, is judged on a fresh snapshot.
        The session's observers are told, as for :meth:`find`."""
        match = _REF.match(target.strip())
        mark = self.refs.mark
        if mark is None:
            return None
        if match is None:
            return self._held_selector(target, mark)
        held = self.refs.refs.get(match.group(1))
        if held is None:
            return None
        node, issued = held
        if not self._sendable(node, issued):
            return None
        self.last_check_s = 0.0
        self.observers.resolved(node, match.group(1), issued.nodes)
        return node, match.group(1), issued, mark

    @staticmethod
    def _sendable(node: Node, issued: Index) -> bool:
        """Whether a gesture may go to ``node``'s place in ``issued`` unchecked by a fresh snapshot: it carries a
        serial (the device re-finds it) and has a place of its own, uncovered, and it is no option of a select."""
        return bool(node.get("serial")) and has_box(node) and not node.get("coveredBy") and not select_of(node, issued)

    def _held_selector(self, target: str, mark: str) -> tuple[Node, str | None, Index, str] | None:
        index = self.refs.index
        if index is None or point_of(target) is not None:
            return None
        try:
            selector = selectors.parse(target)
        except ProtocolError:
            return None  # the fresh path says what is wrong with it
        found = [n for n in selectors.match(selector, index.nodes) if not n.get("coveredBy")]
        if len(found) != 1 or not self._sendable(found[0], index) or _mentioned_only(target, selector, found[0]):
            return None
        node = found[0]
        ref = self.refs.existing(node, index)
        self.last_check_s = 0.0
        self.observers.resolved(node, ref, index.nodes)
        return node, ref, index, mark

    def line(self, node: Node, index: Index) -> str:
        """``@eN Role "label" id=…`` of ``node`` (not its value: it may be about to change), with the ref it carries
        (or a new one)."""
        return f"@{self.ref_for(node, index)} {node_line({**node, 'value': None})}"

    def ref_for(self, node: Node, fresh: Index) -> str:
        """The ref ``node`` carries over from the last snapshot, or a new one."""
        return self.refs.claim(node, fresh)

    async def find(self, target: str, *, editable: bool = False) -> Found:
        """The node ``target`` names now (with its ref, if any, and the snapshot it was found in); the session's
        observers are told.  ``editable``: a selector matching text fields among other nodes keeps only the text
        fields, before the ancestor rule (``fill label=Name`` means the field, not its caption or a group of that
        name)."""
        node, ref, index = await self._find(target, editable)
        self.observers.resolved(node, ref, index.nodes)
        return node, ref, index

    async def _find(self, target: str, editable: bool, *, scrolled: bool = False) -> Found:
        try:
            return await self._find_once(target, editable)
        except Covered as covered:
            if scrolled or not await into_view(self.link, covered.node):
                raise covered.error from None
            return await self._find(target, editable, scrolled=True)

    async def _find_once(self, target: str, editable: bool) -> Found:
        target = target.strip()
        if not target:
            raise invalid("empty target", "A target is @eN (a ref from `snapshot`), 'X Y' or a selector.")
        start = time.perf_counter()
        ref_match = _REF.match(target)
        if ref_match:
            ref = ref_match.group(1)
            self.refs.check(ref)
            now = Index((await self.link.snapshot(refront=True))["nodes"])
            node = self.refs.refind(ref, now)
            self.last_check_s = time.perf_counter() - start
            _reachable(node, f"@{ref}")
            return node, ref, now
        selector = selectors.parse(target)  # before any I/O: a bad selector costs nothing
        nodes = (await self.link.snapshot(refront=True))["nodes"]
        found = selectors.match(selector, nodes, prefer=is_text_input if editable else None)
        self.last_check_s = time.perf_counter() - start
        if not found:
            raise ProtocolError(
                e.NOT_FOUND,
                f"nothing on screen matches {target!r}",
                _KEYBOARD_UP
                * any(n.get("type") == KEYBOARD for n in nodes)
                + "Run `snapshot` to see what is on screen, then use a ref or a selector. An element further along the "
                "page: `find SELECTOR` scrolls to it. One the page hides (drawn over by a widget of its own, inside "
                "a closed menu) is not listed: act on what shows in its place.",
            )
        fresh = Index(nodes)
        reachable = [n for n in found if not n.get("coveredBy")]
        if not reachable:
            _reachable(found[0], target)
        found = reachable
        if len(found) == 1 and _mentioned_only(target, selector, found[0]):
            ref = self.refs.add(found[0], fresh)
            raise ProtocolError(
                e.NOT_FOUND,
                f"nothing on screen is named {target!r}: @{ref} {node_line(found[0])} only mentions it among other "
                "words",
                f"If that text is what you mean, tap it by its ref (`@{ref}`). An element named so further along the "
                f"page: `find {target}` scrolls to it.",
            )
        if len(found) > 1:
            listing = "; ".join(f"@{self.refs.add(n, fresh)} {node_line(n)}" for n in found[:10])
            more = f" (+{len(found) - 10} more)" if len(found) > 10 else ""
            raise ProtocolError(
                e.AMBIGUOUS_MATCH,
                f"{target!r} matches {len(found)} elements: {listing}{more}",
                "Pick one of the refs listed (e.g. `tap @eN`) or add terms to the selector (role=, id=, label=; "
                "label== for the exact label: label= reads it as a person does, ignoring case and punctuation).",
            )
        return found[0], self.refs.existing(found[0], fresh), fresh


def _mentioned_only(target: str, selector: selectors.Selector, node: Node) -> bool:
    """Whether bare words (no ``key=``) match ``node`` only because it holds them among others — a status line that
    says "date=2024-05-01" for ``2024`` while the buttons named "2024" are off the screen: a gesture there would
    be a guess (a selector with keys means what it says: ``text=2024`` is any text holding the word)."""
    return "=" not in target and selectors.mentions_only(selector, node)


class Covered(Exception):
    """ELEMENT_COVERED for ``node``, raised inside a resolution that may scroll it into the open and look again."""

    def __init__(self, error: ProtocolError, node: Node) -> None:
        super().__init__(error.message)
        self.error, self.node = error, node


def _reachable(node: Node, target: str) -> None:
    try:
        check_reachable(node, target)
    except ProtocolError as exc:
        raise Covered(exc, node) from None


#: Where :func:`into_view` brings an element cut by the screen's bottom (top) edge: its bottom (top) this far down the
#: screen — clear of a tab bar or header fixed to that edge.
INTO_VIEW_AT = 0.6


async def into_view(link: Link, node: Node) -> bool:
    """Scroll the page so that ``node``, cut by the app's top or bottom edge, shows whole; False (nothing scrolled)
    for a node that the edge does not cut (what covers it covers it wherever it is) or that is taller than
    :data:`INTO_VIEW_AT` of the screen."""
    shown = (await link.send(c.VIEWPORT, app=True)).data or {}
    r = rect_of(node)
    top, height = float(r.get("y", 0)), float(r.get("height", 0))
    edge_top, screen_h = float(shown.get("y", 0) or 0), float(shown.get("height", 0) or 0)
    if screen_h <= 0 or height <= 0 or height > screen_h * INTO_VIEW_AT:
        return False
    if top + height > edge_top + screen_h + 0.5:
        direction, distance = "down", top + height - edge_top - screen_h * INTO_VIEW_AT
    elif top < edge_top - 0.5:
        direction, distance = "up", edge_top + screen_h * (1 - INTO_VIEW_AT) - top
    else:
        return False
    amount = min(max(distance / screen_h, 0.05), 0.8)
    await link.send(c.SCROLL, {"direction": direction, "amount": round(amount, 3)}, app=True)
    return True
