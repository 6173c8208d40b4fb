"""The floor of a table action on a Python WebSocket server: one frame in, one frame out to each of the room's 4 seats.

Usage::

    .venv/bin/python bench/floor.py --rooms 200 --seconds 15 --think-ms 0             # every stack, saturation
    .venv/bin/python bench/floor.py --rooms 200 --seconds 20 --think-ms 1000 --json   # ~1 action/s per room
    .venv/bin/python bench/floor.py --stacks starlette --with-load                    # and bench/load.py in turns

It answers one question of issue 25 ("server CPU per action at most Colyseus's"): how much server CPU does an action
cost when the server does nothing but move its frames? Each "room" is 4 WebSocket connections; the seat whose turn it
is sends a small action (``--think-ms`` after the previous one, as in ``bench/load.py``); the server sends that text,
unchanged, to the room's 4 seats; the next seat then moves. No parsing, no rules, no store, no views: what is left is
the WebSocket stack itself. The server runs in its own process, one stack per run (``--stacks``):

- ``starlette``: what ``sefode serve`` runs: uvicorn (uvloop, httptools, its websockets-sansio protocol, the same
  settings) with a Starlette ``WebSocketRoute``, each connection sending from its own queue and task, as
  ``sefode/server/routes/ws.py`` does.
- ``asgi-queue``: the same uvicorn, a bare ASGI application (no Starlette), a queue and a task per connection.
- ``asgi``: the same, sends awaited inline (no queue).
- ``websockets``: the ``websockets`` library's own asyncio server on uvloop (no ASGI), sends awaited inline.

Server CPU (user + system, ``/proc/PID/stat``) over the measured phase is divided by the actions the movers saw come
back. With ``--with-load``, ``bench/load.py`` (the real server, whole states, the same rooms and think time) runs in
turns with the floors, and the table prints its cost as a multiple of each floor.
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
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import uvloop
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]
STACKS = ("starlette", "asgi-queue", "asgi", "websockets")
SEATS = 4
ACTION = '{"type":"action","action":{"play":"Ks"},"version":%d,"seat":%d}'
"""The action text a seat sends and the server fans out: about the size of a client's action message."""


# --- the servers -------------------------------------------------------------------------------------------------


class Rooms:
    """The rooms' connections by room key; a text from one seat goes to all of its room's seats."""

    def __init__(self) -> None:
        self.rooms: dict[str, list[Any]] = {}

    def join(self, key: str, sender: Any) -> list[Any]:
        room = self.rooms.setdefault(key, [])
        room.append(sender)
        return room


def starlette_app() -> Any:
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    rooms = Rooms()

    async def sender(queue: asyncio.Queue[str | None], websocket: WebSocket) -> None:
        while (text := await queue.get()) is not None:
            await websocket.send_text(text)

    async def endpoint(websocket: WebSocket) -> None:
        await websocket.accept()
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        room = rooms.join(websocket.query_params["room"], queue)
        task = asyncio.create_task(sender(queue, websocket))
        try:
            while True:
                text = await websocket.receive_text()
                for seat in room:
                    seat.put_nowait(text)
        except WebSocketDisconnect:
            pass
        finally:
            queue.put_nowait(None)
            await task

    return Starlette(routes=[WebSocketRoute("/ws", endpoint)])


def asgi_app(queued: bool) -> Any:
    rooms = Rooms()

    async def sender(queue: asyncio.Queue[dict[str, Any] | None], send: Any) -> None:
        while (message := await queue.get()) is not None:
            with contextlib.suppress(Exception):  # the seat left
                await send(message)

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        if scope["type"] != "websocket":
            return
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        key = parse_qs(scope["query_string"].decode())["room"][0]
        if queued:
            queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
            room = rooms.join(key, queue)
            task = asyncio.create_task(sender(queue, send))
            try:
                while (message := await receive())["type"] == "websocket.receive":
                    out = {"type": "websocket.send", "text": message["text"]}
                    for seat in room:
                        seat.put_nowait(out)
            finally:
                queue.put_nowait(None)
                await task
            return
        room = rooms.join(key, send)
        while True:
            message = await receive()
            if message["type"] != "websocket.receive":
                return
            out = {"type": "websocket.send", "text": message["text"]}
            for seat in room:
                with contextlib.suppress(Exception):
                    await seat(out)

    return app


def serve(stack: str, port: int) -> None:
    if stack == "websockets":
        from websockets.asyncio.server import ServerConnection
        from websockets.asyncio.server import serve as ws_serve

        rooms = Rooms()

        async def handler(ws: ServerConnection) -> None:
            assert ws.request is not None
            room = rooms.join(parse_qs(ws.request.path.partition("?")[2])["room"][0], ws)
            async for text in ws:
                for seat in room:
                    with contextlib.suppress(Exception):
                        await seat.send(text)

        async def main() -> None:
            async with ws_serve(handler, "127.0.0.1", port, compression=None, ping_interval=20, max_size=65536):
                await asyncio.Future()

        with contextlib.suppress(KeyboardInterrupt):
            uvloop.run(main())
        return
    import uvicorn

    app = starlette_app() if stack == "starlette" else asgi_app(queued=stack == "asgi-queue")
    uvicorn.run(  # the same settings as sefode/server/main.py, minus what only HTTP needs
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        access_log=False,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        lifespan="on",
    )


# --- the client --------------------------------------------------------------------------------------------------


@dataclass
class Stats:
    actions: int = 0
    latencies: list[float] = field(default_factory=list)
    measuring: bool = False
    since: float = 0.0
    dropped: int = 0


async def seat_loop(ws: ClientConnection, seat: int, stats: Stats, think_s: float, rng: random.Random) -> None:
    sent_at: float | None = None
    try:
        async for raw in ws:
            text = raw if isinstance(raw, str) else raw.decode()
            message = json.loads(text)
            version, mover = message["version"], message["seat"]
            if mover == seat and sent_at is not None:
                if stats.measuring and sent_at >= stats.since:
                    stats.latencies.append(time.perf_counter() - sent_at)
                    stats.actions += 1
                sent_at = None
            if (mover + 1) % SEATS == seat:
                if think_s:
                    await asyncio.sleep(think_s * rng.uniform(0.5, 1.5))
                sent_at = time.perf_counter()
                await ws.send(ACTION % (version + 1, seat))
    except Exception:
        stats.dropped += 1


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def drive(port: int, pid: int, rooms: int, seconds: float, think_s: float, warmup: float) -> dict[str, Any]:
    stats = Stats()
    sockets: list[ClientConnection] = []
    for start in range(0, rooms, 25):
        batch = range(start, min(rooms, start + 25))
        sockets += await asyncio.gather(
            *(
                connect(f"ws://127.0.0.1:{port}/ws?room={r}", ping_interval=None, compression=None)
                for r in batch
                for _ in range(SEATS)
            )
        )
    tasks = [
        asyncio.create_task(seat_loop(ws, i % SEATS, stats, think_s, random.Random(i))) for i, ws in enumerate(sockets)
    ]
    for r in range(rooms):  # the last seat "moved": the first seat's turn
        await sockets[r * SEATS].send(ACTION % (0, SEATS - 1))
    await asyncio.sleep(warmup)
    gc.collect()
    gc.disable()
    await asyncio.sleep(1.0)
    stats.since = time.perf_counter()
    stats.measuring = True
    cpu0, own0 = cpu_seconds(pid), time.process_time()
    await asyncio.sleep(seconds)
    stats.measuring = False
    cpu, own, elapsed = cpu_seconds(pid) - cpu0, time.process_time() - own0, time.perf_counter() - stats.since
    gc.enable()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
    return {
        "actions": stats.actions,
        "actions_per_s": round(stats.actions / elapsed, 1),
        "action_p50_ms": round(percentile(stats.latencies, 0.5) * 1000, 2),
        "action_p99_ms": round(percentile(stats.latencies, 0.99) * 1000, 2),
        "server_cpu_cores": round(cpu / elapsed, 2),
        "client_cpu_cores": round(own / elapsed, 2),
        "server_cpu_us_per_action": round(1e6 * cpu / stats.actions, 1) if stats.actions else None,
        "connections_dropped": stats.dropped,
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def run_floor(stack: str, args: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    server = subprocess.Popen([sys.executable, __file__, "--serve", stack, "--port", str(port)])
    try:
        for _ in range(300):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            time.sleep(0.05)
        result = uvloop.run(drive(port, server.pid, args.rooms, args.seconds, args.think_ms / 1000, args.warmup))
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
    return {"stack": stack, "rooms": args.rooms, "think_ms": args.think_ms} | result


def run_load(args: argparse.Namespace) -> dict[str, Any]:
    cmd = [sys.executable, str(ROOT / "bench" / "load.py"), "--rooms", str(args.rooms), "--seconds", str(args.seconds)]
    cmd += ["--think-ms", str(args.think_ms), "--rounds", "1", "--no-echo", "--json", "--warmup", str(args.warmup)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    load = json.loads([line for line in out.splitlines() if line.startswith("{")][-1])
    per_action = load["server_cpu_ms_per_action"]
    return {
        "stack": "sefode (bench/load.py)",
        "rooms": args.rooms,
        "think_ms": args.think_ms,
        "actions": load["actions"],
        "actions_per_s": load["actions_per_s"],
        "action_p50_ms": load["action_p50_ms"],
        "action_p99_ms": load["action_p99_ms"],
        "server_cpu_cores": load["server_cpu_cores"],
        "client_cpu_cores": load["client_cpu_cores"],
        "server_cpu_us_per_action": round(per_action * 1000, 1) if per_action else None,
        "connections_dropped": load["connections_dropped"],
        "refused": load["refused"],
        "log_mismatches": load["log_mismatches"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--think-ms", type=float, default=0.0)
    parser.add_argument("--rounds", type=int, default=1, help="the stacks (and the load) take turns this many times")
    parser.add_argument("--stacks", default=",".join(STACKS), help=f"comma-separated, of {', '.join(STACKS)}")
    parser.add_argument("--with-load", action="store_true", help="bench/load.py too, in turns with the floors")
    parser.add_argument("--json", action="store_true", help="one JSON object per run, then the summary")
    parser.add_argument("--serve", choices=STACKS, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.port)
        return 0
    stacks = [s for s in args.stacks.split(",") if s]
    if unknown := [s for s in stacks if s not in STACKS]:
        parser.error(f"unknown stack {', '.join(unknown)}: choose among {', '.join(STACKS)}")
    runs: list[dict[str, Any]] = []
    for _ in range(args.rounds):
        for stack in stacks:
            runs.append(run_floor(stack, args))
            if args.json:
                print(json.dumps(runs[-1]), flush=True)
        if args.with_load:
            runs.append(run_load(args))
            if args.json:
                print(json.dumps(runs[-1]), flush=True)
    names = stacks + (["sefode (bench/load.py)"] if args.with_load else [])
    median = {
        name: statistics.median(r["server_cpu_us_per_action"] for r in runs if r["stack"] == name and r["actions"])
        for name in names
    }
    print(f"\nserver CPU per action, median of {args.rounds}, {args.rooms} rooms x {SEATS}, think {args.think_ms} ms")
    for name in names:
        line = f"  {name:24} {median[name]:8.1f} us"
        if args.with_load and name in stacks:
            line += f"   sefode / this floor: {median['sefode (bench/load.py)'] / median[name]:.2f}"
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
