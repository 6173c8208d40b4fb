"""Helpers for the accounts tests: finished matches written through the server's store, as the server does."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from sefode.awards import recording
from sefode.store import Store


def guest(store: Store, name: str) -> tuple[str, str]:
    """A guest session, exactly as the server makes one: (token, player id)."""
    return store.create_player(name)


def guests(store: Store, count: int, prefix: str = "p") -> list[str]:
    return [guest(store, f"{prefix}{i}")[1] for i in range(count)]


def room(store: Store) -> str:
    room_id = secrets.token_hex(4)
    store.save_room(room_id, {"name": "Mesa"}, "public", secrets.token_hex(8))
    return room_id


def finished_match(
    store: Store,
    room_id: str,
    players: Sequence[str | None],
    placements: Sequence[int],
    *,
    number: int = 1,
    teams: bool = False,
    left: Sequence[int] = (),
    start_players: int | None = None,
    units: Sequence[Sequence[int]] | None = None,
    no_winner: bool = False,
    game: str = "fodinha",
) -> str:
    """A match stored and ended through the server's own store calls (``None`` in ``players``: a bot).
    Seats from ``start_players`` on joined late: each took its seat with a platform join, as the room stores it.
    ``teams`` gives the alternating pairs of Se Fode Junto as the outcome's units; ``units`` any others.
    Awarding is not run: the tests call it."""
    match_id = secrets.token_hex(8)
    seats: list[dict[str, Any]] = [
        {"player_id": p, "bot": None if p else "normal", "left": i in left} for i, p in enumerate(players)
    ]
    n = len(players)
    start = start_players or n
    options = {"variant": "sefode", "players": start, "decks": 1, "teams": teams, "lives": 5}
    store.create_match(match_id, room_id, number, game, options, 1, {"dealer": 0}, seats[:start])
    idx = 0
    for seat in range(start, n):
        store.add_action(match_id, idx, seat, {"join": True}, "human", seats[: seat + 1])
        idx += 1
    if units is None:
        units = [[u, u + n // 2] for u in range(n // 2)] if teams else [[s] for s in range(n)]
    outcome = {
        "placements": list(placements),
        "units": [list(u) for u in units],
        "no_winner": no_winner,
        "scores": None,
    }
    store.add_action(match_id, idx, 0, {"bid": 0}, "human", seats, outcome)
    return match_id


def record(store: Store, match_id: str) -> recording.Recorded | None:
    with store.engine.begin() as conn:
        return recording.record_match_result(conn, match_id)
