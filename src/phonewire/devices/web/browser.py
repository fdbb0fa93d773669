"""Owning one headless Chromium process: launch, find its DevTools address, stop it, never orphan it.

Lifecycle::

    launch() ── chromium started in its own process group, with a fresh --user-data-dir
       │         and PR_SET_PDEATHSIG(SIGKILL) so it dies with the runner even if the runner is SIGKILLed
       ▼
    running ── (crash / killed) ──► exited: ``exit_reason()`` says so; the owner reports DEVICE_UNAVAILABLE
       │
    stop() ── SIGTERM to the group, SIGKILL after a bound, user-data-dir removed.  Safe to call twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

CHROMIUM = os.environ.get("PHONEWIRE_CHROMIUM", "/usr/bin/chromium")

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-dev-shm-usage",
    "--disable-extensions",
    "--mute-audio",
    "--hide-scrollbars",
    # A background (frozen) page must stay frozen because *we* froze it, and a foreground page must not be
    # throttled because headless thinks it is hidden.
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
    "--remote-debugging-port=0",
    "about:blank",
)

_PR_SET_PDEATHSIG = 1


try:
    _LIBC: ctypes.CDLL | None = ctypes.CDLL("libc.so.6", use_errno=True)  # loaded here, not in the child
except OSError:
    _LIBC = None


def _die_with_parent() -> None:
    """Runs in the child between fork and exec: one system call, no locks, no allocation to speak of."""
    if _LIBC is not None:
        _LIBC.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


_PROFILE_PREFIX = "phonewire-chromium-"


def remove_stale_profiles() -> None:
    """Remove profile directories left by owners that were SIGKILLed (their browser died with them, by
    PR_SET_PDEATHSIG, but nobody was left to remove the directory).  The owner's PID is in the name."""
    for path in Path(tempfile.gettempdir()).glob(f"{_PROFILE_PREFIX}*-*"):
        owner = path.name[len(_PROFILE_PREFIX) :].split("-", 1)[0]
        if not owner.isdigit() or int(owner) == os.getpid():
            continue
        try:
            os.kill(int(owner), 0)
        except ProcessLookupError:
            shutil.rmtree(path, ignore_errors=True)
        except PermissionError:
            pass  # alive, someone else's


class BrowserLaunchError(Exception):
    pass


class BrowserProcess:
    def __init__(self, process: subprocess.Popen[bytes], user_data_dir: Path, ws_url: str) -> None:
        self.process = process
        self.user_data_dir = user_data_dir
        self.ws_url = ws_url
        self._stopped = False

    @property
    def pid(self) -> int:
        return self.process.pid

    @classmethod
    async def launch(cls, *, timeout: float = 20.0, extra_flags: tuple[str, ...] = ()) -> BrowserProcess:
        remove_stale_profiles()
        user_data_dir = Path(tempfile.mkdtemp(prefix=f"{_PROFILE_PREFIX}{os.getpid()}-"))
        args = [CHROMIUM, f"--user-data-dir={user_data_dir}", *extra_flags, *FLAGS]
        try:
            # Popen only forks and execs (no waiting), so it is fine on the event loop.
            process = subprocess.Popen(  # noqa: ASYNC220
                args,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # own process group: stop() ends renderers too, by the group id
                preexec_fn=_die_with_parent,  # noqa: PLW1509 (a single prctl call, libc preloaded)
            )
        except OSError as exc:
            shutil.rmtree(user_data_dir, ignore_errors=True)
            raise BrowserLaunchError(f"cannot start {CHROMIUM}: {exc}") from exc
        browser = cls(process, user_data_dir, "")
        try:
            browser.ws_url = await browser._wait_for_devtools(timeout)
        except BaseException:
            browser.stop()
            raise
        return browser

    async def _wait_for_devtools(self, timeout: float) -> str:
        port_file = self.user_data_dir / "DevToolsActivePort"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BrowserLaunchError(f"chromium exited during start (status {self.process.returncode})")
            with contextlib.suppress(OSError):
                lines = port_file.read_text().splitlines()
                if len(lines) >= 2 and lines[0].strip().isdigit():
                    return f"ws://127.0.0.1:{lines[0].strip()}{lines[1].strip()}"
            await asyncio.sleep(0.01)
        raise BrowserLaunchError(f"chromium did not open its DevTools port within {timeout:.0f} s")

    def exit_reason(self) -> str | None:
        """``None`` while the browser process runs; else why it is gone."""
        code = self.process.poll()
        if code is None:
            return None
        if self._stopped:
            return "the browser was closed"
        if code < 0:
            return f"the browser process was killed by signal {-code}"
        return f"the browser process exited with status {code}"

    def stop(self, grace: float = 2.0) -> None:
        """Terminate the browser's process group, kill it after ``grace`` seconds, remove the profile."""
        self._stopped = True
        try:
            if self.process.poll() is None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(self.process.pid, signal.SIGTERM)
                try:
                    self.process.wait(grace)
                except subprocess.TimeoutExpired:
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.killpg(self.process.pid, signal.SIGKILL)
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        self.process.wait(grace)
            # The browser is gone; its helpers (same group) may linger a moment and still write to the profile.
            self._end_group(grace)
        finally:
            for _ in range(3):
                shutil.rmtree(self.user_data_dir, ignore_errors=True)
                if not self.user_data_dir.exists():
                    break
                time.sleep(0.05)

    def _end_group(self, grace: float) -> None:
        deadline = time.monotonic() + grace
        while True:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                return  # no process of the group is left
            if time.monotonic() > deadline:
                return
            time.sleep(0.02)
