"""``phonewire trace view DIR [-o FILE]``, ``trace export DIR --pytest FILE`` and ``… --maestro FILE``: offline
commands on a trace directory (no daemon, no device).  Exit codes as the other verbs: 0 ok, 2 usage, 3 the trace is
unreadable."""

from __future__ import annotations

import errno
import sys

from phonewire.protocol.errors import ProtocolError

USAGE = (
    "usage: phonewire trace view DIR [-o FILE] | phonewire trace export DIR --pytest FILE [--device SPEC] | "
    "phonewire trace export DIR --maestro FILE"
)


def _options(words: list[str], known: dict[str, str]) -> tuple[list[str], dict[str, str]]:
    positional: list[str] = []
    options: dict[str, str] = {}
    i = 0
    while i < len(words):
        word = words[i]
        name, eq, inline = word.partition("=")
        if name in known:
            if eq:
                options[known[name]] = inline
            elif i + 1 < len(words):
                options[known[name]] = words[i + 1]
                i += 1
            else:
                raise ValueError(f"{name} needs a value")
        elif word.startswith("-") and word != "-":
            raise ValueError(f"unknown option {word!r}")
        else:
            positional.append(word)
        i += 1
    return positional, options


def main(argv: list[str]) -> int:
    """``argv`` starts with ``view`` or ``export``."""
    what, rest = argv[0], argv[1:]
    try:
        if what == "view":
            words, options = _options(rest, {"-o": "output", "--output": "output"})
        else:
            words, options = _options(rest, {"--pytest": "pytest", "--device": "device", "--maestro": "maestro"})
            if ("pytest" in options) == ("maestro" in options):
                raise ValueError("export needs --pytest FILE or --maestro FILE (one of them)")
        if len(words) != 1:
            raise ValueError("give one trace directory")
    except ValueError as exc:
        sys.stderr.write(f"error INVALID_REQUEST: {exc}\nhint: {USAGE}\n")
        return 2
    try:
        if what == "view":
            from phonewire.frontends.cli.trace_view import write_report

            path = write_report(words[0], options.get("output"))
            sys.stdout.write(f"ok report {path.resolve()}\n")
        elif "maestro" in options:
            from phonewire.frontends.cli.trace_maestro import write_maestro

            path = write_maestro(words[0], options["maestro"])
            sys.stdout.write(f"ok maestro {path.resolve()}\n")
        else:
            from phonewire.frontends.cli.trace_export import write_pytest

            path = write_pytest(words[0], options["pytest"], device=options.get("device", "web"))
            sys.stdout.write(f"ok pytest {path.resolve()}\n")
    except ProtocolError as exc:
        sys.stderr.write(f"error {exc.code}: {exc.message}" + (f"\nhint: {exc.hint}" if exc.hint else "") + "\n")
        return 3
    except OSError as exc:
        why = "it is a symlink" if exc.errno == errno.ELOOP else exc.strerror or str(exc)
        sys.stderr.write(f"error INVALID_REQUEST: cannot write {exc.filename or 'the output'}: {why}\n"
                         "hint: name an output file of yours with -o FILE (or --pytest FILE)\n")  # fmt: skip
        return 3
    return 0
