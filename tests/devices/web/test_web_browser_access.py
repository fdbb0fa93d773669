"""Nobody else on the machine can reach the browser: DevTools runs over a private pipe pair (no TCP port,
no listening socket of any kind), and Chromium keeps its sandbox whenever the user is not root."""

from __future__ import annotations

import asyncio
import json
import os
import pwd
from pathlib import Path

import pytest
from web_phone import Phone, requires_chromium

from phonewire.devices.web import browser
from phonewire.devices.web.device import WebDevice

pytestmark = requires_chromium


def _group_pids(pgid: int) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[2]) == pgid:  # fields after the name: state, ppid, pgrp, …
            pids.append(int(entry.name))
    return pids


def _socket_inodes(pid: int) -> set[str]:
    inodes = set()
    try:
        for fd in (Path("/proc") / str(pid) / "fd").iterdir():
            try:
                target = str(fd.readlink())
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(target[len("socket:[") : -1])
    except OSError:
        pass
    return inodes


def _listening_tcp_inodes() -> set[str]:
    """Inodes of every listening TCP socket (state 0A) on the machine."""
    listening = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            cols = line.split()
            if cols[3] == "0A":
                listening.add(cols[9])
    return listening


def _listening_unix_paths(inodes: set[str]) -> list[str]:
    """Paths of the listening Unix stream sockets (flag __SO_ACCEPTCON) among ``inodes``."""
    paths = []
    for line in Path("/proc/net/unix").read_text().splitlines()[1:]:
        cols = line.split()
        if int(cols[3], 16) & 0x10000 and cols[6] in inodes:
            paths.append(cols[7] if len(cols) > 7 else "")
    return paths


def test_the_browser_has_no_listening_socket_and_is_driven_over_its_pipe() -> None:
    phone = Phone()
    try:
        pid = phone.device.describe()["browserPid"]
        pids = _group_pids(pid)
        assert pid in pids and len(pids) > 1  # the browser and its helpers (renderer, zygote, …)
        owned = set().union(*(_socket_inodes(p) for p in pids))
        assert owned.isdisjoint(_listening_tcp_inodes())
        # Chromium's own process-singleton socket is the one Unix listener; it lives in a directory that only
        # the owner can enter, so no other account can connect to it.
        for path in _listening_unix_paths(owned):
            assert path.startswith("/"), f"abstract Unix socket {path!r}: any local user could connect"
            parent = Path(path).parent.stat()
            assert parent.st_uid == os.geteuid() and parent.st_mode & 0o077 == 0, path
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        assert b"--remote-debugging-pipe" in cmdline
        assert cmdline[0].decode() == phone.device.describe()["browser"]  # status names the browser that runs
        assert not any(arg.startswith(b"--remote-debugging-port") for arg in cmdline)
        # and the pipe drives it: a real round trip through the device
        assert phone.device.describe()["screen"]["width"] > 0
        assert phone.run(phone.device.list_apps()) is not None
    finally:
        phone.close()


def test_root_runs_without_the_sandbox_and_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    assert browser.wants_sandbox() is False
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert browser.wants_sandbox() is True


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to run a browser as another account")
def test_a_normal_user_keeps_chromiums_sandbox() -> None:
    """As an unprivileged account (nobody), the device starts Chromium without --no-sandbox and reports it."""
    nobody = pwd.getpwnam("nobody")
    read_fd, write_fd = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child
        code = 1
        try:
            os.close(read_fd)
            os.setgroups([])
            os.setgid(nobody.pw_gid)
            os.setuid(nobody.pw_uid)
            os.environ["HOME"] = "/tmp"

            async def probe() -> dict[str, object]:
                device = WebDevice()
                await device.open()
                try:
                    cmdline = Path(f"/proc/{int(device.describe()['browserPid'])}/cmdline")
                    args = (await asyncio.to_thread(cmdline.read_bytes)).split(b"\0")
                    return {"sandbox": device.describe()["sandbox"], "noSandboxFlag": b"--no-sandbox" in args}
                finally:
                    await device.close()

            os.write(write_fd, json.dumps(asyncio.run(probe())).encode())
            code = 0
        except BaseException as exc:
            os.write(write_fd, json.dumps({"error": repr(exc)}).encode())
        finally:
            os._exit(code)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as out:
        report = json.loads(out.read() or b"{}")
    _, status = os.waitpid(child, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, report
    if report["sandbox"] == browser.SANDBOX_OFF_UNUSABLE:
        pytest.skip("this machine has no usable Chromium sandbox for an unprivileged user")
    assert report == {"sandbox": browser.SANDBOX_ON, "noSandboxFlag": False}


def test_the_devices_listing_says_whether_the_browser_is_sandboxed(monkeypatch: pytest.MonkeyPatch) -> None:
    from phonewire.devices.registry import web_devices

    monkeypatch.setattr(os, "geteuid", lambda: 0)
    assert {d["sandbox"] for d in web_devices()} == {browser.SANDBOX_OFF_ROOT}
    assert all("no browser sandbox (root)" in d["description"] for d in web_devices())
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert {d["sandbox"] for d in web_devices()} == {browser.SANDBOX_ON}
