"""Bot accounts (issue 15 §1, docs/rulings.md §1): created by a registered player, token shown once and revocable,
scoped to playing, marked as bots, seated only where the owner allows, never a human: no medal, no rating.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from cluster_helpers import cluster
from server_helpers import WAIT_S, Client, LiveServer, Message, Player, registered, run_async, running_server
from table_helpers import drive, sat
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from sefode.awards import tables as w
from sefode.client import AuthError, RoomUpdate, ServerError
from sefode.client import Client as SdkClient
from sefode.server.routes import ws as ws_routes

ROOT = Path(__file__).resolve().parents[2]
RANDOM_BOT = ROOT / "examples" / "bots" / "random_bot.py"


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[LiveServer]:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as live:
        yield live


def _bot(srv: LiveServer, owner: Player, name: str = "Robô") -> dict[str, Any]:
    response = owner.post("/api/account/bots", {"name": name})
    assert response.status_code == 200, response.text
    made: dict[str, Any] = response.json()
    assert set(made) == {"bot_id", "name", "token"}
    return made


def test_only_a_registered_player_creates_bots_and_the_token_is_shown_once(srv: LiveServer) -> None:
    guest = srv.player("Gil")
    refused = guest.post("/api/account/bots", {"name": "Robô"})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "account/required"
    owner = registered(srv, "ana")
    made = _bot(srv, owner)
    listed = srv.http.get("/api/account/bots", headers=owner.auth).json()["bots"]
    assert [b["bot_id"] for b in listed] == [made["bot_id"]] and listed[0]["active"] is True
    assert made["token"] not in str(listed)  # never shown again
    # Scoped to playing: the token opens no HTTP session route and no account route.
    bot_auth = {"authorization": f"Bearer {made['token']}"}
    room = srv.http.post("/api/rooms", json={"name": "x"}, headers=bot_auth)
    assert room.status_code == 403 and room.json()["error"]["code"] == "auth/bot_scope"
    assert srv.http.get("/api/account/me", headers=bot_auth).status_code == 401
    assert srv.http.post("/api/account/bots", json={"name": "y"}, headers=bot_auth).status_code == 401


def _sit(srv: LiveServer | str, token: str, room_id: str, seat: int) -> list[Any]:
    url = srv if isinstance(srv, str) else srv.url

    async def run() -> list[Any]:
        seen: list[Any] = []
        async with SdkClient(url, token) as client:
            await client.join(room_id)
            await client.sit(seat)
            async for event in client.events():
                seen.append(event)
                if isinstance(event, ServerError) or (
                    isinstance(event, RoomUpdate) and event.room["seats"][seat]["player_id"] is not None
                ):
                    return seen
        return seen

    return run_async(asyncio.wait_for(run(), WAIT_S))


def test_a_bot_sits_only_where_the_owner_allows_and_is_marked_as_a_bot(srv: LiveServer) -> None:
    owner = registered(srv, "ana")
    made = _bot(srv, owner)
    closed = owner.create_room(name="Sem robôs", options={"players": 2}, sit=False)
    seen = _sit(srv, made["token"], closed["room_id"], 0)
    assert isinstance(seen[-1], ServerError) and seen[-1].code == "room/no_bots"
    open_room = owner.create_room(name="Com robôs", options={"players": 2}, sit=False, outside_bots=True)
    seen = _sit(srv, made["token"], open_room["room_id"], 1)
    room = seen[-1].room
    assert room["outside_bots"] is True
    assert room["seats"][1]["player_id"] == made["bot_id"] and room["seats"][1]["bot_account"] is True
    assert room["seats"][0]["bot_account"] is False


def test_a_bot_plays_a_match_and_never_earns_a_medal_or_a_rating(srv: LiveServer) -> None:
    owner = registered(srv, "ana")
    other = registered(srv, "bia")
    made = _bot(srv, owner)
    created = owner.create_room(name="Mesa", options={"players": 3, "lives": 2}, outside_bots=True)
    room_id = created["room_id"]
    ana, bia = owner.connect(), other.connect()
    assert ana.join(room_id)["type"] == "room" and bia.join(room_id)["type"] == "room"
    bia.send("sit", seat=1)
    ana.wait(sat(other.id, 1))
    flags = [f"--url={srv.url}", f"--token={made['token']}", f"--room={room_id}", "--seat=2"]
    proc = subprocess.Popen(
        [sys.executable, str(RANDOM_BOT), *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    ended: list[Message] = []
    try:
        ana.wait(sat(made["bot_id"], 2))
        ana.send("start")
        ana.wait_type("state")

        def watch(client: Client, message: Message) -> None:
            if message["type"] == "match_end" and client is ana:
                ended.append(message)

        drive([ana, bia], lambda: bool(ended), on_message=watch)
        _, err = proc.communicate(timeout=WAIT_S)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    match_id = ended[0]["match_id"]
    with srv.hub.store.engine.connect() as conn:
        seats = conn.execute(sa.select(w.award_seats).where(w.award_seats.c.match_id == match_id)).mappings().all()
        humans = conn.execute(
            sa.select(w.award_matches.c.humans).where(w.award_matches.c.match_id == match_id)
        ).scalar_one()
        rated = set(
            conn.execute(
                sa.select(w.rating_changes.c.player_id).where(w.rating_changes.c.match_id == match_id)
            ).scalars()
        )
        medals = set(conn.execute(sa.select(w.medals.c.player_id)).scalars())
    by_seat = {r["seat"]: r for r in seats}
    assert by_seat[2]["bot"] == "bot" and by_seat[2]["player_id"] is None  # the bot account's seat: a bot
    assert {by_seat[0]["player_id"], by_seat[1]["player_id"]} == {owner.id, other.id}
    assert humans == 2
    assert made["bot_id"] not in rated and rated <= {owner.id, other.id}
    assert made["bot_id"] not in medals
    ratings = srv.http.get("/api/ratings/fodinha").text
    assert made["bot_id"] not in ratings


def test_a_revoked_token_is_refused_at_once_open_sockets_included(srv: LiveServer) -> None:
    owner = registered(srv, "ana")
    made = _bot(srv, owner)
    created = owner.create_room(name="Mesa", options={"players": 2}, sit=False, outside_bots=True)

    async def run() -> None:
        async with SdkClient(srv.url, made["token"], backoff_s=0.05) as client:
            await client.join(created["room_id"])
            async for event in client.events():
                if isinstance(event, RoomUpdate):
                    break
            revoked = await asyncio.to_thread(owner.post, f"/api/account/bots/{made['bot_id']}/revoke", {})
            assert revoked.status_code == 200, revoked.text
            with pytest.raises(AuthError) as closed:
                async for _ in client.events():
                    pass
            assert closed.value.close_code == 4410  # the open socket was closed: the session ended
        with pytest.raises(AuthError):
            async with SdkClient(srv.url, made["token"], max_retries=0):
                pass

    run_async(asyncio.wait_for(run(), WAIT_S))
    listed = srv.http.get("/api/account/bots", headers=owner.auth).json()["bots"]
    assert listed[0]["active"] is False
    # A new token works; the old one still does not.
    fresh = owner.post(f"/api/account/bots/{made['bot_id']}/token", {}).json()["token"]
    assert fresh != made["token"]

    async def again() -> str:
        async with SdkClient(srv.url, fresh) as client:
            assert client.hello is not None
            return client.hello.player_id

    assert run_async(again()) == made["bot_id"]


def test_bots_cannot_be_revoked_by_someone_else(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as srv:
        owner = registered(srv, "ana")
        thief = registered(srv, "eva")
        made = _bot(srv, owner)
        response = thief.post(f"/api/account/bots/{made['bot_id']}/revoke", {})
        assert response.status_code == 404 and response.json()["error"]["code"] == "bot/not_found"


def _close_code(client: Client) -> int | None:
    """Read until the server closes the socket; its close code (the wait is bounded by WAIT_S)."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        try:
            client.ws.recv(timeout=max(0.01, deadline - time.monotonic()))
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd is not None else None
        except TimeoutError:
            break
    raise AssertionError("the socket stayed open")


def test_a_revoked_bot_in_a_match_loses_every_open_socket_and_the_table_plays_its_seat(srv: LiveServer) -> None:
    owner = registered(srv, "ana")
    made = _bot(srv, owner)
    created = owner.create_room(name="Mesa", options={"players": 2, "lives": 2}, outside_bots=True, clock_s=300)
    room_id = created["room_id"]
    ana = owner.connect()
    assert ana.join(room_id)["type"] == "room"
    robot = srv.player("Robô")  # its sockets authenticate with the bot account's token
    robot.token, robot.id = made["token"], made["bot_id"]
    sockets = [robot.connect(), robot.connect()]
    for socket in sockets:
        assert socket.join(room_id, invite=created["invite_token"])["type"] == "room"
    sockets[0].send("sit", seat=1)
    ana.wait(sat(made["bot_id"], 1))
    ana.send("start")
    ana.wait_type("state")
    for socket in sockets:
        socket.wait_type("state")
    revoked = owner.post(f"/api/account/bots/{made['bot_id']}/revoke", {})
    assert revoked.status_code == 200, revoked.text
    # Both open sockets are closed by the revocation itself: the session ended (4410), not a timeout.
    assert [_close_code(socket) for socket in sockets] == [4410, 4410]
    # A new connection with the revoked token gets no hello: the session is refused.
    with connect(srv.ws_url, open_timeout=WAIT_S) as ws:
        ws.send(json.dumps({"type": "auth", "token": made["token"]}))
        refused = json.loads(ws.recv(timeout=WAIT_S))
    assert refused["type"] == "error" and refused["code"] == "auth/required"
    # The match goes on: the table's own bot plays the revoked bot's seat, as for a player who left.
    ended: list[Message] = []
    played_for: list[Message] = []

    def watch(_client: Client, message: Message) -> None:
        if message["type"] == "match_end":
            ended.append(message)
        if message["type"] == "state":
            played_for.extend(e for e in message["events"] if e["type"] == "played_for" and e["seat"] == 1)

    drive([ana], lambda: bool(ended), on_message=watch)
    assert played_for, "the table's bot covered the seat"
    history = srv.http.get(ended[0]["history_url"]).json()
    assert any(entry["seat"] == 1 for entry in history["actions"])


@pytest.mark.parametrize("auth_message", [False, True])
def test_a_new_connection_with_a_revoked_token_is_refused_at_once(
    srv: LiveServer, monkeypatch: pytest.MonkeyPatch, auth_message: bool
) -> None:
    """Refused on the spot, with the cookie as with the auth message: the server's wait for an ``auth`` message
    (``AUTH_WAIT_S``) is made far longer than the test's bound, so only an immediate refusal passes."""
    monkeypatch.setattr(ws_routes, "AUTH_WAIT_S", 3600.0)
    owner = registered(srv, "ana")
    made = _bot(srv, owner)
    assert owner.post(f"/api/account/bots/{made['bot_id']}/revoke", {}).status_code == 200

    async def run() -> None:
        with pytest.raises(AuthError, match="auth/required"):
            async with SdkClient(srv.url, made["token"], max_retries=0, auth_message=auth_message):
                pass

    run_async(asyncio.wait_for(run(), WAIT_S))
    # A live token still connects, with one hello for the caller either way.
    fresh = owner.post(f"/api/account/bots/{made['bot_id']}/token", {}).json()["token"]

    async def live() -> list[Any]:
        async with SdkClient(srv.url, fresh, auth_message=auth_message) as client:
            await client.join(owner.create_room(name="Mesa", options={"players": 2}, outside_bots=True)["room_id"])
            seen: list[Any] = []
            async for event in client.events():
                seen.append(event)
                if isinstance(event, RoomUpdate):
                    return seen
        return seen

    events = run_async(asyncio.wait_for(live(), WAIT_S))
    assert not any(type(e).__name__ == "Hello" for e in events), events


def test_a_bot_account_is_flagged_in_every_answer_that_names_a_seat(srv: LiveServer) -> None:
    """The lobby's list, the room's seats (in the match too), chat, the exported history and the bot's profile all
    say, in a field a program reads, that the bot account is a bot (and the table's own bot, and a human, what they
    are); the bot account is on no leaderboard."""
    owner = registered(srv, "ana")
    made = _bot(srv, owner)
    created = owner.create_room(
        name="Com robôs", options={"players": 3, "lives": 1}, outside_bots=True, bots={"2": "easy"}
    )
    room_id = created["room_id"]
    ana = owner.connect()
    assert ana.join(room_id)["type"] == "room"
    robot = srv.player("Robô")
    robot.token, robot.id = made["token"], made["bot_id"]
    rob = robot.connect()
    assert rob.join(room_id)["type"] == "room"
    rob.send("sit", seat=1)
    ana.wait(sat(made["bot_id"], 1))
    listed = next(r for r in srv.http.get("/api/rooms").json()["rooms"] if r["id"] == room_id)
    assert listed["seats_taken"] == 3 and listed["bots"] == 2  # the bot account and the table's bot
    for client, bot in ((rob, True), (ana, False)):
        client.send("chat", text="olá")
        sender = client.player.id
        said = ana.wait(lambda m: m["type"] == "chat" and m["from"]["player_id"] == sender)  # noqa: B023
        assert said["from"]["bot"] is bot
    ana.send("start")
    playing = ana.wait(lambda m: m["type"] == "room" and m["room"]["match"] is not None)["room"]
    kinds = [(s["bot"], s["bot_account"]) for s in playing["match"]["seats"]]
    assert kinds == [(None, False), (None, True), ("easy", False)]
    ended: list[Message] = []

    def watch(_client: Client, message: Message) -> None:
        if message["type"] == "match_end":
            ended.append(message)

    drive([ana, rob], lambda: bool(ended), on_message=watch)
    history = srv.http.get(ended[0]["history_url"]).json()
    assert history["seats"] == [
        {"seat": 0, "kind": "human"},
        {"seat": 1, "kind": "bot_account", "player_id": made["bot_id"], "name": "Robô"},
        {"seat": 2, "kind": "bot", "level": "easy"},
    ]
    # The export with its seats still replays, in the server's viewer as with `sefode replay`.
    replayed = srv.http.get(f"/api/matches/{ended[0]['match_id']}/replay").json()
    assert replayed["replay"]["error"] is None and replayed["replay"]["over"] is True
    profile = srv.http.get(f"/api/players/{made['bot_id']}").json()
    assert profile["bot"] is True and profile["name"] == "Robô"
    assert srv.http.get(f"/api/players/{owner.id}").json()["bot"] is False
    board = srv.http.get("/api/leaderboard").json()
    assert made["bot_id"] not in {r["player_id"] for r in board["rows"]}


def test_a_bot_created_through_another_server_of_the_same_database_is_refused_and_marked_here(
    tmp_path: Path,
) -> None:
    """Two servers on one database (as two nodes of a cluster): the second loaded its bot accounts before the bot was
    created through the first, yet it scopes the bot's token, refuses it a seat where outside bots are not allowed,
    and marks it as a bot where they are."""
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    with running_server(url) as one, running_server(url) as two:
        made = _bot(one, registered(one, "ana"))
        assert made["bot_id"] not in two.hub.bot_players  # created elsewhere: not in the set two loaded at start
        bot_auth = {"authorization": f"Bearer {made['token']}"}
        scoped = two.http.post("/api/rooms", json={"name": "x"}, headers=bot_auth)
        assert scoped.status_code == 403 and scoped.json()["error"]["code"] == "auth/bot_scope"
        owner = registered(two, "bia")
        closed = owner.create_room(name="Sem robôs", options={"players": 2}, sit=False)
        seen = _sit(two, made["token"], closed["room_id"], 0)
        assert isinstance(seen[-1], ServerError) and seen[-1].code == "room/no_bots"
        open_room = owner.create_room(name="Com robôs", options={"players": 2}, sit=False, outside_bots=True)
        seen = _sit(two, made["token"], open_room["room_id"], 1)
        assert isinstance(seen[-1], RoomUpdate)
        assert seen[-1].room["seats"][1]["player_id"] == made["bot_id"] and seen[-1].room["seats"][1]["bot_account"]
        listed = next(r for r in two.http.get("/api/rooms").json()["rooms"] if r["id"] == open_room["room_id"])
        assert listed["bots"] == 1


def test_the_node_that_owns_a_room_checks_a_bot_it_only_knows_by_id(srv: LiveServer) -> None:
    """A join forwarded in a cluster reaches the room's owner with the player id only (the edge resolved the token):
    the owner's refusal of a seat does not depend on its cache of bot ids, it asks the store."""
    owner = registered(srv, "ana")
    made = _bot(srv, owner)
    closed = owner.create_room(name="Sem robôs", options={"players": 2}, sit=False)
    robot = srv.player("Robô")
    robot.token, robot.id = made["token"], made["bot_id"]
    rob = robot.connect()
    assert rob.join(closed["room_id"])["type"] == "room"
    srv.hub.bot_players.discard(made["bot_id"])  # as an owner that never saw the bot's token nor its creation
    assert rob.error("sit", seat=0)["code"] == "room/no_bots"
    assert made["bot_id"] in srv.hub.bot_players  # looked up once, known from now on


def test_a_join_forwarded_in_a_cluster_is_refused_or_marked_by_the_owner_that_never_saw_the_bot(
    tmp_path: Path,
) -> None:
    """Two ``sefode serve --redis`` nodes on PostgreSQL: the bot is created through n1 and connects to n1; its rooms
    are made on n2 (n2 owns them, and loaded its bot accounts before the bot existed). n1 forwards the join with
    the player id only; n2 refuses the seat where outside bots are not allowed and marks the bot where they are."""
    with cluster(tmp_path, nodes=2) as rig:
        n1, n2 = rig.node_base("n1"), rig.node_base("n2")

        def post(base: str, path: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
            headers = {"authorization": f"Bearer {token}"} if token else {}
            response = httpx.post(f"{base}{path}", json=body, headers=headers, timeout=WAIT_S)
            assert response.status_code == 200, response.text
            answer: dict[str, Any] = response.json()
            return answer

        guest = post(n1, "/api/session", {"name": "Ana"})["token"]
        account = post(n1, "/api/account/register", {"username": "ana", "password": "correct horse"}, guest)
        made = post(n1, "/api/account/bots", {"name": "Robô"}, account["token"])
        owner = post(n2, "/api/session", {"name": "Bia"})["token"]
        rooms = {}
        for allowed in (False, True):
            body = {"name": "x", "options": {"players": 2}, "sit": False, "outside_bots": allowed}
            rooms[allowed] = post(n2, "/api/rooms", body, owner)["room_id"]
            assert rig.owner(rooms[allowed]) == "n2"
        seen = _sit(n1, made["token"], rooms[False], 0)
        assert isinstance(seen[-1], ServerError) and seen[-1].code == "room/no_bots", seen
        seen = _sit(n1, made["token"], rooms[True], 1)
        assert isinstance(seen[-1], RoomUpdate), seen
        seat = seen[-1].room["seats"][1]
        assert seat["player_id"] == made["bot_id"] and seat["bot_account"] is True
        assert rig.owner(rooms[True]) == "n2"  # served by n2 throughout, through n1
