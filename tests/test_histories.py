"""Hand-written histories (``tests/histories/*.json``) replayed and checked against their companions.

Each ``<name>.json`` is a ``sefode-history/1`` file; ``<name>.expect.json`` holds what its replay must give:
``exit`` (0 or 2), ``error`` (``null`` or its ``index`` and ``code``), ``over``, ``placements`` and, under
``hands``, one entry per finished hand with the keys that matter for it (bids, tricks, won, score, out...).
The expectations live in a separate file because a history refuses unknown top-level keys.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sefode.engine import get_game
from sefode.games.fodinha.game import JOIN, LEAVE, SHOW
from sefode.history import export, replay, replay_file

HERE = Path(__file__).parent / "histories"
HISTORIES = sorted(p for p in HERE.glob("*.json") if not p.name.endswith(".expect.json"))
ROOT = Path(__file__).parent.parent

# Which rulings of docs/rulings.md §1 each good history covers; every row must be covered.
COVERAGE: dict[str, list[str]] = {
    "deck (1 deck, 2 decks with each copy its own card)": ["sefode_issue_example", "sefode_two_decks"],
    "common order": ["sefode_issue_example", "sefode_bolo_and_lead", "7letras_rules"],
    "manilhas (fixed; vira, suit order)": ["sefode_two_decks", "7letras_rules"],
    "vira (hidden in one-card rounds, face up otherwise)": ["7letras_rules", "7letras_join_show"],
    "cancellation (pairs / all equal / >3 equal with 2 decks)": ["sefode_two_decks", "7letras_rules"],
    "trick winner": ["sefode_issue_example", "7letras_rules"],
    "every card cancelled: bolo": ["sefode_bolo_and_lead", "7letras_rules"],
    "who leads after a fully cancelled trick": ["sefode_bolo_and_lead", "7letras_rules"],
    "pending bolo at hand end": ["sefode_bolo_and_lead", "7letras_rules"],
    "bids and the pé rule": ["sefode_bolo_and_lead", "sefode_pairs", "7letras_rules", "bad_pe_violation"],
    "one-card hand (mão na testa)": ["sefode_issue_example", "7letras_void"],
    "score": ["sefode_bolo_and_lead", "7letras_rules", "7letras_out_no_reset"],
    "hand sizes (reset in Se Fode, none in 7 Letras)": ["sefode_match_void_reset", "7letras_out_no_reset"],
    "dealer rotates over live seats": ["sefode_match_void_reset", "7letras_out_no_reset"],
    "teams (Se Fode Junto)": ["sefode_pairs"],
    "late arrival": ["7letras_join_show", "bad_sefode_join", "bad_7letras_join_mid_round"],
    "everyone would go out: voided hand": ["sefode_match_void_reset", "7letras_void"],
    "placement and ties (1, 2, 2, 4)": ["sefode_placement_ties", "sefode_match_void_reset", "sefode_leave"],
    "leaving on purpose": ["sefode_leave"],
    "show my hand": ["7letras_join_show"],
}


def _expect(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.with_name(path.stem + ".expect.json").read_text(encoding="utf-8"))
    return data


def _check(result: dict[str, Any], expect: dict[str, Any]) -> None:
    if expect["error"] is None:
        assert result["error"] is None, result["error"]
    else:
        assert result["error"] is not None
        assert result["error"]["index"] == expect["error"]["index"]
        assert result["error"]["code"] == expect["error"]["code"]
        assert isinstance(result["error"]["message"], str) and result["error"]["message"]
    assert result["over"] is expect["over"]
    assert result["placements"] == expect["placements"]
    if "hands" in expect:
        assert len(result["hands"]) == len(expect["hands"])
        for number, (got, wanted) in enumerate(zip(result["hands"], expect["hands"], strict=True), start=1):
            for key, value in wanted.items():
                assert got[key] == value, f"hand {number}, {key}: {got[key]!r} != {value!r}"


def test_every_history_has_an_expect_companion_and_no_companion_is_orphaned() -> None:
    assert len(HISTORIES) >= 20
    for path in HISTORIES:
        assert path.with_name(path.stem + ".expect.json").is_file(), path.name
    for companion in HERE.glob("*.expect.json"):
        assert companion.with_name(companion.name.replace(".expect.json", ".json")).is_file(), companion.name


def test_histories_cover_every_rulings_row() -> None:
    names = {p.stem for p in HISTORIES}
    for row, files in COVERAGE.items():
        assert files, row
        for name in files:
            assert name in names, f"{row}: {name}"


@pytest.mark.parametrize("path", HISTORIES, ids=lambda p: p.stem)
def test_history_replays_to_its_expected_output(path: Path) -> None:
    result = replay_file(path).result()
    _check(result, _expect(path))
    assert (result["error"] is not None) == (_expect(path)["exit"] == 2)


@pytest.mark.parametrize("path", HISTORIES, ids=lambda p: p.stem)
def test_sefode_replay_command_prints_one_json_object_and_exits_0_or_2(path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sefode", "replay", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    expect = _expect(path)
    assert done.returncode == expect["exit"], done.stderr
    printed = json.loads(done.stdout)
    assert isinstance(printed, dict)
    _check(printed, expect)
    # Same output as the in-process replay (the error message may name other registered games).
    here = replay_file(path).result()
    for result in (printed, here):
        if result["error"] is not None:
            del result["error"]["message"]
    assert printed == here


def test_replay_never_raises_on_garbage() -> None:
    garbage: list[object] = [
        None,
        [],
        "x",
        {"format": "sefode-history/0"},
        {"format": "sefode-history/1", "game": "fodinha"},
    ]
    for data in garbage:
        result = replay(data).result()
        assert result["error"] is not None and result["error"]["index"] is None
    bad_action = {
        "format": "sefode-history/1",
        "game": "fodinha",
        "options": {"variant": "sefode", "players": 2},
        "seed": 1,
        "actions": ["bid"],
    }
    assert replay(bad_action).result()["error"]["index"] == 0


# ---------------------------------------------------------------- export of random matches

_OPTIONS: list[dict[str, Any]] = [
    {"variant": "sefode", "players": 3},
    {"variant": "sefode", "players": 5, "decks": 2, "lives": 2},
    {"variant": "sefode", "players": 4, "teams": True, "lives": 2},
    {"variant": "sefode", "players": 6, "teams": True, "lives": 1},
    {"variant": "7letras", "players": 4},
    {"variant": "7letras", "players": 2},
]


def _random_match(options: dict[str, Any], seed: int, extras: bool) -> tuple[Any, Any]:
    """A finished match of random legal play; with ``extras``, some shows, a join and a leave."""
    game = get_game("fodinha")
    state = game.new_match(options, seed)
    rng = random.Random(seed)
    left = False
    while game.outcome(state) is None:
        (seat,) = game.awaiting(state)
        if extras:
            seven = options["variant"] == "7letras"
            if seven and state.phase == "bidding" and state.nbids == 0 and state.n < 6 and rng.random() < 0.1:
                game.apply(state, state.n, JOIN)
                continue
            if seven and state.size > 1 and not state.shown[seat] and rng.random() < 0.05:
                game.apply(state, seat, SHOW)
            if not left and rng.random() < 0.08:
                game.apply(state, seat, LEAVE)
                left = True
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    return game, state


@pytest.mark.parametrize("extras", [False, True])
@pytest.mark.parametrize("index", range(len(_OPTIONS)))
def test_export_of_a_finished_random_match_replays_to_the_same_placements(index: int, extras: bool) -> None:
    options = _OPTIONS[index]
    kinds: set[str] = set()
    for seed in range(3):
        game, state = _random_match(options, 100 * index + seed, extras)
        history = export(game, state)
        kinds.update(key for entry in history["actions"] for key in entry if key != "seat")
        assert history["format"] == "sefode-history/1" and history["seed"] == 100 * index + seed
        again = replay(json.loads(json.dumps(history))).result()
        assert again["error"] is None
        assert again["over"] is True
        assert again["placements"] == list(game.outcome(state).placements)
        assert again["hands"] == game.report(state)["hands"]
    if extras:
        assert "leave" in kinds
        if options["variant"] == "7letras":
            assert "show" in kinds
