"""Trace directories and video files on a shared disk, on the real runner and Chromium: a directory another user
created first (``/tmp/trace``, with a symlink planted in it) is refused, a video is never written through a symlink
or into another user's file, and what phonewire does write is 0700 / 0600 — the phone keeps serving after each
refusal.  Another user is simulated by chown to ``nobody`` (the suite runs as root; skipped otherwise)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from web_runner import own_phone

import phonewire

pytestmark = pytest.mark.e2e

NOBODY = 65534


@pytest.fixture(scope="module")
def phone(tmp_path_factory: pytest.TempPathFactory) -> Iterator[phonewire.Phone]:
    if os.geteuid() != 0:
        pytest.skip("simulating another user's files needs root (CI runs as root)")
    with own_phone(tmp_path_factory.mktemp("private-files") / "state") as p:
        p.open("dev.phonewire.demo")
        yield p


def _victim(tmp_path: Path) -> Path:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    return victim


def test_a_trace_directory_another_user_created_first_is_refused(phone: phonewire.Phone, tmp_path: Path) -> None:
    victim = _victim(tmp_path)
    shared = tmp_path / "trace"
    shared.mkdir(mode=0o777)
    (shared / "trace.jsonl").symlink_to(victim)
    os.chown(shared, NOBODY, NOBODY)
    with pytest.raises(phonewire.ProtocolError) as refused:
        phone.trace_start(str(shared))
    assert refused.value.code == "INVALID_REQUEST"
    assert "another user's directory" in refused.value.message
    assert victim.read_text() == "keep me"
    assert sorted(p.name for p in shared.iterdir()) == ["trace.jsonl"]  # no shots/ either
    # a directory of one's own works, private
    own = tmp_path / "mine"
    assert phone.trace_start(str(own)).data["dir"] == str(own)
    phone.snapshot()
    phone.trace_stop()
    assert oct(own.stat().st_mode & 0o777) == "0o700"
    assert oct((own / "trace.jsonl").stat().st_mode & 0o777) == "0o600"
    # an existing directory of one's own (a home, a shared project folder) keeps its mode; what goes in is private
    shared_own = tmp_path / "project"
    shared_own.mkdir(mode=0o755)
    shared_own.chmod(0o755)
    phone.trace_start(str(shared_own))
    phone.snapshot()
    phone.trace_stop()
    assert oct(shared_own.stat().st_mode & 0o777) == "0o755"
    assert oct((shared_own / "shots").stat().st_mode & 0o777) == "0o700"
    assert oct((shared_own / "trace.jsonl").stat().st_mode & 0o777) == "0o600"


def test_a_video_is_never_written_through_a_symlink_or_into_another_users_file(
    phone: phonewire.Phone, tmp_path: Path
) -> None:
    victim = _victim(tmp_path)
    link = tmp_path / "clip.mp4"
    link.symlink_to(victim)
    with pytest.raises(phonewire.ProtocolError) as refused:
        phone.record_start(str(link))
    assert refused.value.code == "INVALID_REQUEST"
    theirs = tmp_path / "theirs.mp4"
    theirs.write_bytes(b"their video")
    os.chown(theirs, NOBODY, NOBODY)
    with pytest.raises(phonewire.ProtocolError) as refused:
        phone.record_start(str(theirs))
    assert "another user's file" in refused.value.message
    assert victim.read_text() == "keep me" and theirs.read_bytes() == b"their video"
    # the phone still records, into a file only its user can read
    mine = tmp_path / "mine.mp4"
    phone.record_start(str(mine))
    phone.tap("Account")
    assert phone.record_stop().data["frames"] >= 1
    assert oct(mine.stat().st_mode & 0o777) == "0o600"
    assert mine.read_bytes()[4:8] == b"ftyp"
