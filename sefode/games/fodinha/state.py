"""The mutable state of one Fodinha-family match. Only ``game.py`` changes it."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from sefode.games.fodinha.options import FodinhaOptions
from sefode.match import MatchState


class Phase(StrEnum):
    BIDDING = "bidding"
    PLAYING = "playing"
    OVER = "over"


BIDDING = Phase.BIDDING
PLAYING = Phase.PLAYING
OVER = Phase.OVER


@dataclass(slots=True)
class Trick:
    leader: int
    plays: list[tuple[int, int]]
    """(seat, card code) in the order played."""
    winner: int | None
    value: int
    taken_by: int | None = None
    """Who took the cards: the winner, or for a cancelled trick whoever later took the bolo."""
    hand: int = 0


@dataclass(slots=True)
class HandRecord:
    """One finished hand, for the report and for the 'last hand' shown at the table."""

    number: int
    dealer: int
    cards: int
    vira: int
    bids: list[int | None]
    tricks: list[Trick]
    won: list[int | None]
    score: list[int | None]
    out: list[int]
    void: bool
    bolo: dict[str, Any] | None
    dealt: list[list[int]] = field(default_factory=list)
    """Each seat's cards as dealt; every one of them is played by the end of the hand, so this is public then."""


@dataclass(slots=True)
class FodinhaState(MatchState):
    """The base fields (``sefode.match``) and Fodinha's own; ``seats`` grows when a late player joins (7 Letras)."""

    opts: FodinhaOptions
    """The options parsed (``options`` holds them as JSON)."""
    unit: list[int]
    """Seat -> scoring unit (its own index, or its pair's index in team mode)."""
    units: int
    score: list[int]
    """Per unit: lives left (Se Fode) or points taken (7 Letras)."""
    alive: list[bool]
    first_dealer: int
    dealer: int
    presets: dict[int, dict[str, Any]] = field(default_factory=dict)
    # --- the hand in progress
    hand_no: int = 0
    size: int = 1
    climbing: bool = True
    order: tuple[int, ...] = ()
    """Seats dealt into this hand, in bidding order (the dealer last)."""
    nxt: tuple[int, ...] = ()
    """Seat -> next seat of this hand in the direction of play (-1 for a seat not dealt in)."""
    hands: list[list[int]] = field(default_factory=list)
    dealt: list[list[int]] = field(default_factory=list)
    vira: int = -1
    strength: list[int] = field(default_factory=list)
    turn: int = -1
    bids: list[int] = field(default_factory=list)
    nbids: int = 0
    leader: int = -1
    trick: list[tuple[int, int]] = field(default_factory=list)
    acc: int = 0
    last_winner: int = -1
    won: list[int] = field(default_factory=list)
    tricks: list[Trick] = field(default_factory=list)
    shown: list[bool] = field(default_factory=list)
    deal_error: str | None = None
    # --- the match so far
    records: list[HandRecord] = field(default_factory=list)
    match_tricks: list[Trick] = field(default_factory=list)
    leaving: list[bool] = field(default_factory=list)
    """Left on purpose; a stand-in finishes the hand (the whole match in team mode)."""
    left_key: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Seat -> (hand number, leave order) of its leave, for placements."""
    reserved: dict[int, int] = field(default_factory=dict)
    """Team mode: a leaver's own place, the worst place still open when they left."""
    out_key: list[tuple[int, int] | None] = field(default_factory=list)
    """Per unit: (hand number, what it had left, oriented so bigger is better) when it went out."""
    placements: list[int] | None = None
    grouped_past: tuple[int, dict[str, list[dict[str, Any]]]] | None = field(default=None, compare=False, repr=False)
    """A cache for the past (``views.past``), not part of the match: the JSON of the first N tricks of
    ``match_tricks`` (those of finished hands, which never change again) grouped under whoever took them. Clones share
    it; it is replaced, never mutated, so the past costs the same on the 100th hand as on the first."""

    @property
    def n(self) -> int:
        """``seats``, by the short name the rules tests use."""
        return self.seats
