"""Three ``sefode serve --redis`` nodes behind nginx on PostgreSQL + Redis (issue 14).

Matches with humans (scripted WebSocket players connected through the proxy, so most of them play in rooms owned
by another node than theirs) and bots are spread over the nodes. One node is killed with SIGKILL mid-hand; another
is paused with SIGSTOP until the others have taken its rooms, then resumed. Every match must end; every view a
player received must be exactly its seat's view of the stored log at that version (so no accepted action was lost
or applied twice, and no one saw a card they may not see); the stored actions are contiguous, and the epochs they
were stored under never go down (no room ever had two writers); the resumed node never writes again for the rooms
it lost.

The Colyseus #978 case: a join forwarded to another node that times out (forced: that node's forward timeout is 0)
is refused with ``server/busy`` and creates no second room, lease or owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
from cluster_helpers import Rig, cluster, wait_for
from server_helpers import free_port, run_async
from websockets.asyncio.client import ClientConnection, connect

from sefode.engine import apply_entry, get_game
from sefode.store import Store
from sefode.store import tables as t

ROOMS = 6
DEADLINE_S = 150.0
OPTIONS = {"variant": "sefode", "players": 4, "lives": 4, "max_cards": 4}


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
        while self.ended is None:
            # A player whose node is paused hears nothing: after a while it reconnects elsewhere.
            raw = await asyncio.wait_for(ws.recv(), 8.0)
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "room":
                if not self.joined.is_set():
                    if self.seat != 0 and msg["room"]["your_seat"] != self.seat:
                        await ws.send(json.dumps({"type": "sit", "seat": self.seat}))
                        continue
                    self.joined.set()
                    if start and ready is not None:
                        await ready.wait()
                        await ws.send(json.dumps({"type": "start"}))
            elif kind == "state":
                self.states.append(msg)
                if msg["seat"] is not None and msg["seat"] in msg["awaiting"] and msg["legal"]:
                    await asyncio.sleep(self.rng.uniform(0.03, 0.12))
                    choice = self.rng.choice(msg["legal"])["action"]
                    await ws.send(json.dumps({"type": "action", "action": choice, "version": msg["version"]}))
            elif kind == "match_end":
                self.ended = msg
            elif kind == "error":
                self.errors.append(msg["code"])


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


async def scenario(rig: Rig) -> tuple[list[Human], dict[str, Any]]:
    humans: list[Human] = []
    rooms: list[str] = []
    tasks = []
    names = list(rig.ports)
    for r in range(ROOMS):
        creator = names[r % len(names)]  # the room's first owner: spread over the nodes
        base = rig.node_base(creator)
        t0 = (await _post(base, "/api/session", {"name": f"a{r}"}))["token"]
        t2 = (await _post(base, "/api/session", {"name": f"b{r}"}))["token"]
        body = {"name": f"t{r}", "options": OPTIONS, "bots": {"1": "normal", "3": "normal"}, "clock_s": 30}
        room_id = (await _post(base, "/api/rooms", body, t0))["room_id"]
        rooms.append(room_id)
        first = Human(rig, t0, room_id, 0, random.Random(r))
        second = Human(rig, t2, room_id, 2, random.Random(100 + r))
        ready = asyncio.Event()
        humans += [first, second]
        tasks.append(asyncio.create_task(first.run(True, ready)))
        tasks.append(asyncio.create_task(second.run(False, None)))

        async def both(a: Human = first, b: Human = second, ev: asyncio.Event = ready) -> None:
            await a.joined.wait()
            await b.joined.wait()
            ev.set()

        tasks.append(asyncio.create_task(both()))
    facts: dict[str, Any] = {"rooms": rooms}
    try:
        await _until(lambda: all(_versions(humans, r) >= 2 for r in rooms), "every match under way")
        owners = {r: rig.owner(r) for r in rooms}
        counts = {n: sum(1 for o in owners.values() if o == n) for n in names}
        killed = max(names, key=lambda n: counts[n])
        facts["killed"] = killed
        facts["killed_rooms"] = [r for r, o in owners.items() if o == killed]
        at = {r: _versions(humans, r) for r in rooms}
        rig.signal(killed, signal.SIGKILL)
        began = time.monotonic()
        await _until(
            lambda: all(rig.owner(r) not in (None, killed) for r in facts["killed_rooms"]), "the killed node's rooms"
        )
        facts["takeover_after_kill_s"] = round(time.monotonic() - began, 2)
        await _until(
            lambda: all(_versions(humans, r) > at[r] or _ended(humans, r) for r in rooms), "play after the kill"
        )
        live = [n for n in names if n != killed]
        owners = {r: rig.owner(r) for r in rooms if not _ended(humans, r)}
        paused = max(live, key=lambda n: sum(1 for o in owners.values() if o == n))
        facts["paused"] = paused
        facts["paused_rooms"] = [r for r, o in owners.items() if o == paused]
        facts["paused_epochs"] = {r: rig.epoch(r) for r in facts["paused_rooms"]}
        rig.signal(paused, signal.SIGSTOP)
        began = time.monotonic()
        try:
            await _until(
                lambda: all(rig.owner(r) not in (None, paused) for r in facts["paused_rooms"]),
                "the paused node's rooms",
            )
            facts["takeover_after_stop_s"] = round(time.monotonic() - began, 2)
        finally:
            rig.signal(paused, signal.SIGCONT)
        await asyncio.to_thread(
            wait_for,
            lambda: set(facts["paused_rooms"]).isdisjoint((rig.health(paused) or {"owned": [None]})["owned"]),
            "the resumed node to let its old rooms go",
        )
        await _until(lambda: all(_ended(humans, r) for r in rooms), "every match to end", timeout=DEADLINE_S)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for h in humans:  # shown when the test fails
            print(h.room_id, h.seat, h.joined.is_set(), h.connections, len(h.states), h.errors[-8:], bool(h.ended))
    return humans, facts


def _ended(humans: list[Human], room_id: str) -> bool:
    return any(h.ended is not None for h in humans if h.room_id == room_id)


def test_three_nodes_survive_a_kill_and_a_pause(tmp_path: Path) -> None:
    env = {"SEFODE_BOT_DELAY_S": "0.15", "SEFODE_DISCONNECT_GRACE_S": "2", "SEFODE_BOT_THINK_MS": "20"}
    with cluster(tmp_path, nodes=3, ttl_ms=2000, env=env) as rig:
        humans, facts = run_async(scenario(rig))
        print("cluster facts:", json.dumps(facts))
        store = Store(rig.database_url)
        try:
            _check_store_against_players(store, humans, facts)
        finally:
            store.close()
        paused = facts["paused"]
        # The resumed node lost every room it had: through its own check of the lease, or a refused write.
        lost = {e["room"] for e in rig.log_events(paused) if e.get("event") == "cluster.lost"}
        assert set(facts["paused_rooms"]) <= lost
        # Presence: the killed node left it; the two others are in it.
        nodes: list[bytes] = rig.redis.zrangebyscore(  # type: ignore[assignment]
            f"{rig.prefix}nodes", int(time.time() * 1000), "+inf"
        )
        assert facts["killed"] not in {n.decode() for n in nodes}
        assert not rig.redis.exists(f"{rig.prefix}presence:{facts['killed']}")
        assert {facts["paused"]} | (set(rig.ports) - {facts["killed"]}) <= {n.decode() for n in nodes}


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
    for room_id in facts.get("paused_rooms", []):
        old = facts["paused_epochs"][room_id]
        (match_id,) = by_room[room_id]
        later = [i for i, e, n in writers.get(match_id, []) if n == facts["paused"] and e > (old or 0)]
        assert later == [], "the paused node never took the room back while it was stale"
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
    env = {"SEFODE_BOT_DELAY_S": "0.1", "SEFODE_DISCONNECT_GRACE_S": "2", "SEFODE_BOT_THINK_MS": "20"}
    with cluster(tmp_path, nodes=2, ttl_ms=2000, env=env) as rig:
        humans, facts = run_async(_drain_case(rig))
        print("drain facts:", json.dumps(facts))
        store = Store(rig.database_url)
        try:
            _check_store_against_players(store, humans, facts)
        finally:
            store.close()
        assert rig.procs["n1"].returncode in (0, -signal.SIGTERM)  # uvicorn raises the signal again once shut down
        events = [e.get("event") for e in rig.log_events("n1")]
        assert "cluster.drained" in events and "hub.close" in events and "cluster.lost" not in events
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
    try:
        await _until(lambda: all(_versions(humans, r) >= 2 for r in rooms), "both matches under way")
        assert {rig.owner(r) for r in rooms} == {"n1"}
        at = {r: _versions(humans, r) for r in rooms}
        rig.signal("n1", signal.SIGTERM)
        await asyncio.to_thread(rig.procs["n1"].wait, 30)
        assert {rig.owner(r) for r in rooms} <= {"n2", None}
        await _until(lambda: all(_versions(humans, r) > at[r] or _ended(humans, r) for r in rooms), "play goes on")
        await _until(lambda: all(_ended(humans, r) for r in rooms), "both matches to end", timeout=DEADLINE_S)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return humans, {"rooms": rooms}
