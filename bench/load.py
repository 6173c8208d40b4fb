"""Load benchmark of the game server: N rooms of 4 scripted WebSocket players against a ``sefode serve`` subprocess.

Usage::

    .venv/bin/python bench/load.py --rooms 200 --seconds 30 [--think-ms 0] [--json]
    .venv/bin/python bench/load.py --nodes 3 --rooms 200 --seconds 30   # a cluster behind nginx (docs/cluster.md)

Each player plays a random legal move as soon as its view says it is its turn (after ``--think-ms``). The run
reports accepted actions per second, p50/p99 latency from sending an action to receiving the view that contains it,
the server's resident memory, and, in the same run against the same server process, a bare WebSocket echo
(``/ws/echo``: same uvicorn + Starlette stack, no validation, no engine, no store) driven by the same connections.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import uvloop
from websockets.asyncio.client import ClientConnection, connect

from sefode.server.patches import Held

ROOT = Path(__file__).resolve().parents[1]
UPDATES = False
"""``--updates``: players join with ``"updates": true`` and fold the ``update`` messages (docs/protocol.md)."""
BENCH_LIMITS = "off"  # every player of the load connects from this one address


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    refused: int = 0
    codes: dict[str, int] = field(default_factory=dict)
    matches: int = 0
    measuring: bool = False
    since: float = 0.0
    """When the measured phase began (``time.perf_counter``): latencies count the actions sent from then on."""
    server_cpu: float = 0.0
    client_cpu: float = 0.0
    last_seen: dict[str, int] = field(default_factory=dict)
    last_message: float = 0.0
    dropped: int = 0
    received_bytes: int = 0
    """Bytes of the messages the players received while measuring (the server's frames' payloads)."""
    checked: dict[str, Any] = field(default_factory=dict)


class Seat:
    def __init__(self, ws: ClientConnection, stats: Stats, rng: random.Random, think_s: float) -> None:
        self.ws = ws
        self.stats = stats
        self.rng = rng
        self.think_s = think_s
        self.sent_at: float | None = None
        self.sent_version = -1
        self.owner_room: str | None = None
        self.last_state: dict[str, Any] | None = None
        self.held: Held | None = None
        """With ``--updates``: the last full state and what the updates since made of it."""
        self.starting = False
        self.paused = False

    async def resume(self) -> None:
        if self.last_state is not None:
            await self.on_state(self.last_state)

    async def run(self, stop: asyncio.Event) -> None:
        try:
            async for raw in self.ws:
                if stop.is_set():
                    return
                message = orjson.loads(raw)
                self.stats.last_message = time.perf_counter()
                if self.stats.measuring:
                    self.stats.received_bytes += len(raw)
                kind = message["type"]
                if kind == "update":
                    message = await self.fold(message)
                    if message is None:
                        continue
                    kind = "state"
                elif kind == "state":
                    self.held = Held(message)  # folded in place: what on_state keeps is the state as it stands
                if kind == "state":
                    await self.on_state(message)
                elif kind == "match_end" and self.owner_room is not None:
                    self.stats.matches += 1
                    self.starting = True
                    await self.ws.send('{"type": "start"}')
                elif kind == "error":
                    code = message["code"]
                    self.stats.codes[code] = self.stats.codes.get(code, 0) + 1
                    if code == "rate/limited":
                        # Scripted players outrun the per-connection limit in a lone room: wait, then try again.
                        await asyncio.sleep(0.1)
                        if self.starting:
                            await self.ws.send('{"type": "start"}')
                        elif self.last_state is not None:
                            self.sent_version = -1
                            self.sent_at = None
                            await self.on_state(self.last_state)
                    elif code != "action/stale_state":
                        self.stats.refused += 1
        except Exception:
            pass
        if not stop.is_set():
            self.stats.dropped += 1  # the server closed it (e.g. pings unanswered while the client was starved)

    async def fold(self, update: dict[str, Any]) -> dict[str, Any] | None:
        """The state an update makes of the one held, or None after a gap (the full state is asked for again)."""
        if self.held is not None:
            try:
                return self.held.fold(update)
            except (ValueError, KeyError, IndexError, TypeError):
                self.held = None
                self.stats.codes["client/resync"] = self.stats.codes.get("client/resync", 0) + 1
                await self.ws.send('{"type": "resync"}')
        return None

    async def on_state(self, message: dict[str, Any]) -> None:
        self.last_state = message
        self.starting = False
        version = message["version"]
        if self.sent_at is not None and version > self.sent_version:
            if self.stats.measuring:
                if self.sent_at >= self.stats.since:
                    self.stats.latencies.append(time.perf_counter() - self.sent_at)
                self.stats.actions += 1
            self.sent_at = None
        if self.paused:
            return
        if message["seat"] is None or message["seat"] not in message["awaiting"] or not message["legal"]:
            return
        if self.sent_at is not None and self.sent_version == version:
            return
        if self.think_s:
            await asyncio.sleep(self.think_s * self.rng.uniform(0.5, 1.5))
        action = self.rng.choice(message["legal"])["action"]
        self.sent_version = version
        self.sent_at = time.perf_counter()
        await self.ws.send(orjson.dumps({"type": "action", "action": action, "version": version}).decode())


async def setup_rooms(base: str, rooms: int, stats: Stats, think_s: float) -> list[Seat]:
    ws_base = base.replace("http://", "ws://")
    seats: list[Seat] = []
    # Idle connections are dropped before uvicorn's 5 s keep-alive timeout closes them under a request in flight.
    limits = httpx.Limits(keepalive_expiry=1.0)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:

        async def session(name: str) -> str:
            # A bearer token that names no one: always a new guest, whatever the shared cookie jar holds.
            response = await http.post("/api/session", json={"name": name}, headers={"authorization": "Bearer -"})
            token: str = response.json()["token"]
            return token

        async def one_room(r: int) -> list[Seat]:
            tokens = [await session(f"p{r}-{s}") for s in range(4)]
            body = {"name": f"load {r}", "options": {"variant": "sefode", "players": 4}, "clock_s": 300}
            created = await http.post("/api/rooms", json=body, headers={"authorization": f"Bearer {tokens[0]}"})
            room_id = created.json()["room_id"]
            out = []
            for s, token in enumerate(tokens):
                ws = await connect(
                    f"{ws_base}/ws",
                    additional_headers={"authorization": f"Bearer {token}"},  # never a token in the URL
                    max_size=2**20,
                    ping_interval=None,
                )
                await ws.recv()  # hello
                await ws.send(json.dumps({"type": "join", "room": room_id, **({"updates": True} if UPDATES else {})}))
                await ws.recv()  # room
                if s > 0:
                    await ws.send(json.dumps({"type": "sit", "seat": s}))
                seat = Seat(ws, stats, random.Random(r * 10 + s), think_s)
                if s == 0:
                    seat.owner_room = room_id
                out.append(seat)
            return out

        batch = 20
        for start in range(0, rooms, batch):
            groups = await asyncio.gather(*(one_room(r) for r in range(start, min(rooms, start + batch))))
            for group in groups:
                seats.extend(group)
    return seats


class Echo:
    """Bare echo clients (``/ws/echo``): each sends the payload, waits for it back, and again, while running."""

    def __init__(self) -> None:
        self.sockets: list[ClientConnection] = []
        self.count = 0
        self.latencies: list[float] = []
        self.measuring = False
        self.since = 0.0
        self.running = asyncio.Event()
        self.tasks: list[asyncio.Task[None]] = []

    async def open(self, base: str, connections: int) -> None:
        ws_base = base.replace("http://", "ws://")
        for start in range(0, connections, 50):
            self.sockets += await asyncio.gather(
                *(connect(f"{ws_base}/ws/echo", ping_interval=None) for _ in range(start, min(connections, start + 50)))
            )
        self.tasks = [asyncio.create_task(self._loop(ws)) for ws in self.sockets]

    async def _loop(self, ws: ClientConnection) -> None:
        payload = json.dumps({"type": "action", "action": {"play": "Ks"}, "version": 12})
        while True:
            await self.running.wait()
            sent = time.perf_counter()
            await ws.send(payload)
            await ws.recv()
            if self.measuring and sent >= self.since:
                self.latencies.append(time.perf_counter() - sent)
                self.count += 1

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for ws in self.sockets:
            await ws.close()


@dataclass
class Phases:
    """Measured time and CPU of the load phases and of the echo phases."""

    load_s: float = 0.0
    echo_s: float = 0.0
    load_server_cpu: float = 0.0
    load_client_cpu: float = 0.0
    echo_server_cpu: float = 0.0


def server_cpu(pids: list[int]) -> float:
    return sum(cpu_seconds(pid) for pid in pids)


async def measure(seconds: float, pids: list[int], flag: Any) -> tuple[float, float, float]:
    """Run ``seconds`` with ``flag.measuring`` on: (elapsed, server CPU seconds, own CPU seconds).

    The client's garbage collector is off meanwhile: its full collections over 4,000 sockets stalled this process
    for 100-400 ms at a time, and the latency it measures then included its own stalls (p99 of 260-460 ms at 1,000
    rooms, against 16 ms without). The one collection made here, before the phase, stalls it too: the phase starts
    ``SETTLE_S`` later, and only the actions sent in it count in the latencies (an action sent before the stall and
    answered after it measured the client's stall: 250 ms, the p99 of a 30 s phase at 1,000 rooms). The longest
    stall of its event loop is kept in ``CLIENT_LAG``, and reported."""
    gc.collect()
    gc.freeze()
    gc.disable()
    await asyncio.sleep(SETTLE_S)
    probe = asyncio.create_task(_lag_probe())
    flag.since = time.perf_counter()
    flag.measuring = True
    began = time.perf_counter()
    cpu0 = server_cpu(pids)
    own0 = time.process_time()
    try:
        await asyncio.sleep(seconds)
    finally:
        flag.measuring = False
        probe.cancel()
        gc.enable()
    return time.perf_counter() - began, server_cpu(pids) - cpu0, time.process_time() - own0


SETTLE_S = 1.0
"""Seconds between the client's collection and a measured phase: what the collection held back lands meanwhile."""

CLIENT_LAG = [0.0]
"""The longest delay (s) of a 10 ms sleep of this client's event loop during the measured phases."""


async def _lag_probe() -> None:
    while True:
        began = time.perf_counter()
        await asyncio.sleep(0.01)
        CLIENT_LAG[0] = max(CLIENT_LAG[0], time.perf_counter() - began - 0.01)


class Profiler:
    """``py-spy`` on the server during the load phases only (``--gil``: the samples of the thread holding the GIL,
    so they add up to the server's busy time); raw collapsed stacks, appended to one file."""

    def __init__(self, pid: int, path: str | None) -> None:
        self.pid = pid
        self.path = path
        self.parts: list[Path] = []
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        if self.path is None:
            return
        part = Path(f"{self.path}.part{len(self.parts)}")
        self.parts.append(part)
        spy = str(Path(sys.executable).parent / "py-spy")
        args = [spy, "record", "--pid", str(self.pid), "--format", "raw", "--rate", "100", "--gil"]
        self.proc = subprocess.Popen(
            [*args, "--output", str(part)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.send_signal(signal.SIGINT)
        self.proc.wait(30)
        self.proc = None

    def write(self) -> None:
        if self.path is None:
            return
        with open(self.path, "w") as out:
            for part in self.parts:
                if part.exists():
                    out.write(part.read_text())
                    part.unlink()


async def run_all(
    base: str,
    rooms: int,
    seconds: float,
    think_s: float,
    warmup: float,
    pids: list[int],
    rounds: int,
    echo: bool,
    check: Callable[[dict[str, int]], dict[str, Any]],
    profiler: Profiler | None = None,
) -> tuple[Stats, Echo, Phases]:
    """The load and the echo side by side: ``rounds`` times a load phase then an echo phase (the load's players
    stop acting during the echo phases), so that both see the same machine, however busy it is meanwhile."""
    stats = Stats()
    seats = await setup_rooms(base, rooms, stats, think_s)
    echoes = Echo()
    if echo:
        await echoes.open(base, rooms * 4)
    stop = asyncio.Event()
    tasks = [asyncio.create_task(seat.run(stop)) for seat in seats]
    await asyncio.sleep(0.5)  # let the sits land
    for seat in seats:
        if seat.owner_room is not None:
            await seat.ws.send('{"type": "start"}')
    await asyncio.sleep(warmup)
    phases = Phases()
    slice_s = seconds / rounds
    for r in range(rounds):
        if r > 0:
            for seat in seats:
                seat.paused = False
                await seat.resume()
            await asyncio.sleep(1.0)
        if profiler is not None:
            profiler.start()
        elapsed, server, own = await measure(slice_s, pids, stats)
        if profiler is not None:
            profiler.stop()
        phases.load_s += elapsed
        phases.load_server_cpu += server
        phases.load_client_cpu += own
        if not echo:
            continue
        for seat in seats:
            seat.paused = True
        await asyncio.sleep(0.5)  # the actions in flight land
        echoes.running.set()
        await asyncio.sleep(1.0)
        elapsed, server, _own = await measure(slice_s, pids, echoes)
        echoes.running.clear()
        phases.echo_s += elapsed
        phases.echo_server_cpu += server
        await asyncio.sleep(0.3)
    for seat in seats:
        seat.paused = True
    # What is in flight lands (no state message for 2 s, 30 s at most): then every seat's last view counts the
    # log's last action.
    quiet_until = time.perf_counter() + 30
    while time.perf_counter() < quiet_until and time.perf_counter() - stats.last_message < 2.0:
        await asyncio.sleep(0.1)
    stats.last_seen = {}
    for seat in seats:
        if seat.last_state is not None:
            mid = seat.last_state["match_id"]
            stats.last_seen[mid] = max(stats.last_seen.get(mid, 0), int(seat.last_state["version"]))
    # The store is checked while every player is still connected: once a socket closes, the table plays for its
    # absent player after the grace period, and closing 4,000 sockets on a busy machine takes longer than that.
    stats.checked = await asyncio.to_thread(check, stats.last_seen)
    stop.set()
    await echoes.close()
    await asyncio.gather(*(seat.ws.close() for seat in seats), return_exceptions=True)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return stats, echoes, phases


def start_single(folder: Path, log: Any) -> tuple[str, list[int], Any]:
    """One ``sefode serve`` on a temporary SQLite file: (base URL, server pids, stop function)."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{folder / 'load.sqlite3'}",
        "SEFODE_ECHO": "1",
        "SEFODE_BOT_DELAY_S": "0",
        "SEFODE_LIMITS": BENCH_LIMITS,
    }
    sefode = Path(sys.executable).parent / "sefode"
    server = subprocess.Popen(
        [str(sefode), "serve", "--host", "127.0.0.1", "--port", str(port)], env=env, stdout=log, stderr=log
    )

    def stop() -> None:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()

    for _ in range(200):
        try:
            if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.1)
    return base, [server.pid], stop


def children(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        out += [int(c) for c in text]
    return out


def start_cluster(folder: Path, nodes: int, stack: contextlib.ExitStack) -> tuple[str, dict[str, int], str]:
    """``nodes`` cluster nodes behind nginx (tests/server/cluster_helpers.py): (proxy URL, pids by name, DB URL)."""
    sys.path.insert(0, str(ROOT / "tests" / "server"))
    from cluster_helpers import cluster

    env = {"SEFODE_ECHO": "1", "SEFODE_BOT_DELAY_S": "0", "SEFODE_LIMITS": BENCH_LIMITS}
    rig = stack.enter_context(cluster(folder, nodes=nodes, ttl_ms=3000, env=env))
    pids = {name: proc.pid for name, proc in rig.procs.items()}
    assert rig.nginx is not None
    for i, pid in enumerate(children(rig.nginx.pid)):
        pids[f"nginx{i}"] = pid
    return rig.base, pids, rig.database_url


def log_check(database_url: str, last_seen: dict[str, int]) -> dict[str, Any]:
    """Per match the clients were in: does the store hold exactly the actions the clients' last views counted?"""
    sys.path.insert(0, str(ROOT))
    import sqlalchemy as sa

    from sefode.store import Store
    from sefode.store import tables as t

    store = Store(database_url)
    try:
        with store.engine.connect() as conn:
            rows = conn.execute(
                sa.select(t.actions.c.match_id, sa.func.count(), sa.func.max(t.actions.c.idx)).group_by(
                    t.actions.c.match_id
                )
            ).all()
    finally:
        store.close()
    stored = {str(r[0]): (int(r[1]), int(r[2])) for r in rows}
    mismatches = [(mid, seen, stored.get(mid, (0, -1))) for mid, seen in last_seen.items()]
    bad = [(seen, held) for _mid, seen, held in mismatches if held != (seen, seen - 1)]
    return {
        "matches_checked": len(last_seen),
        "log_mismatches": len(bad),
        "log_mismatch_examples": bad[:3],
        "stored_actions": sum(c for c, _ in stored.values()),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0, help="measured seconds of load (and as many of echo)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating load and echo phases the seconds are cut in")
    parser.add_argument("--no-echo", action="store_true", help="skip the echo phases")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--think-ms", type=float, default=0.0, help="pause of a scripted player before its move")
    parser.add_argument(
        "--nice",
        type=int,
        default=0,
        help="scheduling priority change for the server and this client (e.g. -10 as root on a shared machine)",
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--updates", action="store_true", help="players take updates (join with updates: true)")
    parser.add_argument("--nodes", type=int, default=0, help="run a cluster of this many nodes behind nginx")
    parser.add_argument(
        "--profile",
        metavar="FILE",
        help="sample the server (py-spy --gil) during the load phases; raw collapsed stacks to FILE",
    )
    args = parser.parse_args()
    global UPDATES
    UPDATES = args.updates
    if args.nice:
        os.nice(args.nice)  # the server subprocess inherits it

    folder = Path(tempfile.mkdtemp(prefix="sefode-load-"))
    log = (folder / "server.log").open("wb")
    stack = contextlib.ExitStack()
    names: dict[str, int] = {}
    if args.nodes:
        base, names, database_url = start_cluster(folder, args.nodes, stack)
        pids = list(names.values())
        stop = stack.close
    else:
        base, pids, stop = start_single(folder, log)
        database_url = f"sqlite:///{folder / 'load.sqlite3'}"
        names = {"server": pids[0]}
    try:
        rss_idle = sum(rss_mb(pid) for pid in pids)
        profiler = Profiler(pids[0], args.profile)
        cpu_start = {name: cpu_seconds(pid) for name, pid in names.items()}
        stats, echoes, phases = uvloop.run(
            run_all(
                base,
                args.rooms,
                args.seconds,
                args.think_ms / 1000,
                args.warmup,
                pids,
                max(1, args.rounds),
                not args.no_echo,
                lambda seen: log_check(database_url, seen),
                profiler,
            )
        )
        rss_load = sum(rss_mb(pid) for pid in pids)
        cpu_end = {name: cpu_seconds(pid) for name, pid in names.items()}
        profiler.write()
    finally:
        stop()
        log.close()
    lat = stats.latencies
    elapsed = phases.load_s
    result: dict[str, Any] = {
        "rooms": args.rooms,
        "players": args.rooms * 4,
        "think_ms": args.think_ms,
        "nice": args.nice,
        "rounds": args.rounds,
        "load_average_1m": round(os.getloadavg()[0], 2),
        "seconds": round(elapsed, 1),
        "actions": stats.actions,
        "actions_per_s": round(stats.actions / elapsed, 1),
        "updates": UPDATES,
        "bytes_per_action": round(stats.received_bytes / stats.actions) if stats.actions else None,
        "action_p50_ms": round(percentile(lat, 0.50) * 1000, 2),
        "action_p99_ms": round(percentile(lat, 0.99) * 1000, 2),
        "action_mean_ms": round(statistics.fmean(lat) * 1000, 2) if lat else None,
        "matches_finished": stats.matches,
        "refused": stats.refused,
        "refused_codes": stats.codes,
        "connections_dropped": stats.dropped,
        "server_rss_idle_mb": round(rss_idle, 1),
        "server_rss_mb": round(rss_load, 1),
        "rss_per_room_kb": round((rss_load - rss_idle) * 1024 / args.rooms, 1),
        "server_cpu_cores": round(phases.load_server_cpu / elapsed, 2),
        "client_cpu_cores": round(phases.load_client_cpu / elapsed, 2),
        "client_loop_lag_max_ms": round(CLIENT_LAG[0] * 1000, 1),
        "server_cpu_ms_per_action": round(1000 * phases.load_server_cpu / stats.actions, 3) if stats.actions else None,
    }
    result |= stats.checked
    if args.nodes:
        result["nodes"] = args.nodes
        wall = phases.load_s + phases.echo_s
        result["cpu_cores_by_process_whole_run"] = {
            name: round((cpu_end[name] - cpu_start[name]) / max(wall, 1e-9), 3) for name in names
        }
    if not args.no_echo:
        echo_rate = echoes.count / phases.echo_s
        result |= {
            "echo_messages_per_s": round(echo_rate, 1),
            "echo_p50_ms": round(percentile(echoes.latencies, 0.50) * 1000, 2),
            "echo_p99_ms": round(percentile(echoes.latencies, 0.99) * 1000, 2),
            "echo_server_cpu_cores": round(phases.echo_server_cpu / phases.echo_s, 2),
            "actions_vs_echo": round(result["actions_per_s"] / echo_rate, 3) if echo_rate else None,
            "echo_server_cpu_ms_per_message": round(1000 * phases.echo_server_cpu / echoes.count, 4)
            if echoes.count
            else None,
        }
        # Server CPU per action over server CPU per echo message: what the ratio would be if the server alone were
        # the limit (on a shared machine the measured ratio also depends on who gets the cores when).
        if echoes.count and stats.actions:
            per_echo = phases.echo_server_cpu / echoes.count
            result["action_cost_in_echo_messages"] = round(phases.load_server_cpu / stats.actions / per_echo, 2)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:24} {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
