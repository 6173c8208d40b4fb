"""Issue 10: what a stranger sends cannot break a table or take over a session (docs/security.md).

Each test names the defect of issue 10 it would have caught.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import LiveServer, postgres_url, running_server
from table_helpers import table
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

from sefode import text

SURROGATE = '"x\\ud800"'  # a lone surrogate, as a JSON escape
NUL = '"x\\u0000"'


@pytest.fixture(params=["sqlite", "postgresql"])
def any_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'db.sqlite3'}"
    else:
        with postgres_url() as url:
            yield url


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[LiveServer]:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as live:
        yield live


def raw_post(srv: LiveServer, path: str, raw: str, token: str | None = None, **headers: str) -> httpx.Response:
    hdrs = {"content-type": "application/json", **headers}
    if token:
        hdrs["authorization"] = f"Bearer {token}"
    return srv.http.post(path, content=raw.encode(), headers=hdrs)


def code_of(response: httpx.Response) -> str:
    code: str = response.json()["error"]["code"]
    return code


# ------------------------------------------------------------------------------------------ 1. the text rule
def test_text_rule_refuses_lone_surrogates_nul_and_control_and_normalises() -> None:
    for bad in ("x\ud800", "x\x00y", "a\x1bb", "", " " * 3, "x" * 25):
        with pytest.raises(text.TextError):
            text.name(bad)
    assert text.name("  Jose\u0301  ") == "José"  # NFC: one code point, stripped
    assert text.chat("two\nlines") == "two\nlines"
    with pytest.raises(text.TextError):
        text.chat("nul\x00")
    with pytest.raises(text.TextError):
        text.token("convite-ç", "invite")
    assert text.ref(2**53 - 1) == 2**53 - 1
    for bad_ref in (2**64, -(2**64), 2**53, True, 1.5, "x\ud800"):
        with pytest.raises(text.TextError):
            text.ref(bad_ref)
    with pytest.raises(text.TextError):
        text.loads("[" * 100 + "]" * 100)
    with pytest.raises(text.TextError):
        text.loads('{"a": NaN}')
    with pytest.raises(text.TextError):
        text.loads('{"\\ud800": 1}')
    assert text.printable("x" * 10_000, 20).endswith("…") and len(text.printable("x" * 10_000, 20)) == 20


def test_text_loads_reads_what_the_standard_decoder_reads_and_refuses_the_same() -> None:
    """``text.loads`` decodes with orjson and falls back to the standard decoder where the two differ: integers
    beyond 64 bits stay exact, and a lone surrogate, NaN or too deep a text still gets its own clear error."""
    for raw in (
        '{"type": "action", "action": {"play": "Ks"}, "version": 12}',
        '{"big": 123456789012345678901234567890, "neg": -18446744073709551617, "f": 1.5, "e": 1e20}',
        '[1, 2.0, "x\\u00e9", {"a": [true, false, null]}]',
        '{"a": 1, "a": 2}',
        '"\\ud83c\\udccf"',
    ):
        assert text.loads(raw) == json.loads(raw), raw
        assert text.loads(raw.encode()) == json.loads(raw), raw
    assert type(text.loads('{"v": 123456789012345678901234567890}')["v"]) is int
    with pytest.raises(text.TextError, match="lone surrogate"):
        text.loads('{"name": "x\\ud800"}')
    with pytest.raises(text.TextError, match="NUL"):
        text.loads('{"name": "x\\u0000"}')
    with pytest.raises(text.TextError, match="one JSON object"):
        text.loads('{"a": NaN}')
    with pytest.raises(text.TextError, match="one JSON object"):
        text.loads("[1,]")
    with pytest.raises(text.TextError, match="deeper than 32"):
        text.loads(b"[" * 33 + b"]" * 33)
    assert text.loads("[" * 32 + "]" * 32) == json.loads("[" * 32 + "]" * 32)
    assert text.loads('["' + "[" * 40 + '"]') == ["[" * 40]  # brackets inside a string are not depth


def test_a_lone_surrogate_room_name_is_refused_and_the_lobby_keeps_working(any_db: str) -> None:
    """Defect 1: ``POST /api/rooms`` with the name "x\\ud800" was stored and broke the lobby for everyone."""
    with running_server(any_db) as srv:
        ana = srv.player("Ana")
        for field in ("name", "password"):
            body = '{"' + field + '": ' + SURROGATE + ', "visibility": "password", "password": "pw"}'
            if field == "password":
                body = '{"name": "Mesa", "visibility": "password", "password": ' + SURROGATE + "}"
            answer = raw_post(srv, "/api/rooms", body, ana.token)
            assert answer.status_code == 400 and code_of(answer) == "message/invalid", answer.text
            assert "Unicode" in answer.json()["error"]["message"]
        nul = raw_post(srv, "/api/rooms", '{"name": ' + NUL + "}", ana.token)
        assert nul.status_code == 400 and code_of(nul) == "message/invalid"
        session = raw_post(srv, "/api/session", '{"name": ' + SURROGATE + "}")
        assert session.status_code == 400 and code_of(session) == "message/invalid"
        created = ana.create_room(name="Jose\u0301", options={"players": 3})
        lobby = srv.http.get("/api/rooms")
        assert lobby.status_code == 200
        assert [r["name"] for r in lobby.json()["rooms"]] == ["José"]
        assert srv.http.get(f"/api/rooms/{created['room_id']}").status_code == 200


def test_lone_surrogates_and_nul_in_messages_are_refused_and_change_nothing(srv: LiveServer) -> None:
    """Defect 1: the same string as a team name made joins fail, and ``start`` started a match while answering
    ``server/error``."""
    room_id, (ana, _bia, _carl, _dani) = table(srv, ["Ana", "Bia", "Carl", "Dani"], {"players": 4, "teams": True})
    room = srv.hub.rooms[room_id]
    before = json.dumps(room.data(), sort_keys=True)
    for raw in (
        '{"type": "set_teams", "teams": [{"name": ' + SURROGATE + "}]}",
        '{"type": "set_teams", "teams": [{"symbol": ' + SURROGATE + "}]}",
        '{"type": "set_teams", "teams": [{"name": ' + NUL + "}]}",
        '{"type": "chat", "text": ' + SURROGATE + "}",
        '{"type": "chat", "text": ' + NUL + "}",
        '{"type": "join", "room": ' + SURROGATE + "}",
        '{"type": "join", "room": "' + room_id + '", "password": ' + SURROGATE + "}",
        '{"type": "action", "action": {"bid": ' + SURROGATE + '}, "version": 0}',
        '{"type": "ping", "ref": ' + SURROGATE + "}",
        '{"type": "ping", "\\ud800": 1}',
    ):
        ana.send_raw(raw)
        answer = ana.wait_type("error")
        assert answer["code"] == "message/invalid", (raw, answer)
    assert json.dumps(room.data(), sort_keys=True) == before
    # A team name is NFC-normalised, and joining afterwards works.
    ana.send("set_teams", teams=[{"name": "Jose\u0301"}])
    ana.wait(lambda m: m["type"] == "room" and m["room"]["teams"][0]["name"] == "José")
    extra = srv.player("Eva").connect()
    assert extra.join(room_id, invite=room.invite_token)["type"] == "room"


def test_a_server_error_on_start_leaves_the_room_between_matches(srv: LiveServer, monkeypatch: Any) -> None:
    """Defect 1: ``start`` answered ``server/error … nothing was changed`` yet the match started."""
    room_id, (ana, _bia) = table(srv, ["Ana", "Bia"], {"players": 2})
    room = srv.hub.rooms[room_id]
    calls = {"n": 0}

    def failing_save(*args: Any) -> None:
        calls["n"] += 1
        raise RuntimeError("the disk is full")

    # The room's write, as every room save makes it (through the fenced write path, sefode.server.hub).
    monkeypatch.setattr("sefode.server.hub.save_room_on", failing_save)
    ana.send("start")
    answer = ana.wait_type("error")
    assert answer["code"] == "server/error" and calls["n"] == 1
    assert room.match is None and room.current_match is None and room.match_count == 0 and not room.playing
    monkeypatch.undo()
    ana.send("start")
    state = ana.wait_type("state")
    assert state["version"] == 0 and room.match_count == 1


# ------------------------------------------------------------------------------------- 10. clean refusals
def test_deep_nesting_long_rules_names_non_ascii_invites_and_huge_refs_are_clean_refusals(srv: LiveServer) -> None:
    """Defect 10: each of these gave a 500, a ``server/error`` or a dropped socket."""
    ana = srv.player("Ana")
    deep = "[" * 5000 + "]" * 5000
    for path in ("/api/session", "/api/rooms", "/api/solo", "/api/account/login", "/api/account/register"):
        answer = raw_post(srv, path, '{"name": ' + deep + "}", ana.token)
        assert answer.status_code == 400 and code_of(answer) == "message/invalid", (path, answer.text)
    long_rules = srv.http.get("/api/rules/" + "a" * 300)
    assert long_rules.status_code == 404 and code_of(long_rules) == "rules/not_found"
    assert srv.http.get("/api/invite/" + "ç" * 10).status_code == 404
    client = ana.connect()
    client.send("join", room="nope", invite="convite-ç")
    assert client.wait_type("error")["code"] == "message/invalid"
    client.send("ping", ref=2**64)
    refused = client.wait_type("error")
    assert refused["code"] == "message/invalid" and "ref" not in refused
    client.send_raw('{"type": "ping", "ref": ' + "9" * 4000 + "}")
    assert client.wait_type("error")["code"] == "message/invalid"
    client.send_raw("[" * 2000 + "]" * 2000)
    assert client.wait_type("error")["code"] == "message/invalid"
    client.send("ping", ref=2**53 - 1)
    assert client.wait_type("pong")
    assert not client.ws.close_code  # still connected


def test_nul_in_a_login_name_is_a_clean_refusal(any_db: str) -> None:
    """Defect 10: on PostgreSQL only, a NUL in a login name gave 500."""
    with running_server(any_db) as srv:
        for body in (
            '{"username": ' + NUL + ', "password": "whatever1"}',
            '{"username": "ana", "password": ' + NUL + "}",
            '{"username": ' + SURROGATE + ', "password": "whatever1"}',
        ):
            answer = raw_post(srv, "/api/account/login", body)
            assert answer.status_code in (400, 401), answer.text
        register = raw_post(srv, "/api/account/register", '{"username": "ana_x", "password": "a\\u0000bcdefgh"}')
        assert register.status_code == 400 and code_of(register) == "message/invalid"
        control = raw_post(srv, "/api/account/register", '{"username": "ana_x", "password": "a\\u0001bcdefgh"}')
        assert control.status_code == 400 and code_of(control) == "account/bad_password"


# ------------------------------------------------------------------------- 3. session end closes sockets
def _register(srv: LiveServer, guest_token: str, username: str) -> str:
    answer = srv.http.post(
        "/api/account/register",
        json={"username": username, "password": "correct horse"},
        headers={"authorization": f"Bearer {guest_token}"},
    )
    assert answer.status_code == 200, answer.text
    srv.http.cookies.clear()
    token: str = answer.json()["token"]
    return token


def _closed_with(client: Any) -> int | None:
    try:
        while True:
            client.ws.recv(timeout=20)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else None


@pytest.mark.parametrize("how", ["logout", "logout-all", "delete"])
def test_ending_a_session_closes_its_websockets_with_4410(srv: LiveServer, how: str) -> None:
    """Defect 3: after log out, log out everywhere or deletion, an open socket still accepted chat, sit, stand."""
    ana = srv.player("Ana")
    ana.token = _register(srv, ana.token, "ana_" + how.replace("-", ""))
    here = ana.connect()
    other_session = srv.http.post(
        "/api/account/login", json={"username": "ana_" + how.replace("-", ""), "password": "correct horse"}
    )
    srv.http.cookies.clear()
    elsewhere_token = other_session.json()["token"]
    elsewhere = ana.connect()
    elsewhere.ws.send(json.dumps({"type": "auth", "token": elsewhere_token}))
    elsewhere.wait_type("hello")
    auth = {"authorization": f"Bearer {ana.token}"}
    if how == "delete":
        answer = srv.http.post("/api/account/delete", json={"password": "correct horse"}, headers=auth)
    else:
        answer = srv.http.post(f"/api/account/{how}", headers=auth)
    assert answer.status_code == 200, answer.text
    assert _closed_with(here) == 4410
    if how == "logout":
        elsewhere.send("ping")  # another session of the same account stays
        assert elsewhere.wait_type("pong")
    else:
        assert _closed_with(elsewhere) == 4410
    # The ended session cannot come back in.
    with connect(srv.ws_url) as ws:
        ws.send(json.dumps({"type": "auth", "token": ana.token}))
        assert json.loads(ws.recv(timeout=20))["code"] == "auth/required"


# ------------------------------------------------------------------------------------ 4. session fixation
def test_a_planted_cookie_is_never_handed_back_and_stops_working(srv: LiveServer) -> None:
    """Defect 4: ``POST /api/session`` accepted a planted cookie and handed that token back."""
    attacker = srv.player("Mallory")
    victim = httpx.Client(base_url=srv.url, cookies={"sefode_session": attacker.token})
    answer = victim.post("/api/session", json={"name": "Vic"})
    assert answer.status_code == 200
    fresh = answer.json()["token"]
    assert fresh != attacker.token
    assert "sefode_session=" + fresh in answer.headers["set-cookie"]
    assert srv.http.get("/api/me", headers={"authorization": f"Bearer {attacker.token}"}).status_code == 401
    assert srv.http.get("/api/me", headers={"authorization": f"Bearer {fresh}"}).json()["name"] == "Vic"
    # A token the server never issued is ignored: a new session with a new token.
    forged = httpx.Client(base_url=srv.url, cookies={"sefode_session": "made-up-token"})
    made = forged.post("/api/session", json={"name": "Zé"}).json()
    assert made["token"] != "made-up-token"
    victim.close()
    forged.close()


def test_registering_and_logging_in_retire_the_previous_token(srv: LiveServer) -> None:
    """Defect 4: registering or logging in kept the guest token, and it worked forever."""
    guest = srv.player("Gil")
    account_token = _register(srv, guest.token, "gil_acct")
    assert account_token != guest.token
    assert srv.http.get("/api/me", headers={"authorization": f"Bearer {guest.token}"}).status_code == 401
    assert srv.http.get("/api/me", headers={"authorization": f"Bearer {account_token}"}).json()["player_id"] == guest.id
    # Logging in from a browser that holds someone's (planted) token retires that token.
    planted = srv.player("Planted")
    login = srv.http.post(
        "/api/account/login",
        json={"username": "gil_acct", "password": "correct horse"},
        headers={"authorization": f"Bearer {planted.token}"},
    )
    srv.http.cookies.clear()
    assert login.status_code == 200 and login.json()["token"] not in (planted.token, account_token)
    assert srv.http.get("/api/me", headers={"authorization": f"Bearer {planted.token}"}).status_code == 401


# ------------------------------------------------------------------------------------- 8. deletion scrubs
def test_deleting_an_account_removes_the_nickname_from_rooms_solo_titles_and_teams(srv: LiveServer) -> None:
    """Defect 8: the nickname stayed in room names, ``Solo: <nick>`` and team names."""
    ana = srv.player("Anabela")
    ana.token = _register(srv, ana.token, "anabela")
    auth = {"authorization": f"Bearer {ana.token}"}
    room_id = ana.create_room(name="Mesa da Anabela", options={"players": 4, "teams": True})["room_id"]
    client = ana.connect()
    client.join(room_id)
    client.send("set_teams", teams=[{"name": "Time ANABELA"}])
    client.wait(lambda m: m["type"] == "room" and m["room"]["teams"][0]["name"] == "Time ANABELA")
    solo = srv.http.post("/api/solo", json={"bots": 1, "clock_s": 300}, headers=auth)
    assert solo.status_code == 200, solo.text
    solo_id = solo.json()["room_id"]
    assert srv.hub.rooms[solo_id].name == "Solo: Anabela"
    answer = srv.http.post("/api/account/delete", json={"password": "correct horse"}, headers=auth)
    assert answer.status_code == 200
    invites = {r: srv.hub.rooms[r].invite_token for r in (room_id, solo_id)}  # a solo table is invite-only
    served = json.dumps(
        [srv.http.get(f"/api/rooms/{r}", params={"invite": invites[r]}).json() for r in (room_id, solo_id)],
        ensure_ascii=False,
    )
    stored = json.dumps([srv.hub.rooms[r].data() for r in (room_id, solo_id)], ensure_ascii=False)
    lobby = srv.http.get("/api/rooms").text
    for where in (served, stored, lobby):
        assert "anabela" not in where.lower(), where
    assert srv.hub.rooms[room_id].name == "Mesa"  # the deleted owner's own text goes back to the default
    assert srv.hub.rooms[solo_id].name == "Solo: Anônimo"


# ----------------------------------------------------------------------------- 9. headers, origin, cookies
def test_every_answer_has_the_browser_protection_headers(srv: LiveServer) -> None:
    """Defect 9: no CSP, X-Frame-Options / frame-ancestors, nosniff or Referrer-Policy."""
    for path in ("/", "/api/health", "/api/rooms", "/api/nope", "/static/js/ws.js"):
        headers = srv.http.get(path).headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"], path
        assert "script-src 'self'" in headers["content-security-policy"]
        assert headers["x-frame-options"] == "DENY"
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "same-origin"
        assert "strict-transport-security" not in headers  # plain HTTP: no HSTS


def test_cross_origin_posts_and_websockets_are_refused(srv: LiveServer) -> None:
    """Defect 9: 4 of 4 cross-origin posts were accepted, and the WebSocket had no Origin check."""
    ana = srv.player("Ana")
    evil = {"origin": "https://evil.example", "authorization": f"Bearer {ana.token}"}
    for path, body in (
        ("/api/session", {"name": "X"}),
        ("/api/rooms", {"name": "X"}),
        ("/api/solo", {}),
        ("/api/account/logout", {}),
    ):
        answer = srv.http.post(path, json=body, headers=evil)
        assert answer.status_code == 403 and code_of(answer) == "auth/bad_origin", path
    cross_site = srv.http.post("/api/session", json={"name": "X"}, headers={"sec-fetch-site": "cross-site"})
    assert cross_site.status_code == 403
    own = srv.http.post("/api/session", json={"name": "Own"}, headers={"origin": srv.url})
    assert own.status_code == 200
    srv.http.cookies.clear()
    with pytest.raises(InvalidStatus) as refused:
        connect(srv.ws_url, origin=Origin("https://evil.example"), open_timeout=20)
    assert refused.value.response.status_code == 403
    with connect(srv.ws_url, origin=Origin(srv.url), open_timeout=20) as ws:
        ws.send(json.dumps({"type": "auth", "token": ana.token}))
        assert json.loads(ws.recv(timeout=20))["type"] == "hello"


def test_the_websocket_authenticates_by_cookie(srv: LiveServer) -> None:
    """Defect 9: the session token sat in the WebSocket URL; the cookie (or a first message) replaces it."""
    ana = srv.player("Ana")
    client = ana.connect(cookie=True)
    assert client.received[0]["player_id"] == ana.id
    client.send("ping")
    assert client.wait_type("pong")


def test_cookies_are_secure_when_the_public_url_is_https(tmp_path: Path) -> None:
    """Defect 9: the guest cookie was never ``Secure``; ``--public-url https://...`` says the server is on HTTPS."""
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}", public_url="https://cartas.example.org") as srv:
        answer = srv.http.post("/api/session", json={"name": "Ana"})
        cookie = answer.headers["set-cookie"].lower()
        assert "secure" in cookie and "httponly" in cookie and "samesite=lax" in cookie
        assert srv.http.get("/api/health").headers["strict-transport-security"].startswith("max-age=")
        from_public = srv.http.post(
            "/api/session", json={"name": "Bia"}, headers={"origin": "https://cartas.example.org"}
        )
        assert from_public.status_code == 200
    with running_server(f"sqlite:///{tmp_path / 'db2.sqlite3'}") as plain:
        assert "secure" not in plain.http.post("/api/session", json={"name": "Ana"}).headers["set-cookie"].lower()


def test_room_passwords_are_argon2() -> None:
    """Issue 8 §7: room passwords use argon2 instead of a hand-written pbkdf2."""
    from sefode.server.room import check_password, hash_password

    stored = hash_password("segredo")
    assert stored.startswith("$argon2id$")
    assert check_password("segredo", stored) and not check_password("segred0", stored)


def test_the_history_and_its_seed_wait_for_the_end_of_the_match(srv: LiveServer) -> None:
    """docs/security.md, "What a spectator sees": the seed is published with the history only once the match is over."""
    room_id, (ana, bia) = table(srv, ["Ana", "Bia"], {"players": 2})
    ana.send("start")
    state = ana.wait_type("state")
    match_id = state["match_id"]
    run = srv.hub.rooms[room_id].match
    assert run is not None
    seed = run.seed
    for path in (f"/api/matches/{match_id}/history", f"/api/matches/{match_id}/replay"):
        answer = srv.http.get(path)
        assert answer.status_code == 409 and code_of(answer) == "match/not_over"
        assert str(seed) not in answer.text
    spectator = srv.player("Spec").connect()
    spectator.join(room_id, invite=srv.hub.rooms[room_id].invite_token)
    watched = spectator.wait_type("state")
    assert watched["seat"] is None and str(seed) not in json.dumps(watched)
    assert str(seed) not in json.dumps(bia.wait_type("state") if bia.state is None else bia.state)


def test_a_server_error_on_any_room_change_leaves_the_room_as_stored(srv: LiveServer, monkeypatch: Any) -> None:
    """Defect 1, in general: when storing a change fails, the room goes back to what the store holds."""
    room_id, (ana, bia, _carl, _dani) = table(srv, ["Ana", "Bia", "Carl", "Dani"], {"players": 4, "teams": True})
    room = srv.hub.rooms[room_id]
    before = json.dumps(room.data(), sort_keys=True)

    def failing_save(*args: Any) -> None:
        raise RuntimeError("the database went away")

    monkeypatch.setattr("sefode.server.hub.save_room_on", failing_save)  # every room save's write
    for kind, fields in (
        ("set_teams", {"teams": [{"name": "Outro"}]}),
        ("set_teams", {"draw": True}),
        ("set_seat", {"seat": 1, "bot": "easy"}),
    ):
        assert ana.error(kind, **fields)["code"] == "server/error"
        assert json.dumps(room.data(), sort_keys=True) == before, kind
    assert bia.error("stand")["code"] == "server/error"
    assert json.dumps(room.data(), sort_keys=True) == before
