"""Issue 24 item 8: every ``sefode`` command that reads a file meets a small corpus of hostile files (deep nesting,
a huge string, binary, not JSON, empty, missing) with one clear error line and exit 2, never a traceback
(docs/security.md, "Nothing a stranger sends breaks a table")."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
HUGE = 1_000_000

CORPUS: dict[str, Callable[[Path], object]] = {
    "nested": lambda p: p.write_text("[" * 100_000 + "]" * 100_000),
    "nested_in_an_object": lambda p: p.write_text('{"format": ' + "[" * 50_000 + "]" * 50_000 + "}"),
    "huge_string": lambda p: p.write_text(json.dumps({"format": "sefode-history/1", "game": "x" * HUGE})),
    "huge_option_name": lambda p: p.write_text(
        json.dumps({"format": "sefode-history/1", "game": "fodinha", "options": {"x" * HUGE: 1}, "seed": 1})
    ),
    "huge_seed_string": lambda p: p.write_text(
        json.dumps({"format": "sefode-history/1", "game": "fodinha", "options": {}, "seed": "x" * HUGE, "actions": []})
    ),
    "huge_string_not_json": lambda p: p.write_text("y" * HUGE),
    "binary": lambda p: p.write_bytes(bytes(range(256)) * 64),
    "not_json": lambda p: p.write_text("this is not JSON\n"),
    "not_an_object": lambda p: p.write_text("[1, 2, 3]"),
    "huge_integer": lambda p: p.write_text('{"format": ' + "9" * 50_000 + "}"),
    "empty": lambda p: p.write_bytes(b""),
    "missing": lambda p: None,
    "a_directory": lambda p: p.mkdir(),
}
COMMANDS: dict[str, list[str]] = {
    # command: its arguments after the file
    "replay": [],
    "analyse": ["--seat", "0", "--quiet"],
}


def _run(command: str, path: Path) -> subprocess.CompletedProcess[bytes]:
    args = [sys.executable, "-m", "sefode", command, str(path), *COMMANDS[command]]
    return subprocess.run(args, capture_output=True, cwd=REPO, timeout=120, check=False)


@pytest.mark.parametrize("hostile", sorted(CORPUS))
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_file_reading_command_meets_hostile_files_with_one_line_and_exit_2(
    tmp_path: Path, command: str, hostile: str
) -> None:
    path = tmp_path / f"{hostile}.json"
    CORPUS[hostile](path)
    proc = _run(command, path)
    output = (proc.stdout + proc.stderr).decode("utf-8")  # valid UTF-8, or this raises
    assert proc.returncode == 2, output[-2000:]
    assert "Traceback" not in output, output[-2000:]
    lines = output.strip().splitlines()
    assert len(lines) == 1, output[:2000]
    assert len(lines[0]) <= 1000, lines[0][:200]
