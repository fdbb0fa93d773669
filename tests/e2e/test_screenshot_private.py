"""CLI screenshots on a shared disk (the adversarial run of 2026-11-30), through the real daemon and a real double
runner: another user who plants a symlink or a file of theirs where a screenshot goes never gets the picture, nor
a file of yours overwritten; the default folder another user created first is refused; what is written is 0600.
Another user is simulated by chown to ``nobody`` (the suite runs as root; skipped otherwise), and reads as
``nobody`` through ``setpriv``."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_harness import Cli, cli_for

pytestmark = pytest.mark.e2e

NOBODY = 65534
D = ("--device", "double")
PNG = b"\x89PNG"


@pytest.fixture
def shared() -> Iterator[Path]:
    """A world-writable sticky directory like /tmp, of this test's own."""
    if os.geteuid() != 0:
        pytest.skip("simulating another user's files needs root (CI runs as root)")
    path = Path(tempfile.mkdtemp(prefix="pw-shared-"))
    path.chmod(0o1777)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shared: Path) -> Iterator[Cli]:
    with cli_for(tmp_path, monkeypatch) as c:
        c.setenv("TMPDIR", str(shared))  # the daemon's default screenshot folder is under it
        assert c(*D, "open", "app.shots").code == 0
        yield c


def nobody_reads(path: Path) -> str:
    if shutil.which("setpriv") is None:
        pytest.skip("setpriv is not installed")
    argv = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--", "/bin/cat", str(path)]
    done = subprocess.run(argv, capture_output=True, timeout=60, check=False, env={})
    return "read" if done.returncode == 0 and done.stdout.startswith(PNG) else "refused"


def test_a_symlink_planted_where_a_screenshot_goes_is_not_followed(cli: Cli, shared: Path, tmp_path: Path) -> None:
    victim = tmp_path / "precious.txt"
    victim.write_text("precious\n")
    link = shared / "shot.png"
    link.symlink_to(victim)
    os.lchown(link, NOBODY, NOBODY)
    refused = cli(*D, "screenshot", str(link))
    assert refused.code == 2 and refused.err.startswith(f"error INVALID_REQUEST: cannot write {link}")
    assert "hint: Pass a PATH of your own that is not a symlink" in refused.err
    assert victim.read_text() == "precious\n"  # untouched
    assert cli(*D, "snapshot").code == 0  # still serving


def test_a_file_another_user_created_first_never_gets_the_picture(cli: Cli, shared: Path) -> None:
    theirs = shared / "theirs.png"
    theirs.write_bytes(b"")
    os.chown(theirs, NOBODY, NOBODY)
    theirs.chmod(0o666)
    refused = cli(*D, "screenshot", str(theirs))
    assert refused.code == 2 and "another user's file" in refused.err
    assert theirs.read_bytes() == b""


def test_the_default_folder_another_user_created_first_is_refused(cli: Cli, shared: Path) -> None:
    folder = shared / f"phonewire-{os.getuid()}-screenshots"
    folder.mkdir()
    os.chown(folder, NOBODY, NOBODY)
    folder.chmod(0o777)
    refused = cli(*D, "screenshot")
    assert refused.code == 2 and refused.err.startswith(f"error INVALID_REQUEST: cannot keep screenshots in {folder}")
    assert "hint: Pass a PATH" in refused.err
    assert list(folder.iterdir()) == []


def test_a_screenshot_is_0600_in_a_0700_folder_and_nobody_else_reads_it(cli: Cli, shared: Path) -> None:
    named = cli(*D, "screenshot", str(shared / "mine.png"))
    assert named.code == 0, named.err
    default = cli(*D, "--json", "screenshot")
    assert default.code == 0, default.err
    path = Path(default.json()["data"]["path"])
    assert (path.parent.stat().st_mode & 0o777) == 0o700
    for shot in (shared / "mine.png", path):
        assert shot.read_bytes().startswith(PNG)
        assert (shot.stat().st_mode & 0o777) == 0o600
    assert nobody_reads(shared / "mine.png") == "refused"


def test_the_python_api_writes_its_screenshot_file_the_same_way(shared: Path, tmp_path: Path) -> None:
    import phonewire
    from phonewire.protocol.errors import ProtocolError

    victim = tmp_path / "precious.txt"
    victim.write_text("precious\n")
    link = shared / "api.png"
    link.symlink_to(victim)
    os.lchown(link, NOBODY, NOBODY)
    with phonewire.Phone(device="double") as phone:
        phone.open("app.api")
        with pytest.raises(ProtocolError) as refused:
            phone.screenshot(str(link))
        assert refused.value.code == "INVALID_REQUEST" and refused.value.hint
        mine = shared / "api-mine.png"
        assert phone.screenshot(str(mine)).startswith(PNG)
    assert victim.read_text() == "precious\n"
    assert (mine.stat().st_mode & 0o777) == 0o600
