#!/usr/bin/env bash
# Installs what phonewire needs on a fresh Debian machine: Debian's chromium, a Python venv, the package.
# Idempotent: a second run only checks.  Used by scripts/demo.sh and scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v /usr/bin/chromium >/dev/null 2>&1; then
    echo "setup: installing Debian's chromium" >&2
    SUDO=""
    if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    echo "setup: creating .venv" >&2
    if ! "$PY" -m venv .venv 2>/dev/null; then
        SUDO=""
        if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
        $SUDO apt-get install -y -qq python3-venv >/dev/null
        "$PY" -m venv .venv
    fi
fi
stamp=.venv/.phonewire-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    echo "setup: installing phonewire and its dev tools into .venv" >&2
    log=$(mktemp)
    if ! { .venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip &&
           .venv/bin/python -m pip install -q --disable-pip-version-check -e '.[dev]'; } >"$log" 2>&1; then
        grep -v "is ignored" "$log" >&2 || true
        rm -f "$log"
        echo "setup: pip install failed" >&2
        exit 1
    fi
    rm -f "$log"
    .venv/bin/python -c "import phonewire" && touch "$stamp"
fi
