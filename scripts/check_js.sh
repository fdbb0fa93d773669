#!/usr/bin/env bash
# The JS check of the test command: every page script under src/ must parse (`node --check`; node is a
# prerequisite of the real-app suite).  Prints the files that do not, and fails on the first.
set -euo pipefail
cd "$(dirname "$0")/.."
find src -name '*.js' -print0 | sort -z | xargs -0 -n1 node --check
