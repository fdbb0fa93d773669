"""Owning one headless Chromium process: launch it with a private DevTools pipe, stop it, never orphan it.

Lifecycle::

    launch() ── chromium started in its own process group, with a fresh --user-data-dir (0700),
       │         PR_SET_PDEATHSIG(SIGKILL) so it dies with the runner even if the runner is SIGKILLed, and
       │         --remote-debugging-pipe: DevTools on the child's fds 3 (commands in) and 4 (replies out).
       │         No DevTools TCP port exists, so nobody else on the machine can drive the browser.
       ▼
    running ── (crash / killed) ──► exited: ``exit_reason()`` says so; the owner reports DEVICE_UNAVAILABLE
       │
    stop() ── SIGTERM to the group, SIGKILL after a bound, user-data-dir removed.  Safe to call twice.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Final

from phonewire import lifeline

#: Debian's ``chromium-headless-shell`` package: the old headless mode as a browser of its own (same version as
#: ``chromium``, no desktop browser UI at all).  A cold start of the web phone costs about half the CPU of the full
#: browser's (docs/performance.md), so it is started whenever it is installed (``scripts/setup.sh`` installs it).
HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell"
#: Debian's ``/usr/bin/chromium`` is a shell launcher: it greps /proc/cpuinfo, sources /etc/chromium.d (which runs
#: findmnt, ls, tr), then execs the browser binary with desktop flags a headless phone does not use (extension
#: loading, GPU rasterization).  That is 40-100 ms of every start (bench_web.py's cold start), so the full browser
#: is started as the binary the launcher would exec.
DEBIAN_LAUNCHER = "/usr/bin/chromium"
DEBIAN_BINARY = "/usr/lib/chromium/chromium"
#: The binaries tried in order when ``PHONEWIRE_CHROMIUM`` names none: the first executable one is started.
DEFAULT_BINARIES = (HEADLESS_SHELL, DEBIAN_BINARY, DEBIAN_LAUNCHER)


def browser_binary(environ: Mapping[str, str] = os.environ) -> str:
    """The browser to start: ``PHONEWIRE_CHROMIUM``, else the first installed of :data:`DEFAULT_BINARIES` (the
    launcher when none is, so the failure names the browser to install)."""
    configured = environ.get("PHONEWIRE_CHROMIUM", "").strip()
    if configured:
        return configured
    return next((path for path in DEFAULT_BINARIES if os.access(path, os.X_OK)), DEBIAN_LAUNCHER)


CHROMIUM = browser_binary()

FLAGS = (
    "--headless",
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
    # Only what a phone needs (each measured by bench/bench_phones.py and bench_web.py's cold start): headless
    # Chromium still builds the desktop browser's omnibox popup as WebUI pages, in a renderer of their own that
    # costs ~0.4-0.7 s of CPU at start-up and ~100 MB; a spare renderer is kept warm for the next site; the GPU
    # process only does software compositing here (--disable-gpu) and runs as a thread of the browser instead.
    # The rest are desktop services a phone page never uses.  Chromium reads only the last --disable-features.
    "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,SpareRendererForSitePerProcess,Translate,"
    "OptimizationHints,MediaRouter,DialMediaRouteProvider,AutofillServerCommunication,"
    "CertificateTransparencyComponentUpdater",
    "--in-process-gpu",
    # Page.captureScreenshot draws a new surface instead of copying the compositor's: the same pixels (checked on
    # a scrolled page at both scales), a JPEG at CSS scale in ~26 ms instead of ~41 ms (bench_web.py).
    "--enable-features=CDPScreenshotNewSurface",
    # A phone has a camera and a microphone: a page granted them (`permissions grant camera`, or Allow in the
    # system's dialog) gets a stream, Chromium's test pattern and tone.  The headless shell captures only with its
    # prompt answered by the fake UI, which says yes to everything: permission_prompt.js asks the phone first and
    # gives the page NotAllowedError where the phone denies.
    "--use-fake-device-for-media-stream",
    "--use-fake-ui-for-media-stream",
    "--remote-debugging-pipe",
    "about:blank",
)

NO_SANDBOX = "--no-sandbox"
SANDBOX_ON = "on"
SANDBOX_OFF_ROOT = "off: running as root, where Chromium cannot sandbox (run phonewire as a normal user to keep it)"
SANDBOX_OFF_UNUSABLE = "off: Chromium found no usable sandbox on this machine (it exited when started with one)"


#: The fewest open files Chromium runs with (a browser, its renderers, the profile's databases): started where a
#: process may open only 64 (``ulimit -n 64``) it dies with SIGTRAP, mostly at once, sometimes a while later (it
#: answered its first calls in one run of five), so a limit below this is refused before the browser starts.
MIN_OPEN_FILES: Final = 256
_WANTED_OPEN_FILES: Final = 4096


def raise_open_files() -> int:
    """Raise this process's soft ``RLIMIT_NOFILE`` towards its hard limit (up to 4096), for the browser it starts;
    answers the soft limit now (what the browser inherits)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = _WANTED_OPEN_FILES if hard == resource.RLIM_INFINITY else min(hard, _WANTED_OPEN_FILES)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
    return _WANTED_OPEN_FILES if soft == resource.RLIM_INFINITY else int(soft)


def open_files_note(limit: int) -> str:
    """Why a browser that died may have, when the open-file limit is too low for it ("" when it is not)."""
    if limit >= MIN_OPEN_FILES:
        return ""
    return (
        f"; this process may open only {limit} files (ulimit -n {limit}) and Chromium needs a few hundred: raise "
        f"the limit (ulimit -n 1024, or the hard limit the service manager sets) and start again"
    )


def open_files_limit() -> int:
    """This process's soft ``RLIMIT_NOFILE`` now (what a browser it starts inherits)."""
    import resource

    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return _WANTED_OPEN_FILES if soft == resource.RLIM_INFINITY else int(soft)


def start_failure(browser: BrowserProcess | None, exc: BaseException) -> tuple[str, str]:
    """Why the browser did not start (``exc``: what the start met) and the hint for it: where this process may open
    fewer files than Chromium needs (:data:`MIN_OPEN_FILES`), both name that limit whether or not the browser's exit
    was seen yet (it died at once, but the pipe may close before its status is read); else the hint is to check the
    binary."""
    limit = browser.open_files if browser is not None else open_files_limit()
    why = (browser.exit_reason() if browser is not None else None) or str(exc) or "no reply"
    note = open_files_note(limit)
    if not note:
        return why, f"Check that {CHROMIUM} is installed and runs."
    if note not in why:
        why += note
    return why, "Raise the open-files limit (ulimit -n 1024, or the limit the service manager sets) and start again."


def wants_sandbox() -> bool:
    """Chromium refuses to sandbox as root; anyone else keeps the sandbox (third-party pages run in it)."""
    return os.geteuid() != 0


_PIPE_IN, _PIPE_OUT = 3, 4  # Chromium's fixed descriptors for --remote-debugging-pipe


def _child_setup(commands_fd: int, replies_fd: int) -> Callable[[], None]:
    """What runs in the child between fork and exec: die with the parent, and put the DevTools pipe ends on the
    fds 3 and 4 Chromium reads and writes.  Both ends are first copied above 9, so placing one cannot overwrite
    the other (or the fd subprocess uses to report an exec failure, which is never 3 or 4: our pipes were made
    first and so hold the lowest free descriptors).  Runs before subprocess closes the other descriptors; 3 and 4
    are in ``pass_fds`` so they survive."""

    def setup() -> None:
        lifeline.set_death_signal(signal.SIGKILL)
        high_in = fcntl.fcntl(commands_fd, fcntl.F_DUPFD, 10)
        high_out = fcntl.fcntl(replies_fd, fcntl.F_DUPFD, 10)
        os.dup2(high_in, _PIPE_IN)
        os.dup2(high_out, _PIPE_OUT)

    return setup


_PROFILE_PREFIX = "phonewire-chromium-"

#: The first DevTools call, written into the pipe at the fork (the browser reads it once it is up, while the
#: runner still imports): reading the empty cookie jar makes Chromium set up its network service's context now.
#: Left to the first app's navigation, that set-up delayed its request by 20-40 ms (2-6 ms once warm).  Its id 0
#: is one the DevTools client never uses, so the client drops the reply.
WARM_UP: Final = b'{"id":0,"method":"Storage.getCookies"}\0'


def remove_dead_profiles() -> None:
    """:func:`remove_stale_profiles`, called by the host once a runner has ended (registry ``leftovers``, in a
    thread beside the host's event loop: a removal waits out the dead browser's lingering helpers)."""
    remove_stale_profiles()


def remove_stale_profiles(linger_s: float = 3.0) -> None:
    """Remove profile directories left by owners that were SIGKILLed (their browser died with them, by
    PR_SET_PDEATHSIG, but nobody was left to remove the directory).  The owner's PID is in the name.  Only this
    user's: root leaves another user's directories alone (their owner cleans up after itself)."""
    uid = os.getuid()
    for path in Path(tempfile.gettempdir()).glob(f"{_PROFILE_PREFIX}*-*"):
        owner = path.name[len(_PROFILE_PREFIX) :].split("-", 1)[0]
        # a PID: ASCII digits, and few of them (os.kill overflows on a huge number; "²" is a digit to isdigit)
        if not (owner.isascii() and owner.isdigit() and len(owner) <= 10) or int(owner) == os.getpid():
            continue
        try:
            if path.lstat().st_uid != uid:
                continue
        except OSError:
            continue
        try:
            os.kill(int(owner), 0)
        except ProcessLookupError:
            _remove_tree(path, linger_s, quiet_s=_QUIET_S if linger_s > 0 else 0.0)
        except (PermissionError, OverflowError):
            pass  # alive, someone else's (or no PID this system has)


def _remove_tree(path: Path, linger_s: float = 3.0, quiet_s: float = 0.0) -> None:
    """Remove a profile directory.  The dead browser's helpers (renderers, zygote) can still write into it for
    a moment while they notice it is gone, so a removal that lost that race is tried again, briefly."""
    deadline = time.monotonic() + linger_s  # a loaded machine lets the helpers linger a while
    while True:
        shutil.rmtree(path, ignore_errors=True)
        # gone, and still gone a moment later: a helper that had not noticed yet recreates the directory
        if not path.exists() and (quiet_s <= 0 or not _reappears(path, quiet_s)):
            return
        if time.monotonic() > deadline:
            return
        time.sleep(0.05)


#: How long a removed profile directory must stay absent before its removal counts as done.
_QUIET_S = 0.3


def _reappears(path: Path, within_s: float) -> bool:
    until = time.monotonic() + within_s
    while time.monotonic() < until:
        time.sleep(0.05)
        if path.exists():
            return True
    return False


class BrowserLaunchError(Exception):
    pass


#: A browser started by :func:`prelaunch` that no :meth:`BrowserProcess.launch` has taken yet.
_prelaunched: BrowserProcess | None = None


def prelaunch(profile: str | None) -> None:
    """Start the browser the web device of ``profile`` will ask for, now: the runner calls this before it imports
    the rest of itself, so Chromium starts up while Python imports.  The next :meth:`BrowserProcess.launch` takes
    it when it asks for the same flags (else stops it and starts its own); one nobody took is stopped at exit."""
    global _prelaunched
    import atexit

    from phonewire.devices.web.profiles import resolve_profile

    p = resolve_profile(profile)
    if _prelaunched is None:
        _prelaunched = BrowserProcess.launch(extra_flags=window_flags(p.width, p.height))
        atexit.register(_stop_prelaunched)


def _stop_prelaunched() -> None:
    global _prelaunched
    if _prelaunched is not None:
        _prelaunched.stop()
        _prelaunched = None


def window_flags(width: int, height: int) -> tuple[str, ...]:
    return (f"--window-size={width},{height}",)


class BrowserProcess:
    """A running browser and the parent's ends of its DevTools pipe (``read_fd``: its replies; ``write_fd``:
    our commands), which :meth:`CdpConnection.open_pipe` takes over."""

    def __init__(
        self, process: subprocess.Popen[bytes], user_data_dir: Path, read_fd: int, write_fd: int, sandbox: str
    ) -> None:
        self.process = process
        self.sandbox = sandbox  # SANDBOX_ON or why it is off
        self.user_data_dir = user_data_dir
        self.read_fd = read_fd
        self.write_fd = write_fd
        self.extra_flags: tuple[str, ...] = ()
        self.binary = CHROMIUM  # which browser runs (status → device.browser)
        self._stopped = False
        #: The open-file limit the browser was started with (a dead browser's reason names it when too low).
        self.open_files = _WANTED_OPEN_FILES

    @property
    def pid(self) -> int:
        return self.process.pid

    @classmethod
    def launch(cls, *, extra_flags: tuple[str, ...] = (), sandbox: bool | None = None) -> BrowserProcess:
        """Start the browser.  Only forks and execs (no waiting): readiness is the first DevTools reply.
        ``sandbox``: None = whenever Chromium can have one (not root); False = without (the caller saw a
        sandboxed start fail).  Takes the browser :func:`prelaunch` started when it has the same flags."""
        if sandbox is None:
            sandbox = wants_sandbox()
        state = SANDBOX_ON if sandbox else (SANDBOX_OFF_UNUSABLE if wants_sandbox() else SANDBOX_OFF_ROOT)
        global _prelaunched
        early, _prelaunched = _prelaunched, None
        if early is not None:
            if early.extra_flags == extra_flags and early.sandbox == state and early.process.poll() is None:
                return early
            early.stop()  # started for other flags, or already gone: a fresh start decides
        open_files = raise_open_files()
        if open_files < MIN_OPEN_FILES:  # it may start, then dies at once or later: refused alike every time
            raise BrowserLaunchError(f"{CHROMIUM} was not started{open_files_note(open_files)}")
        user_data_dir = Path(tempfile.mkdtemp(prefix=f"{_PROFILE_PREFIX}{os.getpid()}-"))
        sandbox_flag = () if sandbox else (NO_SANDBOX,)
        args = [CHROMIUM, f"--user-data-dir={user_data_dir}", *sandbox_flag, *extra_flags, *FLAGS]
        commands_r, commands_w = os.pipe()
        replies_r, replies_w = os.pipe()
        try:
            process = subprocess.Popen(
                args,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # own process group: stop() ends renderers too, by the group id
                pass_fds=(_PIPE_IN, _PIPE_OUT),
                preexec_fn=_child_setup(commands_r, replies_w),  # noqa: PLW1509 (prctl + dup2, libc preloaded)
            )
        except OSError as exc:
            for fd in (commands_r, commands_w, replies_r, replies_w):
                os.close(fd)
            shutil.rmtree(user_data_dir, ignore_errors=True)
            raise BrowserLaunchError(f"cannot start {CHROMIUM}: {exc}") from exc
        os.close(commands_r)
        os.close(replies_w)
        with contextlib.suppress(OSError):  # a browser that died at once is found by the first real call
            os.write(commands_w, WARM_UP)
        lifeline.record(process.pid)  # a runner SIGKILLed while its browser was stopped: the next start ends it
        lifeline.sweep()
        remove_stale_profiles()  # after the fork: the browser starts up meanwhile
        browser = cls(process, user_data_dir, replies_r, commands_w, state)
        browser.open_files = open_files
        browser.extra_flags = extra_flags
        browser.binary = CHROMIUM
        return browser

    def exit_reason(self) -> str | None:
        """``None`` while the browser process runs; else why it is gone."""
        code = self.process.poll()
        if code is None:
            return None
        if self._stopped:
            return "the browser was closed"
        note = open_files_note(self.open_files)
        if code < 0:
            return f"the browser process was killed by signal {-code}{note}"
        return f"the browser process exited with status {code}{note}"

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
            lifeline.forget(self.process.pid)
            _remove_tree(self.user_data_dir)

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
