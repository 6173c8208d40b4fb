"""Limits on what one client or one player may do (docs/security.md, "Limits").

Everything here is in memory, per server process, and called from the route modules and the WebSocket loop:

- creating sessions and rooms: a token bucket per client address;
- open rooms per player;
- messages: a token bucket per player, shared by all of that player's connections (on top of the per-connection
  bucket of ``hub.Connection``), and a cap on a player's open connections;
- room passwords: failed attempts per room and per client, then an exponential backoff during which no password
  is checked at all.

A *client* is the peer address the ASGI server reports (behind a proxy, ``sefode serve --forwarded-allow-ips``
makes that the address the proxy saw).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass, field

from starlette.requests import HTTPConnection

from sefode.server import metrics
from sefode.server.messages import ClientError

MAX_KEYS = 50_000
"""At most this many clients/players/rooms are tracked per limit; the least recently seen are forgotten first."""


@dataclass(frozen=True)
class Limits:
    """The numbers; ``create_app(limits=...)`` takes another set (tests use tighter or looser ones)."""

    sessions_burst: float = 30
    sessions_per_s: float = 0.5
    rooms_burst: float = 20
    rooms_per_s: float = 0.2
    open_rooms_per_player: int = 10
    player_messages_burst: float = 60
    player_messages_per_s: float = 30
    connection_messages_burst: float = 40
    connection_messages_per_s: float = 20
    connections_per_player: int = 8
    reactions_burst: float = 5
    reactions_per_s: float = 0.5
    """Reactions (``react``) per player: a few at once, then one every 2 s."""
    votes_burst: float = 10
    votes_per_s: float = 1
    """Rematch votes (``rematch``) per player."""
    friend_requests_burst: float = 10
    friend_requests_per_s: float = 0.1
    """Friend requests and blocks per account: a few at once, then one every 10 s."""
    invites_burst: float = 10
    invites_per_s: float = 0.2
    """Invitations of a friend to a room per account: a few at once, then one every 5 s."""
    reports_burst: float = 3
    reports_per_s: float = 1 / 60
    """Players' reports (``POST /api/reports``) per player: a few at once, then one a minute."""
    password_free_failures: int = 5
    """Wrong room passwords allowed (per room, and per client) before the backoff starts."""
    password_backoff_s: float = 1.0
    """The first wait after the free failures; it doubles with each further failure."""
    password_backoff_max_s: float = 300.0
    password_window_s: float = 15 * 60
    """Failures older than this are forgotten."""

    @classmethod
    def off(cls) -> Limits:
        """No creation, message or connection limit (``SEFODE_LIMITS=off``: load benchmarks on loopback). The
        room-password backoff and the size caps stay."""
        big = 1e12
        return cls(
            sessions_burst=big,
            rooms_burst=big,
            open_rooms_per_player=10**12,
            player_messages_burst=big,
            player_messages_per_s=big,
            connection_messages_burst=big,
            connection_messages_per_s=big,
            connections_per_player=10**12,
            reactions_burst=big,
            reactions_per_s=big,
            votes_burst=big,
            votes_per_s=big,
            friend_requests_burst=big,
            friend_requests_per_s=big,
            invites_burst=big,
            invites_per_s=big,
            reports_burst=big,
            reports_per_s=big,
        )


class Buckets:
    """Token buckets by key: ``allow(key)`` takes one token, or answers False when the key's bucket is empty."""

    def __init__(self, burst: float, per_s: float) -> None:
        self.burst = burst
        self.per_s = per_s
        self._state: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, key: str, now: float | None = None) -> bool:
        stamp = time.monotonic() if now is None else now
        tokens, last = self._state.pop(key, (self.burst, stamp))
        tokens = min(self.burst, tokens + (stamp - last) * self.per_s)
        ok = tokens >= 1.0
        if ok:
            tokens -= 1.0
        self._state[key] = (tokens, stamp)
        while len(self._state) > MAX_KEYS:
            self._state.popitem(last=False)
        return ok


@dataclass
class _Failures:
    count: int = 0
    last: float = 0.0
    blocked_until: float = 0.0


@dataclass
class Backoff:
    """Failed attempts by key; after ``free`` failures each one doubles the wait before the next attempt."""

    free: int
    first_s: float
    max_s: float
    window_s: float
    _keys: OrderedDict[str, _Failures] = field(default_factory=OrderedDict)

    def wait_s(self, key: str, now: float) -> float:
        entry = self._keys.get(key)
        if entry is None:
            return 0.0
        if now - entry.last > self.window_s:
            del self._keys[key]
            return 0.0
        return max(0.0, entry.blocked_until - now)

    def fail(self, key: str, now: float) -> None:
        entry = self._keys.pop(key, None) or _Failures()
        if now - entry.last > self.window_s:
            entry = _Failures()
        entry.count += 1
        entry.last = now
        if entry.count >= self.free:
            entry.blocked_until = now + min(self.max_s, self.first_s * 2 ** (entry.count - self.free))
        self._keys[key] = entry
        while len(self._keys) > MAX_KEYS:
            self._keys.popitem(last=False)

    def clear(self, key: str) -> None:
        self._keys.pop(key, None)


class Attempts:
    """Attempts by key within a window: ``enter`` counts an attempt *before* its work, atomically (it runs on the
    event loop, with no await between the count and the taking), so concurrent attempts cannot all pass a check made
    before any of them failed. An attempt in flight counts as a failure until ``leave`` says how it ended."""

    def __init__(self, limit: int, window_s: float) -> None:
        self.limit = limit
        self.window_s = window_s
        self._failures: OrderedDict[str, list[float]] = OrderedDict()
        self._in_flight: dict[str, int] = {}

    def count(self, key: str, now: float) -> int:
        stamps = [t for t in self._failures.get(key, ()) if now - t <= self.window_s]
        if stamps:
            self._failures[key] = stamps
        else:
            self._failures.pop(key, None)
        return len(stamps) + self._in_flight.get(key, 0)

    def full(self, key: str, now: float) -> bool:
        return self.count(key, now) >= self.limit

    def enter(self, key: str) -> None:
        self._in_flight[key] = self._in_flight.get(key, 0) + 1

    def leave(self, key: str, failed: bool, now: float) -> None:
        left = self._in_flight.get(key, 0) - 1
        if left > 0:
            self._in_flight[key] = left
        else:
            self._in_flight.pop(key, None)
        if failed:
            stamps = self._failures.pop(key, [])
            stamps.append(now)
            self._failures[key] = stamps[-self.limit :]
            while len(self._failures) > MAX_KEYS:
                self._failures.popitem(last=False)

    def clear(self, key: str) -> None:
        self._failures.pop(key, None)


class Limiter:
    """The server's limits, kept on ``app.state.limiter``."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        lim = self.limits
        self.sessions = Buckets(lim.sessions_burst, lim.sessions_per_s)
        self.rooms = Buckets(lim.rooms_burst, lim.rooms_per_s)
        self.messages = Buckets(lim.player_messages_burst, lim.player_messages_per_s)
        self.reactions = Buckets(lim.reactions_burst, lim.reactions_per_s)
        self.votes = Buckets(lim.votes_burst, lim.votes_per_s)
        self.friend_requests = Buckets(lim.friend_requests_burst, lim.friend_requests_per_s)
        self.invites = Buckets(lim.invites_burst, lim.invites_per_s)
        self.reports = Buckets(lim.reports_burst, lim.reports_per_s)
        self.passwords = Backoff(
            lim.password_free_failures, lim.password_backoff_s, lim.password_backoff_max_s, lim.password_window_s
        )

    def new_session(self, client: str) -> None:
        if not self.sessions.allow(client):
            raise _limited("sessions", "too many new sessions from this address; wait a minute")

    def new_room(self, client: str) -> None:
        if not self.rooms.allow(client):
            raise _limited("rooms", "too many new rooms from this address; wait a minute")

    def open_rooms(self, open_count: int) -> None:
        cap = self.limits.open_rooms_per_player
        if open_count >= cap:
            metrics.RATE_LIMITED.labels("open_rooms").inc()
            raise ClientError("room/too_many", f"you have {open_count} open rooms; the limit is {cap}")

    def message(self, player_id: str) -> bool:
        """Whether the player's message bucket lets one more through (the caller counts the refusal)."""
        return self.messages.allow(player_id)

    def reaction(self, player_id: str) -> None:
        if not self.reactions.allow(player_id):
            raise _limited("reactions", "too many reactions; wait a moment")

    def vote(self, player_id: str) -> None:
        if not self.votes.allow(player_id):
            raise _limited("votes", "too many rematch votes; wait a moment")

    def friend_request(self, player_id: str) -> None:
        if not self.friend_requests.allow(player_id):
            raise ClientError("rate/limited", "too many friend requests; wait a minute")

    def room_invite(self, player_id: str) -> None:
        if not self.invites.allow(player_id):
            raise ClientError("rate/limited", "too many invitations; wait a minute")

    def report(self, player_id: str) -> None:
        if not self.reports.allow(player_id):
            metrics.RATE_LIMITED.labels("reports").inc()
            raise ClientError("rate/limited", "too many reports; wait a minute")

    def password_attempt(self, room_id: str, client: str, now: float | None = None) -> None:
        """Refuse (``rate/limited``) while the room or the client is backing off after wrong passwords."""
        stamp = time.monotonic() if now is None else now
        wait = max(self.passwords.wait_s("room:" + room_id, stamp), self.passwords.wait_s("client:" + client, stamp))
        if wait > 0:
            raise _limited("room_passwords", f"too many wrong passwords; try again in {max(1, round(wait))} second(s)")

    def password_failed(self, room_id: str, client: str, now: float | None = None) -> None:
        stamp = time.monotonic() if now is None else now
        self.passwords.fail("room:" + room_id, stamp)
        self.passwords.fail("client:" + client, stamp)

    def password_ok(self, client: str) -> None:
        self.passwords.clear("client:" + client)


def _limited(limit: str, message: str) -> ClientError:
    """The ``rate/limited`` refusal of ``limit``, counted in the metrics."""
    metrics.RATE_LIMITED.labels(limit).inc()
    return ClientError("rate/limited", message)


def client_of(conn: HTTPConnection) -> str:
    """The client's address (the key of the per-client limits)."""
    return conn.client.host if conn.client is not None else "unknown"


def limiter_of(conn: HTTPConnection) -> Limiter:
    limiter: Limiter = conn.app.state.limiter
    return limiter
