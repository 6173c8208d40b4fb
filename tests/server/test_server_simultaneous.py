"""Simultaneous secret turns through ``Room`` and the WebSocket, with the sealed-bid plugin game (``lances``).

Issue 8 §3: a submission is checked against what that seat has seen, so another seat's submission in the same turn
never makes it stale; each awaited seat has its own clock and a bot covers only the seat that ran out; nothing of a
seat's sealed card reaches the other seat before both have submitted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from server_helpers import LOOSE, Client, LiveServer, Message, running_server
from table_helpers import start, table, wait_state


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[LiveServer]:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as live:
        yield live


@pytest.fixture
def srv_short(tmp_path: Path) -> Iterator[LiveServer]:
    unlimited = replace(LOOSE, connection_messages_burst=1e6, connection_messages_per_s=1e6)  # Ana acts at once
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}", clock_unit_s=SHORT_CLOCK, limits=unlimited) as live:
        yield live


def _card(state: Message) -> dict[str, int]:
    legal = state["legal"]
    assert legal, state
    action: dict[str, int] = legal[0]["action"]
    assert set(legal[0]["label"]) == {"key", "params", "text"}
    return action


def _past(round_no: int) -> Callable[[Message], bool]:
    return lambda m: m["view"]["round"] > round_no or m["view"]["placements"] is not None


def _lances(srv: LiveServer, rounds: int, clock_s: int = 300) -> tuple[Client, Client, Message, Message]:
    _, ana, bia, first_ana, first_bia = _lances_room(srv, rounds, clock_s)
    return ana, bia, first_ana, first_bia


def _lances_room(srv: LiveServer, rounds: int, clock_s: int) -> tuple[str, Client, Client, Message, Message]:
    room_id, (ana, bia) = table(srv, ["Ana", "Bia"], {"rounds": rounds}, game="lances", clock_s=clock_s)
    first_ana = start(ana, [bia])
    assert bia.state is not None
    return room_id, ana, bia, first_ana, bia.state


def _clock_ends(srv: LiveServer, room_id: str) -> dict[int, int]:
    """When each awaited seat's clock runs out on the server (epoch ms): the messages tell only the time left."""
    run = srv.app.state.hub.rooms[room_id].match
    return {} if run is None else dict(run.deadlines)


def test_both_seats_submit_against_what_they_saw_and_no_submission_is_stale(srv: LiveServer) -> None:
    ana, bia, state_a, state_b = _lances(srv, rounds=3)
    assert sorted(state_a["awaiting"]) == [0, 1] and state_a["seat"] == 0 and state_b["seat"] == 1
    for round_no in range(1, 4):
        version_b = state_b["version"]
        card_a = _card(state_a)
        ana.send("action", action=card_a, version=state_a["version"])
        # Bia learns only THAT Ana submitted; her own version does not move, so her submission is not stale.
        seen_b = wait_state(bia, lambda m: m["awaiting"] == [1])
        assert seen_b["version"] == version_b
        assert seen_b["events"] == [{"type": "submitted", "seat": 0}]
        revealed = [c for r in seen_b["view"]["history"] for c in r["cards"]]
        assert card_a["card"] not in revealed  # not revealed before Bia has submitted too
        assert seen_b["view"]["submitted"] == [True, False]
        assert [e for e in bia.received if e["type"] == "error"] == []
        bia.send("action", action=_card(state_b), version=version_b)
        state_a = wait_state(ana, _past(round_no))
        state_b = wait_state(bia, _past(round_no))
        reveal = next(e for e in state_a["events"] if e["type"] == "reveal")
        assert reveal["cards"][0] == card_a["card"]
    end = ana.wait_type("match_end")
    assert end["placements"] == state_a["view"]["placements"]
    assert end["no_winner"] is False and end["outcome"]["units"] == [[0], [1]]
    assert end["outcome"]["placements"] == end["placements"]
    assert [e for c in (ana, bia) for e in c.received if e["type"] == "error"] == []


def test_an_old_version_is_stale_once_the_turn_resolved_and_the_refusal_is_sent(srv: LiveServer) -> None:
    ana, bia, state_a, state_b = _lances(srv, rounds=2)
    ana.send("action", action=_card(state_a), version=state_a["version"])
    wait_state(bia, lambda m: m["awaiting"] == [1])
    bia.send("action", action=_card(state_b), version=state_b["version"])
    resolved = wait_state(ana, lambda m: m["view"]["round"] == 2)
    assert resolved["version"] > state_a["version"]
    error = ana.error("action", action=_card(resolved), version=state_a["version"])
    assert error["code"] == "action/stale_state"
    # A seat that already submitted is no longer awaited: a second card is refused by the engine, not ignored.
    ana.send("action", action=_card(resolved), version=resolved["version"])
    mine = wait_state(ana, lambda m: m["awaiting"] == [1] and m["view"]["round"] == 2)
    assert mine["legal"] == []
    assert ana.error("action", action={"card": 1}, version=mine["version"])["code"] == "action/already_submitted"


def test_each_awaited_seat_has_its_own_clock_and_a_bot_covers_only_the_seat_that_ran_out(srv_short: LiveServer) -> None:
    # 25 clock seconds, 5 s of real time (SHORT_CLOCK): Ana submits at once, well within hers, and Bia never does.
    room_id, ana, bia, state_a, state_b = _lances_room(srv_short, rounds=1, clock_s=25)
    ends = _clock_ends(srv_short, room_id)  # read well before Bia's clock runs out (nothing happens until then)
    assert set(state_a["deadlines"]) == {"0", "1"} and set(ends) == {0, 1}
    assert state_a["deadline"] == state_a["deadlines"]["0"] and state_b["deadline"] == state_b["deadlines"]["1"]
    # The time left on each clock, as the server made the message: at most the clock's 5 s of real time.
    assert all(0 < left <= 5_000 for left in state_b["deadlines"].values()), state_b["deadlines"]
    ana.send("action", action=_card(state_a), version=state_a["version"])
    after_ana = wait_state(bia, lambda m: m["awaiting"] == [1])
    assert set(after_ana["deadlines"]) == {"1"}  # Ana's clock stopped when she submitted; Bia's runs on
    assert _clock_ends(srv_short, room_id) == {1: ends[1]}  # not started again
    assert after_ana["deadlines"]["1"] <= state_b["deadlines"]["1"]  # less time left, never more
    # Bia idles: when her clock runs out the table plays for her, and says so; Ana is never played for.
    final = wait_state(ana, lambda m: m["view"]["placements"] is not None, timeout=30)
    covered = [e for e in final["events"] if e["type"] == "played_for"]
    assert covered == [{"type": "played_for", "seat": 1, "reason": "clock"}]
    notices = [e for c in (ana, bia) for m in c.received if m["type"] == "state" for e in m["events"]]
    assert {"type": "played_for", "seat": 0, "reason": "clock"} not in notices


# ---------------------------------------------------------------------- Guimenon: secret placements (issue 21)
SHORT_CLOCK = 0.2
"""Seconds of real time per second of a room's clock in these tests: a 5 s clock runs out after 1 s."""


def _guimenon(srv: LiveServer, clock_s: int) -> tuple[str, Client, Client, Message]:
    """A Guimenon table of Ana (seat 0) and Bia, at the first turn in which Ana has a card she can place (turns
    before it both confirm at once); Ana's state then."""
    room_id, (ana, bia) = table(srv, ["Ana", "Bia"], {}, game="guimenon", clock_s=clock_s)
    state = start(ana, [bia])
    while not any("place" in a["action"] for a in state["legal"]):
        turn = state["view"]["turn"]
        for client in (ana, bia):
            assert client.state is not None
            client.send("action", action={"confirm": True}, version=client.state["version"])
        state = wait_state(ana, _past_turn(turn))
        wait_state(bia, _past_turn(turn))
    assert sorted(state["awaiting"]) == [0, 1] and state["seat"] == 0
    return room_id, ana, bia, state


def _past_turn(turn: int) -> Callable[[Message], bool]:
    return lambda m: m["view"]["turn"] > turn


def _secret(state: Message, kind: str) -> dict[str, object]:
    """Ana's first legal action of ``kind`` (``place`` or ``take_back``)."""
    action: dict[str, object] = next(a["action"] for a in state["legal"] if kind in a["action"])
    return action


def _ping(client: Client) -> list[Message]:
    """Every message sent to ``client`` so far: the answer to a ping comes after them."""
    client.send("ping")
    got = []
    while (message := client.next())["type"] != "pong":
        got.append(message)
    return got


def test_a_seat_placing_and_taking_back_a_secret_card_keeps_its_clock_and_the_table_plays_when_it_runs_out(
    srv_short: LiveServer,
) -> None:
    _, ana, bia, first = _guimenon(srv_short, clock_s=5)
    assert bia.state is not None
    bia.send("action", action={"confirm": True}, version=bia.state["version"])  # only Ana is awaited now
    state = wait_state(ana, lambda m: m["awaiting"] == [0])
    left = state["deadlines"]["0"]
    assert left <= first["deadlines"]["0"]  # the time left on Ana's clock, which Bia's confirmation did not restart
    covered = {"type": "played_for", "seat": 0, "reason": "clock"}
    kind = "place"
    while True:  # Ana keeps placing and taking back a card; every answer waits for the server
        ana.send("action", action=_secret(state, kind), version=state["version"])
        answer = ana.wait(lambda m: m["type"] in ("state", "error"))
        if answer["type"] == "error":  # the clock ran out: the table's bot plays Ana's turn now
            assert answer["code"] in ("action/not_your_turn", "action/stale_state", "action/already_confirmed")
            break
        if covered in answer["events"] or 0 not in answer["awaiting"]:
            break
        state = answer
        # The clock runs from when Ana became awaited: less time left at each answer, never more (started again, it
        # would have its whole second back).
        assert state["deadlines"]["0"] <= left and state["deadline"] == state["deadlines"]["0"]
        left = state["deadlines"]["0"]
        kind = "take_back" if kind == "place" else "place"
    wait_state(bia, lambda m: covered in m["events"])  # the table played for Ana, and says so


def test_a_secret_placement_or_take_back_reaches_the_acting_seat_alone(srv: LiveServer) -> None:
    room_id, ana, bia, first = _guimenon(srv, clock_s=300)
    spectator = srv.player("Vera").connect()
    assert spectator.join(room_id)["type"] == "room"
    watching = wait_state(spectator, lambda m: True)
    _ping(bia)
    state = first
    for kind in ("place", "take_back", "place"):
        ana.send("action", action=_secret(state, kind), version=state["version"])
        state = wait_state(ana, lambda m: True)
        assert state["events"] == [] and state["awaiting"] == [0, 1]
        assert [m for m in _ping(bia) if m["type"] != "room"] == []  # the opponent learns nothing
        assert [m for m in _ping(spectator) if m["type"] != "room"] == []  # nor does a spectator
    assert state["version"] == first["version"] + 3  # Ana's own version moves with her secret actions
    ana.send("action", action={"confirm": True}, version=state["version"])
    public = wait_state(spectator, lambda m: True)
    turn = first["view"]["turn"]
    assert public["events"][0] == {"type": "confirmed", "seat": 0, "turn": turn}
    assert public["version"] == watching["version"] + 1  # the secret actions are not counted where they are unseen
    assert public["view"]["hand_counts"] == watching["view"]["hand_counts"]
    seen_b = wait_state(bia, lambda m: True)
    assert seen_b["version"] == first["version"] and seen_b["events"] == public["events"]
    bia.send("action", action={"confirm": True}, version=seen_b["version"])
    resolved = [wait_state(c, _past_turn(turn))["version"] for c in (ana, bia, spectator)]
    assert resolved == [watching["version"] + 2 + 3, watching["version"] + 2, watching["version"] + 2]
    mine = [m["version"] for m in ana.received if m["type"] == "state"]
    assert mine == sorted(mine) and len(set(mine[-6:])) == 6  # Ana's version grows with each of her states
