#!/usr/bin/env bash
# Installs the real third-party web apps the realapp tests drive (tests/realapps/): TodoMVC, Swagger UI
# (swagger-ui-dist, a static build) and Ionic (@ionic/core's dist bundle) from their npm packages, pinned by
# tests/realapps/node/package-lock.json (one `npm ci`, ~15 s, skipped while node_modules matches the lock), and
# Datasette (DATASETTE_VERSION), mkdocs-material (MKDOCS_MATERIAL_VERSION) and Dash (DASH_VERSION) from the Python package index into
# their own venv, tests/realapps/pyenv (their dependencies never meet phonewire's), and JupyterLab
# (JUPYTERLAB_VERSION) into another, tests/realapps/jupyenv.  Django comes with the `dev`
# extra.  Idempotent: a second run only checks.  Installs Debian's npm when it is missing; where an install fails it
# says so and leaves those tests to skip (CI fails them instead).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DATASETTE_VERSION=0.65.5
MKDOCS_MATERIAL_VERSION=9.8.2
JUPYTERLAB_VERSION=4.5.11
DASH_VERSION=4.4.1

install_datasette() {
    local env="$ROOT/tests/realapps/pyenv"
    local stamp="$env/.datasette-$DATASETTE_VERSION"
    if [ -f "$stamp" ] && [ -x "$env/bin/datasette" ]; then
        return 0
    fi
    echo "realapps: installing Datasette $DATASETTE_VERSION into tests/realapps/pyenv" >&2
    local py="$ROOT/.venv/bin/python"
    [ -x "$py" ] || py=python3
    local log
    log=$(mktemp)
    if ! { "$py" -m venv --clear "$env" &&
           "$env/bin/python" -m pip install -q --disable-pip-version-check "datasette==$DATASETTE_VERSION"; } \
           >"$log" 2>&1; then
        grep -v "is ignored" "$log" >&2 || true
        rm -f "$log"
        echo "realapps: Datasette could not be installed; the Datasette tests will be skipped (CI fails them)" >&2
        return 0
    fi
    rm -f "$log"
    "$env/bin/datasette" --version >/dev/null && touch "$stamp"
}

# mkdocs-material (MKDOCS_MATERIAL_VERSION, with the mkdocs it requires) into the same venv, after Datasette (whose
# install starts the venv afresh); the realapp fixture builds a small site with it.
install_mkdocs_material() {
    local env="$ROOT/tests/realapps/pyenv"
    local stamp="$env/.mkdocs-material-$MKDOCS_MATERIAL_VERSION"
    if [ -f "$stamp" ] && [ -x "$env/bin/mkdocs" ]; then
        return 0
    fi
    echo "realapps: installing mkdocs-material $MKDOCS_MATERIAL_VERSION into tests/realapps/pyenv" >&2
    [ -x "$env/bin/python" ] || "$ROOT/.venv/bin/python" -m venv "$env" || python3 -m venv "$env"
    if ! "$env/bin/python" -m pip install -q --disable-pip-version-check \
           "mkdocs-material==$MKDOCS_MATERIAL_VERSION" >/dev/null 2>&1; then
        echo "realapps: mkdocs-material could not be installed; its tests will be skipped (CI fails them)" >&2
        return 0
    fi
    "$env/bin/mkdocs" --version >/dev/null && touch "$stamp"
}

# JupyterLab (JUPYTERLAB_VERSION) into a venv of its own, tests/realapps/jupyenv (its many dependencies meet neither
# phonewire's nor Datasette's).  4.5 is the last line whose menus answer a finger: from 4.6.0 Lumino's menus act on
# pointer events and a tap sends no pointermove, so their items do nothing when tapped on every phone
# (jupyterlab/jupyterlab#19124); the web phone shows the same, docs/realapps-findings-5.md says more.
install_jupyterlab() {
    local env="$ROOT/tests/realapps/jupyenv"
    local stamp="$env/.jupyterlab-$JUPYTERLAB_VERSION"
    if [ -f "$stamp" ] && [ -x "$env/bin/jupyter-lab" ]; then
        return 0
    fi
    echo "realapps: installing JupyterLab $JUPYTERLAB_VERSION into tests/realapps/jupyenv" >&2
    local py="$ROOT/.venv/bin/python"
    [ -x "$py" ] || py=python3
    if ! { "$py" -m venv --clear "$env" &&
           "$env/bin/python" -m pip install -q --disable-pip-version-check "jupyterlab==$JUPYTERLAB_VERSION"; } \
           >/dev/null 2>&1; then
        echo "realapps: JupyterLab could not be installed; its tests will be skipped (CI fails them)" >&2
        return 0
    fi
    "$env/bin/jupyter-lab" --version >/dev/null && touch "$stamp"
}

# Dash (DASH_VERSION) into the same venv, after mkdocs-material; the realapp fixture runs tests/realapps/apps/dash_cities.py.
install_dash() {
    local env="$ROOT/tests/realapps/pyenv"
    local stamp="$env/.dash-$DASH_VERSION"
    if [ -f "$stamp" ] && "$env/bin/python" -c "import dash" >/dev/null 2>&1; then
        return 0
    fi
    echo "realapps: installing Dash $DASH_VERSION into tests/realapps/pyenv" >&2
    [ -x "$env/bin/python" ] || "$ROOT/.venv/bin/python" -m venv "$env" || python3 -m venv "$env"
    if ! "$env/bin/python" -m pip install -q --disable-pip-version-check "dash==$DASH_VERSION" >/dev/null 2>&1; then
        echo "realapps: Dash could not be installed; its tests will be skipped (CI fails them)" >&2
        return 0
    fi
    "$env/bin/python" -c "import dash" && touch "$stamp"
}

install_todomvc() {
    cd "$ROOT/tests/realapps/node"
    if ! command -v npm >/dev/null 2>&1; then
        echo "realapps: installing Debian's npm" >&2
        SUDO=""
        if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
        if ! { $SUDO apt-get update -qq &&
               DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq npm >/dev/null; }; then
            echo "realapps: npm could not be installed; the TodoMVC and Swagger UI tests will be skipped (CI fails them)" >&2
            return 0
        fi
    fi
    if [ -f node_modules/.package-lock.json ] && [ ! package-lock.json -nt node_modules/.package-lock.json ]; then
        return 0
    fi
    echo "realapps: installing TodoMVC, Swagger UI and Ionic into tests/realapps/node" >&2
    npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2
}

install_datasette
install_mkdocs_material
install_dash
install_todomvc
install_jupyterlab
