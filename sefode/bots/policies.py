"""Per-game heuristic policies (the easy and normal levels), looked up by game name.

A game that wants easy and normal bots registers a :class:`GamePolicies` (see
``sefode.games.fodinha.bots``). A policy decides from a *determinized* state, that is a state in
which every card its seat cannot see was dealt again at random, so it cannot cheat even by mistake.
A game without policies gets legal random play at these levels.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Sequence
from typing import Any

from sefode.engine import Action


class GamePolicies:
    """Easy and normal decisions for one game. The defaults play a random legal action."""

    def easy(self, state: Any, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        return rng.choice(list(legal))

    def normal(self, state: Any, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        return rng.choice(list(legal))


_POLICIES: dict[str, GamePolicies] = {}
_DEFAULT = GamePolicies()


def register_policies(game_name: str, policies: GamePolicies) -> None:
    _POLICIES[game_name] = policies


def policies_for(game_name: str) -> GamePolicies:
    if game_name not in _POLICIES:
        _load_game(game_name)
    return _POLICIES.get(game_name, _DEFAULT)


def _load_game(game_name: str) -> None:
    """Load the game's package, which registers its bots' knowledge (the generic bots import no game)."""
    from sefode.engine import EngineError, get_game

    with contextlib.suppress(EngineError):
        get_game(game_name)
