"""What a game tells the generic bots, handed over by the game itself (``Game.bot_knowledge``).

A :class:`BotKnowledge` holds a game's easy and normal policies (:class:`~sefode.bots.policies.GamePolicies`)
and its advice to the search (:class:`~sefode.bots.search.SearchHooks`). The bots ask the game they play
for it, through the engine interface: nothing is registered anywhere, no import fills a table, and the bots
import no game. A game that hands over nothing (``bot_knowledge`` returns None, the default) gets the
defaults: random legal play at the easy and normal levels, and the plain search at the hard level.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sefode.bots.policies import GamePolicies
from sefode.bots.search import SearchHooks
from sefode.engine import Game


@dataclass(frozen=True)
class BotKnowledge:
    """A game's knowledge for the three levels; either part may be left to its default."""

    policies: GamePolicies = field(default_factory=GamePolicies)
    """The easy and normal decisions, from a determinized state."""
    hooks: SearchHooks = field(default_factory=SearchHooks)
    """Horizon, rewards, rollout, shortcut, candidates, plausibility... for the hard level's search."""


DEFAULT_KNOWLEDGE = BotKnowledge()
"""What the bots know of a game that tells them nothing."""


def knowledge_of(game: Game[Any]) -> BotKnowledge:
    """The knowledge ``game`` hands the bots, or the defaults."""
    knowledge = game.bot_knowledge()
    return DEFAULT_KNOWLEDGE if knowledge is None else knowledge


def policies_for(game: Game[Any]) -> GamePolicies:
    """``game``'s easy and normal policies (random legal play if it has none)."""
    return knowledge_of(game).policies


def hooks_for(game: Game[Any]) -> SearchHooks:
    """``game``'s search hooks (the plain search if it has none)."""
    return knowledge_of(game).hooks
