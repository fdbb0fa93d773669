"""Per-user runtime files: the private directory the daemon and the runner share, and the runner's token file.

One directory per user (``$XDG_RUNTIME_DIR/phonewire`` when that exists, else ``/tmp/phonewire-UID``), created
0700 and refused when it is a symlink, another user owns it, or others can enter it.  It holds::

    runner-PORT.token   the bearer token of the runner listening on 127.0.0.1:PORT (0600, created with
                        O_EXCL at mode 0600, never readable by others for an instant; removed at the
                        runner's shutdown)
    mcp-PORT.token      the bearer token of ``phonewire mcp --http`` on PORT when ``PHONEWIRE_MCP_TOKEN`` does not
                        give one (0600, the same way; removed when the server stops)

(the CLI daemon keeps its own files there too, unless ``PHONEWIRE_DAEMON_DIR`` moves them).

Imports only ``os`` and ``stat``: the CLI's thin client imports this module on every warm command.
"""

# Kept on os.path and without contextlib, like the thin client that imports it (import time on every warm command).
# ruff: noqa: PTH100, PTH101, PTH103, PTH108, PTH111, PTH112, PTH118, PTH120, SIM105
from __future__ import annotations

import os
import stat

#: The environment variable that carries a runner's bearer token (runner: the token to demand; host: to send).
TOKEN_ENV = "PHONEWIRE_RUNNER_TOKEN"
#: The environment variable that gives ``phonewire mcp --http`` its bearer token (else one is generated).
MCP_TOKEN_ENV = "PHONEWIRE_MCP_TOKEN"
#: Longest token accepted from the environment or a file (bytes).
MAX_TOKEN_LENGTH = 512


class NotPrivateError(OSError):
    """The runtime directory exists but is not private to this user (or is not a plain directory)."""


def user_runtime_dir(environ: dict[str, str] | None = None) -> str:
    """``$XDG_RUNTIME_DIR/phonewire`` when ``XDG_RUNTIME_DIR`` is a directory, else ``/tmp/phonewire-UID`` —
    unless that path exists and is not this user's private directory (another user may create it first, to
    deny service): then ``~/.cache/phonewire/runtime``.  Deterministic, so every process of the user agrees."""
    env = os.environ if environ is None else environ
    runtime = env.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isdir(runtime):
        return os.path.join(runtime, "phonewire")
    shared = f"/tmp/phonewire-{os.getuid()}"
    try:
        st = os.lstat(shared)
    except FileNotFoundError:
        return shared
    except OSError:
        st = None
    if st is not None and stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077:
        return shared
    home = env.get("HOME") or os.path.expanduser("~")
    return os.path.join(home, ".cache", "phonewire", "runtime")


def make_private_dir(path: str, *, narrow: bool = False) -> str:
    """Create ``path`` 0700 (parents as needed); ``OSError`` when it cannot be created, :class:`NotPrivateError`
    when it is a symlink, not a directory, owned by another user, or open to others.  ``narrow``: a directory of
    ours that is only too open (left by an older version) is narrowed to 0700 instead of refused."""
    os.makedirs(path, mode=0o700, exist_ok=True)
    st = os.lstat(path)
    if narrow and stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and st.st_mode & 0o077:
        os.chmod(path, 0o700)
        st = os.lstat(path)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        raise NotPrivateError(f"{path} is not a directory private to this user")
    return path


def open_private_output(path: str | os.PathLike[str]) -> int:
    """A file descriptor to write ``path`` (a screenshot, a report, an export) from the start: 0600, never through a
    symlink (someone else's ``/tmp/shot.png`` → your ``~/.bashrc``), never into another user's file (they could
    read what is written: ``PermissionError``).  Other ``OSError`` as ``os.open`` raises them."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        st = os.fstat(fd)
        if st.st_uid != os.geteuid() or not stat.S_ISREG(st.st_mode):
            import errno

            raise PermissionError(errno.EPERM, "it is another user's file or not a regular file", str(path))
        os.fchmod(fd, 0o600)
        os.ftruncate(fd, 0)
    except BaseException:
        os.close(fd)
        raise
    return fd


def write_private_output(path: str | os.PathLike[str], data: bytes, *, noun: str = "path") -> None:
    """Write ``data`` to ``path`` through :func:`open_private_output`; a refusal is ``INVALID_REQUEST`` with a hint
    (``noun``: how the front end names the argument, ``PATH`` on the CLI)."""
    try:
        fd = open_private_output(path)
    except OSError as exc:
        from phonewire.protocol import errors as e
        from phonewire.protocol.errors import ProtocolError

        if exc.errno in _NO_SPACE:
            raise ProtocolError(e.COMMAND_FAILED, f"cannot write {path}: {exc.strerror}", _no_space_hint(path)) from exc
        raise ProtocolError(
            e.INVALID_REQUEST, f"cannot write {path}: {exc.strerror or exc}",
            f"Pass a {noun} of your own that is not a symlink (e.g. under your home, not a name others could create "
            "in /tmp).",
        ) from exc  # fmt: skip
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
    except OSError as exc:  # a full disk (or quota): no 0-byte or cut file is left behind
        try:
            os.unlink(path)
        except OSError:
            pass
        from phonewire.protocol import errors as e
        from phonewire.protocol.errors import ProtocolError

        hint = _no_space_hint(path) if exc.errno in _NO_SPACE else "Name a path on a disk that can be written."
        message = f"cannot write {path}: {exc.strerror or exc}; nothing was kept"
        raise ProtocolError(e.COMMAND_FAILED, message, hint) from exc


#: ENOSPC and EDQUOT: the disk (or the user's quota) is full.
_NO_SPACE = (28, 122)


def _no_space_hint(path: str | os.PathLike[str]) -> str:
    """What to do when the disk holding ``path`` is full, with its free space when it can be read."""
    directory = os.path.dirname(os.path.abspath(path))
    try:
        st = os.statvfs(directory)
        free = f" ({st.f_bavail * st.f_frsize // (1024 * 1024)} MiB free)"
    except OSError:
        free = ""
    return f"The disk holding {directory} is full{free}: free some space, or name a path on another disk."


def runner_token_path(port: int, environ: dict[str, str] | None = None) -> str:
    return os.path.join(user_runtime_dir(environ), f"runner-{port}.token")


def mcp_token_path(port: int, environ: dict[str, str] | None = None) -> str:
    return os.path.join(user_runtime_dir(environ), f"mcp-{port}.token")


def valid_token(token: str) -> bool:
    """Printable ASCII without spaces (it travels in an HTTP header), 1..MAX_TOKEN_LENGTH characters."""
    return 0 < len(token) <= MAX_TOKEN_LENGTH and all("!" <= ch <= "~" for ch in token)


def write_token_file(path: str, token: str) -> None:
    """Write ``token`` to ``path`` (see :func:`write_private_file`)."""
    write_private_file(path, token + "\n")


def write_private_file(path: str, text: str) -> None:
    """Write ``text`` to ``path`` in a private directory, created 0600 with O_EXCL (a stale file of a process
    that died is replaced, never followed through a link)."""
    make_private_dir(os.path.dirname(path))
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags, 0o600)
    try:
        os.write(fd, text.encode("utf-8"))
    finally:
        os.close(fd)


def read_token_file(path: str) -> str | None:
    """The token in ``path``, or ``None`` when it is missing, unreadable (another user's) or malformed."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        raw = os.read(fd, MAX_TOKEN_LENGTH + 2)
    except OSError:
        return None
    finally:
        os.close(fd)
    token = raw.decode("ascii", errors="replace").strip()
    return token if valid_token(token) else None


def remove_token_file(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
