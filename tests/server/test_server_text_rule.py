"""Issue 24 items 5 and 9: one text rule for every stored string, applied in one place (``sefode.text``):
nicknames, bot names, room names, team names and symbols, chat and a game's saved data (a deck's name). Escape
sequences, line breaks, U+2028, U+0085, text-direction overrides, invisible-only names and bot marks on people's names
are refused (docs/security.md, "Nothing a stranger sends breaks a table")."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from server_helpers import LiveServer, Player, running_server

from sefode import text
from sefode.games.guimenon.game import READY_DECKS
from sefode.games.guimenon.rules import CARDSET

DECK = list(CARDSET.decks[READY_DECKS[0]].cards)

# value -> the code it is refused with (None: a field that allows it)
BAD: dict[str, str] = {
    "escape \x1b[31mred": "message/invalid",
    "two\nlines": "message/invalid",
    "line\u2028separator": "message/invalid",
    "next\x85line": "message/invalid",
    "\u202eevil": "text/bidi",
    "isolate \u2066x\u2069": "text/bidi",
    "\u200b\u200b\u200b": "text/invisible",
    "\u3164": "text/invisible",
    "A\u200bna": "text/invisible",
    "Robô [bot]": "name/bot_mark",
}
NAMES_ONLY = {"name/bot_mark"}
MULTILINE_OK = {"two\nlines", "line\u2028separator"}


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    path: Path = tmp_path_factory.mktemp("text") / "db.sqlite3"
    with running_server(f"sqlite:///{path}") as live:
        yield live


@pytest.fixture(scope="module")
def owner(srv: LiveServer) -> Player:
    player = srv.player("Dona")
    answer = srv.http.post(
        "/api/account/register", json={"username": "dona", "password": "correct horse"}, headers=player.auth
    )
    assert answer.status_code == 200, answer.text
    srv.http.cookies.clear()
    player.token = answer.json()["token"]
    return player


def _code(answer: httpx.Response) -> str:
    code: str = answer.json()["error"]["code"]
    return code


def _session(srv: LiveServer, owner: Player, value: str) -> str:
    with httpx.Client(base_url=srv.url) as http:
        return _code(http.post("/api/session", json={"name": value}))


def _nickname(srv: LiveServer, owner: Player, value: str) -> str:
    return _code(owner.post("/api/account/nickname", {"name": value}))


def _bot_name(srv: LiveServer, owner: Player, value: str) -> str:
    return _code(owner.post("/api/account/bots", {"name": value}))


def _room_name(srv: LiveServer, owner: Player, value: str) -> str:
    return _code(owner.post("/api/rooms", {"name": value, "options": {"players": 3}}))


def _deck_name(srv: LiveServer, owner: Player, value: str) -> str:
    answer = srv.http.put(
        "/api/me/games/guimenon/data/d1", json={"value": {"name": value, "cards": DECK}}, headers=owner.auth
    )
    assert srv.http.get("/api/me/games/guimenon/data", headers=owner.auth).json()["items"] == []
    return _code(answer)


def _over_ws(kind: str, field: Callable[[str], dict[str, Any]]) -> Callable[[LiveServer, Player, str], str]:
    def send(srv: LiveServer, owner: Player, value: str) -> str:
        room_id = owner.create_room(name="Times", options={"players": 4, "teams": True})["room_id"]
        client = owner.connect()
        try:
            client.join(room_id)
            code: str = client.error(kind, **field(value))["code"]
            assert "\u202e" not in str(srv.hub.rooms[room_id].data()).replace("\\u202e", "")
            assert all(m["text"] != value for m in srv.hub.rooms[room_id].chat_log)
            return code
        finally:
            client.close()

    return send


def _odd_characters(value: str) -> str:
    """At most two characters of ``value`` that are not ASCII letters, digits or spaces (a symbol's worth)."""
    return "".join(ch for ch in value if not (ch.isascii() and (ch.isalnum() or ch == " ")))[:2]


FIELDS: dict[str, tuple[Callable[[LiveServer, Player, str], str], bool, bool]] = {
    # field: (how to send it, a person's name (bot marks refused), multiline)
    "guest nickname": (_session, True, False),
    "account nickname": (_nickname, True, False),
    "bot account name": (_bot_name, True, False),
    "room name": (_room_name, False, False),
    "team name": (_over_ws("set_teams", lambda v: {"teams": [{"name": v}]}), True, False),
    "team symbol": (_over_ws("set_teams", lambda v: {"teams": [{"symbol": _odd_characters(v)}]}), False, False),
    "chat": (_over_ws("chat", lambda v: {"text": v}), False, True),
    "saved deck name": (_deck_name, False, False),
}


def _expected(field: str, value: str) -> str | None:
    _, person, multiline = FIELDS[field]
    code = BAD[value]
    if code in NAMES_ONLY and not person:
        return None
    if multiline and value in MULTILINE_OK:
        return None
    return code


CASES = [(f, v) for f in FIELDS for v in BAD if _expected(f, v) is not None]


@pytest.mark.parametrize(
    ("field", "value"), CASES, ids=[f"{f}-{v.encode('unicode_escape').decode()}" for f, v in CASES]
)
def test_every_stored_string_field_refuses_what_the_text_rule_refuses(
    srv: LiveServer, owner: Player, field: str, value: str
) -> None:
    send = FIELDS[field][0]
    code = send(srv, owner, value)
    assert code == _expected(field, value)


def test_a_saved_deck_with_a_fine_name_is_kept_normalised(srv: LiveServer, owner: Player) -> None:
    answer = srv.http.put(
        "/api/me/games/guimenon/data/d2", json={"value": {"name": " Jose\u0301 ", "cards": DECK}}, headers=owner.auth
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["value"]["name"] == "José"
    srv.http.delete("/api/me/games/guimenon/data/d2", headers=owner.auth)


@pytest.mark.parametrize(
    "fine", ["Ana", "Botafogo", "Robson", "José 🇧🇷", "👨\u200d👩\u200d👧", "می\u200cخواهم", "Bot-fã"]
)
def test_ordinary_names_pass(fine: str) -> None:
    assert text.name(fine) == fine


@given(st.text(max_size=30))
def test_whatever_the_rule_accepts_as_a_name_is_shown_as_it_is(value: str) -> None:
    try:
        accepted = text.name(value)
    except text.TextError as err:
        assert err.code in {"message/invalid", "text/bidi", "text/invisible", "name/bot_mark"}
        return
    assert accepted == unicodedata.normalize("NFC", accepted) == text.name(accepted)
    assert 1 <= len(accepted) <= text.NAME_MAX
    assert not any(unicodedata.category(ch) in ("Cc", "Zl", "Zp") for ch in accepted)
    assert not any(ch in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200b\ufeff" for ch in accepted)
    assert any(unicodedata.category(ch)[0] not in "CZM" for ch in accepted)
    assert "[bot]" not in unicodedata.normalize("NFKC", accepted).casefold()
