"""Issue 28: the README's first command, ``bash scripts/serve.sh`` (``sefode serve``), says once the server is up
which address to open and where the data lives: on stdout for the person who started it, and in the JSON log."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from ports import free_port
from server_helpers import WAIT_S, wait_ready

ROOT = Path(__file__).resolve().parents[2]


def test_serve_sh_runs_sefode_serve_with_its_arguments() -> None:
    script = (ROOT / "scripts" / "serve.sh").read_text(encoding="utf-8")
    assert script.rstrip().splitlines()[-1] == 'exec .venv/bin/sefode serve "$@"'


def test_sefode_serve_says_what_to_open_and_where_the_data_lives_once_ready(tmp_path: Path) -> None:
    database = tmp_path / "dados" / "sefode.sqlite3"
    database.parent.mkdir()
    port = free_port()
    log = tmp_path / "serve.log"
    read_end, write_end = os.pipe()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "SEFODE_READY_FD": str(write_end)}
    with log.open("ab") as err:
        proc = subprocess.Popen(
            [str(Path(sys.executable).parent / "sefode"), "serve", "--port", str(port)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=err,
            pass_fds=(write_end,),
        )
    os.close(write_end)
    try:
        wait_ready(proc, read_end, log)
        assert proc.stdout is not None
        first, second = proc.stdout.readline().decode(), proc.stdout.readline().decode()
        assert first == f"Se Fode is up: open http://127.0.0.1:{port}\n"
        assert second == f"The data lives in {database}\n"
    finally:
        proc.terminate()
        proc.wait(WAIT_S)
    events = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    listening = [e for e in events if e.get("event") == "server.listening"]
    assert listening and listening[0]["open"] == f"http://127.0.0.1:{port}"
    assert listening[0]["database"] == str(database)
