#!/usr/bin/env bash
# The test command (README, .ci/run): set up, then lint, type-check and run the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/realapps.sh   # the real third-party apps of tests/realapps (a guarded npm ci; a no-op once installed)
bash scripts/grid.sh >/dev/null || true   # Java + the Selenium jar of the grid tests (guarded apt; cached by version)
.venv/bin/ruff check src tests bench
.venv/bin/ruff format --check src tests bench
.venv/bin/mypy
# Worker processes (pytest-xdist), whole files to one worker (pytest-xdist's loadfile: a module's
# fixtures — the Grid, each real app, a module's phone — start once); each worker has its own session runner and
# browser.  Arguments pass through after these flags: `-n 0` runs in one process; `pytest tests/x.py` alone runs
# without workers.
.venv/bin/python -m pytest -q -n 2 --dist loadfile "$@"
