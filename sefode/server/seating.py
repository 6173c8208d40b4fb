"""Seating: who holds a room's seats between matches, and the one admission check every path that seats someone
goes through.

``admit`` is that check (``sit``, a late join, a seat the owner sets, a reconnection, the start of a match);
``unseat_refused`` frees a seat it would refuse now. The owner sets bots and teams; each seated player may make a
secret choice for the next match (``set_seat_setup``). Every function here is called with the room's lock held; each
one that changes the room stores it and sends the ``room`` message.
"""

from __future__ import annotations

import dataclasses
import random
import secrets
import time
from typing import TYPE_CHECKING, Any

from sefode.engine import Capability, EngineError, Game, get_game
from sefode.server import logs, rematch
from sefode.server.messages import ClientError
from sefode.server.present import planned_units
from sefode.server.record import BotLevel, RoomSeat

if TYPE_CHECKING:
    from sefode.server.placement import Peer
    from sefode.server.room import Room


def seat_setups(game: Game[Any], options: dict[str, Any], seed: int, chosen: list[Any]) -> dict[str, Any] | None:
    """A match's ``setup["seat_setup"]``: each seat's secret choice (``chosen``, None: none), or the game's default."""
    if Capability.SEAT_SETUP not in game.spec.capabilities:
        return None
    chooser = random.Random(seed)
    return {
        "seat_setup": [
            choice if choice is not None else game.default_seat_setup(options, i, chooser)
            for i, choice in enumerate(chosen)
        ]
    }


def match_seat_setups(room: Room, game: Game[Any], options: dict[str, Any], seed: int) -> dict[str, Any] | None:
    """The next match's ``setup["seat_setup"]``: each seat's secret choice, or the game's default for it."""
    chosen = [room.seat_setup.get(s.player_id, None) if s.player_id else None for s in room.seats]
    return seat_setups(game, options, seed, chosen)


def require_owner(room: Room, player_id: str) -> None:
    if player_id != room.owner:
        raise ClientError("room/not_owner", "only the room's owner may do this")


def require_between(room: Room) -> None:
    if room.playing:
        raise ClientError("room/match_on", "a match is on; this can change between matches")


def _seat_index(room: Room, seat: int) -> int:
    if not 0 <= seat < len(room.seats):
        raise ClientError("room/bad_seat", f"this room has seats 0 to {len(room.seats) - 1}, not {seat}")
    return seat


# ---------------------------------------------------------------------- admission
async def admit(room: Room, player_id: str | None) -> None:
    """The one admission check of every path that seats someone: ``sit``, a late join, a seat the owner sets
    (``None``: the table's own bot), a reconnection and the start of a match (see ``unseat_refused``).

    A person and the table's own bots sit anywhere; a bot account (``sefode.accounts.bots``, looked up in the
    store the first time: not only this node's cache) only where the owner lets outside bots sit."""
    if player_id is None:
        return
    room.refuse_blocked(player_id)
    if room.outside_bots:
        return
    if await room.host.is_bot_account(player_id):
        raise ClientError("room/no_bots", "the owner of this room does not let outside bots sit")


async def unseat_refused(room: Room, player_id: str) -> bool:
    """A reconnection, or the start of a match: a player holding a seat the admission check refuses (a bot account
    seated by a path that was not checked before, kept in a stored room) loses it: the room's seat is freed, and
    in the match on the table's bot plays the seat from now on. True when something changed (stored already)."""
    held = room.config_seat_of(player_id)
    run = room.match if room.playing else None
    in_match = run.seat_of(player_id) if run is not None else None
    if held is None and in_match is None:
        return False
    try:
        await admit(room, player_id)
    except ClientError:
        pass
    else:
        return False
    if held is not None:
        room.seats[held] = RoomSeat()
        await room.save()
    if run is not None and in_match is not None:
        run.seats[in_match].left = True
        await room.host.store_match_seats(room.id, run.id, run.seats)
    logs.warning("room.unseated", room=room.id, player=player_id, seat=held, match_seat=in_match)
    return True


async def turn_away(room: Room, player_id: str, code: str, message: str) -> None:
    """``Room.turn_away``'s work: the player's connections leave, and their seat is freed between matches."""
    kicked = code == "room/kicked" and player_id not in room.kicked
    if kicked:
        room.kicked.append(player_id)
    gone = [conn for conn in room.conns if conn.player_id == player_id]
    for conn in gone:
        room.conns.discard(conn)
        conn.room = None
        conn.error(code, message)
    if gone:
        room.disconnected_at[player_id] = time.monotonic()
        room.clock.votes.discard(player_id)
    held = room.config_seat_of(player_id)
    if held is not None and not room.playing:
        room.seats[held] = RoomSeat()
        rematch.seat_lost(room, player_id)
        await room.save()
    elif kicked:
        await room.save()
    if gone or held is not None:
        logs.event("room.turned_away", room=room.id, player=player_id, seat=held)
        room.send_room()
        room.clock.schedule()


# ---------------------------------------------------------------------- seats (between matches)
async def sit(room: Room, player_id: str, seat: int) -> None:
    i = _seat_index(room, seat)
    target = room.seats[i]
    if target.player_id == player_id:
        return
    if target.taken:
        raise ClientError("room/seat_taken", f"seat {i} is taken")
    await admit(room, player_id)
    if room.playing and room.match is not None and room.match.seat_of(player_id) is not None:
        raise ClientError("room/match_on", "you are playing this match; use leave to forfeit")
    old = room.config_seat_of(player_id)
    if old is not None:
        room.seats[old] = RoomSeat()
    room.seats[i] = RoomSeat(player_id)
    await room.save()
    logs.event("room.sit", room=room.id, player=player_id, seat=i, during_match=room.playing)
    room.send_room()


async def _tell_emptied(room: Room) -> None:
    """A human left a seat: the room's tournament learns whether any human is left (``room_emptied``)."""
    try:
        await room.host.room_emptied(room.id, room.seats)  # no human left
    except Exception as err:
        logs.error("room.emptied_failed", err, room=room.id)


async def stand(room: Room, player_id: str) -> None:
    require_between(room)
    old = room.config_seat_of(player_id)
    if old is None:
        raise ClientError("room/not_seated", "you are not seated in this room")
    room.seats[old] = RoomSeat()
    rematch.seat_lost(room, player_id)
    await room.save()
    await _tell_emptied(room)
    logs.event("room.stand", room=room.id, player=player_id, seat=old)
    room.send_room()


async def set_seat(room: Room, player_id: str, seat: int, bot: str | None) -> None:
    """The owner puts the table's bot of level ``bot`` at ``seat`` (a level the message checked), or frees it."""
    require_owner(room, player_id)
    require_between(room)
    i = _seat_index(room, seat)
    await admit(room, None)  # the owner seats the table's own bot
    had = room.seats[i].player_id
    room.seats[i] = RoomSeat(None, BotLevel(bot) if bot is not None else None)
    if had is not None:
        rematch.seat_lost(room, had)
    await room.save()
    if had is not None:
        await _tell_emptied(room)
    logs.event("room.set_seat", room=room.id, seat=i, bot=bot)
    room.send_room()


async def set_teams(
    room: Room, player_id: str, draw: bool | None, pairs: list[list[int]] | None, teams: list[dict[str, Any]] | None
) -> None:
    require_owner(room, player_id)
    require_between(room)
    if room.teams is None:
        raise ClientError("room/no_teams", "this room is not played in pairs")
    n = len(room.seats)
    layout = planned_units(room)
    units = len(layout)
    if pairs is not None:
        flat = [s for pair in pairs for s in pair]
        if len(pairs) != units or sorted(flat) != list(range(n)) or [len(p) for p in pairs] != [len(u) for u in layout]:
            raise ClientError("message/invalid", f"'pairs' must name every seat 0 to {n - 1} exactly once")
        old = [dataclasses.replace(s) for s in room.seats]
        for unit, members in zip(layout, pairs, strict=True):
            for target, source in zip(unit, members, strict=True):
                room.seats[target] = old[source]
    elif draw:
        order = list(range(n))
        secrets.SystemRandom().shuffle(order)
        old = [dataclasses.replace(s) for s in room.seats]
        room.seats = [old[k] for k in order]
    if teams is not None:
        for p, team in enumerate(teams[:units]):
            room.teams[p] = {**room.teams[p], **team}
    await room.save()
    logs.event("room.set_teams", room=room.id, draw=bool(draw), pairs=pairs)
    room.send_room()


async def set_seat_setup(room: Room, conn: Peer, value: Any) -> None:
    """A seated player's secret choice for the next match (a deck): checked by the game, kept with the room,
    confirmed to that player alone; the others learn only that the seat has chosen."""
    game = get_game(room.game_name)
    if Capability.SEAT_SETUP not in game.spec.capabilities:
        raise ClientError("setup/not_offered", "this game takes no choice before the match")
    require_between(room)
    if room.config_seat_of(conn.player_id) is None:
        raise ClientError("room/not_seated", "sit first: the choice is made for your seat")
    try:
        normal = game.check_seat_setup(room.options, value)
    except EngineError as err:
        raise ClientError(err.code, str(err)) from None
    room.seat_setup[conn.player_id] = normal
    await room.save()
    for other in list(room.conns):
        if other.player_id == conn.player_id:
            other.send({"type": "seat_setup", "value": normal})
    room.send_room()
