"""What the server forgets when an account is deleted, beyond the store (docs/security.md, "Deletion")."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from sefode.server import logs

if TYPE_CHECKING:
    from sefode.server.hub import Hub


def scrub(value: str, nickname: str, replacement: str) -> str:
    """``value`` with every occurrence of ``nickname`` (any case) replaced by ``replacement``."""
    if not nickname.strip():
        return value
    return re.sub(re.escape(nickname), replacement, value, flags=re.IGNORECASE)


async def forget_nickname(hub: Hub, player_id: str, nickname: str, replacement: str) -> int:
    """Remove a deleted player's nickname from the names of the rooms they owned or sat in (solo titles
    ``Solo: <nick>`` included) and from those rooms' team names; returns how many rooms changed."""
    changed = 0
    for room in list(hub.rooms.values()):
        involved = room.owner == player_id or any(s.get("player_id") == player_id for s in room.seats)
        if not involved and room.match is not None:
            involved = any(s.get("player_id") == player_id for s in room.match.seats)
        if not involved:
            continue
        async with room.lock:
            name = scrub(room.name, nickname, replacement)
            teams = None
            if room.teams is not None:
                teams = [{**t, "name": scrub(str(t.get("name", "")), nickname, replacement)} for t in room.teams]
            if name == room.name and teams == room.teams:
                continue
            room.name = name
            room.teams = teams
            await room.save()
            room.send_room()
        changed += 1
    if changed:
        logs.event("privacy.nickname_forgotten", player=player_id, rooms=changed)
    return changed
