"""Issue 23 ("Play again together"), sharing a table: the summary a visitor sees before choosing a nickname
(``GET /api/rooms/{id}``, with ``seat_list`` and ``?invite=``) and the QR code of the invite link
(``GET /api/invite/{token}/qr``). An invite-only room tells a stranger without its invite nothing, and no answer to a
non-member carries a room's invite token."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import LiveServer, running_server

from sefode.server.routes.rooms import qr_svg


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[LiveServer]:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as live:
        yield live


def _code(answer: httpx.Response) -> str:
    code: str = answer.json()["error"]["code"]
    return code


def _get(srv: LiveServer, path: str, headers: dict[str, str] | None = None, **params: str) -> httpx.Response:
    srv.http.cookies.clear()  # a visitor without a session unless ``headers`` says who
    return srv.http.get(path, params=params, headers=headers)


def test_an_invite_only_rooms_summary_needs_its_invite_or_a_seat(srv: LiveServer) -> None:
    ana, bia, zeca = srv.player("Ana"), srv.player("Bia"), srv.player("Zeca")
    created = ana.create_room(name="Sexta", options={"players": 3}, bots={"2": "hard"}, visibility="invite")
    room_id, invite = created["room_id"], created["invite_token"]
    bia_ws = bia.connect()
    assert bia_ws.join(room_id, invite=invite)["type"] == "room"
    bia_ws.send("sit", seat=1)
    bia_ws.wait(lambda m: m["type"] == "room" and m["room"]["seats"][1]["player_id"] == bia.id)

    # A stranger, with or without a session, with no invite or a wrong one: nothing but "invite-only".
    for headers, params in (
        (None, {}),
        (zeca.auth, {}),
        (None, {"invite": "not-the-invite"}),
        (None, {"invite": invite[:-1]}),
        (None, {"invite": "x" * 300}),
        (None, {"invite": "convite-ção"}),
        (zeca.auth, {"invite": room_id}),
    ):
        refused = _get(srv, f"/api/rooms/{room_id}", headers, **params)
        assert refused.status_code == 404 and _code(refused) == "room/bad_invite", (headers, params)
        assert "Sexta" not in refused.text and invite not in refused.text and "Bia" not in refused.text

    # The invite from the link shows the table to anyone, session or not; the owner and a seated player need none.
    for headers, params in ((None, {"invite": invite}), (ana.auth, {}), (bia.auth, {})):
        shown = _get(srv, f"/api/rooms/{room_id}", headers, **params)
        assert shown.status_code == 200, (headers, shown.text)
        summary: dict[str, Any] = shown.json()
        assert summary["name"] == "Sexta" and summary["game"] == "fodinha" and summary["visibility"] == "invite"
        assert summary["seat_list"] == [
            {"seat": 0, "name": "Ana", "bot": None, "bot_account": False},
            {"seat": 1, "name": "Bia", "bot": None, "bot_account": False},
            {"seat": 2, "name": None, "bot": "hard", "bot_account": False},
        ]
        assert invite not in shown.text and "invite_token" not in summary
        assert ana.id not in shown.text and bia.id not in shown.text  # names only: no player ids
    bia_ws.close()


def test_who_sits_is_shown_wherever_one_may_enter_without_a_password(srv: LiveServer) -> None:
    ana = srv.player("Ana")
    public = ana.create_room(name="Aberta", options={"players": 2})
    locked = ana.create_room(name="Trancada", options={"players": 2}, visibility="password", password="truco")

    open_summary = _get(srv, f"/api/rooms/{public['room_id']}").json()
    assert open_summary["seat_list"][0]["name"] == "Ana"

    # A password room: what the lobby shows (its name, how many seats are taken), never who sits there...
    stranger = _get(srv, f"/api/rooms/{locked['room_id']}")
    assert stranger.status_code == 200 and stranger.json()["seats_taken"] == 1
    assert "seat_list" not in stranger.json() and "Ana" not in stranger.text
    # ...unless the caller holds its invite link (which lets them in without the password) or owns it.
    for headers, params in ((None, {"invite": locked["invite_token"]}), (ana.auth, {})):
        summary = _get(srv, f"/api/rooms/{locked['room_id']}", headers, **params).json()
        assert summary["seat_list"][0]["name"] == "Ana", (headers, params)
    # A wrong invite on a room that does not need one is no error: it is just no invite.
    assert _get(srv, f"/api/rooms/{public['room_id']}", invite="wrong").status_code == 200

    # Nothing a non-member gets carries either room's invite token.
    seen = "".join(
        _get(srv, path).text
        for path in ("/api/rooms", f"/api/rooms/{public['room_id']}", f"/api/rooms/{locked['room_id']}")
    )
    assert public["invite_token"] not in seen and locked["invite_token"] not in seen


def test_an_unknown_room_is_not_found_with_or_without_an_invite(srv: LiveServer) -> None:
    ana = srv.player("Ana")
    invite = ana.create_room(name="Sexta", visibility="invite")["invite_token"]
    for params in ({}, {"invite": invite}):
        answer = _get(srv, "/api/rooms/no-such-room", **params)
        assert answer.status_code == 404 and _code(answer) == "room/not_found"


def test_the_qr_code_is_the_invite_link_and_needs_the_invite(srv: LiveServer) -> None:
    ana = srv.player("Ana")
    created = ana.create_room(name="Sexta", visibility="invite")
    invite = created["invite_token"]

    answer = _get(srv, f"/api/invite/{invite}/qr")  # no session needed: the token is the permission
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("image/svg+xml")
    assert answer.content.startswith(b"<svg") and b"<script" not in answer.content and b"style=" not in answer.content
    assert answer.content == qr_svg(f"{srv.url}/invite/{invite}")  # the code of exactly this room's link
    assert answer.content != qr_svg(f"{srv.url}/invite/{invite}x")

    # A bad token, the room's id instead of its invite, or an over-long token: no image, and nothing said.
    for bad in ("not-an-invite", created["room_id"], invite[:-1], "x" * 200):
        refused = _get(srv, f"/api/invite/{bad}/qr")
        assert refused.status_code == 404 and _code(refused) == "room/bad_invite", bad
        assert "svg" not in refused.headers["content-type"] and "Sexta" not in refused.text


def test_the_qr_code_points_at_the_public_url_when_the_server_has_one(tmp_path: Path) -> None:
    public = "https://cartas.example.org"
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}", public_url=public) as srv:
        invite = srv.player("Ana").create_room(name="Sexta", visibility="invite")["invite_token"]
        answer = _get(srv, f"/api/invite/{invite}/qr")
        assert answer.status_code == 200
        assert answer.content == qr_svg(f"{public}/invite/{invite}")
