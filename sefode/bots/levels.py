"""The three bot levels: ``easy``, ``normal`` (per-game heuristics) and ``hard`` (ISMCTS).

Each decides from a :class:`~sefode.bots.base.Seen` only: the seat's legal actions and
determinizations of its information set. What they know of the game comes from the game itself, through
the engine interface: ``seen.game.bot_knowledge()`` (a :class:`~sefode.bots.knowledge.BotKnowledge`: the
policies of ``sefode.bots.policies`` and the hooks of ``sefode.bots.search``), which each game builds from
its own ``bots.py`` (``sefode.games.fodinha.bots``, say). Nothing is looked up by name.
"""

from __future__ import annotations

from sefode.bots.base import Player, Seen
from sefode.bots.knowledge import hooks_for, policies_for
from sefode.bots.search import ismcts
from sefode.engine import Action

HARD_DEFAULT_THINK_MS = 200.0
"""The default per-decision budget: p95 decision time stays well under 1 s on a 2-core machine."""


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
        hooks = hooks_for(seen.game)
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
        )
        return action
