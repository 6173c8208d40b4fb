"""Login flood benchmark (issue 24): how a bystander's /api/health and /api/leaderboard answer while strangers flood
the login route with wrong passwords, against the same ``sefode serve`` process without the flood (the reference,
measured in the same run), and how far the server's memory grows.

Usage::

    .venv/bin/python bench/login_flood.py [--clients 60] [--seconds 10] [--json]

Each flooding client posts wrong logins back to back, each from another forwarded address (``X-Forwarded-For``,
trusted from 127.0.0.1 only: no traffic leaves the loopback), so that only the bounded hashing pool stands between
the flood and the server's memory. The target: the bystander's slowest answer under 1 s, the peak RSS under 300 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

PATHS = ("/api/health", "/api/leaderboard")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _status_kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/{pid}/status")


def _serve(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
        "SEFODE_FORWARDED_ALLOW_IPS": "127.0.0.1",
    }
    sefode = Path(sys.executable).parent / "sefode"
    with (folder / "server.log").open("ab") as log:
        proc = subprocess.Popen(
            [str(sefode), "serve", "--host", "127.0.0.1", "--port", str(port)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("sefode serve did not start")


async def _bystander(url: str, until: asyncio.Event) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {path: [] for path in PATHS}
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        while not until.is_set():
            for path in PATHS:
                started = time.perf_counter()
                answer = await http.get(path)
                answer.raise_for_status()
                times[path].append(time.perf_counter() - started)
            await asyncio.sleep(0.1)
    return times


async def _flood(url: str, clients: int, seconds: float) -> dict[int, int]:
    addresses = (f"10.{i // 65536 % 256}.{i // 256 % 256}.{i % 256}" for i in itertools.count(1))
    codes: dict[int, int] = {}
    deadline = time.monotonic() + seconds
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)

    async def one(http: httpx.AsyncClient, n: int) -> None:
        while time.monotonic() < deadline:
            body = {"username": f"user{n}", "password": "a wrong guess"}
            answer = await http.post("/api/account/login", json=body, headers={"x-forwarded-for": next(addresses)})
            codes[answer.status_code] = codes.get(answer.status_code, 0) + 1

    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as http:
        await asyncio.gather(*(one(http, n) for n in range(clients)))
    return codes


async def _measure(url: str, clients: int, seconds: float) -> tuple[dict[str, list[float]], dict[int, int]]:
    until = asyncio.Event()
    watcher = asyncio.create_task(_bystander(url, until))
    if clients:
        codes = await _flood(url, clients, seconds)
    else:
        await asyncio.sleep(seconds)
        codes = {}
    until.set()
    return await watcher, codes


def _summary(times: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    return {
        path: {"n": len(ts), "p50_ms": statistics.median(ts) * 1000, "max_ms": max(ts) * 1000}
        for path, ts in times.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        proc, url = _serve(Path(folder))
        try:
            rss_start = _status_kib(proc.pid, "VmRSS")
            quiet, _ = asyncio.run(_measure(url, 0, min(args.seconds, 3.0)))
            flooded, codes = asyncio.run(_measure(url, args.clients, args.seconds))
            peak = _status_kib(proc.pid, "VmHWM")
        finally:
            proc.terminate()
            proc.wait(30)
    reference, flooded_summary = _summary(quiet), _summary(flooded)
    result = {
        "clients": args.clients,
        "seconds": args.seconds,
        "flood_answers": codes,
        "reference": reference,
        "flooded": flooded_summary,
        "rss_start_mb": rss_start / 1024,
        "rss_peak_mb": peak / 1024,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"login flood: {args.clients} clients for {args.seconds:.0f} s; answers {codes}")
    for path in PATHS:
        ref, hit = reference[path], flooded_summary[path]
        print(
            f"  {path:18} quiet p50 {ref['p50_ms']:6.1f} ms max {ref['max_ms']:6.1f} ms | flooded p50 "
            f"{hit['p50_ms']:6.1f} ms max {hit['max_ms']:7.1f} ms ({hit['max_ms'] / max(ref['max_ms'], 0.1):.1f}x "
            f"the quiet max; target under 1000 ms)"
        )
    print(f"  RSS {rss_start / 1024:.0f} MB at start, peak {peak / 1024:.0f} MB (target under 300 MB)")


if __name__ == "__main__":
    main()
