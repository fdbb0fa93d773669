#!/usr/bin/env bash
# Type-check (pyproject's [tool.mypy], strict): src and bench; then tests, strict less the error codes that the typed
# node still raises where test helpers build nodes as plain dicts (TESTS_OFF; each one taken off this list is a step
# towards tests as strict as src); then each conftest.py in a run of its own (pytest loads every one as its own
# module: mypy would name them all `conftest` in one run).
set -euo pipefail
cd "$(dirname "$0")/.."
TESTS_OFF=(--no-warn-unused-ignores --disable-error-code arg-type --disable-error-code return-value --disable-error-code assignment
           --disable-error-code list-item --disable-error-code dict-item)
.venv/bin/mypy "$@"
.venv/bin/mypy "${TESTS_OFF[@]}" "$@" tests
for conftest in $(find tests -name conftest.py -not -path "*/node_modules/*" -not -path "*/pyenv/*" -not -path "*/jupyenv/*" | sort); do
    out=$(.venv/bin/mypy "${TESTS_OFF[@]}" "$@" "$conftest") || { echo "$out"; exit 1; }
done
echo "mypy: the conftest.py files, one run each: no issues"
