"""The match state of Guimenon: plain mutable records, cheap to copy for search."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sefode.games.guimenon.cardset import CardDef
from sefode.match import MatchState

SEATS = 2
TURNS = 6
LOCATIONS = 3
HAND_LIMIT = 7
OPENING_HAND = 3


@dataclass(slots=True)
class Unit:
    """A card in play at a Location: a card from a deck, a token or a copy."""

    uid: int
    card: CardDef
    owner: int
    loc: int
    serial: int
    """Play order: lower was played (or created) earlier."""
    created: bool = False
    """A token or a copy: it never goes to the discard pile."""
    perm: int = 0
    """Stars added or taken by abilities that resolved (On Reveal, End of Turn...)."""
    cont: int = 0
    """Stars from Continuous abilities, recomputed."""
    alive: bool = True
    fresh: bool = False
    """Revealed this turn, its On Reveal not resolved yet."""

    def stars(self) -> int:
        card = self.card
        return card.stars + self.perm + self.cont if card.being else 0

    def copy(self) -> Unit:
        return Unit(
            self.uid,
            self.card,
            self.owner,
            self.loc,
            self.serial,
            self.created,
            self.perm,
            self.cont,
            self.alive,
            self.fresh,
        )


@dataclass(slots=True)
class Resolution:
    """One ability that resolved, for the report: in which step, where, whose, and what it did."""

    step: str
    location: int
    seat: int | None
    source: str
    """The card's id, or the Location's id for a Location's ability."""
    results: list[str]


@dataclass(slots=True)
class TurnRecord:
    turn: int
    moon: list[int]
    revealed: int | None = None
    """The Location (by position) revealed at the start of this turn."""
    plays: list[tuple[int, str, int]] = field(default_factory=list)
    discards: list[tuple[int, str]] = field(default_factory=list)
    order: list[dict[str, Any]] = field(default_factory=list)
    """Per step and Location: which seat resolved first and whether a seeded draw broke a tie."""
    resolved: list[Resolution] = field(default_factory=list)
    board: list[dict[str, Any]] | None = None
    opening: int = 0
    """How many of ``resolved`` happened at the start of the turn (a Location's "when revealed")."""


@dataclass(slots=True)
class GState(MatchState):
    """The base fields (``sefode.match``; always 2 seats; its phases are ``sefode.match.Phase``) and Guimenon's own."""

    deck_lists: list[list[str]]
    """Each seat's deck as chosen (card ids, in the listed order)."""
    shuffle: bool
    draw: list[list[int]]
    """Each seat's draw pile, card indices; the top is the end of the list."""
    hand: list[list[int]]
    discard: list[list[int]]
    locations: list[int]
    """The 3 Locations, left to right (Location indices); the first ``revealed`` are face up."""
    first: int
    """Who starts (setup step 3): orders two events when no other rule does."""
    revealed: int = 0
    board: list[list[list[Unit]]] = field(default_factory=lambda: [[[], []] for _ in range(LOCATIONS)])
    """``board[location][seat]``: that seat's cards there, in play order."""
    turn: int = 0
    moon: list[int] = field(default_factory=lambda: [0, 0])
    """Moon left this turn."""
    moon_total: list[int] = field(default_factory=lambda: [0, 0])
    moon_bonus: list[int] = field(default_factory=lambda: [0, 0])
    """Extra Moon for the next turn (``gain_moon``)."""
    cost_mod: list[dict[int, int]] = field(default_factory=lambda: [{}, {}])
    pending: list[list[tuple[int, int]]] = field(default_factory=lambda: [[], []])
    """This turn's secret placements (card index, Location), in order."""
    pending_discards: list[list[int]] = field(default_factory=lambda: [[], []])
    owed: list[int] = field(default_factory=lambda: [0, 0])
    """Discards still owed to get down to the hand limit."""
    confirmed: list[bool] = field(default_factory=lambda: [False, False])
    seen: list[set[int]] = field(default_factory=lambda: [set(), set()])
    """Cards of each seat that are public (revealed in play or discarded)."""
    next_uid: int = 0
    next_serial: int = 0
    dirty: bool = True
    records: list[TurnRecord] = field(default_factory=list)
    recording: bool = True
    played: list[list[int]] = field(default_factory=lambda: [[], []])
    """Cards each seat revealed from its hand, in order (for statistics)."""
    drawn: list[list[int]] = field(default_factory=lambda: [[], []])
    """Every card each seat held at some point (opening hand and draws)."""
    result: dict[str, Any] | None = None
    left: list[bool] = field(default_factory=lambda: [False, False])
    """Per seat: its player left the table (capability ``forfeit``); a bot plays the seat to the end."""

    def _records_copy(self) -> list[TurnRecord]:
        """Finished turns are never changed again and are shared; the current one is copied."""
        if not self.records:
            return []
        last = self.records[-1]
        current = TurnRecord(
            last.turn,
            last.moon[:],
            last.revealed,
            last.plays[:],
            last.discards[:],
            last.order[:],
            [Resolution(r.step, r.location, r.seat, r.source, r.results[:]) for r in last.resolved],
            last.board,
            last.opening,
        )
        return [*self.records[:-1], current]

    def clone(self) -> GState:
        board = [[[u.copy() for u in side] for side in loc] for loc in self.board]
        return GState(
            seed=self.seed,
            rng=self.copy_rng(),
            options=self.options,
            seats=SEATS,
            phase=self.phase,
            log=self.log[:],
            deck_lists=self.deck_lists,
            shuffle=self.shuffle,
            draw=[d[:] for d in self.draw],
            hand=[h[:] for h in self.hand],
            discard=[d[:] for d in self.discard],
            locations=self.locations[:],
            first=self.first,
            revealed=self.revealed,
            board=board,
            turn=self.turn,
            moon=self.moon[:],
            moon_total=self.moon_total[:],
            moon_bonus=self.moon_bonus[:],
            cost_mod=[dict(c) for c in self.cost_mod],
            pending=[p[:] for p in self.pending],
            pending_discards=[p[:] for p in self.pending_discards],
            owed=self.owed[:],
            confirmed=self.confirmed[:],
            seen=[set(s) for s in self.seen],
            next_uid=self.next_uid,
            next_serial=self.next_serial,
            dirty=self.dirty,
            records=self._records_copy() if self.recording else [],
            recording=self.recording,
            played=[p[:] for p in self.played],
            drawn=[d[:] for d in self.drawn],
            result=self.result,
            left=self.left[:],
        )
