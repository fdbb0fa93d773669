"""The gate's asyncio plumbing with scripted work (no device, no sockets): order, deadlines, abandonment, and the
one-step decision when work finishes exactly at its deadline."""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from phonewire.protocol import commands as c
from phonewire.protocol import errors as e
from phonewire.protocol.envelope import Envelope, ok
from phonewire.protocol.request import Request
from phonewire.runner.executor import Execution, Executor, Reply
from phonewire.runner.gate import Gate, RunnerState
from phonewire.runner.journal import Journal


def in_loop(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async test in a fresh event loop (no plugin needed)."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))

    return run


class Script:
    """Work whose completion the test controls: each command id waits for its own event."""

    def __init__(self) -> None:
        self.release: dict[str, asyncio.Event] = {}
        self.order: list[str] = []

    async def work(self, request: Request) -> Envelope:
        assert request.command_id is not None
        self.order.append(request.command_id)
        await self.release.setdefault(request.command_id, asyncio.Event()).wait()
        return ok({"id": request.command_id})

    def finish(self, command_id: str) -> None:
        self.release.setdefault(command_id, asyncio.Event()).set()


def make(script: Script, now: list[float] | None = None) -> Executor:
    clock = (lambda: now[0]) if now is not None else None
    return Executor(Gate(120.0), Journal(), script.work, clock)


def tap(command_id: str) -> Request:
    return Request(c.TAP, command_id, "app.x", {"x": 1, "y": 1})


def code_of(reply: Reply) -> str | None:
    envelope = json.loads(reply.body)
    return None if envelope["ok"] else str(envelope["error"]["code"])


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def execution(value: Execution | Reply) -> Execution:
    assert isinstance(value, Execution)
    return value


@in_loop
async def test_commands_run_one_at_a_time_in_acceptance_order() -> None:
    script = Script()
    executor = make(script)
    first = execution(executor.submit(tap("a"), 10.0))
    second = execution(executor.submit(tap("b"), 10.0))
    await settle()
    assert script.order == ["a"]
    assert executor.journal.lookup("b")["state"] == "accepted"
    script.finish("a")
    assert code_of(await first.reply) is None
    await settle()
    assert script.order == ["a", "b"]
    script.finish("b")
    assert code_of(await second.reply) is None
    assert executor.gate.state(0.0) is RunnerState.IDLE


@in_loop
async def test_over_budget_is_command_timed_out_abandoned_not_cancelled_then_drains() -> None:
    script = Script()
    executor = make(script)
    slow = execution(executor.submit(tap("slow"), 0.01))
    reply = await slow.reply
    assert code_of(reply) == e.COMMAND_TIMED_OUT
    assert executor.journal.lookup("slow")["errorCode"] == e.COMMAND_TIMED_OUT
    assert executor.draining == 1
    refused = executor.submit(tap("next"), 10.0)
    assert isinstance(refused, Reply) and code_of(refused) == e.RUNNER_BUSY
    assert "next" not in executor.journal
    assert slow.task is not None and not slow.task.cancelled()
    script.finish("slow")
    assert await executor.wait_drained(1.0)
    assert executor.gate.state(0.0) is RunnerState.IDLE
    assert executor.journal.lookup("slow")["state"] == "failed"  # the late result never rewrites the verdict


@in_loop
async def test_queued_commands_answer_runner_busy_when_the_command_ahead_is_abandoned() -> None:
    script = Script()
    executor = make(script)
    head = execution(executor.submit(tap("head"), 0.01))
    behind = execution(executor.submit(tap("behind"), 10.0))
    assert code_of(await head.reply) == e.COMMAND_TIMED_OUT
    assert code_of(await behind.reply) == e.RUNNER_BUSY
    assert executor.journal.lookup("behind")["state"] == "notAccepted"
    assert script.order == ["head"]
    script.finish("head")
    await executor.wait_drained(1.0)


@in_loop
async def test_budget_expiring_in_the_queue_answers_runner_busy_and_never_runs() -> None:
    script = Script()
    executor = make(script)
    head = execution(executor.submit(tap("head"), 10.0))
    queued = execution(executor.submit(tap("queued"), 0.01))
    assert code_of(await queued.reply) == e.RUNNER_BUSY
    assert executor.journal.lookup("queued")["state"] == "notAccepted"
    script.finish("head")
    assert code_of(await head.reply) is None
    await settle()
    assert script.order == ["head"]
    assert executor.gate.state(0.0) is RunnerState.IDLE


@pytest.mark.parametrize("work_done", [True, False])
@in_loop
async def test_work_finishing_exactly_at_the_deadline_is_decided_once(work_done: bool) -> None:
    now = [0.0]
    script = Script()
    executor = make(script, now)
    if work_done:
        script.finish("edge")
    ex = execution(executor.submit(tap("edge"), 1000.0))
    await asyncio.sleep(0)  # the work's step runs; its done-callback is queued but has not run yet
    assert ex.task is not None and ex.task.done() is work_done
    assert not ex.reply.done()
    now[0] = ex.deadline  # the deadline fires in this very step
    executor._on_deadline(ex)
    reply = ex.reply.result()
    fate = executor.journal.lookup("edge")
    if work_done:
        assert code_of(reply) is None
        assert fate["state"] == "completed"
        assert fate["responseJson"].encode() == reply.body
    else:
        assert code_of(reply) == e.COMMAND_TIMED_OUT
        assert fate["state"] == "failed"
        script.finish("edge")
    await settle()  # the done-callback runs now: it must not settle a second time
    assert ex.reply.result() is reply
    assert executor.journal.lookup("edge") == fate
    assert executor.gate.state(now[0]) is RunnerState.IDLE


@in_loop
async def test_work_that_raises_is_reported_not_leaked() -> None:
    async def broken(request: Request) -> Envelope:
        raise RuntimeError("runner bug")

    executor = Executor(Gate(120.0), Journal(), broken)
    ex = execution(executor.submit(tap("b"), 1.0))
    assert code_of(await ex.reply) == e.COMMAND_FAILED
    assert executor.journal.lookup("b")["state"] == "failed"


@pytest.mark.parametrize("data", [{"size": float("nan")}, {"raw": b"\x00"}], ids=["non-finite", "not JSON"])
@in_loop
async def test_a_reply_that_cannot_be_encoded_is_answered_and_journaled_not_left_hanging(data: dict[str, Any]) -> None:
    """issue 2: the reply a client gets and the fate status reports always agree, and nothing leaks out of the
    gate's callbacks: a backend reply that is not JSON becomes COMMAND_FAILED for both."""

    async def odd(request: Request) -> Envelope:
        return ok(data)

    executor = Executor(Gate(120.0), Journal(), odd)
    ex = execution(executor.submit(tap("odd"), 5.0))
    reply = await asyncio.wait_for(asyncio.shield(ex.reply), 2.0)
    assert code_of(reply) == e.COMMAND_FAILED
    fate = executor.journal.lookup("odd")
    assert fate["state"] == "failed" and fate["errorCode"] == e.COMMAND_FAILED
    assert fate["responseJson"] == reply.body.decode()
    assert executor.gate.state(0.0) is RunnerState.IDLE
