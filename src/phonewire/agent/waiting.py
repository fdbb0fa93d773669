"""What ``wait`` compares between two looks at the screen, and what it says when it gives up."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable

from phonewire.agent import selectors
from phonewire.agent.refs import Index
from phonewire.agent.results import ActionResult
from phonewire.agent.view import node_line, render
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.request import MAX_WAIT_MS
from phonewire.protocol.snapshot import Node, Snapshot, rect_of

#: A rendered line's indentation and ref (an error message names no snapshot, so its summary carries no refs).
_REF_PREFIX = re.compile(r"^\s*(?:@e\d+\s+)?")

#: Between two looks of ``wait`` (also the quiet time ``wait --idle`` asks of the screen).
WAIT_POLL_S = 0.1


def screen_shape(nodes: list[Node]) -> list[tuple[object, ...]]:
    """What ``wait --idle`` compares between two looks: each element's role, identifier, label (not of plain text:
    a clock or counter that ticks in place is not a screen that moves) and place."""
    out: list[tuple[object, ...]] = []
    for n in nodes:
        r = rect_of(n)
        label = None if n.get("type") == "StaticText" else n.get("label")
        place = (round(r["x"]), round(r["y"]), round(r["width"]), round(r["height"]))
        out.append((n.get("type"), n.get("identifier"), label, place))
    return out


def wait_timed_out(
    target: str, parsed: selectors.Selector | None, gone: bool, timeout_ms: float, raw: Snapshot
) -> ProtocolError:
    """WAIT_TIMED_OUT saying what the screen showed at the last look."""
    nodes: list[Node] = raw["nodes"]
    title = next((n.get("label") for n in nodes if n.get("parentIndex") is None and n.get("label")), None)
    seen = render(nodes, interactive=True).lines
    last = f"; the screen showed {title!r}" if title else "; the screen showed"
    last += ": " + "; ".join(_REF_PREFIX.sub("", line) for line in seen[:8]) + (" …" if len(seen) > 8 else "")
    hint = (
        f"Wait longer (--timeout, at most {MAX_WAIT_MS} ms), or run `snapshot` and check the selector against what "
        "is on screen (scroll to reveal more)."
    )
    if parsed is None:
        quality = raw["quality"]
        why = quality.get("reason") if quality.get("reasonCode") == "loading" else "it kept changing"
        return ProtocolError(
            e.WAIT_TIMED_OUT, f"the screen did not hold still in {timeout_ms:.0f} ms: {why}{last}", hint
        )
    found = selectors.match(parsed, nodes)
    if gone:
        still = "; ".join(node_line(n) for n in found if not n.get("coveredBy"))
        return ProtocolError(
            e.WAIT_TIMED_OUT, f"{target!r} was still on screen after {timeout_ms:.0f} ms: {still}", hint
        )
    covered = [n for n in found if n.get("coveredBy")]
    why = f" (it matches {node_line(covered[0])}, covered by {covered[0]['coveredBy']})" if covered else ""
    return ProtocolError(
        e.WAIT_TIMED_OUT, f"nothing on screen matched {target!r} in {timeout_ms:.0f} ms{why}{last}", hint
    )


async def poll(
    look: Callable[[], Awaitable[Snapshot]],
    ref_for: Callable[[Node, Index], str],
    target: str,
    parsed: selectors.Selector | None,
    *,
    gone: bool,
    timeout_ms: float,
) -> ActionResult:
    """Look at the screen every WAIT_POLL_S until ``wait``'s condition holds; WAIT_TIMED_OUT after ``timeout_ms``
    with what the screen showed last.  ``look`` takes a raw snapshot; ``ref_for`` names a found node."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    deadline = start + timeout_ms / 1000
    previous: list[tuple[object, ...]] | None = None
    while True:
        raw = await look()
        nodes: list[Node] = raw["nodes"]
        waited = round((loop.time() - start) * 1000)
        if parsed is None:
            shape = screen_shape(nodes)
            loading = raw["quality"].get("reasonCode") == "loading"
            if not loading and shape == previous:
                return ActionResult({"message": f"the screen is idle (after {waited} ms)", "waitedMs": waited})
            previous = None if loading else shape
        else:
            found = selectors.match(parsed, nodes)
            shown = [n for n in found if not n.get("coveredBy")]
            if gone and not shown:
                return ActionResult({"message": f"{target} is gone (after {waited} ms)", "waitedMs": waited})
            if not gone and shown:
                fresh = Index(nodes)
                node = shown[0]
                ref = ref_for(node, fresh)
                line = f"@{ref} {node_line(node)}"
                info = {"ref": ref, "type": node.get("type"), "label": node.get("label")}
                return ActionResult({"message": f"{line} (after {waited} ms)", "waitedMs": waited, "target": info})
        if loop.time() >= deadline:
            raise wait_timed_out(target, parsed, gone, timeout_ms, raw)
        await asyncio.sleep(min(WAIT_POLL_S, max(0.0, deadline - loop.time())))
