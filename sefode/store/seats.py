"""Who held the seats of a stored match: the seat record the store keeps with a match (``matches.seats``), typed, and
which players are bot accounts. Made here, once, for everything above the store that reads a finished match's seats
(the history route, the awards and ratings) instead of reading its JSON by key.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec
import sqlalchemy as sa

from sefode.store import tables as s


class StoredSeat(msgspec.Struct, frozen=True):
    """A seat of a stored match, as ``matches.seats`` holds it (``{"player_id", "bot", "left"}``; the server writes it
    from ``sefode.server.record.MatchSeat``): its player, or the table's bot of a level, and whether its player left
    the match for good. A key an older row lacks reads as its default."""

    player_id: str | None = None
    bot: str | None = None
    left: bool = False


def stored_seats(data: Iterable[Any]) -> list[StoredSeat]:
    """A stored match's seats (the ``matches.seats`` JSON), typed; a seat that is not an object reads as empty."""
    return [msgspec.convert(seat, StoredSeat) if isinstance(seat, dict) else StoredSeat() for seat in data]


_ALL_BOTS = sa.select(s.bot_accounts.c.player_id)
_BOTS_AMONG = _ALL_BOTS.where(s.bot_accounts.c.player_id.in_(sa.bindparam("players", expanding=True)))


def bot_ids(conn: sa.Connection, players: Iterable[str] | None = None) -> set[str]:
    """The players among ``players`` (every one when None) that are bot accounts, revoked or not."""
    if players is None:
        return {str(r[0]) for r in conn.execute(_ALL_BOTS)}
    wanted = [p for p in players if isinstance(p, str)]
    if not wanted:
        return set()
    return {str(r[0]) for r in conn.execute(_BOTS_AMONG, {"players": wanted})}
