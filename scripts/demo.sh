#!/usr/bin/env bash
# The main job (README): set up, then run a short session on the demo app on the embedded web phone.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/python -m phonewire.demo "$@"
