"""``sefode serve``: run the server on uvicorn."""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import webbrowser
from pathlib import Path
from typing import Any

from sefode.server import logs

KEEP_ALIVE_S = 30
"""How long an idle HTTP connection stays open for the client's next request: longer than the clients that keep
theirs 5 s (Node's http agent, which Playwright's requests use; httpx), so that they close an idle connection first.
With the same 5 s on both ends (uvicorn's default), a request sent on a kept connection just as the server closed it
was lost ("socket hang up", ECONNRESET: a browser test fetching a match's history once failed so)."""


def serve(
    host: str,
    port: int,
    open_browser: bool = False,
    public_url: str | None = None,
    forwarded_allow_ips: str | None = None,
    redis_url: str | None = None,
) -> int:
    """Run the server until interrupted.

    The database comes from ``DATABASE_URL`` (default: SQLite under the user's data directory). Bot pacing:
    ``SEFODE_BOT_DELAY_S`` (pause before a bot move), ``SEFODE_DISCONNECT_GRACE_S`` (how long a disconnected
    player's turn waits before a bot plays it), ``SEFODE_BOT_THINK_MS`` (a hard bot's search budget),
    ``SEFODE_CLOCK_UNIT_S`` (the real time of one second of a turn clock; tests shorten it, default 1).
    ``SEFODE_ECHO=1`` adds the bare WebSocket echo ``/ws/echo`` used by ``bench/load.py``; ``SEFODE_LIMITS=off``
    lifts the per-client and per-player limits of ``sefode.server.limits`` (the load benchmark's hundreds of players
    all come from one address). ``SEFODE_TEST_HOOKS=1`` turns on the test hooks (a solo table, or a room's match
    started by its owner, started at a given deal, ``sefode.server.startpoint``): for test servers only, never a
    public one; a warning is logged.

    ``public_url`` (``--public-url``) is where browsers reach the server; behind a reverse proxy,
    ``forwarded_allow_ips`` (``--forwarded-allow-ips``) names the proxies whose ``X-Forwarded-*`` headers are trusted
    (docs/security.md, "Running behind HTTPS").
    ``redis_url`` (``--redis``) runs a node of a cluster (docs/cluster.md): ``DATABASE_URL`` must then be a
    PostgreSQL URL shared by every node; ``SEFODE_NODE`` names the node, ``SEFODE_LEASE_TTL_MS`` sets the lease TTL.
    """
    import uvicorn

    from sefode.server import startpoint
    from sefode.server.app import create_app
    from sefode.server.deadlines import http_protocol
    from sefode.server.limits import Limits

    logs.setup_logging()
    app = create_app(
        bot_delay_s=float(os.environ.get("SEFODE_BOT_DELAY_S", "0.8")),
        disconnect_grace_s=float(os.environ.get("SEFODE_DISCONNECT_GRACE_S", "3")),
        bot_think_ms=float(os.environ.get("SEFODE_BOT_THINK_MS", "300")),
        clock_unit_s=float(os.environ.get("SEFODE_CLOCK_UNIT_S", "1")),
        echo=os.environ.get("SEFODE_ECHO") == "1",
        redis_url=redis_url,
        lease_ttl_ms=int(os.environ.get("SEFODE_LEASE_TTL_MS", "0")) or None,
        public_url=public_url,
        limits=Limits.off() if os.environ.get("SEFODE_LIMITS") == "off" else _limits_from_env(),
        test_hooks=os.environ.get("SEFODE_TEST_HOOKS") == "1",
        metrics_token=os.environ.get("SEFODE_METRICS_TOKEN") or None,
        listen_host=host,
    )
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(address(host, port) + "/",)).start()
    logs.event("server.start", host=host, port=port)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        http=http_protocol(),  # a late request head closes the connection (sefode.server.deadlines)
        timeout_keep_alive=KEEP_ALIVE_S,
        # A start point (a test hook) may ride in the owner's ``start`` message: test servers take larger frames.
        ws_max_size=max(64 * 1024, startpoint.BODY_BYTES) if app.state.test_hooks else 64 * 1024,
        ws_per_message_deflate=False,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        lifespan="on",
        timeout_graceful_shutdown=10,
        proxy_headers=forwarded_allow_ips is not None,
        forwarded_allow_ips=forwarded_allow_ips,
    )
    server = _draining_server(config, app.state.hub)
    server.run()
    return 0


def _limits_from_env() -> Any:
    """``SEFODE_LIMITS``: a JSON object overriding fields of ``sefode.server.limits.Limits`` (``bench/load.py``
    opens thousands of sessions from one address), e.g. ``{"sessions_burst": 1e9}``; unset: the defaults."""
    import dataclasses
    import json

    from sefode.server.limits import Limits

    raw = os.environ.get("SEFODE_LIMITS")
    if not raw:
        return None
    return dataclasses.replace(Limits(), **json.loads(raw))


def _notify_ready() -> None:
    """``SEFODE_READY_FD``: a pipe's write end, inherited from whoever started the server (a test, a service
    manager): once the app has started and the socket listens, a line ``ready`` is written to it and it is closed.
    The parent waits on that (or on the end of the pipe, should the server exit first) instead of polling."""
    raw = os.environ.get("SEFODE_READY_FD")
    if not raw:
        return
    logs.event("server.ready")
    with contextlib.suppress(OSError):
        os.write(int(raw), b"ready\n")
    with contextlib.suppress(OSError):
        os.close(int(raw))


def address(host: str, port: int) -> str:
    """The address to open in a browser for a server listening on ``host``:``port`` (every address: loopback's).

    >>> address("0.0.0.0", 8000), address("::1", 8080), address("cartas.local", 80)
    ('http://127.0.0.1:8000', 'http://[::1]:8080', 'http://cartas.local:80')
    """
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}"


def where_data_lives(url: Any) -> str:
    """The database, as a person looks for it: a SQLite file's path, or the URL without its password."""
    if url.get_backend_name() == "sqlite" and url.database:
        return str(Path(url.database).resolve())
    text: str = url.render_as_string(hide_password=True)
    return text


def _announce(host: str, port: int, hub: Any) -> None:
    """Once the server listens: where to open it and where its data lives, in the log (``server.listening``) and,
    for the person who started it, on stdout."""
    url = address(host, port)
    data = where_data_lives(hub.store.engine.url)
    logs.event("server.listening", open=url, database=data)
    with contextlib.suppress(OSError, ValueError):
        print(f"Se Fode is up: open {url}\nThe data lives in {data}", flush=True)


def _draining_server(config: Any, hub: Any) -> Any:
    """uvicorn's server, except that in cluster mode SIGTERM first drains the node (its rooms go to other nodes,
    docs/cluster.md), and only then stops it, closing the WebSockets (their clients reconnect through the proxy)."""
    import signal

    import uvicorn

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            cluster = hub.cluster
            if sig == signal.SIGTERM and cluster is not None and not cluster.draining and not self.should_exit:
                loop = asyncio.get_event_loop()
                loop.call_soon_threadsafe(lambda: loop.create_task(self._drain(sig, frame)))
                return
            super().handle_exit(sig, frame)

        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if self.started:
                _announce(self.config.host, self.config.port, hub)
                _notify_ready()

        async def _drain(self, sig: int, frame: Any) -> None:
            try:
                await asyncio.wait_for(hub.cluster.drain(), 10)
            except Exception as err:
                logs.error("cluster.drain_failed", err)
            super().handle_exit(sig, frame)

    return Server(config)
