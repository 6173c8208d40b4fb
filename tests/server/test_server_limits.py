"""Issue 10, defects 2, 5, 6 and 7: bodies, room passwords, creation, the lobby and messages are limited
(``sefode/server/limits.py``, docs/security.md "Limits")."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from ports import free_port
from server_helpers import LOOSE, WAIT_S, LiveServer, running_server, serve_subprocess
from websockets.exceptions import ConnectionClosed

from sefode.server.limits import Limiter, Limits


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def push(port: int, path: str, declared: int | None, total: int) -> tuple[bytes, int]:
    """Send up to ``total`` bytes of body (declared with Content-Length, or chunked); return the answer's first
    bytes and how much of the body the server took before it answered and closed."""
    chunk = b"x" * (1 << 16)
    sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT_S)
    head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    head += f"Content-Length: {declared}\r\n" if declared is not None else "Transfer-Encoding: chunked\r\n"
    sock.sendall((head + "\r\n").encode())
    sent = 0
    answer = b""
    try:
        sock.settimeout(0.001)
        while sent < total:
            piece = chunk if declared is not None else f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
            sock.sendall(piece)
            sent += len(chunk)
            try:
                answer += sock.recv(4096)
                if answer:
                    break
            except (TimeoutError, BlockingIOError):
                pass
    except OSError:
        pass  # the server closed the connection: it will not read the rest
    sock.settimeout(WAIT_S)
    try:
        while b"\r\n\r\n" not in answer:
            more = sock.recv(4096)
            if not more:
                break
            answer += more
    except OSError:
        pass
    sock.close()
    return answer, sent


def test_a_huge_body_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """Defect 2: one 256 MB ``POST /api/session`` raised the server from 70 to 325 MB before its 413."""
    port = free_port()
    proc = serve_subprocess(port, {"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}, tmp_path / "log")
    try:
        httpx.post(f"http://127.0.0.1:{port}/api/session", json={"name": "warm"}).raise_for_status()
        before = rss_kib(proc.pid)
        big = 256 << 20
        for path in ("/api/session", "/api/account/login"):
            answer, _ = push(port, path, big, big)
            assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
            answer, sent = push(port, path, None, big)  # chunked: no length to refuse up front
            assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
            assert sent < 64 << 20  # it stopped reading long before the end
        grown_mib = (rss_kib(proc.pid) - before) / 1024
        assert grown_mib < 40, f"the server grew by {grown_mib:.0f} MiB"
        assert httpx.get(f"http://127.0.0.1:{port}/api/health").status_code == 200
    finally:
        proc.kill()
        proc.wait()


@pytest.fixture
def strict(tmp_path: Path) -> Iterator[LiveServer]:
    """A server with the default limits."""
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}", limits=Limits()) as live:
        yield live


def test_new_sessions_are_limited_per_client(strict: LiveServer) -> None:
    """Defect 6: one guest made 2,000 sessions in 2.6 s."""
    answers = []
    for i in range(int(Limits().sessions_burst) + 5):
        strict.http.cookies.clear()
        answers.append(strict.http.post("/api/session", json={"name": f"P{i}"}))
    codes = [a.status_code for a in answers]
    assert codes[: int(Limits().sessions_burst)] == [200] * int(Limits().sessions_burst)
    assert codes[-1] == 429 and answers[-1].json()["error"]["code"] == "rate/limited"


def test_open_rooms_per_player_are_capped_and_new_rooms_rate_limited(tmp_path: Path) -> None:
    """Defect 6: one guest made 2,000 rooms in 3.1 s, all of them listed."""
    with running_server(f"sqlite:///{tmp_path / 'a.sqlite3'}", limits=Limits()) as srv:
        ana = srv.player("Ana")
        cap = Limits().open_rooms_per_player
        for _ in range(cap):
            ana.create_room(name="Mesa", options={"players": 3})
        refused = ana.post("/api/rooms", {"name": "Mesa", "options": {"players": 3}})
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "room/too_many"
        solo = ana.post("/api/solo", {"bots": 1})
        assert solo.status_code == 429 and solo.json()["error"]["code"] == "room/too_many"
    tight = Limits(rooms_burst=3, rooms_per_s=1e-6, open_rooms_per_player=100)
    with running_server(f"sqlite:///{tmp_path / 'b.sqlite3'}", limits=tight) as srv:
        players = [srv.player(n) for n in ("A", "B", "C", "D")]
        for p in players[:3]:
            p.create_room(name="Mesa", options={"players": 3})
        refused = players[3].post("/api/rooms", {"name": "Mesa", "options": {"players": 3}})
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate/limited"


def test_the_lobby_is_paged(tmp_path: Path) -> None:
    """Defect 6: every room was listed in one 519 KB answer."""
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as srv:
        ana = srv.player("Ana")
        for i in range(55):
            ana.create_room(name=f"Mesa {i:02}", options={"players": 3})
        default = srv.http.get("/api/rooms").json()
        assert len(default["rooms"]) == 50 and default["total"] == 55 and default["next"] == 50
        rest = srv.http.get("/api/rooms", params={"offset": 50}).json()
        assert len(rest["rooms"]) == 5 and rest["next"] is None
        names = [r["name"] for r in default["rooms"] + rest["rooms"]]
        assert sorted(names) == [f"Mesa {i:02}" for i in range(55)] and len(set(names)) == 55
        small = srv.http.get("/api/rooms", params={"limit": 3, "offset": 3}).json()
        assert [r["name"] for r in small["rooms"]] == names[3:6] and small["limit"] == 3
        for bad in ({"limit": "101"}, {"limit": "-1"}, {"offset": "x"}, {"offset": "9" * 20}, {"offset": "²"}):
            answer = srv.http.get("/api/rooms", params=bad)
            assert answer.status_code == 400 and answer.json()["error"]["code"] == "message/invalid", bad


def test_the_message_limit_is_per_player_so_reconnecting_does_not_reset_it(tmp_path: Path) -> None:
    """Defect 7: 20 reconnects let 976 messages through in 10 s."""
    limits = Limits(player_messages_burst=10, player_messages_per_s=1e-6, connections_per_player=100)
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}", limits=limits) as srv:
        ana = srv.player("Ana")
        client = ana.connect()
        for _ in range(10):
            client.send("ping")
            assert client.wait(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"
        client.send("ping")
        assert client.wait_type("error")["code"] == "rate/limited"
        client.close()
        again = ana.connect()
        again.send("ping")
        assert again.wait(lambda m: m["type"] in ("pong", "error"))["code"] == "rate/limited"
        other = srv.player("Bia").connect()  # another player has their own budget
        other.send("ping")
        assert other.wait_type("pong")


def test_connections_per_player_are_capped(tmp_path: Path) -> None:
    """Defect 7: connections per player were not capped."""
    limits = {**LOOSE.__dict__, "connections_per_player": 3}
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}", limits=Limits(**limits)) as srv:
        ana = srv.player("Ana")
        clients = [ana.connect() for _ in range(3)]
        from websockets.sync.client import connect

        with connect(srv.ws_url, open_timeout=WAIT_S) as ws:
            ws.send(json.dumps({"type": "auth", "token": ana.token}))
            assert json.loads(ws.recv(timeout=WAIT_S))["code"] == "rate/limited"
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=WAIT_S)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        assert srv.player("Bia").connect().received[0]["type"] == "hello"
        for c in clients:
            c.send("ping")
            assert c.wait_type("pong")


def test_room_password_guesses_back_off_per_room_and_per_client(tmp_path: Path) -> None:
    """Defect 5: 19 guesses/s per connection, 154/s with 32 connections, and no per-room limit."""
    limits = {**LOOSE.__dict__, "password_free_failures": 3, "password_backoff_s": 3600.0}
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}", limits=Limits(**limits)) as srv:
        owner = srv.player("Ana")
        created = owner.create_room(name="Senha", visibility="password", password="segredo", options={"players": 3})
        room_id = created["room_id"]
        guesser = srv.player("Eve").connect()
        for guess in ("a", "b", "c"):
            assert guesser.join(room_id, password=guess)["code"] == "room/bad_password"
        # Backing off: even the right password is not checked now, from any connection of this room.
        assert guesser.join(room_id, password="segredo")["code"] == "rate/limited"
        fresh = srv.player("Zed").connect()
        assert fresh.join(room_id, password="segredo")["code"] == "rate/limited"
        # The owner and invite holders never need the password, so guessing cannot lock them out.
        assert owner.connect().join(room_id)["type"] == "room"
        assert srv.player("Bia").connect().join(room_id, invite=created["invite_token"])["type"] == "room"


def test_the_password_backoff_grows_and_keys_rooms_and_clients_apart() -> None:
    limiter = Limiter(Limits(password_free_failures=2, password_backoff_s=1.0, password_backoff_max_s=8.0))
    t = 1000.0
    limiter.password_failed("r1", "10.0.0.1", t)
    limiter.password_attempt("r1", "10.0.0.1", t)  # one failure is free
    limiter.password_failed("r1", "10.0.0.1", t)
    with pytest.raises(Exception, match="try again"):
        limiter.password_attempt("r1", "10.0.0.2", t + 0.5)  # the room backs off for every client
    with pytest.raises(Exception, match="try again"):
        limiter.password_attempt("r2", "10.0.0.1", t + 0.5)  # the client backs off for every room
    limiter.password_attempt("r2", "10.0.0.2", t + 0.5)
    limiter.password_attempt("r1", "10.0.0.2", t + 1.1)  # the first wait is 1 s
    limiter.password_failed("r1", "10.0.0.2", t + 1.1)
    with pytest.raises(Exception, match="try again"):
        limiter.password_attempt("r1", "10.0.0.3", t + 2.5)  # then 2 s, 4 s, ... up to 8 s
    limiter.password_attempt("r1", "10.0.0.3", t + 3.2)
