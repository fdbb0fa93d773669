"""The runner starts Chromium before it imports the rest of itself (cold start), and that early browser is the
device's browser — never a second one, never one left behind when the runner stops before opening the device."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from procs import children, command
from web_runner import RunnerProc

from phonewire.__main__ import _runner_device

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(
    ("argv", "spec"),
    [
        ([], "web"),
        (["--device", "web:pixel-7"], "web:pixel-7"),
        (["--device=web:ipad"], "web:ipad"),
        (["--device", "double"], "double"),
        (["--help"], None),
        (["--device"], None),
        (["--device", "web", "extra"], None),
    ],
)
def test_the_device_to_start_early_is_read_from_the_runner_arguments(argv: list[str], spec: str | None) -> None:
    assert _runner_device(argv) == spec


def _children(pid: int) -> list[str]:
    """The command names of ``pid``'s direct children."""
    return [command(child) for child in children(pid)]


def _profiles_of(pid: int) -> list[Path]:
    return list(Path(tempfile.gettempdir()).glob(f"phonewire-chromium-{pid}-*"))


def test_the_early_browser_is_the_devices_only_browser() -> None:
    runner = RunnerProc("web")
    try:
        pid = runner.proc.pid
        device = runner.send("status")["data"]["device"]
        browser_pid = device["browserPid"]
        children = _children(pid)
        comm = Path(device["browser"]).name[:15]  # the kernel keeps 15 characters of a command's name
        assert children.count(comm) == 1, children
        assert len(_profiles_of(pid)) == 1
        assert Path(f"/proc/{browser_pid}").exists()
    finally:
        runner.stop()
    assert _profiles_of(pid) == []


def test_a_runner_that_stops_before_opening_the_device_leaves_no_browser_behind() -> None:
    env = {**os.environ, "PHONEWIRE_RUNNER_PORT": "not-a-port"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "phonewire", "runner", "--device", "web"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert "PHONEWIRE_RUNNER_PORT" in err
    assert _profiles_of(proc.pid) == []  # the early browser was stopped and its profile removed on the way out
