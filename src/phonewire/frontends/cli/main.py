"""``phonewire VERB …``: the thin client entry point.  Exits in one place, :func:`main`, with the code it returns.

Device verbs go to the daemon (:mod:`phonewire.frontends.cli.client`); ``bridge`` and ``mcp`` run in this process
(``runner`` is dispatched by ``phonewire.__main__``).  Imports stay at the standard library's cheapest modules
unless a cold path (help, bridge, mcp) needs more.
"""

from __future__ import annotations

import sys

from phonewire.frontends.cli.client import DAEMON_NOT_RUNNING, EXIT_DAEMON, DaemonError, request
from phonewire.frontends.cli.grammar import OFFLINE_TRACE, VALUE_OPTIONS

TYPE_CHECKING = False  # not typing's: keep the warm path free of the typing import
if TYPE_CHECKING:
    from typing import TextIO


def _verb_and_args(argv: list[str]) -> tuple[str | None, list[str], list[str]]:
    """The verb, the words after it, and ``--device``/``--runner``/``--trace`` given before it (the in-process
    servers take them as their own options)."""
    i = 0
    carried: list[str] = []
    while i < len(argv):
        word = argv[i]
        if word in VALUE_OPTIONS:
            if word != "--session":
                carried += argv[i : i + 2]
            i += 2
            continue
        if word.startswith("-") and not word.lstrip("-").replace(".", "", 1).isdigit():
            i += 1
            continue
        return word, argv[i + 1 :], carried
    return None, [], carried


def _write(stream: TextIO, text: str) -> None:
    if text:
        stream.write(text if text.endswith("\n") else text + "\n")


def main(argv: list[str] | None = None, *, exit_when_done: bool = False) -> int:
    """Run one invocation; its exit code.  ``exit_when_done``: this process only runs this invocation, so once the
    daemon's answer is written the process exits at once (:func:`_exit_now`)."""
    args = sys.argv[1:] if argv is None else list(argv)
    if args[:1] in (["--version"], ["-V"], ["version"]):
        from phonewire.versions import __version__

        _write(sys.stdout, f"phonewire {__version__}")
        return 0
    verb, rest, carried = _verb_and_args(args)
    if verb == "bridge":
        from phonewire.frontends.bridge.server import main as bridge_main

        return int(bridge_main(rest + carried) or 0)
    if verb == "webdriver":
        from phonewire.frontends.webdriver.server import main as webdriver_main

        return int(webdriver_main(rest) or 0)
    if verb == "mcp":
        from phonewire.frontends.mcp_server import main as mcp_main

        return int(mcp_main(rest + carried) or 0)
    if verb == "trace" and rest[:1] and rest[0] in OFFLINE_TRACE:  # offline: no daemon, no device
        from phonewire.frontends.cli.trace_files import main as trace_main

        return trace_main(rest)
    if verb is None or verb == "help" or "-h" in args or "--help" in args:
        from phonewire.frontends.cli.verbs import usage_text, verb_help

        asked = rest if verb == "help" else [verb, *rest] if verb is not None else []
        _write(sys.stdout if verb is not None or args else sys.stderr, verb_help(asked) or usage_text())
        return 0 if (verb == "help" or "-h" in args or "--help" in args) else 2
    stdin = None
    if verb == "batch":
        files = [w for w in rest if not w.startswith("--")]
        if not files or files[0] == "-":
            stdin = sys.stdin.read()
    try:
        code, out, err = request(args, start=not (verb == "daemon" and rest[:1] in (["stop"], ["status"])), stdin=stdin)
    except KeyboardInterrupt:
        return report_interrupted()
    except DaemonError as exc:
        if exc.code == DAEMON_NOT_RUNNING:  # asked only by `daemon stop` / `daemon status`
            as_json = "--json" in args
            _write(sys.stdout, '{"ok":true,"data":{"running":false}}' if as_json else "ok no daemon running")
            return 0
        return report_daemon_error(exc, args)
    failure: Exception | None = None
    try:
        _write(sys.stdout, out)
    except (OSError, ValueError, AttributeError) as exc:  # closed or full (sys.stdout is None when fd 1 was closed)
        failure = exc
    try:
        _write(sys.stderr, err)  # written either way, as the native client does
    except (OSError, ValueError, AttributeError):
        return EXIT_OUTPUT_FAILED  # nowhere to say so
    if failure is None and sys.stdout is not None:
        try:
            sys.stdout.flush()
        except (OSError, ValueError) as exc:
            failure = exc
    if failure is not None:
        return report_output_failure(failure)
    if exit_when_done:
        _exit_now(code)
    return code


#: The answer came but could not be written to stdout (closed, full): the command ran.  The native client writes
#: the same words (fastclient.c's OUTPUT_FAILED_HINT).
EXIT_OUTPUT_FAILED = 120
OUTPUT_FAILED = "OUTPUT_FAILED"
OUTPUT_FAILED_HINT = (
    "The command ran, but its answer was lost: stdout was closed or full. Check with `phonewire snapshot` before "
    "repeating it."
)


#: Ctrl-C (SIGINT) while the daemon works on the command: the daemon may finish it.  fastclient.c writes the same.
EXIT_INTERRUPTED = 130
INTERRUPTED = "INTERRUPTED"
INTERRUPTED_HINT = (
    "The daemon may still run the command or have run it: check with `phonewire snapshot` before repeating it."
)


def report_interrupted() -> int:
    """One error line and its hint on stderr, never a KeyboardInterrupt traceback; :data:`EXIT_INTERRUPTED`."""
    try:
        sys.stderr.write(f"error {INTERRUPTED}: interrupted before the answer came\nhint: {INTERRUPTED_HINT}\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass
    return EXIT_INTERRUPTED


def report_output_failure(exc: Exception) -> int:
    """One error line and its hint on stderr (never a traceback); stdout is pointed at /dev/null so that the
    interpreter's own final flush cannot fail again.  The exit code: :data:`EXIT_OUTPUT_FAILED`."""
    import errno
    import os

    why = exc.strerror if isinstance(exc, OSError) and exc.strerror else os.strerror(errno.EBADF)  # no stdout at all
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)
    except OSError:
        pass
    try:
        sys.stderr.write(
            f"error {OUTPUT_FAILED}: cannot write the answer to stdout: {why}\nhint: {OUTPUT_FAILED_HINT}\n"
        )
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass
    return EXIT_OUTPUT_FAILED


def report_daemon_error(exc: DaemonError, args: list[str]) -> int:
    """Write a daemon code's error as the CLI does (JSON on stdout under ``--json``); the exit code."""
    if "--json" in args:
        import json

        error = {"code": exc.code, "message": exc.message, "hint": exc.hint}
        _write(sys.stdout, json.dumps({"ok": False, "error": error}, ensure_ascii=False))
    else:
        _write(sys.stderr, f"error {exc.code}: {exc.message}" + (f"\nhint: {exc.hint}" if exc.hint else ""))
    return EXIT_DAEMON


def _exit_now(code: int) -> None:
    """End the process without the interpreter's shutdown (module teardown, a final garbage collection): 2-4 ms of
    a warm command that has nothing to finalize (the thin client's one socket is closed, no thread, no atexit
    work).  Output is flushed first; if that fails (a closed pipe) the normal exit reports it."""
    import os

    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    os._exit(code)
