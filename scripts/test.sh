#!/usr/bin/env bash
# Install everything the tests need, then run the whole suite: ruff and mypy --strict alongside pytest, which runs on
# pytest-xdist workers. Arguments go to pytest (a quick subset: scripts/test.sh -m "not browser"); docs/testing.md.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
# Python keeps its compiled modules (an environment may have turned that off): the suite starts hundreds of processes
# that import the package (servers, cluster nodes, commands, workers), and compiling it anew each time costs each a
# quarter of a second of CPU, and each pytest process the rewriting of every module of the package.
unset PYTHONDONTWRITEBYTECODE
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
# The project and the test-only plugin game (a distribution of its own, found through its entry point:
# docs/writing-a-game.md), both editable, in one pip call. Editable installs follow the sources, so a second run skips
# pip (about 40 s of resolving) unless what pip reads changed: the two pyproject files or the Python.
stamp=".venv/.sefode-installed"
wanted="$({ cat pyproject.toml plugins/sefode-lances/pyproject.toml; .venv/bin/python -VV; } | sha256sum)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$wanted" ]; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[dev]' -e plugins/sefode-lances
  printf '%s' "$wanted" >"$stamp"
fi
bash scripts/services.sh
bash scripts/test-setup.sh

# ruff and mypy need no service and most of the suite waits on sockets and pages: they run while pytest does, and
# what they say is printed once pytest is done. (Each records its own exit status: ``set -e`` holds in the subshells
# too, so a bare ``cmd; echo $?`` would never write a failing one.)
checks=$(mktemp -d)
trap 'rm -rf "$checks"' EXIT
(rc=0; .venv/bin/ruff check . >"$checks/ruff.out" 2>&1 || rc=$?; echo "$rc" >"$checks/ruff.rc") &
(rc=0; .venv/bin/mypy >"$checks/mypy.out" 2>&1 || rc=$?; echo "$rc" >"$checks/mypy.rc") &

# Four workers on two cores: most of a browser or server test is waiting for the other side, not computing.
WORKERS=${SEFODE_TEST_WORKERS:-4}
echo "== pytest (-n $WORKERS)"
set +e
.venv/bin/pytest -n "$WORKERS" --dist loadgroup --durations=25 "$@" 2>&1 | tee "$checks/pytest.out"
pytest_rc=${PIPESTATUS[0]}
wait
set -e
echo "== ruff"
cat "$checks/ruff.out"
echo "== mypy --strict"
cat "$checks/mypy.out"
ruff_rc=$(cat "$checks/ruff.rc")
mypy_rc=$(cat "$checks/mypy.rc")
# pytest's own closing line again, so that the run ends on it.
grep -E '([0-9]+ (passed|failed|errors?)|no tests ran).* in [0-9.]+s' "$checks/pytest.out" | tail -n 1 || true
if [ "$ruff_rc" != 0 ] || [ "$mypy_rc" != 0 ] || [ "$pytest_rc" != 0 ]; then
  echo "== failed: ruff $ruff_rc, mypy $mypy_rc, pytest $pytest_rc" >&2
  exit 1
fi
