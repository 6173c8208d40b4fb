"""Per-game heuristic policies (the easy and normal levels), looked up by game name.

A game that wants easy and normal bots registers a :class:`GamePolicies` (see
``sefode.bots.fodinha_heuristics``). A policy decides from a *determinized* state, that is a state in
which every card its seat cannot see was dealt again at random, so it cannot cheat even by mistake.
A game without policies gets legal random play at these levels.
"""

from __future__ import annotations

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
    return _POLICIES.get(game_name, _DEFAULT)
