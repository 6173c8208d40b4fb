"""The accounts, leaderboard, profile and tournament JSON API (documented in ``docs/accounts-api.md``).

Mounted by the server (``sefode.server.app``); the rules are ``sefode.accounts`` and ``sefode.awards``, and these
routes, which join both, live above both. Handlers reach the database through
the server's store (``request.app.state.hub.store``, or ``request.app.state.store``) in Starlette's thread pool, and
hash or check passwords in the bounded hashing pool (``sefode.server.work.HASHING``), never in Starlette's pool nor
on the event loop, so a flood of logins can slow neither the other routes nor the tables (docs/security.md).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any, Literal, TypeVar

import msgspec
import sqlalchemy as sa
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sefode import text
from sefode.accounts import bots, friends, passwords, progress, queries, service
from sefode.accounts.bodies import (
    Account,
    BlockStatus,
    BotActive,
    Bots,
    BotToken,
    FriendRecord,
    FriendsPanel,
    FriendStatus,
    GroupScore,
    Invite,
    InviteDismissed,
    InviteSent,
    Leaderboard,
    NameBody,
    NewBot,
    Ok,
    Password,
    PlayerName,
    Profile,
    RatingGames,
    Ratings,
    Register,
    Relations,
    SignedIn,
    Someone,
    Tournament,
    TournamentInfo,
)
from sefode.accounts.service import AccountError
from sefode.awards import Board, recording
from sefode.engine import game_names
from sefode.server import metrics
from sefode.server.gate import LoginGate, Outcome
from sefode.server.messages import ClientError
from sefode.server.privacy import forget_player
from sefode.server.routes.common import read_body, send
from sefode.server.work import HASHING, RETRY_AFTER_S, Busy
from sefode.store.db import now_ms
from sefode.wire import BadBody, Body, answer_of, decode

COOKIE = "sefode_session"
"""The server's session cookie: an account session replaces the guest token in it."""
LOOPBACK = {"localhost", "127.0.0.1", "::1", "[::1]"}
T = TypeVar("T")
B = TypeVar("B", bound=Body)
Handler = Callable[[Request], Awaitable[Response]]


def _engine(request: Request) -> sa.Engine:
    state = request.app.state
    store = getattr(state, "store", None)
    if store is None:
        store = state.hub.store
    engine: sa.Engine = store.engine
    return engine


def _hub(request: Request) -> Any:
    return getattr(request.app.state, "hub", None)


def _token(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    return request.cookies.get(COOKIE)


def _client(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    """The JSON body: streamed under the server's size cap, decoded under its text rule (``sefode.text``)."""
    try:
        raw = await read_body(request)
    except ClientError as err:
        raise AccountError(
            err.code, err.message, {"message/too_large": 413, "request/timeout": 408}.get(err.code, 400)
        ) from None
    try:
        data = text.loads(raw or b"{}", where="body")
    except text.TextError as err:
        raise AccountError("message/invalid", err.message) from None
    if not isinstance(data, dict):
        raise AccountError("message/invalid", "the body must be a JSON object")
    return data


def _typed(body: dict[str, Any], kind: type[B]) -> B:
    """A request body (``_body``) as its type (``sefode.accounts.bodies``); AccountError when it does not fit."""
    try:
        return decode(body, kind)
    except BadBody as err:
        raise AccountError(*err.refusal) from None


def _limit_sessions(request: Request) -> None:
    """The server's per-client limit on new sessions (``sefode.server.limits``), when it has one."""
    limiter = getattr(request.app.state, "limiter", None)
    if limiter is None:
        return
    try:
        limiter.new_session(_client(request))
    except ClientError as err:
        raise AccountError(err.code, err.message, 429) from None


async def _end_sockets(request: Request, player_id: str, token: str | None = None) -> None:
    """Close the WebSockets of the session that ended (``token``) or of every session of the player, on every node
    of a cluster (``Hub.end_sessions``)."""
    hub = _hub(request)
    if hub is None:
        return
    await hub.end_sessions(player_id, token)


async def _tx(request: Request, fn: Callable[[sa.Connection], T]) -> T:
    """Run ``fn`` in one transaction, in a worker thread."""
    engine = _engine(request)

    def run() -> T:
        with engine.begin() as conn:
            return fn(conn)

    return await run_in_threadpool(run)


async def _player(request: Request, required: bool = True) -> str | None:
    token = _token(request)
    player = await _tx(request, lambda conn: service.player_for_token(conn, token))
    if player is None and required:
        raise AccountError("auth/required", "log in or create a session first", 401)
    return player


def _secure(request: Request) -> bool:
    public = getattr(request.app.state, "public_url", None)
    https = isinstance(public, str) and public.lower().startswith("https://")
    return https or request.url.scheme in ("https", "wss") or (request.url.hostname or "") in LOOPBACK


def _set_cookie(request: Request, response: Response, token: str) -> None:
    secure = _secure(request)
    response.set_cookie(
        COOKIE, token, max_age=service.SESSION_MS // 1000, httponly=True, secure=secure, samesite="lax", path="/"
    )


def _forget(request: Request, player_id: str, token: str | None = None, everywhere: bool = False) -> None:
    """Drop the server's in-memory session cache for a token (or every token of the player)."""
    hub = _hub(request)
    sessions = getattr(hub, "sessions", None)
    if not isinstance(sessions, dict):
        return
    for key in list(sessions):
        if key == token or (everywhere and sessions[key][0] == player_id):
            sessions.pop(key, None)


def _renamed(request: Request, player_id: str, name: str) -> None:
    hub = _hub(request)
    if hub is None:
        return
    names = getattr(hub, "names", None)
    if isinstance(names, dict):
        names[player_id] = name
    sessions = getattr(hub, "sessions", None)
    if isinstance(sessions, dict):
        for key, value in list(sessions.items()):
            if value[0] == player_id:
                sessions[key] = (player_id, name, *value[2:])


def _api(handler: Handler) -> Handler:
    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except AccountError as err:
            return _error(err.status, err.code, err.message)
        except Busy as busy:
            response = _error(busy.status, busy.code, busy.message)
            response.headers["retry-after"] = str(RETRY_AFTER_S)
            return response

    return wrapped


def _int(request: Request, key: str, default: int) -> int:
    raw = request.query_params.get(key)
    if raw is None:
        return default
    try:
        return int(raw)
    except ValueError:
        raise AccountError("message/invalid", f"'{key}' must be a whole number") from None


def _me_json(conn: sa.Connection, player_id: str) -> Account:
    data = queries.profile(conn, player_id, per_page=1)
    assert data is not None
    return Account(
        player_id=player_id,
        name=data["name"],
        username=service.account_username(conn, player_id),
        registered=data["registered"],
        medals=data["medals"],
        trophies=len(data["trophies"]),
    )


def _signed_in(me: Account, token: str) -> SignedIn:
    return SignedIn(**msgspec.structs.asdict(me), token=token)


# ------------------------------------------------------------------------------------------------ accounts


def _gate(request: Request) -> LoginGate:
    state = request.app.state
    gate = getattr(state, "login_gate", None)
    if not isinstance(gate, LoginGate):
        gate = state.login_gate = LoginGate()
    return gate


def _hashing_free() -> None:
    """Refuse (``server/busy``) before any other work when the hashing pool is full."""
    if HASHING.taken >= HASHING.slots:
        raise Busy(HASHING.what)


@_api
async def register(request: Request) -> Response:
    body = await _body(request)
    _limit_sessions(request)
    asked = _typed(body, Register)
    service.check_username(asked.username)
    secret = service.check_password(asked.password)
    password_hash = await HASHING.run(passwords.hash_password, secret)
    guest = await _player(request, required=False)
    old_token = _token(request)

    def run(conn: sa.Connection) -> tuple[service.Session, Account]:
        session = service.register(conn, asked.username, secret, guest, asked.name, password_hash=password_hash)
        return session, _me_json(conn, session.player_id)

    session, me = await _tx(request, run)
    if guest is not None:
        _forget(request, guest, old_token)  # register retired the guest token (session fixation)
    _renamed(request, session.player_id, me.name)
    response = send(_signed_in(me, session.token))
    _set_cookie(request, response, session.token)
    return response


@_api
async def login(request: Request) -> Response:
    body = await _body(request)
    client = _client(request)
    try:
        ticket = _gate(request).enter(body.get("username"), client)  # counted before any work, or refused (429)
    except AccountError as err:
        _count_failed(err)
        raise
    outcome = Outcome.FAILED
    try:
        _hashing_free()
        session, me = await _log_in(request, body, client)
        outcome = Outcome.OK
    except AccountError as err:
        outcome = Outcome.VOID if err.code == "auth/rate_limited" else Outcome.FAILED
        _count_failed(err)
        raise
    except Busy:
        outcome = Outcome.VOID
        raise
    finally:
        _gate(request).leave(ticket, outcome)
    response = send(_signed_in(me, session.token))
    _set_cookie(request, response, session.token)
    return response


def _count_failed(err: AccountError) -> None:
    """A refused login, in the metrics (a wrong password, or a login limit)."""
    metrics.LOGIN_FAILURES.labels(err.code).inc()
    if err.code == "auth/rate_limited":
        metrics.RATE_LIMITED.labels("logins").inc()


async def _log_in(request: Request, body: dict[str, Any], client: str) -> tuple[service.Session, Account]:
    """Read the account, check the password in the hashing pool, then record the failure or open the session."""
    stamp = now_ms()
    attempt = await _tx(
        request, lambda conn: service.login_attempt(conn, body.get("username"), body.get("password"), client, stamp)
    )
    if not await HASHING.run(service.password_matches, attempt):
        raise await _tx(request, lambda conn: service.login_failed(conn, attempt, client, stamp))
    new_hash = await HASHING.run(service.rehash, attempt)
    old_token = _token(request)
    old_player = await _player(request, required=False)

    def run(conn: sa.Connection) -> tuple[service.Session, Account]:
        from sefode.accounts.moderation import refuse_banned

        assert attempt.player_id is not None
        refuse_banned(conn, attempt.player_id)  # a banned account opens no session (auth/banned, 403)
        session = service.login_succeeded(conn, attempt, client, stamp, new_hash)
        # The browser's previous token is retired: a token planted before the login never becomes the account's.
        service.retire_token(conn, old_token)
        return session, _me_json(conn, session.player_id)

    done = await _tx(request, run)
    if old_player is not None:
        _forget(request, old_player, old_token)
    return done


def _cleared(request: Request) -> Response:
    response = send(Ok(ok=True))
    secure = _secure(request)
    response.delete_cookie(COOKIE, path="/", httponly=True, secure=secure, samesite="lax")
    return response


@_api
async def logout(request: Request) -> Response:
    token = _token(request)
    player = await _player(request)
    assert player is not None and token is not None
    await _tx(request, lambda conn: service.logout(conn, token))
    _forget(request, player, token)
    await _end_sockets(request, player, token)
    return _cleared(request)


@_api
async def logout_all(request: Request) -> Response:
    player = await _player(request)
    assert player is not None
    await _tx(request, lambda conn: service.logout_everywhere(conn, player))
    _forget(request, player, everywhere=True)
    await _end_sockets(request, player)
    return _cleared(request)


@_api
async def me(request: Request) -> Response:
    player = await _player(request)
    assert player is not None
    return send(await _tx(request, lambda conn: _me_json(conn, player)))


@_api
async def nickname(request: Request) -> Response:
    body = await _body(request)
    player = await _player(request)
    assert player is not None
    wanted = _typed(body, NameBody).name
    name = await _tx(request, lambda conn: service.rename(conn, player, wanted))
    _renamed(request, player, name)
    return send(PlayerName(player_id=player, name=name))


# --------------------------------------------------------------------------------------------- bot accounts


async def _bot_revoked(request: Request, bot_id: str) -> None:
    """A bot's token ended: the server forgets it at once and closes the bot's sockets."""
    _forget(request, bot_id, everywhere=True)
    await _end_sockets(request, bot_id)


@_api
async def create_bot(request: Request) -> Response:
    body = await _body(request)
    player = await _player(request)
    assert player is not None
    wanted = _typed(body, NameBody).name
    made = await _tx(request, lambda conn: bots.create_bot(conn, player, wanted))
    hub = _hub(request)
    known = getattr(hub, "bot_players", None)
    if isinstance(known, set):
        known.add(made["bot_id"])
    _renamed(request, made["bot_id"], made["name"])
    return send(answer_of(made, NewBot))


@_api
async def my_bots(request: Request) -> Response:
    player = await _player(request)
    assert player is not None
    return send(answer_of({"bots": await _tx(request, lambda conn: bots.list_bots(conn, player))}, Bots))


@_api
async def revoke_bot(request: Request) -> Response:
    player = await _player(request)
    assert player is not None
    bot_id = request.path_params["bot_id"]
    await _tx(request, lambda conn: bots.revoke(conn, player, bot_id))
    await _bot_revoked(request, bot_id)
    return send(BotActive(bot_id=bot_id, active=False))


@_api
async def bot_token(request: Request) -> Response:
    player = await _player(request)
    assert player is not None
    bot_id = request.path_params["bot_id"]
    token = await _tx(request, lambda conn: bots.new_token(conn, player, bot_id))
    await _bot_revoked(request, bot_id)  # the old token's sockets
    return send(BotToken(bot_id=bot_id, token=token))


@_api
async def delete(request: Request) -> Response:
    body = await _body(request)
    player = await _player(request)
    assert player is not None
    hub = _hub(request)
    stored = await _tx(request, lambda conn: service.stored_password(conn, player))
    if not await HASHING.run(service.confirms, stored, _typed(body, Password).password):
        raise AccountError("auth/bad_credentials", "wrong password", 401)
    await _tx(request, lambda conn: service.forget_account(conn, player))
    _forget(request, player, everywhere=True)
    await _end_sockets(request, player)
    _renamed(request, player, service.ANONYMOUS_NAME)
    if hub is not None:
        await hub.forget_blocks(player)  # the store forgot its blocks, both ways (``service.forget_account``)
        hub.seen.pop(player, None)
        await forget_player(hub, player, service.ANONYMOUS_NAME)
    return _cleared(request)


# ------------------------------------------------------------------------------------------------ friends

ONLINE_S = 30.0
"""A player counts as online while they hold a WebSocket, or for this long after their home page last asked for
their friends panel (it asks every 10 s)."""


def _limited(request: Request, check: str, player: str) -> None:
    """The server's per-account limit ``check`` (``friend_request`` or ``room_invite``), as a 429."""
    limiter = getattr(request.app.state, "limiter", None)
    if limiter is None:
        return
    try:
        getattr(limiter, check)(player)
    except ClientError as err:
        raise AccountError(err.code, err.message, 429) from None


def _presence(hub: Any, ids: set[str]) -> dict[str, dict[str, Any]]:
    """Who of ``ids`` is online, and at which *public* table (a password or invite-only room is never named)."""
    out: dict[str, dict[str, Any]] = {}
    if hub is None:
        return out
    now = time.monotonic()
    for pid in ids:
        seen = hub.seen.get(pid)
        if seen is not None and now - seen <= ONLINE_S:
            out[pid] = {"online": True, "table": None}
    for conn in list(hub.connections):
        pid = conn.player_id
        if pid not in ids or conn.closed:
            continue
        entry = out.setdefault(pid, {"online": True, "table": None})
        room = conn.room
        if entry["table"] is None and room is not None and room.visibility == "public":
            entry["table"] = {"room_id": room.id, "name": room.name, "game": room.game_name, "playing": room.playing}
    return out


def _friend_id(request: Request) -> str:
    pid = str(request.path_params["player_id"])
    if len(pid) > 32:
        raise AccountError("friends/unknown_player", "there is no such player", 404)
    return pid


@_api
async def friends_panel(request: Request) -> Response:
    """The friends panel: friends (online or not, and at which public table), requests, blocks, invitations."""
    player = await _player(request)
    assert player is not None
    data = await _tx(request, lambda conn: friends.overview(conn, player))
    hub = _hub(request)
    if hub is not None:
        hub.seen[player] = time.monotonic()
    where = _presence(hub, {f["player_id"] for f in data["friends"]})
    for friend in data["friends"]:
        here = where.get(friend["player_id"], {"online": False, "table": None})
        friend["online"] = here["online"]
        friend["table"] = here["table"]
    return send(answer_of(data, FriendsPanel))


@_api
async def add_friend(request: Request) -> Response:
    body = await _body(request)
    player = await _player(request)
    assert player is not None
    await _tx(request, lambda conn: friends.require_account(conn, player))
    _limited(request, "friend_request", player)

    who = msgspec.structs.asdict(_typed(body, Someone))

    def run(conn: sa.Connection) -> FriendStatus:
        other = friends.target(conn, who)
        return answer_of({"player_id": other, "status": friends.request(conn, player, other)}, FriendStatus)

    return send(await _tx(request, run))


def _friend_change(
    change: Callable[[sa.Connection, str, str], object], status: Literal["friends", "none"]
) -> Callable[[Request], Awaitable[Response]]:
    """A route that makes one change to the caller's link with ``{player_id}`` and answers the link's new status."""

    @_api
    async def route(request: Request) -> Response:
        player = await _player(request)
        assert player is not None
        other = _friend_id(request)
        await _tx(request, lambda conn: change(conn, player, other))
        return send(FriendStatus(player_id=other, status=status))

    return route


accept_friend = _friend_change(friends.accept, "friends")
decline_friend = _friend_change(friends.decline, "none")
remove_friend = _friend_change(friends.remove, "none")


@_api
async def friend_record(request: Request) -> Response:
    player = await _player(request)
    assert player is not None
    other = _friend_id(request)
    return send(answer_of(await _tx(request, lambda conn: friends.record(conn, player, other)), FriendRecord))


@_api
async def relations(request: Request) -> Response:
    """What the caller is to the players of a table (``?ids=a,b``): account or guest, friend, request, blocked."""
    player = await _player(request)
    assert player is not None
    raw = request.query_params.get("ids", "")
    ids = [i for i in raw.split(",") if i][: friends.MAX_RELATIONS + 1]

    def run(conn: sa.Connection) -> Relations:
        friends.require_account(conn, player)
        return answer_of({"players": friends.relations(conn, player, ids)}, Relations)

    return send(await _tx(request, run))


@_api
async def block_player(request: Request) -> Response:
    body = await _body(request)
    player = await _player(request)
    assert player is not None
    await _tx(request, lambda conn: friends.require_account(conn, player))
    _limited(request, "friend_request", player)

    who = _typed(body, Someone)

    def run(conn: sa.Connection) -> str:
        named = who.player_id
        return friends.block(conn, player, named if named is not None else friends.find_account(conn, who.name))

    other = await _tx(request, run)
    hub = _hub(request)
    if hub is not None:
        await hub.set_block(player, other, True)
    return send(BlockStatus(player_id=other, blocked=True))


@_api
async def unblock_player(request: Request) -> Response:
    player = await _player(request)
    assert player is not None
    other = _friend_id(request)
    await _tx(request, lambda conn: friends.unblock(conn, player, other))
    hub = _hub(request)
    if hub is not None:
        await hub.set_block(player, other, False)
    return send(BlockStatus(player_id=other, blocked=False))


@_api
async def invite_friend(request: Request) -> Response:
    """Invite a friend to a room the caller is in (its owner, seated, or at the table now)."""
    body = await _body(request)
    player = await _player(request)
    assert player is not None
    await _tx(request, lambda conn: friends.require_account(conn, player))
    asked = _typed(body, Invite)
    other, room_id = asked.player_id, asked.room_id
    if len(room_id) > 32 or len(other) > 32:
        raise AccountError("message/invalid", "'player_id' and 'room_id' are strings")
    hub = _hub(request)
    room = hub.rooms.get(room_id) if hub is not None else None
    if room is None:
        raise AccountError("room/not_found", "there is no such room", 404)
    if player != room.owner and player not in room.seated_players() and player not in room.connected_players():
        raise AccountError("friends/not_in_room", "you can invite friends only to a table you are at", 403)
    _limited(request, "room_invite", player)
    invite_id = await _tx(request, lambda conn: friends.invite(conn, player, other, room_id))
    return send(InviteSent(id=invite_id, player_id=other, room_id=room_id))


@_api
async def dismiss_invite(request: Request) -> Response:
    player = await _player(request)
    assert player is not None
    invite_id = str(request.path_params["invite_id"])[:32]
    await _tx(request, lambda conn: friends.dismiss(conn, player, invite_id))
    return send(InviteDismissed(id=invite_id, dismissed=True))


# ------------------------------------------------------------------------------------------------ awards


@_api
async def leaderboard(request: Request) -> Response:
    raw_board = request.query_params.get("board", "medals")
    if raw_board not in ("medals", "trophies"):
        raise AccountError("message/invalid", "'board' is medals or trophies")
    page = _int(request, "page", 1)
    per_page = _int(request, "per_page", 20)
    me = await _player(request, required=False) if request.query_params.get("me") in ("1", "true") else None
    data = await _tx(request, lambda conn: queries.leaderboard(conn, Board(raw_board), page, per_page, me))
    return send(answer_of(data, Leaderboard))


@_api
async def rating_games(request: Request) -> Response:
    return send(answer_of({"games": queries.rating_games()}, RatingGames))


@_api
async def rating_table(request: Request) -> Response:
    game = request.path_params["game"]
    if game not in game_names():
        raise AccountError("ratings/unknown_game", f"there is no game {game!r}", 404)
    page = _int(request, "page", 1)
    per_page = _int(request, "per_page", 20)
    me = await _player(request, required=False) if request.query_params.get("me") in ("1", "true") else None
    data = await _tx(request, lambda conn: queries.rating_table(conn, game, page, per_page, me))
    return send(answer_of(data, Ratings))


@_api
async def player_profile(request: Request) -> Response:
    player_id = request.path_params["player_id"]
    page = _int(request, "page", 1)
    per_page = _int(request, "per_page", queries.HISTORY_PAGE)
    data = (
        await _tx(request, lambda conn: _with_progress(conn, queries.profile(conn, player_id, page, per_page)))
        if len(player_id) <= 32
        else None
    )
    if data is None:
        raise AccountError("player/not_found", "there is no such player", 404)
    return send(answer_of(data, Profile))


@_api
async def my_profile(request: Request) -> Response:
    player = await _player(request)
    assert player is not None
    page = _int(request, "page", 1)
    per_page = _int(request, "per_page", queries.HISTORY_PAGE)
    data = await _tx(request, lambda conn: _with_progress(conn, queries.profile(conn, player, page, per_page)))
    return send(answer_of(data, Profile))


def _with_progress(conn: sa.Connection, data: dict[str, Any] | None) -> dict[str, Any] | None:
    """A profile with its per-game progress and the player's groups (``sefode.accounts.progress``)."""
    if data is None:
        return None
    player_id = str(data["player_id"])
    return {**data, "progress": progress.progress(conn, player_id), "groups": progress.groups(conn, player_id)}


async def match_group(request: Request) -> Response:
    """The running score of the group (two or more people) that played a finished match: ``{"group": null}`` when
    the match is not recorded yet, unknown, or had fewer than two people."""
    match_id = request.path_params["match_id"]
    data = await _tx(request, lambda conn: progress.group_score(conn, match_id)) if len(match_id) <= 32 else None
    return send(answer_of({"group": data}, GroupScore))


@_api
async def tournament(request: Request) -> Response:
    tid = request.path_params["tournament_id"]
    data = await _tx(request, lambda conn: queries.tournament_json(conn, tid)) if len(tid) <= 32 else None
    if data is None:
        raise AccountError("tournament/not_found", "there is no such tournament", 404)
    return send(answer_of(data, TournamentInfo))


@_api
async def room_tournament(request: Request) -> Response:
    room_id = request.path_params["room_id"]

    def run(conn: sa.Connection) -> dict[str, Any] | None:
        row = recording.room_tournament(conn, room_id)
        return None if row is None else queries.tournament_json(conn, str(row["id"]))

    data = await _tx(request, run) if len(room_id) <= 32 else None
    if data is None:
        if request.query_params.get("missing") == "null":
            # The room page asks on every room: a room without a tournament is normal there, not an error.
            return send(None)
        raise AccountError("tournament/not_found", "this room has no tournament", 404)
    return send(answer_of(data, TournamentInfo))


@_api
async def declare_tournament(request: Request) -> Response:
    """The room's owner declares the room a tournament of 3 or 5 matches, before its first match."""
    body = await _body(request)
    player = await _player(request)
    room_id = request.path_params["room_id"]
    hub = _hub(request)
    room = hub.rooms.get(room_id) if hub is not None else None
    if room is None:
        raise AccountError("room/not_found", "there is no such room", 404)
    if getattr(room, "owner", None) != player:
        raise AccountError("room/not_owner", "only the room's owner may declare a tournament", 403)
    if getattr(room, "match_count", 0) or getattr(room, "match", None) is not None:
        raise AccountError("tournament/too_late", "a tournament is declared before the room's first match", 409)
    matches = _typed(body, Tournament).matches
    tid = await _tx(request, lambda conn: recording.create_tournament(conn, room_id, matches))
    data = await _tx(request, lambda conn: queries.tournament_json(conn, tid))
    return send(answer_of(data, TournamentInfo))


def routes() -> list[Route]:
    """The routes to add to the server's application."""
    return [
        Route("/api/account/register", register, methods=["POST"]),
        Route("/api/account/login", login, methods=["POST"]),
        Route("/api/account/logout", logout, methods=["POST"]),
        Route("/api/account/logout-all", logout_all, methods=["POST"]),
        Route("/api/account/me", me),
        Route("/api/account/nickname", nickname, methods=["POST"]),
        Route("/api/account/delete", delete, methods=["POST"]),
        Route("/api/account/profile", my_profile),
        Route("/api/account/bots", my_bots),
        Route("/api/account/bots", create_bot, methods=["POST"]),
        Route("/api/account/bots/{bot_id}/revoke", revoke_bot, methods=["POST"]),
        Route("/api/account/bots/{bot_id}/token", bot_token, methods=["POST"]),
        Route("/api/account/friends", friends_panel),
        Route("/api/account/friends", add_friend, methods=["POST"]),
        Route("/api/account/friends/{player_id}/accept", accept_friend, methods=["POST"]),
        Route("/api/account/friends/{player_id}/decline", decline_friend, methods=["POST"]),
        Route("/api/account/friends/{player_id}/remove", remove_friend, methods=["POST"]),
        Route("/api/account/friends/{player_id}/record", friend_record),
        Route("/api/account/relations", relations),
        Route("/api/account/blocks", block_player, methods=["POST"]),
        Route("/api/account/blocks/{player_id}/remove", unblock_player, methods=["POST"]),
        Route("/api/account/invites", invite_friend, methods=["POST"]),
        Route("/api/account/invites/{invite_id}/dismiss", dismiss_invite, methods=["POST"]),
        Route("/api/leaderboard", leaderboard),
        Route("/api/ratings", rating_games),
        Route("/api/ratings/{game}", rating_table),
        Route("/api/players/{player_id}", player_profile),
        Route("/api/matches/{match_id}/group", match_group),
        Route("/api/tournaments/{tournament_id}", tournament),
        Route("/api/rooms/{room_id}/tournament", room_tournament),
        Route("/api/rooms/{room_id}/tournament", declare_tournament, methods=["POST"]),
    ]
