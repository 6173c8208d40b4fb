"""Move analysis of a finished match (issue 15 §3): a deliberate mistake is marked, judged without hindsight.

The match is played by normal bots, except one decision of seat 0 made on purpose: in hand 2 (two cards) seat 0 holds
the two weakest cards (5d, 4d) and bids as many tricks as it may. The analysis must mark that bid, prefer a lower one,
and judge every decision from seat 0's information set only.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from sefode.analysis import analyse, analyse_decision
from sefode.bots.base import Seen, make_player
from sefode.cli import main
from sefode.engine import get_game
from sefode.history import export

OPTIONS = {"variant": "sefode", "players": 3, "lives": 3}
DEALS = [None, {"hands": [["5d", "4d"], ["4c", "7h"], ["As", "7d"]]}]


def _match_with_a_mistake() -> tuple[dict[str, Any], int]:
    """The history, and the index of the deliberate bid."""
    game = get_game("fodinha")
    state = game.new_match(OPTIONS, 5, {"dealer": 2, "deals": DEALS})
    players = [make_player("normal", 10 + s) for s in range(3)]
    mistake = -1
    while game.awaiting(state):
        seat = min(game.awaiting(state))
        view = game.view(state, seat)
        legal = game.legal_actions(state, seat)
        if seat == 0 and view["hand_number"] == 2 and view["phase"] == "bidding":
            action = max(legal, key=lambda a: game.action_json(state, a)["bid"])
            mistake = len(game.history_actions(state))
        else:
            action = players[seat].choose(Seen(game, state, seat))
        game.apply(state, seat, action)
    assert mistake >= 0
    history = export(game, state)
    history["deals"] = DEALS  # the preset deal is part of the setup (an export names only the first dealer)
    return history, mistake


@pytest.fixture(scope="module")
def analysed() -> tuple[dict[str, Any], dict[str, Any], int]:
    history, mistake = _match_with_a_mistake()
    return history, analyse(history, 0, think_ms=60_000, max_iterations=400, seed=2), mistake


def test_the_deliberate_mistake_is_marked_and_a_lower_bid_preferred(
    analysed: tuple[dict[str, Any], dict[str, Any], int],
) -> None:
    history, result, mistake = analysed
    assert history["actions"][mistake]["seat"] == 0
    by_index = {d["index"]: d for d in result["decisions"]}
    decision = by_index[mistake]
    assert decision["chosen"]["bid"] >= 1
    assert decision["mistake"] is True and decision["loss"] >= 0.15, decision
    assert decision["preferred"] == {"bid": 0}
    values = {o["action"]["bid"]: o for o in decision["options"]}
    assert values[0]["value"] > values[decision["chosen"]["bid"]]["value"]
    # Fodinha's own figures: the chance to make the bid, and the lives lost.
    assert values[0]["made_bid"] > 0.8 > values[decision["chosen"]["bid"]]["made_bid"]
    assert values[0]["lost"] < values[decision["chosen"]["bid"]]["lost"]


def test_the_marks_are_sensible(analysed: tuple[dict[str, Any], dict[str, Any], int]) -> None:
    """Seat 0 played as the normal bot elsewhere: most of its decisions are not mistakes."""
    _, result, mistake = analysed
    others = [d for d in result["decisions"] if d["index"] != mistake]
    assert len(others) >= 5
    assert sum(d["mistake"] for d in others) <= len(others) // 3, [d for d in others if d["mistake"]]
    assert result["mistakes"] == sum(d["mistake"] for d in result["decisions"])
    for d in result["decisions"]:
        assert d["chosen"] in [o["action"] for o in d["options"]]
        assert d["preferred"] in [o["action"] for o in d["options"]]
        assert set(d["chosen_label"]) == {"key", "params", "text"}


def test_no_hindsight_the_estimate_does_not_depend_on_the_hidden_cards() -> None:
    """The same decision with the other seats' cards dealt differently (seat 0's own hand unchanged) gets exactly the
    same analysis: the search sees seat 0's information set, nothing else."""
    game = get_game("fodinha")
    results = []
    for others in ([["4c", "7h"], ["As", "7d"]], [["5c", "6h"], ["Qs", "Jd"]]):
        deals = [None, {"hands": [["5d", "4d"], *others]}]
        state = game.new_match(OPTIONS, 5, {"dealer": 2, "deals": deals})
        while not (game.view(state, 0)["hand_number"] == 2 and 0 in game.awaiting(state)):
            seat = min(game.awaiting(state))
            legal = game.legal_actions(state, seat)
            if game.view(state, seat)["hand_number"] == 2:  # the others bid the same in both deals
                legal = [a for a in legal if game.action_json(state, a) == {"bid": 1}] or legal
            game.apply(state, seat, legal[0])
        entry = {"seat": 0, **game.action_json(state, game.legal_actions(state, 0)[-1])}
        results.append(analyse_decision(game, state, 0, entry, 60_000, random.Random(4), 200))
    assert results[0] == results[1]


def test_sefode_analyse_prints_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    history, mistake = _match_with_a_mistake()
    path = tmp_path / "match.json"
    path.write_text(json.dumps(history))
    assert main(["analyse", str(path), "--seat", "0", "--think-ms", "5", "--quiet"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["format"] == "sefode-analysis/1" and result["seat"] == 0
    assert mistake in [d["index"] for d in result["decisions"]]
    assert main(["analyse", str(path), "--seat", "7", "--quiet"]) == 2
    assert "seat must be from 0 to 2" in capsys.readouterr().err
