"""Reactions (docs/protocol.md, ``react``): a fixed set of ids, from seated players only, rate-limited, sent to the
whole room with the sender's seat; and the catalogues and docs name every id and every new error code."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_helpers import LOOSE, LiveServer, running_server
from table_helpers import start, table

from sefode.server.limits import Limits
from sefode.server.reactions import REACTIONS

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "sefode" / "web" / "static"
OPTIONS = {"players": 3, "lives": 1}


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[LiveServer]:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as live:
        yield live


def test_a_seated_players_reaction_reaches_everyone_in_the_room_with_their_seat(srv: LiveServer) -> None:
    room_id, (ana, bia) = table(srv, ["Ana", "Bia"], OPTIONS, {"2": "easy"})
    carl = srv.player("Carl").connect()
    carl.join(room_id, invite=srv.hub.rooms[room_id].invite_token)
    bia.send("react", reaction="sefodeu")  # between matches: the room's seat
    expected = {"type": "reaction", "seat": 1, "player_id": bia.player.id, "reaction": "sefodeu"}
    for client in (ana, bia, carl):
        assert client.wait_type("reaction") == expected
    start(ana, [bia])
    ana.send("react", reaction="clap")  # during a match: the match's seat
    assert carl.wait_type("reaction") == {"type": "reaction", "seat": 0, "player_id": ana.player.id, "reaction": "clap"}


def test_spectators_and_unknown_or_malformed_reactions_are_refused(srv: LiveServer) -> None:
    room_id, (ana, bia) = table(srv, ["Ana", "Bia"], OPTIONS, {"2": "easy"})
    carl = srv.player("Carl").connect()
    carl.join(room_id, invite=srv.hub.rooms[room_id].invite_token)
    assert carl.error("react", reaction="sefodeu")["code"] == "room/not_seated"
    assert ana.error("react", reaction="free text")["code"] == "message/invalid"  # an id, never text
    assert ana.error("react", reaction="kiss")["code"] == "reaction/unknown"
    assert ana.error("react", reaction=3)["code"] == "message/invalid"
    outsider = srv.player("Dani").connect()
    assert outsider.error("react", reaction="gg")["code"] == "room/not_joined"
    ana.send("ping")
    bia.send("ping")
    assert ana.wait(lambda m: m["type"] in ("pong", "reaction"))["type"] == "pong"
    assert bia.wait(lambda m: m["type"] in ("pong", "reaction"))["type"] == "pong"


def test_reactions_are_rate_limited_per_player(tmp_path: Path) -> None:
    limits = Limits(**{**LOOSE.__dict__, "reactions_burst": 3, "reactions_per_s": 0.001})
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}", limits=limits) as live:
        _room_id, (ana, bia) = table(live, ["Ana", "Bia"], OPTIONS)
        for reaction in REACTIONS[:3]:
            ana.send("react", reaction=reaction)
            assert bia.wait_type("reaction")["reaction"] == reaction
        assert ana.error("react", reaction="gg")["code"] == "rate/limited"
        again = ana.player.connect()  # another connection of the same player shares the limit
        assert again.join(_room_id)["type"] == "room"
        assert again.error("react", reaction="gg")["code"] == "rate/limited"
        bia.send("react", reaction="gg")  # the other player's own limit
        assert ana.wait_type("reaction")["player_id"] == bia.player.id


def test_every_reaction_and_new_error_code_has_player_text_in_both_catalogues_and_the_protocol_names_them() -> None:
    catalogues = {lang: json.loads((STATIC / "i18n" / f"{lang}.json").read_text()) for lang in ("pt-BR", "en")}
    for lang, catalogue in catalogues.items():
        for reaction in REACTIONS:
            assert catalogue.get(f"reaction.{reaction}"), (lang, reaction)
            assert catalogue.get(f"reaction_label.{reaction}"), (lang, reaction)
        for code in ("rematch/stale", "rematch/not_allowed", "rematch/tournament", "reaction/unknown"):
            assert catalogue.get(f"error.{code}"), (lang, code)
    assert catalogues["pt-BR"]["reaction.sefodeu"] == "Se fodeu!"
    protocol = (ROOT / "docs" / "protocol.md").read_text()
    for code in ("rematch/stale", "rematch/not_allowed", "rematch/tournament", "reaction/unknown"):
        assert f"`{code}`" in protocol
    # The page's picker offers exactly the server's set, in its order.
    source = (STATIC / "js" / "reactions.js").read_text()
    listed = re.search(r"export const REACTIONS = \[([^\]]*)\]", source)
    assert listed is not None
    assert tuple(re.findall(r'"([a-z]+)"', listed.group(1))) == REACTIONS
