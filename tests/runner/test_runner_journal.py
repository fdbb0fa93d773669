"""The journal state machine, rule by rule (pure: no runner, no sockets)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from phonewire.protocol import commands as c
from phonewire.protocol import errors as e
from phonewire.protocol.envelope import fail, ok
from phonewire.protocol.errors import ProtocolError
from phonewire.runner.journal import TRANSITIONS, Fate, Journal, JournalError, retains


def finish_ok(journal: Journal, command_id: str, command: str = c.TAP, data: dict[str, object] | None = None) -> bytes:
    journal.accept(command_id, command)
    journal.start(command_id)
    envelope = ok(data or {"message": "done"})
    journal.finish(command_id, envelope, envelope.encode())
    return envelope.encode()


def test_unknown_id_answers_not_accepted() -> None:
    assert Journal().lookup("nope") == {"commandId": "nope", "state": "notAccepted"}


def test_fates_follow_accept_start_finish() -> None:
    journal = Journal()
    journal.accept("a", c.TAP)
    assert journal.lookup("a") == {"commandId": "a", "state": "accepted", "command": "tap"}
    journal.start("a")
    assert journal.lookup("a")["state"] == "started"
    envelope = ok({"message": "tapped"})
    journal.finish("a", envelope, envelope.encode())
    assert journal.lookup("a") == {
        "commandId": "a",
        "state": "completed",
        "command": "tap",
        "responseOk": True,
        "responseJson": '{"ok":true,"data":{"message":"tapped"}}',
    }


def test_error_envelope_finishes_failed_with_error_fields_always() -> None:
    journal = Journal()
    journal.accept("f", c.SNAPSHOT)
    journal.start("f")
    envelope = fail(ProtocolError(e.APP_BACKGROUNDED, "in the background", "bring it to front"))
    journal.finish("f", envelope, envelope.encode())
    fate = journal.lookup("f")
    assert fate["state"] == "failed"
    assert fate["responseOk"] is False
    assert (fate["errorCode"], fate["errorMessage"], fate["errorHint"]) == (
        e.APP_BACKGROUNDED,
        "in the background",
        "bring it to front",
    )
    assert "responseJson" not in fate  # a snapshot's reply is never retained, not even an error


def test_decline_returns_an_accepted_id_to_not_accepted_so_a_resend_runs() -> None:
    journal = Journal()
    journal.accept("q", c.TAP)
    journal.decline("q")
    assert journal.lookup("q")["state"] == "notAccepted"
    journal.accept("q", c.TAP)
    assert journal.lookup("q")["state"] == "accepted"


@pytest.mark.parametrize(
    ("setup", "transition"),
    [
        ([], "start"),
        (["accept"], "accept"),
        (["accept", "start"], "decline"),
        (["accept", "start", "finish"], "accept"),
        (["accept", "start", "finish"], "start"),
    ],
)
def test_transitions_outside_the_table_are_refused(setup: list[str], transition: str) -> None:
    journal = Journal()
    steps: dict[str, Callable[[], object]] = {
        "accept": lambda: journal.accept("x", c.TAP),
        "start": lambda: journal.start("x"),
        "decline": lambda: journal.decline("x"),
        "finish": lambda: journal.finish("x", ok(), ok().encode()),
    }
    for step in setup:
        steps[step]()
    with pytest.raises(JournalError):
        steps[transition]()


def test_the_table_has_exactly_five_transitions_and_finished_fates_are_final() -> None:
    assert len(TRANSITIONS) == 5
    assert not [key for key in TRANSITIONS if key[0].finished]


def test_journal_evicts_the_65th_id_least_recently_touched_first() -> None:
    journal = Journal()
    for i in range(c.JOURNAL_MAX_ENTRIES):
        finish_ok(journal, f"id{i}")
    assert len(journal) == 64
    finish_ok(journal, "id64")
    assert len(journal) == 64
    assert journal.lookup("id0")["state"] == "notAccepted"
    assert journal.lookup("id1")["state"] == "completed"


def test_a_transition_touches_an_id_but_a_lookup_does_not() -> None:
    journal = Journal(max_entries=2)
    journal.accept("old", c.TAP)
    finish_ok(journal, "b")
    journal.lookup("old")
    journal.start("old")  # touched: now the newest
    finish_ok(journal, "c")
    assert "old" in journal
    assert "b" not in journal


def test_in_flight_ids_are_never_evicted() -> None:
    journal = Journal(max_entries=2)
    journal.accept("running", c.TAP)
    journal.start("running")
    for i in range(5):
        finish_ok(journal, f"done{i}")
    assert journal.lookup("running")["state"] == "started"
    assert len(journal) == 2


def test_retention_limit_is_16kb_inclusive() -> None:
    assert retains(c.TAP, b"x" * c.JOURNAL_MAX_RETAINED_BYTES)
    assert not retains(c.TAP, b"x" * (c.JOURNAL_MAX_RETAINED_BYTES + 1))


@pytest.mark.parametrize("command", sorted(c.NOT_RETAINED))
def test_snapshot_and_screenshot_replies_are_never_retained(command: str) -> None:
    assert not retains(command, b"{}")
    journal = Journal()
    finish_ok(journal, "s", command)
    assert "responseJson" not in journal.lookup("s")
    assert journal.lookup("s")["responseOk"] is True


def test_replay_of_a_retained_reply_is_byte_identical() -> None:
    journal = Journal()
    encoded = finish_ok(journal, "r", c.LIST_APPS, {"apps": []})
    assert journal.replay("r") == encoded


def test_replay_of_a_failed_command_without_retained_reply_is_its_error() -> None:
    journal = Journal()
    journal.accept("f", c.SCREENSHOT)
    journal.start("f")
    envelope = fail(ProtocolError(e.COMMAND_FAILED, "boom", "retry later"))
    journal.finish("f", envelope, envelope.encode())
    replayed = journal.replay("f")
    assert not isinstance(replayed, bytes) and replayed is not None
    assert replayed.encode() == envelope.encode()


def test_replay_of_a_completed_command_without_retained_reply_is_command_already_completed() -> None:
    journal = Journal()
    finish_ok(journal, "big", c.TAP, {"pad": "x" * c.JOURNAL_MAX_RETAINED_BYTES})
    replayed = journal.replay("big")
    assert not isinstance(replayed, bytes) and replayed is not None
    assert replayed.error is not None
    assert replayed.error.code == e.COMMAND_ALREADY_COMPLETED
    assert replayed.error.hint


@pytest.mark.parametrize("fate", [None, "accepted", "started", "notAccepted"])
def test_replay_is_none_unless_finished(fate: str | None) -> None:
    journal = Journal()
    if fate is not None:
        journal.accept("x", c.TAP)
        if fate == "started":
            journal.start("x")
        if fate == "notAccepted":
            journal.decline("x")
        assert journal.lookup("x")["state"] == fate
    assert journal.replay("x") is None


def test_fate_values_are_the_wire_names() -> None:
    assert [f.value for f in Fate] == ["notAccepted", "accepted", "started", "completed", "failed"]
