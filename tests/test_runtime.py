"""The per-user runtime directory (runner tokens, the CLI daemon's socket): private, and not deniable by others."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from phonewire import runtime


def test_xdg_runtime_dir_wins_when_it_exists(tmp_path: Path) -> None:
    assert runtime.user_runtime_dir({"XDG_RUNTIME_DIR": str(tmp_path)}) == str(tmp_path / "phonewire")


def test_a_tmp_directory_someone_else_made_first_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Adversarial re-run: another user could create /tmp/phonewire-UID before its owner and so deny the runner and
    the daemon their directory.  Such a path is passed over for one under the user's home."""
    uid = 4_000_000_000 - os.getpid()  # a uid nobody has: its /tmp path is ours to stage
    shared = Path(f"/tmp/phonewire-{uid}")
    monkeypatch.setattr(os, "getuid", lambda: uid)
    env = {"HOME": str(tmp_path)}
    try:
        assert runtime.user_runtime_dir(env) == str(shared)  # absent: the usual path
        shared.mkdir(mode=0o755)  # present, owned by the real user (not uid), open to others: an attacker's
        assert runtime.user_runtime_dir(env) == str(tmp_path / ".cache" / "phonewire" / "runtime")
    finally:
        shutil.rmtree(shared, ignore_errors=True)


def test_the_token_file_is_private(tmp_path: Path) -> None:
    directory = tmp_path / "rt"
    path = directory / "runner-1.token"
    runtime.write_token_file(str(path), "t0ken")
    assert runtime.read_token_file(str(path)) == "t0ken"
    assert directory.stat().st_mode & 0o777 == 0o700 and path.stat().st_mode & 0o777 == 0o600
