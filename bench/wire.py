"""Bytes on the wire per action, per game: full ``state`` messages against ``update`` messages (docs/protocol.md).

Usage::

    .venv/bin/python bench/wire.py [--matches 3] [--seed 1] [--clock] [--json] [--parts] [--time]

Plays seeded random matches of every game in-process, and sends each action's states to one connection per seat
(no spectator) exactly as a room does (``present.state_message`` and ``patches.Updates``, the same code), once to
connections that take full states and once to connections that take updates. Reports the mean bytes per action summed
over the seats (the payload: what the server writes), and the same streams as permessage-deflate with context
takeover would send them (the server does not negotiate it: ``ws_per_message_deflate=False``); ``--parts``: the
updates' bytes by key. Deterministic: no server, no clock counts. ``--clock``: every awaited seat has a turn clock,
as in a room with clocks (docs/protocol.md, ``deadlines``): a seat's clock starts when its turn does, 30 s from a
made-up time that moves 1.5 s per action.

``--time`` also times what the room's ``Updates.texts`` spends per action on these matches, for connections that
take full states and for connections that take updates (the same states, recorded once: the best of ``--repeat``
passes, CPU time of this process; the ratio is the figure to compare, the microseconds depend on the machine).
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import time
import zlib
from collections.abc import Callable
from typing import Any

import orjson

from sefode.engine import Game, get_game
from sefode.server.matchrun import MatchRun
from sefode.server.messages import encode
from sefode.server.patches import Updates
from sefode.server.present import state_common, state_message
from sefode.server.record import MatchSeat

GAMES: list[tuple[str, str, dict[str, Any]]] = [
    ("sefode", "fodinha", {"variant": "sefode", "players": 4}),
    ("sefodejunto", "fodinha", {"variant": "sefode", "players": 4, "teams": True}),
    ("7letras", "fodinha", {"variant": "7letras", "players": 4}),
    ("king", "king", {}),
    ("trash", "trash", {"players": 4}),
    ("guimenon", "guimenon", {}),
]


CLOCK_EPOCH_MS = 1_796_400_000_000
"""``--clock``'s made-up time at a match's start (epoch ms, December 2026: as many digits as a real deadline)."""
CLOCK_MS = 30_000
"""``--clock``: a turn's clock (the rooms' default ``clock_s``)."""
CLOCK_STEP_MS = 1_500
"""``--clock``: the time one action takes."""


class Link:
    def __init__(self, seat: int, updates: bool) -> None:
        self.seat = seat
        self.last_join: dict[str, Any] = {"type": "join", "room": "r", "updates": updates}
        self.deflate = zlib.compressobj(wbits=-15)
        """permessage-deflate (RFC 7692) with context takeover, as a browser would negotiate it."""

    def deflated(self, text: str) -> int:
        """The bytes of ``text`` compressed as permessage-deflate sends it (the flush's empty block cut off)."""
        return len(self.deflate.compress(text.encode()) + self.deflate.flush(zlib.Z_SYNC_FLUSH)) - 4


def parts_of(text: str, parts: dict[str, int]) -> None:
    """Add an update's bytes to ``parts``, by its keys (each member's bytes, its key and comma counted)."""
    message = json.loads(text)
    if message.get("type") != "update":
        return
    for key, value in message.items():
        name = key if key in ("events", "set", "ops", "legal") else "envelope"
        parts[name] = parts.get(name, 0) + len(orjson.dumps({key: value})) - 1
    parts["envelope"] = parts.get("envelope", 0) + 1


def play(
    game: Game[Any],
    options: dict[str, Any],
    seed: int,
    send: Callable[[MatchRun, list[dict[str, Any]], int | None, int], None],
    clock: bool = False,
) -> int:
    """Play one seeded random match, calling ``send(run, events, only, now_ms)`` at its start and after each action
    (``only``: the seat a secret action's state goes to alone, else None; ``now_ms``: the made-up time it is sent
    at); the number of actions. ``clock``: the
    awaited seats' turn clocks run, as ``Clock.start`` sets them (``run.deadlines``), on a made-up time."""
    rng = random.Random(seed)
    values = game.validate_options(options)
    state = game.new_match(values, seed)
    n = game.seats(state)
    run = MatchRun("m", 1, game, state, seed, values, {}, [MatchSeat() for _ in range(n)])
    run.awaiting = game.awaiting(state)
    now_ms = CLOCK_EPOCH_MS

    def start_clocks(seats: set[int] | frozenset[int]) -> None:
        for s in seats if clock else ():
            run.turn_started[s] = now_ms / 1000
            run.deadlines[s] = now_ms + CLOCK_MS

    start_clocks(run.awaiting)
    send(run, [], None, now_ms)
    actions = 0
    limit = min(20_000, game.max_decisions(values))
    while game.awaiting(run.state) and actions < limit:
        seat = rng.choice(sorted(game.awaiting(run.state)))
        events = game.apply(run.state, seat, rng.choice(game.legal_actions(run.state, seat)))
        secret = run.secret(seat, events)
        now_ms += CLOCK_STEP_MS
        start_clocks(run.advance(seat, secret))
        send(run, events, seat if secret else None, now_ms)
        actions += 1
    return actions


def match_bytes(
    game: Game[Any], options: dict[str, Any], seed: int, parts: dict[str, int] | None = None, clock: bool = False
) -> tuple[int, int, int, int, int, int]:
    """(actions, bytes of full states, bytes of updates, seats, and both again as permessage-deflate would send
    them) over one seeded random match; ``parts`` adds up the updates' bytes by key."""
    n = game.seats(game.new_match(game.validate_options(options), seed))
    links = [Link(s, False) for s in range(n)] + [Link(s, True) for s in range(n)]
    updates = Updates()
    sizes = {False: 0, True: 0}
    deflated = {False: 0, True: 0}

    def send(run: MatchRun, events: list[dict[str, Any]], only: int | None, now_ms: int) -> None:
        common = state_common(run, now_ms)
        to = [link for link in links if only is None or link.seat == only]
        messages: dict[int | None, dict[str, Any]] = {
            link.seat: state_message(run, link.seat, events, common) for link in to
        }
        for link, text in updates.texts([(link, link.seat) for link in to], messages, encode):
            if run.stored:  # the first (full) state of each connection is the join's, not an action's
                sizes[link.last_join["updates"] is True] += len(text.encode())
                deflated[link.last_join["updates"] is True] += link.deflated(text)
                if parts is not None and link.last_join["updates"] is True:
                    parts_of(text, parts)
            else:
                link.deflated(text)  # the join's state is in the compression context all the same

    actions = play(game, options, seed, send, clock)
    return actions, sizes[False], sizes[True], n, deflated[False], deflated[True]


def recorded_states(game: Game[Any], options: dict[str, Any], seed: int) -> list[dict[int | None, dict[str, Any]]]:
    """Every state message set a room sends all seats over one seeded random match (secret actions left out: they
    go to one seat), each copied whole so that the next action changes none, with what the seats' views share kept
    shared (``Game.views``), as the room builds them."""
    out: list[dict[int | None, dict[str, Any]]] = []

    def record(run: MatchRun, events: list[dict[str, Any]], only: int | None, now_ms: int) -> None:
        if only is not None:
            return
        seats: list[int | None] = list(range(game.seats(run.state)))
        common = state_common(run, now_ms)
        views = game.views(run.state, seats)
        messages = {s: state_message(run, s, events, common, v) for s, v in zip(seats, views, strict=True)}
        out.append(copy.deepcopy(messages))  # one deepcopy: what the views share stays shared

    play(game, options, seed, record)
    return out


def texts_cost(matches: list[list[dict[int | None, dict[str, Any]]]], updates: bool, repeat: int) -> float:
    """CPU seconds per action ``Updates.texts`` takes over ``matches`` (the best of ``repeat`` passes), for one
    connection per seat that takes updates, or full states."""
    actions = sum(len(m) - 1 for m in matches)
    best = float("inf")
    for _ in range(repeat):
        spent = 0.0
        for states in matches:
            links = [Link(s, updates) for s in states[0] if s is not None]
            conns = [(link, link.seat) for link in links]
            texts = Updates()
            texts.texts(conns, states[0], encode)  # the joins' full states
            start = time.process_time()
            for messages in states[1:]:
                texts.texts(conns, messages, encode)
            spent += time.process_time() - start
        best = min(best, spent)
    return best / actions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clock", action="store_true", help="every awaited seat has a turn clock (deadlines)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--parts", action="store_true", help="also the updates' bytes/action by key")
    parser.add_argument("--time", action="store_true", help="also the CPU time Updates.texts takes per action")
    parser.add_argument("--repeat", type=int, default=7, help="passes of --time (the best is kept)")
    args = parser.parse_args()
    rows: list[dict[str, Any]] = []
    for label, name, options in GAMES:
        game = get_game(name)
        totals = [0, 0, 0, 0, 0]
        seats = 0
        parts: dict[str, int] = {}
        for m in range(args.matches):
            actions, full, upd, seats, zfull, zupd = match_bytes(game, options, args.seed + m, parts, args.clock)
            totals = [t + x for t, x in zip(totals, [actions, full, upd, zfull, zupd], strict=True)]
        actions, full, upd, zfull, zupd = totals
        timing: dict[str, Any] = {}
        if args.time:
            recorded = [recorded_states(game, options, args.seed + m) for m in range(args.matches)]
            full_us = texts_cost(recorded, False, args.repeat) * 1e6
            updates_us = texts_cost(recorded, True, args.repeat) * 1e6
            timing = {
                "full_texts_us_per_action": round(full_us, 1),
                "update_texts_us_per_action": round(updates_us, 1),
                "texts_cost_ratio": round(updates_us / full_us, 2),
            }
        rows.append(
            {
                **timing,
                "parts": {k: round(v / actions) for k, v in sorted(parts.items())},
                "game": label,
                "seats": seats,
                "actions": actions,
                "full_bytes_per_action": round(full / actions),
                "update_bytes_per_action": round(upd / actions),
                "ratio": round(full / upd, 1) if upd else None,
                "full_deflated_bytes_per_action": round(zfull / actions),
                "update_deflated_bytes_per_action": round(zupd / actions),
            }
        )
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(
            f"{'game':<12} {'seats':>5} {'actions':>8} {'full B/action':>14} {'updates B/action':>17} {'ratio':>6}"
            f" {'deflated: full':>15} {'updates':>8}"
        )
        for r in rows:
            print(
                f"{r['game']:<12} {r['seats']:>5} {r['actions']:>8} {r['full_bytes_per_action']:>14} "
                f"{r['update_bytes_per_action']:>17} {r['ratio']:>6} {r['full_deflated_bytes_per_action']:>15} "
                f"{r['update_deflated_bytes_per_action']:>8}"
            )
            if args.parts:
                print(" " * 12, ", ".join(f"{k} {v}" for k, v in r["parts"].items()))
            if args.time:
                print(
                    " " * 12,
                    f"Updates.texts per action: full states {r['full_texts_us_per_action']} µs, "
                    f"updates {r['update_texts_us_per_action']} µs ({r['texts_cost_ratio']}×)",
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
