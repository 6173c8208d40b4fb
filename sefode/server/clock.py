"""A room's clocks, pause and timer: when each awaited seat's clock runs out, when the table's bot plays a seat,
the players' pause vote, and the room's one timer that wakes for the next of these.

Each awaited seat has its own clock (``MatchRun.turn_started``, ``MatchRun.deadlines``), started when the seat
becomes awaited (``MatchRun.advance`` says which) and stopped while the match is paused. A pause needs a majority of
the seated players still in the match and lasts at most the host's ``pause_limit_s``. The timer is a loop callback
re-armed after every change (cheap: no task until it rings); when it rings it plays a bot's turn through the room
(``Room.bot_play``) or ends the pause.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from sefode.engine import SeatStatus
from sefode.server import logs
from sefode.server.matchrun import MatchRun
from sefode.server.record import DEFAULT_LEVEL, ActionSource, MatchSeat

if TYPE_CHECKING:
    from sefode.server.room import Room


def pause_voters(run: MatchRun | None) -> set[str]:
    """Who may vote a pause: the players seated in the match on who are still playing it."""
    if run is None or run.over:
        return set()
    status = run.game.seat_status(run.state)
    voters = set()
    for i, s in enumerate(run.seats):
        pid = s.playing
        if not pid or i >= len(status) or status[i] is not SeatStatus.PLAYING:
            continue
        voters.add(pid)
    return voters


class Clock:
    """The clocks, the pause and the timer of one room (the caller holds the room's lock, the timer takes it)."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.votes: set[str] = set()
        """Who votes for a pause now."""
        self.until: float | None = None
        """When (monotonic) the pause on ends by itself; None: no pause."""
        self._timer: asyncio.Task[None] | None = None
        self._alarm: asyncio.TimerHandle | None = None
        """The armed timer (a loop callback: re-arming on every action costs no task); it starts ``_timer``."""

    # ------------------------------------------------------------------ clocks
    @property
    def length_s(self) -> float:
        """How long (real seconds) a seat's turn clock runs: the room's ``clock_s``, scaled by the host's clock unit."""
        return self.room.clock_s * self.room.host.clock_unit_s

    def reset(self) -> None:
        """Every awaited seat's clock starts again (a match starts or is rebuilt, a pause ends)."""
        run = self.room.match
        if run is None:
            return
        run.turn_started.clear()
        run.deadlines.clear()
        self.start(set(run.game.awaiting(run.state)))

    def start(self, seats: set[int]) -> None:
        """The clocks of ``seats`` start now (stopped while paused)."""
        run = self.room.match
        if run is None or run.over:
            return
        now, now_ms = time.monotonic(), logs.now_ms()
        for seat in seats:
            run.turn_started[seat] = now
            if self.until is not None:
                run.deadlines.pop(seat, None)
            else:
                run.deadlines[seat] = now_ms + round(self.length_s * 1000)

    # ------------------------------------------------------------------ pause
    def pause_json(self) -> dict[str, Any]:
        """The ``room`` message's ``pause`` while a match is on."""
        return {
            "votes": sorted(self.votes),
            "needed": len(pause_voters(self.room.match)) // 2 + 1,
            "until": int((time.time() + (self.until - time.monotonic())) * 1000) if self.until is not None else None,
        }

    def check_pause(self) -> None:
        """Pause when a majority of the voters votes for it, resume when it no longer does."""
        voters = pause_voters(self.room.match)
        self.votes &= voters
        majority = len(self.votes) > len(voters) / 2 if voters else False
        if majority and self.until is None:
            self.until = time.monotonic() + self.room.host.pause_limit_s
            if self.room.match is not None:
                self.room.match.deadlines.clear()
            logs.event("room.pause", room=self.room.id, votes=sorted(self.votes))
        elif not majority and self.until is not None:
            self.unpause()

    def unpause(self) -> None:
        self.until = None
        self.votes.clear()
        self.reset()
        logs.event("room.resume", room=self.room.id)

    def clear_pause(self) -> None:
        """No pause and no votes (a match starts or ends)."""
        self.votes.clear()
        self.until = None

    # ------------------------------------------------------------------ the timer
    def bot_turn_due(self, run: MatchRun, seat: int) -> tuple[float, ActionSource] | None:
        """When (monotonic) and why a bot plays ``seat``'s turn."""
        host = self.room.host
        occ = run.seats[seat] if seat < len(run.seats) else MatchSeat(None, DEFAULT_LEVEL)
        now = time.monotonic()
        if occ.bot or occ.left or seat in run.game.stand_in_seats(run.state):
            return now + host.bot_delay_s, ActionSource.BOT
        started = run.turn_started.get(seat, now)
        pid = occ.player_id
        if pid not in self.room.connected_players():
            since = self.room.disconnected_at.get(pid or "", started)
            return max(now + host.bot_delay_s, since + host.disconnect_grace_s), ActionSource.ABSENT
        if seat in run.covering:  # its clock ran out: the bot finishes this seat's turn
            return now + host.bot_delay_s, ActionSource.CLOCK
        return started + self.length_s, ActionSource.CLOCK

    def schedule(self) -> None:
        """(Re)arm the room's one timer: the next bot turn, clock run-out or pause end."""
        if self._alarm is not None:
            self._alarm.cancel()
            self._alarm = None
        if self._timer is not None and not self._timer.done() and self._timer is not asyncio.current_task():
            self._timer.cancel()
        self._timer = None
        run = self.room.match
        if self.until is not None:
            self._arm(self.until, None, None)
            return
        if run is None or run.over:
            return
        best: tuple[float, int, ActionSource] | None = None
        for seat in sorted(run.game.awaiting(run.state)):
            due = self.bot_turn_due(run, seat)
            if due is not None and (best is None or due[0] < best[0]):
                best = (due[0], seat, due[1])
        if best is not None:
            self._arm(best[0], best[1], best[2])

    def _arm(self, at: float, seat: int | None, reason: ActionSource | None) -> None:
        """Wake at ``at`` (monotonic): a bot plays ``seat`` (for ``reason``), or (no seat) the pause ends."""
        loop = asyncio.get_running_loop()
        self._alarm = loop.call_later(max(0.0, at - time.monotonic()), self._ring, at, seat, reason)

    def _ring(self, at: float, seat: int | None, reason: ActionSource | None) -> None:
        self._alarm = None
        self._timer = asyncio.create_task(self._wake(at, seat, reason))

    async def _wake(self, at: float, seat: int | None, reason: ActionSource | None) -> None:
        room = self.room
        try:
            await asyncio.sleep(max(0.0, at - time.monotonic()))
            if seat is None or reason is None:
                async with room.lock:
                    if self.until is not None and time.monotonic() >= self.until - 0.01:
                        self.unpause()
                        room.send_room()
                        room.send_state([])
                        self.schedule()
                return
            await room.bot_play(seat, reason)
        except asyncio.CancelledError:
            raise
        except Exception as err:  # never let a timer die silently
            logs.error("room.timer_failed", err, room=room.id, seat=seat, reason=reason)

    def close(self) -> None:
        """Stop the timer for good (the room is closed or moves to another node)."""
        if self._alarm is not None:
            self._alarm.cancel()
            self._alarm = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
