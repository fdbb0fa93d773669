"""Clients with deadlines, commands with owners (issue 28, finding 3), with a real daemon, a real web runner and the
demo page: a daemon stopped with SIGSTOP makes both clients (Python and native) fail within their deadline with
DAEMON_TIMED_OUT saying whether the command may have run, and once the daemon is resumed (SIGCONT) the tap that
client gave up on never runs — the page's own tap counter is unchanged — while the daemon keeps serving."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_harness import Cli

from phonewire.frontends.cli import fastclient

pytestmark = pytest.mark.e2e

DEMO = "dev.phonewire.demo"
PYTHON_CLI = (sys.executable, "-m", "phonewire")


@pytest.fixture(scope="module")
def native(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if fastclient.compiler() is None:
        pytest.skip("no C compiler (cc, gcc or clang) on PATH: the native client cannot be built here")
    return fastclient.build(tmp_path_factory.mktemp("fastclient") / "phonewire")


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Cli]:
    c = Cli(tmp_path, monkeypatch)
    try:
        assert c.sub("--device", "web", "open", DEMO).code == 0
        yield c
    finally:
        c.stop()


def likes(cli: Cli) -> str:
    """The label of the demo's first Like button: its text counts the taps the page's own handler saw."""
    res = cli.sub("snapshot", "--json")
    assert res.code == 0, res.err
    [node] = [n for n in res.json()["data"]["nodes"] if n.get("identifier") == "like-1"]
    return str(node["label"])


def settled(cli: Cli) -> None:
    """Until the resumed daemon has dealt with every request it held (a bound on the wait, not a timing)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        status = cli.sub("daemon", "status", "--json")
        if status.code == 0 and not status.json()["data"]["requests"]:
            return
        time.sleep(0.1)
    raise AssertionError("the daemon still works on a request")


@pytest.mark.parametrize("which", ["python", "native"])
def test_a_stopped_daemon_fails_the_client_in_its_deadline_and_never_taps_later(
    cli: Cli, which: str, request: pytest.FixtureRequest
) -> None:
    before = likes(cli)
    assert before == "Like 0"
    command = [str(request.getfixturevalue("native"))] if which == "native" else list(PYTHON_CLI)
    env = {**cli.env, "PHONEWIRE_TIMEOUT": "3"}
    pid = cli.daemon_pid()
    assert pid is not None
    os.kill(pid, signal.SIGSTOP)
    try:
        tap = subprocess.run(
            [*command, "tap", "id=like-1"], env=env, capture_output=True, text=True, timeout=60, check=False
        )
    finally:
        os.kill(pid, signal.SIGCONT)
    assert tap.returncode == 4, tap
    assert tap.stderr.startswith(f"error DAEMON_TIMED_OUT: no answer from the daemon (pid {pid}) within 3 s"), tap
    assert "It may have run if the daemon had started it in time; it will not start from now on" in tap.stderr
    settled(cli)
    assert likes(cli) == before  # the tap whose client gave up never ran
    # the daemon serves as before: a tap now counts once
    assert cli.sub("tap", "id=like-1").code == 0
    assert likes(cli) == "Like 1"


def test_a_read_only_command_that_timed_out_says_nothing_changed(cli: Cli) -> None:
    pid = cli.daemon_pid()
    assert pid is not None
    os.kill(pid, signal.SIGSTOP)
    try:
        snap = subprocess.run(
            [*PYTHON_CLI, "snapshot", "--json"], env={**cli.env, "PHONEWIRE_TIMEOUT": "2"},
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
    finally:
        os.kill(pid, signal.SIGCONT)
    assert snap.returncode == 4
    error = json.loads(snap.stdout)["error"]
    assert error["code"] == "DAEMON_TIMED_OUT" and error["hint"].startswith("It only reads the screen")
