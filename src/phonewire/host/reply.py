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
    envelope: Envelope
    #: How the outcome was learned when the reply itself was lost (``rules.RECOVERED_COMPLETED`` /
    #: ``rules.EVIDENCE_CHANGED``), else ``None``.
    recovered: str | None = None
    #: A new runner served this command after the previous one was replaced: app state did not survive.
    runner_restarted: bool = False

    @property
    def ok(self) -> bool:
        return self.envelope.ok

    @property
    def data(self) -> dict[str, Any] | None:
        return self.envelope.data

    @property
    def warning(self) -> str | None:
        return self.envelope.warning

    @property
    def reactivated(self) -> bool:
        return self.envelope.reactivated

    @property
    def state_reset(self) -> bool:
        """The device or the runner was restarted before this reply: every app's state is gone."""
        return self.envelope.state_reset or self.runner_restarted
