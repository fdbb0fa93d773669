"""A gesture's aim on the web phone (issue 22): every gesture is given in screen points (docs/snapshot.md's
coordinate model), checked in the page in the evaluation that sends it, and sent only where it reaches what it was
aimed at.  Pure: the refusals a check answers, and the point on the screen a gesture must lie in.

    screen point (x, y) ──► perception's aim() in the page (walker_perception.js): client point, input point,
                            what is hit, and for an element's serial the verdict
        verdict ok      ──► the gesture is sent at the input point (DevTools' CSS px of the visual viewport)
        gone            ──► ELEMENT_MOVED "… is no longer on the page"     (the agent re-finds the ref, once)
        changed         ──► ELEMENT_MOVED "the screen changed after the snapshot" (with a snapshot's mark: idem)
        moved           ──► ELEMENT_MOVED "… is not at (x, y) now: it is at …; there is …"
        covered         ──► ELEMENT_COVERED "… is covered at (x, y) by …"
    off the screen      ──► INVALID_REQUEST before anything is evaluated
    typing aimed at a field that has no focus ──► ELEMENT_MOVED, nothing typed (focus_on.js)
"""

from __future__ import annotations

from typing import Final

from phonewire.devices.web import gestures
from phonewire.devices.web.walk import Aim
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

#: Wraps a probe's answer: installs the tap guard at the aim's client point when the aim is ok (gestures.GUARD_JS),
#: in the evaluation that checked it.
GUARD_IF_OK: Final = (
    f"(a) => (a && a.verdict === 'ok' && a.client && ({gestures.GUARD_JS})(a.client[0], a.client[1]), a)"
)

#: The aim of a gesture whose snapshot no longer shows the screen (a dialog came over the page since).
CHANGED: Final = Aim(None, (0.0, 0.0), (0.0, 0.0), 1.0, "changed")

MOVED_HINT: Final = (
    "Nothing was sent. Take a `snapshot` and act on the element where it shows now (its ref stays the same while it "
    "is the same element)."
)


def check_on_screen(x: float, y: float, width: float, height: float, what: str) -> None:
    """INVALID_REQUEST for a point outside the screen (``width`` x ``height`` points): nothing is sent."""
    if not (0 <= x <= width and 0 <= y <= height):
        raise ProtocolError(
            e.INVALID_REQUEST,
            f"({x:g}, {y:g}) is outside the screen ({width:g} x {height:g} points): no {what} was sent",
            "Use a point on the screen: `snapshot` gives every element's place in screen points; `scroll` or `find` "
            "brings one further along the page onto the screen.",
        )


def check_aim(aim: Aim, element: str | None, x: float, y: float) -> None:
    """The refusal of a gesture aimed at ``element`` whose point (x, y) does not reach it now, or aimed by a snapshot
    whose change mark no longer holds (``changed``: with or without an element); None when it does (or when the
    gesture names no element and came with no mark)."""
    if aim.verdict == "ok" or (element is None and aim.verdict != "changed"):
        return
    there = aim.hit or "nothing"
    if aim.verdict == "changed":
        raise ProtocolError(
            e.ELEMENT_MOVED,
            "the screen changed after the snapshot the tap was aimed by: its places are not proven any more",
            MOVED_HINT,
        )
    if aim.verdict == "gone":
        raise ProtocolError(e.ELEMENT_MOVED, f"the element aimed at ({element}) is no longer on the page", MOVED_HINT)
    if aim.verdict == "covered":
        raise ProtocolError(
            e.ELEMENT_COVERED,
            f"the element aimed at is covered at ({x:g}, {y:g}) by {there}: a tap there would land on that instead",
            "Close what covers it first (its close or cancel button, or `press back`), or scroll the element into "
            "the open; nothing was sent.",
        )
    now = aim.now
    where = (
        f"it is at ({now[0]:.0f}, {now[1]:.0f}, {now[2]:.0f} x {now[3]:.0f}) now"
        if now is not None and now[2] > 0 and now[3] > 0
        else "it has no place on the screen now"
    )
    raise ProtocolError(
        e.ELEMENT_MOVED,
        f"the element aimed at is not at ({x:g}, {y:g}) any more: {where}; there is {there}",
        MOVED_HINT,
    )


def check_focus(elsewhere: object) -> None:
    """ELEMENT_MOVED for typing aimed at a field that does not have focus (focus_on.js's answer is what has it
    instead): nothing is typed."""
    if elsewhere is None:
        return
    there = f"{elsewhere}" if elsewhere else "nothing"
    raise ProtocolError(
        e.ELEMENT_MOVED,
        f"the field the text was aimed at does not have focus ({there} has it: a popup or the page moved focus): "
        "nothing was typed",
        "Take a `snapshot`: close what took focus (a list, a dialog), then fill the field again.",
    )
