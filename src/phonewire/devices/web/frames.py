"""Frames of another origin on the web phone (issue 22 item 2): their documents are not reachable from the page's,
so each is walked in its own and its rows are joined into the view where the frame is drawn.

    a frame of another origin ──► its document runs in
        the same renderer (same site, another port)  → an execution context of the page's session
                                                        (Runtime.executionContextCreated, default world)
        a renderer of its own (another site, in a browser that isolates sites: --site-per-process; the runner's
                               Chromium does not by default) → a session of its own, auto-attached to the
                                                        page's (Target.setAutoAttach, flatten), set up before it runs
    snapshot ──► the page's walk leaves such a frame as its Iframe row and where it is drawn (walker_perception's
                 HOLES); each frame's element → its frame id (DOM.describeNode, cached by the element's serial);
                 the walker run in the frame's document with that place (cfg.frame); its rows grafted under the
                 frame's row (their serials whole: ``doc:n`` of that document); frames in it likewise, 3 deep
    gesture on a frame's element ──► the chain of frames from the top to its document (recorded by the snapshot):
                 the point aimed at each frame's element in turn (it reaches the frame, where it is drawn now), then
                 at the element in the frame's document; sent at the top's input point (the browser routes it);
                 a frame that started navigating before the finger lifted is a refusal, nothing sent again

The state of a page's frames (kept from the browser's events) and the calls that walk and aim through them; the
device's rooms (pages.py, view.py, input.py) call these.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Final

from phonewire.devices.web import aiming, js, page_script
from phonewire.devices.web.cdp import CdpError, CdpSession
from phonewire.devices.web.walk import CHANGE_MARK, WALKER_MISSING, Aim, Probe, aim_of, walker_call
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

#: Asked of every page's session (and of every frame's own): attach each frame of another site that runs in a
#: renderer of its own, paused before its first script, on a flattened session.
FRAME_ATTACH: Final = {
    "autoAttach": True,
    "waitForDebuggerOnStart": True,
    "flatten": True,
    "filter": [{"type": "iframe", "exclude": False}],
}
#: How many frames of another origin deep the view goes (a frame in a frame in a frame).
MAX_DEPTH: Final = 3
#: Frame documents whose chain is kept for gestures (and frame elements whose frame id is kept); past it all are
#: forgotten and found again by the next snapshot (a page that replaces its frames without end).
MAX_DOCS: Final = 256
_HOLE = "window[Symbol.for('phonewire.frameHoles')][%d]"
#: Events about frames (pages.py hands them here).
EVENTS: Final = frozenset({
    "Runtime.executionContextCreated", "Runtime.executionContextDestroyed", "Runtime.executionContextsCleared",
    "Target.attachedToTarget", "Target.detachedFromTarget", "Page.frameRequestedNavigation",
    "Page.frameStartedLoading", "Page.frameNavigated", "Page.frameDetached",
})  # fmt: skip

MOVED_HINT: Final = (
    "Take a `snapshot`: it shows the frame as it is now; then act on the element where it shows (nothing was sent)."
)


@dataclass(frozen=True, slots=True)
class Where:
    """Where a document runs: a session and, for a frame in the session's renderer, its execution context (None:
    the session's own document)."""

    session: CdpSession
    context: int | None = None


@dataclass(slots=True)
class Frames:
    """A page's frames of another origin (one per page: target.py's ``Page.frames``)."""

    #: frame id → where its document runs now.
    contexts: dict[str, Where] = field(default_factory=dict)
    #: frame id → navigations seen in it (requested, started, committed, detached): a gesture compares them.
    navigations: dict[str, int] = field(default_factory=dict)
    #: frame id → its navigation count when it was last asked to follow a link or send a form (the request's
    #: reason: FOLLOWED): a gesture whose first navigation since it was aimed is such a request followed its link.
    followed: dict[str, int] = field(default_factory=dict)
    #: the serial of a frame element → its frame id.
    owners: dict[str, str] = field(default_factory=dict)
    #: a frame document's id → the frames from the top to it: (the frame element's serial, the frame's id) each.
    docs: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    #: the frames the last snapshot joined into the view: their change marks count in the page's (view.py).
    shown: list[str] = field(default_factory=list)
    #: frame id → where the last snapshot drew it: its client px show at screen (x, y) + client * scale.
    placed: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    #: the sessions of frames in renderers of their own → their frame id, and the sessions themselves.
    sessions: dict[str, str] = field(default_factory=dict)
    own: dict[str, CdpSession] = field(default_factory=dict)

    def on_event(self, method: str, params: dict[str, Any], session: CdpSession) -> CdpSession | None:
        """Follow one event on the page's session or a frame's own (``session``); answers the session of a frame
        just attached (the caller sets it up: :func:`follow`)."""
        sid = session.session_id
        if method == "Runtime.executionContextCreated":
            ctx = params.get("context") or {}
            aux = ctx.get("auxData") or {}
            frame_id = str(aux.get("frameId") or "")
            if aux.get("isDefault") and frame_id and self.sessions.get(sid) != frame_id and "id" in ctx:
                self.contexts[frame_id] = Where(session, int(ctx["id"]))
        elif method == "Runtime.executionContextDestroyed":
            gone = params.get("executionContextId")
            self._drop(lambda w: w.session.session_id == sid and w.context == gone)
        elif method == "Runtime.executionContextsCleared":
            self._drop(lambda w: w.session.session_id == sid and w.context is not None)
        elif method == "Target.attachedToTarget":
            info = params.get("targetInfo") or {}
            child = str(params.get("sessionId") or "")
            if info.get("type") == "iframe" and child:
                self.sessions[child] = str(info.get("targetId") or "")
                self.own[child] = session.connection.session(child)
                self.contexts[self.sessions[child]] = Where(self.own[child])
                return self.own[child]
        elif method == "Target.detachedFromTarget":
            child = str(params.get("sessionId") or "")
            frame_id = self.sessions.pop(child, "")
            self.own.pop(child, None)
            self._drop(lambda w: w.session.session_id == child)
            if frame_id:
                self.navigations[frame_id] = self.navigations.get(frame_id, 0) + 1
        else:  # a frame navigating, or gone
            self._navigating(method, params)
        return None

    def _navigating(self, method: str, params: dict[str, Any]) -> None:
        frame_id = str((params.get("frame") or {}).get("id") or params.get("frameId") or "")
        if frame_id:
            self.navigations[frame_id] = self.navigations.get(frame_id, 0) + 1
            if method == "Page.frameRequestedNavigation" and params.get("reason") in FOLLOWED:
                self.followed[frame_id] = self.navigations[frame_id]

    def _drop(self, which: Callable[[Where], bool]) -> None:
        for frame_id in [f for f, w in self.contexts.items() if which(w)]:
            del self.contexts[frame_id]

    def chain(self, element: str | None) -> tuple[tuple[str, str], ...]:
        """The frames from the top to the document of ``element``'s serial (empty: the page's own)."""
        return self.docs.get(element.split(":", 1)[0], ()) if element else ()


async def follow(child: CdpSession, hooks: tuple[str, ...]) -> None:
    """Set up a frame's own session, paused before its first script: the page hooks, its events, frames in it, and
    then it runs (each command is written in order; the paused renderer answers them once it runs)."""
    calls = [
        child.send("Runtime.enable"),
        child.send("Page.enable"),
        *(child.send("Page.addScriptToEvaluateOnNewDocument", {"source": script}) for script in hooks),
        child.send("Target.setAutoAttach", FRAME_ATTACH),
        child.send("Runtime.runIfWaitingForDebugger"),
    ]
    await asyncio.gather(*calls, return_exceptions=True)


async def evaluate(where: Where, expression: str, *, await_promise: bool = False) -> Any:
    """The value of ``expression`` in ``where``'s document (page_script's evaluate there)."""
    return await page_script.evaluate(where.session, expression, await_promise=await_promise, context=where.context)


#: Whether focus is in a frame whose document the page's cannot reach (the active element, through shadow roots and
#: frames of its origin, is a frame with no document here).
FOCUS_IN_FRAME: Final = (
    f"(a => !!a && (a.tagName === 'IFRAME' || a.tagName === 'FRAME') && !a.contentDocument)({js.ACTIVE_ELEMENT}())"
)
#: In a frame's document: it holds the focused element itself (not a frame of its own holding it).
_FOCUS_HERE: Final = f"document.hasFocus() && !({FOCUS_IN_FRAME})"


async def focused(frames: Frames, top: Where) -> Where:
    """Where the focused element's document runs: the page's, or the frame of another origin that holds it."""
    if not frames.contexts or not await evaluate(top, FOCUS_IN_FRAME):
        return top
    places = list(frames.contexts.values())
    answers = await asyncio.gather(*(evaluate(w, _FOCUS_HERE) for w in places), return_exceptions=True)
    return next((w for w, here in zip(places, answers, strict=True) if here is True), top)


async def walker(where: Where, probe: Probe | None, frame: dict[str, Any], *, then: str = "") -> Any:
    """The walk (or, with ``probe``, the aim) in a frame's document drawn at ``frame``, the walker defined there
    first when it is missing."""
    wrap = (lambda call: f"({then})({call})") if then else (lambda call: call)
    value = await evaluate(where, wrap(walker_call(probe, frame=frame)), await_promise=probe is None)
    if value == WALKER_MISSING:
        value = await evaluate(where, wrap(walker_call(probe, define=True, frame=frame)), await_promise=probe is None)
    return value


async def _frame_id(frames: Frames, where: Where, index: int, serial: str) -> str | None:
    """The frame id of the walk's ``index``-th frame of another origin (its element's serial ``serial``)."""
    known = frames.owners.get(serial)
    if known is not None and known in frames.contexts:
        return known
    params: dict[str, Any] = {"expression": _HOLE % index}
    if where.context is not None:
        params["contextId"] = where.context
    found = (await where.session.send("Runtime.evaluate", params)).get("result", {}).get("objectId")
    if not found:
        return None
    try:
        node = (await where.session.send("DOM.describeNode", {"objectId": found})).get("node") or {}
    finally:
        with contextlib.suppress(CdpError):
            await where.session.send("Runtime.releaseObject", {"objectId": found})
    frame_id = node.get("frameId")
    if isinstance(frame_id, str) and frame_id:
        frames.owners[serial] = frame_id
        return frame_id
    return None


async def join(frames: Frames, walk: dict[str, Any], where: Where, chain: tuple[tuple[str, str], ...] = ()) -> None:
    """Graft into ``walk`` (in place) the rows of its frames of another origin, each walked in its own document
    where it is drawn; a frame not reachable now (loading, gone) stays its Iframe row."""
    holes, nodes, doc = walk.get("frames"), walk.get("nodes"), walk.get("doc")
    if not isinstance(holes, list) or not holes or not isinstance(nodes, list) or not isinstance(doc, str):
        return
    if len(frames.docs) > MAX_DOCS or len(frames.owners) > MAX_DOCS:
        frames.docs.clear()
        frames.owners.clear()
    walks = (_walk_hole(frames, where, i, hole, (f"{doc}:{nodes[int(hole[0])][10]}", chain)) for i, hole in
             enumerate(holes))  # fmt: skip
    subs = await asyncio.gather(*walks, return_exceptions=True)
    for hole, sub in zip(holes, subs, strict=True):
        if isinstance(sub, dict):
            _graft(nodes, sub, int(hole[0]))


async def _walk_hole(
    frames: Frames, where: Where, index: int, hole: list[Any], owner: tuple[str, tuple[tuple[str, str], ...]]
) -> dict[str, Any] | None:
    """The walk of the walk's ``index``-th frame of another origin, ``hole`` (walker_perception's HOLES), whose
    element has the serial ``owner[0]`` and lies in the document that ``owner[1]`` leads to."""
    _, x, y, scale, view = hole
    serial, chain = owner
    frame_id = await _frame_id(frames, where, index, serial)
    inside = frames.contexts.get(frame_id) if frame_id else None
    if inside is None or frame_id is None:
        return None
    sub = await walker(inside, None, {"at": [x, y], "scale": scale, "view": view})
    if not isinstance(sub, dict) or not isinstance(sub.get("doc"), str):
        return None
    mine = (*chain, (serial, frame_id))
    frames.docs[sub["doc"]] = mine
    frames.shown.append(frame_id)
    frames.placed[frame_id] = (float(x), float(y), float(scale))
    if len(mine) < MAX_DEPTH:
        await join(frames, sub, inside, mine)
    return sub


async def selections(frames: Frames, probe: str) -> list[Any]:
    """The text selections in the frames of another origin the last snapshot showed (each document holds its own):
    ``probe`` (selection.js, a function of the frame's place) evaluated in each frame's own document."""
    out: list[Any] = []
    for frame_id in frames.shown:
        where, place = frames.contexts.get(frame_id), frames.placed.get(frame_id)
        if where is None or place is None:
            continue
        try:
            found = await evaluate(where, f"({probe})([{place[0]}, {place[1]}, {place[2]}])")
        except (CdpError, ProtocolError):
            continue  # gone since: it holds nothing
        if isinstance(found, dict):
            out.append(found)
    return out


async def marks(frames: Frames, mark: str) -> str:
    """The page's change mark ``mark`` with those of the frames the last snapshot joined (each evaluated in its own
    document; a frame gone or not answering reads as a change)."""
    places = [frames.contexts.get(frame_id) for frame_id in frames.shown]
    if not places:
        return mark
    answers = await asyncio.gather(*(evaluate(w, CHANGE_MARK) for w in places if w is not None), return_exceptions=True)
    return "|".join([mark, *(str(a) if not isinstance(a, BaseException) else "?" for a in answers)]) + (
        "|gone" if None in places else ""
    )


def _graft(nodes: list[Any], sub: dict[str, Any], row: int) -> None:
    """The frame's rows appended under its row ``row``: parents re-indexed, serials made whole (``doc:n``)."""
    base, doc = len(nodes), sub["doc"]
    for row_of_frame in sub.get("nodes") or []:
        if not isinstance(row_of_frame, list) or len(row_of_frame) < 11:
            continue
        item = list(row_of_frame)
        parent = item[0] if isinstance(item[0], int) else -1
        item[0] = row if parent < 0 else parent + base
        if isinstance(item[10], int) and item[10]:
            item[10] = f"{doc}:{item[10]}"
        nodes.append(item)


@dataclass(frozen=True, slots=True)
class Aimed:
    """A gesture's aim through frames: the top's (its ``input`` point is where the gesture is sent), the aim at the
    element in its frame (its verdict, hit and client point), where that frame's document runs, and its id."""

    top: Aim
    inner: Aim
    where: Where
    frame_id: str


TopProbe = Callable[[Probe], Awaitable[Any]]


async def aim(
    frames: Frames, top: TopProbe, point: tuple[float, float], element: str, mark: str | None, *, then: str = ""
) -> Aimed:
    """Aim (x, y) at ``element`` in a frame of another origin: at each frame of its chain (the point must reach
    that frame where it is drawn now), then at the element in the frame's document (``then`` wraps that last
    probe, as walk.py's walker calls do).  Refusals say which frame stopped it."""
    x, y = point
    chain = frames.chain(element)
    first = aim_of(await top((x, y, chain[0][0], mark or "")), x, y)
    _check_frame(first, element, x, y)
    at, inside, frame_id = first, None, ""
    for i, (_, frame_id) in enumerate(chain):
        inside = frames.contexts.get(frame_id)
        if inside is None or at.frame is None:
            raise ProtocolError(
                e.ELEMENT_MOVED,
                f"the frame that held the element aimed at ({element}) navigated or closed: its content is not "
                "reachable now",
                MOVED_HINT,
            )
        last = i == len(chain) - 1
        probe: Probe = (x, y, element) if last else (x, y, chain[i + 1][0])
        at = aim_of(await walker(inside, probe, at.frame, then=then if last else ""), x, y)
        if not last:
            _check_frame(at, element, x, y)
    assert inside is not None
    return Aimed(first, at, inside, frame_id)


def _check_frame(aim: Aim, element: str, x: float, y: float) -> None:
    """The refusal of a point that does not reach the frame holding ``element``."""
    if aim.verdict == "gone":
        raise ProtocolError(
            e.FRAME_CHANGED,
            f"the frame that held the element aimed at ({element}) is no longer on the page (it was removed or "
            "replaced): the element is gone with it",
            MOVED_HINT,
        )
    aiming.check_aim(aim, element, x, y)


#: The reasons of a navigation request (Page.frameRequestedNavigation) that a click on a link or a form's button
#: makes: the frame leaves because the gesture reached it.
FOLLOWED: Final = frozenset({"anchorClick", "formSubmissionGet", "formSubmissionPost"})


def check_still(frames: Frames, frame_id: str, before: int, what: str, now: int | None = None) -> None:
    """FRAME_CHANGED when the frame ``frame_id`` navigated (or went) since ``before`` (its navigations then) — while
    the gesture was being sent (``now``: its navigations when the finger lifted; else now); the gesture is not sent
    again.  A frame whose first navigation since then is a link or form it was asked to follow (the tap's click
    followed its link) did what the gesture asked."""
    if (frames.navigations.get(frame_id, 0) if now is None else now) == before:
        return
    if frames.followed.get(frame_id) == before + 1:
        return
    raise ProtocolError(
        e.FRAME_CHANGED,
        f"the frame the {what} was aimed into navigated while it was being sent: the touch went to the page the frame "
        "was leaving, and what it reached is not known",
        "Nothing was sent again. Take a `snapshot` to see the frame's new page, then act on it.",
    )
