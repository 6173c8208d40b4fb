"""The platform's guard against endless matches (issue 26): a game whose play can cycle for ever (``cycling_game``)
finishes ``sefode simulate`` with every bot level, each match ended by the guard as the game's no-winner outcome, the
reason in the result and in the exported history; the search cuts its rollouts at the game's longest match."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from cycling_game import Cycle

from sefode.arena import MatchPlan, play_match
from sefode.bots.search import SearchHooks, ismcts
from sefode.cli import main
from sefode.engine import DEFAULT_MAX_DECISIONS, Game, guard_reason, register, unregister
from sefode.history import replay, replay_file

LEVELS = ["random", "easy", "normal", "hard"]


@pytest.fixture
def cycle() -> Iterator[Cycle]:
    game = Cycle()
    register(game)
    try:
        yield game
    finally:
        unregister(game.name)


def test_a_game_without_a_bound_gets_the_platforms_default() -> None:
    from sefode.engine import get_game

    game: Game[object] = get_game("lances")
    assert game.max_decisions(game.validate_options({})) == DEFAULT_MAX_DECISIONS


def test_the_guard_stops_a_match_at_the_games_longest_match(cycle: Cycle) -> None:
    state = cycle.new_match({"longest": 10}, 1)
    for n in range(10):
        assert guard_reason(cycle, state, n) is None
        seat = min(cycle.awaiting(state))
        cycle.apply(state, seat, cycle.legal_actions(state, seat)[0])
    reason = guard_reason(cycle, state, 10)
    assert reason is not None and "10" in reason
    outcome = cycle.unfinished_outcome(state)
    assert outcome.no_winner and outcome.placements == (2, 2)


def test_simulate_with_every_bot_level_finishes_and_reports_the_guard(
    cycle: Cycle, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        ["simulate", "--game", "cycle", "--seats", ",".join(LEVELS), "--matches", "4", "--think-ms", "2", "--json"]
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["matches"] == 4 and out["guarded"] == 4 and out["no_winner"] == 4
    assert "40 decisions" in out["guard_reason"]
    assert all(s["decisions"] > 0 for s in out["seats"])
    main(["simulate", "--game", "cycle", "--players", "2", "--matches", "2"])
    assert "stopped by the guard against endless play" in capsys.readouterr().out


def test_the_exported_history_of_a_guarded_match_says_why_and_replays_to_the_same_end(
    cycle: Cycle, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["simulate", "--game", "cycle", "--seats", "hard,easy", "--matches", "2", "--think-ms", "2",
                 "--export", str(tmp_path / "out")])  # fmt: skip
    assert code == 0
    assert "2 match histories written" in capsys.readouterr().out
    files = sorted((tmp_path / "out").iterdir())
    assert [f.name for f in files] == ["match-0001.json", "match-0002.json"]
    history = json.loads(files[0].read_text(encoding="utf-8"))
    assert history["format"] == "sefode-history/1" and len(history["actions"]) == 40
    assert history["result"]["no_winner"] is True and "40 decisions" in history["result"]["guard"]
    result = replay_file(files[0]).result()
    assert result["error"] is None and result["over"] is True and result["placements"] == [2, 2]
    assert "40 decisions" in result["guard"]


def test_a_played_out_history_has_no_guard(cycle: Cycle) -> None:
    result = play_match("cycle", {"endless": False, "longest": 10_000}, ["random", "random"],
                        MatchPlan(0, 3, (0, 1), (1, 2)), 2.0, with_history=True)  # fmt: skip
    assert result.guard is None and result.history is not None
    assert result.history["result"]["guard"] is None
    assert "guard" not in replay(result.history).result()


def test_the_search_cuts_its_rollouts_at_the_games_longest_match(cycle: Cycle) -> None:
    """Without the cut a rollout in the endless game never returns; with it the search answers, each simulation
    valued as even."""
    state = cycle.new_match({"longest": 30}, 1)
    legal = cycle.legal_actions(state, 0)
    action, counts = ismcts(cycle, lambda rng: cycle.clone(state), 0, legal, SearchHooks(), random.Random(1), 1e6, 50)
    assert action in legal and sum(counts.values()) == 50


def test_the_conformance_suite_fails_a_game_whose_matches_do_not_end_at_any_bot_level(cycle: Cycle) -> None:
    from sefode.testing.suite import unended_levels

    problems = unended_levels(cycle)
    assert sorted(problems) == sorted(LEVELS)
    assert all("did not end after 40 decisions" in p and "termination rule" in p for p in problems.values())
    assert unended_levels(cycle, {"endless": False, "longest": 10_000}) == {}
