"""Friends (issue 23): friend requests, friendships, blocks, invitations to a room, and the record between friends.

The model is the one players know from lichess and Board Game Arena: an account sends a friend request (by the other's
username or nickname, or from a shared table); the other accepts or declines it. Two accounts that each ask the other
are friends at once. Either may end the friendship. Guests play with anyone but keep no friends
(``friends/account_only``).

Blocking works on any player (a guest at the table too): the blocker no longer receives the blocked player's chat and
reactions, and the blocked player cannot sit in or watch the blocker's rooms (the server checks both; see
``sefode.server.room``). Blocking ends the friendship, pending requests and invitations between the two.

Every function takes an open connection inside a transaction and commits nothing itself (as ``service``). Refusals
are ``AccountError`` with a stable code; a refusal changes nothing. Nothing here knows who is online: the route
adds that from the server's connections (``sefode.accounts.friend_routes``).
"""

from __future__ import annotations

import secrets
from collections import defaultdict
from typing import Any

import sqlalchemy as sa

from sefode.accounts import tables as a
from sefode.accounts.progress import _place_of, _seats
from sefode.accounts.queries import game_title
from sefode.accounts.service import AccountError, account_username, username_key
from sefode.awards import tables as w
from sefode.store import tables as s
from sefode.store.db import lowered, now_ms

MAX_FRIENDS = 200
"""Friends an account may have."""
MAX_BLOCKS = 500
"""Players an account may block."""
MAX_PENDING = 50
"""Friend requests an account may have sent and not yet had answered."""
MAX_INVITES = 20
"""Invitations kept for one player (the oldest go first)."""
MAX_RELATIONS = 16
"""Players one ``relations`` question may ask about (a table's seats)."""

f_ = a.friends.c
r_ = a.friend_requests.c
b_ = a.blocks.c
i_ = a.room_invites.c


# --------------------------------------------------------------------------------------------- who


def require_account(conn: sa.Connection, player_id: str) -> None:
    """Only accounts keep friends, blocks and invitations."""
    if account_username(conn, player_id) is None:
        raise AccountError("friends/account_only", "only accounts keep friends; create an account first", 403)


def _is_deleted(conn: sa.Connection, player_id: str) -> bool:
    found = conn.execute(sa.select(a.deleted_players.c.player_id).where(a.deleted_players.c.player_id == player_id))
    return found.first() is not None


def find_account(conn: sa.Connection, who: object) -> str:
    """The account a player typed: its username (any case), else the one account whose nickname it is."""
    if not isinstance(who, str) or not who.strip() or len(who) > 64:
        raise AccountError("friends/bad_name", "type the player's username or nickname")
    typed = who.strip()
    row = conn.execute(sa.select(a.accounts.c.player_id).where(a.accounts.c.username_key == username_key(typed)))
    found = row.first()
    if found is not None:
        return str(found[0])
    rows = conn.execute(
        sa.select(a.accounts.c.player_id)
        .select_from(a.accounts.join(s.players, s.players.c.id == a.accounts.c.player_id))
        .where(lowered(s.players.c.name) == typed.lower())  # in every alphabet, on SQLite too
        .limit(2)
    ).all()
    if len(rows) > 1:
        raise AccountError("friends/ambiguous_name", "several players have this nickname; use their username", 409)
    if not rows:
        raise AccountError("friends/unknown_player", "there is no account with this username or nickname", 404)
    return str(rows[0][0])


def _account(conn: sa.Connection, player_id: object) -> str:
    """A player id that names a live account."""
    if not isinstance(player_id, str) or not player_id or len(player_id) > 32:
        raise AccountError("friends/unknown_player", "there is no such player", 404)
    if account_username(conn, player_id) is None:
        if _player_exists(conn, player_id) and not _is_deleted(conn, player_id):
            raise AccountError("friends/not_an_account", "this player plays as a guest: only accounts keep friends")
        raise AccountError("friends/unknown_player", "there is no such player", 404)
    return player_id


def _player_exists(conn: sa.Connection, player_id: str) -> bool:
    return conn.execute(sa.select(s.players.c.id).where(s.players.c.id == player_id)).first() is not None


def target(conn: sa.Connection, body: dict[str, Any]) -> str:
    """The other account a request names: ``player_id`` (from a table) or ``name`` (typed)."""
    if body.get("player_id") is not None:
        return _account(conn, body.get("player_id"))
    return find_account(conn, body.get("name"))


# --------------------------------------------------------------------------------------------- relations


def are_friends(conn: sa.Connection, me: str, other: str) -> bool:
    found = conn.execute(sa.select(f_.player_id).where(f_.player_id == me, f_.friend_id == other)).first()
    return found is not None


def _requested(conn: sa.Connection, src: str, dst: str) -> bool:
    found = conn.execute(sa.select(r_.from_id).where(r_.from_id == src, r_.to_id == dst)).first()
    return found is not None


def blocked(conn: sa.Connection, blocker: str, other: str) -> bool:
    found = conn.execute(sa.select(b_.player_id).where(b_.player_id == blocker, b_.blocked_id == other)).first()
    return found is not None


def _count(conn: sa.Connection, table: sa.Table, where: Any) -> int:
    return int(conn.execute(sa.select(sa.func.count()).select_from(table).where(where)).scalar_one())


def _unlink(conn: sa.Connection, one: str, two: str) -> None:
    """No friendship, request or invitation left between the two."""
    conn.execute(
        a.friends.delete().where(
            sa.or_(sa.and_(f_.player_id == one, f_.friend_id == two), sa.and_(f_.player_id == two, f_.friend_id == one))
        )
    )
    conn.execute(
        a.friend_requests.delete().where(
            sa.or_(sa.and_(r_.from_id == one, r_.to_id == two), sa.and_(r_.from_id == two, r_.to_id == one))
        )
    )
    conn.execute(
        a.room_invites.delete().where(
            sa.or_(sa.and_(i_.from_id == one, i_.to_id == two), sa.and_(i_.from_id == two, i_.to_id == one))
        )
    )


def _befriend(conn: sa.Connection, me: str, other: str) -> None:
    for one in (me, other):
        if _count(conn, a.friends, f_.player_id == one) >= MAX_FRIENDS:
            if one == me:
                raise AccountError("friends/too_many", f"you have {MAX_FRIENDS} friends, the most one may have", 409)
            raise AccountError("friends/their_list_full", "this player's friends list is full", 409)
    stamp = now_ms()
    conn.execute(
        a.friend_requests.delete().where(
            sa.or_(sa.and_(r_.from_id == me, r_.to_id == other), sa.and_(r_.from_id == other, r_.to_id == me))
        )
    )
    conn.execute(
        a.friends.insert(),
        [
            {"player_id": me, "friend_id": other, "created_at": stamp},
            {"player_id": other, "friend_id": me, "created_at": stamp},
        ],
    )


def request(conn: sa.Connection, me: str, other: str) -> str:
    """Ask ``other`` to be friends: ``"requested"``, or ``"friends"`` when ``other`` had asked ``me`` already."""
    require_account(conn, me)
    if other == me:
        raise AccountError("friends/self", "you cannot add yourself as a friend")
    if blocked(conn, me, other):
        raise AccountError("friends/blocked", "you blocked this player: unblock them first", 409)
    if blocked(conn, other, me):
        raise AccountError("friends/unavailable", "this player cannot be added", 409)
    if are_friends(conn, me, other):
        raise AccountError("friends/already_friends", "you are friends already", 409)
    if _requested(conn, other, me):
        _befriend(conn, me, other)
        return "friends"
    if _requested(conn, me, other):
        raise AccountError("friends/already_requested", "you asked this player already; wait for the answer", 409)
    if _count(conn, a.friend_requests, r_.from_id == me) >= MAX_PENDING:
        raise AccountError("friends/too_many_requests", f"you have {MAX_PENDING} requests waiting for an answer", 409)
    if _count(conn, a.friends, f_.player_id == me) >= MAX_FRIENDS:
        raise AccountError("friends/too_many", f"you have {MAX_FRIENDS} friends, the most one may have", 409)
    conn.execute(a.friend_requests.insert().values(from_id=me, to_id=other, created_at=now_ms()))
    return "requested"


def accept(conn: sa.Connection, me: str, other: str) -> None:
    require_account(conn, me)
    if not _requested(conn, other, me):
        raise AccountError("friends/no_request", "this player has not asked to be your friend", 404)
    _befriend(conn, me, other)


def decline(conn: sa.Connection, me: str, other: str) -> None:
    """Decline a request ``other`` sent, or withdraw one ``me`` sent."""
    require_account(conn, me)
    gone = conn.execute(
        a.friend_requests.delete().where(
            sa.or_(sa.and_(r_.from_id == other, r_.to_id == me), sa.and_(r_.from_id == me, r_.to_id == other))
        )
    )
    if not gone.rowcount:
        raise AccountError("friends/no_request", "there is no request between you and this player", 404)


def remove(conn: sa.Connection, me: str, other: str) -> None:
    require_account(conn, me)
    if not are_friends(conn, me, other):
        raise AccountError("friends/not_friends", "this player is not your friend", 404)
    _unlink(conn, me, other)


def block(conn: sa.Connection, me: str, other: object) -> str:
    """Block any player (an account or a guest met at a table); ends everything between the two."""
    require_account(conn, me)
    if not isinstance(other, str) or not other or len(other) > 32 or not _player_exists(conn, other):
        raise AccountError("friends/unknown_player", "there is no such player", 404)
    if other == me:
        raise AccountError("friends/self", "you cannot block yourself")
    if blocked(conn, me, other):
        raise AccountError("friends/already_blocked", "you blocked this player already", 409)
    if _count(conn, a.blocks, b_.player_id == me) >= MAX_BLOCKS:
        raise AccountError("friends/too_many_blocks", f"you blocked {MAX_BLOCKS} players, the most one may", 409)
    _unlink(conn, me, other)
    conn.execute(a.blocks.insert().values(player_id=me, blocked_id=other, created_at=now_ms()))
    return other


def unblock(conn: sa.Connection, me: str, other: str) -> None:
    require_account(conn, me)
    gone = conn.execute(a.blocks.delete().where(b_.player_id == me, b_.blocked_id == other))
    if not gone.rowcount:
        raise AccountError("friends/not_blocked", "this player is not blocked", 404)


def all_blocks(engine: sa.Engine) -> dict[str, set[str]]:
    """Every block, by blocker: the server keeps them in memory to filter chat and reactions per recipient."""
    out: dict[str, set[str]] = defaultdict(set)
    with engine.connect() as conn:
        for blocker, other in conn.execute(sa.select(b_.player_id, b_.blocked_id)).all():
            out[str(blocker)].add(str(other))
    return dict(out)


def relations(conn: sa.Connection, me: str, ids: list[str]) -> dict[str, dict[str, bool]]:
    """What ``me`` is to each of ``ids`` (the players of a table): account or guest, friend, request either way,
    blocked. Ids that name no player are left out."""
    wanted = sorted({i for i in ids if isinstance(i, str) and 0 < len(i) <= 32 and i != me})[:MAX_RELATIONS]
    if not wanted:
        return {}
    players = {str(r[0]) for r in conn.execute(sa.select(s.players.c.id).where(s.players.c.id.in_(wanted))).all()}
    accounts = {
        str(r[0]) for r in conn.execute(sa.select(a.accounts.c.player_id).where(a.accounts.c.player_id.in_(wanted)))
    }
    friends = {
        str(r[0]) for r in conn.execute(sa.select(f_.friend_id).where(f_.player_id == me, f_.friend_id.in_(wanted)))
    }
    sent = {str(r[0]) for r in conn.execute(sa.select(r_.to_id).where(r_.from_id == me, r_.to_id.in_(wanted)))}
    got = {str(r[0]) for r in conn.execute(sa.select(r_.from_id).where(r_.to_id == me, r_.from_id.in_(wanted)))}
    blocks = {
        str(r[0]) for r in conn.execute(sa.select(b_.blocked_id).where(b_.player_id == me, b_.blocked_id.in_(wanted)))
    }
    return {
        pid: {
            "account": pid in accounts,
            "friend": pid in friends,
            "requested": pid in sent,
            "asked_you": pid in got,
            "blocked": pid in blocks,
        }
        for pid in wanted
        if pid in players
    }


# --------------------------------------------------------------------------------------------- invitations


def invite(conn: sa.Connection, me: str, other: str, room_id: str) -> str:
    """Invite a friend to a room (the caller checked that ``me`` is in it). A repeated invitation is refreshed."""
    require_account(conn, me)
    if not are_friends(conn, me, other):
        raise AccountError("friends/not_friends", "you can invite only your friends", 403)
    stamp = now_ms()
    refreshed = conn.execute(
        a.room_invites.update()
        .where(i_.from_id == me, i_.to_id == other, i_.room_id == room_id)
        .values(created_at=stamp)
    )
    if refreshed.rowcount:
        row = conn.execute(
            sa.select(i_.id).where(i_.from_id == me, i_.to_id == other, i_.room_id == room_id)
        ).scalar_one()
        return str(row)
    invite_id = secrets.token_hex(8)
    conn.execute(
        a.room_invites.insert().values(id=invite_id, from_id=me, to_id=other, room_id=room_id, created_at=stamp)
    )
    kept = conn.execute(
        sa.select(i_.id).where(i_.to_id == other).order_by(i_.created_at.desc(), i_.id).offset(MAX_INVITES)
    ).all()
    if kept:
        conn.execute(a.room_invites.delete().where(i_.id.in_([str(r[0]) for r in kept])))
    return invite_id


def dismiss(conn: sa.Connection, me: str, invite_id: str) -> None:
    gone = conn.execute(a.room_invites.delete().where(i_.id == invite_id, i_.to_id == me))
    if not gone.rowcount:
        raise AccountError("friends/no_invite", "there is no such invitation", 404)


# --------------------------------------------------------------------------------------------- reading


def _people(conn: sa.Connection, ids: list[str]) -> dict[str, dict[str, Any]]:
    if not ids:
        return {}
    rows = conn.execute(
        sa.select(s.players.c.id, s.players.c.name, a.accounts.c.username)
        .select_from(s.players.outerjoin(a.accounts, a.accounts.c.player_id == s.players.c.id))
        .where(s.players.c.id.in_(sorted(set(ids))))
    ).all()
    return {str(r[0]): {"player_id": str(r[0]), "name": str(r[1]), "username": r[2]} for r in rows}


def overview(conn: sa.Connection, me: str) -> dict[str, Any]:
    """Everything of ``me``'s friends panel but who is online: friends, requests both ways, blocks, invitations."""
    require_account(conn, me)
    friend_rows = conn.execute(sa.select(f_.friend_id, f_.created_at).where(f_.player_id == me)).all()
    incoming = conn.execute(sa.select(r_.from_id, r_.created_at).where(r_.to_id == me)).all()
    outgoing = conn.execute(sa.select(r_.to_id, r_.created_at).where(r_.from_id == me)).all()
    block_rows = conn.execute(sa.select(b_.blocked_id, b_.created_at).where(b_.player_id == me)).all()
    invite_rows = conn.execute(
        sa.select(i_.id, i_.from_id, i_.room_id, i_.created_at, s.rooms.c.data, s.rooms.c.invite_token)
        .select_from(a.room_invites.join(s.rooms, s.rooms.c.id == i_.room_id))
        .where(i_.to_id == me)
        .order_by(i_.created_at.desc())
    ).all()
    ids = [str(r[0]) for r in (*friend_rows, *incoming, *outgoing, *block_rows)] + [str(r[1]) for r in invite_rows]
    people = _people(conn, ids)

    def person(pid: Any, at: Any, key: str = "since") -> dict[str, Any]:
        return {**people.get(str(pid), {"player_id": str(pid), "name": "?", "username": None}), key: int(at)}

    by_name = lambda item: (str(item["name"]).casefold(), item["player_id"])  # noqa: E731
    return {
        "friends": sorted((person(r[0], r[1]) for r in friend_rows), key=by_name),
        "incoming": [person(r[0], r[1], "at") for r in incoming],
        "outgoing": [person(r[0], r[1], "at") for r in outgoing],
        "blocked": sorted(
            (
                {
                    "player_id": people.get(str(r[0]), {}).get("player_id", str(r[0])),
                    "name": people.get(str(r[0]), {}).get("name", "?"),
                    "since": int(r[1]),
                }
                for r in block_rows
            ),
            key=by_name,
        ),
        "invites": [
            {
                "id": str(r[0]),
                "from": {"player_id": str(r[1]), "name": people.get(str(r[1]), {}).get("name", "?")},
                "room_id": str(r[2]),
                "room_name": str((r[4] or {}).get("name") or r[2]),
                "game": (r[4] or {}).get("game"),
                "link": f"/invite/{r[5]}",
                "at": int(r[3]),
            }
            for r in invite_rows
        ],
    }


def record(conn: sa.Connection, me: str, other: str) -> dict[str, Any]:
    """The record between two friends: the recorded matches both played (``sefode.accounts.progress``), per game, and
    how often each placed ahead of the other."""
    require_account(conn, me)
    if not are_friends(conn, me, other):
        raise AccountError("friends/not_friends", "this player is not your friend", 404)
    together = conn.execute(
        sa.select(w.award_seats.c.match_id)
        .where(w.award_seats.c.player_id == me)
        .intersect(sa.select(w.award_seats.c.match_id).where(w.award_seats.c.player_id == other))
    ).all()
    ids = sorted(str(r[0]) for r in together)
    games = (
        {
            str(r[0]): str(r[1])
            for r in conn.execute(
                sa.select(w.award_matches.c.match_id, w.award_matches.c.game).where(w.award_matches.c.match_id.in_(ids))
            ).all()
        }
        if ids
        else {}
    )
    seats = _seats(conn, ids)
    per: dict[str, dict[str, int]] = {}
    for match_id in ids:
        game = games.get(match_id)
        if game is None:
            continue
        mine, theirs = _place_of(seats[match_id], me), _place_of(seats[match_id], other)
        tally = per.setdefault(game, {"matches": 0, "you_ahead": 0, "friend_ahead": 0, "level": 0})
        tally["matches"] += 1
        if mine < theirs:
            tally["you_ahead"] += 1
        elif theirs < mine:
            tally["friend_ahead"] += 1
        else:
            tally["level"] += 1
    rows = [{"game": g, "title": game_title(g), **t} for g, t in sorted(per.items())]
    friend = _people(conn, [other]).get(other, {"player_id": other, "name": "?", "username": None})
    return {
        "friend": friend,
        "matches": sum(r["matches"] for r in rows),
        "games": rows,
    }
