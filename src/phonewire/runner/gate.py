"""The execution gate's decisions: pure, no I/O, no event loop.  Time is passed in (``now``), so every verdict can
be tested with a fake clock.  :mod:`phonewire.runner.executor` is the asyncio plumbing that asks these questions.

The rules::

    one command on the device at a time, in acceptance order, each under its budget measured from acceptance

    arrival ──► admit(now) ── abandoned work draining ───► RUNNER_BUSY   (nothing ran; retry later)
                  │         └ ... stuck past the wedge ──► RUNNER_WEDGED (recycle the runner)
                  ▼
                queued ── budget expires before it starts ─────────────► RUNNER_BUSY / RUNNER_WEDGED (never ran)
                  │    └─ the command ahead is abandoned ─────────────► RUNNER_BUSY / RUNNER_WEDGED (never ran)
                  ▼
                running ── work done by the deadline ───► its own reply
                        └─ deadline reached, work not done ──► COMMAND_TIMED_OUT; the work is *abandoned*:
                                                               never cancelled, counted until it drains

``state`` for ``status``: ``wedged`` when abandoned work has been running for at least the wedge threshold (from
its start), ``busy`` while anything runs, waits or drains, else ``idle``.

Work that is done at the very moment its budget expires counts as done (:func:`decide`): its reply is the one
the client gets and the one the journal records, decided once.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError


class GateError(Exception):
    """A transition the gate does not allow (a runner bug, never a client error)."""


class RunnerState(enum.Enum):
    IDLE = "idle"
    BUSY = "busy"
    WEDGED = "wedged"


class Outcome(enum.Enum):
    WAIT = "wait"
    RESULT = "result"
    TIMED_OUT = "timedOut"


def decide(work_done: bool, now: float, deadline: float) -> Outcome:
    """The one verdict on a running command.  Done work wins, even when the deadline is reached in the same step."""
    if work_done:
        return Outcome.RESULT
    if now >= deadline:
        return Outcome.TIMED_OUT
    return Outcome.WAIT


def busy_error(message: str) -> ProtocolError:
    return ProtocolError(
        e.RUNNER_BUSY,
        message,
        "Nothing ran. Earlier work is still draining on the device; retry this command in a few seconds.",
    )


def wedged_error(stuck_s: float) -> ProtocolError:
    return ProtocolError(
        e.RUNNER_WEDGED,
        f"abandoned work has been stuck on the device for {stuck_s:.1f} s; nothing ran",
        "The runner is wedged: recycle it (stop and start a new runner) before sending more commands.",
    )


@dataclass(slots=True)
class Gate:
    wedge_threshold: float
    running: int | None = None
    running_since: float = 0.0
    queued: int = 0
    #: token -> time the abandoned work started
    abandoned: dict[int, float] = field(default_factory=dict)

    # -- questions -------------------------------------------------------------------------------------------------
    def state(self, now: float) -> RunnerState:
        if self.abandoned and now - min(self.abandoned.values()) >= self.wedge_threshold:
            return RunnerState.WEDGED
        if self.abandoned or self.running is not None or self.queued:
            return RunnerState.BUSY
        return RunnerState.IDLE

    def refusal(self, now: float) -> ProtocolError | None:
        """Why a command arriving (or still waiting) now cannot run, or ``None`` when it may queue."""
        if not self.abandoned:
            return None
        stuck = now - min(self.abandoned.values())
        if stuck >= self.wedge_threshold:
            return wedged_error(stuck)
        return busy_error(f"a timed-out command, started {stuck:.1f} s ago, is still draining on the device")

    def expired_in_queue(self, now: float) -> ProtocolError:
        """The answer for a command whose budget ran out before it could start: it never ran."""
        return self.refusal(now) or busy_error("this command's budget expired while it waited for the command ahead")

    def can_start(self) -> bool:
        return self.running is None and not self.abandoned

    # -- transitions ------------------------------------------------------------------------------------------------
    def admit(self, now: float) -> ProtocolError | None:
        """A command arriving now: why it cannot run (:meth:`refusal`; nothing counted), else ``None`` and it is
        counted queued."""
        refusal = self.refusal(now)
        if refusal is None:
            self.on_queued()
        return refusal

    def try_start(self, token: int, now: float) -> bool:
        """Start ``token`` (the head of the queue) when the device is free (:meth:`can_start`); whether it did."""
        if not self.can_start():
            return False
        self.on_start(token, now)
        return True

    def on_queued(self) -> None:
        self.queued += 1

    def on_unqueued(self) -> None:
        self.queued -= 1

    def on_start(self, token: int, now: float) -> None:
        if not self.can_start():
            raise GateError("start while the device is occupied")
        self.queued -= 1
        self.running, self.running_since = token, now

    def on_settled(self, token: int, *, abandoned: bool) -> None:
        if self.running != token:
            raise GateError(f"settle of command {token}, which is not running")
        if abandoned:
            self.abandoned[token] = self.running_since
        self.running = None

    def on_drained(self, token: int) -> None:
        self.abandoned.pop(token, None)
