"""What the runner does before the browser starts: which binary it runs, and how little it imports first."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import phonewire.protocol
from phonewire.devices.web import browser
from phonewire.devices.web.browser import (
    DEBIAN_BINARY,
    DEBIAN_LAUNCHER,
    DEFAULT_BINARIES,
    HEADLESS_SHELL,
    browser_binary,
)
from phonewire.protocol.envelope import Envelope
from phonewire.protocol.errors import ProtocolError


def test_phonewire_chromium_names_the_browser_whatever_is_installed() -> None:
    assert browser_binary({"PHONEWIRE_CHROMIUM": "/opt/chrome/chrome"}) == "/opt/chrome/chrome"


def test_by_default_the_headless_shell_else_debians_browser_binary_without_its_shell_launcher() -> None:
    assert DEFAULT_BINARIES == (HEADLESS_SHELL, DEBIAN_BINARY, DEBIAN_LAUNCHER)
    expected = next((p for p in DEFAULT_BINARIES if os.access(p, os.X_OK)), DEBIAN_LAUNCHER)
    assert browser_binary({}) == expected
    assert browser_binary({"PHONEWIRE_CHROMIUM": "  "}) == expected  # blank is unset


def test_without_the_headless_shell_the_full_browser_is_started(monkeypatch: pytest.MonkeyPatch) -> None:
    installed = {DEBIAN_BINARY, DEBIAN_LAUNCHER}
    monkeypatch.setattr(os, "access", lambda path, mode: path in installed)
    assert browser_binary({}) == DEBIAN_BINARY
    installed.clear()
    assert browser_binary({}) == DEBIAN_LAUNCHER  # nothing installed: the launch error names Debian's browser


def test_the_docs_list_the_browsers_in_the_order_they_are_tried() -> None:
    text = (Path(__file__).resolve().parents[3] / "docs" / "web.md").read_text()
    table = text[text.index("**Which browser.**") :].split("\n\n")[1]
    rows = [line.split("|")[2].strip().strip("`") for line in table.splitlines()[2:]]
    assert tuple(rows) == DEFAULT_BINARIES


def test_the_browser_starts_before_the_runner_imports_asyncio_sockets_or_json() -> None:
    # phonewire.__main__ starts Chromium through the registry's prestart before it imports the runner: all that
    # runs first must stay light, or the browser starts later (bench_web.py's cold start).
    probe = (
        "import sys\n"
        "from phonewire.devices.registry import prestart, REGISTRY\n"
        "import phonewire.devices.web.browser, phonewire.devices.web.profiles\n"
        "print(REGISTRY['web'].prestart)\n"
        "print(sorted({'asyncio', 'socket', 'json', 'ssl', 'concurrent.futures'} & set(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["phonewire.devices.web.browser:prelaunch", "[]"]


def test_the_protocol_package_still_offers_its_names_loaded_on_first_use() -> None:
    assert phonewire.protocol.Envelope is Envelope
    assert phonewire.protocol.ProtocolError is ProtocolError
    assert dir(phonewire.protocol) == sorted(phonewire.protocol.__all__)
    for name in phonewire.protocol.__all__:
        assert getattr(phonewire.protocol, name) is not None


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])  # this test's own, waited for: its PID is free
    child.wait(10)
    return child.pid


def test_stale_profiles_of_this_user_are_removed_and_other_users_are_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    dead = _dead_pid()
    mine = tmp_path / f"phonewire-chromium-{dead}-mine"
    theirs = tmp_path / f"phonewire-chromium-{dead}-theirs"
    alive = tmp_path / f"phonewire-chromium-{os.getpid()}-alive"
    for d in (mine, theirs, alive):
        (d / "Default").mkdir(parents=True)
    if os.getuid() == 0:  # as root: a directory another user's runner left must stay theirs to clean up
        os.chown(theirs, 65534, 65534)
    browser.remove_stale_profiles()
    assert not mine.exists() and alive.exists()
    assert theirs.exists() is (os.getuid() == 0)


def test_the_browser_answers_the_warm_up_call_written_at_the_fork_with_an_id_the_client_never_uses() -> None:
    import json
    import select

    started = browser.BrowserProcess.launch(extra_flags=browser.window_flags(393, 852))
    try:
        raw = b""
        while b"\0" not in raw:
            ready, _, _ = select.select([started.read_fd], [], [], 30)
            assert ready, "the browser never answered the warm-up call"
            chunk = os.read(started.read_fd, 65536)
            assert chunk, f"the browser closed its pipe: {started.exit_reason()}"
            raw += chunk
        first = json.loads(raw.split(b"\0", 1)[0])
        assert first == {"id": 0, "result": {"cookies": []}}
    finally:
        os.close(started.read_fd)
        os.close(started.write_fd)
        started.stop()


def test_a_profile_name_that_is_no_pid_is_left_alone_and_never_stops_a_launch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    odd = [tmp_path / f"phonewire-chromium-{name}-x" for name in ("9" * 30, "\u00b2", "12345678901")]
    for d in odd:
        d.mkdir()
    browser.remove_stale_profiles()  # raised OverflowError / ValueError, after the browser was already started
    assert all(d.exists() for d in odd)
