"""Where rooms live, as the hub sees it: one protocol, two implementations.

A *peer* is anything a room sends messages to: a WebSocket on this node (``hub.Connection``) or, in a cluster, the
owner's stand-in for a WebSocket held by another node (``cluster.stand_ins.RemoteConnection``). Rooms and the hub
handle both through :class:`Peer` alone.

A *placement* decides which node holds a room: :class:`LocalPlacement` (one node holds every room, loaded at start)
and ``cluster.node.Cluster`` (rooms leased over Redis, writes fenced, players forwarded). The hub calls a placement
without asking which it is; a placement calls the hub back only through :class:`Host`. Neither ``hub`` nor
``cluster`` imports the other at run time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from sefode.server.room import Room
    from sefode.store import Store
    from sefode.store.db import Fence

T = TypeVar("T")


class Peer(Protocol):
    """One player's link to a room, local or forwarded."""

    id: int
    player_id: str
    room: Room | None
    client: str
    """The peer's address (the key of the per-client limits)."""
    closed: bool
    close_code: int | None
    last_join: dict[str, Any] | None
    """The last ``join`` sent (to join again when the room moves to another node)."""

    def send(self, message: dict[str, Any]) -> None: ...

    def send_text(self, text: str) -> None: ...

    def error(self, code: str, message: str, ref: Any = None) -> None: ...

    def end(self, close_code: int) -> None:
        """Close the link from the server's side; from now on it handles no message."""
        ...


class Host(Protocol):
    """What a placement may ask of the hub."""

    store: Store

    @property
    def rooms(self) -> Mapping[str, Room]: ...

    @property
    def connections(self) -> Iterable[Peer]: ...

    async def db(self, fn: Callable[..., T], *args: Any) -> T: ...

    async def load_rooms(self) -> None:
        """Load and restore every stored room (one node holds them all)."""
        ...

    async def adopt(self, room_id: str, data: dict[str, Any], invite: str) -> Room:
        """Hold ``room_id`` here from now on, rebuilt from the store."""
        ...

    def drop_room(self, room_id: str) -> Room | None:
        """Hold ``room_id`` here no more (the caller closes it and moves its peers); the room, if it was held."""
        ...

    async def room_exists(self, room_id: str) -> bool: ...

    async def enter(self, peer: Peer, msg: dict[str, Any]) -> None:
        """Join ``peer`` to a room held here (``msg`` is a ``join``), without asking the placement where it is."""
        ...

    async def handle(self, peer: Peer, msg: dict[str, Any]) -> None: ...

    async def hear(self, env: dict[str, Any]) -> None:
        """Another node's word (sent with ``Placement.tell_all``) on what every node keeps of the store: blocks,
        moderators' actions, ended sessions (``sefode.server.nodewide``)."""
        ...


class Placement(Protocol):
    """Which node holds a room, and how a peer reaches it. Every method is called by the hub."""

    async def open(self) -> None:
        """Start: take the rooms this node begins with."""
        ...

    async def close(self) -> None: ...

    def fence(self, room_id: str) -> Fence | None:
        """The fencing token of a write for ``room_id`` (None: writes need none); ``FencedOut`` when this node may
        no longer write for it."""
        ...

    async def lose(self, room_id: str, why: str) -> None:
        """Stop acting for ``room_id`` at once (a write was fenced out)."""
        ...

    async def create(self, room_id: str) -> Fence | None:
        """A room made here, before it is stored."""
        ...

    async def find_invite(self, invite: str) -> str | None:
        """The room of an invite this node does not hold, if another node may (None: no such room)."""
        ...

    def forward(self, peer: Peer, msg: dict[str, Any]) -> bool:
        """Send ``msg`` to the node that holds ``peer``'s room, if not this one (True: sent)."""
        ...

    async def route(self, peer: Peer, msg: dict[str, Any]) -> bool:
        """A ``join``: True if the room is held elsewhere and ``peer`` was joined there; False to enter it here."""
        ...

    async def password_guard(self, room: Room, peer: Peer, msg: dict[str, Any]) -> dict[str, Any]:
        """The ``join`` to use once any placement-wide password backoff has been applied."""
        ...

    def disconnect(self, peer: Peer) -> None: ...

    async def tell_all(self, envelope: dict[str, Any]) -> None:
        """Tell every other node ``envelope`` (each applies it through ``Host.hear``)."""
        ...

    async def release(self, room_id: str) -> None:
        """Give ``room_id`` up for good (a moderator closed it): no node serves it again."""
        ...


class LocalPlacement:
    """One node holds every room: loaded at start, no fences, nothing forwarded (the password backoff is the
    single node's, in ``routes.ws``)."""

    def __init__(self, host: Host) -> None:
        self.host = host

    async def open(self) -> None:
        await self.host.load_rooms()

    async def close(self) -> None:
        return None

    def fence(self, room_id: str) -> Fence | None:
        return None

    async def lose(self, room_id: str, why: str) -> None:
        return None

    async def create(self, room_id: str) -> Fence | None:
        return None

    async def find_invite(self, invite: str) -> str | None:
        return None

    def forward(self, peer: Peer, msg: dict[str, Any]) -> bool:
        return False

    async def route(self, peer: Peer, msg: dict[str, Any]) -> bool:
        return False

    async def password_guard(self, room: Room, peer: Peer, msg: dict[str, Any]) -> dict[str, Any]:
        return msg

    def disconnect(self, peer: Peer) -> None:
        return None

    async def tell_all(self, envelope: dict[str, Any]) -> None:
        return None  # no other node

    async def release(self, room_id: str) -> None:
        return None
