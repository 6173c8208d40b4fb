"""Bots as programs in the arena (issue 15 §2): ``cmd:`` seats speak JSON lines; a broken program never stalls a match.

The starter bot plays every registered game through ``sefode simulate``; programs that crash, hang past their budget
or answer an illegal action lose those decisions to the default move, and the arena reports each fault.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import sefode.bots.program as program
from sefode.cli import main
from sefode.engine import game_names, get_game

ROOT = Path(__file__).resolve().parents[1]
RANDOM_BOT = f"cmd:{sys.executable} {ROOT / 'examples' / 'bots' / 'random_bot.py'} --stdio --seed 3"


def _simulate(capsys: pytest.CaptureFixture[str], game_name: str, seats: list[str], *extra: str) -> dict[str, object]:
    code = main(["simulate", "--game", game_name, "--seats", ",".join(seats), "--json", *extra])
    out = capsys.readouterr().out
    assert code == 0, out
    result: dict[str, object] = json.loads(out)
    return result


def _seats_for(game_name: str, first: str) -> list[str]:
    spec = get_game(game_name).spec
    return [first] + ["random"] * (spec.min_seats - 1)


@pytest.mark.parametrize("game_name", game_names())
def test_the_starter_bot_plays_every_game_as_a_program(capsys: pytest.CaptureFixture[str], game_name: str) -> None:
    result = _simulate(capsys, game_name, _seats_for(game_name, RANDOM_BOT), "--matches", "2", "--think-ms", "2000")
    seat = result["seats"][0]  # type: ignore[index]
    assert seat["player"] == RANDOM_BOT and seat["decisions"] > 0
    assert seat["faults"] == {}, seat  # every answer was legal, in time


CRASH = f"cmd:{sys.executable} -c 'import sys; sys.stdin.readline(); sys.exit(3)'"
HANG = f"cmd:{sys.executable} -c 'import time; time.sleep(600)'"
ANSWER = '{\\"action\\": {\\"nope\\": 1}}'
ILLEGAL = f"""cmd:{sys.executable} -c 'import sys; [print("{ANSWER}", flush=True) for _ in sys.stdin]'"""
GARBAGE = f"cmd:{sys.executable} -c 'import sys; [print(\"not json\", flush=True) for _ in sys.stdin]'"
MISSING = "cmd:/nonexistent/bot --stdio"


@pytest.mark.parametrize(
    ("command", "fault"),
    [(CRASH, "crash"), (HANG, "timeout"), (ILLEGAL, "illegal"), (GARBAGE, "illegal"), (MISSING, "crash")],
)
def test_a_broken_program_loses_each_decision_to_the_default_move_and_is_reported(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str, fault: str
) -> None:
    if fault == "timeout":
        # Only the hanging program is waited for to the end of its budget (and then to exit): the test shortens both.
        # The others answer, exit or fail to start at once, so their waits end on that event, and keep the defaults'
        # room for a slow interpreter start on a loaded machine (a late first answer would count as a timeout).
        monkeypatch.setattr(program, "STARTUP_GRACE_S", 0.1)
        monkeypatch.setattr(program, "RESTART_GRACE_S", 0.1)
        monkeypatch.setattr(program, "EXIT_WAIT_S", 0.1)
    result = _simulate(
        capsys, "lances", [command, "random"], "--matches", "2", "--think-ms", "50", "--rotation", "none"
    )
    seat = result["seats"][0]  # type: ignore[index]
    assert result["matches"] == 2
    # Every decision of the broken seat was lost, to the same cause; the match still ended.
    assert seat["faults"] == {fault: seat["decisions"]}, seat
    assert seat["decisions"] == 2 * 3  # lances: 3 rounds, one sealed card each


def test_the_table_names_the_faults(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "--game", "lances", "--seats", f"{ILLEGAL},random", "--matches", "1"])
    out = capsys.readouterr().out
    assert code == 0
    assert "lost decisions to the default move: 3 illegal" in out


def test_a_program_sees_only_its_seat_and_the_legal_actions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The program's input: its seat's view (never the state), the legal actions with labels, then the end."""
    log = tmp_path / "in.jsonl"
    script = tmp_path / "echo_bot.py"
    script.write_text(
        "import json, sys\n"
        f"log = open({str(log)!r}, 'a')\n"
        "for line in sys.stdin:\n"
        "    log.write(line); log.flush()\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'decide':\n"
        "        print(json.dumps({'action': m['legal'][-1]['action']}), flush=True)\n"
    )
    _simulate(capsys, "fodinha", [f"cmd:{sys.executable} {script}", "random"], "--matches", "1", "--rotation", "none")
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    game = get_game("fodinha")
    seat_view = game.view(game.new_match({"players": 2}, 1), 0)
    decide = [m for m in lines if m["type"] == "decide"]
    assert decide and lines[-1]["type"] == "end" and len(lines[-1]["placements"]) == 2
    for m in decide:
        assert m["seat"] == 0 and m["game"] == "fodinha" and m["budget_ms"] == 200.0
        assert set(m["legal"][0]) == {"action", "label"} and set(m["legal"][0]["label"]) == {"key", "params", "text"}
        assert set(m) == {"type", "game", "seat", "decision", "budget_ms", "view", "legal"}
        assert set(m["view"]) == set(seat_view)  # a seat's view, as the server sends it; nothing of the state
