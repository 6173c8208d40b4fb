"""Reactions: a seated player shows one of a fixed set of reactions (an emoji or a short table phrase) at their seat.

The message carries only the reaction's id; each client draws it from its catalogues (``reaction.<id>``), so nothing
a player writes travels this way. Reactions are not stored: they are for the moment. They are rate-limited per player
(``sefode.server.limits``, ``reactions_*``) on top of the limit every message has.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sefode.server import logs
from sefode.server.messages import ClientError

if TYPE_CHECKING:
    from sefode.server.limits import Limiter
    from sefode.server.room import Room

REACTIONS = ("sefodeu", "boa", "gg", "anda", "ops", "laugh", "clap", "wow", "cry", "fire")
"""The fixed set, in the order the picker shows them (``static/js/reactions.js`` holds the same ids)."""


def check(reaction: str) -> str:
    if reaction not in REACTIONS:
        raise ClientError("reaction/unknown", f"unknown reaction {reaction!r}; known: {', '.join(REACTIONS)}")
    return reaction


def seat_of(room: Room, player_id: str) -> int | None:
    """Where the player's reaction shows: their seat in the match on, else their seat in the room."""
    if room.playing and room.match is not None:
        return room.match.seat_of(player_id)
    return room.config_seat_of(player_id)


async def react(room: Room, player_id: str, reaction: str, limiter: Limiter) -> None:
    """Check a reaction (known, from a seated player, within the player's rate) and send it to the room."""
    check(reaction)
    room.host.refuse_muted(player_id)
    async with room.lock:
        seat = seat_of(room, player_id)
        if seat is None:
            raise ClientError("room/not_seated", "only seated players may react")
        limiter.reaction(player_id)
        logs.event("room.reaction", room=room.id, player=player_id, seat=seat, reaction=reaction)
        # not to players who blocked the sender (``Room.broadcast_from``)
        room.broadcast_from(player_id, {"type": "reaction", "seat": seat, "player_id": player_id, "reaction": reaction})
