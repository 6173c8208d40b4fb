"""Fodinha's seat standing (``Game.seat_status``) says what its view's ``alive`` and ``left`` said, which the shell
and ``Room.pause_voters`` used to read (issue 21): out of lives is ``out``, gone for good is ``left``."""

from __future__ import annotations

import random

from sefode.engine import SeatStatus, get_game


def expected(alive: bool, left: bool) -> SeatStatus:
    return SeatStatus.OUT if not alive else SeatStatus.LEFT if left else SeatStatus.PLAYING


def test_fodinha_seat_status_follows_lives_and_leaving() -> None:
    game = get_game("fodinha")
    seen: set[SeatStatus] = set()
    for seed in range(12):
        rng = random.Random(seed)
        state = game.new_match(game.validate_options({"players": rng.randint(3, 6)}), seed)
        leaver, steps = rng.randrange(game.seats(state)), 0
        while game.awaiting(state):
            view = game.view(state, None)
            status = game.seat_status(state)
            assert status == [expected(a, lf) for a, lf in zip(view["alive"], view["left"], strict=True)]
            seen.update(status)
            steps += 1
            if steps == 4 and status[leaver] is SeatStatus.PLAYING:
                game.forfeit(state, leaver)  # a player leaves for good; a bot plays the seat's turns
                continue
            seat = rng.choice(sorted(game.awaiting(state)))
            game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    assert seen == set(SeatStatus)


def test_trash_seat_status_reports_a_seat_out_of_the_match_as_out() -> None:
    """One Man's Trash: a seat whose hand ran out (not with a four-of-a-kind) is out of the match, not playing;
    a seat that left the table while still in is left; the others play on."""
    game = get_game("trash")
    seen: set[SeatStatus] = set()
    for seed in range(40):
        rng = random.Random(seed)
        state = game.new_match(game.validate_options({"players": rng.randint(3, 6)}), seed)
        leaver, steps = rng.randrange(game.seats(state)), 0
        while game.awaiting(state):
            view = game.view(state, None)
            status = game.seat_status(state)
            left = [s in game.stand_in_seats(state) for s in range(game.seats(state))]
            assert status == [expected(a, lf) for a, lf in zip(view["in"], left, strict=True)]
            for s in view["out"]:
                assert status[s] is SeatStatus.OUT
            seen.update(status)
            steps += 1
            if steps == 6 and status[leaver] is SeatStatus.PLAYING:
                game.forfeit(state, leaver)
                continue
            seat = rng.choice(sorted(game.awaiting(state)))
            game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        status = game.seat_status(state)
        for s in game.view(state, None)["out"]:
            assert status[s] is SeatStatus.OUT
        seen.update(status)
    assert SeatStatus.OUT in seen and SeatStatus.LEFT in seen
