"""The match driver: a room's match from its start to its end, in the order every action takes.

Starting a match, a client's action checked in the protocol's fixed order (``act``), a bot's turn (``bot_play``),
and the one path each accepted action goes through (``apply``): apply through the engine, store (awaited, fenced),
count it (``MatchRun.advance``: versions and the clocks that start), then send each connection its own view, a
secret action to its seat alone. ``finish`` records the end; ``restore`` rebuilds a match from the store by the same
counting. Every function here is called with the room's lock held, except ``bot_play``, which takes it (the bot
thinks without it).
"""

from __future__ import annotations

import secrets
import time
from typing import TYPE_CHECKING, Any

from sefode.bots.base import Player
from sefode.bots.players import make_player, player_kinds
from sefode.engine import PLATFORM_ACTIONS, Capability, EngineError, Game, apply_entry, get_game
from sefode.history import replay_actions
from sefode.server import logs, metrics, rematch, seating, startpoint
from sefode.server.matchrun import MatchRun, with_played_for
from sefode.server.messages import ClientError
from sefode.server.present import seed_hash
from sefode.server.record import DEFAULT_LEVEL, ActionSource, MatchSeat, RoomSeat, match_seats, seats_json
from sefode.server.startpoint import StartPoint
from sefode.store.db import FencedOut

if TYPE_CHECKING:
    from sefode.server.room import Room


def _new_run(
    game: Game[Any],
    state: Any,
    *,
    id: str,
    number: int,
    seed: int,
    options: dict[str, Any],
    setup: dict[str, Any],
    seats: list[MatchSeat],
) -> MatchRun:
    """A match at its first action: nobody has acted, the seats the game awaits are awaited."""
    run = MatchRun(id=id, number=number, game=game, state=state, seed=seed, options=options, setup=setup, seats=seats)
    run.awaiting = game.awaiting(state)
    run.seen = [0] * game.seats(state)
    run.own = [0] * game.seats(state)
    return run


def restore(room: Room, stored: Any) -> None:
    """Rebuild the room's match by replaying its stored actions through the engine."""
    game = get_game(stored.game)
    state = game.new_match(stored.options, stored.seed, stored.setup)
    run = _new_run(
        game,
        state,
        id=stored.id,
        number=stored.number,
        seed=stored.seed,
        options=stored.options,
        setup=stored.setup,
        seats=match_seats(stored.seats),
    )
    sources = [source for _seat, _entry, source in stored.actions]
    entries = [(seat, entry) for seat, entry, _source in stored.actions]
    for index, (seat, events) in enumerate(replay_actions(game, state, entries)):
        secret = run.secret(seat, events)
        if not secret:
            run.record(with_played_for(events, seat, sources[index]))
        run.advance(seat, secret)
    room.match = run
    room.clock.reset()


async def start(room: Room, start: StartPoint | None = None) -> None:
    """Start the room's next match (``start``: a test's start point, ``sefode.server.startpoint``)."""
    seating.require_between(room)
    for occupant in [s.player_id for s in room.seats if s.player_id]:
        await seating.unseat_refused(room, occupant)
    game = get_game(room.game_name)
    options = dict(room.options)
    if game.spec.seats_option is not None:
        options[game.spec.seats_option] = len(room.seats)
    seed = secrets.randbits(63) if start is None else start.seed
    try:
        state = game.new_match(options, seed, seating.match_seat_setups(room, game, options, seed))
    except EngineError as err:
        raise ClientError(err.code, str(err)) from None
    occupants = [MatchSeat(s.player_id) if s.player_id else MatchSeat(None, s.bot or DEFAULT_LEVEL) for s in room.seats]
    match_id = secrets.token_hex(8)
    setup = game.history_setup(state)
    number = room.match_count + 1
    run = _new_run(
        game, state, id=match_id, number=number, seed=seed, options=game.options(state), setup=setup, seats=occupants
    )
    played = startpoint.play_into(run, start) if start is not None else []
    host = room.host
    await host.create_match(room.id, match_id, number, game.name, run.options, seed, setup, occupants)
    if played:
        await host.store_actions(room.id, match_id, played, ActionSource.START)
    room.match_count += 1
    room.current_match = match_id
    room.rematch = None
    await room.save()  # when storing fails, the room goes back to what the store holds: no match starts
    room.match = run
    room.clock.clear_pause()
    room.clock.reset()
    metrics.MATCHES_STARTED.labels(game.name).inc()
    logs.event(
        "match.start",
        room=room.id,
        match=match_id,
        seed_hash=seed_hash(seed),
        seats=seats_json(occupants),
        **({"start_actions": len(played)} if start is not None else {}),
    )
    room.send_room()
    room.send_state([])
    room.clock.schedule()


async def act(room: Room, player_id: str, message: dict[str, Any], version: int) -> None:
    """A client's action, checked in the protocol's fixed order."""
    run = room.match
    if run is None or run.over:
        raise ClientError("room/no_match", "no match is on in this room")
    seat = run.seat_of(player_id)
    joining = seat is None and message.get("join") is True and len(message) == 1
    if seat is None and not joining:
        raise ClientError("room/not_seated", "you have no seat in this match; spectators cannot act")
    if room.paused:
        raise ClientError("room/paused", "the match is paused")
    if seat in run.covering:
        raise ClientError("action/not_your_turn", "your clock ran out: the table plays this turn for you")
    current = run.version_for(seat)
    if version != current:
        raise ClientError("action/stale_state", f"this action was made against version {version}; it is now {current}")
    game = run.game
    platform = platform_key(message)
    if platform is not None:
        needed = {"leave": Capability.FORFEIT, "join": Capability.JOIN, "show": Capability.SHOW_HAND}[platform]
        if needed not in game.spec.capabilities:
            what = {"leave": "leaving with a forfeit", "join": "late players", "show": "showing a hand"}
            raise ClientError(f"action/no_{platform}", f"this game has no {what[platform]}")
    if joining:
        if any(s.player_id == player_id for s in run.seats):
            raise ClientError("action/already_left", "you left this match for good")
        await room.admit(player_id)
        seat = game.seats(run.state)
    assert seat is not None
    if platform is not None:
        await apply(room, seat, {platform: True}, ActionSource.HUMAN, player_id if joining else None)
        return
    try:
        action = game.parse_action(run.state, seat, message)
    except EngineError as err:
        raise ClientError(err.code, str(err)) from None
    # Turn actions of a seat that is not awaited are refused by the engine as action/not_your_turn.
    await apply(room, seat, action, ActionSource.HUMAN)


def _seat_late_joiner(room: Room, run: MatchRun, joiner: str | None) -> None:
    """The game added a seat (a late player, or the table's bot): the match's seats, and the room's for the next."""
    game = run.game
    run.seats.append(MatchSeat(joiner) if joiner else MatchSeat(None, DEFAULT_LEVEL))
    if joiner is not None and room.config_seat_of(joiner) is None and len(room.seats) < game.spec.max_seats:
        room.seats.append(RoomSeat(joiner))
        if game.spec.seats_option is not None:
            room.options = {**room.options, game.spec.seats_option: len(room.seats)}


async def apply(
    room: Room, seat: int, action: int | dict[str, Any], source: ActionSource, joiner: str | None = None
) -> None:
    """Apply, store, broadcast. The caller holds the lock; engine errors become ClientErrors.

    ``action`` is a game action, or a platform action in its JSON form (``{"leave": true}``...)."""
    run = room.match
    assert run is not None
    game = run.game
    began = time.perf_counter()
    before = game.seats(run.state)
    try:
        if isinstance(action, dict):
            label = next(iter(action))
            events = apply_entry(game, run.state, seat, action)
            entry = dict(action)
        else:
            label = _label(game, run.state, seat, action)
            events = game.apply(run.state, seat, action)
            entry = game.action_json(run.state, action)
    except EngineError as err:
        raise ClientError(err.code, str(err)) from None
    secret = run.secret(seat, events)
    events = with_played_for(events, seat, source)
    seats_changed = False
    if game.seats(run.state) > before:
        _seat_late_joiner(room, run, joiner)
        seats_changed = True
    if seat < len(run.seats) and seat in game.stand_in_seats(run.state) and not run.seats[seat].left:
        run.seats[seat].left = True
        seats_changed = True
    outcome = run.final(run.stored + 1)  # the game's, or the guard's once this action reaches the longest match
    placements = list(outcome.placements) if outcome is not None else None
    host = room.host
    try:
        await host.store_action(
            room.id,
            run.id,
            run.stored,
            seat,
            entry,
            source,
            run.seats if seats_changed else None,
            outcome.to_json() if outcome is not None else None,
        )
    except FencedOut:  # our lease ran out (paused, partitioned): another node owns the room now
        await host.fenced_out(room.id)
        raise ClientError("server/moved", "this room moved to another server; joining it there") from None
    except Exception as err:
        logs.error("store.action_failed", err, room=room.id, match=run.id, version=run.stored)
        await reload(room)
        raise ClientError("server/error", "the action could not be stored; the match was reloaded") from None
    if not secret:
        run.record(events)
    room.clock.start(run.advance(seat, secret))
    logs.event("match.action", room=room.id, match=run.id, version=run.stored, seat=seat, source=source, action=label)
    if seats_changed:
        await room.save()
        room.send_room()
    if secret:
        room.send_seat_state(seat, events)
    else:
        room.send_state(events)
    metrics.ACTIONS.labels(game.name, source.value).inc()
    metrics.ACTION_UPDATE.labels(game.name).observe(time.perf_counter() - began)
    if placements is not None:
        metrics.MATCHES_ENDED.labels(game.name).inc()
        await finish(room, run, placements)
    room.clock.schedule()


async def finish(room: Room, run: MatchRun, placements: list[int]) -> None:
    """The match ended: awards, the room's ``last_match``, the rematch vote, stored, then ``match_end`` to all."""
    try:
        await room.host.match_ended(run.id)  # medals, tournaments (issue 5)
    except Exception as err:  # awarding must never stop a match from ending (Hub.open recovers it later)
        logs.error("match.awarding_failed", err, room=room.id, match=run.id)
    url = f"/api/matches/{run.id}/history"
    final = run.final()
    outcome = final.to_json() if final is not None else None
    no_winner = bool(final and final.no_winner)
    guard = run.guard()
    if guard is not None:
        logs.event("match.guard", room=room.id, match=run.id, reason=guard)
    room.last_match = {
        "id": run.id,
        "number": run.number,
        "placements": placements,
        "no_winner": no_winner,
        "outcome": outcome,
        "history_url": url,
    }
    room.current_match = None
    room.clock.clear_pause()
    await rematch.offer(room, run)
    await room.save()
    logs.event("match.end", room=room.id, match=run.id, placements=placements, no_winner=no_winner)
    room.broadcast(
        {
            "type": "match_end",
            "match_id": run.id,
            "placements": placements,
            "no_winner": no_winner,
            "outcome": outcome,
            "history_url": url,
        }
    )
    room.send_room()


async def reload(room: Room) -> None:
    """Rebuild the match on from the store (an action could not be stored) and send everyone the state again."""
    run = room.match
    if run is None:
        return
    stored = await room.host.load_match(run.id)
    if stored is not None:
        restore(room, stored)
        room.send_state([])


def _player_for(room: Room, run: MatchRun, seat: int) -> Player:
    level = (run.seats[seat].bot if seat < len(run.seats) else None) or DEFAULT_LEVEL
    key = (seat, level)
    if key not in run.bots:
        kind = level.value if level in player_kinds() else "random"
        run.bots[key] = make_player(kind, secrets.randbits(32), room.host.bot_think_ms)
    return run.bots[key]


async def bot_play(room: Room, seat: int, reason: ActionSource) -> None:
    """The table's bot plays ``seat``'s turn (a bot seat, a clock ran out, a player is away): it decides on a copy
    of the match without the lock, and its action is applied only if the match has not moved meanwhile."""
    async with room.lock:
        run = room.match
        if run is None or run.over or room.paused or seat not in run.game.awaiting(run.state):
            return
        if reason is ActionSource.CLOCK:
            run.covering.add(seat)
        version = run.stored
        player = _player_for(room, run, seat)
        state = run.game.clone(run.state)
    try:
        with metrics.BOT_DECISION.labels(run.game.name, player.kind).time():
            action = await room.host.decide(player, run.game, state, seat)
    except Exception as err:  # a broken bot must not stall the table: play the first legal action
        logs.error("bot.failed", err, room=room.id, match=run.id, seat=seat, kind=player.kind)
        legal = run.game.legal_actions(state, seat)
        if not legal:
            return
        action = legal[0]
    async with room.lock:
        if room.match is not run or run.stored != version or room.paused:
            room.clock.schedule()
            return
        try:
            await apply(room, seat, action, reason)
        except ClientError as err:
            logs.error("bot.illegal", None, room=room.id, seat=seat, code=err.code, cause=err.message)
            fallback = run.game.legal_actions(run.state, seat)
            if fallback and run.stored == version:
                await apply(room, seat, fallback[0], reason)


def platform_key(message: dict[str, Any]) -> str | None:
    """``"leave"``, ``"join"`` or ``"show"`` when ``message`` is that platform action, else None."""
    keys = [k for k in message if k != "seat"]
    if len(keys) == 1 and keys[0] in PLATFORM_ACTIONS and message[keys[0]] is True:
        return str(keys[0])
    return None


def _label(game: Game[Any], state: Any, seat: int, action: int) -> str:
    """The action's readable label for the logs; never fails (the engine has not checked the action yet)."""
    try:
        return str(game.describe_action(state, seat, action).get("text", ""))
    except Exception:
        return str(action)
