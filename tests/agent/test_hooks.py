"""The observer protocol of AgentSession (agent/hooks.py): what an observer sees of each operation, in order."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from agent_fakes import FakeSender, screen
from phonewire.agent.core import AgentSession
from phonewire.agent.operations import Operation
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import Node, RawNode, Rect


class Watcher:
    def __init__(self) -> None:
        self.seen: list[tuple[Any, ...]] = []

    async def on_step(self, op: Operation, args: dict[str, Any]) -> None:
        self.seen.append(("step", op.name, args))

    def on_resolved(self, node: Node, ref: str | None, nodes: list[Node]) -> None:
        self.seen.append(("resolved", node.get("label"), ref, len(nodes)))

    async def on_result(self, op: Operation, result: object, error: ProtocolError | None) -> None:
        self.seen.append(("result", op.name, type(result).__name__, error.code if error else None))


def session() -> tuple[AgentSession, FakeSender, Watcher]:
    sender = FakeSender(
        screen(
            RawNode("Button", label="Help", rect=Rect(0, 300, 120, 40)),
            RawNode("Button", label="Sign in", rect=Rect(0, 200, 120, 40)),
            RawNode("Button", label="Sign in", rect=Rect(0, 400, 120, 40)),
        )
    )
    agent = AgentSession(sender, app_id="dev.phonewire.demo")
    watcher = Watcher()
    agent.add_observer(watcher)
    return agent, sender, watcher


def test_an_observer_sees_the_step_the_element_it_resolved_to_and_its_result_in_that_order() -> None:
    agent, sender, watcher = session()
    asyncio.run(agent.tap("label=Help"))
    assert watcher.seen == [
        ("step", "tap", {"target": "label=Help", "count": 1}),
        ("resolved", "Help", None, 3),
        ("result", "tap", "ActionResult", None),
    ]
    assert [c for c, _ in sender.sent] == ["snapshot", "tap", "snapshot"]  # observing sends nothing of its own


def test_a_refused_operation_ends_its_step_with_the_error_and_an_operation_inside_another_is_no_step() -> None:
    agent, _, watcher = session()
    with pytest.raises(ProtocolError) as refused:
        asyncio.run(agent.tap("label='Sign in'"))
    assert refused.value.code == e.AMBIGUOUS_MATCH
    assert watcher.seen == [
        ("step", "tap", {"target": "label='Sign in'", "count": 1}),
        ("result", "tap", "NoneType", e.AMBIGUOUS_MATCH),
    ]
    watcher.seen.clear()
    asyncio.run(agent.scroll("down", "label=Help"))  # resolves its target inside the step
    assert [s[0] for s in watcher.seen] == ["step", "resolved", "result"]


def test_a_removed_observer_sees_nothing_more() -> None:
    agent, _, watcher = session()
    agent.remove_observer(watcher)
    asyncio.run(agent.tap("label=Help"))
    assert watcher.seen == []
    assert agent.observers.watching == []
