"""An async client for the public protocol (``docs/protocol.md``), for bots and scripts: ``docs/bots.md``.

    async with Client("http://127.0.0.1:8000", token) as client:
        await client.join(room_id)
        async for event in client.events():
            if isinstance(event, State) and event.my_turn:
                await client.act(event.legal[0].action)
            elif isinstance(event, MatchEnd):
                break

What it does for the caller:

* **Authentication** with the session cookie on the WebSocket handshake and a first ``auth`` message (so that a
  revoked token is refused at once), or (``auth_message``) the ``auth`` message alone; never a token in the URL.
* **A full snapshot on every (re)connect:** after a reconnection it joins the room again, so the server sends
  ``room`` then ``state`` (the whole view, the legal actions and the clocks) before anything else; the event
  :class:`Reconnected` comes first, so a bot never acts on what it saw before the break.
* **Reconnection with backoff** (exponential with jitter, ``backoff_s`` to ``max_backoff_s``), for ever or up to
  ``max_retries`` failures in a row; a refused session (close code 4401/4410) is never retried: it raises
  :class:`AuthError`.
* **Versions:** :meth:`Client.act` sends the version of the last ``state`` of the seat; a state the server has
  superseded is never answered (``action/stale_state`` is the server's word and comes back as an :class:`ServerError`).
* **Errors are surfaced, never dropped:** every ``error`` message is an event (:class:`ServerError`, with the ``ref``
  of the request that caused it), and :meth:`Client.request` waits for the answer to one request.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import itertools
import json
import random
import time
import urllib.request
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from sefode.fold import Held

PROTOCOL = 4
COOKIE = "sefode_session"
AUTH_CLOSE_CODES = frozenset({4401, 4403, 4410})
"""Close codes after which reconnecting cannot help: no session, refused origin, session ended (token revoked)."""
RATE_RETRY_S = 0.1
"""The first pause before an action refused with ``rate/limited`` is sent again; doubled up to RATE_RETRY_MAX_S."""
RATE_RETRY_MAX_S = 2.0
BUSY_RETRY_S = 0.5
"""The pause before a join answered ``server/busy`` (a room between two servers of a cluster) is sent again."""

JSONObject = dict[str, Any]


# --------------------------------------------------------------------------------------------- events
@dataclass(frozen=True, slots=True)
class LegalAction:
    """One decision the seat may take: ``action`` is what to send, ``label`` how to show it."""

    action: JSONObject
    label: JSONObject

    @property
    def text(self) -> str:
        return str(self.label.get("text", json.dumps(self.action)))


@dataclass(frozen=True, slots=True)
class Hello:
    protocol: int
    player_id: str
    name: str | None


@dataclass(frozen=True, slots=True)
class RoomUpdate:
    room: JSONObject

    @property
    def your_seat(self) -> int | None:
        seat = self.room.get("your_seat")
        return seat if isinstance(seat, int) else None


@dataclass(frozen=True, slots=True)
class State:
    """A ``state`` message: the seat's view (or the spectator view), its legal actions and its clock."""

    match_id: str
    version: int
    seat: int | None
    view: JSONObject
    events: list[JSONObject]
    awaiting: list[int]
    legal: list[LegalAction]
    deadlines: dict[int, int]
    """When each awaited seat's clock runs out, epoch ms on this machine's clock (the server sends the time left on
    each; :func:`parse_event` adds it to the time the message is read)."""
    deadline: int | None
    """This seat's clock's end (else the earliest of ``deadlines``), as they are."""
    recap: list[JSONObject] | None = None
    over: bool = False
    """The match is over (the game's say, not read from the view)."""
    seat_status: list[str] = field(default_factory=list)
    """Each seat's standing: ``"playing"``, ``"out"`` (eliminated) or ``"left"`` (forfeited)."""
    received_at: int = 0
    """When the message was read, epoch ms on this machine's clock: ``deadline - received_at`` is the time left the
    server told."""

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat in self.awaiting and bool(self.legal)

    @property
    def my_deadline(self) -> int | None:
        """When this seat's clock runs out (epoch ms), if it is awaited."""
        return self.deadlines.get(self.seat) if self.seat is not None else None


@dataclass(frozen=True, slots=True)
class Chat:
    sender: JSONObject
    text: str
    at: int


@dataclass(frozen=True, slots=True)
class ServerError:
    """An ``error`` message: a refusal of something this client sent (``ref`` names it), or of the connection."""

    code: str
    message: str
    ref: str | int | None = None


@dataclass(frozen=True, slots=True)
class MatchEnd:
    match_id: str
    placements: list[int]
    history_url: str


@dataclass(frozen=True, slots=True)
class Reconnected:
    """The connection broke and is back (``attempt`` failures later); a fresh ``room`` and ``state`` follow."""

    attempt: int


@dataclass(frozen=True, slots=True)
class Other:
    """A message type this client does not know (a newer server): passed on as it came."""

    message: JSONObject


Event = Hello | RoomUpdate | State | Chat | ServerError | MatchEnd | Reconnected | Other


class ClientFailure(Exception):
    """The client cannot go on."""


class AuthError(ClientFailure):
    """The server refused the session (no such token, revoked, or the origin); reconnecting would not help."""

    def __init__(self, message: str, close_code: int | None = None) -> None:
        super().__init__(message)
        self.close_code = close_code


class ConnectionLost(ClientFailure):
    """Reconnection gave up after ``max_retries`` failures in a row."""


class RequestRefused(ClientFailure):
    """:meth:`Client.request` got an ``error`` answer."""

    def __init__(self, error: ServerError) -> None:
        super().__init__(f"{error.code}: {error.message}")
        self.error = error


def parse_event(message: Mapping[str, Any]) -> Event:
    """A server message as a typed event (unknown types as :class:`Other`)."""
    kind = message.get("type")
    if kind == "state":
        legal = [LegalAction(dict(e["action"]), dict(e.get("label") or {})) for e in message.get("legal") or []]
        # The clocks come as the time left on each (ms): when each runs out on this machine's clock, from now.
        now = round(time.time() * 1000)
        deadlines = {int(s): now + int(ms) for s, ms in (message.get("deadlines") or {}).items()}
        deadline = message.get("deadline")
        recap = message.get("recap")
        return State(
            match_id=str(message["match_id"]),
            version=int(message["version"]),
            seat=message.get("seat"),
            view=dict(message.get("view") or {}),
            events=list(message.get("events") or []),
            awaiting=[int(s) for s in message.get("awaiting") or []],
            legal=legal,
            deadlines=deadlines,
            deadline=None if deadline is None else now + int(deadline),
            recap=list(recap) if recap is not None else None,
            over=bool(message.get("over", False)),
            seat_status=[str(x) for x in message.get("seat_status") or []],
            received_at=now,
        )
    if kind == "room":
        return RoomUpdate(dict(message["room"]))
    if kind == "hello":
        return Hello(int(message.get("protocol", 0)), str(message.get("player_id")), message.get("name"))
    if kind == "error":
        return ServerError(str(message.get("code")), str(message.get("message", "")), message.get("ref"))
    if kind == "chat":
        return Chat(dict(message.get("from") or {}), str(message.get("text", "")), int(message.get("at", 0)))
    if kind == "match_end":
        return MatchEnd(
            str(message["match_id"]), list(message.get("placements") or []), str(message.get("history_url"))
        )
    return Other(dict(message))


def ws_url(url: str) -> str:
    """``http://host:port`` (or ``ws://…``, with or without ``/ws``) as the WebSocket address ``ws://host:port/ws``.

    >>> ws_url("http://127.0.0.1:8000")
    'ws://127.0.0.1:8000/ws'
    >>> ws_url("https://cartas.example/ws")
    'wss://cartas.example/ws'
    """
    parts = urlsplit(url)
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    path = parts.path.rstrip("/")
    if not path.endswith("/ws"):
        path += "/ws"
    return urlunsplit((scheme, parts.netloc, path, "", ""))


def http_url(url: str) -> str:
    """The server's HTTP base address.

    >>> http_url("ws://127.0.0.1:8000/ws")
    'http://127.0.0.1:8000'
    """
    parts = urlsplit(url)
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    path = parts.path.rstrip("/")
    if path.endswith("/ws"):
        path = path[:-3]
    return urlunsplit((scheme, parts.netloc, path, "", ""))


async def create_guest(url: str, name: str) -> tuple[str, str]:
    """A new guest session on the server at ``url``: ``(token, player_id)`` (``POST /api/session``)."""

    def post() -> JSONObject:
        request = urllib.request.Request(
            http_url(url) + "/api/session",
            data=json.dumps({"name": name}).encode(),
            headers={"content-type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=20) as response:
            data: JSONObject = json.loads(response.read())
            return data

    data = await asyncio.to_thread(post)
    return str(data["token"]), str(data["player_id"])


# --------------------------------------------------------------------------------------------- the client
@dataclass
class Client:
    """One player's connection to a server, kept open across network failures (see the module docstring)."""

    url: str
    token: str
    backoff_s: float = 0.25
    max_backoff_s: float = 10.0
    max_retries: int | None = None
    """Failures in a row before :class:`ConnectionLost`; None: for ever."""
    open_timeout_s: float = 20.0
    auth_message: bool = False
    """Authenticate with a first message ``{"type": "auth", "token"}`` instead of the handshake's cookie (both are
    in docs/protocol.md; a proxy that drops cookies needs this)."""

    updates: bool = False
    """Join with ``"updates": true`` (docs/protocol.md, "Updates"): after one full state per join the server sends
    only what changed, and the client folds each update into the full :class:`State` it stands for (``sefode.fold``),
    so the caller sees the same events either way, for a fraction of the bytes. An update that does not follow the
    state held (a gap) makes the client ask for the full state again (``resync``)."""

    hello: Hello | None = field(default=None, init=False)
    room: JSONObject | None = field(default=None, init=False)
    state: State | None = field(default=None, init=False)
    """The last ``state`` received (from the current connection or, until its snapshot comes, the previous one)."""
    errors: list[ServerError] = field(default_factory=list, init=False)
    """Every error received, in order (also given out as events)."""

    _ws: ClientConnection | None = field(default=None, init=False, repr=False)
    _join: JSONObject | None = field(default=None, init=False, repr=False)
    _refs: itertools.count[int] = field(default_factory=lambda: itertools.count(1), init=False, repr=False)
    _waiting: dict[str | int, asyncio.Future[Event]] = field(default_factory=dict, init=False, repr=False)
    _fresh: bool = field(default=False, init=False, repr=False)
    _closing: bool = field(default=False, init=False, repr=False)
    _tasks: set[asyncio.Task[None]] = field(default_factory=set, init=False, repr=False)
    _held: Held | None = field(default=None, init=False, repr=False)
    """The last full ``state`` message as received or folded (with ``updates``), owned by the client."""
    _resyncing: bool = field(default=False, init=False, repr=False)

    async def __aenter__(self) -> Client:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ------------------------------------------------------------------ connection
    async def connect(self) -> Hello:
        """Open the WebSocket and read ``hello`` (AuthError if the server refuses the session)."""
        headers = {} if self.auth_message else {"Cookie": f"{COOKIE}={self.token}"}
        try:
            ws = await connect(
                ws_url(self.url),
                additional_headers=headers,
                open_timeout=self.open_timeout_s,
                max_size=2**22,
                compression=None,
            )
        except InvalidStatus as err:
            if err.response.status_code in (401, 403):
                raise AuthError(f"the server refused the connection ({err.response.status_code})") from err
            raise
        try:
            # The token goes in a first ``auth`` message with the cookie as well: the server refuses a cookie that
            # is no live session (a revoked token) only when that message comes, so without it the refusal would
            # wait for the server's deadline. A live cookie answers hello at once, and the ``auth`` message on the
            # open connection a second hello, read here so that the caller sees one.
            await ws.send(json.dumps({"type": "auth", "token": self.token}))
            first = json.loads(await asyncio.wait_for(ws.recv(), self.open_timeout_s))
            if not self.auth_message and isinstance(parse_event(first), Hello):
                again = json.loads(await asyncio.wait_for(ws.recv(), self.open_timeout_s))
                if not isinstance(parse_event(again), Hello):
                    first = again
        except ConnectionClosed as err:
            await ws.close()
            raise self._closed_error(err) from err
        event = parse_event(first)
        if isinstance(event, ServerError):
            with contextlib.suppress(Exception):
                await ws.close()
            raise AuthError(f"{event.code}: {event.message}")
        if not isinstance(event, Hello):
            await ws.close()
            raise ClientFailure(f"the server did not say hello: {first!r}")
        self._ws = ws
        self.hello = event
        return event

    @staticmethod
    def _closed_error(err: ConnectionClosed) -> ClientFailure:
        code = err.rcvd.code if err.rcvd is not None else None
        if code in AUTH_CLOSE_CODES:
            return AuthError(f"the server closed the connection ({code}): {err.rcvd.reason if err.rcvd else ''}", code)
        return ConnectionLost(f"connection closed ({code})")

    async def close(self) -> None:
        self._closing = True
        if self._ws is not None:
            await self._ws.close()
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(ConnectionLost("the client was closed"))
        self._waiting.clear()

    # ------------------------------------------------------------------ sending
    async def send(self, message: Mapping[str, Any]) -> str | int:
        """Send one message (a ``ref`` is added when it has none); returns its ``ref``."""
        if self._ws is None:
            raise ClientFailure("not connected; call connect() first")
        out = dict(message)
        ref = out.setdefault("ref", next(self._refs))
        await self._ws.send(json.dumps(out))
        return ref  # type: ignore[no-any-return]

    async def join(self, room: str, *, password: str | None = None, invite: str | None = None) -> str | int:
        """Enter a room; remembered, so that every reconnection joins it again (and gets the full snapshot)."""
        msg: JSONObject = {"type": "join", "room": room}
        if password is not None:
            msg["password"] = password
        if invite is not None:
            msg["invite"] = invite
        if self.updates:
            msg["updates"] = True
        self._join = msg
        return await self.send(msg)

    async def act(self, action: Mapping[str, Any], state: State | None = None) -> str | int:
        """Send a game action for the seat, with the version of ``state`` (default: the last state received)."""
        state = state or self.state
        if state is None:
            raise ClientFailure("no state received yet: join a room with a match first")
        return await self.send({"type": "action", "action": dict(action), "version": state.version})

    async def sit(self, seat: int) -> str | int:
        return await self.send({"type": "sit", "seat": seat})

    async def start(self) -> str | int:
        return await self.send({"type": "start"})

    async def chat(self, text: str) -> str | int:
        return await self.send({"type": "chat", "text": text})

    async def rematch(self, accept: bool = True) -> str | int:
        """Vote for (or against) a rematch of the match that just ended (docs/protocol.md, Rematch)."""
        return await self.send({"type": "rematch", "accept": accept})

    async def react(self, reaction: str) -> str | int:
        """Show one of the fixed reactions (an id such as ``"gg"``; docs/protocol.md, Reactions) at your seat."""
        return await self.send({"type": "react", "reaction": reaction})

    async def request(self, message: Mapping[str, Any], timeout_s: float = 20.0) -> Event:
        """Send a message and wait for its answer: the next ``room``/``state``/``pong`` event, or its ``error``
        (RequestRefused). Only while :meth:`events` runs (it reads the messages)."""
        ref = await self.send(message)
        future: asyncio.Future[Event] = asyncio.get_running_loop().create_future()
        self._waiting[ref] = future
        try:
            return await asyncio.wait_for(future, timeout_s)
        finally:
            self._waiting.pop(ref, None)

    # ------------------------------------------------------------------ receiving
    def _settle(self, event: Event) -> None:
        if isinstance(event, ServerError):
            if event.ref is not None and event.ref in self._waiting:
                future = self._waiting.pop(event.ref)
                if not future.done():
                    future.set_exception(RequestRefused(event))
            return
        if isinstance(event, RoomUpdate | State | Other):
            for ref, future in list(self._waiting.items()):
                if not future.done():
                    future.set_result(event)
                self._waiting.pop(ref, None)

    def _absorb(self, event: Event) -> None:
        if isinstance(event, State):
            self.state = event
            self._fresh = True
        elif isinstance(event, RoomUpdate):
            self.room = event.room
        elif isinstance(event, ServerError):
            self.errors.append(event)
        elif isinstance(event, Hello):
            self.hello = event

    async def _reconnect(self) -> int:
        attempt = 0
        delay = self.backoff_s
        while True:
            attempt += 1
            if self.max_retries is not None and attempt > self.max_retries:
                raise ConnectionLost(f"gave up after {self.max_retries} reconnection attempts")
            await asyncio.sleep(delay * (0.5 + random.random() / 2))
            delay = min(self.max_backoff_s, delay * 2)
            try:
                await self.connect()
            except AuthError:
                raise
            except (OSError, InvalidHandshake, ConnectionClosed, TimeoutError, ClientFailure):
                continue
            self._fresh = False
            self._held = None
            self._resyncing = False
            if self._join is not None:
                try:
                    await self.send(self._join)
                except ConnectionClosed:
                    continue
            return attempt

    async def events(self) -> AsyncIterator[Event]:
        """Every server message as an event, for as long as the caller reads; reconnects as needed.

        Raises AuthError (the session was refused or revoked) or ConnectionLost (``max_retries`` exhausted)."""
        if self._ws is None:
            await self.connect()
        while True:
            ws = self._ws
            assert ws is not None
            try:
                raw = await ws.recv()
            except ConnectionClosed as err:
                if self._closing:
                    return
                failure = self._closed_error(err)
                if isinstance(failure, AuthError):
                    raise failure from err
                attempt = await self._reconnect()
                yield Reconnected(attempt)
                continue
            try:
                message = json.loads(raw)
                if self.updates:
                    message = await self._fold(message, raw)
                    if message is None:
                        continue  # an update after a gap: the full state is on its way (resync)
                event = parse_event(message)
            except (ValueError, KeyError, TypeError) as err:
                event = ServerError("client/bad_message", f"could not read a server message: {err}: {raw!r:.200}")
            self._absorb(event)
            self._settle(event)
            if isinstance(event, ServerError) and event.code == "server/busy" and self._join is not None:
                self._join_again_soon(ws)
            yield event

    async def _fold(self, message: JSONObject, raw: str | bytes) -> JSONObject | None:
        """The full ``state`` an ``update`` stands for (any other message as it is); None after a gap, when the
        client has asked for the full state again."""
        kind = message.get("type")
        if kind == "state":
            self._held = Held(json.loads(raw))  # a copy of its own: the next update folds into it in place
            self._resyncing = False
            return message
        if kind != "update":
            return message
        held = self._held
        if held is not None:
            try:
                folded = held.fold(message)
            except (ValueError, KeyError, IndexError, TypeError):
                self._held = None  # part-folded: never used again
            else:
                folded["type"] = "state"
                return copy.deepcopy(folded)
        if not self._resyncing:
            self._resyncing = True
            await self.send({"type": "resync"})
        return None

    def _join_again_soon(self, ws: ClientConnection) -> None:
        """``server/busy``: the room is between two servers of a cluster; the join is sent again in a moment."""

        async def later() -> None:
            await asyncio.sleep(BUSY_RETRY_S)
            if self._ws is ws and not self._closing and self._join is not None:
                with contextlib.suppress(ConnectionClosed):
                    await self.send(self._join)

        task = asyncio.get_running_loop().create_task(later())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def play(self, decide: Any, *, until_match_end: bool = True) -> MatchEnd | None:
        """Run a bot: ``await decide(state)`` (or a plain function) returns the action JSON for each state in which
        the seat is awaited; returns at the end of the match (or never, with ``until_match_end=False``). An action
        the server drops for the connection's message rate (``rate/limited``) is sent again after a pause.

        A match that ended while the connection was down is noticed from the snapshot (the room's ``last_match``)."""
        playing: str | None = None
        sent: tuple[str | int, Mapping[str, Any], State] | None = None  # the last action: ref, action, its state
        pause = RATE_RETRY_S
        async for event in self.events():
            if isinstance(event, State):
                playing = event.match_id if event.seat is not None else playing
                if event.my_turn:
                    choice = decide(event)
                    if asyncio.iscoroutine(choice):
                        choice = await choice
                    sent = (await self.act(choice, event), choice, event)
                    pause = RATE_RETRY_S
            elif isinstance(event, ServerError) and event.code == "rate/limited" and sent and event.ref == sent[0]:
                # A bot faster than the connection's message rate: the action was dropped, and no state will
                # come until it is sent again. Wait, then send it again for the same state (a newer state, if
                # one came meanwhile, makes it a harmless ``action/stale_state`` and is answered next).
                await asyncio.sleep(pause)
                pause = min(RATE_RETRY_MAX_S, pause * 2)
                sent = (await self.act(sent[1], sent[2]), sent[1], sent[2])
            elif isinstance(event, MatchEnd) and until_match_end:
                return event
            elif isinstance(event, RoomUpdate) and until_match_end and playing is not None:
                last = event.room.get("last_match") or {}
                if last.get("id") == playing:
                    return MatchEnd(playing, list(last.get("placements") or []), str(last.get("history_url")))
        return None
