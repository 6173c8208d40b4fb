"""The ASGI application: HTTP API, WebSocket ``/ws``, the browser client's files and the rules pages.

The routes live in ``sefode.server.routes`` (one module per area); ``create_app`` only builds the hub and assembles
them. Handlers reach the server through ``request.app.state`` (``hub``, ``static_dir``).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette

import sefode
from sefode.server import logs, metrics
from sefode.server.heap import HeapPolicy
from sefode.server.hub import Hub
from sefode.server.limits import Limiter, Limits
from sefode.server.routes import accounts, analysis, games, matches, moderation, openapi, pages, rooms, session, ws
from sefode.server.routes.common import COOKIE
from sefode.server.security import Security
from sefode.store import Store

__all__ = ["COOKIE", "STATIC", "create_app"]

STATIC = Path(sefode.__file__).parent / "web" / "static"


def create_app(
    database_url: str | None = None,
    *,
    bot_delay_s: float = 0.8,
    disconnect_grace_s: float = 3.0,
    bot_think_ms: float = 300.0,
    bot_processes: int = 1,
    pause_limit_s: float = 15 * 60,
    clock_unit_s: float = 1.0,
    static_dir: Path | None = None,
    echo: bool = False,
    log: bool = True,
    redis_url: str | None = None,
    lease_ttl_ms: int | None = None,
    public_url: str | None = None,
    limits: Limits | None = None,
    heap_policy: bool = True,
    test_hooks: bool = False,
    metrics_token: str | None = None,
    listen_host: str = "127.0.0.1",
) -> Starlette:
    """The server. ``database_url`` defaults to ``DATABASE_URL`` or SQLite under the user's data directory.

    ``echo`` adds ``/ws/echo``, a bare WebSocket echo on the same stack, for ``bench/load.py``. ``public_url`` is
    where browsers reach the server (``sefode serve --public-url``): an ``https://`` one makes cookies ``Secure``,
    and its origin is accepted by the Origin check. ``limits`` replaces the default ``sefode.server.limits.Limits``.
    ``clock_unit_s`` is the real time of one second of a room's turn clock (tests shorten it).
    ``heap_policy`` freezes the long-lived heap out of the garbage collector's full scans (``sefode.server.heap``).
    ``test_hooks`` (``SEFODE_TEST_HOOKS=1``; never on a public server) lets a solo table, and a room's match started by
    its owner, start at a given point (``sefode.server.startpoint``); off, such a request is refused with
    ``start/disabled``. ``metrics_token`` (``SEFODE_METRICS_TOKEN``) and ``listen_host`` (where the server listens)
    decide who may read ``/metrics`` (``sefode.server.metrics``).
    """
    if log:
        logs.setup_logging()
    store = Store(database_url)
    hub = Hub(
        store,
        bot_delay_s=bot_delay_s,
        disconnect_grace_s=disconnect_grace_s,
        bot_think_ms=bot_think_ms,
        bot_processes=bot_processes,
        pause_limit_s=pause_limit_s,
        clock_unit_s=clock_unit_s,
    )
    if redis_url is not None:
        if not store.url.startswith("postgresql"):
            raise SystemExit("sefode serve --redis: DATABASE_URL must be a PostgreSQL URL shared by every node")
        from sefode.server.cluster import DEFAULT_TTL_MS, Cluster

        hub.cluster = hub.placement = Cluster(hub, redis_url, ttl_ms=lease_ttl_ms or DEFAULT_TTL_MS)
    static = static_dir or STATIC

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.open()
        heap = HeapPolicy() if heap_policy else None
        if heap is not None:
            heap.start()
        try:
            yield
        finally:
            if heap is not None:
                await heap.stop()
            analysis.shutdown(app.state)
            await hub.close()

    routes: list[Any] = [*accounts.routes(), *moderation.routes()]
    if echo:
        routes += ws.echo_routes()
    routes += [
        *openapi.routes(),
        *metrics.routes(),
        *session.routes(),
        *rooms.routes(),
        *matches.routes(),
        *analysis.routes(),
        *games.routes(),
        *pages.api_routes(),
        *ws.routes(),
        *pages.page_routes(static),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(Security, public_url=public_url)
    app.state.hub = hub
    app.state.limiter = hub.limiter = Limiter(limits)
    if hub.cluster is not None:
        hub.cluster.passwords.limits = app.state.limiter.limits
    app.state.public_url = public_url
    app.state.metrics_token = metrics_token or None
    app.state.listen_host = listen_host
    app.state.test_hooks = hub.test_hooks = test_hooks
    if test_hooks:
        logs.warning("server.test_hooks_on", detail="matches may be started at a given deal: for tests only")
    app.state.static_dir = static
    return app
