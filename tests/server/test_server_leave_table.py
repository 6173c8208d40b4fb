"""Leaving the table in the games that have no conceding (issue 22): King, One Man's Trash and Guimenon offer
``{"leave": true}`` (capability ``forfeit``); the leaver's seat is played by a bot for the rest of the match, which
goes on unchanged and finishes. The Se Fode family's own leave is tested in ``test_server_protocol.py``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Client, LiveServer, running_server
from start_points import start_point
from table_helpers import drive, start, table, wait_state

from sefode.engine import Capability, Game, get_game


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    path = tmp_path_factory.mktemp("leave") / "db.sqlite3"
    with running_server(f"sqlite:///{path}", test_hooks=True) as live:
        yield live


def _king_last_hand(game: Game[Any], state: Any) -> bool:
    return bool(game.view(state, 0)["hand_number"] == 10 and game.awaiting(state) == {0})


def _leave(client: Client) -> None:
    """Leave the table, again at the newer version while bots keep the version moving (a bot may move first).

    Every message after the send is read in order: a bot's move may arrive before the state that carries the leave."""
    while True:
        state = client.state
        assert state is not None and state["seat"] is not None
        seat = state["seat"]
        client.send("action", action={"leave": True}, version=state["version"])
        while True:
            answer = client.next()
            if answer["type"] == "state" and {"type": "leave", "seat": seat} in answer["events"]:
                return
            if answer["type"] == "error":
                assert answer["code"] == "action/stale_state", answer
                break


def _leave_and_play_on(
    srv: LiveServer, game_name: str, options: dict[str, Any], bots: dict[str, str], point: dict[str, Any] | None = None
) -> None:
    assert Capability.FORFEIT in get_game(game_name).spec.capabilities
    _, (ana, bia) = table(srv, ["Ana", "Bia"], options, bots=bots, game=game_name)
    if point is None:
        state = start(ana, [bia])
    else:
        ana.send("start", start=point)
        state = wait_state(ana, lambda m: True)
        bia.wait(lambda m: m["type"] == "state")
    assert state["seat"] == 0
    _leave(ana)
    left = wait_state(bia, lambda m: any(e["type"] == "leave" for e in m["events"]))
    assert {"type": "leave", "seat": 0} in left["events"]
    assert left["seat_status"][0] == "left"
    assert bia.room is not None and bia.room["match"]["seats"][0]["left"] is True
    # The leaver now watches: no seat, no more moves.
    watching = ana.state  # the state that carries the leave
    assert watching is not None and watching["seat"] is None
    assert ana.error("action", action={"leave": True}, version=watching["version"])["code"] == "room/not_seated"
    # Seat 0's turns are played by a bot until the match ends; Bia plays hers.
    by_bot: list[dict[str, Any]] = []
    ended: list[dict[str, Any]] = []

    def note(client: Client, message: dict[str, Any]) -> None:
        if message["type"] == "state":
            by_bot.extend(e for e in message["events"] if e.get("seat") == 0 and e["type"] != "leave")
        if message["type"] == "match_end":
            ended.append(message)

    drive([bia], lambda: bool(ended), on_message=note)
    assert by_bot, "nobody played seat 0 after its player left"
    assert len(ended[0]["placements"]) == (4 if game_name == "king" else 2 if game_name == "guimenon" else 3)
    ana.close()
    bia.close()


def test_king_leave_the_table_a_bot_plays_the_seat_to_the_end(srv: LiveServer) -> None:
    point = start_point("king", {}, _king_last_hand, seed=3)
    _leave_and_play_on(srv, "king", {}, {"2": "easy", "3": "easy"}, point)


def test_trash_leave_the_table_a_bot_plays_the_seat_to_the_end(srv: LiveServer) -> None:
    _leave_and_play_on(srv, "trash", {"players": 3}, {"2": "easy"})


def test_guimenon_leave_the_table_a_bot_plays_the_seat_to_the_end(srv: LiveServer) -> None:
    _leave_and_play_on(srv, "guimenon", {}, {})


def test_a_seat_that_left_cannot_leave_again_and_an_out_trash_seat_cannot_leave() -> None:
    king = get_game("king")
    state = king.new_match({}, 1)
    assert king.forfeit(state, 2) == [{"type": "leave", "seat": 2}]
    assert king.stand_in_seats(state) == {2}
    assert [str(s) for s in king.seat_status(state)] == ["playing", "playing", "left", "playing"]
    with pytest.raises(Exception, match="already left") as err:
        king.forfeit(state, 2)
    assert getattr(err.value, "code", None) == "action/already_left"
    trash = get_game("trash")
    tstate = trash.new_match({"players": 3}, 1)
    tstate.alive[1] = False
    with pytest.raises(Exception, match="out of the match"):
        trash.forfeit(tstate, 1)
    assert trash.stand_in_seats(tstate) == frozenset()
    guimenon = get_game("guimenon")
    gstate = guimenon.new_match({}, 1)
    guimenon.forfeit(gstate, 1)
    assert guimenon.stand_in_seats(guimenon.clone(gstate)) == {1}


def test_the_leave_is_kept_across_a_restart_and_replayed(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    with running_server(db, bot_delay_s=3600.0) as live:
        room_id, (ana, bia) = table(live, ["Ana", "Bia"], {}, game="guimenon")
        state = start(ana, [bia])
        ana.send("action", action={"leave": True}, version=state["version"])
        wait_state(bia, lambda m: any(e["type"] == "leave" for e in m["events"]))
        ana.close()
        bia.close()
    with running_server(db, bot_delay_s=3600.0) as live:
        bia = live.player("Bia").connect()
        room = bia.join(room_id)["room"]
        assert room["match"]["seats"][0]["left"] is True
        again = wait_state(bia, lambda m: True)
        assert again["seat_status"][0] == "left"
        bia.close()
