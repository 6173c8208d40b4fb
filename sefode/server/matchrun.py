"""The match on at a room's table: its engine state, versions and per-seat clocks (``sefode.server.play`` drives it).

Each accepted action is counted by :meth:`MatchRun.advance`: the public version, each seat's version (what the seat's
next action is checked against), the seats whose clocks start. A secret action of a simultaneous turn
(:meth:`MatchRun.secret`) moves only the acting seat's version and no clock.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from sefode.bots.base import Player
from sefode.engine import Game, Outcome, Turns, guard_reason
from sefode.server.record import ActionSource, MatchSeat

RECAP_EVENTS = 30


@dataclass
class MatchRun:
    """The match on at a room's table (or the last one, once over)."""

    id: str
    number: int
    game: Game[Any]
    state: Any
    seed: int
    options: dict[str, Any]
    setup: dict[str, Any]
    seats: list[MatchSeat]
    """Per match seat: its player or the table's bot, and whether its player left."""
    version: int = 0
    """The match's public version: the accepted actions everyone learned of (every action but the secret ones of a
    simultaneous turn, see :meth:`secret`); spectators see it, and it numbers the recap's events."""
    stored: int = 0
    """Actions accepted in the match so far, secret ones included (the store's index of the next one)."""
    seen: list[int] = field(default_factory=list)
    """Per seat: the public version this seat's next action is checked against (see :meth:`advance`)."""
    own: list[int] = field(default_factory=list)
    """Per seat: its own secret actions in the match so far; a seat's version is ``seen + own`` (so it only grows,
    and tells no one else how many secret actions a seat made)."""
    recent: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=RECAP_EVENTS))
    bots: dict[tuple[int, str], Player] = field(default_factory=dict)
    turn_started: dict[int, float] = field(default_factory=dict)
    """Per awaited seat: when (monotonic) its turn began; each awaited seat has its own clock."""
    deadlines: dict[int, int] = field(default_factory=dict)
    """Per awaited seat: when (epoch ms) its clock runs out; empty while paused."""
    covering: set[int] = field(default_factory=set)
    """Seats whose clock ran out this turn: the table's bot plays for them until they are no longer awaited."""
    awaiting: frozenset[int] = frozenset()

    limit: int | None = None
    """The game's longest match (``Game.max_decisions``), read once."""

    def guard(self, actions: int | None = None) -> str | None:
        """Why the guard against endless play ended the match: it reached the game's longest match after ``actions``
        accepted actions (default: ``stored``) without an end of its own. None while it goes on, or once it ended."""
        if self.limit is None:
            self.limit = self.game.max_decisions(self.game.options(self.state))
        count = self.stored if actions is None else actions
        return None if count < self.limit else guard_reason(self.game, self.state, count)

    def final(self, actions: int | None = None) -> Outcome | None:
        """The match's outcome: the game's, or, once the guard ended it, the game's ``unfinished_outcome``."""
        outcome = self.game.outcome(self.state)
        if outcome is None and self.guard(actions) is not None:
            return self.game.unfinished_outcome(self.state)
        return outcome

    @property
    def over(self) -> bool:
        return self.final() is not None

    def record(self, events: list[dict[str, Any]]) -> None:
        for ev in events:
            self.recent.append({"version": self.version, **ev})

    def secret(self, actor: int, events: list[dict[str, Any]]) -> bool:
        """Whether the action ``actor`` just made (applied, not yet counted; ``events``: the engine's) is a secret
        action of a simultaneous turn: no public event, and the same seats awaited, the actor among them (a card
        placed or taken back before confirming). By the engine's contract it shows in no other seat's view, so it
        goes to the acting seat alone and moves no one else's version or clock."""
        return (
            self.game.spec.turns is Turns.SIMULTANEOUS
            and not events
            and actor in self.awaiting
            and self.game.awaiting(self.state) == self.awaiting
        )

    def advance(self, actor: int, secret: bool = False) -> set[int]:
        """Count one accepted action by ``actor`` (already applied; ``secret``: see :meth:`secret`); return the
        seats whose turn (re)started, whose clocks start now.

        A seat's version moves with every public action, except, in a game of simultaneous turns, another seat's
        action while this seat stays awaited: so a submission is checked against what that seat has seen, and
        another seat's submission in the same turn never makes it stale. (The engine still checks the action
        itself.) A secret action moves the actor's version alone, and restarts no clock: an awaited seat's clock
        runs from when it became awaited, whatever it does meanwhile.
        """
        self.stored += 1
        n = self.game.seats(self.state)
        while len(self.seen) < n:
            self.seen.append(self.version + 1)
            self.own.append(0)
        if secret:
            self.own[actor] += 1
            return set()
        simultaneous = self.game.spec.turns is Turns.SIMULTANEOUS
        before = self.awaiting if simultaneous else frozenset()
        self.version += 1
        after = self.game.awaiting(self.state)
        started: set[int] = set()
        for seat in range(n):
            if seat != actor and seat in before and seat in after:
                continue
            self.seen[seat] = self.version
            if seat in after:
                started.add(seat)
        self.awaiting = after
        self.covering -= started  # a turn that starts again is the seat's own again
        self.covering &= after
        for seat in list(self.turn_started):
            if seat not in after:
                self.turn_started.pop(seat, None)
                self.deadlines.pop(seat, None)
        return started

    def version_for(self, seat: int | None) -> int:
        if seat is None or seat >= len(self.seen):
            return self.version
        return self.seen[seat] + self.own[seat]

    def seat_of(self, player_id: str) -> int | None:
        for i, occ in enumerate(self.seats):
            if occ.player_id == player_id and not occ.left:
                return i
        return None


def with_played_for(events: list[dict[str, Any]], seat: int, source: str) -> list[dict[str, Any]]:
    """The table's notice that it played ``seat``'s turn (its clock ran out, or its player is away)."""
    if source in (ActionSource.CLOCK, ActionSource.ABSENT):
        return [{"type": "played_for", "seat": seat, "reason": source}, *events]
    return events
