"""Diagnostics (issue 4 slice 4 / lifecycle): a structured event per decision, as JSON lines and through the API."""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path

import pytest

from phonewire.host import HostSession
from phonewire.host import diagnostics as d
from phonewire.protocol.errors import ProtocolError

APP = "app.diag"


def test_every_decision_is_a_json_line_in_the_session_file_and_readable_through_the_api(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"

    async def main() -> list[dict[str, object]]:
        async with HostSession("double", diagnostics_path=path) as host:
            await host.send("listApps")  # read-only startup: skipped preflight
            await host.send("launchApp", {"appBundleId": APP})
            await host.send("tap", {"appBundleId": APP, "x": 1, "y": 1})
            await host.send("tap", {"appBundleId": APP, "x": 1, "y": 1})
            api = host.diagnostics()
            assert host.diagnostics(2) == api[-2:]
        return api

    api = asyncio.run(main())
    on_disk = d.read_events(path)
    assert on_disk[: len(api)] == api
    kinds = [ev["event"] for ev in on_disk]
    assert kinds[0] == d.STARTUP and {d.PREFLIGHT, d.INVALIDATION, d.RUNNER_STOPPED} <= set(kinds)
    preflights = [(ev["decision"], ev["reason"]) for ev in on_disk if ev["event"] == d.PREFLIGHT]
    assert preflights == [
        ("skipped", "readOnlyStartup"),
        ("used", "notAllowlisted"),
        ("used", "noRecord"),
        ("skipped", "healthyMutation"),
    ]
    [ready] = [ev for ev in on_disk if ev["event"] == d.STARTUP and ev["phase"] == "ready"]
    phases = ready["phases"]
    assert isinstance(phases, dict)
    assert 0 < phases["spawnedMs"] <= phases["listeningMs"] <= phases["readyMs"]


def test_events_follow_the_documented_schema(tmp_path: Path) -> None:
    """docs/host.md: every event carries the base fields plus only the fields of its kind."""
    path = tmp_path / "s.jsonl"

    async def main() -> None:
        async with HostSession("double", diagnostics_path=path) as host:
            await host.send("launchApp", {"appBundleId": APP})
            await host.send("launchApp", {"appBundleId": APP})  # relaunch → lifecycle reset
            await host.send("tap", {"appBundleId": APP, "x": 1, "y": 1})
            with contextlib.suppress(ProtocolError):
                await host.send("tap", {"appBundleId": "app.never-launched", "x": 1, "y": 1})
            runner = host.runner
            assert runner is not None and runner.process is not None
            runner.process.proc.kill()
            await runner.process.proc.wait()
            await host.send("listApps")

    asyncio.run(main())
    events = d.read_events(path)
    assert {ev["event"] for ev in events} >= {d.STARTUP, d.PREFLIGHT, d.LIFECYCLE_RESET, d.INVALIDATION, d.RETRY}
    for ev in events:
        assert set(d.BASE_FIELDS) <= set(ev)
        assert set(ev) - set(d.BASE_FIELDS) <= set(d.EVENT_FIELDS[str(ev["event"])]), ev


def test_default_file_lives_under_the_per_user_state_dir(tmp_path: Path) -> None:
    env = dict(os.environ, PHONEWIRE_STATE_DIR=str(tmp_path))
    host = HostSession("double", env=env)
    try:
        assert host.diagnostics_path == tmp_path / "sessions" / f"{host.session_id}.jsonl"
        assert host.diagnostics_path.exists()
    finally:
        asyncio.run(host.close())
    assert d.state_dir({"XDG_STATE_HOME": "/x"}) == Path("/x/phonewire")


def test_default_directory_keeps_only_the_newest_session_files(tmp_path: Path) -> None:
    """Diagnostics never grow without bound in the per-user state dir."""
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    for i in range(d.KEEP_SESSION_FILES + 5):
        f = sessions / f"old{i}.jsonl"
        f.write_text("{}\n")
        os.utime(f, (1000 + i, 1000 + i))
    host = HostSession("double", env=dict(os.environ, PHONEWIRE_STATE_DIR=str(tmp_path)))
    try:
        files = sorted(p.name for p in sessions.glob("*.jsonl"))
        assert len(files) == d.KEEP_SESSION_FILES
        assert "old0.jsonl" not in files and f"old{d.KEEP_SESSION_FILES + 4}.jsonl" in files
    finally:
        asyncio.run(host.close())


# -- best-effort (issue 15 item 5) --------------------------------------------------------------------------------
def _run_session(path: Path | None = None) -> tuple[list[str], str | None]:
    async def main() -> tuple[list[str], str | None]:
        async with HostSession("double", diagnostics_path=path) as host:
            await host.send("launchApp", {"appBundleId": APP})
            reply = await host.send("tap", {"appBundleId": APP, "x": 1, "y": 1})
            kinds = [ev["event"] for ev in host.diagnostics()]
            assert reply.ok
            return kinds, host.diag.write_error

    return asyncio.run(main())


def test_a_read_only_state_dir_never_fails_a_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = tmp_path / "state"
    state.mkdir()
    state.chmod(0o500)
    monkeypatch.setenv("PHONEWIRE_STATE_DIR", str(state))
    try:
        if os.geteuid() == 0:  # root writes through a 0500 directory: use a path under a regular file instead
            blocker = tmp_path / "file"
            blocker.write_text("x")
            monkeypatch.setenv("PHONEWIRE_STATE_DIR", str(blocker / "state"))
        kinds, error = _run_session()
    finally:
        state.chmod(0o700)
    assert d.PREFLIGHT in kinds  # events still kept in memory
    assert error is not None and "disabled" in error


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
def test_a_full_disk_never_fails_a_command_or_a_stop(tmp_path: Path) -> None:
    link = tmp_path / "session.jsonl"
    link.symlink_to("/dev/full")  # every write fails with ENOSPC
    kinds, error = _run_session(link)
    assert error is not None and "No space left" in error
    assert d.PREFLIGHT in kinds


def test_files_are_owner_only_and_a_session_file_is_bounded(tmp_path: Path) -> None:
    directory = tmp_path / "state" / "sessions"
    diag = d.Diagnostics("s1", directory / "s1.jsonl", max_bytes=2000)
    for i in range(200):
        diag.record(d.RETRY, command="tap", attempt=i)
    diag.close()
    assert directory.stat().st_mode & 0o777 == 0o700
    files = sorted(p.name for p in directory.iterdir())
    assert files == ["s1.jsonl", "s1.old.jsonl"]
    for name in files:
        st = (directory / name).stat()
        assert st.st_mode & 0o777 == 0o600 and st.st_size <= 2000
    newest = d.read_events(directory / "s1.jsonl")
    assert newest[-1]["attempt"] == 199  # the newest events survive rotation
    assert len(diag.recent()) == 200


def test_an_old_world_readable_directory_and_file_are_narrowed(tmp_path: Path) -> None:
    directory = tmp_path / "sessions"
    directory.mkdir(mode=0o755)
    directory.chmod(0o755)
    old = directory / "s2.jsonl"
    old.write_text("")
    old.chmod(0o644)
    diag = d.Diagnostics("s2", old)
    diag.record(d.RETRY, command="tap")
    diag.close()
    assert directory.stat().st_mode & 0o777 == 0o700 and old.stat().st_mode & 0o777 == 0o600
