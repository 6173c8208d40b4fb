#!/usr/bin/env bash
# Install Se Fode and start the server on SQLite; the page is at http://127.0.0.1:8000
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e .
exec .venv/bin/sefode serve "$@"
