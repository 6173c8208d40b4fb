"""Accounts: register, log in (rate-limited), sessions, nickname, log out everywhere, delete.

Every function takes an open SQLAlchemy connection inside a transaction (``engine.begin()``) and commits nothing
itself, so a caller can group calls. Identities are the server's players (``players.id``): a guest is a player
with a browser session token (``players.token_hash``); registering attaches a username and password to that same
player, so everything the guest earned stays theirs. Logging in from another browser opens an account session
(``account_sessions``), which ``Store.player_by_token`` accepts too.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

import sqlalchemy as sa

from sefode import text
from sefode.accounts import passwords
from sefode.accounts import tables as a
from sefode.store import tables as s
from sefode.store.db import new_token, now_ms, register_session_resolver, token_hash
from sefode.wire import Refused

SESSION_MS = 30 * 24 * 3600 * 1000
"""An account session lasts 30 days."""
LOGIN_WINDOW_MS = 15 * 60 * 1000
MAX_FAILURES_PER_USERNAME = 5
"""Failed logins for one username *from one client address* within the window before that username is refused to
that address for a while. The lockout is per client, so that someone else's wrong guesses never lock the owner out."""
MAX_FAILURES_PER_CLIENT = 20
"""Failed logins from one client address within the window before that address is refused for a while."""
ANONYMOUS_NAME = "Anônimo"
"""The name a deleted account's past matches show (the API also says ``"anonymous": true``)."""

USERNAME_RE = re.compile(r"[A-Za-z0-9_.-]{3,24}")
MIN_PASSWORD = 8
MAX_PASSWORD = 256


AccountError = Refused
"""A refusal with a stable ``code`` and the HTTP status to answer with (``sefode.wire.Refused``)."""


@dataclass(frozen=True, slots=True)
class Session:
    player_id: str
    token: str


def username_key(username: str) -> str:
    return username.casefold()


def check_username(value: object) -> str:
    if not isinstance(value, str) or not USERNAME_RE.fullmatch(value):
        raise AccountError("account/bad_username", "a username is 3 to 24 letters, digits, '_', '.' or '-' (no spaces)")
    return value


def check_password(value: object) -> str:
    """A new password under the text rule (valid Unicode, no control characters, NFC) and 8 to 256 characters."""
    try:
        return text.password(value, lo=MIN_PASSWORD, hi=MAX_PASSWORD)
    except text.TextError:
        raise AccountError(
            "account/bad_password", f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters"
        ) from None


def given_password(value: object) -> str | None:
    """A password typed to log in or to confirm (NFC, as stored); None when it cannot be anybody's password."""
    try:
        return text.password(value, lo=1, hi=MAX_PASSWORD)
    except text.TextError:
        return None


def check_name(value: object) -> str:
    try:
        return text.name(value)
    except text.TextError as err:
        raise AccountError(err.code, err.message) from None


# --------------------------------------------------------------------------------------------- sessions


def player_for_token(conn: sa.Connection, token: str | None, now: int | None = None) -> str | None:
    """The player a browser token belongs to: a guest token or an unexpired account session; None otherwise."""
    if not token or len(token) > 128:
        return None
    digest = token_hash(token)
    row = conn.execute(sa.select(s.players.c.id).where(s.players.c.token_hash == digest)).first()
    if row is not None:
        return str(row[0])
    stamp = now_ms() if now is None else now
    row = conn.execute(
        sa.select(a.account_sessions.c.player_id).where(
            a.account_sessions.c.token_hash == digest, a.account_sessions.c.expires_at > stamp
        )
    ).first()
    return None if row is None else str(row[0])


def session_player(conn: sa.Connection, token: str) -> tuple[str, str] | None:
    """(player id, name) of an unexpired account session: what ``Store.player_by_token`` falls back on."""
    row = conn.execute(
        sa.select(s.players.c.id, s.players.c.name)
        .select_from(a.account_sessions.join(s.players, s.players.c.id == a.account_sessions.c.player_id))
        .where(a.account_sessions.c.token_hash == token_hash(token), a.account_sessions.c.expires_at > now_ms())
    ).first()
    return None if row is None else (str(row[0]), str(row[1]))


def player_by_session(engine: sa.Engine, token: str) -> tuple[str, str] | None:
    with engine.connect() as conn:
        return session_player(conn, token)


def open_session(conn: sa.Connection, player_id: str, now: int | None = None) -> Session:
    stamp = now_ms() if now is None else now
    token = new_token(32)
    conn.execute(
        a.account_sessions.insert().values(
            token_hash=token_hash(token), player_id=player_id, created_at=stamp, expires_at=stamp + SESSION_MS
        )
    )
    return Session(player_id=player_id, token=token)


def _is_deleted(conn: sa.Connection, player_id: str) -> bool:
    row = conn.execute(sa.select(a.deleted_players.c.player_id).where(a.deleted_players.c.player_id == player_id))
    return row.first() is not None


def rotate_token(conn: sa.Connection, token: str | None, now: int | None = None) -> Session | None:
    """Retire a valid token and issue a fresh one for the same player (a guest token or an account session); None
    when ``token`` is not a live session. Used wherever a session is (re)established, so that a token planted in a
    browser beforehand (session fixation) stops working there and then."""
    if not token or len(token) > 128:
        return None
    digest = token_hash(token)
    row = conn.execute(sa.select(s.players.c.id).where(s.players.c.token_hash == digest)).first()
    if row is not None:
        fresh = new_token(32)
        conn.execute(s.players.update().where(s.players.c.id == row[0]).values(token_hash=token_hash(fresh)))
        return Session(player_id=str(row[0]), token=fresh)
    player = player_for_token(conn, token, now)
    if player is None:
        return None
    conn.execute(a.account_sessions.delete().where(a.account_sessions.c.token_hash == digest))
    return open_session(conn, player, now)


def retire_token(conn: sa.Connection, token: str | None) -> None:
    """The token stops working (a guest token is replaced by one nobody holds; an account session is removed)."""
    if not token or len(token) > 128:
        return
    digest = token_hash(token)
    conn.execute(a.account_sessions.delete().where(a.account_sessions.c.token_hash == digest))
    row = conn.execute(sa.select(s.players.c.id).where(s.players.c.token_hash == digest)).first()
    if row is not None:
        _rotate_guest_token(conn, str(row[0]))


def _rotate_guest_token(conn: sa.Connection, player_id: str) -> None:
    """Replace the player's browser token with one nobody holds: every guest cookie of that player stops working."""
    conn.execute(
        s.players.update().where(s.players.c.id == player_id).values(token_hash=token_hash(secrets.token_urlsafe(32)))
    )


# --------------------------------------------------------------------------------------------- accounts


def account_username(conn: sa.Connection, player_id: str) -> str | None:
    row = conn.execute(sa.select(a.accounts.c.username).where(a.accounts.c.player_id == player_id)).first()
    return None if row is None else str(row[0])


def register(
    conn: sa.Connection,
    username: object,
    password: object,
    player_id: str | None = None,
    name: object = None,
    now: int | None = None,
    password_hash: str | None = None,
) -> Session:
    """Register ``username`` for the guest ``player_id`` (keeping everything that guest earned), or for a new
    player when there is no guest session. Opens and returns an account session. ``password_hash`` is the hash of
    ``password`` when the caller made it already (the HTTP route, in the hashing pool)."""
    user = check_username(username)
    secret = check_password(password)
    stamp = now_ms() if now is None else now
    if player_id is not None:
        if _is_deleted(conn, player_id):
            raise AccountError("auth/required", "this session is no longer valid", 401)
        if account_username(conn, player_id) is not None:
            raise AccountError("account/already_registered", "this player already has an account; log in instead", 409)
        if name is not None:
            conn.execute(s.players.update().where(s.players.c.id == player_id).values(name=check_name(name)))
        # The guest token is retired: whoever else held it (a planted cookie) does not get the account.
        _rotate_guest_token(conn, player_id)
    else:
        player_id = secrets.token_hex(8)
        conn.execute(
            s.players.insert().values(
                id=player_id,
                token_hash=token_hash(secrets.token_urlsafe(32)),
                name=user if name is None else check_name(name),
                created_at=stamp,
            )
        )
    taken = conn.execute(
        sa.select(a.accounts.c.player_id).where(a.accounts.c.username_key == username_key(user))
    ).first()
    if taken is not None:
        raise AccountError("account/username_taken", "this username is taken", 409)
    conn.execute(
        a.accounts.insert().values(
            player_id=player_id,
            username=user,
            username_key=username_key(user),
            password_hash=password_hash or passwords.hash_password(secret),
            created_at=stamp,
        )
    )
    return open_session(conn, player_id, stamp)


def _failures(conn: sa.Connection, key: str, since: int) -> int:
    count = conn.execute(
        sa.select(sa.func.count())
        .select_from(a.login_failures)
        .where(a.login_failures.c.key == key, a.login_failures.c.at > since)
    ).scalar_one()
    return int(count)


def _user_key(username: str, client: str) -> str:
    return "user:" + client[:100] + "|" + username_key(username)[:64]


def login_limited(conn: sa.Connection, username: str, client: str, now: int) -> bool:
    since = now - LOGIN_WINDOW_MS
    return (
        _failures(conn, _user_key(username, client), since) >= MAX_FAILURES_PER_USERNAME
        or _failures(conn, "client:" + client[:150], since) >= MAX_FAILURES_PER_CLIENT
    )


@dataclass(frozen=True, slots=True)
class LoginAttempt:
    """What a login checks, read from the store: ``stored`` is None for a username that does not exist (or cannot:
    the check then runs against a dummy hash, so that every failure costs the same)."""

    username: str | None
    """None when the name cannot be a username (spaces, NUL...): the store never sees it."""
    password: str
    player_id: str | None
    stored: str | None


def login_attempt(conn: sa.Connection, username: object, password: object, client: str, now: int) -> LoginAttempt:
    """The first half of a login, before the password check: ``message/invalid`` for non-strings, ``auth/rate_limited``
    (429) when the store holds too many failures for this username or client within ``LOGIN_WINDOW_MS``."""
    if not isinstance(username, str) or not isinstance(password, str) or len(password) > MAX_PASSWORD:
        raise AccountError("message/invalid", "'username' and 'password' are strings")
    typed = given_password(password)
    possible = bool(username) and len(username) <= 64 and USERNAME_RE.fullmatch(username) is not None
    if not possible or typed is None:
        # Not a username that can exist (NUL, lone surrogates, spaces...): the same answer as a wrong one, without
        # ever reaching the database with it (PostgreSQL refuses NUL in text). It counts against the client.
        if login_limited(conn, "", client, now):
            raise _rate_limited()
        return LoginAttempt(None, "x", None, None)
    if login_limited(conn, username, client, now):
        raise _rate_limited()
    row = conn.execute(
        sa.select(a.accounts.c.player_id, a.accounts.c.password_hash).where(
            a.accounts.c.username_key == username_key(username)
        )
    ).first()
    if row is None:
        return LoginAttempt(username, typed, None, None)
    return LoginAttempt(username, typed, str(row[0]), str(row[1]))


def _rate_limited() -> AccountError:
    return AccountError("auth/rate_limited", "too many failed logins; wait a few minutes and try again", 429)


def login_failed(conn: sa.Connection, attempt: LoginAttempt, client: str, now: int) -> AccountError:
    """Record a failed login (against the username, when it can be one, and against the client) and return the
    error to raise: ``auth/bad_credentials``, the same whether or not the username exists."""
    rows = [{"key": "client:" + client[:150], "at": now}]
    if attempt.username is not None:
        rows.append({"key": _user_key(attempt.username, client), "at": now})
    conn.execute(a.login_failures.insert(), rows)
    conn.execute(a.login_failures.delete().where(a.login_failures.c.at <= now - LOGIN_WINDOW_MS))
    return AccountError("auth/bad_credentials", "wrong username or password", 401)


def login_succeeded(
    conn: sa.Connection, attempt: LoginAttempt, client: str, now: int, new_hash: str | None = None
) -> Session:
    """The second half of a login whose password matched: ``new_hash`` replaces an outdated stored hash."""
    assert attempt.player_id is not None and attempt.username is not None
    if new_hash is not None:
        conn.execute(
            a.accounts.update().where(a.accounts.c.player_id == attempt.player_id).values(password_hash=new_hash)
        )
    conn.execute(a.login_failures.delete().where(a.login_failures.c.key == _user_key(attempt.username, client)))
    return open_session(conn, attempt.player_id, now)


def password_matches(attempt: LoginAttempt) -> bool:
    """The expensive part (argon2): run it where expensive work runs (``sefode.server.work.HASHING``)."""
    return passwords.verify_password(attempt.stored, attempt.password) and attempt.player_id is not None


def rehash(attempt: LoginAttempt) -> str | None:
    """A fresh hash of the typed password when the stored one uses outdated parameters (expensive too)."""
    if attempt.stored is None or not passwords.needs_rehash(attempt.stored):
        return None
    return passwords.hash_password(attempt.password)


def login(conn: sa.Connection, username: object, password: object, client: str, now: int | None = None) -> Session:
    """Open an account session, all in the caller's thread (the HTTP route runs the same steps, with the password
    check in the hashing pool). Wrong username and wrong password give the same answer (``auth/bad_credentials``),
    after the same password-hashing work. Too many failures for one username or from one client within
    ``LOGIN_WINDOW_MS`` give ``auth/rate_limited`` (429), whether or not the username exists.

    Failures are written in the caller's transaction: the caller must commit even when this raises
    ``auth/bad_credentials``."""
    stamp = now_ms() if now is None else now
    attempt = login_attempt(conn, username, password, client, stamp)
    if not password_matches(attempt):
        raise login_failed(conn, attempt, client, stamp)
    return login_succeeded(conn, attempt, client, stamp, rehash(attempt))


def logout(conn: sa.Connection, token: str) -> None:
    """End this browser's session: an account session is removed; a registered player's guest token is replaced
    (a guest without an account only loses the cookie: there is no password to come back with)."""
    digest = token_hash(token)
    conn.execute(a.account_sessions.delete().where(a.account_sessions.c.token_hash == digest))
    row = conn.execute(sa.select(s.players.c.id).where(s.players.c.token_hash == digest)).first()
    if row is not None and account_username(conn, str(row[0])) is not None:
        _rotate_guest_token(conn, str(row[0]))


def logout_everywhere(conn: sa.Connection, player_id: str) -> None:
    if account_username(conn, player_id) is None:
        raise AccountError("account/not_registered", "register first: a guest has only this browser's session")
    conn.execute(a.account_sessions.delete().where(a.account_sessions.c.player_id == player_id))
    _rotate_guest_token(conn, player_id)


def rename(conn: sa.Connection, player_id: str, name: object) -> str:
    nickname = check_name(name)
    conn.execute(s.players.update().where(s.players.c.id == player_id).values(name=nickname))
    return nickname


def delete_account(conn: sa.Connection, player_id: str, password: object, now: int | None = None) -> None:
    """Delete the account: username, password and every session go; the player's past matches remain and show an
    anonymous name; the player leaves the leaderboard."""
    stored = stored_password(conn, player_id)
    if not confirms(stored, password):
        raise AccountError("auth/bad_credentials", "wrong password", 401)
    forget_account(conn, player_id, now)


def stored_password(conn: sa.Connection, player_id: str) -> str:
    """The account's password hash; ``account/not_registered`` when the player has no account."""
    stored = conn.execute(sa.select(a.accounts.c.password_hash).where(a.accounts.c.player_id == player_id)).first()
    if stored is None:
        raise AccountError("account/not_registered", "there is no account to delete")
    return str(stored[0])


def confirms(stored: str, password: object) -> bool:
    """Whether ``password`` is the account's (argon2: expensive, run it in ``sefode.server.work.HASHING``)."""
    typed = given_password(password)
    return typed is not None and passwords.verify_password(stored, typed)


def forget_account(conn: sa.Connection, player_id: str, now: int | None = None) -> None:
    """Delete the account whose password was confirmed (``delete_account`` without the check)."""
    stamp = now_ms() if now is None else now
    conn.execute(a.account_sessions.delete().where(a.account_sessions.c.player_id == player_id))
    conn.execute(a.accounts.delete().where(a.accounts.c.player_id == player_id))
    _rotate_guest_token(conn, player_id)
    conn.execute(s.players.update().where(s.players.c.id == player_id).values(name=ANONYMOUS_NAME))
    conn.execute(s.player_data.delete().where(s.player_data.c.player_id == player_id))  # saved decks go too
    _forget_friends(conn, player_id)
    conn.execute(a.deleted_players.insert().values(player_id=player_id, deleted_at=stamp))


def _forget_friends(conn: sa.Connection, player_id: str) -> None:
    """A deleted account leaves no friend, friend request, block or invitation, either way (``accounts.friends``)."""
    f, r, b, i = a.friends.c, a.friend_requests.c, a.blocks.c, a.room_invites.c
    conn.execute(a.friends.delete().where(sa.or_(f.player_id == player_id, f.friend_id == player_id)))
    conn.execute(a.friend_requests.delete().where(sa.or_(r.from_id == player_id, r.to_id == player_id)))
    conn.execute(a.blocks.delete().where(sa.or_(b.player_id == player_id, b.blocked_id == player_id)))
    conn.execute(a.room_invites.delete().where(sa.or_(i.from_id == player_id, i.to_id == player_id)))


def deleted_ids(conn: sa.Connection, ids: list[str]) -> set[str]:
    if not ids:
        return set()
    rows = conn.execute(sa.select(a.deleted_players.c.player_id).where(a.deleted_players.c.player_id.in_(ids)))
    return {str(r[0]) for r in rows}


# The server's store accepts account sessions through this resolver; the store never imports accounts (issue 8 §7).
register_session_resolver(player_by_session)
