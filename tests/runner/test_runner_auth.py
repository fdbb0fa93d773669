"""Owner-only runner (issue 15, item 2): every request needs the runner's bearer token; nothing runs without it."""

from __future__ import annotations

import asyncio
import errno
import json
import os
import stat
from pathlib import Path

import pytest
from other_user import INTRUDER, other_user
from runner_wire import (
    TOKEN,
    RunnerProcess,
    exchange,
    fate,
    new_id,
    parse_response,
    request_bytes,
    run_ok,
    start_runner,
    taps,
)

from phonewire.host import HostSession
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.runtime import TOKEN_ENV

APP = "app.auth"


def _body(command: str, **fields: object) -> bytes:
    return json.dumps({"command": command, **fields}).encode()


@pytest.mark.parametrize(
    "token", [None, "wrong-token", TOKEN + "x", TOKEN[:-1]], ids=["none", "wrong", "longer", "shorter"]
)
def test_no_or_a_wrong_token_is_401_unauthorized_for_every_command_and_nothing_runs(
    runner: RunnerProcess, token: str | None
) -> None:
    run_ok(runner.port, "launchApp", appBundleId=APP, commandId=new_id("launch"))
    before = taps(runner.port, APP)
    tap_id = new_id("unauth-tap")
    bodies = [
        _body("status"),
        _body("uptime"),
        _body("status", statusCommandId=tap_id),
        _body("tap", commandId=tap_id, appBundleId=APP, x=5, y=5),
        _body("shutdown", commandId=new_id("unauth-shutdown")),
    ]
    for body in bodies:
        response = parse_response(exchange(runner.port, request_bytes(body, token=token)))
        assert response.status == 401, body
        assert response.code == e.UNAUTHORIZED
        assert "Nothing ran" in response.envelope["error"]["hint"]
    assert taps(runner.port, APP) == before  # the right token: the tap never reached the device
    assert fate(runner.port, tap_id)["state"] == "notAccepted"  # ... nor the journal
    assert run_ok(runner.port, "uptime")["uptimeMs"] >= 0  # and shutdown did not stop the runner


def _private_runtime(tmp_path: Path) -> Path:
    """An XDG_RUNTIME_DIR that others may traverse (like /run/user/UID is not): only phonewire's own modes protect
    the token file in it."""
    runtime = tmp_path / "xdg"
    runtime.mkdir()
    runtime.chmod(0o711)
    tmp_path.chmod(0o711)
    return runtime


def test_a_runner_without_a_token_generates_one_into_a_0600_file_in_a_0700_dir_removed_at_exit(tmp_path: Path) -> None:
    runtime = _private_runtime(tmp_path)
    proc = start_runner(env={TOKEN_ENV: "", "XDG_RUNTIME_DIR": str(runtime)})
    try:
        path = runtime / "phonewire" / f"runner-{proc.port}.token"
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
        generated = path.read_text().strip()
        assert len(generated) >= 32 and generated != TOKEN
        status = _body("status")
        assert parse_response(exchange(proc.port, request_bytes(status, token=generated))).status == 200
        assert parse_response(exchange(proc.port, request_bytes(status))).status == 401  # TOKEN is not its token
    finally:
        assert proc.stop() == 0
        proc.stderr_path.unlink(missing_ok=True)
    assert not path.exists()


def test_a_host_attaches_with_the_token_file_or_the_variable_and_says_what_is_missing(tmp_path: Path) -> None:
    runtime = _private_runtime(tmp_path)
    proc = start_runner(env={TOKEN_ENV: "", "XDG_RUNTIME_DIR": str(runtime)})
    try:
        generated = (runtime / "phonewire" / f"runner-{proc.port}.token").read_text().strip()
        address = f"127.0.0.1:{proc.port}"

        async def attach(env: dict[str, str]) -> object:
            async with HostSession(runner_addr=address, env=env, write_diagnostics=False) as host:
                return (await host.send("listApps")).data

        assert asyncio.run(attach({"XDG_RUNTIME_DIR": str(runtime)})) == {"apps": []}  # the file
        assert asyncio.run(attach({TOKEN_ENV: generated, "XDG_RUNTIME_DIR": str(tmp_path)})) == {"apps": []}
        with pytest.raises(ProtocolError) as missing:
            asyncio.run(attach({"XDG_RUNTIME_DIR": str(tmp_path)}))  # no variable, no file there
        assert missing.value.code == e.UNAUTHORIZED
        assert missing.value.hint is not None and TOKEN_ENV in missing.value.hint
        with pytest.raises(ProtocolError) as wrong:
            asyncio.run(attach({TOKEN_ENV: "not-the-token", "XDG_RUNTIME_DIR": str(runtime)}))
        assert wrong.value.code == e.UNAUTHORIZED
    finally:
        proc.stop()
        proc.stderr_path.unlink(missing_ok=True)


def test_a_second_unix_account_can_neither_read_the_token_nor_drive_the_runner(tmp_path: Path) -> None:
    runtime = _private_runtime(tmp_path)
    with other_user() as intruder:
        proc = start_runner(env={TOKEN_ENV: "", "XDG_RUNTIME_DIR": str(runtime)})
        try:
            path = runtime / "phonewire" / f"runner-{proc.port}.token"
            token = path.read_text().strip()
            launch = _body("launchApp", appBundleId=APP, commandId=new_id("launch"))
            assert parse_response(exchange(proc.port, request_bytes(launch, token=token))).status == 200
            tap = json.dumps({"command": "tap", "commandId": "intruder-tap", "appBundleId": APP, "x": 5, "y": 5})
            seen = intruder.python(
                INTRUDER, str(path), str(proc.port), '|{"command":"status"}', "|" + tap, "guessed-token|" + tap
            )
            assert seen == {"read": errno.EACCES, "statuses": [401, 401, 401]}
            data = parse_response(exchange(proc.port, request_bytes(_body("status"), token=token))).data
            assert data["device"]["taps"].get(APP, 0) == 0  # nothing the intruder sent ran
            probe = _body("status", statusCommandId="intruder-tap")
            assert parse_response(exchange(proc.port, request_bytes(probe, token=token))).data["state"] == "notAccepted"
        finally:
            proc.stop()
            proc.stderr_path.unlink(missing_ok=True)


def test_the_runner_refuses_a_malformed_token_in_its_environment() -> None:
    import subprocess

    from runner_wire import runner_command

    env = dict(os.environ, **{TOKEN_ENV: "has spaces"})
    done = subprocess.run(runner_command(), capture_output=True, text=True, timeout=30, check=False, env=env)
    assert done.returncode == 2
    assert TOKEN_ENV in done.stderr and "PHONEWIRE_RUNNER_LISTENING" not in done.stdout
