"""``phonewire`` console script.  Kept import-light: each verb imports only what it needs."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "runner":
        from phonewire.runner.main import main as runner_main

        return runner_main(args[1:])
    from phonewire.frontends.cli.main import main as cli_main

    return cli_main(args)


if __name__ == "__main__":
    sys.exit(main())
