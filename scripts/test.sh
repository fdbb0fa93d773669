#!/usr/bin/env bash
# The test command (README, .ci/run): set up, then lint, type-check and run the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/realapps.sh   # the real third-party apps of tests/realapps (a guarded npm ci; a no-op once installed)
bash scripts/grid.sh >/dev/null || true   # Java + the Selenium jar of the grid tests (guarded apt; cached by version)
.venv/bin/ruff check src tests bench
.venv/bin/ruff format --check src tests bench
bash scripts/mypy.sh
bash scripts/check_js.sh   # node --check on every src/**/*.js (tests/test_house.py runs it too)
# pytest in three worker processes (pytest-xdist; the README says why three on 2 cores), each with its own session
# runner and browser; --dist loadfile gives each test file to one worker, so a module's fixtures (the Grid, each real
# app, a module's phone) start once.  The caller's arguments come last: `bash scripts/test.sh -n 0` runs in one
# process.  A bare `pytest tests/x.py` runs without workers (no -n in pyproject's addopts).
.venv/bin/python -m pytest -q -n 3 --dist loadfile "$@"
