"""What a player (bot) is given, and the players the arena knows.

A bot is fair by construction: it receives a :class:`Seen`, the information set of its seat, never
the match state. ``Seen`` offers the seat's view, its legal actions, and determinizations: states in
which every card the seat cannot see has been dealt again at random (``Game.resample``).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any

from sefode.engine import Action, Game, Seat, View


class Seen:
    """One seat's information set at one decision."""

    __slots__ = ("_game", "_state", "seat")

    def __init__(self, game: Game[Any], state: Any, seat: Seat) -> None:
        self._game = game
        self._state = state
        self.seat = seat

    @property
    def game(self) -> Game[Any]:
        return self._game

    def view(self) -> View:
        return self._game.view(self._state, self.seat)

    def legal_actions(self) -> list[Action]:
        return self._game.legal_actions(self._state, self.seat)

    def legal_json(self) -> list[dict[str, Any]]:
        """The legal actions as the protocol shows them:
        ``[{"action": <JSON>, "label": {"key", "params", "text"}}]``."""
        game, state = self._game, self._state
        return [
            {"action": game.action_json(state, a), "label": game.describe_action(state, self.seat, a)}
            for a in game.legal_actions(state, self.seat)
        ]

    def infoset_key(self) -> object:
        return self._game.infoset_key(self._state, self.seat)

    def determinize(self, rng: random.Random) -> Any:
        """A full state consistent with what this seat knows; hidden cards are re-dealt from ``rng``."""
        return self._game.resample(self._state, self.seat, rng)


class Player(ABC):
    """A seat's decision maker. ``choose`` must return one of ``seen.legal_actions()``."""

    kind: str = "player"

    def __init__(self, seed: int, think_ms: float = 200.0) -> None:
        self.rng = random.Random(seed)
        self.think_ms = think_ms
        self.faults: dict[str, int] = {}
        """Decisions this player lost to a default move, by cause (programs: crash, timeout, illegal)."""

    @abstractmethod
    def choose(self, seen: Seen) -> Action: ...

    def finish(self, placements: list[int] | None) -> None:  # noqa: B027 (a hook; most players hold nothing)
        """The match is over (``placements`` by seat); release whatever the player holds."""


class RandomPlayer(Player):
    """Picks uniformly among the legal actions."""

    kind = "random"

    def choose(self, seen: Seen) -> Action:
        return self.rng.choice(seen.legal_actions())
