"""The command journal: the send-once memory of a runner.  A state machine that this one file owns.  Pure: no I/O.

Every command that carries a ``commandId`` moves through::

                 accept            start             finish(ok envelope)
    notAccepted ────────► accepted ──────► started ───────────────────────► completed
         ▲                   │                │
         │    decline        │                │   finish(error envelope)
         └───────────────────┘                └───────────────────────────► failed

* ``notAccepted`` is also what an id the journal has never seen (or has evicted) answers.  ``decline`` takes an
  accepted command back there when it never ran (its budget expired in the queue, or the command in front of it
  was abandoned): RUNNER_BUSY is retryable, so a resend of that id must execute.
* ``completed`` / ``failed`` are final.  A resend of a finished id is answered from the journal, never executed
  again (see :meth:`Journal.replay`).
* The journal keeps the :data:`~phonewire.protocol.commands.JOURNAL_MAX_ENTRIES` most recently *touched* ids;
  touching means a transition (accept, start, finish, decline), not a lookup.  Ids still in flight are never
  evicted.
* ``responseJson`` (the encoded envelope, as a string) is retained only for commands outside
  :data:`~phonewire.protocol.commands.NOT_RETAINED` and only when the encoded envelope is at most
  :data:`~phonewire.protocol.commands.JOURNAL_MAX_RETAINED_BYTES`.  The fate and the error fields are kept always.
"""

from __future__ import annotations

import enum
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Final

from phonewire.protocol import commands as c
from phonewire.protocol import errors as e
from phonewire.protocol.envelope import Envelope, fail
from phonewire.protocol.errors import ProtocolError


class Fate(enum.Enum):
    NOT_ACCEPTED = "notAccepted"
    ACCEPTED = "accepted"
    STARTED = "started"
    COMPLETED = "completed"
    FAILED = "failed"

    @property
    def in_flight(self) -> bool:
        return self in (Fate.ACCEPTED, Fate.STARTED)

    @property
    def finished(self) -> bool:
        return self in (Fate.COMPLETED, Fate.FAILED)


#: The whole state machine: (from, transition) -> to.  Anything not listed is a bug in the caller.
TRANSITIONS: Final[dict[tuple[Fate, str], Fate]] = {
    (Fate.NOT_ACCEPTED, "accept"): Fate.ACCEPTED,
    (Fate.ACCEPTED, "start"): Fate.STARTED,
    (Fate.ACCEPTED, "decline"): Fate.NOT_ACCEPTED,
    (Fate.STARTED, "finish_ok"): Fate.COMPLETED,
    (Fate.STARTED, "finish_error"): Fate.FAILED,
}


class JournalError(Exception):
    """A transition the table does not allow (a runner bug, never a client error)."""


@dataclass(slots=True)
class Entry:
    command_id: str
    command: str
    fate: Fate = Fate.NOT_ACCEPTED
    response_ok: bool | None = None
    response_json: str | None = None
    error_code: str | None = None
    error_message: str | None = None
    error_hint: str | None = None

    def to_wire(self) -> dict[str, Any]:
        """The ``status`` + ``statusCommandId`` reply data."""
        out: dict[str, Any] = {"commandId": self.command_id, "state": self.fate.value, "command": self.command}
        if self.response_ok is not None:
            out["responseOk"] = self.response_ok
        if self.response_json is not None:
            out["responseJson"] = self.response_json
        if self.error_code is not None:
            out["errorCode"] = self.error_code
            out["errorMessage"] = self.error_message
            if self.error_hint is not None:
                out["errorHint"] = self.error_hint
        return out


def retains(command: str, encoded: bytes) -> bool:
    """Whether the journal keeps the reply of ``command`` whose encoded envelope is ``encoded``."""
    return command not in c.NOT_RETAINED and len(encoded) <= c.JOURNAL_MAX_RETAINED_BYTES


class Journal:
    def __init__(self, max_entries: int = c.JOURNAL_MAX_ENTRIES) -> None:
        self.max_entries = max_entries
        self._entries: OrderedDict[str, Entry] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, command_id: str) -> bool:
        return command_id in self._entries

    def get(self, command_id: str) -> Entry | None:
        return self._entries.get(command_id)

    def lookup(self, command_id: str) -> dict[str, Any]:
        """The journaled fate of ``command_id`` (``notAccepted`` when unknown or evicted)."""
        entry = self._entries.get(command_id)
        if entry is None:
            return {"commandId": command_id, "state": Fate.NOT_ACCEPTED.value}
        return entry.to_wire()

    # -- transitions ---------------------------------------------------------------------------------------------
    def accept(self, command_id: str, command: str) -> Entry:
        entry = self._entries.get(command_id)
        if entry is None:
            entry = Entry(command_id, command)
        entry.command = command
        self._move(entry, "accept")
        return entry

    def start(self, command_id: str) -> None:
        self._move(self._require(command_id), "start")

    def decline(self, command_id: str) -> None:
        self._move(self._require(command_id), "decline")

    def finish(self, command_id: str, envelope: Envelope, encoded: bytes) -> None:
        entry = self._require(command_id)
        self._move(entry, "finish_ok" if envelope.ok else "finish_error")
        entry.response_ok = envelope.ok
        if envelope.error is not None:
            entry.error_code = envelope.error.code
            entry.error_message = envelope.error.message
            entry.error_hint = envelope.error.hint
        if retains(entry.command, encoded):
            entry.response_json = encoded.decode()

    # -- answering a resend ---------------------------------------------------------------------------------------
    def replay(self, command_id: str) -> bytes | Envelope | None:
        """The answer to a resend of a finished id, or ``None`` when the id is not finished.

        The retained envelope verbatim (bytes) when there is one; else the journaled error for a failed command;
        else COMMAND_ALREADY_COMPLETED for a completed command whose reply was not retained."""
        entry = self._entries.get(command_id)
        if entry is None or not entry.fate.finished:
            return None
        if entry.response_json is not None:
            return entry.response_json.encode()
        if entry.fate is Fate.FAILED and entry.error_code is not None:
            return fail(ProtocolError(entry.error_code, entry.error_message or "", entry.error_hint))
        return fail(
            ProtocolError(
                e.COMMAND_ALREADY_COMPLETED,
                f"command {command_id!r} ({entry.command}) already completed; its reply was not retained",
                "It ran once and will not run again. Observe the screen (snapshot) for its effect, "
                "or send it with a new commandId to run it again.",
            )
        )

    # -- internals -------------------------------------------------------------------------------------------------
    def _require(self, command_id: str) -> Entry:
        entry = self._entries.get(command_id)
        if entry is None:
            raise JournalError(f"no journal entry for {command_id!r}")
        return entry

    def _move(self, entry: Entry, transition: str) -> None:
        target = TRANSITIONS.get((entry.fate, transition))
        if target is None:
            raise JournalError(f"{entry.command_id!r}: {transition} not allowed from {entry.fate.value}")
        entry.fate = target
        self._touch(entry)

    def _touch(self, entry: Entry) -> None:
        self._entries[entry.command_id] = entry
        self._entries.move_to_end(entry.command_id)
        if len(self._entries) > self.max_entries:
            for victim_id, victim in self._entries.items():
                if not victim.fate.in_flight:
                    del self._entries[victim_id]
                    break
