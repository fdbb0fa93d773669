"""The host side of a runner: launcher, transport, session lifecycle rules, diagnostics.

The layers above (agent view, CLI daemon, bridge, MCP server, Python API) depend only on
:class:`CommandSender`: one call per wire command, returning a :class:`HostReply` (the ok envelope and what the
host learned on the way) or raising :class:`phonewire.protocol.ProtocolError` (whose ``state_reset`` says whether
app state was lost before it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from phonewire.host.reply import HostReply
from phonewire.protocol.envelope import Envelope


class CommandSender(Protocol):
    async def send(self, command: str, fields: Mapping[str, Any] | None = None) -> HostReply | Envelope:
        """Send one wire command (``fields`` are the request fields besides ``command``/``commandId``).

        Returns the ok reply: a :class:`HostReply` from a host session (or a bare :class:`Envelope` from a sender
        with nothing to add), both offering ``data``, ``warning``, ``reactivated`` and ``state_reset``; raises
        ``ProtocolError`` for an error envelope or an unrecoverable transport failure."""
        ...

    async def close(self) -> None: ...


if TYPE_CHECKING:
    from phonewire.host.session import HostError, HostSession, RunnerSession

__all__ = ["CommandSender", "HostError", "HostReply", "HostSession", "RunnerSession"]


def __getattr__(name: str) -> Any:
    # Lazy: front ends that only need CommandSender (a thin CLI client) do not pay for the host's imports.
    if name in ("HostError", "HostSession", "RunnerSession"):
        from phonewire.host import session

        return getattr(session, name)
    raise AttributeError(f"module 'phonewire.host' has no attribute {name!r}")
