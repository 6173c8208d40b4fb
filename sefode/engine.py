"""The one interface every game implements.

Everything outside ``sefode/games`` (server, bots, histories, the CLI) talks to games through
:class:`Game` alone. The design follows OpenSpiel and PokerKit:

* A match is a mutable *state* object owned by one writer. All chance (shuffles, draws) comes from a
  ``random.Random`` kept inside the state, so the same options, seed and actions give the same match.
* An *action* is a small integer whose meaning the game defines (OpenSpiel style), cheap to list and
  to compare. ``parse_action`` turns the JSON form used by the protocol and by hand histories into
  an action, with a clear :class:`IllegalAction` when it is wrong; ``action_json`` goes back.
* Turns are *awaited seats*: one seat for sequential games, several for simultaneous secret turns
  (each seat submits, nothing is revealed until all have).
* ``apply`` is the checked path for input from outside and returns public *events*; ``apply_fast``
  is the unchecked path for search and simulation, with no events.
* ``view`` builds what one seat (or a spectator, ``None``) may see. The server only ever sends views
  and events; events are public by contract: they never carry a card some seat may not see.
* Search bots get ``clone``, ``infoset_key`` and ``resample`` (deal the unseen cards again,
  consistently with what a seat knows).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

Seat = int
Action = int
JSON = Any
"""A value that ``json.dumps`` accepts."""
Event = dict[str, JSON]
"""A public event: a small JSON object with a ``type`` key."""
View = dict[str, JSON]


class EngineError(ValueError):
    """Base class of every error a game raises on bad input. ``code`` is stable, ``str()`` is readable."""

    code: str = "engine/error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class InvalidOptions(EngineError):
    """Options that the game does not accept; the message says why."""

    code = "options/invalid"


class IllegalAction(EngineError):
    """An action that may not be applied now; the message names what was wrong."""

    code = "action/illegal"


class NotYourTurn(IllegalAction):
    code = "action/not_your_turn"


class MatchOver(IllegalAction):
    code = "action/match_over"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished match ended. ``placements[seat]`` is 1 for first; equal places are shared."""

    placements: tuple[int, ...]


S = TypeVar("S")


class Game(ABC, Generic[S]):
    """A game's rules. Stateless: every method takes the match state it works on."""

    name: ClassVar[str]
    """Identifier used in options, histories and the protocol, e.g. ``"fodinha"``."""

    # ----------------------------------------------------------------- setting up
    @abstractmethod
    def new_match(self, options: Mapping[str, JSON], seed: int, setup: Mapping[str, JSON] | None = None) -> S:
        """A fresh match. ``options`` are validated here (InvalidOptions). ``setup`` carries what a
        hand history may fix beyond the seed (for card games: first dealer, preset deals)."""

    @abstractmethod
    def options(self, state: S) -> dict[str, JSON]:
        """The match's options, normalised (every default filled in)."""

    @abstractmethod
    def match_seed(self, state: S) -> int:
        """The seed every chance event of the match comes from (secret until the match is over)."""

    @abstractmethod
    def seats(self, state: S) -> int:
        """How many seats the match has now."""

    # ----------------------------------------------------------------- playing
    @abstractmethod
    def awaiting(self, state: S) -> frozenset[Seat]:
        """Seats whose decision the match waits for; empty when the match is over.

        In a simultaneous secret turn every seat that still has to submit is awaited; a seat that has
        submitted is not (``apply`` from it raises NotYourTurn) and its submission shows in no other
        seat's view and in no event until the turn resolves (see ``tests/toygame.py``)."""

    @abstractmethod
    def legal_actions(self, state: S, seat: Seat) -> list[Action]:
        """The decisions ``seat`` may take now (empty when it is not awaited). Free actions that
        are not turns (leaving, showing a hand) are not listed; ``apply`` accepts them."""

    @abstractmethod
    def apply(self, state: S, seat: Seat, action: Action) -> list[Event]:
        """Checked path: raise IllegalAction (naming what is wrong) and change nothing, or apply
        the action, run whatever follows automatically, and return the public events."""

    @abstractmethod
    def apply_fast(self, state: S, seat: Seat, action: Action) -> None:
        """Unchecked path for search and simulation: ``action`` must be one of ``legal_actions``."""

    @abstractmethod
    def parse_action(self, state: S, seat: Seat, message: Mapping[str, JSON]) -> Action:
        """The action meant by a JSON object such as ``{"bid": 1}``; IllegalAction if malformed."""

    @abstractmethod
    def action_json(self, state: S, action: Action) -> dict[str, JSON]:
        """The JSON form of an action (the inverse of ``parse_action``)."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """Placements once the match is over, else None."""

    def stand_in_seats(self, state: S) -> frozenset[Seat]:
        """Seats whose player has left for good but whose turns must still be played (by a bot)."""
        return frozenset()

    # ----------------------------------------------------------------- seeing
    @abstractmethod
    def view(self, state: S, seat: Seat | None) -> View:
        """What ``seat`` may see (``None``: a spectator, who sees only what every seat sees)."""

    @abstractmethod
    def report(self, state: S) -> dict[str, JSON]:
        """The full record of the match so far (for ``sefode replay`` and the exported history's
        result). It may show everything, so it is only given out once the match is over."""

    @abstractmethod
    def history_actions(self, state: S) -> list[dict[str, JSON]]:
        """The decisions applied so far, as hand-history entries ``{"seat": s, ...}``."""

    @abstractmethod
    def history_setup(self, state: S) -> dict[str, JSON]:
        """What ``new_match`` needs besides options and seed to start the same match."""

    # ----------------------------------------------------------------- searching
    @abstractmethod
    def clone(self, state: S) -> S:
        """An independent copy, cheap enough for search."""

    @abstractmethod
    def infoset_key(self, state: S, seat: Seat) -> Hashable:
        """Equal for two states exactly when ``seat`` cannot tell them apart."""

    @abstractmethod
    def resample(self, state: S, seat: Seat, rng: random.Random) -> S:
        """A copy in which everything ``seat`` cannot see is dealt again at random, consistently with
        what it has seen; its own future chance comes from ``rng``."""


_REGISTRY: dict[str, Game[Any]] = {}


def register(game: Game[Any]) -> Game[Any]:
    """Make ``game`` known by its name (to histories, the CLI, the server); returns it."""
    _load_builtin_games()
    _REGISTRY[game.name] = game
    return game


def unregister(name: str) -> None:
    """Forget a registered game (for tests and plugins); unknown names are ignored."""
    _REGISTRY.pop(name, None)


def get_game(name: object) -> Game[Any]:
    """The registered game called ``name``; InvalidOptions naming the known games otherwise."""
    _load_builtin_games()
    if not isinstance(name, str) or name not in _REGISTRY:
        known = ", ".join(sorted(_REGISTRY))
        raise InvalidOptions(f"unknown game {name!r}; known games: {known}", "game/unknown")
    return _REGISTRY[name]


def game_names() -> list[str]:
    _load_builtin_games()
    return sorted(_REGISTRY)


_BUILTINS_LOADED: list[bool] = []


def _load_builtin_games() -> None:
    # A flag, not "is the registry empty": a game registered first (a plugin, a test game) must not
    # hide the built-in games.
    if not _BUILTINS_LOADED:
        from sefode.games import builtin_games

        for game in builtin_games():
            _REGISTRY.setdefault(game.name, game)
        _BUILTINS_LOADED.append(True)


def check_seat(seat: object, seats: int) -> Seat:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        raise IllegalAction(f"seat must be a whole number from 0 to {seats - 1}, not {seat!r}", "action/bad_seat")
    return seat


def rank_places(values: Sequence[float]) -> list[int]:
    """Competition ranking of ``values`` (higher is better): ties share, the next place skips.

    >>> rank_places([5, 3, 3, 1])
    [1, 2, 2, 4]
    """
    return [1 + sum(1 for other in values if other > v) for v in values]
