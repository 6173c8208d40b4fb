"""King's hand-written histories (``tests/histories/king/*.json``) replayed against their companions.

Each ``<name>.json`` is a ``sefode-history/1`` file written by hand; ``<name>.expect.json`` holds what its replay
must give: ``exit``, ``error`` (``null`` or its ``index`` and ``code``), ``over``, ``placements`` and, under
``hands``, one row per finished hand (``number``, ``dealer``, ``chooser``, ``contract``, ``trump``, ``points``,
``totals`` and ``tricks_count``, the number of tricks the hand lasted). The points were counted by hand from
the seed's table, not taken from a replay.
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
from sefode.history import export, replay, replay_file

HERE = Path(__file__).parent / "histories" / "king"
HISTORIES = sorted(p for p in HERE.glob("*.json") if not p.name.endswith(".expect.json"))
ROOT = Path(__file__).parent.parent
REPORT_KEYS = {"number", "dealer", "chooser", "contract", "trump", "tricks", "points", "totals"}

# Which rule each history shows (a good history plays it through; a bad one is refused at the rule).
COVERAGE: dict[str, list[str]] = {
    "every contract, scored by the seed's table": ["king_full_match_choice", "king_full_match_fixed"],
    "must follow suit": ["bad_king_follow_suit"],
    "Homens: discard a jack or king when void": ["king_full_match_choice", "bad_king_homens_must_discard"],
    "Homens: a jack or king under a higher card": ["bad_king_homens_jack_under"],
    "Mulheres: discard a queen when void": ["king_full_match_choice", "bad_king_mulheres_must_discard"],
    "Mulheres: a queen under the king or ace": ["bad_king_mulheres_queen_under"],
    "Copas: discard a heart when void": ["king_copas_ends_early", "bad_king_copas_must_discard_heart"],
    "King: the king of hearts first when void": ["bad_king_king_must_discard_kh", "bad_king_pool_contract_twice"],
    "Salada: any penalty card when void, J/Q/K under a higher card": [
        "king_full_match_choice",
        "bad_king_salada_must_discard",
        "bad_king_salada_under",
    ],
    "hearts lead (Copas, King, Salada, Bolola)": [
        "bad_king_copas_hearts_lead",
        "bad_king_king_hearts_lead",
        "bad_king_bolola_hearts_lead",
        "king_full_match_choice",
    ],
    "trump lead (Trunfo)": ["bad_king_trunfo_trump_lead", "king_full_match_fixed"],
    "void: must trump and over-trump": ["bad_king_trunfo_must_trump", "bad_king_trunfo_overtrump_void"],
    "trump led: go higher if able, else any trump": ["king_trunfo_overtrump", "bad_king_trunfo_overtrump_led"],
    "early end (Homens, Mulheres, Copas, King)": ["king_full_match_choice", "king_copas_ends_early"],
    "quotas: one Trunfo each, pool contracts once, 12 hands": [
        "bad_king_second_trunfo",
        "bad_king_pool_contract_twice",
        "bad_king_13th_hand",
    ],
    "fixed order": ["king_full_match_fixed", "bad_king_fixed_order_contract"],
    "dealer rotation and placements": ["king_full_match_choice", "king_full_match_fixed"],
    "options refused with a reason": ["bad_king_options", "bad_king_unknown_option"],
}


def _expect(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.with_name(path.stem + ".expect.json").read_text(encoding="utf-8"))
    return data


def _check(result: dict[str, Any], expect: dict[str, Any]) -> None:
    if expect["error"] is None:
        assert result["error"] is None, result["error"]
    else:
        assert result["error"] is not None
        assert result["error"]["index"] == expect["error"]["index"], result["error"]
        assert result["error"]["code"] == expect["error"]["code"], result["error"]
        assert isinstance(result["error"]["message"], str) and result["error"]["message"]
    assert result["over"] is expect["over"]
    assert result["placements"] == expect["placements"]
    assert len(result["hands"]) == len(expect["hands"])
    for got, wanted in zip(result["hands"], expect["hands"], strict=True):
        assert set(got) == REPORT_KEYS
        for trick in got["tricks"]:
            assert set(trick) == {"leader", "plays", "winner"}
        for key, value in wanted.items():
            if key == "tricks_count":
                assert len(got["tricks"]) == value, f"hand {got['number']}: {len(got['tricks'])} tricks"
            else:
                assert got[key] == value, f"hand {got['number']}, {key}: {got[key]!r} != {value!r}"


def test_every_king_history_has_an_expect_companion_and_every_rule_a_history() -> None:
    assert len(HISTORIES) >= 25
    names = {p.stem for p in HISTORIES}
    for path in HISTORIES:
        assert path.with_name(path.stem + ".expect.json").is_file(), path.name
    for rule, files in COVERAGE.items():
        for name in files:
            assert name in names, f"{rule}: {name}"
    for name in names:
        assert any(name in files for files in COVERAGE.values()), f"{name} covers no listed rule"


@pytest.mark.parametrize("path", HISTORIES, ids=lambda p: p.stem)
def test_king_history_replays_to_its_expected_output(path: Path) -> None:
    result = replay_file(path).result()
    _check(result, _expect(path))
    assert (result["error"] is not None) == (_expect(path)["exit"] == 2)


@pytest.mark.parametrize("name", ["king_full_match_choice", "bad_king_second_trunfo", "king_copas_ends_early"])
def test_sefode_replay_prints_the_king_report(name: str) -> None:
    path = HERE / f"{name}.json"
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
    _check(printed, expect)
    assert set(printed) == {"over", "placements", "error", "hands"}


def test_the_issue_example_shape_replays() -> None:
    history = json.loads((HERE / "king_full_match_choice.json").read_text(encoding="utf-8"))
    assert history["actions"][0] == {"seat": 1, "contract": "vazas"}
    assert history["actions"][1] == {"seat": 1, "play": "2c"}
    assert {"seat": 1, "trump": "c"} in history["actions"]


@pytest.mark.parametrize("order", ["choice", "fixed"])
def test_export_of_a_random_king_match_replays_to_the_same_report(order: str) -> None:
    game = get_game("king")
    for seed in range(3):
        state = game.new_match({"order": order}, seed)
        rng = random.Random(seed)
        while game.outcome(state) is None:
            (seat,) = game.awaiting(state)
            game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        history = json.loads(json.dumps(export(game, state)))
        assert history["game"] == "king" and history["options"] == {"order": order}
        again = replay(history).result()
        assert again["error"] is None and again["over"] is True
        outcome = game.outcome(state)
        assert outcome is not None and again["placements"] == list(outcome.placements)
        assert again["hands"] == game.report(state)["hands"]
