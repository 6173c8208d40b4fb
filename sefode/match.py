"""What every match state holds, and the engine methods that follow from it.

A game's state subclasses :class:`MatchState` (its seed, seeded generator, options, seat count, action log and phase)
and its rules subclass :class:`MatchGame`, which then provides ``options``, ``match_seed``, ``seats``, ``is_over``
and ``history_actions``; ``clone`` copies the generator with :meth:`MatchState.copy_rng`. Games that keep none of
this may still implement :class:`sefode.engine.Game` directly.

The phase convention: a game's phases are a ``StrEnum`` with an ``OVER = "over"`` member (:class:`Phase` when the
game needs no other than playing and over), and a match is over exactly when its phase is ``OVER``: every game
answers "is it over?" through :attr:`MatchState.over`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypeVar

from sefode.engine import JSON, Action, Game, Seat

OVER = "over"
"""The value of every phase enum's ``OVER`` member."""


class Phase(StrEnum):
    """The phases of a game that has no other than these two."""

    PLAYING = "playing"
    OVER = OVER


@dataclass(slots=True, kw_only=True)
class MatchState:
    """The part of a match state the platform's methods read. Subclasses are dataclasses too (with ``slots=True`` for
    the quickest field access, as the built-in games); these fields are keyword-only, so a subclass's own fields may
    come in any order."""

    seed: int
    """Every chance event of the match comes from it (through ``rng``); secret until the match is over."""
    rng: random.Random
    """The match's only source of chance, ``random.Random(seed)`` at the start."""
    options: dict[str, JSON]
    """The normalised options (every default filled in), as ``Game.validate_options`` gave them. Never changed, so
    copies share it; ``Game.options`` hands out a copy."""
    seats: int
    """How many seats the match has now (a late player may add one)."""
    phase: str
    """A member of the game's phase enum (a ``StrEnum``), whose ``OVER`` member ends the match."""
    log: list[tuple[Seat, Action]] = field(default_factory=list)
    """``(seat, action)`` of every decision applied, in order: the hand history's actions (``action_json`` of each)."""

    @property
    def over(self) -> bool:
        """Is the match over? (Its phase is the game's ``OVER``.)"""
        return self.phase == OVER

    def copy_rng(self) -> random.Random:
        """A generator in the same state as ``rng``, for ``clone``: the copy draws what this state would draw next.

        It is made without seeding (``random.Random()`` would read the system's entropy first, a system call that cost
        more than the rest of a clone): ``setstate`` gives it the whole state."""
        rng = random.Random.__new__(random.Random)
        rng.setstate(self.rng.getstate())
        return rng


M = TypeVar("M", bound=MatchState)


class MatchGame(Game[M]):
    """A :class:`sefode.engine.Game` whose state is a :class:`MatchState`: what follows from the base fields is
    written here once."""

    def options(self, state: M) -> dict[str, JSON]:
        return dict(state.options)

    def match_seed(self, state: M) -> int:
        return state.seed

    def seats(self, state: M) -> int:
        return state.seats

    def is_over(self, state: M) -> bool:
        return state.over

    def history_actions(self, state: M) -> list[dict[str, JSON]]:
        """Each logged decision as ``{"seat": s, **action_json(state, action)}``."""
        action_json = self.action_json
        return [{"seat": seat, **action_json(state, action)} for seat, action in state.log]
