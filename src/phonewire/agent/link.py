"""The session's link to its device: one wire command at a time, the session's app, and what the replies said.

:class:`Link` is what every room of the agent layer sends through (:mod:`phonewire.agent.resolve`,
:mod:`phonewire.agent.find`, :mod:`phonewire.agent.fill`, :class:`~phonewire.agent.core.AgentSession`): it adds the
session's app to app-scoped commands, sees a mutating command to its end even when its caller is cancelled, and
notes, for the operation in progress, that a reply re-fronted the app or said the device restarted.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

import anyio

from phonewire.agent import seen
from phonewire.agent.results import Reply
from phonewire.protocol import commands as c
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import Node, Snapshot

if TYPE_CHECKING:
    from phonewire.host import CommandSender

T = TypeVar("T")

OPEN_APP_HINT = "Open an app first: `open APP` (e.g. open dev.phonewire.demo); `apps` lists them."


class Link:
    def __init__(self, sender: CommandSender, app_id: str | None) -> None:
        self.sender = sender
        self.app_id = app_id
        #: A reply during the operation in progress re-fronted the app (``reactivated`` on its result).
        self.refronted = False
        #: A reply during the operation in progress said the device or runner restarted (``state_reset``).
        self.state_reset = False
        #: An action in progress wants the screen before it (:meth:`watch`).
        self._watching = False
        #: The screen before the action in progress acted (None: not yet seen, or it could not be seen).
        self.before: list[Node] | None = None
        #: That screen's change mark (web: its document and change count), when it had one.
        self.before_mark: str | None = None
        #: Text read from the screen (agent/seen.py): while its last snapshot had seen text, every snapshot reads.
        self.reader = seen.Reader()

    def begin(self) -> None:
        """A new operation: nothing said yet."""
        self.refronted = self.state_reset = False
        self._watching, self.before, self.before_mark = False, None, None

    def unwatch(self) -> list[Node] | None:
        """The action has acted: the screen before it (None where it could not be seen); no more looks are kept."""
        self._watching = False
        return self.before

    def watch(self) -> None:
        """An action begins: keep the screen before it — the snapshot it takes before its first mutating command
        (the one its target resolved on), else one taken right before that command."""
        self._watching, self.before, self.before_mark = True, None, None

    def saw(self, nodes: list[Node], mark: str | None = None) -> bool:
        """The action's look before is ``nodes``, a snapshot the agent holds whose change mark goes with its gesture
        (the device sends nothing unless the page has not changed since): no look of its own.  False when no action
        is watching (nothing kept)."""
        if not self._watching or self.before is not None:
            return False
        self.before, self.before_mark = nodes, mark
        return True

    async def _seen_before(self) -> None:
        """Before the action's first mutating command: the screen as it is now, unless a snapshot of this action
        already showed it.  A screen that cannot be read (no app, a background app) leaves ``before`` unset."""
        self._watching = False
        if self.before is None and self.app_id:
            try:
                seen = await self.snapshot()
            except ProtocolError:
                return
            # its mark too: an action that loads another document (a key that posts a form) answers its new page
            self.before, self.before_mark = seen["nodes"], seen.get("mark")

    async def wire(self, command: str, body: Mapping[str, Any]) -> Reply:
        """Send one wire command.  A mutating one, once sent, is seen to its end even when this call is cancelled
        (the CLI daemon stops a ``find`` whose client left; an MCP client goes away): the cancellation is raised
        after its reply, so the host session records its fate and the next command never overtakes it."""
        if command not in c.MUTATING:
            return await self.sender.send(command, body)
        return await to_the_end(self.sender.send(command, body))

    async def app(self) -> str:
        """The session's app.  Without one, the runner is asked for its ``uptime`` first: when it cannot be
        reached, that (RUNNER_UNAVAILABLE, TRANSPORT_FAILED) is what the agent must fix before opening an app."""
        if not self.app_id:
            await self.wire(c.UPTIME, {})
            raise ProtocolError(e.APP_BUNDLE_ID_REQUIRED, "no app is open in this session", OPEN_APP_HINT)
        return self.app_id

    async def send(self, command: str, fields: Mapping[str, Any] | None = None, *, app: bool = False) -> Reply:
        if self._watching and command in c.MUTATING:
            await self._seen_before()
        body = dict(fields or {})
        if app:
            body["appBundleId"] = await self.app()
        try:
            reply = await self.wire(command, body)
        except ProtocolError as exc:
            self.state_reset = self.state_reset or exc.state_reset
            raise
        self.state_reset = self.state_reset or reply.state_reset
        return reply

    async def snapshot(self, *, refront: bool = False, ocr: seen.Mode | None = None) -> Snapshot:
        """The current screen's nodes.  ``refront``: a background app is brought to the front first (as the
        action about to run would do anyway) instead of answering APP_BACKGROUNDED.  ``ocr``: read the screen's
        text too (``"on"``), or when the view is sparse (``"auto"``: the ``snapshot`` operation); ``None``: as the
        session reads now (the snapshots a target resolves in see what the last ``snapshot`` showed)."""
        snap = await self._snapshot(refront=refront)
        if ocr is not None or self.reader.active:
            return await self.reader.augment(self, snap, ocr or "again")
        return snap

    async def _snapshot(self, *, refront: bool) -> Snapshot:
        try:
            env = await self.send(c.SNAPSHOT, app=True)
        except ProtocolError as exc:
            if not refront or exc.code != e.APP_BACKGROUNDED:
                raise
            fronted = await self.send(c.VIEWPORT, app=True)  # app-scoped and read-only: re-fronts, nothing else
            self.refronted = self.refronted or fronted.reactivated
            env = await self.send(c.SNAPSHOT, app=True)
        data = env.data or {}
        nodes = data.get("nodes")
        # the wire's nodes, as protocol/snapshot.py's build_snapshot made them on the device's side
        listed = cast(list[Node], nodes) if isinstance(nodes, list) else []
        out: Snapshot = {"nodes": listed, "quality": data.get("quality") or {}}
        if isinstance(data.get("mark"), str):
            out["mark"] = data["mark"]
        if self._watching and self.before is None:
            # the action's own look before it acts (its target resolved on it)
            self.before, self.before_mark = listed, out.get("mark")
        return out


async def to_the_end(sent: Awaitable[T]) -> T:
    """``sent``'s result, awaited to its end even when the caller is cancelled meanwhile (then the cancellation is
    raised once it has ended, whatever it returned)."""
    task = asyncio.ensure_future(sent)
    interrupted = False
    # Shielded from a cancelled anyio scope (an MCP request its client cancelled): anyio cancels a task in it again on
    # every cycle of the event loop, so this loop would wake on each one until the command ended; the scope delivers
    # its cancellation at the caller's next await instead.  A task's own cancel() (the CLI daemon) still lands here.
    with anyio.CancelScope(shield=True):
        while not task.done():
            try:
                await asyncio.wait({task})
            except asyncio.CancelledError:
                interrupted = True
    if interrupted:
        if not task.cancelled():
            task.exception()  # retrieved: nobody will read it
        raise asyncio.CancelledError
    return task.result()
