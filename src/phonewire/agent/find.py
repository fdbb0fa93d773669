"""``find``: scroll until an element a selector matches shows, and answer its line, ready to act on.

Already on screen: no scroll at all.  Else it scrolls ``direction``, up to ``max_scrolls`` times, looking after each;
a device that can search off screen (the web phone) is sent the selector's terms (``revealTerms``) and scrolls the
container that holds the first element off screen they match towards it instead (or, in a virtual list, jumps to
where a numbered row would be).  Whatever the device did, the match is decided here, on the snapshot, by the same
rules as ``tap``.  NOT_FOUND at the end of the content or after ``max_scrolls``, saying how far it scrolled.

What merely mentions the words (:func:`~phonewire.agent.selectors.mentions_only`: a paragraph holding them among
others, no control or row — MiniWoB's "Select Janessa from the list" above the list) is not settled on at once: the
device is asked to locate a match off screen and to move only towards it (``revealOnly``: the container the match is
in, an inner list rather than the page), until the match shows or the device locates nothing more (or cannot
search: Android, iOS answer ``located: false`` and move nothing); then the mention on screen is the answer.
"""

from __future__ import annotations

import difflib
import re
from typing import Any

from phonewire.agent import selectors
from phonewire.agent.checks import check_direction, invalid
from phonewire.agent.link import Link
from phonewire.agent.refs import Index
from phonewire.agent.resolve import Resolver
from phonewire.agent.results import ActionResult, Reply
from phonewire.agent.view import node_line
from phonewire.protocol import commands as c
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.folding import fold
from phonewire.protocol.request import DEFAULT_FIND_SCROLLS, MAX_FIND_SCROLLS

#: ``find``'s scrolls: most of the container each time (less than a full one, so nothing is skipped).
FIND_SCROLL_AMOUNT = 0.8


def checked(selector: str, direction: str, max_scrolls: int) -> tuple[selectors.Selector, str]:
    """``find``'s arguments checked before any I/O (a bad selector costs nothing): the parsed selector and the
    direction."""
    d = check_direction(direction)
    if isinstance(max_scrolls, bool) or not isinstance(max_scrolls, int) or not 0 <= max_scrolls <= MAX_FIND_SCROLLS:
        raise invalid(
            f"max_scrolls must be an integer from 0 to {MAX_FIND_SCROLLS}, got {max_scrolls!r}",
            f"Leave it out (default {DEFAULT_FIND_SCROLLS}) or give a whole number.",
        )
    return selectors.parse(selector), d


async def scroll_to(
    link: Link,
    resolver: Resolver,
    selector: str,
    parsed: selectors.Selector,
    *,
    direction: str,
    max_scrolls: int,
    located_only: bool,
) -> ActionResult:
    """The loop of ``find`` (``located_only``: scroll only towards what the device locates off screen)."""
    reveal = reveal_terms(parsed)
    scrolls, moved, at_end, went, measured = 0, 0.0, False, direction, False
    located: bool | None = None
    looking_past_mention, revealed = False, False  # asked the device for a match beyond a mention; it shows now
    envs: list[Reply] = []
    while True:
        nodes = (await link.snapshot(refront=True))["nodes"]
        shown = [n for n in selectors.match(parsed, nodes) if not n.get("coveredBy")]
        strong = [n for n in shown if not selectors.mentions_only(parsed, n)]
        look_past = (
            shown and not strong and not located_only and reveal is not None and scrolls < max_scrolls
            and not at_end and not revealed and not (looking_past_mention and located is False)
        )  # fmt: skip
        if (strong or shown) and not look_past:
            node = (strong or shown)[0]
            ref = resolver.ref_for(node, Index(nodes))
            line = f"@{ref} {node_line(node)}"
            how = f" after {scrolls} scroll(s), {moved:.0f} pt" if scrolls else ""
            data = {"message": line + how, "line": line, "ref": ref, "scrolls": scrolls,
                    "distance": round(moved, 1), "target": {"ref": ref, "type": node.get("type"),
                                                          "label": node.get("label")}}  # fmt: skip
            warning = "; ".join(env.warning for env in envs if env.warning) or None
            return ActionResult(data, warning, any(env.reactivated for env in envs))
        if located_only and (reveal is None or located is False):
            raise ProtocolError(
                e.NOT_FOUND,
                f"nothing on screen matches {selector!r}, and the device located none off screen",
                "Check the locator against the page source; where the device cannot search off screen "
                "(Android, iOS), scroll first (`mobile: scroll`) or use `mobile: find`.",
            )
        if at_end or scrolls >= max_scrolls:
            why = "reached the end" if at_end else f"stopped after max_scrolls={max_scrolls}"
            raise ProtocolError(
                e.NOT_FOUND,
                f"nothing on screen matches {selector!r} after {scrolls} scroll(s) {went} "
                f"({f'{moved:.0f} pt' if measured or not scrolls else 'the device cannot measure how far'}): "
                f"{why}",
                near_misses_said(parsed, nodes)
                + "Check the selector against `snapshot`; try `--direction up` (or left/right), "
                + ("or a larger --max-scrolls." if not at_end else "or another screen."),
            )
        fields: dict[str, Any] = {"direction": went, "amount": FIND_SCROLL_AMOUNT}
        if reveal:
            fields["revealTerms"] = reveal
        if located_only or look_past:
            fields["revealOnly"] = True
        looking_past_mention = looking_past_mention or bool(look_past)
        env = await link.send(c.SCROLL, fields, app=True)
        envs.append(env)
        data = env.data or {}
        located = False if data.get("located") is False else None
        revealed = bool(data.get("revealed"))
        if look_past and located is False:
            continue  # nothing located beyond the mention, nothing moved: it is the answer
        scrolls += 1
        went = str(data.get("direction") or went)
        distance = data.get("distance")
        measured = measured or isinstance(distance, int | float)
        moved += float(distance) if isinstance(distance, int | float) else 0.0
        # at the end, or a measured scroll that did not move at all: nothing more to reveal that way
        at_end = bool(data.get("atEnd")) or (isinstance(distance, int | float) and distance < 0.5)


def reveal_terms(parsed: selectors.Selector) -> list[str] | None:
    """What ``find`` asks the device to search off screen (the wire field ``revealTerms``): the selector's string
    terms as ``key=value``, ``||`` between alternatives (its booleans — ``enabled`` … — are checked here only).
    A selector with a pattern or a number comparison (``label~=/…/``, ``value<45``) asks for no search: the device
    would locate what the rest matches (any ``Button``) and scroll towards it, away from the match; ``find`` scrolls
    the way it was told instead and reads each screen."""
    if any(isinstance(t.value, re.Pattern | float) for alternative in parsed.alternatives for t in alternative):
        return None
    out: list[str] = []
    for alternative in parsed.alternatives:
        terms = [f"{t.key}={t.value}" for t in alternative if isinstance(t.value, str) and t.value]
        if terms:
            out.extend(["||", *terms] if out else terms)
    return out or None


#: How alike a name on the screen and a searched word must be to be offered as what was meant (difflib's ratio of
#: their folded forms: "Persn 12" and "Person 12" 0.94, "Person 12" and "Person 2" 0.94, "Save" and "Delete" 0.4).
NEAR_MISS_RATIO = 0.6
#: At most this many are offered.
NEAR_MISSES = 3


def near_misses(parsed: selectors.Selector, nodes: list[Any]) -> list[str]:
    """The view lines of the elements on the screen whose name (or id, for an ``id=`` term) is nearest the selector's
    words, best first: what a NOT_FOUND ``find`` offers as what may have been meant."""
    words = {(t.key == "id", t.folded) for alt in parsed.alternatives for t in alt
             if t.key in ("label", "text", "value", "id") and isinstance(t.value, str) and t.folded}  # fmt: skip
    scored: dict[str, float] = {}
    for node in nodes:
        if node.get("coveredBy") or node.get("type") == "Application":
            continue
        for by_id, word in words:
            name = node.get("identifier") if by_id else node.get("label")
            if not isinstance(name, str) or not name.strip() or len(name) > 4 * len(word) + 20:
                continue
            ratio = difflib.SequenceMatcher(None, word, fold(name)).ratio()
            line = node_line(node)
            if ratio >= NEAR_MISS_RATIO and ratio > scored.get(line, 0.0):
                scored[line] = ratio
    return sorted(scored, key=lambda line: -scored[line])[:NEAR_MISSES]


def near_misses_said(parsed: selectors.Selector, nodes: list[Any]) -> str:
    """The hint's opening sentence naming :func:`near_misses`, or ""."""
    near = near_misses(parsed, nodes)
    return f"Nearest on the screen now: {'; '.join(near)}. " if near else ""
