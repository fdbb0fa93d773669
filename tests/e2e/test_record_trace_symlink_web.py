"""A symlink planted as the last part of a video file or a trace directory an agent names is not followed, even when
it points at a file or directory of the agent's own user (adversarial run of 2026-11-30: the path was resolved,
symlink included, before the no-symlink check, so ``/tmp/clip.mp4`` → ``~/talk.mp4`` overwrote the talk).  Symlinks
earlier in the path (a home under /home → /data/home) still work.  Real runner, real Chromium; root simulates the
other user with chown (skipped otherwise)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import phonewire

pytestmark = [pytest.mark.e2e, pytest.mark.skipif(shutil.which("chromium") is None, reason="needs Chromium")]

NOBODY = 65534


@pytest.fixture(scope="module")
def phone(tmp_path_factory: pytest.TempPathFactory) -> Iterator[phonewire.Phone]:
    if os.geteuid() != 0:
        pytest.skip("simulating another user's symlinks needs root (CI runs as root)")
    base = tmp_path_factory.mktemp("symlinked")
    saved = {k: os.environ.get(k) for k in ("PHONEWIRE_STATE_DIR", "PHONEWIRE_RUNNER_ADDR")}
    os.environ["PHONEWIRE_STATE_DIR"] = str(base / "state")
    os.environ.pop("PHONEWIRE_RUNNER_ADDR", None)
    try:
        with phonewire.Phone(device="web") as p:
            p.open("dev.phonewire.demo")
            yield p
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def test_a_planted_link_to_a_video_of_ones_own_is_not_written_through(phone: phonewire.Phone, tmp_path: Path) -> None:
    talk = tmp_path / "talk.mp4"
    talk.write_bytes(b"my talk")
    link = tmp_path / "clip.mp4"
    link.symlink_to(talk)
    os.lchown(link, NOBODY, NOBODY)
    with pytest.raises(phonewire.ProtocolError) as refused:
        phone.record_start(str(link))
    assert refused.value.code == "INVALID_REQUEST" and refused.value.hint
    assert talk.read_bytes() == b"my talk"
    # a symlinked directory on the way is fine: the video lands in its target, 0600
    (tmp_path / "real").mkdir()
    (tmp_path / "via").symlink_to(tmp_path / "real")
    phone.record_start(str(tmp_path / "via" / "ok.mp4"))
    phone.tap("Account")
    assert phone.record_stop().data["path"] == str(tmp_path / "real" / "ok.mp4")
    assert oct((tmp_path / "real" / "ok.mp4").stat().st_mode & 0o777) == "0o600"


def test_a_planted_link_to_a_directory_of_ones_own_is_no_trace_directory(
    phone: phonewire.Phone, tmp_path: Path
) -> None:
    mine = tmp_path / "notes"
    mine.mkdir(mode=0o700)
    link = tmp_path / "trace"
    link.symlink_to(mine)
    os.lchown(link, NOBODY, NOBODY)
    with pytest.raises(phonewire.ProtocolError) as refused:
        phone.trace_start(str(link))
    assert refused.value.code == "INVALID_REQUEST" and "symlink" in refused.value.message
    assert list(mine.iterdir()) == []
    phone.snapshot()  # still serving
