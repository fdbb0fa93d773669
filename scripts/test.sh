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
.venv/bin/python -m pytest -q "$@"
