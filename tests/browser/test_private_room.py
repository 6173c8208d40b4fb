"""Browser test 2: two players join a private room through its invite link and play, while a spectator watches
and never receives a hidden card."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from .conftest import DESKTOP, MOBILE, Server
from .helpers import Client, create_invite_room, open_client, play_until_over, shoot, start_at, wait_ready

PUBLIC_KEYS = ("trick", "tricks", "last_hand", "manilhas", "vira")
SEED = 2
"""The deal of the match (a start point of no actions: ``tests/start_points.py``): every run plays the same match, the
humans' seeded random choices included, and with this deal it ends in the second hand (8 decisions; the first seed
took 38). Any deal passes the checks; this one only makes them quick."""


def _states(client: Client) -> list[dict[str, Any]]:
    return [f for f in client.frames if f.get("type") == "state"]


def _join_by_invite(client: Client, invite_url: str, name: str) -> None:
    page = client.page
    page.goto(invite_url)
    wait_ready(page)
    page.get_by_test_id("nickname").fill(name)
    page.get_by_test_id("nickname-submit").click()
    expect(page.get_by_test_id("room-page")).to_be_visible()
    expect(page.get_by_test_id("room-name")).to_have_text("Mesa secreta")


@pytest.mark.slow
def test_invite_room_players_play_and_spectator_never_receives_hidden_cards(
    browser: Browser, server: Server, artifacts: Path
) -> None:
    rng = random.Random(7)
    ana = open_client(browser, server.url, MOBILE, record_frames=True)
    bia = open_client(browser, server.url, DESKTOP, record_frames=True)
    caio = open_client(browser, server.url, MOBILE, record_frames=True)
    for client in (ana, bia, caio):
        client.page.emulate_media(reduced_motion="reduce")  # a trick stays on show 0.4 s instead of 1.45 s

    # Ana's "start" begins the match at its first hand, dealt from SEED.
    start_at(ana.page, {"seed": SEED, "actions": []})

    # Ana creates an invite-only room for two: 2 lives, at most 3 cards.
    page = ana.page
    invite_url = create_invite_room(page, "Ana", "Mesa secreta", players=2)
    expect(page.get_by_test_id("seat-row-0")).to_contain_text("Ana")
    assert "/invite/" in invite_url

    # The room is not in the lobby, and its page is not reachable without the invite.
    lobby = json.loads(page.request.get("/api/rooms").text())
    assert all(room["name"] != "Mesa secreta" for room in lobby["rooms"])

    _join_by_invite(bia, invite_url, "Bia")
    bia.page.get_by_test_id("sit-1").click()
    expect(page.get_by_test_id("seat-row-1")).to_contain_text("Bia")
    _join_by_invite(caio, invite_url, "Caio")
    expect(caio.page.get_by_test_id("seat-row-1")).to_contain_text("Bia")
    expect(caio.page.get_by_test_id("start-match")).to_have_count(0)
    shoot(page, artifacts, "01-room")

    page.get_by_test_id("start-match").click()
    for client in (ana, bia, caio):
        expect(client.page.get_by_test_id("table")).to_be_visible()
    expect(caio.page.get_by_test_id("spectating")).to_be_visible()

    # Chat reaches the other player and the spectator.
    page.get_by_test_id("tab-chat").click()
    page.get_by_test_id("chat-input").fill("boa sorte!")
    page.get_by_test_id("chat-send").click()
    expect(bia.page.get_by_test_id("chat-list")).to_contain_text("boa sorte!")
    expect(caio.page.get_by_test_id("chat-list")).to_contain_text("boa sorte!")

    # In the one-card first hand Ana sees Bia's card but not her own; the spectator sees neither.
    expect(page.get_by_test_id("my-forehead-card")).to_be_visible()
    expect(page.locator("[data-testid=seat-hand-1] .card:not(.back)")).to_have_count(1)
    expect(caio.page.locator("[data-testid^=seat-hand-] .card:not(.back)")).to_have_count(0)
    shoot(caio.page, artifacts, "02-spectator-one-card")

    # The history of a match still on is refused to everyone (it would reveal the seed and the deals).
    match_id = _states(caio)[-1]["match_id"]
    assert caio.page.request.get(f"/api/matches/{match_id}/history").status == 409
    assert page.request.get(f"/api/matches/{match_id}/history").status == 409

    decisions = play_until_over((ana, bia), rng, max_decisions=300)
    expect(caio.page.get_by_test_id("end-overlay").get_by_test_id("placements")).to_be_visible()
    shoot(caio.page, artifacts, "03-spectator-end")

    # Every hidden hand, as its owner saw it at each version.
    held: dict[int, set[str]] = {}
    for client, seat in ((ana, 0), (bia, 1)):
        for frame in _states(client):
            assert frame["seat"] == seat
            cards = frame["view"]["hands"][seat]
            held.setdefault(frame["version"], set()).update(cards or [])
    # A player sees the other's hand only in one-card hands, and never their own there.
    for client, seat in ((ana, 0), (bia, 1)):
        for frame in _states(client):
            view = frame["view"]
            other = view["hands"][1 - seat]
            if view["phase"] == "over":
                continue
            if view["cards"] == 1:
                assert view["hands"][seat] is None
            else:
                assert other is None, f"seat {seat} received seat {1 - seat}'s hand at version {frame['version']}"
    spectator_states = _states(caio)
    assert len(spectator_states) >= decisions // 2
    for frame in spectator_states:
        view = frame["view"]
        assert frame["seat"] is None and view["seat"] is None
        assert frame["legal"] == [] and "legal" not in view
        assert view["hands"] == [None, None], f"the spectator received a hand at version {frame['version']}"
        private = {k: v for k, v in view.items() if k not in PUBLIC_KEYS}
        text = json.dumps(private)
        for card in held.get(frame["version"], set()):
            assert json.dumps(card) not in text, f"{card} leaked to the spectator at version {frame['version']}"
    # Once over, the history is out: the match was dealt from SEED, as Ana's start message asked.
    history = caio.page.request.get(f"/api/matches/{match_id}/history")
    assert history.status == 200 and json.loads(history.text())["seed"] == SEED
    # No other frame type carries a card either (room, chat, match_end, hello).
    for frame in caio.frames:
        if frame.get("type") not in ("state",):
            assert "hands" not in json.dumps(frame)
    for client in (ana, bia, caio):
        assert client.errors == []
        client.close()
