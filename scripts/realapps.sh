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

# pip_app NAME SPEC VENV FRESH CHECK...: SPEC (name==version) from the Python package index into
# tests/realapps/VENV — a fresh venv when FRESH is "fresh", else the one there (made if missing) — unless its stamp
# says it is there and CHECK (a command under the venv, with its arguments) runs.  A failed install is said, with
# pip's words, and leaves its tests to skip (CI fails them instead).
pip_app() {
    local name="$1" spec="$2" venv="$3" fresh="$4"
    local env="$ROOT/tests/realapps/$venv"
    shift 4
    local stamp="$env/.${spec//==/-}"
    if [ -f "$stamp" ] && "$env/$1" "${@:2}" >/dev/null 2>&1; then
        return 0
    fi
    echo "realapps: installing $name ${spec#*==} into tests/realapps/$venv" >&2
    local py="$ROOT/.venv/bin/python"
    [ -x "$py" ] || py=python3
    local log
    log=$(mktemp)
    local make=(-m venv "$env")
    [ "$fresh" = fresh ] && make=(-m venv --clear "$env")
    if ! { { [ "$fresh" != fresh ] && [ -x "$env/bin/python" ]; } || "$py" "${make[@]}"; } >"$log" 2>&1 ||
       ! "$env/bin/python" -m pip install -q --disable-pip-version-check "$spec" >>"$log" 2>&1; then
        grep -v "is ignored" "$log" >&2 || true
        rm -f "$log"
        echo "realapps: $name could not be installed; its tests will be skipped (CI fails them)" >&2
        return 0
    fi
    rm -f "$log"
    "$env/$1" "${@:2}" >/dev/null && touch "$stamp"
}

install_python_apps() {
    # Datasette starts tests/realapps/pyenv afresh; mkdocs-material (with the mkdocs it requires; the realapp fixture
    # builds a small site with it) and Dash (the fixture runs tests/realapps/apps/dash_cities.py) join it after.
    pip_app Datasette "datasette==$DATASETTE_VERSION" pyenv fresh bin/datasette --version
    pip_app mkdocs-material "mkdocs-material==$MKDOCS_MATERIAL_VERSION" pyenv keep bin/mkdocs --version
    pip_app Dash "dash==$DASH_VERSION" pyenv keep bin/python -c "import dash"
    # JupyterLab into a venv of its own (its many dependencies meet neither phonewire's nor Datasette's).  4.5 is the
    # last line whose menus answer a finger: from 4.6.0 Lumino's menus act on pointer events and a tap sends no
    # pointermove, so their items do nothing when tapped on every phone (jupyterlab/jupyterlab#19124); the web
    # phone shows the same, docs/realapps-findings-5.md says more.
    pip_app JupyterLab "jupyterlab==$JUPYTERLAB_VERSION" jupyenv fresh bin/jupyter-lab --version
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

install_python_apps
install_todomvc
