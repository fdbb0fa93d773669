"""What the host answers for one command: the runner's envelope, and what the host learned on the way.

The envelope is the runner's word (wire fields only).  What the host itself found out — that it read the reply
back from the runner's journal after the reply was lost, or that a new runner served the command after the last
one was replaced — travels here, typed, for the front ends to render; it is never written into the envelope.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from phonewire.protocol.envelope import Envelope


@dataclass(frozen=True, slots=True)
class HostReply:
    """The runner's ok envelope with what the host learned on the way; its fields are read as an envelope's are
    (a front end renders either: ``agent.results.Reply``)."""

    envelope: Envelope
    ok: bool
    data: dict[str, Any] | None
    warning: str | None
    reactivated: bool
    #: The device or the runner was restarted before this reply: every app's state is gone.
    state_reset: bool
    #: How the outcome was learned when the reply itself was lost (``rules.RECOVERED_COMPLETED`` /
    #: ``rules.EVIDENCE_CHANGED``), else ``None``.
    recovered: str | None = None
    #: A new runner served this command after the previous one was replaced: app state did not survive.
    runner_restarted: bool = False

    @classmethod
    def of(cls, envelope: Envelope, *, recovered: str | None = None, runner_restarted: bool = False) -> HostReply:
        return cls(
            envelope,
            ok=envelope.ok,
            data=envelope.data,
            warning=envelope.warning,
            reactivated=envelope.reactivated,
            state_reset=envelope.state_reset or runner_restarted,
            recovered=recovered,
            runner_restarted=runner_restarted,
        )
