"""A server killed with SIGKILL mid-hand comes back with every match where it was."""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import time
from pathlib import Path

from ports import free_port
from server_helpers import LiveServer, serve_subprocess
from table_helpers import drive, settle, start, table, wait_state


def test_sigkill_mid_hand_then_restart_resumes_the_match_at_the_same_version_and_view(tmp_path: Path) -> None:
    port = free_port()
    env = {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'killed.sqlite3'}",
        "SEFODE_BOT_DELAY_S": "0",
        "SEFODE_DISCONNECT_GRACE_S": "600",
    }
    log = tmp_path / "server.log"
    proc = serve_subprocess(port, env, log)
    try:
        first = LiveServer(f"http://127.0.0.1:{port}", None)
        room_id, clients = table(first, ["Ana", "Bia"], {"players": 2, "lives": 5})
        start(clients[0], clients[1:])

        def into_a_hand() -> bool:
            state = clients[0].state
            if state is None:
                return False
            view = state["view"]
            return view["hand_number"] >= 2 and view["phase"] == "playing" and bool(view["trick"])

        drive(clients, into_a_hand)
        settle(clients)
        before = {c.player.id: c.state for c in clients}
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        assert proc.returncode == -signal.SIGKILL
        for client in clients:
            client.close()

        proc = serve_subprocess(port, env, log)
        second = LiveServer(f"http://127.0.0.1:{port}", None)
        again = []
        for client in clients:
            back = client.player.connect(second)
            room = back.join(room_id)["room"]
            assert room["status"] == "playing"
            state = wait_state(back, lambda m: True)
            old = before[client.player.id]
            assert old is not None
            assert state["match_id"] == old["match_id"]
            assert state["version"] == old["version"]
            assert state["view"] == old["view"]
            again.append(back)
        # and the match goes on from there
        on_turn = next(c for c in again if c.state and c.state["seat"] in c.state["awaiting"])
        assert on_turn.state is not None
        version = on_turn.state["version"]
        on_turn.send("action", action=on_turn.state["legal"][0]["action"], version=version)
        assert wait_state(on_turn, lambda m: m["version"] == version + 1)["events"]
        second.http.close()
        first.http.close()
    finally:
        proc.kill()
        proc.wait(10)
    assert "match.restored" in _log_events(log)


def _log_events(log: Path) -> set[str]:
    """The ``event`` names of the server's JSON log lines."""
    names = set()
    for line in log.read_text().splitlines():
        if line.startswith("{"):
            names.add(str(json.loads(line).get("event")))
    return names


def _children(pid: int) -> set[int]:
    """Live processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            found.add(int(entry.name))
    return found


def _wait_gone(pids: set[int], timeout: float) -> set[int]:
    """Block until each of ``pids`` has ended (a pidfd becomes readable when its process ends, zombie or not; any
    process, not only our children); returns those still running at the deadline."""
    fds: dict[int, int] = {}
    try:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):  # already gone (and reaped)
                fds[pid] = os.pidfd_open(pid)
        left = set(fds)
        deadline = time.monotonic() + timeout
        while left and (remaining := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([fds[p] for p in left], [], [], remaining)
            left -= {p for p in left if fds[p] in ready}
        return left
    finally:
        for fd in fds.values():
            os.close(fd)


def test_hard_bot_workers_do_not_outlive_a_killed_server(tmp_path: Path) -> None:
    port = free_port()
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "SEFODE_BOT_DELAY_S": "0"}
    proc = serve_subprocess(port, env, tmp_path / "server.log")
    try:
        srv = LiveServer(f"http://127.0.0.1:{port}", None)
        ana = srv.player("Ana")
        room_id = ana.post("/api/solo", {"variant": "sefode", "bots": 3, "level": "hard"}).json()["room_id"]
        client = ana.connect()
        client.join(room_id)
        workers: set[int] = set()
        deadline = time.monotonic() + 60
        while not workers:  # play our own turns until a hard bot has had to think in a worker process
            assert time.monotonic() < deadline, "no bot worker process was started"
            for message in client.poll():
                if message["type"] == "state" and message["seat"] in message["awaiting"] and message["legal"]:
                    client.send("action", action=message["legal"][0]["action"], version=message["version"])
            workers = _children(proc.pid)
            time.sleep(0.05)
        client.close()
        srv.http.close()
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        left = _wait_gone(workers, 20)
        assert not left, f"orphaned bot workers: {sorted(left)}"
    finally:
        proc.kill()
        proc.wait(10)
