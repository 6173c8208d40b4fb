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

from sefode.analysis import analyse, analyse_decision, count_decisions, highlights
from sefode.bots.base import Seen
from sefode.bots.players import make_player
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


def test_the_coach_names_the_bid_and_the_costliest_mistakes(
    analysed: tuple[dict[str, Any], dict[str, Any], int],
) -> None:
    _, result, mistake = analysed
    decisions = result["decisions"]
    # Every bid of the seat is a headline decision, and nothing else is.
    assert all(d["headline"] == ("bid" in d["chosen"]) for d in decisions)
    # The coach names the deliberate bid (a headline decision), in the order of play.
    named = highlights(decisions)
    assert mistake in named and named == sorted(named)
    bids = [d["index"] for d in decisions if d["headline"]]
    assert set(bids) <= set(named)
    assert all(d["mistake"] for d in decisions if d["index"] in named and not d["headline"])


def test_highlights_keep_every_headline_and_the_costliest_mistakes_up_to_the_limit() -> None:
    def d(index: int, headline: bool = False, mistake: bool = False, loss: float = 0.0) -> dict[str, Any]:
        return {"index": index, "headline": headline, "mistake": mistake, "loss": loss}

    decisions = [
        d(1, headline=True),
        d(3, mistake=True, loss=0.2),
        d(5),
        d(7, mistake=True, loss=0.9),
        d(9, True, True, 1),
    ]
    assert highlights(decisions) == [1, 7, 9]  # both headline decisions, then the costliest mistake; in play order
    assert highlights(decisions, most=4) == [1, 3, 7, 9]
    assert highlights([d(2), d(4)]) == []  # nothing to say


def test_the_coach_takes_one_hand_only_and_names_kings_contract() -> None:
    game = get_game("king")
    state = game.new_match({}, 3)
    players = [make_player("normal", 20 + s) for s in range(4)]
    while game.awaiting(state):
        seat = min(game.awaiting(state))
        game.apply(state, seat, players[seat].choose(Seen(game, state, seat)))
    history = export(game, state)
    total = len(history["actions"])
    until = total // 3
    seat = next(e["seat"] for e in history["actions"][:until] if "contract" in e or "trump" in e)
    result = analyse(history, seat, think_ms=60_000, max_iterations=30, since=0, until=until)
    assert result["decisions"] and all(d["index"] < until for d in result["decisions"])
    headlines = [d for d in result["decisions"] if d["headline"]]
    assert headlines and all(("contract" in d["chosen"]) or ("trump" in d["chosen"]) for d in headlines)
    assert count_decisions(history, seat, 0, until) == len(result["decisions"])
