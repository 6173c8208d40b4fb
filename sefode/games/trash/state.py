"""The mutable state of one One Man's Trash match. Only ``game.py`` changes it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sefode.match import MatchState


@dataclass(frozen=True, slots=True)
class TrashOptions:
    players: int = 3
    jokers: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "jokers": self.jokers}


@dataclass(slots=True)
class TrashState(MatchState):
    """The base fields (``sefode.match``; its phases are ``sefode.match.Phase``) and One Man's Trash's own. The log
    holds every turn: every action is public; only the card drawn is not (``drawn``)."""

    opts: TrashOptions
    """The options parsed (``options`` holds them as JSON)."""
    collectors: frozenset[int]
    """The two Trash Collectors' codes: the jokers, or the two aces left in the deck."""
    fits: tuple[tuple[bool, ...], ...]
    """``fits[top][card]`` (see ``rules.fits_table``); shared by every copy of the state."""
    first: int
    hands: list[list[int]]
    piles: list[list[int]]
    """Trash Piles in table order, each bottom card first."""
    draw: list[int]
    """The Draw Pile, its top card LAST (``pop()`` draws)."""
    known: list[list[int]]
    """Per seat, the cards everyone knows it holds: taken from the table (collect, swap, a Collector
    picked up) and not played since."""
    alive: list[bool]
    turn: int
    """The seat to play, -1 once the match is over (its phase ``OVER``)."""
    turns: list[int]
    """Turns each seat has played."""
    start_piles: tuple[tuple[int, ...], ...]
    dealt: list[tuple[int, ...]]
    """Each seat's hand as dealt (its own is part of what it knows)."""
    preset: dict[str, Any] | None = None
    """The ``deal`` of a hand history, normalised, when the match was set up from one."""
    out: list[int] = field(default_factory=list)
    """Seats that went out, in order."""
    drawn: list[int] = field(default_factory=list)
    """The card of each draw, in order (-1 where a resampled state does not know it)."""
    winner: int = -1
    reason: str = ""
    """How the match ended: ``win``, ``last_player`` or ``turn_limit``."""
    placements: list[int] | None = None
    left: list[bool] = field(default_factory=list)
    """Per seat: its player left the table (capability ``forfeit``); a bot plays the seat to the end."""

    @property
    def n(self) -> int:
        """``seats``, by the short name the rules tests use."""
        return self.seats
