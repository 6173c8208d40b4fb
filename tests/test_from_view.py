"""``Game.from_view`` (issue 15, ``sefode bot``): a state rebuilt from one seat's view gives that seat the same view
and the same legal actions, in every variant; what the seat cannot see is dealt again by ``resample``."""

from __future__ import annotations

import random

import pytest

from sefode.bots.base import Seen
from sefode.bots.players import make_player
from sefode.engine import get_game

GAME = get_game("fodinha")
VARIANTS = [
    {"players": 4},
    {"players": 4, "variant": "7letras"},
    {"players": 3, "decks": 2},
    {"players": 4, "teams": True},
    {"players": 5, "lives": 2},
]


@pytest.mark.parametrize("options", VARIANTS)
def test_the_rebuilt_state_shows_the_seat_the_same_view_and_legal_actions(options: dict[str, object]) -> None:
    for seed in range(6):
        state = GAME.new_match(options, seed)
        rng = random.Random(seed)
        while GAME.awaiting(state):
            seat = min(GAME.awaiting(state))
            view = GAME.view(state, seat)
            rebuilt = GAME.from_view(view, seat)
            again = GAME.view(rebuilt, seat)
            for key in view:
                if key != "last_hand":  # the finished hand it recalls: not rebuilt
                    assert again[key] == view[key], (key, seed)
            legal = sorted(str(GAME.action_json(state, a)) for a in GAME.legal_actions(state, seat))
            assert sorted(str(GAME.action_json(rebuilt, a)) for a in GAME.legal_actions(rebuilt, seat)) == legal
            GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))


def test_a_bot_decides_from_the_rebuilt_state_a_legal_action() -> None:
    state = GAME.new_match({"players": 4}, 3)
    hard = make_player("hard", 1, 10.0)
    for _ in range(40):
        if not GAME.awaiting(state):
            break
        seat = min(GAME.awaiting(state))
        rebuilt = GAME.from_view(GAME.view(state, seat), seat)
        chosen = GAME.action_json(rebuilt, hard.choose(Seen(GAME, rebuilt, seat)))
        GAME.apply(state, seat, GAME.parse_action(state, seat, chosen))  # legal in the real match
