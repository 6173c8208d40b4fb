"""The HTTP API of docs/protocol.md: sessions, lobby, rooms, solo, invites, rules pages, client pages."""

from __future__ import annotations

from pathlib import Path

import httpx
from server_helpers import running_server

from sefode.store.db import normalise_url


def test_health_answers_with_protocol_version(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as srv:
        response = srv.http.get("/api/health")
        assert response.status_code == 200
        assert response.json()["ok"] is True
        assert response.json()["protocol"] == 5


def test_session_sets_http_only_cookie_and_me_knows_it(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as srv:
        assert srv.http.get("/api/me").status_code == 401
        assert srv.http.get("/api/me").json()["error"]["code"] == "auth/required"
        with httpx.Client(base_url=srv.url) as browser:
            response = browser.post("/api/session", json={"name": "Bia"})
            assert response.status_code == 200
            assert "httponly" in response.headers["set-cookie"].lower()
            me = browser.get("/api/me").json()  # the cookie alone identifies the guest
            assert me == {"player_id": response.json()["player_id"], "name": "Bia"}
            renamed = browser.post("/api/session", json={"name": "Bia 2"}).json()
            assert renamed["player_id"] == me["player_id"]
            assert browser.get("/api/me").json()["name"] == "Bia 2"


def test_session_name_is_validated(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as srv:
        for body in ({}, {"name": ""}, {"name": "x" * 25}, {"name": 3}):
            response = srv.http.post("/api/session", json=body)
            assert response.status_code == 400
            assert response.json()["error"]["code"] == "message/invalid"
        response = srv.http.post("/api/session", content=b"{not json")
        assert response.json()["error"]["code"] == "message/invalid"


def test_lobby_lists_public_and_password_rooms_but_not_invite_rooms(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as srv:
        ana = srv.player("Ana")
        public = ana.create_room(name="Aberta", options={"variant": "sefode", "players": 4}, bots={"1": "easy"})
        locked = ana.create_room(name="Senha", visibility="password", password="pw", options={"players": 3})
        hidden = ana.create_room(name="Convite", visibility="invite", options={"variant": "7letras", "players": 5})
        rooms = {r["id"]: r for r in srv.http.get("/api/rooms").json()["rooms"]}
        assert public["room_id"] in rooms and locked["room_id"] in rooms
        assert hidden["room_id"] not in rooms
        entry = rooms[public["room_id"]]
        assert entry["game"] == "fodinha" and entry["variant"] == "sefode"
        assert entry["seats"] == 4 and entry["seats_taken"] == 2  # the creator and one bot
        assert entry["playing"] is False
        assert "password_hash" not in rooms[locked["room_id"]] and "invite_token" not in rooms[locked["room_id"]]
        assert srv.http.get(f"/api/invite/{hidden['invite_token']}").json() == {"room_id": hidden["room_id"]}
        bad = srv.http.get("/api/invite/not-a-token")
        assert bad.status_code == 404 and bad.json()["error"]["code"] == "room/bad_invite"


def test_create_room_refuses_bad_bodies_with_stable_codes(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as srv:
        anonymous = srv.http.post("/api/rooms", json={"name": "x"})
        assert anonymous.status_code == 401 and anonymous.json()["error"]["code"] == "auth/required"
        ana = srv.player()
        cases = [
            ({"options": {"players": 9}}, "options/invalid"),
            ({"options": {"variant": "7letras", "teams": True}}, "options/invalid"),
            ({"options": {"players": 5, "teams": True}}, "options/invalid"),
            ({"game": "xadrez"}, "game/unknown"),
            ({"visibility": "secret"}, "message/invalid"),
            ({"visibility": "password"}, "message/invalid"),
            ({"clock_s": 1}, "message/invalid"),
            ({"bots": {"1": "genius"}}, "message/invalid"),
            ({"bots": {"7": "easy"}, "options": {"players": 4}}, "room/bad_seat"),
            ({"colour": "red"}, "message/invalid"),
        ]
        for body, code in cases:
            response = ana.post("/api/rooms", body)
            assert response.status_code == 400, body
            assert response.json()["error"]["code"] == code, (body, response.json())
        assert srv.http.get("/api/rooms").json()["rooms"] == []


def test_solo_creates_a_started_room_with_bots(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as srv:
        ana = srv.player()
        response = ana.post("/api/solo", {"variant": "7letras", "bots": 3, "level": "hard"})
        assert response.status_code == 200, response.text
        room = srv.http.get(f"/api/rooms/{response.json()['room_id']}", headers=ana.auth).json()  # invite-only
        assert room["playing"] is True and room["seats"] == 4 and room["variant"] == "7letras"
        for body in ({"bots": 0}, {"bots": 8}, {"level": "god"}, {"variant": "truco"}):
            refused = ana.post("/api/solo", body)
            assert refused.status_code == 400, body


def test_rules_pages_come_from_the_game_packages(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as srv:
        response = srv.http.get("/api/rules/sefode")
        assert response.status_code == 200
        assert response.text.startswith("# ")
        assert response.headers["content-type"].startswith("text/markdown")
        # The plugin distribution's pages are served from its own package, in the language asked for.
        english = srv.http.get("/api/rules/lances", params={"lang": "en"})
        assert english.status_code == 200 and "sealed bids" in english.text
        portuguese = srv.http.get("/api/rules/lances")
        assert portuguese.status_code == 200 and "lances secretos" in portuguese.text
        # Rendered on the server by markdown-it-py, in the language asked for.
        html = srv.http.get("/api/rules/sefode", params={"lang": "en", "format": "html"})
        assert html.status_code == 200 and html.headers["content-type"].startswith("text/html")
        assert html.text.startswith("<h1>") and "<table>" in html.text and "<script" not in html.text
        for missing in ("poker", "..%2Fsecret", "sefode.md", "x" * 300):
            answer = srv.http.get(f"/api/rules/{missing}")
            assert answer.status_code == 404
            assert answer.json()["error"]["code"] == "rules/not_found"


def test_game_catalogue_lists_every_game_with_its_spec_and_resources(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as srv:
        listed = {g["name"]: g for g in srv.http.get("/api/games").json()["games"]}
        assert {"fodinha", "lances"} <= set(listed)
        lances = listed["lances"]
        assert lances["turns"] == "simultaneous" and lances["min_seats"] == lances["max_seats"] == 2
        assert lances["client"] is None  # no module: the page uses the generic renderer
        assert [o["key"] for o in lances["options"]] == ["rounds"]
        catalogue = srv.http.get(lances["i18n"]["en"])
        assert catalogue.status_code == 200 and "game.lances.title" in catalogue.json()
        assert srv.http.get("/games/lances/i18n/fr.json").status_code == 404
        assert srv.http.get("/games/nope/i18n/en.json").status_code == 404
        for bad in ("../game.py", "..%2Fgame.py", "index.js"):
            assert srv.http.get(f"/games/lances/client/{bad}").status_code == 404


def test_client_routes_serve_the_single_page(tmp_path: Path) -> None:
    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>mesa</title>", encoding="utf-8")
    (static / "app.js").write_text("export const x = 1;", encoding="utf-8")
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}", static_dir=static) as srv:
        for path in ("/", "/room/abc", "/invite/tok", "/rules/7letras", "/games/guimenon/decks"):
            response = srv.http.get(path)
            assert response.status_code == 200
            assert "<title>mesa</title>" in response.text
        for unknown in ("/nada", "/room/abc/extra", "/a/b/c"):
            response = srv.http.get(unknown)  # the page, which shows "not found" with a link home
            assert response.status_code == 404
            assert "<title>mesa</title>" in response.text
        assert srv.http.get("/static/app.js").text == "export const x = 1;"
        assert srv.http.get("/static/missing.js").status_code == 404
        # A game's own page is the single page too; its module's files are still its own (issue 22: the builder's
        # old address sends to its page in the shell).
        assert srv.http.get("/games/guimenon/client/builder.js").headers["content-type"].startswith("text/javascript")
        assert "url=/games/guimenon/decks" in srv.http.get("/games/guimenon/client/builder.html").text


def test_placeholder_page_without_the_client_folder(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}", static_dir=tmp_path / "none") as srv:
        response = srv.http.get("/")
        assert response.status_code == 200 and "Se Fode" in response.text


def test_plain_postgresql_urls_map_to_psycopg() -> None:
    assert normalise_url("postgresql://u@h:5432/d") == "postgresql+psycopg://u@h:5432/d"
    assert normalise_url("postgres://u@h/d") == "postgresql+psycopg://u@h/d"
    assert normalise_url("sqlite:///x.db") == "sqlite:///x.db"
