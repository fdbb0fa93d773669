#!/usr/bin/env bash
# Installs and serves the two apps of docs/realapps-findings-4.md on loopback, under DIR (default
# /tmp/phonewire-round4): Streamlit on 8751, Gradio on 8752 (STREAMLIT_PORT, GRADIO_PORT move them; pass the
# matching *_URL to the repro scripts).  Each runs in its own process group; their pids go to DIR/*.pid (stop them
# with `kill -- -PID`, one by one).  Registries only: PyPI, both into one venv (~30 s, ~650 MB).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
DIR="${1:-/tmp/phonewire-round4}"
mkdir -p "$DIR" && cd "$DIR"
S_PORT="${STREAMLIT_PORT:-8751}" G_PORT="${GRADIO_PORT:-8752}"
[ -x venv/bin/streamlit ] || { python3 -m venv venv &&
    venv/bin/python -m pip install -q --disable-pip-version-check "streamlit==1.67.*" "gradio==6.31.*"; }

serve() {  # NAME CMD...: start in a new session (own process group), remember the pid
    local name=$1; shift
    setsid "$@" >"$DIR/$name.log" 2>&1 &
    echo $! >"$DIR/$name.pid"
}
export GRADIO_ANALYTICS_ENABLED=False STREAMLIT_BROWSER_GATHER_USAGE_STATS=false
serve streamlit venv/bin/streamlit run "$HERE/streamlit_orders.py" --server.port "$S_PORT" \
    --server.address 127.0.0.1 --server.headless true --global.developmentMode false
serve gradio venv/bin/python "$HERE/gradio_quotes.py" "$G_PORT"
for port in "$S_PORT" "$G_PORT"; do
    for _ in $(seq 1 120); do
        python3 -c "import socket,sys; socket.create_connection(('127.0.0.1', $port), 1)" 2>/dev/null && break
        sleep 0.5
    done
done
echo "round4: Streamlit http://127.0.0.1:$S_PORT/  Gradio http://127.0.0.1:$G_PORT/; pids in $DIR/*.pid"
