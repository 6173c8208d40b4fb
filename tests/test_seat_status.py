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
