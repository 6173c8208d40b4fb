"""The server keeps an idle HTTP connection open longer than the clients that reuse theirs for 5 s, so that a client
always closes an idle connection first and never sends a request on one the server is closing (``KEEP_ALIVE_S``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

import sefode.server.main as main
from sefode.server import logs

NODE_AGENT_IDLE_S = 5.0
"""Node's default http agent (Node 19 and later: keep-alive, a 5 s socket timeout), which Playwright's requests use."""


def test_the_server_keeps_an_idle_connection_longer_than_its_clients_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'db.sqlite3'}")
    configs: list[Any] = []

    class Captured:
        def run(self) -> None:
            pass

    def capture(config: Any, hub: Any) -> Captured:
        configs.append(config)
        return Captured()

    monkeypatch.setattr(main, "_draining_server", capture)
    monkeypatch.setattr(logs, "setup_logging", lambda: None)  # it would stop the sefode logger propagating
    assert main.serve("127.0.0.1", 0) == 0
    (config,) = configs
    config.app.state.hub.store.close()
    httpx_idle = httpx.Limits(max_connections=None).keepalive_expiry
    assert httpx_idle is not None
    assert config.timeout_keep_alive > max(NODE_AGENT_IDLE_S, httpx_idle)
