"""Many nodes (issue 14): room leases on Redis, fencing tokens in the store, forwarding over Redis pub/sub.

A node of a cluster (``sefode serve --redis redis://…`` with ``DATABASE_URL=postgresql://…``) holds the rooms it
owns. Ownership is a Redis lease per room with a fencing epoch (``ownership``); every write a node makes for a room
carries ``(room, epoch, node)`` and the store refuses an older epoch (``sefode.store.db.check_fence``).

Any node serves any player by **forwarding**: the node a WebSocket is connected to (its *edge*, ``edge``) sends the
client's messages for a room owned elsewhere to the owner's channel, and the owner (``stand_ins``) sends that
connection's messages back to the edge's channel (``bus``). When a room changes owner (death, pause, drain), the
edges re-join their connections at the new owner. ``node.Cluster`` wires the parts; see docs/cluster.md.
"""

from sefode.server.cluster.edge import JOIN_TIMEOUT_S, REJOIN_PAUSE_S, REJOIN_TRIES, Routed
from sefode.server.cluster.node import DEFAULT_TTL_MS, Cluster
from sefode.server.cluster.ownership import Lease
from sefode.server.cluster.stand_ins import CLOSE_TRY_AGAIN, RemoteConnection

__all__ = [
    "CLOSE_TRY_AGAIN",
    "DEFAULT_TTL_MS",
    "JOIN_TIMEOUT_S",
    "REJOIN_PAUSE_S",
    "REJOIN_TRIES",
    "Cluster",
    "Lease",
    "RemoteConnection",
    "Routed",
]
