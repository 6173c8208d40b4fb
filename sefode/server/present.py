"""Pure presenters: the ``state`` message of a seat (or the spectators), from a match and nothing else; the ``room``
message and the room's lobby entries, from a room, its players' names and which of them are bot accounts."""

from __future__ import annotations

import hashlib
from collections.abc import Container, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sefode.engine import Capability, get_game
from sefode.server import rematch
from sefode.server.matchrun import MatchRun
from sefode.server.record import MatchSeat, RoomSeat

if TYPE_CHECKING:
    from sefode.server.room import Room


@dataclass(frozen=True, slots=True)
class Common:
    """What every seat's ``state`` shares."""

    awaiting: list[int]
    deadlines: dict[str, int]
    """The time left on each awaited seat's clock, ms, by seat (as a string: a JSON object's key)."""
    earliest: int | None
    over: bool
    """The game's say (``Game.is_over``): the server and the shell read no view for it."""
    seat_status: list[str]
    """``Game.seat_status``, one per seat: playing, out or left."""


def state_common(run: MatchRun, now_ms: int) -> Common:
    """What every seat's ``state`` shares: the awaited seats, the clocks, the earliest deadline, whether the match
    is over and each seat's standing. The clocks go as the time left on each at ``now_ms`` (the server's epoch ms
    when the messages are made), in ms: a client counts down from when the message came, on its own clock, however
    wrong that clock is (docs/protocol.md)."""
    deadlines = {str(s): max(0, ms - now_ms) for s, ms in sorted(run.deadlines.items())}
    guarded = run.guard() is not None  # the guard against endless play ended it: nobody is awaited any more
    return Common(
        [] if guarded else sorted(run.game.awaiting(run.state)),
        deadlines,
        min(deadlines.values(), default=None),
        guarded or run.game.is_over(run.state),
        [str(x) for x in run.game.seat_status(run.state)],
    )


def state_message(
    run: MatchRun, seat: int | None, events: list[dict[str, Any]], common: Common, view: Any = None
) -> dict[str, Any]:
    """The ``state`` message of one seat (None: the spectators), see docs/protocol.md; ``view`` when it is built
    already (``Game.views``)."""
    awaiting = common.awaiting
    game = run.game
    state = run.state
    legal: list[dict[str, Any]] = []
    if seat is not None and seat in awaiting:
        legal = [
            {"action": game.action_json(state, a), "label": game.describe_action(state, seat, a)}
            for a in game.legal_actions(state, seat)
        ]
    own = common.deadlines.get(str(seat)) if seat is not None else None
    return {
        "type": "state",
        "match_id": run.id,
        "version": run.version_for(seat),
        "seat": seat,
        "view": game.view(state, seat) if view is None else view,
        "events": events,
        "deadline": own if own is not None else common.earliest,
        "deadlines": common.deadlines,
        "awaiting": awaiting,
        "legal": legal,
        "over": common.over,
        "seat_status": common.seat_status,
    }


def past_message(run: MatchRun, seat: int | None) -> dict[str, Any]:
    """The ``past`` message of one seat (None: the spectators): the match's past as that seat may see it
    (``Game.past``, null for a game that keeps none out of its views), with the seat's version it was made at."""
    return {
        "type": "past",
        "match_id": run.id,
        "seat": seat,
        "version": run.version_for(seat),
        "past": run.game.past(run.state, seat),
    }


# ---------------------------------------------------------------------- the room, the lobby
def seed_hash(seed: int) -> str:
    return hashlib.sha256(str(seed).encode()).hexdigest()


def planned_units(room: Room) -> tuple[tuple[int, ...], ...]:
    """The pairs or teams of the room's next match, from its options (empty: every seat alone)."""
    game = get_game(room.game_name)
    options = dict(room.options)
    if game.spec.seats_option is not None:
        options[game.spec.seats_option] = len(room.seats)
    return game.planned_units(options)


def summary(room: Room, bot_players: Container[str]) -> dict[str, Any]:
    """The room's line in the lobby."""
    taken = sum(1 for s in room.seats if s.taken)
    bots = sum(1 for s in room.seats if s.bot or (s.player_id is not None and s.player_id in bot_players))
    return {
        "id": room.id,
        "name": room.name,
        "game": room.game_name,
        "variant": room.options.get("variant"),
        "options": room.options,
        "seats": len(room.seats),
        "seats_taken": taken,
        "bots": bots,
        "playing": room.playing,
        "visibility": room.visibility,
        "spectators": len(room.watchers()),
        "connected": len(room.connected_players()),
    }


def seat_list(room: Room, names: Mapping[str, str], bot_players: Container[str]) -> list[dict[str, Any]]:
    """Who holds each seat, for a visitor's preview of the table (no player ids): a player's name, a bot's level
    (``bot``), or neither (a free seat)."""
    out: list[dict[str, Any]] = []
    for i, s in enumerate(room.seats):
        pid = s.player_id
        out.append(
            {
                "seat": i,
                "name": names.get(pid) if pid else None,
                "bot": s.bot,
                "bot_account": pid in bot_players if pid else False,
            }
        )
    return out


def seat_json(
    i: int, s: RoomSeat | MatchSeat, connected: set[str], names: Mapping[str, str], bot_players: Container[str]
) -> dict[str, Any]:
    pid = s.player_id
    return {
        "seat": i,
        "player_id": pid,
        "name": names.get(pid) if pid else None,
        "bot": s.bot,
        "bot_account": pid in bot_players if pid else False,
        "connected": pid in connected if pid else True,
    }


def setup_json(room: Room) -> dict[str, Any] | None:
    """What everyone may know of the seats' secret choices: the ready-made ones, and who has chosen."""
    game = get_game(room.game_name)
    if Capability.SEAT_SETUP not in game.spec.capabilities:
        return None
    return {
        "choices": game.seat_setup_choices(room.options),
        "ready": [bool(s.player_id) and s.player_id in room.seat_setup for s in room.seats],
    }


def room_json(room: Room, player_id: str, names: Mapping[str, str], bot_players: Container[str]) -> dict[str, Any]:
    """The ``room`` message's ``room`` for ``player_id`` (docs/protocol.md)."""
    connected = room.connected_players()
    match_json = None
    if room.match is not None and room.playing:
        mseats = []
        for i, s in enumerate(room.match.seats):
            entry = seat_json(i, s, connected, names, bot_players)
            entry["left"] = s.left
            mseats.append(entry)
        match_json = {
            "id": room.match.id,
            "number": room.match.number,
            "seed_hash": seed_hash(room.match.seed),
            "seats": mseats,
        }
    teams = None
    if room.teams is not None:
        units = planned_units(room)
        teams = [{**t, "seats": list(units[p])} for p, t in enumerate(room.teams[: len(units)])]
    your_seat = room.view_seat(player_id) if room.playing else None
    if your_seat is None:
        your_seat = room.config_seat_of(player_id)
    return {
        "id": room.id,
        "name": room.name,
        "game": room.game_name,
        "options": room.options,
        "visibility": room.visibility,
        "invite_token": room.invite_token,  # whoever is in the room already got in: they may share the link
        "owner": room.owner,
        "you": player_id,
        "your_seat": your_seat,
        "clock_s": room.clock_s,
        "outside_bots": room.outside_bots,
        "status": room.status(),
        "seats": [seat_json(i, s, connected, names, bot_players) for i, s in enumerate(room.seats)],
        "match": match_json,
        "teams": teams,
        "pause": room.clock.pause_json() if room.playing else None,
        "spectators": len(room.watchers()),
        "last_match": room.last_match,
        "setup": setup_json(room),
        "rematch": rematch.room_json(room),
    }
