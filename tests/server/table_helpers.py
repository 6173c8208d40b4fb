"""Setting up tables and driving seated test clients through a match."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from server_helpers import WAIT_S, Client, LiveServer, Message, my_turn


def table(
    srv: LiveServer,
    names: Sequence[str],
    options: dict[str, Any],
    bots: dict[str, str] | None = None,
    **room: Any,
) -> tuple[str, list[Client]]:
    """A room owned by ``names[0]``; every named player connects, joins and sits at the next free seat."""
    players = [srv.player(name) for name in names]
    created = players[0].create_room(
        name="Mesa", options=options, bots=bots or {}, clock_s=room.pop("clock_s", 300), **room
    )
    room_id: str = created["room_id"]
    clients = []
    for i, player in enumerate(players):
        client = player.connect()
        answer = client.join(room_id, invite=created["invite_token"])
        assert answer["type"] == "room", answer
        if i > 0:
            seats = answer["room"]["seats"]
            free = next(s["seat"] for s in seats if s["player_id"] is None and s["bot"] is None)
            client.send("sit", seat=free)
            client.wait(sat(player.id, free))
        clients.append(client)
    return room_id, clients


def sat(player_id: str, seat: int) -> Callable[[Message], bool]:
    return lambda m: m["type"] == "room" and m["room"]["seats"][seat]["player_id"] == player_id


def start(owner: Client, others: Sequence[Client] = ()) -> Message:
    owner.send("start")
    state = owner.wait_type("state")
    for client in others:
        client.wait(lambda m: m["type"] == "state" and m["match_id"] == state["match_id"])
    return state


def wait_state(client: Client, predicate: Callable[[Message], bool], timeout: float = WAIT_S) -> Message:
    return client.wait(lambda m: m["type"] == "state" and predicate(m), timeout)


def at_version(client: Client, version: int) -> Message:
    """The client's state at ``version`` (already received, or the next one to arrive)."""
    if client.state is not None and client.state["version"] == version:
        return client.state
    return wait_state(client, lambda m: m["version"] == version)


def drive(
    clients: Sequence[Client],
    done: Callable[[], bool],
    rng: random.Random | None = None,
    on_message: Callable[[Client, Message], None] | None = None,
    timeout: float = 120.0,
) -> None:
    """Play random legal moves for every seated client until ``done()``."""
    rng = rng or random.Random(1)
    acted: dict[int, int] = {}
    slow_down: dict[int, float] = {}
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"the match did not finish: {_where(clients)}")
        idle = True
        for client in clients:
            for message in client.poll():
                idle = False
                if on_message is not None:
                    on_message(client, message)
                if message.get("type") == "error" and message.get("code") == "rate/limited":
                    # The server refused the action, as it does when a client sends too fast (a seat with many
                    # quick turns): the turn is still ours; play it again once the limit allows.
                    acted.pop(id(client), None)
                    slow_down[id(client)] = time.monotonic() + 0.5
            state = client.state
            if state is None or not my_turn(state):
                continue
            if acted.get(id(client)) == state["version"] or time.monotonic() < slow_down.get(id(client), 0.0):
                continue
            acted[id(client)] = state["version"]
            client.send("action", action=rng.choice(state["legal"])["action"], version=state["version"])
            idle = False
        if idle:
            time.sleep(0.005)


def _where(clients: Sequence[Client]) -> str:
    """Where each client stands, for a failure message: its state's version and awaited seats, and its last messages
    (an error answering its own action, a state that never came)."""
    out = []
    for client in clients:
        state = client.state or {}
        last = [{k: m.get(k) for k in ("type", "version", "code", "message", "awaiting")} for m in client.received[-4:]]
        where = f"version {state.get('version')}, awaiting {state.get('awaiting')}"
        out.append(f"{client.player.name}: {where}, last {last}")
    return "; ".join(out)


def settle(clients: Sequence[Client]) -> None:
    """Wait until an action still on its way through the room has reached everyone: every client holds the same
    state version, and it has not moved for three rounds of pings."""
    seen: list[set[int]] = []
    while len(seen) < 3 or len(seen[-1]) != 1 or not (seen[-1] == seen[-2] == seen[-3]):
        assert len(seen) < 200, "the table never settled"
        time.sleep(0.05)
        for client in clients:
            client.send("ping")
            client.wait_type("pong")
        seen.append({c.state["version"] for c in clients if c.state is not None})
