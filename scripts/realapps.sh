#!/usr/bin/env bash
# Installs the real third-party web apps the realapp tests drive (tests/realapps/): TodoMVC from its npm package,
# pinned by tests/realapps/node/package-lock.json.  Django comes with the `dev` extra.  Idempotent: a second run
# only checks.  Without npm it says so and leaves the TodoMVC tests to skip (CI fails them instead).
set -euo pipefail
cd "$(dirname "$0")/../tests/realapps/node"
if ! command -v npm >/dev/null 2>&1; then
    echo "realapps: npm not found; the TodoMVC tests will be skipped (install Debian's npm to run them)" >&2
    exit 0
fi
if [ -f node_modules/.package-lock.json ] && [ ! package-lock.json -nt node_modules/.package-lock.json ]; then
    exit 0
fi
echo "realapps: installing TodoMVC into tests/realapps/node" >&2
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2
