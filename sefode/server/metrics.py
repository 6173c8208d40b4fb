"""The server's metrics, for ``GET /metrics`` in the Prometheus text format (docs/operating.md, "Metrics").

The metric objects live here, in one registry of this process; the server calls them at the few places where things
happen (an action applied and its update sent, a store write, a refusal, a limit hit, a bot decision, a failed
login). What is a count of live things (rooms, matches, sockets) is read from the hub when scraped.

Every number is this process's: in cluster mode (several ``sefode serve --redis`` nodes) each node is scraped on
its own, and a dashboard sums over the nodes.

Access: with ``SEFODE_METRICS_TOKEN`` set, ``/metrics`` answers only ``Authorization: Bearer <token>``; without it,
only a server listening on a loopback address answers, and only to a loopback peer that is not a proxied request.
Anywhere else ``/metrics`` is not there (404).
"""

from __future__ import annotations

import hmac
import ipaddress
import time
from collections import Counter as Tally
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

if TYPE_CHECKING:
    from sefode.server.hub import Hub

T = TypeVar("T")

REGISTRY = CollectorRegistry(auto_describe=True)
ProcessCollector(registry=REGISTRY)  # process_resident_memory_bytes, CPU seconds, open files (Linux)

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
BOT_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0)

ACTIONS = Counter(
    "sefode_actions",
    "Actions applied to matches (rate() gives actions per second)",
    ["game", "source"],
    registry=REGISTRY,
)
ACTION_UPDATE = Histogram(
    "sefode_action_update_seconds",
    "From an action reaching its room to the update queued for every connection (stored in between)",
    ["game"],
    buckets=LATENCY_BUCKETS,
    registry=REGISTRY,
)
STORE_WRITE = Histogram(
    "sefode_store_write_seconds",
    "Store writes (a group commit of actions, or a room saved), in the store's worker thread",
    ["kind"],
    buckets=LATENCY_BUCKETS,
    registry=REGISTRY,
)
REFUSED = Counter("sefode_refused", "WebSocket messages refused, by error code", ["code"], registry=REGISTRY)
RATE_LIMITED = Counter("sefode_rate_limited", "Requests and messages refused by a limit", ["limit"], registry=REGISTRY)
BOT_DECISION = Histogram(
    "sefode_bot_decision_seconds",
    "A bot's decision at a table, by game and level",
    ["game", "level"],
    buckets=BOT_BUCKETS,
    registry=REGISTRY,
)
LOGIN_FAILURES = Counter("sefode_login_failures", "Failed account logins, by reason", ["reason"], registry=REGISTRY)
MATCHES_STARTED = Counter("sefode_matches_started", "Matches started", ["game"], registry=REGISTRY)
MATCHES_ENDED = Counter("sefode_matches_ended", "Matches that reached their end", ["game"], registry=REGISTRY)


def timed(histogram: Histogram, fn: Callable[..., T], *labels: str) -> Callable[..., T]:
    """``fn``, observing how long each call takes in ``histogram`` (with ``labels``); for a store call that runs in a
    worker thread."""

    def run(*args: Any) -> T:
        began = time.perf_counter()
        try:
            return fn(*args)
        finally:
            histogram.labels(*labels).observe(time.perf_counter() - began)

    return run


class _Live(Collector):
    """The live counts of one hub, read when scraped: rooms and matches by game and state, open sockets."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def collect(self) -> Iterator[GaugeMetricFamily]:
        rooms: Tally[tuple[str, str]] = Tally()
        matches: Tally[tuple[str, str]] = Tally()
        for room in list(self.hub.rooms.values()):
            rooms[(room.game_name, room.status().value)] += 1
            if room.playing:
                matches[(room.game_name, "paused" if room.paused else "playing")] += 1
        yield _gauge("sefode_rooms", "Rooms held by this process, by game and state", rooms)
        yield _gauge("sefode_matches", "Matches on at this process's tables, by game and state", matches)
        sockets = GaugeMetricFamily("sefode_connected_sockets", "Open WebSocket connections to this process")
        sockets.add_metric([], len(self.hub.connections))
        yield sockets


def _gauge(name: str, doc: str, tally: Tally[tuple[str, str]]) -> GaugeMetricFamily:
    family = GaugeMetricFamily(name, doc, labels=["game", "state"])
    for (game, state), n in sorted(tally.items()):
        family.add_metric([game, state], n)
    return family


def exposition(hub: Hub) -> bytes:
    """This process's metrics and the hub's live counts, in the Prometheus text format."""
    live = CollectorRegistry(auto_describe=False)
    live.register(_Live(hub))
    return generate_latest(REGISTRY) + generate_latest(live)


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def allowed(request: Request) -> bool:
    """Whether this request may read ``/metrics`` (see the module's docstring)."""
    token: str | None = getattr(request.app.state, "metrics_token", None)
    if token:
        given = request.headers.get("authorization", "")
        expected = f"Bearer {token}"
        return hmac.compare_digest(given.encode(), expected.encode())
    host: str = getattr(request.app.state, "listen_host", "127.0.0.1")
    peer = request.client.host if request.client is not None else ""
    proxied = "x-forwarded-for" in request.headers or "forwarded" in request.headers
    return _loopback(host) and _loopback(peer) and not proxied


async def metrics_endpoint(request: Request) -> Response:
    if not allowed(request):
        return JSONResponse({"error": {"code": "data/not_found", "message": "not found"}}, status_code=404)
    return Response(exposition(request.app.state.hub), media_type=CONTENT_TYPE_LATEST)


def routes() -> list[Route]:
    return [Route("/metrics", metrics_endpoint, methods=["GET"])]
