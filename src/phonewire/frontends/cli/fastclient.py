"""The native thin client (``fastclient.c``): build it, install it as the ``phonewire`` command, report a lost reply.

The C client speaks the daemon wire of :mod:`phonewire.frontends.cli.client` for the warm path only and execs the
Python client for everything else (see the C file's header and docs/cli.md).  It is built with this installation's
``__version__`` and ``PROTOCOL_VERSION`` baked in, so a stale binary is a version mismatch to the daemon (and then
falls back to Python, which replaces the daemon)::

    python -m phonewire.frontends.cli.fastclient install [BIN_DIR]   # BIN_DIR/phonewire native, phonewire-py Python
    python -m phonewire.frontends.cli.fastclient build OUT [--fallback SCRIPT]
    python -m phonewire.frontends.cli.fastclient lost DIR STRERROR -- ARGV...   (used by the C client)
    python -m phonewire.frontends.cli.fastclient timedout SECONDS PID -- ARGV...   (used by the C client)

``install`` is idempotent: it keeps a binary built from the same source and versions, and after ``pip install``
regenerated ``phonewire`` as a Python script it moves that script to ``phonewire-py`` and builds again.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

from phonewire.versions import PROTOCOL_VERSION, __version__

SOURCE = Path(__file__).with_name("fastclient.c")
CFLAGS = ("-std=c99", "-O2", "-Wall", "-Wextra", "-Werror")
PYTHON_SCRIPT = "phonewire-py"
ELF_MAGIC = b"\x7fELF"


class BuildError(Exception):
    """No C compiler, or the compilation failed (the message says which)."""


def compiler() -> str | None:
    """``$CC``, else ``cc``, else ``gcc``, else ``clang``: the first one on PATH."""
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name and (found := shutil.which(name)):
            return found
    return None


def _c_string(text: str) -> str:
    if any(ch in text for ch in '"\\\n') or not text.isprintable():
        raise BuildError(f"cannot bake {text!r} into the native client")
    return f'"{text}"'


def defines(fallback: str, python: str = sys.executable) -> list[str]:
    return [
        f"-DPW_VERSION={_c_string(__version__)}",
        f"-DPW_PROTOCOL={_c_string(str(PROTOCOL_VERSION))}",
        f"-DPW_PYTHON={_c_string(python)}",
        f"-DPW_FALLBACK={_c_string(fallback)}",
    ]


def fingerprint(fallback: str) -> str:
    """What a built binary depends on: the source, the versions, the paths baked in."""
    digest = hashlib.sha256(SOURCE.read_bytes())
    digest.update("\0".join(defines(fallback)).encode())
    return digest.hexdigest()[:16]


def build(out: Path, *, fallback: str = "", cc: str | None = None) -> Path:
    """Compile the native client to ``out`` (atomically).  ``fallback``: the Python console script it execs for
    everything it does not do itself ("" runs ``python -P -m phonewire``)."""
    cc = cc or compiler()
    if cc is None:
        raise BuildError("no C compiler (cc, gcc or clang) on PATH")
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    cmd = [cc, *CFLAGS, *defines(fallback), "-o", str(tmp), str(SOURCE)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        tmp.unlink(missing_ok=True)
        raise BuildError(f"{Path(cc).name} failed: {(proc.stderr or proc.stdout).strip()[:2000]}")
    tmp.replace(out)
    return out


def _is_native(path: Path) -> bool:
    try:
        with path.open("rb") as fh:
            return fh.read(4) == ELF_MAGIC
    except OSError:
        return False


def install(bin_dir: Path) -> str:
    """Make ``bin_dir/phonewire`` the native client and keep pip's Python script as ``bin_dir/phonewire-py``.
    Returns what it did, in one line."""
    bin_dir = Path(os.path.abspath(bin_dir))  # baked into the binary: absolute  # noqa: PTH100
    command, script = bin_dir / "phonewire", bin_dir / PYTHON_SCRIPT
    if command.exists() and not _is_native(command):  # pip's script, new or regenerated: it becomes the fallback
        command.replace(script)
    if not script.exists():
        raise BuildError(f"no Python console script at {command} or {script}: run pip install first")
    stamp = bin_dir / ".phonewire-fastclient"
    want = fingerprint(str(script))
    if _is_native(command) and stamp.exists() and stamp.read_text().strip() == want:
        return f"native client up to date ({command})"
    try:
        build(command, fallback=str(script))
    except BuildError:
        if not command.exists():  # never leave the command missing: the Python script serves as before
            shutil.copy2(script, command)
        raise
    stamp.write_text(want + "\n")
    return f"native client installed as {command} (Python client: {script})"


def report_lost(directory: str, strerror: str, argv: list[str]) -> int:
    """The native client sent a request and got no usable answer: report it as the Python client does."""
    from phonewire.frontends.cli.client import lost_reply
    from phonewire.frontends.cli.main import report_daemon_error

    return report_daemon_error(lost_reply(directory, strerror or None), argv)


def report_timed_out(seconds: str, pid: str, argv: list[str]) -> int:
    """The native client's deadline passed with no answer: report it as the Python client does."""
    from phonewire.frontends.cli.client import timed_out
    from phonewire.frontends.cli.main import report_daemon_error

    try:
        wait_s = float(seconds)
    except ValueError:
        wait_s = 0.0
    return report_daemon_error(timed_out(wait_s, argv, int(pid) if pid.isdigit() else None), argv)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["lost"] and len(args) >= 4 and args[3] == "--":
        return report_lost(args[1], args[2], args[4:])
    if args[:1] == ["timedout"] and len(args) >= 4 and args[3] == "--":
        return report_timed_out(args[1], args[2], args[4:])
    try:
        if args[:1] == ["install"] and len(args) <= 2:
            bin_dir = Path(args[1]) if len(args) == 2 else Path(sys.executable).parent
            print(f"setup: {install(bin_dir)}", file=sys.stderr)
            return 0
        if args[:1] == ["build"] and len(args) in (2, 4) and (len(args) == 2 or args[2] == "--fallback"):
            build(Path(args[1]), fallback=args[3] if len(args) == 4 else "")
            return 0
    except BuildError as exc:
        print(f"setup: native client skipped ({exc}); `phonewire` stays the Python client", file=sys.stderr)
        return 1
    print(__doc__.split("::")[1].split("``install``")[0].rstrip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
