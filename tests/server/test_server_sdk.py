"""The bot SDK over the public protocol (issue 15): ``sefode.client`` and the starter bot against a live server.

The starter bot (``examples/bots/random_bot.py``) runs as its own process and plays a whole match of every
registered game; the client reconnects after a broken connection and gets a full snapshot; errors come back as events.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import LOOSE, WAIT_S, Client, LiveServer, run_async, running_server
from table_helpers import sat

from sefode.client import AuthError, MatchEnd, Reconnected, RoomUpdate, ServerError, State, parse_event
from sefode.client import Client as SdkClient
from sefode.engine import game_names, get_game

ROOT = Path(__file__).resolve().parents[2]
RANDOM_BOT = ROOT / "examples" / "bots" / "random_bot.py"


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[LiveServer]:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as live:
        yield live


def _small_options(game_name: str) -> dict[str, Any]:
    """Default options with the fewest seats the game takes (a short match)."""
    spec = get_game(game_name).spec
    options: dict[str, Any] = {}
    if spec.seats_option is not None:
        options[spec.seats_option] = spec.min_seats
    return options


def _open_table(srv: LiveServer, game_name: str) -> tuple[Client, str, str]:
    """A room of ``game_name`` whose owner watches; every seat free. Returns the owner's client, room id, invite."""
    owner = srv.player("Dona")
    created = owner.create_room(name="Mesa", game=game_name, options=_small_options(game_name), sit=False)
    client = owner.connect()
    assert client.join(created["room_id"])["type"] == "room"
    return client, created["room_id"], created["invite_token"]


@pytest.mark.parametrize("game_name", game_names())
def test_the_starter_bot_plays_a_whole_match_of_every_game_on_a_live_server(tmp_path: Path, game_name: str) -> None:
    # The table's bots answer at once (no bot delay), so the starter bot would outpace the connection's default
    # message rate, 20 a second, and wait for it (a King match has some 150 moves of its seat): the rate is lifted
    # here; test_an_action_dropped_for_the_message_rate_is_sent_again is the test of the client under that rate.
    unlimited = dataclasses.replace(LOOSE, connection_messages_burst=1e6, connection_messages_per_s=1e6)
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}", limits=unlimited) as srv:
        _starter_bot_plays(srv, game_name)


def _starter_bot_plays(srv: LiveServer, game_name: str) -> None:
    owner, room_id, _ = _open_table(srv, game_name)
    bot = srv.player("Robô")
    proc = subprocess.Popen(
        [sys.executable, str(RANDOM_BOT), f"--url={srv.url}", f"--token={bot.token}", f"--room={room_id}", "--seat=0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        owner.wait(sat(bot.id, 0))
        owner.send("start")  # the other seats get the table's own bots
        end = owner.wait_type("match_end", timeout=120)
        out, err = proc.communicate(timeout=WAIT_S)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert json.loads(out.strip().splitlines()[-1]) == {"placements": end["placements"]}
    # The bot's moves are in the match's history, at seat 0.
    history = srv.http.get(end["history_url"]).json()
    assert any(entry["seat"] == 0 for entry in history["actions"])


async def _until(client: SdkClient, kind: type[Any], events: list[Any]) -> Any:
    async for event in client.events():
        events.append(event)
        if isinstance(event, kind):
            return event
    raise AssertionError("the events ended")


def test_the_client_reconnects_with_a_full_snapshot_and_surfaces_errors(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}", disconnect_grace_s=60.0) as srv:
        _reconnects(srv)


def _reconnects(srv: LiveServer) -> None:
    """The table waits for the seat while its connection is down (a long grace): the snapshot is of that turn."""
    owner, room_id, _ = _open_table(srv, "fodinha")
    bot = srv.player("Robô")

    async def run() -> tuple[list[Any], MatchEnd]:
        events: list[Any] = []
        async with SdkClient(srv.url, bot.token, backoff_s=0.05) as client:
            assert client.hello is not None and client.hello.player_id == bot.id
            await client.join(room_id)
            await _until(client, RoomUpdate, events)
            await client.sit(0)
            # Wait until seated, then let the owner start.
            async for event in client.events():
                events.append(event)
                if isinstance(event, RoomUpdate) and event.room["seats"][0]["player_id"] == bot.id:
                    break
            await asyncio.to_thread(owner.send, "start")
            state = await _until(client, State, events)
            while not state.my_turn:
                state = await _until(client, State, events)
            # A stale version is refused, and the refusal comes back as an event with the request's ref.
            ref = await client.send({"type": "action", "action": state.legal[0].action, "version": state.version + 7})
            refusal = await _until(client, ServerError, events)
            assert (refusal.code, refusal.ref) == ("action/stale_state", ref)
            assert client.errors == [refusal]
            # The network breaks: the client reconnects, joins again and gets room and state before anything else.
            assert client._ws is not None
            client._ws.transport.abort()
            mark = len(events)
            await _until(client, Reconnected, events)
            await _until(client, State, events)
            kinds = [type(e).__name__ for e in events[mark:]]
            assert kinds == ["Reconnected", "RoomUpdate", "State"], kinds
            fresh = events[-1]
            assert isinstance(fresh, State) and fresh.match_id == state.match_id and fresh.recap is not None
            assert fresh.my_turn and fresh.version == state.version and fresh.legal == state.legal
            # The snapshot is the turn to answer (``play`` answers only the states that come after it): without this
            # move the seat waited for its 30 s clock and the table played for it.
            await client.act(fresh.legal[-1].action, fresh)
            end = await client.play(lambda s: s.legal[-1].action)
            assert end is not None
            return events, end

    _events, end = run_async(run())
    assert owner.wait_type("match_end", timeout=120)["match_id"] == end.match_id
    covered = [e for m in owner.received if m["type"] == "state" for e in m["events"] if e["type"] == "played_for"]
    assert not [e for e in covered if e["seat"] == 0], covered  # the client played every turn of its seat


@pytest.mark.parametrize("auth_message", [False, True])
def test_a_refused_session_raises_at_once(srv: LiveServer, auth_message: bool) -> None:
    async def run(token: str) -> str:
        async with SdkClient(srv.url, token, max_retries=1, auth_message=auth_message) as client:
            assert client.hello is not None
            return client.hello.player_id

    with pytest.raises(AuthError):
        run_async(run("not-a-token"))
    ana = srv.player("Ana")
    assert run_async(run(ana.token)) == ana.id


@pytest.mark.parametrize("level", ["hard", "normal"])
def test_sefode_bot_seats_a_built_in_bot_on_a_remote_server(srv: LiveServer, level: str) -> None:
    """The bot rebuilds a state from each view it gets (``Game.from_view``): every move it sends is its own choice,
    legal on the server (no fallback to a random move is reported)."""
    owner, room_id, _ = _open_table(srv, "fodinha")
    bot = srv.player("Robô")
    command = [sys.executable, "-m", "sefode", "bot", f"--url={srv.url}", f"--token={bot.token}", f"--room={room_id}"]
    proc = subprocess.Popen(
        [*command, "--seat", "0", "--level", level, "--think-ms", "20", "--seed", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        owner.wait(sat(bot.id, 0))
        owner.send("start")
        end = owner.wait_type("match_end", timeout=120)
        out, err = proc.communicate(timeout=WAIT_S)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert json.loads(out) == {"match_id": end["match_id"], "placements": end["placements"]}
    assert "sefode bot:" not in err, err
    covered = [e for m in owner.received if m["type"] == "state" for e in m["events"] if e["type"] == "played_for"]
    history = srv.http.get(end["history_url"]).json()
    own = [entry for entry in history["actions"] if entry["seat"] == 0]
    # The bot played every turn of its seat: the table (after the 30 s clock) played none for it. It once covered one
    # in three runs: the bot outpaced the connection's message rate and its dropped action was never sent again.
    assert own and not [e for e in covered if e["seat"] == 0], covered


def test_an_action_dropped_for_the_message_rate_is_sent_again(tmp_path: Path) -> None:
    """A bot faster than its connection's message rate: the server drops the action (``rate/limited``, with the
    action's ref) and sends no new state, so the client must send it again; else the seat waits for its clock (30 s)
    and the table plays for it. Here the rate is 10 messages a second against an opponent that answers at once: a
    bot on the loopback answers in a few milliseconds, so it outpaces that rate many times in a match; and so that
    at least one action is dropped whatever the machine's load, the bot spends the connection's burst on pings just
    before its first action."""
    limits = dataclasses.replace(LOOSE, connection_messages_burst=3, connection_messages_per_s=10)
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}", limits=limits) as srv:
        owner, room_id, _ = _open_table(srv, "fodinha")
        bot = srv.player("Robô")

        async def run() -> tuple[MatchEnd | None, list[ServerError]]:
            async with SdkClient(srv.url, bot.token) as client:
                await client.join(room_id)
                await client.sit(0)
                async for event in client.events():
                    if isinstance(event, RoomUpdate) and event.room["seats"][0]["player_id"] == bot.id:
                        break
                await asyncio.to_thread(owner.send, "start")
                first = [True]

                async def decide(state: State) -> dict[str, Any]:
                    if first[0]:
                        first[0] = False
                        for _ in range(int(limits.connection_messages_burst)):
                            await client.send({"type": "ping"})
                    return dict(state.legal[0].action)

                end = await client.play(decide)
                return end, client.errors

        end, errors = run_async(run())
        assert end is not None and owner.wait_type("match_end")["match_id"] == end.match_id
    dropped = [e for e in errors if e.code == "rate/limited"]
    assert dropped and all(e.ref is not None for e in dropped), errors
    assert not [e for e in errors if e.code not in ("rate/limited", "action/stale_state")], errors
    covered = [e for m in owner.received if m["type"] == "state" for e in m["events"] if e["type"] == "played_for"]
    assert not [e for e in covered if e["seat"] == 0], covered


@dataclasses.dataclass
class _Counting(SdkClient):
    """The SDK client, counting the updates it folded and the resyncs it asked for."""

    folded: int = 0
    resyncs: int = 0

    async def _fold(self, message: dict[str, Any], raw: str | bytes) -> dict[str, Any] | None:
        out = await super()._fold(message, raw)
        if message.get("type") == "update" and out is not None:
            self.folded += 1
        return out

    async def send(self, message: Any) -> str | int:
        if message.get("type") == "resync":
            self.resyncs += 1
        return await super().send(message)


def _seen(state: State) -> tuple[Any, ...]:
    """What a state holds, its clock as the time left the server told (the SDK counts it from when it read it)."""
    left = None if state.deadline is None else state.deadline - state.received_at
    return (state.match_id, state.version, state.seat, state.view, state.events, state.awaiting, state.legal,
            left, state.over, state.seat_status)  # fmt: skip


MATCH_S = 60.0
"""Time for the two-seat Fodinha match of the updates test: a few seconds when the client folds right."""


async def _play_lean(lean: _Counting, states: list[State]) -> None:
    """Play seat 0 to the match's end on the updates client, making one gap in its updates after a few."""
    gap_made = False
    async for event in lean.events():
        if isinstance(event, State):
            states.append(event)
            if lean.folded >= 5 and not gap_made:
                assert lean._held is not None
                lean._held.state["seq"] = -1  # the next update follows a state this client does not hold
                gap_made = True
            if event.my_turn:
                await lean.act(event.legal[0].action, event)
        elif isinstance(event, MatchEnd):
            return


def test_a_client_that_takes_updates_sees_the_states_a_full_client_sees_and_resyncs_after_a_gap(
    tmp_path: Path,
) -> None:
    """One player on two connections: ``updates=True`` plays the seat, the other takes full states. Every state the
    first folds equals the one the second was sent; a gap (the held state made stale on purpose) makes it ask for
    the full state again, and it goes on to the end."""
    unlimited = dataclasses.replace(LOOSE, connection_messages_burst=1e6, connection_messages_per_s=1e6)
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}", limits=unlimited) as srv:
        owner, room_id, _ = _open_table(srv, "fodinha")
        bot = srv.player("Robô")

        async def run() -> tuple[list[State], list[State], _Counting]:
            lean_states: list[State] = []
            full_states: list[State] = []
            lean = _Counting(srv.url, bot.token, updates=True)
            async with lean, SdkClient(srv.url, bot.token) as full:
                await full.join(room_id)
                await _until(full, RoomUpdate, [])
                await lean.join(room_id)
                await lean.sit(0)
                async for event in lean.events():
                    if isinstance(event, RoomUpdate) and event.room["seats"][0]["player_id"] == bot.id:
                        break

                async def watch() -> None:
                    async for event in full.events():
                        if isinstance(event, State):
                            full_states.append(event)
                        elif isinstance(event, MatchEnd):
                            return

                watcher = asyncio.get_running_loop().create_task(watch())
                await asyncio.to_thread(owner.send, "start")
                async with asyncio.timeout(MATCH_S):  # a client whose folds go wrong plays stale versions for ever
                    await _play_lean(lean, lean_states)
                await asyncio.wait_for(watcher, WAIT_S)
                return lean_states, full_states, lean

        lean_states, full_states, lean = run_async(run())
    assert lean.folded > 10 and lean.resyncs == 1
    # The full client's first state may have come before the lean one joined; from the lean one's first state on,
    # each state it holds is one the full client was sent (the update it could not fold is the only one it skips,
    # and the full state it asked for instead is a copy of the newest).
    full_seen = [_seen(s) for s in full_states]
    first = full_seen.index(_seen(lean_states[0])) if _seen(lean_states[0]) in full_seen else None
    assert first is not None
    without_events = [k[:4] + k[5:] for k in full_seen]
    resynced = 0
    for state in lean_states[1:]:
        key = _seen(state)
        if key not in full_seen[first:]:
            # Only the full state sent on ``resync`` may differ, and only in its events (a resync repeats none) and
            # in the time left on the clock (it was made later).
            resynced += 1
            assert state.events == [] and key[:4] + key[5:7] + key[8:] in [
                k[:6] + k[7:] for k in without_events[first:]
            ], f"version {state.version}"
    assert resynced <= 1
    assert _seen(lean_states[-1])[:4] == _seen(full_states[-1])[:4]


def test_the_sdk_counts_each_clock_from_when_it_reads_the_state() -> None:
    """Protocol 5: a ``state`` tells the time left on each clock; ``parse_event`` gives when each runs out on this
    machine's clock (epoch ms), counted from when it read the message (``received_at``)."""
    message = {
        "type": "state", "match_id": "m", "version": 3, "seat": 1, "view": {}, "events": [], "awaiting": [1, 2],
        "legal": [], "deadlines": {"1": 30_000, "2": 12_000}, "deadline": 30_000, "over": False, "seat_status": [],
    }  # fmt: skip
    before = round(time.time() * 1000)
    state = parse_event(message)
    after = round(time.time() * 1000)
    assert isinstance(state, State)
    assert before <= state.received_at <= after
    assert state.deadlines == {1: state.received_at + 30_000, 2: state.received_at + 12_000}
    assert state.deadline == state.my_deadline == state.received_at + 30_000
    no_clock = parse_event({**message, "deadlines": {}, "deadline": None})
    assert isinstance(no_clock, State) and no_clock.deadlines == {} and no_clock.deadline is None
