"""A CLI client that goes away while the daemon works on its command (Ctrl-C, killed): the daemon's rules.

Real processes throughout: the client (``python -m phonewire``), the daemon, a runner (``--device double``).  The
double's ``hang.<ms>`` app makes every app-scoped command block that long, so a command is still in flight when
the client goes.  Each wait below is a liveness bound (it fails instead of hanging), never a speed assertion: a
wait of 60 s that kept running would hold its session for the whole minute.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_harness import Cli, cli_for
from procs import stop_process

D = ("--device", "double")
LONG_WAIT = ("wait", "text=Never", "--timeout", "60000")  # the longest wait there is


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Cli]:
    with cli_for(tmp_path, monkeypatch) as c:
        yield c


def requests(cli: Cli) -> list[str]:
    """``SESSION:VERB`` of each command the daemon works on (``daemon status``)."""
    status = cli("--json", "daemon", "status")
    assert status.code == 0, status.err
    listed: list[str] = status.json()["data"]["requests"]
    return listed


def until_acting(cli: Cli, expected: list[str], within_s: float = 30.0) -> None:
    """Until the daemon's commands that have sent their mutation to the phone are ``expected`` (an action's reply
    first looks at the screen — its settled diff — and only then sends its tap)."""
    deadline = time.monotonic() + within_s
    while (seen := cli("--json", "daemon", "status").json()["data"]["acting"]) != expected:
        assert time.monotonic() < deadline, f"the daemon's commands acting: {seen}, expected {expected}"
        time.sleep(0.05)


def until_requests(cli: Cli, expected: list[str], within_s: float = 30.0) -> None:
    deadline = time.monotonic() + within_s
    while (seen := requests(cli)) != expected:
        assert time.monotonic() < deadline, f"the daemon works on {seen}, expected {expected}"
        time.sleep(0.05)


def client(cli: Cli, *argv: str, stdin: str | None = None) -> subprocess.Popen[str]:
    """A client process running ``phonewire --device double ARGV`` (``stdin``: written, then closed)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "phonewire", *D, *argv],
        env=cli.env,
        stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    if stdin is not None:
        assert proc.stdin is not None
        proc.stdin.write(stdin)
        proc.stdin.close()
        proc.stdin = None  # sent: communicate() has nothing more to write
    return proc


def gone(proc: subprocess.Popen[str], sig: signal.Signals) -> tuple[int, str]:
    proc.send_signal(sig)
    _out, err = proc.communicate(timeout=30)
    return proc.returncode, err


def taps_shown(cli: Cli) -> str:
    snap = cli(*D, "snapshot")
    assert snap.code == 0, snap.err
    return next(line for line in snap.out.splitlines() if "taps=" in line).split('"')[1]


def daemon_log(cli: Cli) -> str:
    return (cli.dir / "daemon.log").read_text()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["ctrl-c", "killed"])
def test_a_wait_whose_client_left_stops_and_its_session_answers_the_next_command(cli: Cli, sig: signal.Signals) -> None:
    assert cli(*D, "open", "app.w").code == 0
    proc = client(cli, *LONG_WAIT)
    try:
        until_requests(cli, ["default:wait"])  # it runs (and would for a minute)
        code, err = gone(proc, sig)
    finally:
        stop_process(proc)
    if sig is signal.SIGINT:
        assert code == 130 and err.startswith("error INTERRUPTED:"), err
    until_requests(cli, [])  # stopped: before, it went on polling the screen until its 60 s were up
    assert "the client left; stopped default:wait" in daemon_log(cli)
    snap = cli(*D, "snapshot", "-i")
    assert (snap.code, snap.out) == (0, '@e1 Button "Counter"\n@e2 TextField\n')


def test_a_tap_whose_client_left_runs_to_its_end_exactly_once(cli: Cli) -> None:
    assert cli(*D, "open", "hang.1500").code == 0  # every tap and snapshot of this app takes 1.5 s
    proc = client(cli, "tap", "120", "122")
    try:
        until_acting(cli, ["default:tap"])  # the tap is on its way to the phone (its look before it is done)
        gone(proc, signal.SIGKILL)
        until_requests(cli, ["default:tap (client gone)"])  # the daemon saw it go, and goes on
    finally:
        stop_process(proc)
    assert "the client left; default:tap runs to its end" in daemon_log(cli)
    until_requests(cli, [])
    assert taps_shown(cli) == "taps=1"  # it landed, once: neither cut short nor repeated
    assert "stopped default:tap" not in daemon_log(cli)


def test_a_tap_whose_client_left_while_it_looked_at_the_screen_is_never_sent(cli: Cli) -> None:
    """The reply's settled diff looks at the screen before the tap; a client that leaves meanwhile has given up on
    a tap not yet sent, and it is never sent (issue 28: no work done late for a client that has gone)."""
    assert cli(*D, "open", "hang.1500").code == 0  # the look before the tap takes 1.5 s, the tap 1.5 s more
    proc = client(cli, "tap", "120", "122")
    try:
        until_requests(cli, ["default:tap"])
        assert cli("--json", "daemon", "status").json()["data"]["acting"] == []  # still looking: nothing sent
        gone(proc, signal.SIGKILL)
    finally:
        stop_process(proc)
    until_requests(cli, [])
    assert "the client left; default:tap sends nothing more to the phone" in daemon_log(cli)
    assert taps_shown(cli) == "taps=0"  # never sent, so never done late


def test_a_batch_whose_client_left_stops_inside_its_wait_and_runs_none_of_the_later_steps(cli: Cli) -> None:
    assert cli(*D, "open", "app.b").code == 0
    steps: list[list[Any]] = [list(LONG_WAIT), ["tap", "120", "122"]]
    proc = client(cli, "batch", "-", stdin=json.dumps(steps))
    try:
        until_requests(cli, ["default:wait"])
        gone(proc, signal.SIGINT)
    finally:
        stop_process(proc)
    until_requests(cli, [])
    assert taps_shown(cli) == "taps=0"  # the tap after the wait never ran


def test_the_snapshot_a_stopped_command_had_sent_finishes_on_the_runner_and_the_next_tap_lands_once(cli: Cli) -> None:
    """The daemon stops an abandoned read at once, but the one wire command it had sent is the runner's: the runner
    runs one command at a time, so the session's next command queues behind it there instead of racing it."""
    assert cli(*D, "open", "hang.1500").code == 0  # every tap and snapshot of this app takes 1.5 s
    proc = client(cli, "snapshot")
    try:
        until_requests(cli, ["default:snapshot"])
        gone(proc, signal.SIGKILL)
    finally:
        stop_process(proc)
    until_requests(cli, [])  # the daemon let it go; the runner may still be walking the screen
    assert "the client left; stopped default:snapshot" in daemon_log(cli)
    tap = cli(*D, "--quiet", "tap", "120", "122")  # (the ok line alone: the settled diff is not under test)
    assert (tap.code, tap.out) == (0, "ok tapped (120, 122)\n"), tap.err
    assert taps_shown(cli) == "taps=1"
