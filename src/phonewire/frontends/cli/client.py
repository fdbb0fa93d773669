"""The CLI's thin client: find (or start) the daemon, ship argv over its Unix socket, print the answer.

This module is on every warm command's path, so it imports nothing the interpreter has not loaded already
except the C socket module (``_socket``: ``socket`` would pull in ``enum``/``selectors``, ``json`` would pull in
``re``; together ~8 ms of a ~25 ms command).  ``time`` (built into the interpreter) is imported for the deadline.

Files, in the daemon directory (``PHONEWIRE_DAEMON_DIR``, else ``$XDG_RUNTIME_DIR/phonewire``, else
``/tmp/phonewire-UID``; created 0700 and refused when another user owns it or others can enter it)::

    daemon.sock   the Unix socket (0600)
    token         the secret a client must present (0600, rewritten by each daemon start)
    daemon.lock   held by the serving daemon (one daemon per directory)
    daemon.pid    its process id
    daemon.log    its stderr

Wire (one request per connection; NUL cannot occur in argv, paths or environment strings)::

    request   "pw2" NUL version NUL protocol NUL token NUL cwd NUL n NUL (NAME=VALUE NUL)*n  m NUL (arg NUL)*m
              ("0" | "1" NUL stdin), then the client shuts down its sending side
    reply     "pw2" NUL exit NUL code NUL len(stdout) NUL stdout stderr       (lengths in bytes, UTF-8)

``version`` and ``protocol`` are the client's phonewire and wire protocol versions; ``code`` is empty when the
daemon ran the invocation, else one of the daemon codes below: it refused the request itself, nothing ran, and
stdout holds the reason.

A stale daemon (another phonewire version, e.g. still serving after an upgrade) answers
DAEMON_VERSION_MISMATCH; a daemon older than this wire answers in its own format.  Either way the client stops
it (SIGTERM to the socket's peer pid), waits until its socket is gone, starts a fresh daemon and sends the
request again, once: the stale daemon ran nothing.

Daemon codes (the client's and the daemon's own refusals; exit 4), each with its hint in :data:`DAEMON_HINTS`::

    DAEMON_UNAVAILABLE        no daemon could be started or reached, or it answered nothing usable
    DAEMON_NOT_RUNNING        `daemon status` / `daemon stop` found no daemon (the CLI reports it as ok)
    DAEMON_PROTOCOL           the daemon could not read the request (malformed, too large, too slow)
    DAEMON_AUTH               the request's token is not the daemon's
    DAEMON_VERSION_MISMATCH   the daemon is another phonewire version (replaced once, transparently)
    DAEMON_TIMED_OUT          no answer within the client's deadline (``PHONEWIRE_TIMEOUT`` seconds, default
                              150; 0 = none): the daemon is stopped or overloaded

Deadlines: each client sends ``PHONEWIRE_CLIENT_DEADLINE`` (the wall-clock second it gives up at) among the
request's environment, and gives up then.  The daemon never starts a mutating command past it or after the
client hung up (CLIENT_GONE, for nobody), so a command the client gave up on either ran before the deadline or
never runs: a daemon resumed after SIGSTOP does not tap late.
"""

# The client stays on os.path on purpose: pathlib costs import time on every warm command.
# ruff: noqa: PTH109, PTH110, PTH118, PTH123
from __future__ import annotations

import _socket
import os
import sys

from phonewire.runtime import NotPrivateError, make_private_dir, user_runtime_dir
from phonewire.versions import PROTOCOL_VERSION, __version__

WIRE_VERSION = "pw2"

EXIT_DAEMON = 4
DAEMON_UNAVAILABLE = "DAEMON_UNAVAILABLE"
DAEMON_NOT_RUNNING = "DAEMON_NOT_RUNNING"
DAEMON_PROTOCOL = "DAEMON_PROTOCOL"
DAEMON_AUTH = "DAEMON_AUTH"
DAEMON_VERSION_MISMATCH = "DAEMON_VERSION_MISMATCH"
DAEMON_TIMED_OUT = "DAEMON_TIMED_OUT"
#: The request's environment entry that carries the client's deadline (wall-clock seconds since the epoch).
DEADLINE_ENV = "PHONEWIRE_CLIENT_DEADLINE"
#: How long a client waits for its answer unless ``PHONEWIRE_TIMEOUT`` says otherwise (seconds; the runner's wedge
#: threshold, 120 s, plus the host's recovery: longer than anything the daemon answers in while it runs).
DEFAULT_TIMEOUT_S = 150.0
#: Each daemon code's hint, for an agent (a failure may give a more specific one).
DAEMON_HINTS = {
    DAEMON_UNAVAILABLE: "Run the command again; if it persists, see daemon.log in the daemon directory.",
    DAEMON_NOT_RUNNING: "Any device verb starts one (e.g. `phonewire apps`).",
    DAEMON_PROTOCOL: "Use the `phonewire` command of the same installation as the daemon, and send the whole "
    "request at once.",
    DAEMON_AUTH: "Use the `phonewire` command as the user who started the daemon; if the token file was "
    "replaced, run `phonewire daemon stop` and try again.",
    DAEMON_TIMED_OUT: "The daemon may be stopped (SIGSTOP) or overloaded: see `phonewire daemon status`.",
    DAEMON_VERSION_MISMATCH: "Stop the other daemon (`phonewire daemon stop` from its installation, or kill the "
    "pid named here), then run the command again.",
}
#: A request was sent and no answer came: the daemon may have run it.
MAY_HAVE_RUN_HINT = (
    "The command may have run before the answer was lost: check with `phonewire snapshot` before repeating it."
)
#: Environment the client forwards per request (defaults for --device / --runner / --session).
FORWARDED_ENV = ("PHONEWIRE_DEVICE", "PHONEWIRE_RUNNER_ADDR", "PHONEWIRE_RUNNER_TOKEN", "PHONEWIRE_SESSION")
START_BUDGET_S = 20.0


class DaemonError(Exception):
    """A daemon code (see above) with its message and hint: the daemon could not be started or reached, refused
    the request, or answered something that is not a reply."""

    def __init__(self, code: str, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.hint = hint if hint is not None else DAEMON_HINTS[code]


def daemon_dir(environ: dict[str, str] | None = None) -> str:
    env = os.environ if environ is None else environ
    return env.get("PHONEWIRE_DAEMON_DIR") or user_runtime_dir(environ)


def ensure_private_dir(path: str) -> str:
    """Create ``path`` 0700 (parents as needed) and check nobody else owns or can enter it."""
    try:
        return make_private_dir(path)
    except NotPrivateError as exc:
        raise DaemonError(
            DAEMON_UNAVAILABLE,
            f"daemon directory {path} is not private to this user",
            "Remove it or set PHONEWIRE_DAEMON_DIR to a directory only you can enter (mode 0700).",
        ) from exc
    except OSError as exc:
        raise DaemonError(
            DAEMON_UNAVAILABLE,
            f"cannot use daemon directory {path}: {exc.strerror}",
            "Set PHONEWIRE_DAEMON_DIR to a directory you can create and own (it is made mode 0700).",
        ) from exc


def _connect(sock_path: str) -> _socket.socket | None:
    try:
        st = os.lstat(sock_path)
    except FileNotFoundError:
        return None
    except OSError:
        st = None
    if st is not None and st.st_uid != os.getuid():  # the token goes to this socket: never to another user's
        raise DaemonError(
            DAEMON_UNAVAILABLE,
            f"the daemon socket {sock_path} belongs to another user",
            "Remove it (and any daemon of another user serving it), or set PHONEWIRE_DAEMON_DIR to a directory "
            "only you can enter.",
        )
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.connect(sock_path)
    except (FileNotFoundError, ConnectionRefusedError):
        sock.close()
        return None
    except OSError as exc:
        sock.close()
        raise DaemonError(
            DAEMON_UNAVAILABLE,
            f"cannot reach the daemon at {sock_path}: {exc.strerror}",
            "Check that you own the daemon directory and its socket, then try again.",
        ) from exc
    return sock


def start_daemon(directory: str) -> int:
    """Start a detached daemon serving ``directory`` (in its own session); returns its pid.

    ``posix_spawn`` instead of ``subprocess``: no Popen object to outlive (and warn), and a cheaper start.  A
    daemon started while another one serves exits by itself."""
    log = os.path.join(directory, "daemon.log")
    argv = [sys.executable, "-m", "phonewire.frontends.cli.daemon", "--dir", directory]
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
        (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
        (os.POSIX_SPAWN_OPEN, 2, log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600),
    ]
    try:
        return os.posix_spawn(sys.executable, argv, dict(os.environ), file_actions=actions, setsid=True)
    except OSError as exc:
        raise DaemonError(
            DAEMON_UNAVAILABLE,
            f"cannot start the daemon: {exc.strerror}",
            f"Check that {sys.executable} can run, then try again.",
        ) from exc


#: Longest path a Unix socket can be bound to on Linux (``sun_path`` holds 108 bytes with the final NUL).
MAX_SOCKET_PATH = 107


def socket_path(directory: str) -> str:
    """``directory``'s ``daemon.sock``; DAEMON_UNAVAILABLE when that path is too long for a Unix socket (no daemon
    could ever serve it: refused before one is started, not after the start budget)."""
    path = os.path.join(directory, "daemon.sock")
    size = len(os.fsencode(path))
    if size > MAX_SOCKET_PATH:
        raise DaemonError(
            DAEMON_UNAVAILABLE,
            f"the daemon socket path {path} is {size} bytes; a Unix socket path holds at most {MAX_SOCKET_PATH}",
            "Set PHONEWIRE_DAEMON_DIR to a shorter directory of yours (e.g. under /tmp or $XDG_RUNTIME_DIR).",
        )
    return path


def connect(directory: str, *, start: bool = True) -> _socket.socket:
    """A connection to the daemon of ``directory``, starting one when none answers."""
    sock_path = socket_path(directory)
    sock = _connect(sock_path)
    if sock is not None or not start:
        if sock is None:
            raise DaemonError(DAEMON_NOT_RUNNING, "no daemon is running")
        return sock
    import time

    start_daemon(directory)
    deadline = time.monotonic() + START_BUDGET_S
    while time.monotonic() < deadline:
        time.sleep(0.02)
        sock = _connect(sock_path)
        if sock is not None:
            return sock
    raise DaemonError(
        DAEMON_UNAVAILABLE,
        f"the daemon did not start within {START_BUDGET_S:g} s",
        f"See {os.path.join(directory, 'daemon.log')} for its output.",
    )


# -- wire (pure) -----------------------------------------------------------------------------------------------


def encode_request(
    token: str,
    argv: list[str],
    cwd: str,
    env: dict[str, str],
    stdin: str | None,
    *,
    version: str = __version__,
    protocol: int = PROTOCOL_VERSION,
) -> bytes:
    fields = [WIRE_VERSION, version, str(protocol), token, cwd, str(len(env)), *(f"{k}={v}" for k, v in env.items())]
    fields += [str(len(argv)), *argv, "0" if stdin is None else "1"]
    body = "\0".join(fields).encode("utf-8", "surrogateescape")
    return body if stdin is None else body + b"\0" + stdin.encode("utf-8", "surrogateescape")


class Request:
    """A decoded request: the client's versions and its invocation."""

    __slots__ = ("argv", "cwd", "env", "protocol", "stdin", "token", "version")

    def __init__(
        self,
        *,
        version: str,
        protocol: str,
        token: str,
        argv: list[str],
        cwd: str,
        env: dict[str, str],
        stdin: str | None,
    ) -> None:
        self.version, self.protocol, self.token = version, protocol, token
        self.argv, self.cwd, self.env, self.stdin = argv, cwd, env, stdin


def decode_request(data: bytes) -> Request:
    """The request in ``data``; ``ValueError`` for anything malformed."""
    pos = 0

    def field() -> str:
        nonlocal pos
        if pos > len(data):
            raise ValueError("truncated request")
        end = data.find(b"\0", pos)
        end = len(data) if end < 0 else end
        text = data[pos:end].decode("utf-8", "surrogateescape")
        pos = end + 1
        return text

    if field() != WIRE_VERSION:
        raise ValueError("not a phonewire request")
    version, protocol, token, cwd = field(), field(), field(), field()
    env = dict(item.partition("=")[::2] for item in (field() for _ in range(int(field()))))
    argv = [field() for _ in range(int(field()))]
    has_stdin = field()
    if has_stdin not in ("0", "1"):
        raise ValueError("malformed request")
    stdin = data[pos:].decode("utf-8", "surrogateescape") if has_stdin == "1" else None
    return Request(version=version, protocol=protocol, token=token, argv=argv, cwd=cwd, env=env, stdin=stdin)


def _utf8(text: str) -> bytes:
    """``text`` as bytes: argv's undecodable bytes (surrogateescape) as they came; any other lone surrogate (a web
    page's text can hold one; no byte stands for it) as U+FFFD."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        import re  # off the warm path: only text with a lone surrogate gets here

        return re.sub("[\ud800-\udc7f\udd00-\udfff]", "\ufffd", text).encode("utf-8", "surrogateescape")


def encode_reply(code: int, stdout: str, stderr: str, *, daemon_code: str = "") -> bytes:
    out = _utf8(stdout)
    head = f"{WIRE_VERSION}\0{code}\0{daemon_code}\0{len(out)}\0".encode()
    return head + out + _utf8(stderr)


def decode_reply(data: bytes) -> tuple[int, str, str, str]:
    """``(exit, daemon code, stdout, stderr)``.  A reply in an older daemon's format (``exit NUL len NUL …``,
    no wire version) is DAEMON_VERSION_MISMATCH; ``ValueError`` for anything else that is not a reply."""
    magic, _, rest = data.partition(b"\0")
    if magic != WIRE_VERSION.encode():
        old_exit, _, old_rest = data.partition(b"\0")
        int(old_exit), int(old_rest.partition(b"\0")[0])  # ValueError unless it is an older daemon's reply
        return EXIT_DAEMON, DAEMON_VERSION_MISMATCH, "the daemon is an older phonewire version", ""
    code, _, rest = rest.partition(b"\0")
    daemon_code, _, rest = rest.partition(b"\0")
    size, _, rest = rest.partition(b"\0")
    n = int(size)
    if not 0 <= n <= len(rest):  # a negative length would slice from the end (the native client refuses it too)
        raise ValueError("truncated reply")
    text = rest[:n].decode("utf-8", "replace"), rest[n:].decode("utf-8", "replace")
    return int(code), daemon_code.decode("ascii", "replace"), *text


# -- one request -------------------------------------------------------------------------------------------------

#: How long a stale daemon gets to remove its socket after SIGTERM (it stops its runners after that).
STALE_STOP_BUDGET_S = 15.0


def _peer_pid(sock: _socket.socket, directory: str) -> int | None:
    """The pid of the daemon at the other end: the kernel's word (SO_PEERCRED) where there is one, else its pid
    file."""
    peercred = getattr(_socket, "SO_PEERCRED", None)
    if peercred is not None:
        try:
            return int.from_bytes(sock.getsockopt(_socket.SOL_SOCKET, peercred, 12)[:4], sys.byteorder) or None
        except OSError:
            pass
    try:
        with open(os.path.join(directory, "daemon.pid"), encoding="ascii") as fh:
            return int(fh.read().strip())
    except (OSError, ValueError):
        return None


def _exchange(
    directory: str, argv: list[str], start: bool, stdin: str | None
) -> tuple[tuple[int, str, str, str], int | None]:
    sock = connect(directory, start=start)
    try:
        pid = _peer_pid(sock, directory)
        try:
            with open(os.path.join(directory, "token"), encoding="ascii") as fh:
                token = fh.read().strip()
        except OSError as exc:
            raise DaemonError(
                DAEMON_UNAVAILABLE,
                f"cannot read the daemon token: {exc.strerror}",
                "A daemon may be starting or stopping: try again.",
            ) from exc
        env = {k: os.environ[k] for k in FORWARDED_ENV if k in os.environ}
        import time

        wait_s = client_timeout()
        if wait_s is not None:
            deadline = time.time() + wait_s
            env[DEADLINE_ENV] = f"{deadline:.3f}"
        try:
            sock.sendall(encode_request(token, argv, os.getcwd(), env, stdin))
            sock.shutdown(_socket.SHUT_WR)
            chunks = []
            while True:
                if wait_s is not None:
                    sock.settimeout(max(deadline - time.time(), 0.001))
                chunk = sock.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
        except TimeoutError:
            raise timed_out(wait_s or 0.0, argv, pid) from None
        except OSError as exc:
            raise lost_reply(directory, exc.strerror or str(exc)) from exc
    finally:
        sock.close()
    try:
        return decode_reply(b"".join(chunks)), pid
    except ValueError:
        raise lost_reply(directory, None) from None


def client_timeout(environ: dict[str, str] | None = None) -> float | None:
    """How long this client waits for an answer: ``PHONEWIRE_TIMEOUT`` seconds (0: for ever), else
    :data:`DEFAULT_TIMEOUT_S` times ``PHONEWIRE_TIME_SCALE``."""
    env = os.environ if environ is None else environ
    try:
        given = float(env.get("PHONEWIRE_TIMEOUT") or "nan")
        scale = float(env.get("PHONEWIRE_TIME_SCALE") or "1")
    except ValueError:
        given, scale = float("nan"), 1.0
    if 0 <= given < 1e9:  # a number in range (NaN compares false)
        return given or None
    return DEFAULT_TIMEOUT_S * (scale if 0 < scale < 1e6 else 1.0)


def timed_out(seconds: float, argv: list[str], pid: int | None) -> DaemonError:
    """No answer within the deadline: whether the command may have run, for an agent deciding to retry.  Also
    reported for the native client."""
    who = f"the daemon (pid {pid})" if pid else "the daemon"
    message = f"no answer from {who} within {seconds:g} s (PHONEWIRE_TIMEOUT)"
    try:
        from phonewire.frontends.cli import verbs as v

        inv = v.parse_argv(argv)
        op = v.VERBS[inv.verb].operation
        reads_only = op is not None and op.read_only
    except Exception:  # whatever the argv, the report is made
        reads_only = False
    if reads_only:
        hint = "It only reads the screen: nothing was changed. " + DAEMON_HINTS[DAEMON_TIMED_OUT]
    else:
        hint = (
            "It may have run if the daemon had started it in time; it will not start from now on (the daemon "
            "refuses work whose client has gone or whose deadline passed). Check with `phonewire snapshot` before "
            "repeating it. " + DAEMON_HINTS[DAEMON_TIMED_OUT]
        )
    return DaemonError(DAEMON_TIMED_OUT, message, hint)


def lost_reply(directory: str, strerror: str | None) -> DaemonError:
    """The request was sent and no usable answer came back (the connection failed with ``strerror``, or the
    daemon closed it without a reply): the command may have run.  Also reported for the native client."""
    if strerror is not None:
        return DaemonError(DAEMON_UNAVAILABLE, f"lost the connection to the daemon: {strerror}", MAY_HAVE_RUN_HINT)
    return DaemonError(
        DAEMON_UNAVAILABLE,
        "the daemon closed the connection without a reply",
        f"{MAY_HAVE_RUN_HINT} See {os.path.join(directory, 'daemon.log')} if it persists.",
    )


def _retire(directory: str, pid: int | None, why: str) -> None:
    """Stop the stale daemon ``pid`` and wait until its socket is gone (its lock, held until it has stopped its
    runners, keeps the fresh daemon from serving early)."""
    import signal
    import time

    if pid is None or pid == os.getpid():
        raise DaemonError(DAEMON_VERSION_MISMATCH, f"{why}, and its pid is unknown")
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    except OSError as exc:
        raise DaemonError(DAEMON_VERSION_MISMATCH, f"{why}; stopping it (pid {pid}) failed: {exc.strerror}") from exc
    sock_path = os.path.join(directory, "daemon.sock")
    deadline = time.monotonic() + STALE_STOP_BUDGET_S
    while os.path.exists(sock_path):
        if time.monotonic() > deadline:
            raise DaemonError(DAEMON_VERSION_MISMATCH, f"{why}; it (pid {pid}) did not stop")
        time.sleep(0.02)


def request(argv: list[str], *, start: bool = True, stdin: str | None = None) -> tuple[int, str, str]:
    """Send one invocation to the daemon; ``(exit code, stdout, stderr)`` of its answer.  A daemon of another
    version is replaced once (it ran nothing); any other refusal of the daemon's is a :class:`DaemonError`."""
    directory = ensure_private_dir(daemon_dir())
    (code, daemon_code, out, err), pid = _exchange(directory, argv, start, stdin)
    if daemon_code == DAEMON_VERSION_MISMATCH:
        _retire(directory, pid, out)
        (code, daemon_code, out, err), pid = _exchange(directory, argv, start, stdin)
    if daemon_code:
        raise DaemonError(daemon_code, out)
    return code, out, err
