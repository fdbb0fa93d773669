"""The CLI's thin client: find (or start) the daemon, ship argv over its Unix socket, print the answer.

This module is on every warm command's path, so it imports nothing the interpreter has not loaded already
except the C socket module (``_socket``: ``socket`` would pull in ``enum``/``selectors``, ``json`` would pull in
``re``; together ~8 ms of a ~25 ms command).  ``time`` is imported only to start a daemon.

Files, in the daemon directory (``PHONEWIRE_DAEMON_DIR``, else ``$XDG_RUNTIME_DIR/phonewire``, else
``/tmp/phonewire-UID``; created 0700 and refused when another user owns it or others can enter it)::

    daemon.sock   the Unix socket (0600)
    token         the secret a client must present (0600, rewritten by each daemon start)
    daemon.lock   held by the serving daemon (one daemon per directory)
    daemon.pid    its process id
    daemon.log    its stderr

Wire (one request per connection; NUL cannot occur in argv, paths or environment strings)::

    request   "pw1" NUL token NUL cwd NUL n NUL (NAME=VALUE NUL)*n  m NUL (arg NUL)*m  ("0" | "1" NUL stdin)
              then the client shuts down its sending side
    reply     exit NUL len(stdout) NUL stdout stderr          (lengths in bytes, UTF-8)
"""

# The client stays on os.path on purpose: pathlib costs import time on every warm command.
# ruff: noqa: PTH109, PTH118, PTH123
from __future__ import annotations

import _socket
import os
import sys

from phonewire.runtime import NotPrivateError, make_private_dir, user_runtime_dir

WIRE_VERSION = "pw1"

EXIT_DAEMON = 4
#: The error code of the client's own failures (no daemon could be started or reached).
DAEMON_UNAVAILABLE = "DAEMON_UNAVAILABLE"
#: A request was sent and no answer came: the daemon may have run it.
MAY_HAVE_RUN_HINT = (
    "The command may have run before the answer was lost: check with `phonewire snapshot` before repeating it."
)
#: Environment the client forwards per request (defaults for --device / --runner / --session).
FORWARDED_ENV = ("PHONEWIRE_DEVICE", "PHONEWIRE_RUNNER_ADDR", "PHONEWIRE_SESSION")
START_BUDGET_S = 20.0


class DaemonError(Exception):
    """The daemon could not be started or reached, or answered something that is not a reply."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


def daemon_dir(environ: dict[str, str] | None = None) -> str:
    env = os.environ if environ is None else environ
    return env.get("PHONEWIRE_DAEMON_DIR") or user_runtime_dir(environ)


def ensure_private_dir(path: str) -> str:
    """Create ``path`` 0700 (parents as needed) and check nobody else owns or can enter it."""
    try:
        return make_private_dir(path)
    except NotPrivateError as exc:
        raise DaemonError(
            f"daemon directory {path} is not private to this user",
            "Remove it or set PHONEWIRE_DAEMON_DIR to a directory only you can enter (mode 0700).",
        ) from exc
    except OSError as exc:
        raise DaemonError(
            f"cannot use daemon directory {path}: {exc.strerror}",
            "Set PHONEWIRE_DAEMON_DIR to a directory you can create and own (it is made mode 0700).",
        ) from exc


def _connect(sock_path: str) -> _socket.socket | None:
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.connect(sock_path)
    except (FileNotFoundError, ConnectionRefusedError):
        sock.close()
        return None
    except OSError as exc:
        sock.close()
        raise DaemonError(
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
            f"cannot start the daemon: {exc.strerror}", f"Check that {sys.executable} can run, then try again."
        ) from exc


def connect(directory: str, *, start: bool = True) -> _socket.socket:
    """A connection to the daemon of ``directory``, starting one when none answers."""
    sock_path = os.path.join(directory, "daemon.sock")
    sock = _connect(sock_path)
    if sock is not None or not start:
        if sock is None:
            raise DaemonError("no daemon is running", "Any device verb starts one (e.g. `phonewire apps`).")
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
        f"the daemon did not start within {START_BUDGET_S:g} s",
        f"See {os.path.join(directory, 'daemon.log')} for its output.",
    )


# -- wire (pure) -----------------------------------------------------------------------------------------------


def encode_request(token: str, argv: list[str], cwd: str, env: dict[str, str], stdin: str | None) -> bytes:
    fields = [WIRE_VERSION, token, cwd, str(len(env)), *(f"{k}={v}" for k, v in env.items()), str(len(argv)), *argv]
    fields.append("0" if stdin is None else "1")
    body = "\0".join(fields).encode("utf-8", "surrogateescape")
    return body if stdin is None else body + b"\0" + stdin.encode("utf-8", "surrogateescape")


def decode_request(data: bytes) -> tuple[str, list[str], str, dict[str, str], str | None]:
    """``(token, argv, cwd, env, stdin)``; ``ValueError`` for anything malformed."""
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
    token, cwd = field(), field()
    env = dict(item.partition("=")[::2] for item in (field() for _ in range(int(field()))))
    argv = [field() for _ in range(int(field()))]
    has_stdin = field()
    if has_stdin not in ("0", "1"):
        raise ValueError("malformed request")
    stdin = data[pos:].decode("utf-8", "surrogateescape") if has_stdin == "1" else None
    return token, argv, cwd, env, stdin


def encode_reply(code: int, stdout: str, stderr: str) -> bytes:
    out = stdout.encode("utf-8", "surrogateescape")
    return f"{code}\0{len(out)}\0".encode() + out + stderr.encode("utf-8", "surrogateescape")


def decode_reply(data: bytes) -> tuple[int, str, str]:
    code, _, rest = data.partition(b"\0")
    size, _, rest = rest.partition(b"\0")
    n = int(size)
    if n > len(rest):
        raise ValueError("truncated reply")
    return int(code), rest[:n].decode("utf-8", "replace"), rest[n:].decode("utf-8", "replace")


# -- one request -------------------------------------------------------------------------------------------------


def request(argv: list[str], *, start: bool = True, stdin: str | None = None) -> tuple[int, str, str]:
    """Send one invocation to the daemon; ``(exit code, stdout, stderr)`` of its answer."""
    directory = ensure_private_dir(daemon_dir())
    sock = connect(directory, start=start)
    try:
        try:
            with open(os.path.join(directory, "token"), encoding="ascii") as fh:
                token = fh.read().strip()
        except OSError as exc:
            raise DaemonError(
                f"cannot read the daemon token: {exc.strerror}", "A daemon may be starting or stopping: try again."
            ) from exc
        env = {k: os.environ[k] for k in FORWARDED_ENV if k in os.environ}
        try:
            sock.sendall(encode_request(token, argv, os.getcwd(), env, stdin))
            sock.shutdown(_socket.SHUT_WR)
            chunks = []
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
        except OSError as exc:
            raise DaemonError(f"lost the connection to the daemon: {exc.strerror}", MAY_HAVE_RUN_HINT) from exc
    finally:
        sock.close()
    try:
        return decode_reply(b"".join(chunks))
    except ValueError:
        raise DaemonError(
            "the daemon closed the connection without a reply",
            f"{MAY_HAVE_RUN_HINT} See {os.path.join(directory, 'daemon.log')} if it persists.",
        ) from None
