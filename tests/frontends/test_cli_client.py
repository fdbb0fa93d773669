"""The thin client's own failures (no daemon answers): exit 4, a code, a hint, and --json honoured."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
from pathlib import Path

import pytest

from phonewire.frontends.cli import main as cli
from phonewire.frontends.cli.client import DAEMON_UNAVAILABLE, DaemonError
from phonewire.frontends.cli.daemon import Daemon


def failing(message: str, hint: str | None = None) -> object:
    def request(*args: object, **kwargs: object) -> tuple[int, str, str]:
        raise DaemonError(DAEMON_UNAVAILABLE, message, hint)

    return request


def test_a_daemon_failure_with_json_is_one_json_envelope_on_stdout(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cli, "request", failing("the daemon did not start within 20 s", "See daemon.log."))
    assert cli.main(["--json", "snapshot"]) == 4
    out, err = capsys.readouterr()
    assert err == ""
    assert json.loads(out) == {
        "ok": False,
        "error": {
            "code": "DAEMON_UNAVAILABLE",
            "message": "the daemon did not start within 20 s",
            "hint": "See daemon.log.",
        },
    }


def test_a_daemon_that_drops_the_request_unanswered_warns_that_the_command_may_have_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A daemon that reads the request and closes without a reply (it crashed mid-tap): the tap may have landed,
    # so the hint must not just say "run it again".
    directory = tmp_path / "d"
    directory.mkdir(mode=0o700)
    (directory / "token").write_text("t")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(directory / "daemon.sock"))
    server.listen(1)

    def drop_one() -> None:
        conn, _ = server.accept()
        with conn:
            while conn.recv(65536):
                pass

    thread = threading.Thread(target=drop_one)
    thread.start()
    monkeypatch.setenv("PHONEWIRE_DAEMON_DIR", str(directory))
    try:
        assert cli.main(["tap", "@e3"]) == 4
    finally:
        thread.join(10)
        server.close()
    out, err = capsys.readouterr()
    assert out == ""
    first, hint = err.splitlines()
    assert first == "error DAEMON_UNAVAILABLE: the daemon closed the connection without a reply"
    assert hint.startswith("hint: The command may have run") and "phonewire snapshot" in hint


class BrokenSender:
    async def send(self, command: str, fields: object = None) -> object:
        raise RuntimeError("a bug")

    async def close(self) -> None:
        pass


@pytest.mark.parametrize("as_json", [False, True])
def test_a_bug_in_the_daemon_is_exit_4_with_a_hint_and_json_when_asked(tmp_path: Path, as_json: bool) -> None:
    daemon = Daemon(str(tmp_path), idle_s=60, sender_factory=lambda device, runner, token: BrokenSender())
    argv = ["--device", "double", "apps", *(["--json"] if as_json else [])]
    reply = asyncio.run(daemon.run_argv(argv))
    assert reply["exit"] == 4
    if as_json:
        error = json.loads(reply["stdout"])["error"]
        assert (error["code"], error["message"]) == ("COMMAND_FAILED", "internal error: RuntimeError: a bug")
        assert error["hint"]
    else:
        first, hint = reply["stderr"].splitlines()
        assert first == "error COMMAND_FAILED: internal error: RuntimeError: a bug"
        assert hint.startswith("hint: ")


class CountingSender:
    async def send(self, command: str, fields: object = None) -> object:
        raise AssertionError("not used")

    async def close(self) -> None:
        pass


def test_two_names_of_one_web_phone_share_one_runner(tmp_path: Path) -> None:
    made: list[object] = []

    def factory(device: str | None, runner: str | None, token: str | None) -> CountingSender:
        made.append(device)
        return CountingSender()

    daemon = Daemon(str(tmp_path), idle_s=60, sender_factory=factory)

    async def sessions() -> None:
        await daemon.session("default", "web", None)
        await daemon.session("default", "web:iphone-15", None)
        await daemon.session("other", "web:IPHONE-15", None)
        await daemon.session("default", "web:pixel-7", None)

    asyncio.run(sessions())
    assert made == ["web:iphone-15", "web:pixel-7"]  # the default profile named three ways is one phone
