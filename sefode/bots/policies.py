"""Per-game heuristic policies (the easy and normal levels).

A game that wants easy and normal bots hands over a :class:`GamePolicies` in its knowledge for the bots
(``Game.bot_knowledge``, a :class:`~sefode.bots.knowledge.BotKnowledge`; see ``sefode.games.fodinha.bots``).
A policy decides from a *determinized* state, that is a state in which every card its seat cannot see was
dealt again at random, so it cannot cheat even by mistake.
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
