"""Ports for the servers the tests start.

A port the kernel picks (``bind(("127.0.0.1", 0))``) comes from its ephemeral range, the same range it takes the
source ports of outgoing connections from: between the test's check and the server's own bind, a browser's or a
database client's connection can take it (run S1 of 2026-12-03: ``address already in use``). :func:`free_port` picks a
port below that range instead, where no outgoing connection goes, from a band of its own for each xdist worker, and
checks that nothing listens there. A server started in the test's own process needs no port at all ahead of time:
:func:`listening_socket` binds one and the server is handed the socket.
"""

from __future__ import annotations

import os
import random
import socket
from pathlib import Path

LOWEST = 10_000
BANDS = 8
"""Workers get a band each (worker ``gwN`` the band ``N mod BANDS``), so two workers never try the same port."""

_given: set[int] = set()


def _ephemeral_low() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32_768


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on, outside the kernel's ephemeral range, not given before in this
    process."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    index = int(worker[2:]) if worker[2:].isdigit() else 0
    high = max(LOWEST + 4 * BANDS, min(_ephemeral_low(), 65_536))
    span = (high - LOWEST) // BANDS
    start = LOWEST + (index % BANDS) * span
    pick = random.SystemRandom()  # not seeded: two runs on one machine do not walk the same ports
    for _ in range(500):
        port = start + pick.randrange(span)
        if port in _given:
            continue
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
        _given.add(port)
        return port
    raise RuntimeError(f"no free port in {start}..{start + span - 1}")


def listening_socket() -> socket.socket:
    """A socket bound to a free port of 127.0.0.1, for a server in this process to listen on."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock
