#!/usr/bin/env bash
# Type-check src, tests and bench (pyproject's [tool.mypy]: strict), then each conftest.py in a run of its own: pytest
# loads every one as its own module, mypy would name all six `conftest` in one run.
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/mypy "$@"
for conftest in $(find tests -name conftest.py -not -path "*/node_modules/*" -not -path "*/pyenv/*" | sort); do
    out=$(.venv/bin/mypy "$@" "$conftest") || { echo "$out"; exit 1; }
done
echo "mypy: the conftest.py files, one run each: no issues"
