"""Issue 24: slow and vanishing clients. A request head that never completes (slowloris) is closed after the head
deadline, a body that never completes gets 408 after the body deadline, in the server as shipped (``sefode serve``);
a client leaving in the middle of its body is an event, never a 500 with a traceback (docs/security.md,
"Slow clients")."""

from __future__ import annotations

import logging
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from ports import free_port
from server_helpers import WAIT_S, LiveServer, running_server, serve_subprocess

from sefode.server import logs

PARTIAL_HEAD = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "


@pytest.fixture
def shipped(tmp_path: Path) -> Iterator[int]:
    """``sefode serve`` in a process of its own, with deadlines of one second."""
    port = free_port()
    env = {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "SEFODE_HEAD_TIMEOUT_S": "1",
        "SEFODE_BODY_TIMEOUT_S": "1",
    }
    proc = serve_subprocess(port, env, tmp_path / "server.log")
    try:
        yield port
    finally:
        proc.terminate()
        proc.wait(WAIT_S)


def _open(port: int, first: bytes) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT_S)
    sock.sendall(first)
    return sock


def _read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (a timeout fails the test)."""
    out = b""
    while chunk := sock.recv(65536):
        out += chunk
    return out


def test_request_heads_that_never_complete_are_closed(shipped: int) -> None:
    """1,500 connections each sending half a header were held until the server ran out of file descriptors."""
    slow = [_open(shipped, PARTIAL_HEAD) for _ in range(50)]
    try:
        for sock in slow:
            assert _read_all(sock) == b""  # closed by the server, without an answer
    finally:
        for sock in slow:
            sock.close()
    assert httpx.get(f"http://127.0.0.1:{shipped}/api/health", timeout=WAIT_S).status_code == 200


def test_a_connection_that_sends_nothing_is_closed(shipped: int) -> None:
    with socket.create_connection(("127.0.0.1", shipped), timeout=WAIT_S) as sock:
        assert _read_all(sock) == b""


def test_a_body_that_never_completes_gets_408(shipped: int) -> None:
    head = (
        b"POST /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\n\r\n"
    )
    with _open(shipped, head + b'{"name": ') as sock:
        answer = sock.recv(65536)
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[LiveServer]:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as live:
        yield live


class _Failures(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.mark.parametrize("path", ["/api/session", "/api/account/login"])
def test_a_client_leaving_mid_body_is_no_server_error(
    srv: LiveServer, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    errors: list[str] = []
    gone = threading.Event()
    real_event = logs.event

    def event(name: str, **fields: Any) -> None:
        if name == "http.client_gone":
            gone.set()
        real_event(name, **fields)

    monkeypatch.setattr(logs, "event", event)
    monkeypatch.setattr(logs, "error", lambda name, exc=None, **fields: errors.append(name))
    failures = _Failures()
    for name in ("uvicorn.error", "uvicorn", "starlette"):
        logging.getLogger(name).addHandler(failures)
    try:
        port = int(srv.url.rsplit(":", 1)[1])
        head = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
        ).encode()
        sock = _open(port, head + b'{"name": "An')
        sock.close()
        assert gone.wait(WAIT_S), "the server never noticed the client leaving"
        assert srv.http.get("/api/health").status_code == 200
    finally:
        for name in ("uvicorn.error", "uvicorn", "starlette"):
            logging.getLogger(name).removeHandler(failures)
    assert errors == []
    assert [r.getMessage() for r in failures.records] == []
