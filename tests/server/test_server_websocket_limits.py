"""Issue 24 (security, second pass): the WebSocket's byte-size limit and the per-player connection cap
(docs/security.md, "Limits")."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_helpers import LOOSE, LiveServer, running_server

from sefode.server.limits import Limits
from sefode.server.messages import MAX_MESSAGE_BYTES, SCHEMAS, ClientError, parse_message

WIDE = "€"  # three bytes in UTF-8


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[LiveServer]:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as live:
        yield live


def _padded(kind: str, size_bytes: int) -> str:
    """A message of type ``kind`` whose UTF-8 encoding is exactly ``size_bytes`` bytes, mostly three-byte
    characters (so it is about a third as many characters)."""
    head = json.dumps({"type": kind, "pad": ""}, ensure_ascii=False)
    room = size_bytes - len(head.encode())
    wide, narrow = divmod(room, 3)
    raw = head[:-2] + WIDE * wide + "x" * narrow + '"}'
    assert len(raw.encode()) == size_bytes
    return raw


@pytest.mark.parametrize("kind", sorted(SCHEMAS))
def test_every_message_type_is_measured_in_bytes_not_characters(kind: str) -> None:
    over = _padded(kind, MAX_MESSAGE_BYTES + 1)
    assert len(over) < MAX_MESSAGE_BYTES  # fewer characters than the limit, more bytes
    with pytest.raises(ClientError) as refused:
        parse_message(over)
    assert refused.value.code == "message/too_large"
    with pytest.raises(ClientError) as refused:
        parse_message(over.encode())
    assert refused.value.code == "message/too_large"
    at_limit = _padded(kind, MAX_MESSAGE_BYTES)
    with pytest.raises(ClientError) as other:  # the unknown key "pad": refused, but not for its size
        parse_message(at_limit)
    assert other.value.code == "message/invalid"


def test_a_chat_of_few_characters_but_many_bytes_is_refused_as_too_large(srv: LiveServer) -> None:
    """The issue's case: 3,553 characters, 10,593 bytes passed the 4,096-byte limit."""
    client = srv.player().connect()
    message = json.dumps({"type": "chat", "text": "\U0001f600" * 2000, "ref": 7}, ensure_ascii=False)
    assert len(message) < MAX_MESSAGE_BYTES < len(message.encode())
    client.send_raw(message)
    error = client.wait_type("error")
    assert error["code"] == "message/too_large"
    client.send("ping")
    assert client.wait_type("pong")


def _connections_of(srv: LiveServer, player_id: str) -> int:
    return sum(1 for c in list(srv.hub.connections) if c.player_id == player_id and not c.closed)


def test_the_connection_cap_holds_when_other_sockets_reauthenticate_as_the_player(tmp_path: Path) -> None:
    """The cap of connections per player was bypassed by opening sockets as other players and sending an
    ``auth`` message with the capped player's token on each."""
    limits = Limits(**{**LOOSE.__dict__, "connections_per_player": 2})
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}", limits=limits) as srv:
        ana = srv.player("Ana")
        mine = [ana.connect() for _ in range(2)]
        others = [srv.player(f"Eve{i}").connect() for i in range(3)]
        for other in others:
            refused = other.error("auth", token=ana.token)
            assert refused["code"] == "rate/limited"
            other.send("ping")
            assert other.wait_type("pong")
        assert _connections_of(srv, ana.id) == 2
        for eve, other in zip(range(3), others, strict=True):
            assert _connections_of(srv, other.player.id) == 1, eve
        mine[0].close()
        for c in mine[1:]:
            c.send("ping")
            assert c.wait_type("pong")


def test_reauthenticating_with_ones_own_token_is_not_counted_twice(tmp_path: Path) -> None:
    limits = Limits(**{**LOOSE.__dict__, "connections_per_player": 2})
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}", limits=limits) as srv:
        ana = srv.player("Ana")
        clients = [ana.connect() for _ in range(2)]
        for c in clients:
            c.send("auth", token=ana.token)
            assert c.wait(lambda m: m["type"] in ("hello", "error"))["type"] == "hello"
        assert _connections_of(srv, ana.id) == 2
