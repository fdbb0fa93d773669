"""What an :class:`~phonewire.agent.core.AgentSession` tells those who watch it: its observers.

In the spirit of httpx's event hooks and trio's instruments: an observer is registered on one session
(:meth:`~phonewire.agent.core.AgentSession.add_observer`) and is called at three moments of each operation of
:data:`~phonewire.agent.operations.OPERATIONS` the session performs:

* ``on_step(op, args)`` — the operation is about to run, with its arguments by name (defaults filled in);
* ``on_resolved(node, ref, nodes)`` — a ref or selector of it resolved to ``node`` (with its ref, if any) on the
  snapshot ``nodes``;
* ``on_result(op, result, error)`` — it ended: its result, or the :class:`ProtocolError` it raised.  An operation
  cancelled or crashed by anything else ends without it.

An operation that another runs (``scroll`` reads the ``viewport``) is part of that step, not a step of its own; an
operation made of others (``Operation.container``: a flow run) is no step itself, the operations it runs are.  A
runner of such steps can add fields to each of them (:data:`STEP_NOTE`: a flow run's file, line and command), and
report a look of its own that is no operation of the table as a step (:func:`own_step`: a flow's ``assertVisible``).
A session without observers pays one test of an empty list per operation.  :mod:`phonewire.agent.trace` is one.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, Protocol, TypeVar

from phonewire.agent.operations import BY_METHOD, Operation
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import Node

if TYPE_CHECKING:
    from phonewire.host import CommandSender

P = ParamSpec("P")
R = TypeVar("R")

#: Fields the steps that start now carry besides their own (a flow run's ``{"flow": {file, line, command}}``), set by
#: whoever runs operations on the agent's behalf; observers read it in ``on_step``.
STEP_NOTE: ContextVar[Mapping[str, Any] | None] = ContextVar("phonewire_step_note", default=None)


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
        if not hooks.watching or hooks.stepping or op.container:
            return await method(self, *args, **kwargs)
        step_args = {**defaults, **dict(zip(names, args, strict=False)), **kwargs}
        return await _step(hooks, op, step_args, lambda: method(self, *args, **kwargs))

    observed.__operation__ = op  # type: ignore[attr-defined]
    return observed


async def own_step(hooks: Observers, name: str, args: dict[str, Any], run: Callable[[], Awaitable[R]]) -> R:
    """Run ``run`` as a step named ``name`` that is no operation of the table (a flow's own look at the screen): its
    observers see it like one (read-only), unless it runs inside a step already."""
    if not hooks.watching or hooks.stepping:
        return await run()
    op = Operation(name, "", "a step of its own (no operation of the table)", read_only=True)
    return await _step(hooks, op, args, run)


async def _step(hooks: Observers, op: Operation, args: dict[str, Any], run: Callable[[], Awaitable[R]]) -> R:
    """One step: its observers (those watching when it starts) see it start, then its result or its error."""
    watching = list(hooks.watching)
    hooks.stepping = True
    try:
        for observer in watching:
            await observer.on_step(op, args)
        try:
            result = await run()
        except ProtocolError as exc:
            for observer in watching:
                await observer.on_result(op, None, exc)
            raise
        for observer in watching:
            await observer.on_result(op, result, None)
        return result
    finally:
        hooks.stepping = False
