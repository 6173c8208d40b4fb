"""Deadlines for slow clients (docs/security.md, "Slow clients"; docs/cluster.md for nginx in front).

uvicorn closes an idle keep-alive connection after ``timeout_keep_alive``, but it waits for ever for a request head
that never completes: 1,500 connections each sending half a header held the server until it ran out of file
descriptors (slowloris). ``HeadDeadline`` is uvicorn's own httptools protocol with one more timer: a request's head
(its request line and headers) must arrive complete within ``head_timeout_s()`` of the connection opening, or of the
request's first byte, else the connection is closed. The body has a deadline of its own (``body_timeout_s``), enforced
where it is read (``sefode.server.routes.common.read_body``).
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

HEAD_TIMEOUT_S = 10.0
BODY_TIMEOUT_S = 20.0


def _seconds(variable: str, default: float) -> float:
    try:
        value = float(os.environ.get(variable, default))
    except ValueError:
        return default
    return value if value > 0 else default


def head_timeout_s() -> float:
    """``SEFODE_HEAD_TIMEOUT_S``, else ``HEAD_TIMEOUT_S``."""
    return _seconds("SEFODE_HEAD_TIMEOUT_S", HEAD_TIMEOUT_S)


def body_timeout_s() -> float:
    """``SEFODE_BODY_TIMEOUT_S``, else ``BODY_TIMEOUT_S``."""
    return _seconds("SEFODE_BODY_TIMEOUT_S", BODY_TIMEOUT_S)


def http_protocol() -> Any:
    """What to give uvicorn's ``http`` setting: ``HeadDeadline``, or ``"auto"`` without httptools."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # pragma: no cover - uvicorn[standard] brings httptools
        return "auto"

    class HeadDeadline(HttpToolsProtocol):
        """uvicorn's httptools protocol, closing a connection whose request head is late."""

        _head_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            if self._head_timer is None:
                self._head_timer = self.loop.call_later(head_timeout_s(), self._head_late)

        def _disarm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_late(self) -> None:
            self._head_timer = None
            if not self.transport.is_closing():
                self.transport.close()

    return HeadDeadline
