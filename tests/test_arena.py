"""The arena behind ``sefode simulate``: seating (rotation, duplicate play), workers, statistics, JSON."""

from __future__ import annotations

import json

import pytest

from sefode.arena import bradley_terry, plan_matches, play_match, simulate, wilson_interval
from sefode.cli import main

OPTIONS = {"variant": "sefode", "players": 4}


def test_duplicate_play_replays_each_deal_with_the_seats_rotated() -> None:
    plans = plan_matches(4, 12, 9, "duplicate")
    for group in range(3):
        members = plans[4 * group : 4 * group + 4]
        assert {p.game_seed for p in members} == {9 + group}
        # Every entrant sits at every seat exactly once in the group.
        for entrant in range(4):
            assert sorted(p.seat_of[entrant] for p in members) == [0, 1, 2, 3]


def test_rotation_moves_every_entrant_through_every_seat_with_fresh_deals() -> None:
    plans = plan_matches(3, 6, 1, "rotate")
    assert len({p.game_seed for p in plans}) == 6
    for entrant in range(3):
        assert sorted(p.seat_of[entrant] for p in plans) == [0, 0, 1, 1, 2, 2]
    assert all(p.seat_of == (0, 1, 2) for p in plan_matches(3, 4, 1, "none"))


def test_rotation_keeps_partners_together_in_pairs() -> None:
    for plan in plan_matches(4, 8, 1, "duplicate"):
        assert plan.seat_of[0] % 2 == plan.seat_of[2] % 2
        assert plan.seat_of[1] % 2 == plan.seat_of[3] % 2


def test_duplicate_matches_of_a_group_start_from_the_same_deal() -> None:
    from sefode.engine import get_game

    game = get_game("fodinha")
    plans = plan_matches(4, 4, 3, "duplicate")
    first = [game.new_match(OPTIONS, p.game_seed) for p in plans]
    assert all(s.hands == first[0].hands and s.dealer == first[0].dealer for s in first)


def test_places_follow_the_entrant_to_its_seat() -> None:
    from sefode.bots.base import Seen
    from sefode.bots.players import make_player
    from sefode.engine import get_game

    kinds = ["normal", "easy", "random", "easy"]
    plan = plan_matches(4, 4, 5, "duplicate")[1]
    assert plan.seat_of == (1, 2, 3, 0)
    result = play_match("fodinha", OPTIONS, kinds, plan, 50.0)
    # The same match played by hand: entrant e's player sits at seat seat_of[e].
    game = get_game("fodinha")
    by_seat = [make_player("random", 0)] * 4
    for e, seat in enumerate(plan.seat_of):
        by_seat[seat] = make_player(kinds[e], plan.player_seeds[e], 50.0)
    state = game.new_match(OPTIONS, plan.game_seed)
    while game.awaiting(state):
        seat = min(game.awaiting(state))
        game.apply_fast(state, seat, by_seat[seat].choose(Seen(game, state, seat)))
    outcome = game.outcome(state)
    assert outcome is not None
    assert result.places == [outcome.placements[plan.seat_of[e]] for e in range(4)]
    assert all(len(times) > 0 for times in result.decision_s)


def test_simulate_counts_every_match_for_every_entrant() -> None:
    result = simulate("fodinha", OPTIONS, ["normal", "easy", "easy", "random"], 16, 2, rotation="duplicate")
    assert all(len(s.places) == 16 for s in result.seats)
    # At least one first place per match (shared places are possible).
    assert sum(s.wins for s in result.seats) >= 16
    kinds = result.kinds()
    assert set(kinds) == {"normal", "easy", "random"}
    assert kinds["easy"]["played"] == 32 and kinds["easy"]["entrants"] == 2
    assert kinds["normal"]["wins"] == result.seats[0].wins


def test_workers_do_not_change_the_results() -> None:
    seats = ["normal", "easy", "random", "easy"]
    one = simulate("fodinha", OPTIONS, seats, 8, 4, rotation="duplicate", workers=1)
    two = simulate("fodinha", OPTIONS, seats, 8, 4, rotation="duplicate", workers=2)
    assert [s.places for s in one.seats] == [s.places for s in two.seats]
    assert one.decisions == two.decisions and one.hands == two.hands


def test_wilson_interval_contains_the_share_and_narrows_with_more_matches() -> None:
    low, high = wilson_interval(40, 100)
    assert low < 0.4 < high
    low2, high2 = wilson_interval(400, 1000)
    assert low < low2 < 0.4 < high2 < high
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == pytest.approx(1.0)


def test_bradley_terry_rates_the_kind_that_places_higher_above() -> None:
    ratings = bradley_terry({("a", "b"): 30.0, ("b", "a"): 10.0, ("b", "c"): 30.0, ("c", "b"): 10.0}, ["a", "b", "c"])
    assert ratings["a"] > ratings["b"] > ratings["c"]
    assert sum(ratings.values()) / 3 == pytest.approx(1500.0)
    even = bradley_terry({("a", "b"): 10.0, ("b", "a"): 10.0}, ["a", "b"])
    assert even["a"] == pytest.approx(even["b"])


def test_simulate_command_reports_per_seat_and_per_kind_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            *("simulate", "--game", "fodinha", "--seats", "normal,easy,easy,hard", "--matches", "4", "--seed", "3"),
            *("--think-ms", "5"),
            *("--workers", "2", "--rotation", "duplicate", "--option", "lives=2", "--json"),
        ]
    )
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    for key in ("matches", "elapsed_s", "decisions", "hands", "seats", "kinds"):
        assert key in report
    assert report["matches"] == 4
    for seat in report["seats"]:
        for key in ("player", "wins", "mean_place", "decision_ms_p50", "decision_ms_p95", "win_share_ci95"):
            assert key in seat
    assert [s["player"] for s in report["seats"]] == ["normal", "easy", "easy", "hard"]
    assert set(report["kinds"]) == {"normal", "easy", "hard"}
    assert all("rating" in k for k in report["kinds"].values())


def test_simulate_command_prints_shares_with_intervals_and_ratings(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--game", "fodinha", "--seats", "normal,easy,easy,easy", "--matches", "8", "--seed", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "95% CI" in out and "rating" in out and "normal" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["--workers", "0"],
        ["--think-ms", "0"],
        ["--seats", "normal,expert,easy,easy"],
        ["--rotation", "sideways"],
    ],
)
def test_simulate_command_refuses_bad_arguments(argv: list[str]) -> None:
    try:
        code = main(["simulate", "--game", "fodinha", "--matches", "2", *argv])
    except SystemExit as exit_:  # argparse refuses a bad choice itself
        code = int(exit_.code or 0)
    assert code == 2


def test_the_arena_reports_mean_scores_and_no_winner_matches_for_any_game() -> None:
    """Outcome.scores, when numbers, give each entrant a mean score with an interval; Outcome.no_winner is counted."""
    from sefode.arena import plan_matches, play_match, simulate

    king = simulate("king", {}, ["normal", "easy", "easy", "easy"], 8, 1, rotation="duplicate")
    rows = [s.to_json() for s in king.seats]
    assert all(r["mean_score"] is not None and r["mean_score_ci95"] is not None for r in rows)
    assert abs(sum(s for seat in king.seats for s in seat.scores)) < 1e-6  # King is zero-sum, match by match
    kinds = ["easy"] * 3
    trash = simulate("trash", {"players": 3}, kinds, 12, 1, rotation="duplicate")
    again = [play_match("trash", {"players": 3}, kinds, plan, 200.0) for plan in plan_matches(3, 12, 1, "duplicate")]
    assert trash.no_winner == sum(r.no_winner for r in again)
    assert trash.to_json()["no_winner"] == trash.no_winner
    assert sum(s.wins for s in trash.seats) == 12 - trash.no_winner  # a match with a winner has exactly one
