"""Issue 28, metrics: ``/metrics`` in the Prometheus text format, its numbers moving during a match, and who may
read it (a token when ``SEFODE_METRICS_TOKEN`` is set; else only a loopback server, to a loopback peer)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from prometheus_client.parser import text_string_to_metric_families
from server_helpers import Client, LiveServer, running_server
from table_helpers import start, wait_state

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def play_until(client: Client, version: int) -> None:
    """Play the first legal action at each of the client's turns until the match reaches ``version``."""
    state = client.state
    while state is None or state["version"] < version:
        assert state is not None and not state["over"], "the match ended early"
        if state["seat"] in state["awaiting"] and state["legal"]:
            client.send("action", action=state["legal"][0]["action"], version=state["version"])
        state = wait_state(client, lambda m: True)


def scrape(srv: LiveServer, **headers: str) -> Samples:
    response = srv.http.get("/metrics", headers=headers)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    samples: Samples = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def total(samples: Samples, name: str, **labels: str) -> float:
    """The sum of ``name`` over every label set that includes ``labels``."""
    wanted = set(labels.items())
    return sum(v for (n, lab), v in samples.items() if n == name and wanted <= set(lab))


def test_metrics_are_present_and_move_during_a_solo_match_against_bots(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 'm.sqlite3'}") as srv:
        before = scrape(srv)
        ana = srv.player("Ana")
        created = ana.create_room(
            name="Solo", options={"players": 3, "lives": 5}, bots={"1": "easy", "2": "normal"}, clock_s=300
        )
        client = ana.connect()
        assert client.join(created["room_id"])["type"] == "room"
        start(client)
        play_until(client, 6)
        during = scrape(srv)

        assert value(during, "sefode_rooms", game="fodinha", state="playing") >= 1
        assert value(during, "sefode_matches", game="fodinha", state="playing") >= 1
        assert value(during, "sefode_connected_sockets") >= 1
        assert value(during, "process_resident_memory_bytes") > 0
        moved = {
            "matches started": ("sefode_matches_started_total", {"game": "fodinha"}),
            "actions by people": ("sefode_actions_total", {"game": "fodinha", "source": "human"}),
            "actions by bots": ("sefode_actions_total", {"game": "fodinha", "source": "bot"}),
            "action-to-update latency": ("sefode_action_update_seconds_count", {"game": "fodinha"}),
            "store writes of actions": ("sefode_store_write_seconds_count", {"kind": "actions"}),
            "store writes of rooms": ("sefode_store_write_seconds_count", {"kind": "room"}),
            "bot decisions": ("sefode_bot_decision_seconds_count", {"game": "fodinha"}),
        }
        for what, (name, labels) in moved.items():
            assert total(during, name, **labels) > total(before, name, **labels), what
        assert total(during, "sefode_bot_decision_seconds_count", level="easy") > total(
            before, "sefode_bot_decision_seconds_count", level="easy"
        )

        # A stale action is refused, and counted by its code.
        stale = client.error("action", action={"bid": 0}, version=10**6)
        assert stale["code"] == "action/stale_state"
        # Reactions beyond their limit are refused by the limit, and counted.
        for _ in range(8):
            client.send("react", reaction="gg")
        client.wait(lambda m: m["type"] == "error" and m["code"] == "rate/limited")
        # A wrong password at login.
        answer = srv.http.post("/api/account/login", json={"username": "nobody", "password": "wrong horse"})
        assert answer.status_code == 401
        after = scrape(srv)
        assert value(after, "sefode_refused_total", code="action/stale_state") > value(
            before, "sefode_refused_total", code="action/stale_state"
        )
        assert value(after, "sefode_rate_limited_total", limit="reactions") > value(
            before, "sefode_rate_limited_total", limit="reactions"
        )
        assert total(after, "sefode_login_failures_total") > total(before, "sefode_login_failures_total")
        client.close()


def _status(srv: LiveServer, **headers: str) -> int:
    code: int = srv.http.get("/metrics", headers=headers).status_code
    return code


def test_a_metrics_token_is_required_when_configured(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 'm.sqlite3'}", metrics_token="s3cret-token") as srv:
        assert _status(srv) == 404
        assert _status(srv, authorization="Bearer wrong") == 404
        assert _status(srv, authorization="Bearer s3cret-token") == 200
        scrape(srv, authorization="Bearer s3cret-token")


def test_without_a_token_metrics_are_off_on_a_public_address_and_for_proxied_requests(tmp_path: Path) -> None:
    options: dict[str, Any] = {"listen_host": "0.0.0.0"}
    with running_server(f"sqlite:///{tmp_path / 'a.sqlite3'}", **options) as public:
        assert _status(public) == 404
    with running_server(f"sqlite:///{tmp_path / 'b.sqlite3'}") as local:
        assert _status(local) == 200
        assert _status(local, **{"x-forwarded-for": "203.0.113.9"}) == 404
