"""The iOS tests reuse the host tests' runner helpers and fault proxy and the e2e CLI harness."""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[2]
for folder in ("host", "e2e", "devices/ios"):
    path = str(TESTS / folder)
    if path not in sys.path:
        sys.path.insert(0, path)
