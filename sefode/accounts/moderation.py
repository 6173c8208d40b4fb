"""Moderation (issue 28): moderator roles, players' reports, sanctions (mutes and bans), closed rooms and the audit
log. Described for operators in ``docs/operating.md`` ("Moderation"); the routes are
``sefode.server.routes.moderation``.

* An operator grants or revokes the moderator role from the command line (``sefode admin grant USER``); no route
  grants it, so a moderator's session never makes another moderator.
* A moderator never acts on another moderator (``mod/protected``): a role is taken away by the operator first. So
  one stolen moderator session cannot silence or ban the others.
* A ban ends every session of the player (an account's logins, a guest's browser token) and refuses logins until it
  runs out; a guest is banned by their session only, never by address (shared addresses: docs/operating.md).

Every function takes an open connection inside a transaction and commits nothing itself (as ``service``).
"""

from __future__ import annotations

import secrets
from typing import Any

import sqlalchemy as sa

from sefode.accounts import tables as a
from sefode.accounts.service import AccountError, _rotate_guest_token, account_username, username_key
from sefode.store import tables as s
from sefode.store.db import now_ms

MAX_REASON = 500
MAX_NOTE = 500
MAX_MINUTES = 60 * 24 * 366
REPORT_CHAT = 30
"""The room's last chat messages a report keeps."""
KINDS = ("mute", "ban")


# --------------------------------------------------------------------------------------------- roles


def find_user(conn: sa.Connection, username: str) -> str:
    """The account of ``username`` (any case), or ``admin/unknown_user``."""
    row = conn.execute(sa.select(a.accounts.c.player_id).where(a.accounts.c.username_key == username_key(username)))
    found = row.first()
    if found is None:
        raise AccountError("admin/unknown_user", f"there is no account with the username {username!r}", 404)
    return str(found[0])


def grant(conn: sa.Connection, username: str) -> tuple[str, bool]:
    """Make ``username`` a moderator: (player id, whether it changed anything)."""
    player = find_user(conn, username)
    if is_moderator(conn, player):
        return player, False
    conn.execute(a.moderators.insert().values(player_id=player, granted_at=now_ms()))
    return player, True


def revoke(conn: sa.Connection, username: str) -> tuple[str, bool]:
    player = find_user(conn, username)
    gone = conn.execute(a.moderators.delete().where(a.moderators.c.player_id == player))
    return player, bool(gone.rowcount)


def is_moderator(conn: sa.Connection, player_id: str | None) -> bool:
    if not player_id:
        return False
    found = conn.execute(sa.select(a.moderators.c.player_id).where(a.moderators.c.player_id == player_id)).first()
    return found is not None


def require_moderator(conn: sa.Connection, player_id: str) -> None:
    if not is_moderator(conn, player_id):
        raise AccountError("mod/forbidden", "only moderators may do this", 403)


def check_target(conn: sa.Connection, me: str, player_id: object) -> str:
    """A player a moderator may act on: one that exists, not the moderator, not another moderator."""
    if not isinstance(player_id, str) or not player_id or len(player_id) > 32:
        raise AccountError("mod/unknown_player", "there is no such player", 404)
    if conn.execute(sa.select(s.players.c.id).where(s.players.c.id == player_id)).first() is None:
        raise AccountError("mod/unknown_player", "there is no such player", 404)
    if player_id == me:
        raise AccountError("mod/self", "a moderator does not act on themselves")
    if is_moderator(conn, player_id):
        raise AccountError(
            "mod/protected", "moderators do not act on each other: the operator revokes the role first", 403
        )
    return player_id


# --------------------------------------------------------------------------------------------- checks


def reason(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise AccountError("mod/reason_required", "say why: every moderator action needs a reason")
    if len(value) > MAX_REASON:
        raise AccountError("mod/reason_too_long", f"a reason is at most {MAX_REASON} characters")
    return value.strip()


def minutes(value: object) -> int | None:
    """A sanction's length in minutes, or None (absent or null) for good."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_MINUTES:
        raise AccountError("mod/bad_minutes", f"'minutes' is a whole number from 1 to {MAX_MINUTES}, or null")
    return value


# --------------------------------------------------------------------------------------------- sanctions


def sanction(conn: sa.Connection, player_id: str, kind: str, length_min: int | None) -> int | None:
    """Mute or ban ``player_id`` (replacing an earlier one of that kind); the end (ms), or None for good."""
    assert kind in KINDS
    stamp = now_ms()
    until = None if length_min is None else stamp + length_min * 60_000
    conn.execute(a.sanctions.delete().where(a.sanctions.c.player_id == player_id, a.sanctions.c.kind == kind))
    conn.execute(a.sanctions.insert().values(player_id=player_id, kind=kind, until=until, created_at=stamp))
    if kind == "ban":
        conn.execute(a.account_sessions.delete().where(a.account_sessions.c.player_id == player_id))
        _rotate_guest_token(conn, player_id)
    return until


def lift(conn: sa.Connection, player_id: str, kind: str) -> None:
    gone = conn.execute(a.sanctions.delete().where(a.sanctions.c.player_id == player_id, a.sanctions.c.kind == kind))
    if not gone.rowcount:
        code = "mod/not_banned" if kind == "ban" else "mod/not_muted"
        raise AccountError(code, f"this player has no {kind}", 404)


def active(conn: sa.Connection, player_id: str, kind: str, now: int | None = None) -> tuple[bool, int | None]:
    """(whether ``player_id`` is under a sanction of ``kind`` now, its end or None for good)."""
    stamp = now_ms() if now is None else now
    row = conn.execute(
        sa.select(a.sanctions.c.until).where(a.sanctions.c.player_id == player_id, a.sanctions.c.kind == kind)
    ).first()
    if row is None or (row[0] is not None and int(row[0]) <= stamp):
        return False, None
    return True, None if row[0] is None else int(row[0])


def refuse_banned(conn: sa.Connection, player_id: str) -> None:
    """A login or a new session of a banned account: ``auth/banned`` (403)."""
    banned, until = active(conn, player_id, "ban")
    if banned:
        when = "for good" if until is None else "for now"
        raise AccountError("auth/banned", f"this account is banned {when}", 403)


def all_mutes(engine: sa.Engine) -> dict[str, int | None]:
    """Every mute still running, by player: the server keeps them in memory to refuse chat and reactions."""
    stamp = now_ms()
    with engine.connect() as conn:
        rows = conn.execute(sa.select(a.sanctions.c.player_id, a.sanctions.c.until).where(a.sanctions.c.kind == "mute"))
        return {str(r[0]): None if r[1] is None else int(r[1]) for r in rows if r[1] is None or int(r[1]) > stamp}


def closed_room_ids(engine: sa.Engine) -> set[str]:
    with engine.connect() as conn:
        return {str(r[0]) for r in conn.execute(sa.select(a.closed_rooms.c.room_id))}


def is_closed_room(engine: sa.Engine, room_id: str) -> bool:
    with engine.connect() as conn:
        found = conn.execute(sa.select(a.closed_rooms.c.room_id).where(a.closed_rooms.c.room_id == room_id)).first()
        return found is not None


def close_room(conn: sa.Connection, room_id: str) -> None:
    if conn.execute(sa.select(a.closed_rooms.c.room_id).where(a.closed_rooms.c.room_id == room_id)).first() is None:
        conn.execute(a.closed_rooms.insert().values(room_id=room_id, closed_at=now_ms()))


# --------------------------------------------------------------------------------------------- audit


def log(
    conn: sa.Connection,
    moderator: str,
    action: str,
    why: str,
    *,
    player_id: str | None = None,
    room_id: str | None = None,
    detail: dict[str, Any] | None = None,
) -> int:
    done = conn.execute(
        a.moderation_log.insert().values(
            at=now_ms(),
            moderator_id=moderator,
            action=action,
            player_id=player_id,
            room_id=room_id,
            reason=why,
            detail=detail or {},
        )
    )
    key = done.inserted_primary_key
    return int(key[0]) if key is not None else 0


def _names(conn: sa.Connection, ids: set[str]) -> dict[str, str]:
    if not ids:
        return {}
    rows = conn.execute(sa.select(s.players.c.id, s.players.c.name).where(s.players.c.id.in_(sorted(ids)))).all()
    return {str(r[0]): str(r[1]) for r in rows}


def audit(conn: sa.Connection, limit: int = 100, before: int | None = None) -> list[dict[str, Any]]:
    """The newest moderator actions first (``before``: an entry id, to page back)."""
    c = a.moderation_log.c
    query = sa.select(c.id, c.at, c.moderator_id, c.action, c.player_id, c.room_id, c.reason, c.detail)
    if before is not None:
        query = query.where(c.id < before)
    rows = conn.execute(query.order_by(c.id.desc()).limit(max(1, min(limit, 200)))).all()
    names = _names(conn, {str(r[2]) for r in rows} | {str(r[4]) for r in rows if r[4]})
    return [
        {
            "id": int(r[0]),
            "at": int(r[1]),
            "moderator": {"player_id": str(r[2]), "name": names.get(str(r[2]), "?")},
            "action": str(r[3]),
            "player": None if r[4] is None else {"player_id": str(r[4]), "name": names.get(str(r[4]), "?")},
            "room_id": r[5],
            "reason": str(r[6]),
            "detail": r[7] or {},
        }
        for r in rows
    ]


# --------------------------------------------------------------------------------------------- reports


def note(value: object) -> str:
    if value is None:
        return ""
    if not isinstance(value, str) or len(value) > MAX_NOTE:
        raise AccountError("report/bad_note", f"a note is text of at most {MAX_NOTE} characters")
    return value.strip()


def report(
    conn: sa.Connection,
    reporter: str,
    reported: str,
    room_id: str,
    match_id: str | None,
    chat_id: int | None,
    chat: list[dict[str, Any]],
    text: str,
) -> str:
    report_id = secrets.token_hex(8)
    conn.execute(
        a.reports.insert().values(
            id=report_id,
            reporter_id=reporter,
            reported_id=reported,
            room_id=room_id,
            match_id=match_id,
            chat_id=chat_id,
            note=text,
            chat=chat[-REPORT_CHAT:],
            status="open",
            created_at=now_ms(),
        )
    )
    return report_id


def open_reports(conn: sa.Connection, limit: int = 100) -> list[dict[str, Any]]:
    c = a.reports.c
    rows = conn.execute(
        sa.select(c.id, c.reporter_id, c.reported_id, c.room_id, c.match_id, c.chat_id, c.note, c.chat, c.created_at)
        .where(c.status == "open")
        .order_by(c.created_at, c.id)
        .limit(max(1, min(limit, 200)))
    ).all()
    names = _names(conn, {str(r[1]) for r in rows} | {str(r[2]) for r in rows})
    moderators = {
        str(r[0])
        for r in conn.execute(
            sa.select(a.moderators.c.player_id).where(a.moderators.c.player_id.in_(sorted({str(r[2]) for r in rows})))
        )
    }
    return [
        {
            "id": str(r[0]),
            "reporter": {"player_id": str(r[1]), "name": names.get(str(r[1]), "?")},
            "reported": {
                "player_id": str(r[2]),
                "name": names.get(str(r[2]), "?"),
                "username": account_username(conn, str(r[2])),
                "moderator": str(r[2]) in moderators,
            },
            "room_id": str(r[3]),
            "match_id": r[4],
            "chat_id": r[5],
            "note": str(r[6]),
            "chat": list(r[7] or []),
            "at": int(r[8]),
        }
        for r in rows
    ]


def close_report(conn: sa.Connection, report_id: str) -> str:
    """Mark a report handled; the player it was about."""
    c = a.reports.c
    row = conn.execute(sa.select(c.reported_id).where(c.id == report_id, c.status == "open")).first()
    if row is None:
        raise AccountError("mod/no_report", "there is no such open report", 404)
    conn.execute(a.reports.update().where(c.id == report_id).values(status="closed"))
    return str(row[0])
