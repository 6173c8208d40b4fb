"""``sefode serve --redis`` nodes behind nginx on PostgreSQL + Redis (issue 14; docs/cluster.md lists each guarantee
and the test here that shows it).

Matches with humans (scripted WebSocket players connected through the proxy, so most of them play in rooms owned
by another node than theirs) and bots are spread over three nodes. In rounds, at random moments drawn from one
printed seed (``SEFODE_CLUSTER_SEED`` repeats the choices), a random owner is killed with SIGKILL mid-hand and
started again, and a random owner is paused with SIGSTOP until the others have taken its rooms, then resumed. Each
round checks presence and the lobby; at the end every match must have ended, every view a player received must be
exactly its seat's view of the stored log at that version (so no accepted action was lost or applied twice, and no
one saw a card they may not see), the stored actions are contiguous, and the epochs they were stored under never go
down, one node per epoch (no room ever had two writers).

Also: the Colyseus #978 case (a join forwarded to another node that times out, forced: that node's forward timeout
is 0, is refused with ``server/busy`` and creates no second room, lease or owner); a SIGTERM drain; the room-password
backoff across nodes; a node restarted under its name.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from cluster_helpers import Rig, cluster, wait_for
from ports import free_port
from server_helpers import run_async
from websockets.asyncio.client import ClientConnection, connect

from sefode.engine import apply_entry, get_game
from sefode.store import Store
from sefode.store import tables as t

LIVE_ROOMS = 3
"""Live matches at the start of each round (new rooms top them up)."""
DEADLINE_S = 150.0
OPTIONS = {"variant": "sefode", "players": 4, "lives": 3, "max_cards": 4}
PLAY_OPTIONS = {**OPTIONS, "lives": 1}
"""The random-moments rigs' matches: long enough for a kill and a pause to strike mid-match (``Play.top_up`` starts
more when most have ended, and a moment with no live match starts one), short enough that the wait for every match
to end stays small (with 2 lives it was about 5 s, 30% of a rig; with 1, 0.4 to 3 s)."""


class Human:
    """A scripted player that reconnects through the proxy by itself, as the browser client does."""

    def __init__(self, rig: Rig, token: str, room_id: str, seat: int, rng: random.Random) -> None:
        self.rig = rig
        self.token = token
        self.room_id = room_id
        self.seat = seat
        self.rng = rng
        self.states: list[dict[str, Any]] = []
        self.ended: dict[str, Any] | None = None
        self.joined = asyncio.Event()
        self.connections = 0
        self.errors: list[str] = []
        self.other_seats: list[Any] = []
        self.stamps: list[float] = []
        self.player_id = ""
        """When each state arrived (monotonic): the longest pause a player saw is reported, never asserted."""
        """Seats of the states this player was sent after it sat, when not its own (a leak, or a lost seat)."""

    async def run(self, start: bool, ready: asyncio.Event | None) -> None:
        ws_base = self.rig.base.replace("http://", "ws://")
        while self.ended is None:
            try:
                async with connect(
                    f"{ws_base}/ws",
                    additional_headers={"authorization": f"Bearer {self.token}"},
                    open_timeout=3,
                    ping_interval=None,
                    close_timeout=1,
                ) as ws:
                    self.connections += 1
                    await self._play(ws, start, ready)
            except (OSError, TimeoutError) as err:
                self.errors.append(type(err).__name__)
            except Exception as err:  # the connection dropped (node killed): reconnect
                self.errors.append(type(err).__name__)
            await asyncio.sleep(0.05)

    async def _play(self, ws: ClientConnection, start: bool, ready: asyncio.Event | None) -> None:
        await ws.send(json.dumps({"type": "join", "room": self.room_id}))
        asked = False
        while self.ended is None:
            # A player whose node is paused hears nothing: after a while it reconnects elsewhere.
            raw = await asyncio.wait_for(ws.recv(), 8.0)
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "hello":
                self.player_id = msg["player_id"]
            elif kind == "room":
                last = msg["room"]["last_match"]
                if last is not None and any(s["match_id"] == last["id"] for s in self.states):
                    # The match ended while this player was away (its node died, or its join was being moved):
                    # the room it joins again says how, as it tells the browser client.
                    self.ended = {"placements": last["placements"], "match_id": last["id"], "rejoined": True}
                    break
                if not self.joined.is_set():
                    if self.seat != 0 and msg["room"]["your_seat"] != self.seat:
                        await ws.send(json.dumps({"type": "sit", "seat": self.seat}))
                        continue
                    self.joined.set()
                if start and ready is not None and not asked and not self.states and msg["room"]["match"] is None:
                    # Once per connection, and again after an error: a start sent while the room was moving
                    # to another node is answered "moved", not carried out.
                    await ready.wait()
                    await ws.send(json.dumps({"type": "start"}))
                    asked = True
            elif kind == "state":
                self.states.append(msg)
                self.stamps.append(time.monotonic())
                if self.joined.is_set() and msg["seat"] != self.seat:
                    self.other_seats.append(msg["seat"])
                if msg["seat"] is not None and msg["seat"] in msg["awaiting"] and msg["legal"]:
                    await asyncio.sleep(self.rng.uniform(0.01, 0.05))
                    choice = self.rng.choice(msg["legal"])["action"]
                    await ws.send(json.dumps({"type": "action", "action": choice, "version": msg["version"]}))
            elif kind == "match_end":
                self.ended = msg
            elif kind == "error":
                self.errors.append(msg["code"])
                asked = False
                if msg["code"] == "server/busy":
                    # As the browser client does: the room is between two nodes; join again in a moment.
                    await asyncio.sleep(0.5)
                    await ws.send(json.dumps({"type": "join", "room": self.room_id}))


async def _post(base: str, path: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    headers = {"authorization": f"Bearer {token or '-'}"}
    async with httpx.AsyncClient(base_url=base, timeout=10) as http:
        response = await http.post(path, json=body, headers=headers)
        response.raise_for_status()
        data: dict[str, Any] = response.json()
        return data


def _versions(humans: list[Human], room_id: str) -> int:
    return max((s["version"] for h in humans if h.room_id == room_id for s in h.states), default=0)


async def _until(predicate: Any, what: str, timeout: float = 40.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


class Play:
    """The matches of the rounds: rooms (each a human at seat 0 who starts it, one at seat 2, bots at 1 and 3) and
    their players' tasks."""

    def __init__(self, rig: Rig, rng: random.Random) -> None:
        self.rig = rig
        self.rng = rng
        self.humans: list[Human] = []
        self.rooms: list[str] = []
        self.tasks: list[asyncio.Task[None]] = []

    async def add_room(self, creator: str) -> str:
        """A room made on ``creator`` (its first owner), with its players connected through the proxy."""
        r = len(self.rooms)
        base = self.rig.node_base(creator)
        t0 = (await _post(base, "/api/session", {"name": f"a{r}"}))["token"]
        t2 = (await _post(base, "/api/session", {"name": f"b{r}"}))["token"]
        body = {"name": f"t{r}", "options": PLAY_OPTIONS, "bots": {"1": "normal", "3": "normal"}, "clock_s": 30}
        room_id = str((await _post(base, "/api/rooms", body, t0))["room_id"])
        self.rooms.append(room_id)
        first = Human(self.rig, t0, room_id, 0, random.Random(self.rng.randrange(2**32)))
        second = Human(self.rig, t2, room_id, 2, random.Random(self.rng.randrange(2**32)))
        ready = asyncio.Event()
        self.humans += [first, second]
        self.tasks.append(asyncio.create_task(first.run(True, ready)))
        self.tasks.append(asyncio.create_task(second.run(False, None)))

        async def both() -> None:
            await first.joined.wait()
            await second.joined.wait()
            ready.set()

        self.tasks.append(asyncio.create_task(both()))
        return room_id

    async def top_up(self, count: int, what: str) -> None:
        """At least ``count`` live matches, all under way; new rooms' first owners spread over the nodes."""
        names = list(self.rig.ports)
        while len(self.live()) < count:
            await self.add_room(names[len(self.rooms) % len(names)])
        live = self.live()
        await _until(
            lambda: all(_versions(self.humans, r) >= 2 or _ended(self.humans, r) for r in live),
            f"{what}: every match under way",
        )

    async def pick_owner(self) -> tuple[str, list[str]]:
        """A random node among the owners of the live matches, and the live rooms it owns. Every match may have
        ended while the moment was awaited: then a new one is started first (a run once waited for an owner of
        matches that were all over)."""
        while True:
            if not self.live():
                await self.top_up(1, "a live match to strike")
            await _until(
                lambda: any(o is not None for o in self.owners().values()) or not self.live(),
                "a live match with an owner",
            )
            owners = self.owners()
            nodes = sorted({o for o in owners.values() if o is not None})
            if nodes:
                break
        node = self.rng.choice(nodes)
        return node, [r for r, o in owners.items() if o == node]

    def live(self) -> list[str]:
        return [r for r in self.rooms if not _ended(self.humans, r)]

    def versions(self) -> dict[str, int]:
        return {r: _versions(self.humans, r) for r in self.rooms}

    async def moment(self, what: str) -> int:
        """A random moment of the play: after a random number of further actions (1 to 12, over the live rooms),
        then a random fraction of a move. Returns the number of actions waited for."""
        rooms = self.live()
        step = self.rng.randint(1, 12)
        at = self.versions()
        await _until(
            lambda: sum(_versions(self.humans, r) - at[r] for r in rooms) >= step or not self.live(),
            f"{step} more actions before {what}",
        )
        # Where between two messages the fault strikes; nothing waits on this (the checks all wait on events).
        await asyncio.sleep(self.rng.uniform(0.0, 0.25))
        return step

    def owners(self) -> dict[str, str | None]:
        return {r: self.rig.owner(r) for r in self.live()}

    async def moved_on(self, rooms: list[str], at: dict[str, int], what: str) -> None:
        await _until(lambda: all(_versions(self.humans, r) > at[r] or _ended(self.humans, r) for r in rooms), what)


def _in_presence(rig: Rig, node: str) -> bool:
    score = rig.redis.zscore(f"{rig.prefix}nodes", node)
    return bool(rig.redis.exists(f"{rig.prefix}presence:{node}")) or (
        score is not None and float(score) > time.time() * 1000
    )


def _listed_by(rig: Rig, node: str) -> list[str]:
    """Rooms the cluster-wide lobby lists (from Redis, as every node reads it) with ``node`` as their owner."""
    ids: list[bytes] = rig.redis.zrangebyscore(  # type: ignore[assignment]
        f"{rig.prefix}lobby", int(time.time() * 1000), "+inf"
    )
    if not ids:
        return []
    values: list[bytes | None] = rig.redis.mget([f"{rig.prefix}summary:{i.decode()}" for i in ids])  # type: ignore[assignment]
    return [s["id"] for s in (json.loads(v) for v in values if v) if s["node"] == node]


async def _lobby_ids(rig: Rig) -> set[str]:
    async with httpx.AsyncClient(base_url=rig.base, timeout=10) as http:
        response = await http.get("/api/rooms", params={"limit": 100})
        response.raise_for_status()
        return {r["id"] for r in response.json()["rooms"]}


async def _presence_without(rig: Rig, dead: str) -> bool:
    async with httpx.AsyncClient(base_url=rig.base, timeout=10) as http:
        response = await http.get("/api/health", params={"cluster": 1})
        response.raise_for_status()
        nodes = response.json()["cluster"]
    return dead not in nodes and set(nodes) == set(rig.ports) - {dead}


def _players_in_presence(rig: Rig, play: Play) -> bool:
    held: set[str] = set()
    for name in rig.ports:
        held |= {v.decode() for v in rig.redis.hvals(f"{rig.prefix}presence:{name}")}  # type: ignore[union-attr]
    wanted = {h.player_id for h in play.humans if h.player_id and h.room_id in play.live()}
    return wanted <= held


async def _until_async(predicate: Any, what: str, timeout: float = 40.0) -> None:
    deadline = time.monotonic() + timeout
    while not await predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.1)


def _events_since(rig: Rig, node: str, offset: int) -> list[dict[str, Any]]:
    out = []
    with rig.log(node).open("rb") as log:
        log.seek(offset)
        for line in log.read().decode(errors="replace").splitlines():
            if line.startswith("{"):
                with contextlib.suppress(ValueError):
                    out.append(json.loads(line))
    return out


async def _kill_round(play: Play, facts: dict[str, Any]) -> None:
    """SIGKILL a random owner at a random moment; its rooms are taken, it leaves presence and the lobby, the lobby
    lists its rooms again from their new owners, play goes on; then it is started again (same name)."""
    rig = play.rig
    facts["kill_after_actions"] = await play.moment("the kill")
    victim, rooms = await play.pick_owner()
    facts |= {"killed": victim, "killed_rooms": rooms}
    at = play.versions()
    rig.signal(victim, signal.SIGKILL)
    began = time.monotonic()
    await asyncio.to_thread(rig.procs[victim].wait, 10)
    # Measured, not asserted (tests never assert on timings): docs/cluster.md reports them against the TTL.
    await _until(lambda: not _in_presence(rig, victim), "the killed node to leave presence")
    facts["left_presence_after_s"] = round(time.monotonic() - began, 2)
    await _until(lambda: not _listed_by(rig, victim), "the lobby to list nothing of the killed node")
    facts["left_lobby_after_s"] = round(time.monotonic() - began, 2)
    await _until(lambda: all(rig.owner(r) not in (None, victim) for r in rooms), "the killed node's rooms")
    facts["takeover_after_kill_s"] = round(time.monotonic() - began, 2)

    async def relisted() -> bool:  # not stale: the rooms are listed again, as their new owners' (Colyseus #850)
        return set(rooms) <= await _lobby_ids(rig)

    await _until_async(relisted, "the lobby to list the killed node's rooms again")
    await play.moved_on(rooms, at, "play after the kill")
    # Presence, cluster-wide as any node reports it: the dead node is gone, and the players of the live matches
    # (reconnected through the proxy where theirs died) are each in some live node's presence.
    await _until_async(lambda: _presence_without(rig, victim), "the cluster's presence without the killed node")
    await _until(lambda: _players_in_presence(rig, play), "every player of a live match in presence")
    await asyncio.to_thread(rig.start_node, victim)


async def _pause_round(play: Play, facts: dict[str, Any]) -> None:
    """SIGSTOP a random owner at a random moment until the others have taken its rooms, then SIGCONT: it lets
    every one of them go (by its own clock, or a refused renewal or write) and play goes on."""
    rig = play.rig
    facts["pause_after_actions"] = await play.moment("the pause")
    paused, rooms = await play.pick_owner()
    facts |= {"paused": paused, "paused_rooms": rooms, "paused_epochs": {r: rig.epoch(r) for r in rooms}}
    offset = rig.log(paused).stat().st_size
    at = play.versions()
    rig.signal(paused, signal.SIGSTOP)
    began = time.monotonic()
    try:
        await _until(lambda: all(rig.owner(r) not in (None, paused) for r in rooms), "the paused node's rooms")
        facts["takeover_after_stop_s"] = round(time.monotonic() - began, 2)
    finally:
        rig.signal(paused, signal.SIGCONT)
    await asyncio.to_thread(
        wait_for,
        lambda: set(rooms).isdisjoint((rig.health(paused) or {"owned": [None]})["owned"]),
        "the resumed node to let its old rooms go",
    )
    await _until(
        lambda: (
            set(rooms) <= {e["room"] for e in _events_since(rig, paused, offset) if e.get("event") == "cluster.lost"}
        ),
        "the resumed node to log each room it lost",
    )
    await play.moved_on(rooms, at, "play after the pause")


async def scenario(rig: Rig, seed: int, rounds: int) -> tuple[list[Human], dict[str, Any]]:
    """``rounds`` rounds of: enough live matches, a SIGKILL at a random moment (the node is started again), a
    SIGSTOP at a random moment, then SIGCONT. Then every match must end."""
    rng = random.Random(seed)
    play = Play(rig, rng)
    facts: dict[str, Any] = {"seed": seed, "rounds": [], "timeline": []}
    began = time.monotonic()

    def reached(what: str) -> None:  # where the time goes (printed with the facts)
        facts["timeline"].append(f"{time.monotonic() - began:.1f} s {what}")

    try:
        for n in range(rounds):
            round_facts: dict[str, Any] = {}
            facts["rounds"].append(round_facts)
            await play.top_up(LIVE_ROOMS, f"round {n}")
            reached(f"round {n}: matches under way")
            await _kill_round(play, round_facts)
            reached(f"round {n}: the killed node's rooms play on elsewhere; it is up again")
            await play.top_up(2, f"round {n}, before the pause")  # if most matches ended meanwhile
            await _pause_round(play, round_facts)
            reached(f"round {n}: the paused node let its rooms go; they play on")
        facts["rooms"] = play.rooms
        await _until(lambda: not play.live(), "every match to end", timeout=DEADLINE_S)
        reached("every match ended")
        # A match has ended once one of its players saw it end; the other may be reconnecting at that moment (its
        # node was paused or its join was being moved) and learns it from the room it joins again: wait for that,
        # since every player's view of the end is checked below.
        await _until(
            lambda: all(h.ended is not None for h in play.humans), "every player to see its match end", timeout=30.0
        )
    finally:
        for task in play.tasks:
            task.cancel()
        await asyncio.gather(*play.tasks, return_exceptions=True)
        facts["rooms"] = play.rooms
        for h in play.humans:  # shown when the test fails
            print(h.room_id, h.seat, h.joined.is_set(), h.connections, len(h.states), h.errors[-8:], bool(h.ended))
        print("cluster facts:", json.dumps(facts))
    return play.humans, facts


def _ended(humans: list[Human], room_id: str) -> bool:
    return any(h.ended is not None for h in humans if h.room_id == room_id)


def _seed() -> int:
    raw = os.environ.get("SEFODE_CLUSTER_SEED")
    return int(raw) if raw else secrets.randbits(32)


@pytest.mark.parametrize("part", [0, 1, 2])
def test_three_nodes_survive_kills_and_pauses_at_random_moments(tmp_path: Path, part: int) -> None:
    """A round of SIGKILL and SIGSTOP at random moments on random owners, in a rig of its own; three such rigs (the
    ``part``s run side by side on the test workers, where one rig of three rounds took over a minute). The moments
    and the victims come from one seed, printed (and named in a failure) so that a failing run's choices can be
    repeated with ``SEFODE_CLUSTER_SEED``; ``SEFODE_CLUSTER_ROUNDS`` sets the number of rounds in each rig (default
    1)."""
    seed = _seed()
    rounds = int(os.environ.get("SEFODE_CLUSTER_ROUNDS", "1"))
    print(f"cluster seed {seed}: SEFODE_CLUSTER_SEED={seed} repeats this run's moments and victims")
    env = {"SEFODE_BOT_DELAY_S": "0.05", "SEFODE_DISCONNECT_GRACE_S": "2", "SEFODE_BOT_THINK_MS": "20"}
    try:
        with cluster(tmp_path, nodes=3, ttl_ms=2000, env=env) as rig:
            humans, facts = run_async(scenario(rig, seed, rounds))
            assert len(facts["rounds"]) == rounds and all("paused" in r for r in facts["rounds"])
            store = Store(rig.database_url)
            try:
                _check_store_against_players(store, humans, facts)
            finally:
                store.close()
            # Presence: every node is in it again (the killed ones were started again). Waited for: a node beats
            # every third of the TTL, and one just started (or starved of CPU by the other tests) may be between.
            wait_for(lambda: set(rig.ports) <= _live_nodes(rig), "every node in presence again")
    except AssertionError as err:
        raise AssertionError(f"{err} [SEFODE_CLUSTER_SEED={seed}]") from err


def _live_nodes(rig: Rig) -> set[str]:
    nodes: list[bytes] = rig.redis.zrangebyscore(  # type: ignore[assignment]
        f"{rig.prefix}nodes", int(time.time() * 1000), "+inf"
    )
    return {n.decode() for n in nodes}


def _check_store_against_players(store: Store, humans: list[Human], facts: dict[str, Any]) -> None:
    with store.engine.connect() as conn:
        matches = conn.execute(sa.select(t.matches.c.id, t.matches.c.room_id)).all()
        rows = conn.execute(
            sa.select(t.actions.c.match_id, t.actions.c.idx, t.actions.c.epoch, t.actions.c.node).order_by(
                t.actions.c.match_id, t.actions.c.idx
            )
        ).all()
    by_room: dict[str, list[str]] = {}
    for match_id, room_id in matches:
        by_room.setdefault(str(room_id), []).append(str(match_id))
    for room_id in facts["rooms"]:
        assert len(by_room.get(room_id, [])) == 1, f"room {room_id}: one match, not {by_room.get(room_id)}"
    writers: dict[str, list[tuple[int, int, str]]] = {}
    for match_id, idx, epoch, node in rows:
        writers.setdefault(str(match_id), []).append((int(idx), int(epoch), str(node)))
    for match_id, entries in writers.items():
        assert [i for i, _, _ in entries] == list(range(len(entries))), "the stored actions are contiguous"
        epochs = [e for _, e, _ in entries]
        assert epochs == sorted(epochs), f"match {match_id}: an older owner wrote after a newer one: {epochs}"
        node_of: dict[int, str] = {}
        for _, epoch, node in entries:
            assert node_of.setdefault(epoch, node) == node, "one epoch, one writer"
    # Epochs never going down in the log and one node per epoch: no room ever had two writers (a paused node's
    # stale write after the new owner's would be an older epoch after a newer one).
    for room_id in facts["rooms"]:
        (match_id,) = by_room[room_id]
        stored = store.load_match(match_id)
        assert stored is not None and stored.ended_at is not None, f"room {room_id}: the match ended"
        game = get_game(stored.game)
        state = game.new_match(stored.options, stored.seed, stored.setup)
        states = [game.clone(state)]
        for seat, entry, _source in stored.actions:
            apply_entry(game, state, seat, entry)
            states.append(game.clone(state))
        outcome = game.outcome(state)
        assert outcome is not None
        seen = 0
        for human in humans:
            if human.room_id != room_id:
                continue
            assert human.ended is not None and human.ended["placements"] == list(outcome.placements)
            assert human.other_seats == [], f"room {room_id}: seat {human.seat} was sent another seat's state"
            for msg in human.states:
                if msg["match_id"] != match_id:
                    continue
                version = msg["version"]
                assert version < len(states), "a player saw an action the store does not hold"
                assert msg["view"] == game.view(states[version], msg["seat"]), (
                    f"room {room_id}: seat {msg['seat']} at version {version} saw something other than its view"
                )
                seen += 1
        assert seen > 0


def test_a_forwarded_join_that_times_out_creates_no_second_room(tmp_path: Path) -> None:
    """Colyseus #978: n2 forwards joins with a timeout of 0 s, so every cross-node join times out there."""
    with cluster(tmp_path, nodes=1, ttl_ms=2000) as rig:
        rig.ports["n2"] = free_port()
        rig.start_node("n2", {"SEFODE_FORWARD_TIMEOUT_S": "0"})
        run_async(_timeout_case(rig))


async def _timeout_case(rig: Rig) -> None:
    base = rig.node_base("n1")
    token = (await _post(base, "/api/session", {"name": "ana"}))["token"]
    room_id = (await _post(base, "/api/rooms", {"name": "x", "options": OPTIONS}, token))["room_id"]
    epoch = rig.epoch(room_id)
    assert rig.owner(room_id) == "n1" and epoch is not None
    ws_n2 = f"ws://127.0.0.1:{rig.ports['n2']}/ws"
    async with connect(ws_n2, ping_interval=None, additional_headers={"authorization": f"Bearer {token}"}) as ws:
        assert json.loads(await ws.recv())["type"] == "hello"
        for _ in range(3):
            await ws.send(json.dumps({"type": "join", "room": room_id}))
        got: list[dict[str, Any]] = []
        with contextlib.suppress(TimeoutError):
            while not any(m["type"] == "room" for m in got) or sum(m.get("code") == "server/busy" for m in got) < 3:
                got.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
        busy = [m for m in got if m["type"] == "error" and m["code"] == "server/busy"]
        assert len(busy) == 3, got
        # The owner answered late: the player is in the room, on n1, and nothing else exists.
        assert any(m["type"] == "room" and m["room"]["id"] == room_id for m in got)
    assert rig.owner(room_id) == "n1" and rig.epoch(room_id) == epoch
    h1, h2 = rig.health("n1"), rig.health("n2")
    assert h1 is not None and h2 is not None
    assert room_id in h1["owned"] and room_id not in h2["owned"] and h2["rooms"] == 0
    store = Store(rig.database_url)
    try:
        with store.engine.connect() as conn:
            assert conn.execute(sa.select(sa.func.count()).select_from(t.rooms)).scalar_one() == 1
        assert store.fence_of(room_id) in (None, epoch)
    finally:
        store.close()


def test_sigterm_drains_a_node_and_its_matches_go_on_elsewhere(tmp_path: Path) -> None:
    env = {"SEFODE_BOT_DELAY_S": "0.03", "SEFODE_DISCONNECT_GRACE_S": "2", "SEFODE_BOT_THINK_MS": "20"}
    with cluster(tmp_path, nodes=2, ttl_ms=2000, env=env) as rig:
        humans, facts = run_async(_drain_case(rig))
        print("drain facts:", json.dumps(facts))
        store = Store(rig.database_url)
        try:
            _check_store_against_players(store, humans, facts)
        finally:
            store.close()
        assert rig.procs["n1"].returncode in (0, -signal.SIGTERM)  # uvicorn raises the signal again once shut down
        logged = rig.log_events("n1")
        events = [e.get("event") for e in logged]
        told = "\n".join(  # one line an event, all of them shown in a failure
            " ".join(f"{k}={v}" for k, v in e.items() if k not in ("ts", "level"))
            for e in logged
            if str(e.get("event", "")).startswith(("cluster.", "hub."))
        )
        assert "cluster.drained" in events and "hub.close" in events and "cluster.lost" not in events, told
        assert events.index("cluster.drained") < events.index("hub.close")


async def _drain_case(rig: Rig) -> tuple[list[Human], dict[str, Any]]:
    humans: list[Human] = []
    rooms: list[str] = []
    tasks = []
    base = rig.node_base("n1")
    for r in range(2):
        token = (await _post(base, "/api/session", {"name": f"d{r}"}))["token"]
        body = {"name": f"d{r}", "options": OPTIONS, "bots": {"1": "normal", "2": "normal", "3": "normal"}}
        room_id = (await _post(base, "/api/rooms", body, token))["room_id"]
        rooms.append(room_id)
        human = Human(rig, token, room_id, 0, random.Random(7 + r))
        ready = asyncio.Event()
        ready.set()
        humans.append(human)
        tasks.append(asyncio.create_task(human.run(True, ready)))
    facts: dict[str, Any] = {"rooms": rooms}
    try:
        await _until(lambda: all(_versions(humans, r) >= 2 for r in rooms), "both matches under way")
        assert {rig.owner(r) for r in rooms} == {"n1"}
        at = {r: _versions(humans, r) for r in rooms}
        signalled = time.monotonic()
        rig.signal("n1", signal.SIGTERM)
        await asyncio.to_thread(rig.procs["n1"].wait, 30)
        assert {rig.owner(r) for r in rooms} <= {"n2", None}
        await _until(lambda: all(_versions(humans, r) > at[r] or _ended(humans, r) for r in rooms), "play goes on")
        # The longest wait between two states a player saw across the handover (reported in docs/cluster.md).
        gaps = [b - a for h in humans for a, b in zip(h.stamps, h.stamps[1:], strict=False) if b > signalled - 1]
        facts["longest_gap_around_the_drain_s"] = round(max(gaps, default=0.0), 2)
        await _until(lambda: all(_ended(humans, r) for r in rooms), "both matches to end", timeout=DEADLINE_S)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return humans, facts


def test_the_room_password_backoff_holds_on_every_node(tmp_path: Path) -> None:
    """The single-node backoff of wrong room passwords (``sefode.server.limits``: per room and per client) holds in
    a cluster: for joins forwarded from another node, on every node, and after the room changed owner."""
    limits = {"password_free_failures": 3, "password_backoff_s": 3600.0}
    with cluster(tmp_path, nodes=2, ttl_ms=2000, env={"SEFODE_LIMITS": json.dumps(limits)}) as rig:
        run_async(_password_case(rig))


async def _join_answer(ws: ClientConnection, room_id: str, **extra: Any) -> dict[str, Any]:
    """The answer to a join: the room, or an error."""
    await ws.send(json.dumps({"type": "join", "room": room_id, **extra}))
    while True:
        msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if msg["type"] in ("room", "error"):
            return msg


def _ws(rig: Rig, node: str, token: str) -> Any:
    url = f"ws://127.0.0.1:{rig.ports[node]}/ws"
    return connect(url, ping_interval=None, additional_headers={"authorization": f"Bearer {token}"})


async def _password_case(rig: Rig) -> None:
    n1, n2 = rig.node_base("n1"), rig.node_base("n2")
    tokens = {name: (await _post(n2, "/api/session", {"name": name}))["token"] for name in ("ana", "bia", "eve", "zed")}
    body = {"name": "s", "options": OPTIONS, "visibility": "password", "password": "segredo"}
    made = await _post(n1, "/api/rooms", body, tokens["ana"])
    room, invite = made["room_id"], made["invite_token"]
    other = (await _post(n2, "/api/rooms", body, tokens["ana"]))["room_id"]
    assert rig.owner(room) == "n1" and rig.owner(other) == "n2"
    # The right password, forwarded from n2 to the owner n1, lets a player in.
    async with _ws(rig, "n2", tokens["bia"]) as ws:
        assert (await _join_answer(ws, room, password="segredo"))["type"] == "room"
    # Wrong guesses through n2: checked by the owner n1, counted cluster-wide; then even the right one waits.
    async with _ws(rig, "n2", tokens["eve"]) as ws:
        for guess in ("a", "b", "c"):
            assert (await _join_answer(ws, room, password=guess))["code"] == "room/bad_password"
        assert (await _join_answer(ws, room, password="segredo"))["code"] == "rate/limited"
    # The room backs off on its owner's own sockets too, and the client (same address) for a room on n2.
    async with _ws(rig, "n1", tokens["zed"]) as ws:
        assert (await _join_answer(ws, room, password="segredo"))["code"] == "rate/limited"
    async with _ws(rig, "n2", tokens["zed"]) as ws:
        assert (await _join_answer(ws, other, password="segredo"))["code"] == "rate/limited"
    # The owner and invite holders never need the password, wherever they connect.
    async with _ws(rig, "n2", tokens["ana"]) as ws:
        assert (await _join_answer(ws, room))["type"] == "room"
    async with _ws(rig, "n2", tokens["zed"]) as ws:
        assert (await _join_answer(ws, room, invite=invite))["type"] == "room"
    # The backoff outlives the owner: n1 drains (SIGTERM), n2 takes the room, and still refuses the guesser.
    rig.signal("n1", signal.SIGTERM)
    await asyncio.to_thread(rig.procs["n1"].wait, 30)
    async with _ws(rig, "n2", tokens["eve"]) as ws:
        assert (await _join_answer(ws, room, password="segredo"))["code"] == "rate/limited"
    assert rig.owner(room) == "n2"


def test_a_node_restarted_under_its_name_gets_nothing_meant_for_its_previous_process(tmp_path: Path) -> None:
    """n2 is killed and started again under the same name. Its new process numbers connections from 1 again: what
    the owner still sends the previous process's connection 1 must not reach the new connection 1, and the owner
    drops the previous process's stand-ins although the node name is alive again (else the player counts as
    connected for ever and no bot covers the seat). The owner does so the first time it hears from the new process
    (its batches carry another incarnation), not at a beat: the TTL is 10 min here, so that no beat (every TTL/3)
    and no expiry can do it first, whatever the restart costs on a loaded machine."""
    with cluster(tmp_path, nodes=2, ttl_ms=600_000) as rig:
        facts = run_async(_restart_case(rig))
        print("restart facts:", json.dumps(facts))


async def _restart_case(rig: Rig) -> dict[str, Any]:
    n1 = rig.node_base("n1")
    tokens = {name: (await _post(n1, "/api/session", {"name": name}))["token"] for name in ("ana", "bia", "cid")}
    room = (await _post(n1, "/api/rooms", {"name": "r", "options": OPTIONS}, tokens["ana"]))["room_id"]
    other = (await _post(n1, "/api/rooms", {"name": "o", "options": OPTIONS}, tokens["cid"]))["room_id"]
    assert rig.owner(room) == "n1" and rig.owner(other) == "n1"

    async def connected() -> int:
        async with httpx.AsyncClient(base_url=n1, timeout=10) as http:
            return int((await http.get(f"/api/rooms/{room}")).json()["connected"])

    facts: dict[str, Any] = {}
    async with _ws(rig, "n1", tokens["ana"]) as owner_ws:
        assert (await _join_answer(owner_ws, room))["type"] == "room"
        old = await _ws(rig, "n2", tokens["bia"])  # n2's first connection: id 1
        assert (await _join_answer(old, room))["type"] == "room"
        assert await connected() == 2
        rig.signal("n2", signal.SIGKILL)
        await asyncio.to_thread(rig.procs["n2"].wait, 10)
        with contextlib.suppress(Exception):
            await old.close()
        began = time.monotonic()
        await asyncio.to_thread(rig.start_node, "n2")
        facts["restart_s"] = round(time.monotonic() - began, 2)
        # Nothing has told n1 yet (no beat for 200 s, no expiry for 10 min): the old stand-in is still there.
        assert await connected() == 2
        offset = rig.log("n1").stat().st_size
        async with _ws(rig, "n2", tokens["cid"]) as new:  # the new process's connection 1
            hello = json.loads(await asyncio.wait_for(new.recv(), 10))
            assert hello["type"] == "hello"
            answer = await _join_answer(new, other)  # forwarded to n1 as (n2, 1), like bia's old connection
            assert answer["type"] == "room" and answer["room"]["id"] == other, answer
            # n1 heard from n2's new process (the join): it dropped the previous process's stand-in then.
            restarted = [e for e in _events_since(rig, "n1", offset) if e.get("event") == "cluster.peer_restarted"]
            assert [(e["peer"], e["dropped"]) for e in restarted] == [("n2", 1)], restarted
            assert await connected() == 1
            await owner_ws.send(json.dumps({"type": "chat", "text": "only for room r"}))
            while json.loads(await asyncio.wait_for(owner_ws.recv(), 10)).get("text") != "only for room r":
                pass
            # Published on the same channel after ana's chat: whatever reached the old connection 1 comes first.
            await new.send(json.dumps({"type": "chat", "text": "mine"}))
            while True:
                msg = json.loads(await asyncio.wait_for(new.recv(), 10))
                assert msg.get("text") != "only for room r", f"the new connection 1 got the old one's message: {msg}"
                if msg["type"] == "chat" and msg["text"] == "mine":
                    assert msg["from"]["player_id"] == hello["player_id"], "the new connection played as the old one"
                    break
    return facts


def test_the_clock_runs_on_the_new_owner_after_a_failover(tmp_path: Path) -> None:
    """A player who stays connected but does not move, in a room whose owner is killed while it is their turn: the
    new owner rebuilds the match with the seat's clock (in full: the player does not lose the takeover's seconds),
    and when it runs out the table plays for them there (reason ``clock``, not ``absent``: they were connected), and
    the match goes on with its bots. (Should the old owner's clock have run out before the kill, on a stalled
    machine, the seat's next turn is the new owner's to cover: the test waits for a move of the seat stored by n2.)
    The room's 5 s clock runs in 0.5 s of real time (``SEFODE_CLOCK_UNIT_S``)."""
    env = {
        "SEFODE_BOT_DELAY_S": "0.05",
        "SEFODE_DISCONNECT_GRACE_S": "120",
        "SEFODE_BOT_THINK_MS": "20",
        "SEFODE_CLOCK_UNIT_S": "0.1",
    }
    with cluster(tmp_path, nodes=2, ttl_ms=2000, env=env) as rig:
        store = Store(rig.database_url)
        try:
            facts = run_async(_clock_case(rig, store))
        finally:
            store.close()
        print("clock facts:", json.dumps(facts))


def _stored_moves(store: Store, room_id: str) -> list[Any]:
    with store.engine.connect() as conn:
        return list(
            conn.execute(
                sa.select(t.actions.c.idx, t.actions.c.seat, t.actions.c.source, t.actions.c.node)
                .join(t.matches, t.matches.c.id == t.actions.c.match_id)
                .where(t.matches.c.room_id == room_id)
                .order_by(t.actions.c.idx)
            ).all()
        )


async def _clock_case(rig: Rig, store: Store) -> dict[str, Any]:
    base = rig.node_base("n1")
    token = (await _post(base, "/api/session", {"name": "lenta"}))["token"]
    body = {"name": "c", "options": OPTIONS, "bots": {"1": "normal", "2": "normal", "3": "normal"}, "clock_s": 5}
    room_id = str((await _post(base, "/api/rooms", body, token))["room_id"])
    assert rig.owner(room_id) == "n1"
    states: list[dict[str, Any]] = []
    started = False

    async def silent() -> None:
        """Joins through the proxy (again after any drop or ``server/busy``), starts the match once, never moves."""
        nonlocal started
        ws_base = rig.base.replace("http://", "ws://")
        while True:
            try:
                async with connect(
                    f"{ws_base}/ws", additional_headers={"authorization": f"Bearer {token}"}, ping_interval=None
                ) as ws:
                    await ws.send(json.dumps({"type": "join", "room": room_id}))
                    async for raw in ws:
                        msg = json.loads(raw)
                        if msg["type"] == "room" and msg["room"]["match"] is None and not started:
                            started = True
                            await ws.send(json.dumps({"type": "start"}))
                        elif msg["type"] == "state":
                            states.append(msg)
                        elif msg["type"] == "error" and msg["code"] == "server/busy":
                            await asyncio.sleep(0.3)  # as the browser client does, then join again
                            await ws.send(json.dumps({"type": "join", "room": room_id}))
            except Exception:  # the node died: reconnect through the proxy
                await asyncio.sleep(0.1)

    def my_turn() -> dict[str, Any] | None:
        mine = [s for s in states if s["seat"] == 0 and 0 in s["awaiting"] and s["legal"]]
        return mine[-1] if mine else None

    def covered_by_n2() -> list[Any]:
        return [r for r in _stored_moves(store, room_id) if r.seat == 0 and r.node == "n2"]

    task = asyncio.create_task(silent())
    try:
        await _until(lambda: my_turn() is not None, "the silent player's first turn")
        turn = my_turn()
        assert turn is not None
        version = int(turn["version"])
        rig.signal("n1", signal.SIGKILL)
        await asyncio.to_thread(rig.procs["n1"].wait, 10)
        await _until(lambda: rig.owner(room_id) == "n2", "n2 to take the room")
        await _until(lambda: bool(covered_by_n2()), "the new owner to play for the silent player", 40.0)
        first = covered_by_n2()[0]
        assert first.source == "clock", first
        # The log before the kill is n1's alone, and the match goes on after the clock ran out (the bots move).
        moves = _stored_moves(store, room_id)
        assert all(r.node == "n1" for r in moves[:version]), moves
        await _until(lambda: len(_stored_moves(store, room_id)) > first.idx + 2, "play after the clock ran out")
        # Every move the table made for the seat was the clock's, as stored and as the player was told (when it
        # was connected at that moment: it may have been joining n2 again): the player never counted as gone.
        sources = {r.source for r in _stored_moves(store, room_id) if r.seat == 0}
        assert sources == {"clock"}, sources
        reasons = [e["reason"] for s in states for e in s["events"] if e["type"] == "played_for" and e["seat"] == 0]
        assert set(reasons) <= {"clock"}, reasons
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    return {"room": room_id, "version_at_kill": version, "covered_at": first.idx}
