"""Helpers for the server tests: a real uvicorn server in a thread (or a subprocess), HTTP and WebSocket clients.

Everything goes over real sockets, as a browser would. Waiting for a message has a timeout that only turns a hang
into a failure; no test asserts on how long anything takes.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import os
import secrets
import select
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import psycopg
import uvicorn
from db_template import fresh_sqlite_url
from ports import listening_socket
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from sefode.server.app import create_app
from sefode.server.limits import Limits
from sefode.server.patches import Held

PG_ADMIN_URL = os.environ.get("SEFODE_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
WAIT_S = 20.0
READY_S = 90.0
"""How long a server process may take to say it is ready: only a hang detector (the wait ends when it is ready), so
generous: on a loaded 2-core machine an import and the migrations have taken over 20 s."""
LOOSE = Limits(
    sessions_burst=1e6,
    rooms_burst=1e6,
    open_rooms_per_player=10**6,
    player_messages_burst=1e6,
    player_messages_per_s=1e6,
    connections_per_player=10**6,
)
"""Limits no ordinary test reaches (many players share 127.0.0.1); the limit tests pass their own."""

Message = dict[str, Any]


class LiveServer:
    def __init__(self, url: str, app: Any) -> None:
        self.url = url
        self.ws_url = url.replace("http://", "ws://") + "/ws"
        self.app = app
        self.http = httpx.Client(base_url=url, timeout=WAIT_S)

    @property
    def hub(self) -> Any:
        return self.app.state.hub

    def player(self, name: str = "Ana") -> Player:
        return Player(self, name)


@contextlib.contextmanager
def running_server(database_url: str, **options: Any) -> Iterator[LiveServer]:
    """The app on uvicorn in a background thread, on a free port."""
    settings: dict[str, Any] = {
        "bot_delay_s": 0.0,
        "disconnect_grace_s": 0.0,
        "bot_think_ms": 5.0,
        "log": False,
        "limits": LOOSE,
    }
    settings.update(options)
    app = create_app(fresh_sqlite_url(database_url), **settings)
    sock = listening_socket()  # bound here and handed over: no other process can take the port meanwhile
    port: int = sock.getsockname()[1]
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="error",
        lifespan="on",
        ws_max_size=65536,
        ws_per_message_deflate=False,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + READY_S  # a hang detector only, as for a server process (READY_S)
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"the test server did not start within {READY_S:.0f} s")
        time.sleep(0.01)
    live = LiveServer(f"http://127.0.0.1:{port}", app)
    try:
        yield live
    finally:
        live.http.close()
        server.should_exit = True
        thread.join(WAIT_S)
        sock.close()


@contextlib.contextmanager
def postgres_url() -> Iterator[str]:
    """A fresh schema in the test PostgreSQL database, dropped afterwards. Fails (never skips) without PostgreSQL."""
    schema = f"t_{secrets.token_hex(6)}"
    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    base = PG_ADMIN_URL.replace("postgresql://", "postgresql+psycopg://", 1)
    sep = "&" if "?" in base else "?"
    try:
        yield f"{base}{sep}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


class Player:
    """A guest session and its WebSocket connections."""

    def __init__(self, server: LiveServer, name: str) -> None:
        self.server = server
        server.http.cookies.clear()  # a new guest, not the last one renamed
        response = server.http.post("/api/session", json={"name": name})
        response.raise_for_status()
        server.http.cookies.clear()
        data = response.json()
        self.token: str = data["token"]
        self.id: str = data["player_id"]
        self.name = name

    @property
    def auth(self) -> dict[str, str]:
        return {"authorization": f"Bearer {self.token}"}

    def post(self, path: str, body: Any) -> httpx.Response:
        return self.server.http.post(path, json=body, headers=self.auth)

    def create_room(self, **body: Any) -> dict[str, Any]:
        response = self.post("/api/rooms", body)
        assert response.status_code == 200, response.text
        result: dict[str, Any] = response.json()
        return result

    def connect(self, server: LiveServer | None = None, *, cookie: bool = False) -> Client:
        """A WebSocket to this player's server (or to ``server``, e.g. after a restart), with the same token: sent
        as the first message ``{"type": "auth", "token"}``, or (``cookie``) as the session cookie of the handshake."""
        ws_url = (server or self.server).ws_url
        headers = {"cookie": f"sefode_session={self.token}"} if cookie else None
        ws = connect(ws_url, open_timeout=WAIT_S, additional_headers=headers).__enter__()  # closed by Client.close
        if not cookie:
            ws.send(json.dumps({"type": "auth", "token": self.token}))
        return Client(ws, self)


def registered(srv: LiveServer, username: str) -> Player:
    """A guest who registered as ``username`` (password "correct horse"), holding the account's token."""
    player = srv.player(username)
    response = srv.http.post(
        "/api/account/register", json={"username": username, "password": "correct horse"}, headers=player.auth
    )
    assert response.status_code == 200, response.text
    srv.http.cookies.clear()
    player.token = response.json()["token"]
    return player


class Client:
    """One WebSocket connection, keeping the messages it received."""

    def __init__(self, ws: ClientConnection, player: Player) -> None:
        self.ws = ws
        self.player = player
        self.received: list[Message] = []
        self.state: Message | None = None
        self.room: Message | None = None
        self.player_seat: int | None = None
        self.updates: list[Message] = []
        """The ``update`` messages received (each is folded into ``state``, and received as a ``state``)."""
        self.held: Held | None = None
        """The last full state and what the updates since made of it (``sefode.fold``)."""
        hello = self.next()
        assert hello["type"] == "hello", hello

    def close(self) -> None:
        self.ws.close()

    def send(self, kind: str, **fields: Any) -> None:
        self.ws.send(json.dumps({"type": kind, **fields}))

    def send_raw(self, data: str | bytes) -> None:
        self.ws.send(data)

    def next(self, timeout: float = WAIT_S) -> Message:
        raw = self.ws.recv(timeout=timeout)
        message: Message = json.loads(raw)
        if message["type"] == "state":  # kept apart, to fold the updates that follow into
            self.held = Held(json.loads(raw))
            self.held.state.pop("recap", None)
        elif message["type"] == "update":  # a connection joined with updates: fold it into the state it had
            self.updates.append(message)
            assert self.held is not None, f"an update before any state: {raw[:200]!r}"
            message = {**copy.deepcopy(self.held.fold(message)), "type": "state"}
        self.received.append(message)
        if message["type"] == "state":
            self.state = message
        elif message["type"] == "room":
            self.room = message["room"]
        return message

    def poll(self) -> list[Message]:
        """Every message already waiting, without blocking."""
        out = []
        while True:
            try:
                out.append(self.next(timeout=0))
            except TimeoutError:
                return out

    def wait(self, predicate: Callable[[Message], bool], timeout: float = WAIT_S) -> Message:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no such message; last received: {self.received[-3:]}")
            try:
                message = self.next(timeout=left)
            except TimeoutError:
                continue
            if predicate(message):
                return message

    def wait_type(self, kind: str, timeout: float = WAIT_S) -> Message:
        return self.wait(lambda m: m["type"] == kind, timeout)

    def error(self, kind: str, **fields: Any) -> Message:
        """Send a message that must be refused; return the error."""
        self.send(kind, **fields)
        return self.wait_type("error")

    def join(self, room_id: str, **fields: Any) -> Message:
        self.send("join", room=room_id, **fields)
        return self.wait(lambda m: m["type"] in ("room", "error"))

    def closed(self) -> bool:
        try:
            self.ws.recv(timeout=WAIT_S)
        except ConnectionClosed:
            return True
        except TimeoutError:
            return False
        return self.closed()


def my_turn(state: Message | None) -> bool:
    if state is None:
        return False
    return state["seat"] is not None and state["seat"] in state["awaiting"] and bool(state["legal"])


def serve_subprocess(port: int, env_extra: dict[str, str], log_path: Path) -> subprocess.Popen[bytes]:
    """``sefode serve`` as a child process (its JSON logs go to ``log_path``); returns once it is ready."""
    sefode = Path(sys.executable).parent / "sefode"
    command = [str(sefode)] if sefode.exists() else [sys.executable, "-m", "sefode"]
    proc, ready = spawn_server(
        [*command, "serve", "--host", "127.0.0.1", "--port", str(port)], {**os.environ, **env_extra}, log_path
    )
    wait_ready(proc, ready, log_path)
    return proc


def spawn_server(args: list[str], env: dict[str, str], log_path: Path) -> tuple[subprocess.Popen[bytes], int]:
    """Start a ``sefode serve`` child process with a readiness pipe (``SEFODE_READY_FD``, see
    ``sefode.server.main``); returns the process and the pipe's read end, for ``wait_ready``."""
    read_end, write_end = os.pipe()
    try:
        with log_path.open("ab") as log:
            proc = subprocess.Popen(
                args,
                env={**env, "SEFODE_READY_FD": str(write_end)},
                stdout=subprocess.DEVNULL,
                stderr=log,
                pass_fds=(write_end,),
            )
    except BaseException:
        os.close(read_end)
        raise
    finally:
        os.close(write_end)  # the child's copy alone: its exit ends the pipe
    return proc, read_end


def wait_ready(proc: subprocess.Popen[bytes], read_end: int, log_path: Path, timeout: float = READY_S) -> None:
    """Block until the server says it is ready on its pipe (the app started, the socket listens), or the pipe ends
    because it exited first; the deadline only turns a hang into a failure. Closes ``read_end``."""
    try:
        readable, _, _ = select.select([read_end], [], [], timeout)
        said = os.read(read_end, 64) if readable else None
    finally:
        os.close(read_end)
    if said is not None and said.startswith(b"ready"):
        return
    if said is None:
        proc.kill()
    proc.wait(10)
    tail = log_path.read_text(errors="replace")[-2000:]
    what = "did not get ready in time" if said is None else f"exited with {proc.returncode}"
    raise RuntimeError(f"sefode serve {what}: {tail}")


T_co = TypeVar("T_co")


def run_async(coro: Coroutine[Any, Any, T_co]) -> T_co:
    """``asyncio.run(coro)`` in a thread of its own: the test process may already run an event loop on this thread
    (Playwright's sync API, when the browser tests ran first in the same session)."""
    result: list[T_co] = []
    failure: list[BaseException] = []

    def target() -> None:
        try:
            result.append(asyncio.run(coro))
        except BaseException as err:
            failure.append(err)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return result[0]
