"""Commands with owners (issue 28, finding 3): the daemon's :meth:`Caller.stale` and the host's owner check, with a
real socket pair and no runner — a mutating command for a caller that has gone is CLIENT_GONE before anything is
sent; a read is not judged; the client's deadline and its report say whether the command may have run."""

from __future__ import annotations

import contextvars
import socket
import time

import pytest

from phonewire.frontends.cli import client as cl
from phonewire.frontends.cli.callers import Caller, client_deadline
from phonewire.host.session import OWNER, check_owner
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError


def test_a_caller_whose_client_hung_up_is_stale_at_once() -> None:
    ours, theirs = socket.socketpair()
    try:
        caller = Caller(fd=ours.fileno())
        theirs.shutdown(socket.SHUT_WR)  # what every client does once its request is sent: still waiting
        assert caller.stale() is None
        theirs.close()
        assert caller.stale() == "its client has gone (it hung up before the command could start)"
        assert caller.gone
    finally:
        ours.close()


def test_a_caller_past_its_deadline_is_stale() -> None:
    assert Caller(deadline=time.time() + 60).stale() is None
    reason = Caller(deadline=time.time() - 5).stale()
    assert reason is not None and reason.startswith("its client's deadline passed 5.")


@pytest.mark.parametrize(("raw", "wanted"), [("12.5", 12.5), ("", None), ("nan", None), ("inf", None), ("x", None)])
def test_the_deadline_is_read_from_the_request_environment(raw: str, wanted: float | None) -> None:
    assert client_deadline({cl.DEADLINE_ENV: raw}) == wanted


def test_the_owner_check_refuses_a_mutation_for_a_gone_caller_and_leaves_reads_alone() -> None:
    def run() -> None:
        OWNER.set(lambda: "its client has gone")
        check_owner("snapshot")  # a read: nothing to refuse
        with pytest.raises(ProtocolError) as raised:
            check_owner("tap")
        assert raised.value.code == e.CLIENT_GONE
        assert raised.value.message == "tap was not started: its client has gone"
        assert raised.value.hint is not None and raised.value.hint.startswith("Nothing was sent to the phone")

    contextvars.copy_context().run(run)
    check_owner("tap")  # no owner outside that context: nothing is refused


@pytest.mark.parametrize(
    ("env", "wanted"),
    [({}, 150.0), ({"PHONEWIRE_TIMEOUT": "3"}, 3.0), ({"PHONEWIRE_TIMEOUT": "0"}, None),
     ({"PHONEWIRE_TIME_SCALE": "2"}, 300.0), ({"PHONEWIRE_TIMEOUT": "nan"}, 150.0),
     ({"PHONEWIRE_TIMEOUT": "1e308"}, 150.0)],
)  # fmt: skip
def test_the_client_timeout(env: dict[str, str], wanted: float | None) -> None:
    assert cl.client_timeout(env) == wanted


def test_a_timed_out_report_says_whether_the_command_may_have_run() -> None:
    tap = cl.timed_out(3, ["tap", "id=like-1"], 42)
    assert (tap.code, tap.message) == (
        cl.DAEMON_TIMED_OUT,
        "no answer from the daemon (pid 42) within 3 s (PHONEWIRE_TIMEOUT)",
    )
    assert tap.hint.startswith("It may have run if the daemon had started it in time; it will not start from now on")
    snapshot = cl.timed_out(3, ["snapshot", "-i"], None)
    assert snapshot.hint.startswith("It only reads the screen: nothing was changed.")
