#!/usr/bin/env bash
# Installs what phonewire needs on a fresh Debian machine: Debian's chromium and chromium-headless-shell, a Python
# venv, the package.  Idempotent: a second run only checks.  Used by scripts/demo.sh and scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v /usr/bin/chromium >/dev/null 2>&1; then
    echo "setup: installing Debian's chromium" >&2
    SUDO=""
    if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

# The web phone starts chromium-headless-shell when it is installed (half the CPU of a cold start) and the full
# chromium otherwise (docs/web.md): it is installed when root or a password-less sudo can, and may be missing.
if [ ! -x /usr/lib/chromium/chromium-headless-shell ] && command -v apt-get >/dev/null 2>&1; then
    SUDO=""
    if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo"; fi
    if [ "$(id -u)" = "0" ] || [ -n "$SUDO" ]; then
        echo "setup: installing Debian's chromium-headless-shell" >&2
        { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium-headless-shell; } \
            >/dev/null 2>&1 || echo "setup: chromium-headless-shell is not available; the web phone uses chromium" >&2
    else
        echo "setup: chromium-headless-shell is not installed (needs root or sudo); the web phone uses chromium" >&2
    fi
fi

# snapshot --ocr (and a sparse view) reads the screen's text with Debian's Tesseract and its English model
# (agent/seen.py): installed when root or a password-less sudo can; without it those snapshots say so.
if ! command -v tesseract >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    SUDO=""
    if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo"; fi
    if [ "$(id -u)" = "0" ] || [ -n "$SUDO" ]; then
        echo "setup: installing Debian's tesseract-ocr (the OCR of snapshot --ocr)" >&2
        { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq tesseract-ocr; } \
            >/dev/null 2>&1 || echo "setup: tesseract-ocr is not available; snapshot --ocr will say so" >&2
    else
        echo "setup: tesseract-ocr is not installed (needs root or sudo); snapshot --ocr will say so" >&2
    fi
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

# The native thin client (docs/cli.md): `phonewire` becomes a small C program that ships warm commands to the
# daemon itself and execs the Python client (kept as `phonewire-py`) for everything else.  Run after pip every
# time: pip regenerates `phonewire` as a Python script.  PHONEWIRE_NO_FAST_CLIENT=1 keeps the Python command.
if [ -n "${PHONEWIRE_NO_FAST_CLIENT:-}" ] && [ "${PHONEWIRE_NO_FAST_CLIENT}" != "0" ]; then
    if [ -f .venv/bin/phonewire-py ] && head -c 4 .venv/bin/phonewire | grep -q ELF; then
        mv -f .venv/bin/phonewire-py .venv/bin/phonewire
        rm -f .venv/bin/.phonewire-fastclient
    fi
else
    if ! command -v "${CC:-cc}" >/dev/null 2>&1 && ! command -v gcc >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
        SUDO=""
        if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo"; fi
        if [ "$(id -u)" = "0" ] || [ -n "$SUDO" ]; then
            echo "setup: installing Debian's gcc (for the native phonewire client)" >&2
            { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq gcc libc6-dev; } >/dev/null 2>&1 || true
        fi
    fi
    # prints one line: installed, up to date, or skipped (no compiler): `phonewire` then stays the Python client
    .venv/bin/python -m phonewire.frontends.cli.fastclient install .venv/bin || true
fi
