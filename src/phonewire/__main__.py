"""``phonewire`` console script.  Kept import-light: each verb imports only what it needs."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "runner":
        from phonewire.lifeline import watch_parent

        watch_parent()  # a host that started this runner and died (even by SIGKILL) ends it
        spec = _runner_device(args[1:])
        if spec is not None:  # Chromium starts up while the runner's modules import
            from phonewire.devices.registry import prestart

            prestart(spec)
        from phonewire.runner.main import main as runner_main

        return runner_main(args[1:])
    from phonewire.frontends.cli.main import main as cli_main

    # A process of its own (the console script, ``python -m phonewire``): a verb the daemon ran leaves nothing to
    # finalize, and the process ends as soon as its output is out.
    return cli_main(args, exit_when_done=argv is None)


def _runner_device(argv: list[str]) -> str | None:
    """The runner's ``--device`` (default ``web``); ``None`` when it only prints help or its arguments are odd
    (the runner's own parser then says what is wrong, with no browser started for it)."""
    spec = "web"
    rest = iter(argv)
    for arg in rest:
        if arg == "--device":
            spec = next(rest, "")
        elif arg.startswith("--device="):
            spec = arg.partition("=")[2]
        else:
            return None
    return spec or None


if __name__ == "__main__":
    sys.exit(main())
