"""A real cluster for the tests and ``bench/load.py --nodes``: ``sefode serve --redis`` nodes on one PostgreSQL schema
and one Redis key prefix, behind nginx (Debian's package, started on a free port with its own configuration).

Everything runs on loopback. Waiting is on events (a node's health, its log), bounded by a deadline that only
turns a hang into a failure.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import redis
from ports import free_port
from server_helpers import READY_S, postgres_url, spawn_server, wait_ready

REDIS_URL = os.environ.get("SEFODE_TEST_REDIS", "redis://127.0.0.1:6379/0")
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
WAIT_S = 30.0

NGINX_CONF = """
{user}worker_processes 1;
pid {dir}/nginx.pid;
error_log {dir}/nginx-error.log warn;
events {{ worker_connections 8192; }}
http {{
    access_log off;
    client_body_temp_path {dir}/nginx-body;
    proxy_temp_path {dir}/nginx-proxy;
    fastcgi_temp_path {dir}/nginx-fastcgi;
    uwsgi_temp_path {dir}/nginx-uwsgi;
    scgi_temp_path {dir}/nginx-scgi;
    map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
    upstream sefode {{
{servers}
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://sefode;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_connect_timeout 1s;
            proxy_read_timeout 60s;
            proxy_send_timeout 60s;
            proxy_next_upstream error timeout http_502 http_503;
            proxy_next_upstream_timeout 5s;
            proxy_next_upstream_tries 3;
        }}
    }}
}}
"""


def nginx_conf(folder: Path, port: int, node_ports: list[int]) -> str:
    # max_fails=0: nginx's passive checks count a WebSocket only when it closes, so a node marked failed once
    # (killed, then started again) would get one new connection per fail_timeout for as long as its sockets
    # stay open, and "no live upstreams" (502) follows when another node dies. A refused connection is retried
    # on the next node at once (proxy_next_upstream error).
    servers = "\n".join(f"        server 127.0.0.1:{p} max_fails=0;" for p in node_ports)
    user = "user root;\n" if os.geteuid() == 0 else ""
    return NGINX_CONF.format(user=user, dir=folder, servers=servers, port=port)


class Rig:
    """Nodes ``n1..nN`` and the proxy. ``base`` is the proxy's URL; ``node_base(name)`` a node's own."""

    def __init__(self, folder: Path, database_url: str, nodes: int, ttl_ms: int, env: dict[str, str]) -> None:
        self.folder = folder
        self.database_url = database_url
        self.ttl_ms = ttl_ms
        self.prefix = f"t{secrets.token_hex(4)}:"
        self.env = env
        self.ports = {f"n{i + 1}": free_port() for i in range(nodes)}
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.ready: dict[str, int] = {}
        """Each node's readiness pipe (read end) until ``wait_node`` has waited on it."""
        self.proxy_port = free_port()
        self.base = f"http://127.0.0.1:{self.proxy_port}"
        self.nginx: subprocess.Popen[bytes] | None = None
        self.redis = redis.Redis.from_url(REDIS_URL)

    def log(self, name: str) -> Path:
        return self.folder / f"{name}.log"

    def node_base(self, name: str) -> str:
        return f"http://127.0.0.1:{self.ports[name]}"

    def start_node(self, name: str, extra: dict[str, str] | None = None) -> None:
        self.spawn_node(name, extra)
        self.wait_node(name)

    def spawn_node(self, name: str, extra: dict[str, str] | None = None) -> None:
        """Start ``name``'s process without waiting for it (``wait_node``): nodes start side by side."""
        env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "SEFODE_NODE": name,
            "SEFODE_LEASE_TTL_MS": str(self.ttl_ms),
            "SEFODE_REDIS_PREFIX": self.prefix,
            **self.env,
            **(extra or {}),
        }
        sefode = Path(sys.executable).parent / "sefode"
        args = [str(sefode), "serve", "--host", "127.0.0.1", "--port", str(self.ports[name]), "--redis", REDIS_URL]
        old = self.ready.pop(name, None)
        if old is not None:
            os.close(old)
        self.procs[name], self.ready[name] = spawn_server(args, env, self.log(name))

    def wait_node(self, name: str) -> None:
        """Until ``name`` says it is ready (on its readiness pipe: it serves, and has joined the cluster)."""
        try:
            wait_ready(self.procs[name], self.ready.pop(name), self.log(name), READY_S)
        except RuntimeError as err:
            raise AssertionError(f"node {name} up: {err}") from None

    def start_proxy(self) -> None:
        conf = self.folder / "nginx.conf"
        conf.write_text(nginx_conf(self.folder, self.proxy_port, list(self.ports.values())))
        self.nginx = subprocess.Popen(
            [NGINX, "-c", str(conf), "-p", str(self.folder), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=(self.folder / "nginx-stderr.log").open("ab"),
        )
        wait_for(lambda: _get(f"{self.base}/api/health") is not None, "nginx up", proc=self.nginx)

    def health(self, name: str) -> dict[str, Any] | None:
        return _get(f"{self.node_base(name)}/api/health")

    def owner(self, room_id: str) -> str | None:
        value = self.redis.get(f"{self.prefix}lease:{room_id}")
        return value.decode().split(":")[0] if isinstance(value, bytes) else None

    def epoch(self, room_id: str) -> int | None:
        value = self.redis.get(f"{self.prefix}lease:{room_id}")
        return int(value.decode().split(":")[1]) if isinstance(value, bytes) else None

    def signal(self, name: str, sig: signal.Signals) -> None:
        self.procs[name].send_signal(sig)

    def log_events(self, name: str) -> list[dict[str, Any]]:
        out = []
        for line in self.log(name).read_text(errors="replace").splitlines():
            if line.startswith("{"):
                with contextlib.suppress(ValueError):
                    out.append(json.loads(line))
        return out

    def close(self) -> None:
        for read_end in self.ready.values():
            with contextlib.suppress(OSError):
                os.close(read_end)
        for proc in self.procs.values():
            with contextlib.suppress(Exception):
                proc.send_signal(signal.SIGCONT)
                proc.kill()
        if self.nginx is not None:
            self.nginx.terminate()
        for proc in [*self.procs.values(), *([self.nginx] if self.nginx else [])]:
            with contextlib.suppress(Exception):
                proc.wait(10)
        with contextlib.suppress(Exception):
            keys = list(self.redis.scan_iter(f"{self.prefix}*", count=1000))
            if keys:
                self.redis.delete(*keys)
        self.redis.close()


def _get(url: str) -> dict[str, Any] | None:
    try:
        response = httpx.get(url, timeout=2.0)
    except httpx.HTTPError:
        return None
    if response.status_code != 200:
        return None
    data: dict[str, Any] = response.json()
    return data


def wait_for(
    predicate: Callable[[], Any],
    what: str,
    timeout: float = WAIT_S,
    proc: subprocess.Popen[bytes] | None = None,
    log: Path | None = None,
) -> Any:
    """Poll ``predicate`` until it is truthy (the deadline only turns a hang into a failure)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            tail = log.read_text(errors="replace")[-3000:] if log is not None else ""
            raise AssertionError(f"{what}: the process exited with {proc.returncode}\n{tail}")
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


@contextlib.contextmanager
def cluster(folder: Path, nodes: int = 3, ttl_ms: int = 2000, env: dict[str, str] | None = None) -> Iterator[Rig]:
    with postgres_url() as url:
        rig = Rig(folder, url, nodes, ttl_ms, env or {})
        try:
            for name in rig.ports:
                rig.spawn_node(name)
            for name in rig.ports:
                rig.wait_node(name)
            rig.start_proxy()
            yield rig
        finally:
            rig.close()
