"""What the server forgets when an account is deleted, beyond the store (docs/security.md, "Deletion").

By structure, never by searching free text for the nickname (which turned "Mesa da Ana" into "MesAnônimo dAnônimo
AnônimonAnônimo" when a player named "a" left): every record that names the player by id (a chat message's sender,
a seat) gets the anonymous name, and the text the player wrote as a room's owner (the room's name, its team names
and symbols) goes back to the server's defaults. Other people's text is never changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sefode.server import logs
from sefode.server.room import DEFAULT_TEAMS

if TYPE_CHECKING:
    from sefode.server.hub import Hub
    from sefode.server.room import Room

DEFAULT_ROOM_NAME = "Mesa"
"""The name a room gets without one (``POST /api/rooms``), and the name of a deleted owner's room."""
SOLO_PREFIX = "Solo: "


def rename_records(value: Any, player_id: str, replacement: str) -> int:
    """Give every ``{"player_id": player_id, "name": ...}`` in ``value`` (nested dicts and lists) the name
    ``replacement``; returns how many changed."""
    changed = 0
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if item.get("player_id") == player_id and "name" in item and item["name"] != replacement:
                item["name"] = replacement
                changed += 1
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return changed


def _forget_owner_text(room: Room, replacement: str) -> bool:
    """The deleted owner's own text in their room: its name and its team names and symbols."""
    solo = room.name.startswith(SOLO_PREFIX)
    name = SOLO_PREFIX + replacement if solo else DEFAULT_ROOM_NAME
    teams = None
    if room.teams is not None:
        defaults = [DEFAULT_TEAMS[i % len(DEFAULT_TEAMS)] for i in range(len(room.teams))]
        teams = [{**t, "name": d["name"], "symbol": d["symbol"]} for t, d in zip(room.teams, defaults, strict=True)]
    if name == room.name and teams == room.teams:
        return False
    room.name = name
    room.teams = teams
    return True


def _forget_in_room(room: Room, player_id: str, replacement: str) -> bool:
    changed = rename_records(list(room.chat_log), player_id, replacement) > 0
    changed = rename_records([room.last_match], player_id, replacement) > 0 or changed  # seats hold ids, no names
    if room.owner == player_id:
        changed = _forget_owner_text(room, replacement) or changed
    return changed


async def forget_player(hub: Hub, player_id: str, replacement: str) -> int:
    """Anonymise a deleted player in every room of this server (module docstring); returns how many rooms changed."""
    changed = 0
    for room in list(hub.rooms.values()):
        async with room.lock:
            if not _forget_in_room(room, player_id, replacement):
                continue
            await room.save()
            room.send_room()
        changed += 1
    if changed:
        logs.event("privacy.player_forgotten", player=player_id, rooms=changed)
    return changed
