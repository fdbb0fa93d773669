"""Recordings survive (issue 28, finding 5), through the CLI, the daemon and a real web runner: a runner killed
(SIGKILL) in the middle of a recording leaves a file that decodes up to its last frames (a fragmented MP4, every
frame written at once), and ``record stop`` afterwards says the recording was lost, names the file and what it holds
— where it was a 0-byte, undecodable file and "ok nothing was recording"."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
from cli_harness import Cli
from procs import wait_gone

pytestmark = pytest.mark.e2e
av = pytest.importorskip("av")


def decoded_frames(path: Path) -> int:
    frames = 0
    with av.open(str(path)) as container:
        for _frame in container.decode(video=0):
            frames += 1
    return frames


@pytest.mark.parametrize("suffix", [".mp4", ".webm"])
def test_a_recording_cut_by_a_runner_kill_decodes_and_record_stop_says_it_was_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str
) -> None:
    cli = Cli(tmp_path, monkeypatch)
    clip = tmp_path / f"clip{suffix}"
    try:
        assert cli("--device", "web", "open", "dev.phonewire.demo").code == 0
        assert cli("--device", "web", "record", "start", str(clip)).code == 0
        for target in ("Account", "Inbox", "Account"):  # screens that change: frames
            assert cli("--device", "web", "tap", target).code == 0
        [runner] = cli("daemon", "status", "--json").json()["data"]["runnerPids"]
        deadline = time.monotonic() + 30  # the encoder's first frames are on disk (a bound on the wait)
        while clip.stat().st_size == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        os.kill(runner, signal.SIGKILL)
        assert wait_gone(runner)
        assert clip.stat().st_size > 0
        frames = decoded_frames(clip)
        assert frames >= 1
        stopped = cli("--device", "web", "record", "stop")
        assert stopped.code == 0, stopped.err
        assert stopped.out.splitlines()[-1].startswith(
            f"ok the recording into {clip} was lost (the phone restarted while it recorded); the file keeps what "
            f"was written until then: {clip.stat().st_size} bytes, {frames} frame(s) a player can show"
        ), stopped.out
    finally:
        cli.stop()


def browser_of(runner: int) -> int:
    """The PID of ``runner``'s browser: its child process that is no Python."""
    kids = [int(k) for t in Path(f"/proc/{runner}/task").iterdir() for k in (t / "children").read_text().split()]
    [browser] = [k for k in kids if "python" not in Path(f"/proc/{k}/cmdline").read_bytes().split(b"\0")[0].decode()]
    return browser


def test_a_recording_cut_by_a_browser_kill_decodes_and_record_stop_says_it_was_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other half of finding 5: the browser SIGKILLed under a living runner left a decodable file and the same
    "ok nothing was recording"; now ``record stop`` names the file and what it recorded, and the file decodes."""
    cli = Cli(tmp_path, monkeypatch)
    clip = tmp_path / "clip.mp4"
    try:
        assert cli("--device", "web", "open", "dev.phonewire.demo").code == 0
        assert cli("--device", "web", "record", "start", str(clip)).code == 0
        for target in ("Account", "Inbox", "Account"):
            assert cli("--device", "web", "tap", target).code == 0
        [runner] = cli("daemon", "status", "--json").json()["data"]["runnerPids"]
        deadline = time.monotonic() + 30
        while clip.stat().st_size == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        browser = browser_of(runner)
        os.kill(browser, signal.SIGKILL)
        assert wait_gone(browser)
        stopped = cli("--device", "web", "record", "stop")
        assert stopped.code == 0, stopped.err
        assert "nothing was recording" not in stopped.out, stopped.out
        assert str(clip) in stopped.out.splitlines()[-1], stopped.out  # the runner lived: it says what it recorded
        assert decoded_frames(clip) >= 1
    finally:
        cli.stop()
