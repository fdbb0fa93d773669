"""Minor findings of issue 28 through the real CLI, daemon and a double runner: ``trace start ''`` is refused (it
traced into the working directory), ``url 'http://[::1'`` is INVALID_REQUEST (it was COMMAND_FAILED with a
"restart the runner" hint), point taps off the screen are a range error, and a daemon restart that lost the
session's app says so on the next reply."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from cli_harness import Cli, cli_for
from procs import wait_gone

pytestmark = pytest.mark.e2e

D = ("--device", "double")


def test_trace_start_with_an_empty_directory_is_refused_and_traces_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with cli_for(tmp_path, monkeypatch) as cli:
        assert cli.sub(*D, "open", "app.one").code == 0
        res = cli.sub(*D, "trace", "start", "")
        assert (res.code, res.err.splitlines()[0]) == (2, "error INVALID_REQUEST: trace start needs a directory")
        assert not (tmp_path / "trace.jsonl").exists()


def test_a_url_that_does_not_parse_is_an_invalid_request(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with cli_for(tmp_path, monkeypatch) as cli:
        res = cli.sub(*D, "url", "http://[::1")
        assert res.err.startswith("error INVALID_REQUEST: url 'http://[::1' is not a URL: Invalid IPv6 URL"), res.err
        assert "restart" not in res.err


@pytest.mark.parametrize("point", [("1e308", "1e308"), ("NaN", "NaN"), ("-5", "-5")])
def test_a_point_tap_off_the_screen_is_a_range_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, point: tuple[str, str]
) -> None:
    with cli_for(tmp_path, monkeypatch) as cli:
        assert cli.sub(*D, "open", "app.one").code == 0
        res = cli.sub(*D, "tap", *point)
        assert res.code == 2
        assert res.err.startswith(f"error INVALID_REQUEST: the point '{' '.join(point)}' is off the screen"), res.err


def test_a_count_of_1e308_is_refused_without_309_digits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with cli_for(tmp_path, monkeypatch) as cli:
        assert cli.sub(*D, "open", "app.one").code == 0
        res = cli.sub(*D, "tap", "10", "10", "--count", "1e308")
        assert res.err.startswith("error INVALID_REQUEST: tap --count must be at most 20, got 1e+308\n"), res.err


def test_a_daemon_restart_that_lost_the_sessions_app_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cli = Cli(tmp_path, monkeypatch)
    try:
        assert cli.sub(*D, "open", "app.one").code == 0
        old = cli.daemon_pid()
        assert old is not None
        os.kill(old, signal.SIGKILL)  # its runner (and app.one) go with it
        assert wait_gone(old)
        res = cli.sub(*D, "tap", "10", "10")
        assert res.err.startswith(
            f"note: the daemon was restarted (the previous one, pid {old}, ended): app app.one of this session is no "
            "longer open"
        ), res.err
        assert "`phonewire open app.one`" in res.err.splitlines()[0]
        again = cli.sub(*D, "tap", "10", "10")
        assert "note:" not in again.err  # said once
        # an asked-for stop is no surprise
        assert cli.sub(*D, "open", "app.one").code == 0
        assert cli.sub("daemon", "stop").code == 0
        assert "note:" not in cli.sub(*D, "apps").err
    finally:
        cli.stop()
