"""Secret choices before a match (capability ``seat_setup``, docs/rulings.md §4.5, the deck choice) through Room and the
WebSocket.

A test-only game registered in this process, the sealed-bid game where each seat brings its own hand ("deck"): a
seat's choice is checked by the game, confirmed to that player alone, the others learn only that the seat has
chosen, and the match starts with each seat's choice (or the game's default for a seat that made none).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sefode_lances import Lances, LancesState
from server_helpers import LiveServer, running_server
from table_helpers import start, table, wait_state

from sefode.engine import Capability, InvalidOptions, register, unregister

DECKS = {"low": [1, 2, 3], "high": [13, 14, 15]}


class LancesDecks(Lances):
    """Lances in which each seat brings its own three cards."""

    name = "lances_decks"
    spec = replace(
        Lances.spec,
        name="lances_decks",
        title="game.lances.title",
        capabilities=frozenset({Capability.SEAT_SETUP, Capability.PLAYER_DATA}),
        options=(),
    )

    def validate_options(self, raw: object) -> dict[str, Any]:
        super().validate_options({})  # the same checks on the type; this variant takes no options
        if not isinstance(raw, Mapping) or set(raw) - {"rounds"} or raw.get("rounds", 3) != 3:
            raise InvalidOptions("lances_decks is always 3 rounds")
        return {"rounds": 3}

    def seat_setup_choices(self, options: Mapping[str, Any]) -> list[dict[str, Any]]:
        return [{"value": name, "label": f"deck.{name}", "description": None} for name in DECKS]

    def check_seat_setup(self, options: Mapping[str, Any], value: Any) -> Any:
        if isinstance(value, str) and value in DECKS:
            return value
        if isinstance(value, list) and len(value) == 3 and all(isinstance(c, int) and 1 <= c <= 15 for c in value):
            return sorted(value)
        raise InvalidOptions("a deck is 'low', 'high' or a list of three cards from 1 to 15", "setup/bad_deck")

    def check_player_data(self, key: str, value: Any) -> Any:
        return self.check_seat_setup({}, value)  # a saved deck is what a seat may bring

    def default_seat_setup(self, options: Mapping[str, Any], seat: int, rng: random.Random) -> Any:
        return "low"

    def new_match(self, options: Mapping[str, Any], seed: int, setup: Mapping[str, Any] | None = None) -> LancesState:
        decks = (setup or {}).get("seat_setup") or ["low", "low"]
        state = super().new_match({"rounds": 3}, seed, None)
        state.hands = [list(DECKS[d]) if isinstance(d, str) else sorted(d) for d in decks]
        state.chosen = list(decks)  # type: ignore[attr-defined]
        return state

    def history_setup(self, state: LancesState) -> dict[str, Any]:
        return {"seat_setup": list(getattr(state, "chosen", []))}


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[LiveServer]:
    register(LancesDecks())
    try:
        with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as live:
            yield live
    finally:
        unregister("lances_decks")


def test_a_seat_chooses_in_secret_and_the_match_starts_with_each_seats_choice(srv: LiveServer) -> None:
    _, (ana, bia) = table(srv, ["Ana", "Bia"], {}, game="lances_decks")
    assert ana.room is not None and ana.room["setup"]["choices"][1]["value"] == "high"
    assert ana.room["setup"]["ready"] == [False, False]
    refused = ana.error("seat_setup", value=[1, 2])
    assert refused["code"] == "setup/bad_deck"
    ana.send("seat_setup", value=[12, 4, 9])  # a deck of her own
    assert ana.wait(lambda m: m["type"] == "seat_setup")["value"] == [4, 9, 12]
    seen = bia.wait(lambda m: m["type"] == "room" and m["room"]["setup"]["ready"] == [True, False])
    assert "12" not in repr(seen["room"]["setup"]) and all(m["type"] != "seat_setup" for m in bia.received)
    first = start(ana, [bia])
    assert first["view"]["hand"] == [4, 9, 12]
    state_b = bia.state
    assert state_b is not None and state_b["view"]["hand"] == [1, 2, 3]  # Bia chose nothing: the game's default
    # Coming back, a player is reminded of their own choice, and only of theirs.
    again = ana.player.connect()
    again.join(seen["room"]["id"])
    assert again.wait(lambda m: m["type"] == "seat_setup")["value"] == [4, 9, 12]
    wait_state(again, lambda m: m["seat"] == 0)


def test_a_game_without_the_capability_refuses_a_choice(srv: LiveServer) -> None:
    _, (ana,) = table(srv, ["Ana"], {"rounds": 2}, game="lances")
    assert ana.room is not None and ana.room["setup"] is None
    assert ana.error("seat_setup", value="high")["code"] == "setup/not_offered"


def test_a_player_keeps_decks_of_a_game_and_nobody_else_sees_them(srv: LiveServer) -> None:
    ana, bia = srv.player("Ana"), srv.player("Bia")
    path = "/api/me/games/lances_decks/data"
    assert srv.http.get(path, headers=ana.auth).json() == {"items": []}
    saved = srv.http.put(f"{path}/fogo", json={"value": [15, 1, 8]}, headers=ana.auth)
    assert saved.status_code == 200 and saved.json() == {"key": "fogo", "value": [1, 8, 15]}
    bad = srv.http.put(f"{path}/agua", json={"value": [1, 2]}, headers=ana.auth)
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "setup/bad_deck"
    assert srv.http.put(f"{path}/Fogo!", json={"value": "low"}, headers=ana.auth).status_code == 400
    items = srv.http.get(path, headers=ana.auth).json()["items"]
    assert [(i["key"], i["value"]) for i in items] == [("fogo", [1, 8, 15])]
    assert srv.http.get(path, headers=bia.auth).json() == {"items": []}
    assert srv.http.get(path).status_code == 401
    assert srv.http.delete(f"{path}/fogo", headers=bia.auth).status_code == 404  # not hers
    assert srv.http.delete(f"{path}/fogo", headers=ana.auth).status_code == 200
    assert srv.http.get(path, headers=ana.auth).json() == {"items": []}
    # A game without the capability keeps nothing.
    refused = srv.http.get("/api/me/games/lances/data", headers=ana.auth)
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "data/not_offered"


def test_a_player_keeps_at_most_so_many_items_of_a_game(srv: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    from sefode.server.routes import games

    monkeypatch.setattr(games, "DATA_KEYS_MOST", 2)
    ana = srv.player("Ana")
    path = "/api/me/games/lances_decks/data"
    for key in ("a", "b"):
        assert srv.http.put(f"{path}/{key}", json={"value": "low"}, headers=ana.auth).status_code == 200
    full = srv.http.put(f"{path}/c", json={"value": "low"}, headers=ana.auth)
    assert full.status_code == 409 and full.json()["error"]["code"] == "data/full"
    assert srv.http.put(f"{path}/a", json={"value": "high"}, headers=ana.auth).status_code == 200  # replacing is fine
