"""What an :class:`~phonewire.agent.core.AgentSession` tells those who watch it: its observers.

In the spirit of httpx's event hooks and trio's instruments: an observer is registered on one session
(:meth:`~phonewire.agent.core.AgentSession.add_observer`) and is called at three moments of each operation of
:data:`~phonewire.agent.operations.OPERATIONS` the session performs:

* ``on_step(op, args)`` — the operation is about to run, with its arguments by name (defaults filled in);
* ``on_resolved(node, ref, nodes)`` — a ref or selector of it resolved to ``node`` (with its ref, if any) on the
  snapshot ``nodes``;
* ``on_result(op, result, error)`` — it ended: its result, or the :class:`ProtocolError` it raised.  An operation
  cancelled or crashed by anything else ends without it.

An operation that another runs (``scroll`` reads the ``viewport``) is part of that step, not a step of its own.  A
session without observers pays one test of an empty list per operation.  :mod:`phonewire.agent.trace` is one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, Protocol, TypeVar

from phonewire.agent.operations import BY_METHOD, Operation
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import Node

if TYPE_CHECKING:
    from phonewire.host import CommandSender

P = ParamSpec("P")
R = TypeVar("R")


class Observer(Protocol):
    async def on_step(self, op: Operation, args: dict[str, Any]) -> None: ...

    def on_resolved(self, node: Node, ref: str | None, nodes: list[Node]) -> None: ...

    async def on_result(self, op: Operation, result: object, error: ProtocolError | None) -> None: ...


class Observed(Protocol):
    """What an observer may read of the session it watches."""

    @property
    def sender(self) -> CommandSender: ...

    @property
    def app_id(self) -> str | None: ...

    def add_observer(self, observer: Observer) -> None: ...

    def remove_observer(self, observer: Observer) -> None: ...


class Observers:
    """One session's observers, and whether an operation of it is running (the outermost is the step)."""

    def __init__(self) -> None:
        self.watching: list[Observer] = []
        self.stepping = False

    def resolved(self, node: Node, ref: str | None, nodes: list[Node]) -> None:
        for observer in self.watching:
            observer.on_resolved(node, ref, nodes)


class HasObservers(Protocol):
    observers: Observers


S = TypeVar("S", bound=HasObservers)


def operation(
    method: Callable[Concatenate[S, P], Coroutine[Any, Any, R]],
) -> Callable[Concatenate[S, P], Coroutine[Any, Any, R]]:
    """Mark a session method as the operation of the table that names it: its observers see it as a step."""
    op = BY_METHOD[method.__name__]
    names = [p.name for p in op.params]
    defaults = {p.name: p.default for p in op.params if not p.required and p.default is not None}

    @functools.wraps(method)
    async def observed(self: S, /, *args: P.args, **kwargs: P.kwargs) -> R:
        hooks = self.observers
        if not hooks.watching or hooks.stepping:
            return await method(self, *args, **kwargs)
        watching = list(hooks.watching)
        step_args = {**defaults, **dict(zip(names, args, strict=False)), **kwargs}
        hooks.stepping = True
        try:
            for observer in watching:
                await observer.on_step(op, step_args)
            try:
                result = await method(self, *args, **kwargs)
            except ProtocolError as exc:
                for observer in watching:
                    await observer.on_result(op, None, exc)
                raise
            for observer in watching:
                await observer.on_result(op, result, None)
            return result
        finally:
            hooks.stepping = False

    observed.__operation__ = op  # type: ignore[attr-defined]
    return observed
