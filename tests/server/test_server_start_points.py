"""The start-point test hook (``sefode.server.startpoint``): off unless the server is started with it; on, a solo table
(or a room's match, from its owner's ``start`` message) starts at the given seed and actions, checked and stored as
played actions (source ``start``), and a refused action leaves no room (no match) behind."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import LiveServer, running_server
from start_points import new_state, start_point
from table_helpers import start, table

from sefode.engine import Game, get_game
from sefode.history import rebuild
from sefode.server.messages import MAX_MESSAGE_BYTES

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


# ---------------------------------------------------------------- a room's match, started by its owner's message


def _room_of_humans(
    srv: LiveServer, names: list[str], options: dict[str, Any], game_name: str
) -> tuple[str, list[Any]]:
    """A room of ``game_name`` owned by ``names[0]``, each seat taken by one of the named humans, no match yet."""
    return table(srv, names, options, game=game_name)


def test_a_server_without_the_hook_refuses_a_start_point_in_a_start_message(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as srv:
        room_id, clients = _room_of_humans(srv, ["Ana", "Bia"], FODINHA, "fodinha")
        error = clients[0].error("start", start={"seed": 1, "actions": []})
        assert error["code"] == "start/disabled" and "SEFODE_TEST_HOOKS" in error["message"], error
        room = srv.hub.rooms[room_id]
        assert room.match is None and room.current_match is None and room.match_count == 0
        # Without the field, the owner starts the match as always.
        state = start(clients[0], clients[1:])
        assert state["version"] == 0
        for client in clients:
            client.close()


def test_a_room_of_humans_starts_at_the_start_point_each_seat_seeing_its_view(hooked: LiveServer) -> None:
    game = get_game("king")
    # Seat 0 to act in the fifth hand: more than 200 actions, a start message larger than a message's usual cap.
    point = start_point("king", {}, _seat0_acts_in_hand(5), seed=4)
    assert len(json.dumps({"type": "start", "start": point})) > MAX_MESSAGE_BYTES
    expected = new_state(game, {}, point["seed"])
    for seat, entry in point["actions"]:
        game.apply(expected, seat, game.parse_action(expected, seat, entry))
    room_id, clients = _room_of_humans(hooked, ["Ana", "Bia", "Caio", "Duda"], {}, "king")
    # Only the start message may be that large: another is refused as too large, as on any server.
    too_large = clients[0].error("chat", text="x" * 400, pad="y" * MAX_MESSAGE_BYTES)
    assert too_large["code"] == "message/too_large", too_large
    clients[0].send("start", start=point)
    for seat, client in enumerate(clients):
        state = client.wait(lambda m: m["type"] == "state")
        # Each human sees the engine's view of the same seed and actions from their own seat.
        assert state["seat"] == seat
        assert state["view"] == game.view(expected, seat)
        assert state["version"] == len(point["actions"])
        assert state["awaiting"] == sorted(game.awaiting(expected))
    room = hooked.hub.rooms[room_id]
    assert room.match is not None
    stored = hooked.hub.store.load_match(room.match.id)
    assert stored.seed == point["seed"]
    assert [[seat, entry] for seat, entry, _ in stored.actions] == point["actions"]
    assert {source for _, _, source in stored.actions} == {"start"}
    # Play goes on from there, each human on their own seat.
    owner = clients[0]
    assert owner.state is not None and owner.state["awaiting"] == [0]
    owner.send("action", version=owner.state["version"], action=owner.state["legal"][0]["action"])
    for client in clients:
        client.wait(lambda m: m["type"] == "state" and m["version"] == len(point["actions"]) + 1)
        client.close()


def test_a_refused_start_point_in_a_start_message_starts_no_match(hooked: LiveServer) -> None:
    point = start_point("fodinha", FODINHA, _seat0_bids_in_hand(3), seed=5)
    room_id, clients = _room_of_humans(hooked, ["Ana", "Bia"], FODINHA, "fodinha")
    owner = clients[0]
    first = next(i for i, (_, entry) in enumerate(point["actions"]) if "play" in entry)
    wrong_card = [list(a) for a in point["actions"]]
    wrong_card[first][1] = {"play": "Zz"}
    error = owner.error("start", start={"seed": point["seed"], "actions": wrong_card})
    assert error["code"] == "start/refused" and f"action {first} " in error["message"], error
    ended = start_point("fodinha", FODINHA, lambda game, state: game.outcome(state) is not None, seed=5)
    assert owner.error("start", start=ended)["code"] == "start/over"
    assert owner.error("start", start={"seed": -1})["code"] == "message/invalid"
    # Only the owner starts a match, with or without a start point.
    assert clients[1].error("start", start=point)["code"] == "room/not_owner"
    room = hooked.hub.rooms[room_id]
    assert room.match is None and room.current_match is None and room.match_count == 0
    # The room is as it was: its owner starts it at a good point.
    owner.send("start", start=point)
    state = owner.wait(lambda m: m["type"] == "state")
    assert state["version"] == len(point["actions"])
    for client in clients:
        client.close()
