"""The mutable state of one King match. Only ``game.py`` changes it."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from sefode.match import MatchState


class Phase(StrEnum):
    CHOOSING = "choosing"
    """The chooser (the seat after the dealer) picks the hand's contract."""
    TRUMP = "trump"
    """A Trunfo hand: the chooser names the trump suit."""
    PLAYING = "playing"
    OVER = "over"


@dataclass(slots=True)
class Trick:
    leader: int
    plays: list[tuple[int, int]]
    """(seat, card code) in the order played."""
    winner: int
    points: int


@dataclass(slots=True)
class HandRecord:
    """One finished hand: a row of the score sheet, with its tricks."""

    number: int
    dealer: int
    chooser: int
    contract: int
    trump: int
    tricks: list[Trick]
    points: list[int]
    totals: list[int]
    early: bool
    """The hand ended before 13 tricks: nothing it punishes was left."""


@dataclass(slots=True)
class KingState(MatchState):
    """The base fields (``sefode.match``; always 4 seats) and King's own."""

    fixed: bool
    """``order: "fixed"``: the contracts come in the fixed order and nobody chooses."""
    first_dealer: int
    presets: dict[int, list[int]] = field(default_factory=dict)
    """Hand number -> the preset deal (one mask of 13 cards per seat), from a hand history."""
    # --- the hand in progress
    hand_no: int = 0
    dealer: int = 0
    chooser: int = 0
    contract: int = -1
    trump: int = -1
    hands: list[int] = field(default_factory=list)
    """Per seat: the cards held, as a mask."""
    dealt: list[int] = field(default_factory=list)
    turn: int = -1
    leader: int = -1
    trick: list[tuple[int, int]] = field(default_factory=list)
    led: int = -1
    """The suit led in the trick on the table (-1: nobody has played yet)."""
    top_led: int = -1
    top_trump: int = -1
    broken: bool = False
    """A heart (a trump, in Trunfo) has been played in this hand: it may be led."""
    played: int = 0
    """Cards played in this hand, as a mask."""
    chain: tuple[int, ...] | None = None
    """What the seat to play must play from (``rules.play_chain``), kept from ``legal_actions`` to the play and on to
    the next seat while what the chain depends on (the suit led, the top card led where a penalty card must go under
    it, the top trump) stays the same; None when it has to be looked up again (``rules.LEAD_CHAINS`` and the follow
    tables)."""
    excluded: list[int] = field(default_factory=list)
    """Per seat: cards it has shown it does not hold (voids and skipped forced plays), for resampling."""
    tricks: list[Trick] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    """Per seat: points taken in this hand so far."""
    taken: list[list[int]] = field(default_factory=list)
    """Per seat: [tricks, jacks and kings, queens, hearts, king of hearts] taken in this hand."""
    # --- the match so far
    totals: list[int] = field(default_factory=list)
    trunfo_chosen: list[bool] = field(default_factory=list)
    pool_chosen: list[int] = field(default_factory=list)
    """Per seat: pool contracts it has chosen (at most 2)."""
    pool_played: int = 0
    """Pool contracts already chosen, as a mask of contract indices."""
    records: list[HandRecord] = field(default_factory=list)
    placements: list[int] | None = None
    left: list[bool] = field(default_factory=lambda: [False] * 4)
    """Per seat: its player left the table (capability ``forfeit``); a bot plays the seat to the end."""
