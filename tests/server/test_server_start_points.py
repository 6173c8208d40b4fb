"""The start-point test hook (``sefode.server.startpoint``): off unless the server is started with it; on, a solo table
starts at the given seed and actions, checked and stored as played actions (source ``start``), and a refused action
leaves no room behind."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import LiveServer, running_server
from start_points import new_state, start_point

from sefode.engine import Game, get_game
from sefode.history import rebuild

FODINHA = {"players": 2, "lives": 5}


def _seat0_bids_in_hand(number: int) -> Any:
    def until(game: Game[Any], state: Any) -> bool:
        view = game.view(state, 0)
        return bool(view["hand_number"] == number and view["phase"] == "bidding" and game.awaiting(state) == {0})

    return until


def _seat0_acts_in_hand(number: int) -> Any:
    def until(game: Game[Any], state: Any) -> bool:
        return bool(game.view(state, 0)["hand_number"] == number and game.awaiting(state) == {0})

    return until


@pytest.fixture(scope="module")
def hooked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    path = tmp_path_factory.mktemp("hooks") / "db.sqlite3"
    with running_server(f"sqlite:///{path}", test_hooks=True, bot_delay_s=0.2) as srv:
        yield srv


def _rooms(srv: LiveServer) -> int:
    return len(srv.hub.store.load_rooms())


def test_a_server_without_the_hook_refuses_a_start_point(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as srv:
        ana = srv.player("Ana")
        answer = ana.post("/api/solo", {"bots": 1, "options": FODINHA, "start": {"seed": 1, "actions": []}})
        assert answer.status_code == 400, answer.text
        assert answer.json()["error"]["code"] == "start/disabled"
        assert "SEFODE_TEST_HOOKS" in answer.json()["error"]["message"]
        assert _rooms(srv) == 0 and not srv.hub.rooms
        # Without the field, a solo table is made as always.
        assert ana.post("/api/solo", {"bots": 1, "options": FODINHA}).status_code == 200


@pytest.mark.parametrize(
    ("game_name", "options", "until"),
    [
        ("fodinha", FODINHA, _seat0_bids_in_hand(3)),
        ("king", {}, _seat0_acts_in_hand(2)),
    ],
)
def test_the_match_starts_at_the_start_point(
    hooked: LiveServer, game_name: str, options: dict[str, Any], until: Any
) -> None:
    game = get_game(game_name)
    point = start_point(game_name, options, until, seed=3)
    assert point["actions"]
    expected = new_state(game, options, point["seed"])
    for seat, entry in point["actions"]:
        game.apply(expected, seat, game.parse_action(expected, seat, entry))
    ana = hooked.player("Ana")
    bots = 1 if game_name == "fodinha" else 3
    answer = ana.post("/api/solo", {"game": game_name, "bots": bots, "options": options, "start": point})
    assert answer.status_code == 200, answer.text
    room_id = answer.json()["room_id"]
    client = ana.connect()
    client.join(room_id)
    state = client.wait(lambda m: m["type"] == "state")
    # The page sees the engine's view of the same seed and actions, with seat 0 to act, at the version they make.
    assert state["view"] == game.view(expected, 0)
    assert state["awaiting"] == [0] and state["legal"]
    assert state["version"] == len(point["actions"])
    # Stored as played actions (their source marked), so that a rebuilt room is the same match.
    room = hooked.hub.rooms[room_id]
    assert room.match is not None
    stored = hooked.hub.store.load_match(room.match.id)
    assert stored.seed == point["seed"]
    assert [[seat, entry] for seat, entry, _ in stored.actions] == point["actions"]
    assert {source for _, _, source in stored.actions} == {"start"}
    rebuilt = rebuild(game, stored.options, stored.seed, stored.setup, [(s, e) for s, e, _ in stored.actions])
    assert game.view(rebuilt, 0) == game.view(expected, 0)
    # The match goes on from there: seat 0's turn is played as usual.
    client.send("action", version=state["version"], action=state["legal"][0]["action"])
    client.wait(lambda m: m["type"] == "state" and m["version"] > state["version"])
    client.close()


def test_an_illegal_action_is_refused_and_no_room_is_made(hooked: LiveServer) -> None:
    point = start_point("fodinha", FODINHA, _seat0_bids_in_hand(3), seed=5)
    ana = hooked.player("Ana")
    rooms_before, live_before = _rooms(hooked), set(hooked.hub.rooms)
    first = next(i for i, (_, entry) in enumerate(point["actions"]) if "play" in entry)
    # A card played by the seat that is not awaited (two seats: the other one).
    wrong_seat = [list(a) for a in point["actions"]]
    wrong_seat[first][0] = 1 - wrong_seat[first][0]
    # A card no one holds.
    wrong_card = [list(a) for a in point["actions"]]
    wrong_card[first][1] = {"play": "Zz"}
    for actions in (wrong_seat, wrong_card):
        start = {"seed": point["seed"], "actions": actions}
        answer = ana.post("/api/solo", {"bots": 1, "options": FODINHA, "start": start})
        assert answer.status_code == 400, answer.text
        error = answer.json()["error"]
        assert error["code"] == "start/refused" and f"action {first} " in error["message"], error
    # Actions that end the match leave nothing to start.
    ended = start_point("fodinha", FODINHA, lambda game, state: game.outcome(state) is not None, seed=5)
    answer = ana.post("/api/solo", {"bots": 1, "options": FODINHA, "start": ended})
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "start/over", answer.text
    # Malformed start points are refused as invalid messages.
    malformed_points: list[dict[str, Any]] = [
        {"actions": []},
        {"seed": -1},
        {"seed": 1, "actions": [[0]]},
        {"seed": 1, "x": 0},
    ]
    for malformed in malformed_points:
        answer = ana.post("/api/solo", {"bots": 1, "options": FODINHA, "start": malformed})
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "message/invalid", answer.text
    assert _rooms(hooked) == rooms_before and set(hooked.hub.rooms) == live_before
