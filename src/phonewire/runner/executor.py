"""The asyncio plumbing of the execution gate: a FIFO of accepted commands, one device task at a time, a deadline
timer per command.  Every decision is asked of :class:`~phonewire.runner.gate.Gate` and
:func:`~phonewire.runner.gate.decide`; every journal transition happens in the same event-loop step as the decision
it records, so the reply a client gets and the fate ``status`` reports always agree.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections import deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass

from phonewire.protocol import errors as e
from phonewire.protocol.envelope import Envelope, fail
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.request import Request
from phonewire.runner.gate import Gate, Outcome, decide
from phonewire.runner.journal import Journal


@dataclass(frozen=True, slots=True)
class Reply:
    """One HTTP reply: the encoded envelope and its informational status."""

    status: int
    body: bytes
    stop_after: bool = False

    @classmethod
    def of(cls, envelope: Envelope, *, stop_after: bool = False) -> Reply:
        return cls(envelope.http_status, envelope.encode(), stop_after)


@dataclass(eq=False, slots=True)
class Execution:
    token: int
    request: Request
    accepted_at: float
    deadline: float
    reply: asyncio.Future[Reply]
    task: asyncio.Task[Envelope] | None = None
    timer: asyncio.TimerHandle | None = None


log = logging.getLogger("phonewire.runner")

Work = Callable[[Request], Coroutine[object, object, Envelope]]


def timed_out_error(command: str, budget: float) -> ProtocolError:
    return ProtocolError(
        e.COMMAND_TIMED_OUT,
        f"{command} did not finish within its {budget:.1f} s budget; the work was abandoned, not cancelled",
        "Its effect is unknown: observe the screen before acting again. "
        "The runner answers RUNNER_BUSY until the abandoned work drains.",
    )


def unencodable_error(command: str, exc: Exception) -> ProtocolError:
    return ProtocolError(
        e.COMMAND_FAILED,
        f"the device backend's reply to {command} is not JSON: {type(exc).__name__}: {exc}",
        "It may have taken effect: observe the screen (snapshot) before sending it again.",
    )


class Executor:
    def __init__(self, gate: Gate, journal: Journal, work: Work, clock: Callable[[], float] | None = None) -> None:
        self.gate = gate
        self.journal = journal
        self._work = work
        self._clock = clock
        self._queue: deque[Execution] = deque()
        self._running: Execution | None = None
        self._abandoned: set[asyncio.Task[Envelope]] = set()
        self._by_id: dict[str, Execution] = {}
        self._tokens = itertools.count(1)

    def now(self) -> float:
        return self._clock() if self._clock is not None else asyncio.get_running_loop().time()

    # -- public --------------------------------------------------------------------------------------------------
    def in_flight(self, command_id: str) -> Execution | None:
        return self._by_id.get(command_id)

    def running(self) -> dict[str, object] | None:
        """The command on the device right now (for ``status``), or ``None``."""
        ex = self._running
        if ex is None:
            return None
        elapsed_ms = int((self.now() - self.gate.running_since) * 1000)
        return {"command": ex.request.command, "commandId": ex.request.command_id, "runningMs": elapsed_ms}

    @property
    def occupied(self) -> bool:
        """Device work is running or draining."""
        return self._running is not None or bool(self._abandoned)

    @property
    def draining(self) -> int:
        """Abandoned device tasks that have not finished yet."""
        return len(self._abandoned)

    def submit(self, request: Request, budget: float) -> Execution | Reply:
        """Accept ``request`` (or refuse it: RUNNER_BUSY / RUNNER_WEDGED, nothing journaled)."""
        now = self.now()
        refusal = self.gate.admit(now)
        if refusal is not None:
            return Reply.of(fail(refusal))
        loop = asyncio.get_running_loop()
        ex = Execution(next(self._tokens), request, now, now + budget, loop.create_future())
        if request.command_id is not None:
            self.journal.accept(request.command_id, request.command)
            self._by_id[request.command_id] = ex
        self._queue.append(ex)
        ex.timer = loop.call_later(budget, self._on_deadline, ex)
        self._pump()
        return ex

    async def wait_drained(self, timeout: float) -> bool:
        """Wait (bounded) for abandoned work to finish; ``True`` when nothing is left."""
        if self._abandoned:
            await asyncio.wait(set(self._abandoned), timeout=timeout)
        return not self._abandoned

    # -- the loop's callbacks --------------------------------------------------------------------------------------
    def _pump(self) -> None:
        if not self._queue or not self.gate.try_start(self._queue[0].token, self.now()):
            return
        ex = self._queue.popleft()
        if ex.request.command_id is not None:
            self.journal.start(ex.request.command_id)
        self._running = ex
        task = asyncio.get_running_loop().create_task(self._work(ex.request))
        ex.task = task
        task.add_done_callback(lambda _t: self._on_work_done(ex))

    def _on_work_done(self, ex: Execution) -> None:
        assert ex.task is not None
        if ex.task in self._abandoned:
            self._abandoned.discard(ex.task)
            self.gate.on_drained(ex.token)
            log.warning("abandoned %s %s drained", ex.request.command, ex.request.command_id)
            _consume(ex.task)
            self._pump()
            return
        if ex.reply.done():  # already settled by the deadline callback, which saw the task done
            return
        if decide(work_done=True, now=self.now(), deadline=ex.deadline) is Outcome.RESULT:
            self._settle(ex, _result_of(ex.task))

    def _on_deadline(self, ex: Execution) -> None:
        if ex.reply.done():
            return
        if ex.task is None:  # still queued: it never ran
            self._queue.remove(ex)
            self.gate.on_unqueued()
            self._decline(ex, self.gate.expired_in_queue(self.now()))
            return
        outcome = decide(work_done=ex.task.done(), now=self.now(), deadline=ex.deadline)
        if outcome is Outcome.RESULT:
            self._settle(ex, _result_of(ex.task))
        elif outcome is Outcome.TIMED_OUT:
            budget = ex.deadline - ex.accepted_at
            log.warning("%s %s timed out after %.1f s; abandoned", ex.request.command, ex.request.command_id, budget)
            self._abandoned.add(ex.task)
            self._settle(ex, fail(timed_out_error(ex.request.command, budget)), abandoned=True)
            # The device is occupied by work nobody waits for: everything queued behind it never runs.
            while self._queue:
                waiting = self._queue.popleft()
                self.gate.on_unqueued()
                self._decline(waiting, self.gate.expired_in_queue(self.now()))
        else:  # a timer that fired early (clock skew): look again at the deadline
            ex.timer = asyncio.get_running_loop().call_later(ex.deadline - self.now(), self._on_deadline, ex)

    # -- settling: the journal and the reply move together -----------------------------------------------------------
    def _settle(self, ex: Execution, envelope: Envelope, *, abandoned: bool = False) -> None:
        if ex.timer is not None:
            ex.timer.cancel()
        self.gate.on_settled(ex.token, abandoned=abandoned)
        self._running = None
        try:
            reply = Reply.of(envelope)
        except (TypeError, ValueError, RecursionError) as exc:  # a backend reply that is not JSON (NaN, bytes ...)
            envelope = fail(unencodable_error(ex.request.command, exc), reactivated=envelope.reactivated)
            reply = Reply.of(envelope)
        if ex.request.command_id is not None:
            self.journal.finish(ex.request.command_id, envelope, reply.body)
            self._by_id.pop(ex.request.command_id, None)
        ex.reply.set_result(reply)
        self._pump()

    def _decline(self, ex: Execution, error: ProtocolError) -> None:
        if ex.timer is not None:
            ex.timer.cancel()
        if ex.request.command_id is not None:
            self.journal.decline(ex.request.command_id)
            self._by_id.pop(ex.request.command_id, None)
        ex.reply.set_result(Reply.of(fail(error)))


def _result_of(task: asyncio.Task[Envelope]) -> Envelope:
    """The work's envelope.  The work maps every backend exception itself; this only guards against a runner bug."""
    if task.cancelled():
        return fail(ProtocolError(e.COMMAND_FAILED, "the command was cancelled inside the runner"))
    exc = task.exception()
    if exc is not None:
        return fail(ProtocolError(e.COMMAND_FAILED, f"runner error: {type(exc).__name__}: {exc}"))
    return task.result()


def _consume(task: asyncio.Task[Envelope]) -> None:
    if not task.cancelled():
        task.exception()
