"""Browser test (issue 15 §1): an outside bot is marked as a bot everywhere the page names it. A registered player
makes a bot account and a room where outside bots may sit; the starter bot (``examples/bots/random_bot.py``, through
``sefode.client``) joins it with the bot's token and takes seat 1. The page then shows the bot mark, as text that is
part of the accessible name, on that seat in the lobby's room list (its count of bots), in the room's seat list, in
chat, on the table's seat, in the end-of-match panel, in the replay viewer and on the bot's own profile. Nothing is
mocked."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from playwright.sync_api import Browser, ViewportSize, expect
from websockets.sync.client import connect

from .conftest import DESKTOP, MOBILE, ROOT, Server
from .helpers import api, catalogue, open_client, play_until_over, shoot, unique, wait_ready

PT: dict[str, str] = catalogue("pt-BR")
RANDOM_BOT = ROOT / "examples" / "bots" / "random_bot.py"
WIDE: ViewportSize = {"width": 1366, "height": 800}
WAIT_S = 60


def _marked(name: str) -> str:
    return PT["seat.bot_account_named"].replace("{name}", name)


def test_an_outside_bot_is_marked_in_the_lobby_the_table_the_end_and_the_replay(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    server = shared_server
    guest = api(f"{server.url}/api/session", "POST", body={"name": "Ana"})
    owner = api(
        f"{server.url}/api/account/register",
        "POST",
        guest["token"],
        {"username": unique("ana"), "password": "correct horse"},
    )
    token = owner["token"]
    bot = api(f"{server.url}/api/account/bots", "POST", token, {"name": "Robô"})
    room = api(
        f"{server.url}/api/rooms",
        "POST",
        token,
        {"name": "Mesa com robô", "options": {"players": 2, "lives": 1, "max_cards": 2}, "outside_bots": True},
    )
    room_id = room["room_id"]

    client = open_client(browser, server.url, MOBILE, reduced_motion=True)  # shorter trick pauses
    page = client.page
    page.goto("/")
    wait_ready(page)
    page.evaluate("(token) => localStorage.setItem('sefode.token', token)", token)
    page.goto(f"/room/{room_id}")
    wait_ready(page)
    expect(page.get_by_test_id("seat-list")).to_be_visible()

    command = [sys.executable, str(RANDOM_BOT), f"--url={server.url}", f"--token={bot['token']}", f"--room={room_id}"]
    proc = subprocess.Popen(
        [*command, "--seat", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        # The room's seat list: the bot's name and the mark, one accessible text.
        row = page.get_by_test_id("seat-row-1")
        expect(row.get_by_test_id("seat-bot-mark-1")).to_have_text(PT["seat.bot_mark"], timeout=WAIT_S * 1000)
        expect(row).to_contain_text("Robô")
        expect(page.get_by_test_id("seat-row-0").get_by_test_id("seat-bot-mark-0")).to_have_count(0)
        shoot(page, artifacts, "seat-list", (MOBILE, WIDE))

        # Chat: the bot says hello (another socket with its token); the page marks the sender.
        with connect(server.url.replace("http", "ws", 1) + "/ws", open_timeout=WAIT_S) as ws:
            ws.send(json.dumps({"type": "auth", "token": bot["token"]}))
            ws.send(json.dumps({"type": "join", "room": room_id}))
            ws.send(json.dumps({"type": "chat", "text": "Olá, sou um programa"}))
            while json.loads(ws.recv(timeout=WAIT_S))["type"] != "chat":  # hello, room, then the chat itself
                pass
        page.get_by_test_id("tab-chat").click()
        line = page.get_by_test_id("chat-list").locator(".chat-msg").filter(has_text="Olá, sou um programa")
        expect(line.get_by_test_id("chat-bot-mark")).to_have_text(PT["seat.bot_mark"])
        expect(line).to_contain_text(f"Robô {PT['seat.bot_mark']}")
        shoot(page, artifacts, "chat", (MOBILE, WIDE))

        # The lobby's room list says how many bots hold a seat.
        lobby = open_client(browser, server.url, DESKTOP)
        lobby.page.goto("/")
        wait_ready(lobby.page)
        item = lobby.page.get_by_test_id(f"lobby-room-{room_id}")
        expect(item).to_contain_text(PT["lobby.bots.one"])
        shoot(lobby.page, artifacts, "lobby", (MOBILE, WIDE))
        lobby.close()

        page.get_by_test_id("start-match").click()
        seat = page.get_by_test_id("seat-1")
        expect(seat.locator(".seat-name")).to_have_text(_marked("Robô"), timeout=WAIT_S * 1000)
        expect(seat.locator(".seat-name")).to_have_attribute("title", _marked("Robô"))
        shoot(page, artifacts, "table", (MOBILE, WIDE))
        play_until_over([client], random.Random(3))
        # The end-of-match panel.
        expect(page.get_by_test_id("end-overlay").get_by_test_id("place-1")).to_contain_text(_marked("Robô"))
        shoot(page, artifacts, "end", (MOBILE, WIDE))
        history_url = page.get_by_test_id("end-overlay").get_by_test_id("download-history").get_attribute("href")
        assert history_url is not None and history_url.startswith("/api/matches/")
        match_id = history_url.split("/")[3]
        out, err = proc.communicate(timeout=WAIT_S)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=WAIT_S)
    assert proc.returncode == 0, err
    assert json.loads(out.strip().splitlines()[-1])["placements"] is not None

    # The replay viewer, opened directly (no profile row kept): the history's own seats mark the bot.
    page.goto(f"/replay/{match_id}")
    wait_ready(page)
    expect(page.get_by_test_id("replay-place-1")).to_contain_text(_marked("Robô"))
    expect(page.get_by_test_id("replay-place-0")).not_to_contain_text(PT["seat.bot_mark"])
    expect(page.get_by_test_id("analysis-seat").locator("option[value='1']")).to_contain_text(_marked("Robô"))
    shoot(page, artifacts, "replay", (MOBILE, WIDE))

    # The bot account's profile says it is a bot, in its heading.
    page.goto(f"/players/{bot['bot_id']}")
    wait_ready(page)
    heading = page.get_by_test_id("profile-name")
    expect(heading.get_by_test_id("profile-bot")).to_have_text(PT["seat.bot_mark"])
    expect(page.get_by_role("heading", name=f"Robô {PT['seat.bot_mark']}")).to_be_visible()
    expect(page.get_by_test_id("profile-bot-note")).to_have_text(PT["prof.bot_note"])
    shoot(page, artifacts, "profile", (MOBILE, WIDE))
    assert client.errors == []
    client.close()
