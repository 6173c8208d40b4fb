"""Rematch: the humans of a match that just ended vote to play the next one at once, with the same seats.

When a match ends, ``offer`` writes the room's ``rematch`` record (``RoomRecord.rematch``, stored with the room, so a
vote in progress survives a restart): the ended match's id, its voters (the humans seated in it who still hold a seat
of the room; never a bot account), who accepted and who declined. ``vote`` takes a player's ``rematch`` message; when
every voter has accepted, the room starts its next match through the same path as the owner's ``start`` (same seats,
options and bots; the game deals and picks the first player as it does for any new match). A decline holds the
rematch back until that player accepts after all; the owner's manual ``start`` stays, and clears the vote. A room
playing a tournament (``sefode.awards.recording``) is offered no rematch: its tournament goes on by its own rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from sefode.awards.recording import room_tournament
from sefode.awards.tournament import TournamentStatus
from sefode.server import logs
from sefode.server.messages import ClientError

if TYPE_CHECKING:
    from sefode.server.matchrun import MatchRun
    from sefode.server.room import Room


def tournament_on(engine: sa.Engine, room_id: str) -> bool:
    """Whether the room's latest tournament is still being played (run in the store's thread)."""
    with engine.connect() as conn:
        row = room_tournament(conn, room_id)
    return row is not None and row["status"] == str(TournamentStatus.PLAYING)


async def offer(room: Room, run: MatchRun) -> None:
    """The rematch vote of ``run``, which just ended (the caller holds the room's lock and saves the room)."""
    try:
        tournament = await room.host.tournament_on(room.id)
    except Exception as err:  # a rematch offered by mistake is refused by nothing worse than the tournament's rules
        logs.error("rematch.tournament_lookup_failed", err, room=room.id)
        tournament = False
    seated = {s.player_id for s in room.seats if s.player_id}
    voters = [pid for s in run.seats if (pid := s.player_id) and pid in seated and pid not in room.host.bot_players]
    room.rematch = {
        "match": run.id,
        "voters": list(dict.fromkeys(voters)),
        "accepted": [],
        "declined": [],
        "tournament": tournament,
    }


def room_json(room: Room) -> dict[str, Any] | None:
    """The ``room`` message's ``rematch``: null unless a rematch is offered now."""
    record = room.rematch
    if record is None or record.get("tournament") or room.playing:
        return None
    return {
        "match": record["match"],
        "voters": list(record["voters"]),
        "accepted": list(record["accepted"]),
        "declined": list(record["declined"]),
    }


def seat_lost(room: Room, player_id: str) -> None:
    """A voter gave up their seat (stood up, or the owner put a bot there): they count as declining."""
    record = room.rematch
    if record is None or player_id not in record["voters"]:
        return
    record["accepted"] = [p for p in record["accepted"] if p != player_id]
    if player_id not in record["declined"]:
        record["declined"] = [*record["declined"], player_id]


def _check(room: Room, player_id: str, match_id: str | None) -> dict[str, Any]:
    record = room.rematch
    if room.playing:
        raise ClientError("rematch/stale", "a match is on: this vote was for one that is over")
    if record is None:
        raise ClientError("rematch/stale", "no match has ended here to play again")
    if match_id is not None and match_id != record["match"]:
        raise ClientError("rematch/stale", "this vote was for another match")
    if record.get("tournament"):
        raise ClientError("rematch/tournament", "this room plays a tournament: its next match follows its own rules")
    if player_id not in record["voters"]:
        raise ClientError("rematch/not_allowed", "only the humans seated in the match that ended may vote")
    return record


async def vote(room: Room, player_id: str, accept: bool, match_id: str | None) -> None:
    """A player's ``rematch`` vote: stored and shown to everyone; the next match starts once every voter accepts.
    A repeated vote changes nothing (and sends nothing)."""
    async with room.lock:
        record = _check(room, player_id, match_id)
        mine, other = ("accepted", "declined") if accept else ("declined", "accepted")
        if player_id in record[mine]:
            return
        room.rematch = {
            **record,
            mine: [*record[mine], player_id],
            other: [p for p in record[other] if p != player_id],
        }
        await room.save()
        logs.event("room.rematch_vote", room=room.id, player=player_id, accept=accept, match=record["match"])
        room.send_room()
        if ready(room):
            logs.event("room.rematch", room=room.id, match=record["match"])
            await room.start_locked(None)


def ready(room: Room) -> bool:
    """Every voter accepted and still holds a seat of the room."""
    record = room.rematch
    if record is None or record.get("tournament") or not record["voters"]:
        return False
    seated = {s.player_id for s in room.seats if s.player_id}
    return all(p in record["accepted"] and p in seated for p in record["voters"])
