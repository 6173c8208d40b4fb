"""The three bot levels: ``easy``, ``normal`` (per-game heuristics) and ``hard`` (ISMCTS).

Each decides from a :class:`~sefode.bots.base.Seen` only: the seat's legal actions and
determinizations of its information set. What they know of the game comes from the game itself, through
the engine interface: ``seen.game.bot_knowledge()`` (a :class:`~sefode.bots.knowledge.BotKnowledge`: the
policies of ``sefode.bots.policies`` and the hooks of ``sefode.bots.search``), which each game builds from
its own ``bots.py`` (``sefode.games.fodinha.bots``, say). Nothing is looked up by name.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from sefode.bots.base import Player, Seen
from sefode.bots.knowledge import knowledge_of, policies_for
from sefode.bots.policies import GamePolicies
from sefode.bots.search import SearchHooks, ismcts
from sefode.engine import Action, Game

HARD_DEFAULT_THINK_MS = 200.0
"""The default per-decision budget: p95 decision time stays well under 1 s on a 2-core machine."""


class PolicyRollouts(SearchHooks):
    """The search of a game that hands over its policies but no search hooks. Its simulations are played out by the
    game's normal policy (each rollout decision, with a chance ``explore`` of a random legal one instead), and inside
    the tree the other seats move as that policy would (``others_move``), so that the search answers the way the game
    is usually played rather than random play or an opponent that sees every card. Each modelled decision is made
    from a deal resampled from that seat's own view (``fair``), as a normal bot at the table decides: the policy never
    reads the searching seat's cards from the simulation."""

    def __init__(
        self,
        game: Game[Any],
        policies: GamePolicies,
        explore: float = 0.1,
        model_others: bool = True,
        fair: bool = True,
        trust: float = 1.5,
    ) -> None:
        self.game = game
        self.policies = policies
        self.explore = explore
        self.model_others = model_others
        self.fair = fair
        self.trust = trust

    def settle(
        self, seen: Seen, legal: Sequence[Action], searched: Action, visits: Mapping[Action, int], rng: random.Random
    ) -> Action:
        """The search's choice, or the normal policy's own move where the search did not show clearly better: the
        searched action must have had ``trust`` times the visits of the policy's move (UCB1 gives the better action
        the more visits) and the search at least ``trust`` simulations per legal action. A search with few
        simulations (a long game, a short budget) so plays no worse than the policy it models."""
        if self.trust <= 0:
            return searched
        base = self.policies.normal(seen.determinize(rng), seen.seat, legal, rng)
        if searched == base:
            return searched
        enough = sum(visits.values()) >= self.trust * len(legal)
        return searched if enough and visits.get(searched, 0) >= self.trust * visits.get(base, 0) else base

    def rollout(self, state: Any, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        if rng.random() < self.explore:
            return rng.choice(list(legal))
        return self.policies.normal(state, seat, legal, rng)

    def others_move(self, state: Any, seat: int, legal: Sequence[Action], rng: random.Random) -> Action | None:
        if not self.model_others:
            return None
        if len(legal) == 1:
            return legal[0]
        seen = self.game.resample(state, seat, rng) if self.fair else state
        return self.policies.normal(seen, seat, legal, rng)


def generic_hooks(game: Game[Any]) -> SearchHooks:
    """The hooks the hard level searches ``game`` with: the game's own, or :func:`policy_search` for a game that hands
    over no search hooks."""
    hooks = knowledge_of(game).hooks
    return hooks if type(hooks) is not SearchHooks else policy_search(game)


def policy_search(game: Game[Any]) -> SearchHooks:
    """The search of a game that hands over no search hooks: rollouts and the other seats by its normal policy
    (:class:`PolicyRollouts`), or the plain search if it has no policies either."""
    policies = policies_for(game)
    return SearchHooks() if type(policies) is GamePolicies else PolicyRollouts(game, policies)


class EasyPlayer(Player):
    """A beginner: legal, a little sense, the usual mistakes."""

    kind = "easy"

    def choose(self, seen: Seen) -> Action:
        legal = seen.legal_actions()
        if len(legal) == 1:
            return legal[0]
        state = seen.determinize(self.rng)
        return policies_for(seen.game).easy(state, seen.seat, legal, self.rng)


class NormalPlayer(Player):
    """A heuristic player that bids from an estimate of its tricks and plays to make the bid exactly."""

    kind = "normal"

    def choose(self, seen: Seen) -> Action:
        legal = seen.legal_actions()
        if len(legal) == 1:
            return legal[0]
        state = seen.determinize(self.rng)
        return policies_for(seen.game).normal(state, seen.seat, legal, self.rng)


class HardPlayer(Player):
    """Information-set MCTS over resampled deals, within ``think_ms`` per decision.

    ``max_iterations`` caps the search by iterations instead of time (reproducible tests); a decision
    never runs more than ``think_ms`` either way.
    """

    kind = "hard"

    def __init__(self, seed: int, think_ms: float = HARD_DEFAULT_THINK_MS, max_iterations: int | None = None) -> None:
        super().__init__(seed, think_ms)
        self.max_iterations = max_iterations
        self.last_visits: dict[Action, int] = {}

    def choose(self, seen: Seen) -> Action:
        legal = seen.legal_actions()
        if len(legal) == 1:
            return legal[0]
        hooks = self.hooks(seen)
        quick = hooks.shortcut(seen.determinize(self.rng), seen.seat, legal)
        if quick is not None and quick in legal:
            return quick
        action, self.last_visits = ismcts(
            seen.game,
            seen.determinize,
            seen.seat,
            legal,
            hooks,
            self.rng,
            self.think_ms,
            self.max_iterations,
            strict=True,
        )
        if not any(self.last_visits.values()):  # not one simulation finished within the budget: the game's usual move
            return policies_for(seen.game).normal(seen.determinize(self.rng), seen.seat, legal, self.rng)
        if isinstance(hooks, PolicyRollouts):
            return hooks.settle(seen, legal, action, self.last_visits, self.rng)
        return action

    def hooks(self, seen: Seen) -> SearchHooks:
        """The game's advice to the search (:func:`generic_hooks`)."""
        return generic_hooks(seen.game)
