#!/usr/bin/env bash
# Install everything the tests need, then run the whole suite: ruff, mypy --strict, pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
# The test-only plugin game, a distribution of its own (docs/writing-a-game.md): found through its entry point.
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e plugins/sefode-lances
bash scripts/services.sh
if [ -f scripts/test-setup.sh ]; then
  bash scripts/test-setup.sh
fi
echo "== ruff"
.venv/bin/ruff check .
echo "== mypy --strict"
.venv/bin/mypy
echo "== pytest"
.venv/bin/pytest "$@"
