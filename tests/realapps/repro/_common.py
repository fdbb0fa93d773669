"""Shared set-up for the repro_*.py scripts (not collected by pytest: the names do not start with test_).

Each script expects the apps already served on loopback (see docs/realapps-findings-2.md, "Set-up"):
  DATASETTE_URL  default http://127.0.0.1:8731   (datasette serve db.sqlite, table `people`, 300 rows)
  TODOMVC_URL    default http://127.0.0.1:8732   (python3 -m http.server in node_modules/todomvc/examples)
"""

import os
import re
import time

DATASETTE = os.environ.get("DATASETTE_URL", "http://127.0.0.1:8731")
TODOMVC = os.environ.get("TODOMVC_URL", "http://127.0.0.1:8732")


def ref_of(view_text: str, pattern: str, nth: int = 0) -> str:
    """The @eN of the nth line of a snapshot text that matches the regex."""
    lines = [ln for ln in view_text.splitlines() if re.search(pattern, ln)]
    return lines[nth].split()[0]


class Timer:
    def __enter__(self):
        self.t = time.monotonic()
        return self

    def __exit__(self, *a):
        self.s = time.monotonic() - self.t


def verdict(ok: bool, what: str) -> None:
    print(("EXPECTED  " if ok else "FINDING   ") + what)
