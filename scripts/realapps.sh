#!/usr/bin/env bash
# Installs the real third-party web apps the realapp tests drive (tests/realapps/): TodoMVC from its npm package,
# pinned by tests/realapps/node/package-lock.json.  Django comes with the `dev` extra.  Idempotent: a second run
# only checks.  Installs Debian's npm when it is missing; where that fails it says so and leaves the TodoMVC
# tests to skip (CI fails them instead).
set -euo pipefail
cd "$(dirname "$0")/../tests/realapps/node"
if ! command -v npm >/dev/null 2>&1; then
    echo "realapps: installing Debian's npm" >&2
    SUDO=""
    if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
    if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq npm >/dev/null; }; then
        echo "realapps: npm could not be installed; the TodoMVC tests will be skipped (CI fails them)" >&2
        exit 0
    fi
fi
if [ -f node_modules/.package-lock.json ] && [ ! package-lock.json -nt node_modules/.package-lock.json ]; then
    exit 0
fi
echo "realapps: installing TodoMVC into tests/realapps/node" >&2
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2
