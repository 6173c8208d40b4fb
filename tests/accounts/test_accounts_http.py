"""The accounts JSON API mounted in the real server app (docs/accounts-api.md), on SQLite and PostgreSQL.

The last test plays a small tournament of 3 matches through the server: five guests sit, the owner starts each
match and everybody's turns are played by the server's bots (a seat whose player is not connected is played by a
bot), then the standings, medals, trophy and leaderboard are read as a visitor.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from openskill.models import PlackettLuce
from starlette.testclient import TestClient

from sefode.accounts import service
from sefode.history import replay
from sefode.server.app import create_app
from sefode.store import Store

WAIT_S = 120.0
"""Only turns a hang into a failure; nothing asserts on time."""


@pytest.fixture
def app_url(store: Store) -> str:
    """The database URL of the migrated test store (the app migrates again: a no-op)."""
    return store.url


@pytest.fixture
def server(app_url: str) -> Iterator[TestClient]:
    app = create_app(app_url, bot_delay_s=0.0, disconnect_grace_s=0.0, bot_think_ms=1.0, log=False)
    with TestClient(app) as client:
        yield client


def browser(server: TestClient, https: bool = False) -> TestClient:
    """Another browser: its own cookie jar, same app."""
    return TestClient(server.app, base_url="https://testserver" if https else "http://testserver")


def guest(client: TestClient, name: str) -> str:
    response = client.post("/api/session", json={"name": name})
    assert response.status_code == 200
    player_id: str = response.json()["player_id"]
    return player_id


def error_code(response: Any) -> str:
    code: str = response.json()["error"]["code"]
    return code


def test_register_keeps_the_guest_and_the_server_knows_the_account_session(server: TestClient) -> None:
    ana = guest(server, "Ana")
    response = server.post("/api/account/register", json={"username": "ana", "password": "correct horse"})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["player_id"] == ana and body["registered"] and body["username"] == "ana"
    # The cookie now holds the account session, and the server's own API (and WebSocket) accept it.
    assert server.cookies.get("sefode_session") == body["token"]
    assert server.get("/api/me").json()["player_id"] == ana
    other = browser(server)
    logged = other.post("/api/account/login", json={"username": "ana", "password": "correct horse"})
    assert logged.status_code == 200 and logged.json()["player_id"] == ana
    assert other.get("/api/me").json() == {"player_id": ana, "name": "Ana"}
    with other.websocket_connect("/ws") as ws:
        assert ws.receive_json()["player_id"] == ana


def test_session_cookie_is_http_only_and_secure(server: TestClient) -> None:
    secure = browser(server, https=True)
    response = secure.post("/api/account/register", json={"username": "bia", "password": "correct horse"})
    assert response.status_code == 200
    cookie = response.headers["set-cookie"].lower()
    assert "sefode_session=" in cookie and "httponly" in cookie and "secure" in cookie and "samesite=lax" in cookie


def test_rate_limited_login_over_http(server: TestClient) -> None:
    server.post("/api/account/register", json={"username": "caio", "password": "correct horse"})
    other = browser(server)
    wrong = other.post("/api/account/login", json={"username": "caio", "password": "nope nope"})
    missing = other.post("/api/account/login", json={"username": "nobody", "password": "nope nope"})
    assert wrong.status_code == missing.status_code == 401
    assert wrong.json() == missing.json()  # a failed login never says whether the user exists
    for _ in range(service.MAX_FAILURES_PER_USERNAME - 1):
        other.post("/api/account/login", json={"username": "caio", "password": "nope nope"})
    limited = other.post("/api/account/login", json={"username": "caio", "password": "correct horse"})
    assert limited.status_code == 429 and error_code(limited) == "auth/rate_limited"


def test_log_out_everywhere_nickname_and_delete_over_http(server: TestClient) -> None:
    duda = guest(server, "Duda")
    server.post("/api/account/register", json={"username": "duda", "password": "correct horse"})
    other = browser(server)
    other.post("/api/account/login", json={"username": "duda", "password": "correct horse"})
    assert other.get("/api/me").status_code == 200
    renamed = other.post("/api/account/nickname", json={"name": "Duda K"})
    assert renamed.json() == {"player_id": duda, "name": "Duda K"}
    assert server.get("/api/me").json()["name"] == "Duda K"
    assert server.post("/api/account/logout-all").status_code == 200
    assert other.get("/api/me").status_code == 401  # the server's cached session is gone too
    assert other.get("/api/account/me").status_code == 401
    again = browser(server)
    again.post("/api/account/login", json={"username": "duda", "password": "correct horse"})
    refused = again.post("/api/account/delete", json={"password": "wrong"})
    assert refused.status_code == 401
    assert again.post("/api/account/delete", json={"password": "correct horse"}).status_code == 200
    assert again.get("/api/me").status_code == 401
    profile = server.get(f"/api/players/{duda}").json()
    assert profile["anonymous"] is True and profile["name"] is None and profile["registered"] is False


def test_api_refuses_bad_input(server: TestClient) -> None:
    assert error_code(server.get("/api/account/me")) == "auth/required"
    assert error_code(server.post("/api/account/register", content=b"[1]")) == "message/invalid"
    assert error_code(server.get("/api/leaderboard?board=gold")) == "message/invalid"
    assert error_code(server.get("/api/leaderboard?page=x")) == "message/invalid"
    assert error_code(server.get("/api/players/nobody")) == "player/not_found"
    assert error_code(server.get("/api/tournaments/nothing")) == "tournament/not_found"
    # A room without a tournament: 404 by default; the room page asks with ?missing=null and gets null (no 404).
    assert error_code(server.get("/api/rooms/noroom/tournament")) == "tournament/not_found"
    quiet = server.get("/api/rooms/noroom/tournament?missing=null")
    assert quiet.status_code == 200 and quiet.json() is None


# ----------------------------------------------------------------------------------------------- a tournament


def _sit(client: TestClient, room_id: str, seat: int | None) -> None:
    with client.websocket_connect("/ws") as ws:
        assert ws.receive_json()["type"] == "hello"
        ws.send_json({"type": "join", "room": room_id})
        while ws.receive_json()["type"] != "room":
            pass
        if seat is not None:
            ws.send_json({"type": "sit", "seat": seat})
            while True:
                message = ws.receive_json()
                if message["type"] == "error":
                    raise AssertionError(message)
                if message["type"] == "room" and message["room"]["your_seat"] == seat:
                    break


def _start(owner: TestClient, room_id: str, number: int) -> None:
    """The owner starts match ``number`` of the room and leaves the table to the bots."""
    with owner.websocket_connect("/ws") as ws:
        ws.receive_json()
        ws.send_json({"type": "join", "room": room_id})
        ws.send_json({"type": "start"})
        while True:
            message = ws.receive_json()
            if message["type"] == "error":
                raise AssertionError(message)
            room = message.get("room") if message["type"] == "room" else None
            if room and room["status"] == "playing" and room["match"]["number"] == number:
                return


def _wait_matches(visitor: TestClient, player_id: str, count: int) -> dict[str, Any]:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        profile: dict[str, Any] = visitor.get(f"/api/players/{player_id}").json()
        if profile["matches"]["total"] >= count:
            return profile
        time.sleep(0.05)
    raise AssertionError(f"the server did not finish {count} matches")


def test_a_small_tournament_of_3_matches_played_through_the_server(server: TestClient) -> None:
    owner = server  # the owner runs the room without a seat; five guests play
    guest(owner, "Dona")
    others = [browser(server) for _ in range(5)]
    players = [guest(c, name) for c, name in zip(others, ["Ana", "Bia", "Caio", "Duda", "Edu"], strict=True)]
    created = owner.post(
        "/api/rooms",
        json={
            "name": "Torneio",
            "options": {"variant": "sefode", "players": 5, "lives": 1},
            "clock_s": 5,
            "sit": False,
        },
    )
    assert created.status_code == 200, created.text
    room_id = created.json()["room_id"]
    assert error_code(others[0].post(f"/api/rooms/{room_id}/tournament", json={"matches": 3})) == "room/not_owner"
    declared = owner.post(f"/api/rooms/{room_id}/tournament", json={"matches": 3})
    assert declared.status_code == 200, declared.text
    assert declared.json()["status"] == "playing" and declared.json()["matches"] == 3
    for seat, client in enumerate(others):
        _sit(client, room_id, seat)
    visitor = browser(server)
    for number in (1, 2, 3):
        _start(owner, room_id, number)
        _wait_matches(visitor, players[0], number)
        standings = visitor.get(f"/api/rooms/{room_id}/tournament").json()
        assert standings["played"] == number
        assert {row["player_id"] for row in standings["standings"]} == set(players)
        if number < 3:
            assert standings["status"] == "playing" and standings["champions"] == []
    standings = visitor.get(f"/api/rooms/{room_id}/tournament").json()
    assert standings["status"] == "finished" and standings["valid"] is True
    # Check everything against the placements the engine gives when replaying each match's published history.
    points = dict.fromkeys(players, 0)
    medals = {p: [0, 0, 0] for p in players}
    for match_id in standings["match_ids"]:
        exported = visitor.get(f"/api/matches/{match_id}/history")
        assert exported.status_code == 200 and exported.json()["format"] == "sefode-history/1"
        placements = replay(exported.json()).result()["placements"]
        for seat, place in enumerate(placements):
            points[players[seat]] += sum(1 for other in placements if other > place)
            if place <= 3:
                medals[players[seat]][place - 1] += 1
    assert {row["player_id"]: row["points"] for row in standings["standings"]} == points
    best = max(points.values())
    leaders = [p for p in players if points[p] == best]
    champions = {c["player_id"] for c in standings["champions"]}
    assert champions and champions <= set(leaders)
    assert set(standings["trophies"]) == champions
    # The leaderboard as a visitor sees it: gold, then silver, then bronze; the trophy board: the champions.
    board = visitor.get("/api/leaderboard?per_page=10").json()
    assert {row["player_id"]: [row["gold"], row["silver"], row["bronze"]] for row in board["rows"]} == {
        p: m for p, m in medals.items() if any(m)
    }
    tallies = [(row["gold"], row["silver"], row["bronze"]) for row in board["rows"]]
    assert tallies == sorted(tallies, reverse=True)
    trophies = visitor.get("/api/leaderboard?board=trophies").json()
    assert {row["player_id"] for row in trophies["rows"]} == champions
    assert all(row["trophies"] == 1 for row in trophies["rows"])
    profile = visitor.get(f"/api/players/{next(iter(champions))}").json()
    assert len(profile["trophies"]) == 1 and profile["matches"]["total"] == 3
    # The game's rating table: the three matches, in order, as OpenSkill itself rates them (five humans, no units).
    model = PlackettLuce()
    skill = {p: model.rating() for p in players}
    for match_id in standings["match_ids"]:
        placements = replay(visitor.get(f"/api/matches/{match_id}/history").json()).result()["placements"]
        new = model.rate([[skill[p]] for p in players], ranks=[float(x) for x in placements])
        skill = {p: team[0] for p, team in zip(players, new, strict=True)}
    games = visitor.get("/api/ratings").json()["games"]
    assert {"game": "fodinha", "title": "game.fodinha.title"} in games
    ratings = visitor.get("/api/ratings/fodinha?per_page=3").json()
    assert ratings["game"] == "fodinha" and ratings["total"] == 5 and ratings["pages"] == 2
    second = visitor.get("/api/ratings/fodinha?per_page=3&page=2").json()
    rows = ratings["rows"] + second["rows"]
    assert {r["player_id"]: (r["mu"], r["sigma"], r["matches"]) for r in rows} == {
        p: (round(r.mu, 3), round(r.sigma, 3), 3) for p, r in skill.items()
    }
    shown = [r["rating"] for r in rows]
    assert shown == sorted(shown, reverse=True)
    assert profile["ratings"][0]["game"] == "fodinha" and profile["ratings"][0]["matches"] == 3
    assert error_code(visitor.get("/api/ratings/nosuchgame")) == "ratings/unknown_game"


def test_a_tournament_whose_room_empties_ends_without_a_champion(server: TestClient) -> None:
    guest(server, "Ana")
    room_id = server.post("/api/rooms", json={"name": "Vazia", "options": {"variant": "sefode", "players": 5}}).json()[
        "room_id"
    ]
    assert server.post(f"/api/rooms/{room_id}/tournament", json={"matches": 5}).status_code == 200
    with server.websocket_connect("/ws") as ws:
        ws.receive_json()
        ws.send_json({"type": "join", "room": room_id})
        ws.send_json({"type": "stand"})
        while True:
            message = ws.receive_json()
            assert message["type"] != "error", message
            if message["type"] == "room" and message["room"]["your_seat"] is None:
                break
    data = browser(server).get(f"/api/rooms/{room_id}/tournament").json()
    assert data["status"] == "abandoned" and data["champions"] == [] and data["trophies"] == []


def test_tournament_declared_when_the_room_is_created(server: TestClient) -> None:
    guest(server, "Ana")
    bad = server.post("/api/rooms", json={"name": "Série", "options": {"players": 5}, "tournament": 4})
    assert bad.status_code == 400 and error_code(bad) == "message/invalid"
    assert "3 or 5" in bad.json()["error"]["message"]
    created = server.post("/api/rooms", json={"name": "Série", "options": {"players": 5}, "tournament": 3})
    assert created.status_code == 200
    data = browser(server).get(f"/api/rooms/{created.json()['room_id']}/tournament").json()
    assert data["matches"] == 3 and data["played"] == 0 and data["status"] == "playing"


def test_a_tournament_ends_without_a_champion_when_the_owner_puts_a_bot_on_the_last_human_seat(
    server: TestClient,
) -> None:
    guest(server, "Ana")
    options = {"name": "Robôs", "options": {"variant": "sefode", "players": 5}, "tournament": 5}
    room_id = server.post("/api/rooms", json=options).json()["room_id"]
    with server.websocket_connect("/ws") as ws:
        ws.receive_json()
        ws.send_json({"type": "join", "room": room_id})
        ws.send_json({"type": "set_seat", "seat": 0, "bot": "easy"})
        while True:
            message = ws.receive_json()
            assert message["type"] != "error", message
            if message["type"] == "room" and message["room"]["seats"][0]["bot"] == "easy":
                break
    data = browser(server).get(f"/api/rooms/{room_id}/tournament").json()
    assert data["status"] == "abandoned" and data["champions"] == []
