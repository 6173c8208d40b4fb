"""Guimenon's deck choice at the table (capability ``seat_setup``): a deck built and saved in the deck builder is picked
on the room page before the match (the shell's "your choice for the next match" panel, drawn by the game's
``renderSetup``), the seat's ready mark shows, and the match against a hard bot, played to the end through the page,
is played with that very deck: every card in the hand and on the board is one of it, and the exported history's setup
names it."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Route, WebSocketRoute, expect
from start_points import first_seed, start_point

from sefode.engine import Game

from .conftest import Server
from .helpers import catalogue, open_client, shoot, wait_ready
from .test_guimenon_table import wait_new_state, wait_turn

POOL = json.loads(
    (Path(__file__).resolve().parents[2] / "sefode" / "games" / "guimenon" / "client" / "cards.json").read_text(
        encoding="utf-8"
    )
)
PT = catalogue("pt-BR")
MY_CARDS = "els => els.map(e => e.dataset.card)"


def _fifth_turn(deck: object) -> dict[str, Any]:
    """Turn 5 of 6 of the match Ana's ``deck`` plays against the bot's default one, both to move, Ana holding 3 cards
    or more and one of hers on the board."""

    def until(game: Game[Any], state: Any) -> bool:
        view = game.view(state, 0)
        mine = [u for cell in view["board"] for u in cell["cards"][0] if not u.get("token") and not u.get("copy")]
        return bool(view["turn"] == 5 and view["awaiting"] == [0, 1] and view["hand_counts"][0] >= 3 and mine)

    def find(seed: int) -> dict[str, Any] | None:
        try:
            return start_point("guimenon", {}, until, seed=seed, setups=[deck, None])
        except AssertionError:
            return None

    return first_seed(find)


def test_a_deck_built_in_the_builder_is_picked_at_the_table_and_played_to_the_end(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    rng = random.Random(5)
    # Cheap cards first, so that turns have plays; 13 of them, unlike any ready deck.
    chosen = [c["id"] for c in sorted(POOL["cards"], key=lambda c: (c["cost"], c["id"]))[:13]]
    assert all(sorted(chosen) != sorted(d["cards"]) for d in POOL["decks"])
    client = open_client(browser, shared_server.url, record_frames=True)
    page = client.page
    page.goto("/games/guimenon/decks")
    page.wait_for_selector("[data-testid=game-page-decks][data-ready='1']")
    for card in chosen:
        page.get_by_test_id(f"builder-pool-{card}").click()
    expect(page.get_by_test_id("builder-status")).to_have_attribute("data-valid", "1")
    page.get_by_test_id("builder-nickname").fill("Ana")
    page.get_by_test_id("builder-name").fill("Meu Deck")
    page.get_by_test_id("builder-save").click()
    expect(page.get_by_test_id("builder-saved-meu-deck")).to_contain_text("Meu Deck (13)")

    # The room's WebSocket goes through the test, which can spoil a seat_setup message on its way to the server, and
    # which starts the match (Ana's "start") at its fifth turn, dealt with the deck she chose (tests/start_points.py).
    spoil = {"on": False}
    spoiled: list[object] = []
    decks: list[object] = []

    def route(ws: WebSocketRoute) -> None:
        server_side = ws.connect_to_server()

        def to_server(message: str | bytes) -> None:
            text = message.decode() if isinstance(message, bytes) else message
            data = json.loads(text)
            if spoil["on"] and data.get("type") == "seat_setup":
                spoiled.append(data["value"])
                text = json.dumps({"type": "seat_setup", "value": ["no-such-card"]})
            elif data.get("type") == "seat_setup":
                decks.append(data["value"])
            elif data.get("type") == "start":
                text = json.dumps({**data, "start": _fifth_turn(decks[-1])})
            server_side.send(text)

        ws.on_message(to_server)

    page.route_web_socket(re.compile(r"/ws$"), route)
    # A room with a hard bot on the other seat; the panel offers the ready decks and the saved one.
    page.goto("/")
    wait_ready(page)
    page.get_by_test_id("nickname").fill("Ana")
    page.get_by_test_id("create-game").select_option("guimenon")
    page.get_by_test_id("create-name").fill("Guimenon")
    page.get_by_test_id("create-visibility").select_option("invite")
    page.get_by_test_id("create-room").click()
    expect(page.get_by_test_id("room-page")).to_be_visible()
    page.get_by_test_id("seat-bot-1").select_option("hard")
    expect(page.get_by_test_id("seat-row-1")).to_contain_text(PT["level.hard"])
    panel = page.get_by_test_id("seat-setup")
    expect(panel).to_contain_text(PT["setup.title"])
    expect(panel.locator("[data-testid^=gm-setup-ready-]")).to_have_count(len(POOL["decks"]))
    expect(panel.get_by_test_id("gm-setup-builder")).to_have_attribute("href", "/games/guimenon/decks")
    expect(panel.get_by_test_id("setup-ready-0")).to_have_attribute("data-ready", "0")
    expect(panel.get_by_test_id("setup-ready-1")).to_contain_text(PT["setup.bot"])
    # A ready deck first, then the saved one: the choice moves, and the seat is marked ready.
    first_ready = POOL["decks"][0]["id"]
    panel.get_by_test_id(f"gm-setup-ready-{first_ready}").click()
    expect(panel.get_by_test_id(f"gm-setup-ready-{first_ready}")).to_have_attribute("aria-pressed", "true")
    expect(panel.get_by_test_id("setup-ready-0")).to_have_attribute("data-ready", "1")
    saved = panel.get_by_test_id("gm-setup-saved-meu-deck")
    expect(saved).to_contain_text("Meu Deck (13)")
    saved.click()
    expect(saved).to_have_attribute("aria-pressed", "true")
    expect(panel.get_by_test_id(f"gm-setup-ready-{first_ready}")).to_have_attribute("aria-pressed", "false")
    shoot(page, artifacts, "01-guimenon-deck-choice")
    # A refusal from the server is shown to the player: the next choice is spoilt on its way (a deck of one unknown
    # card), the server answers setup/bad_deck, and the choice stays the saved deck.
    spoil["on"] = True
    panel.get_by_test_id(f"gm-setup-ready-{first_ready}").click()
    expect(panel.get_by_test_id("setup-error")).to_have_text(PT["error.setup/bad_deck"])
    spoil["on"] = False
    expect(saved).to_have_attribute("aria-pressed", "true")
    assert spoiled == [first_ready]

    page.get_by_test_id("start-match").click()
    expect(page.get_by_test_id("table")).to_have_attribute("data-game", "guimenon")
    seen: set[str] = set()
    for _step in range(80):
        kind = wait_turn(page)
        seen |= set(page.locator("[data-testid=gm-hand] .gm-card").evaluate_all(MY_CARDS))
        if kind == "over":
            break
        before = page.get_by_test_id("table").get_attribute("data-version")
        if kind == "discard":
            page.locator("[data-testid=gm-hand] .gm-playable").first.click()
            wait_new_state(page, before)
            continue
        playable = page.locator("[data-testid=gm-hand] .gm-playable")
        if playable.count() and rng.random() < 0.85:
            playable.nth(rng.randrange(playable.count())).click()
            targets = page.locator(".gm-loc.gm-target")
            expect(targets.first).to_be_visible()
            targets.nth(rng.randrange(targets.count())).click()
            wait_new_state(page, before)
            continue
        page.get_by_test_id("gm-confirm").click()
        wait_new_state(page, before)
    else:
        raise AssertionError("the match should end within 80 steps")
    # Every card the page showed in my hand is one of the deck I built (3 in the opening hand, then draws), and so is
    # every card of mine revealed on the board that the match did not create (tokens, copies).
    assert len(seen) >= 3 and seen <= set(chosen), sorted(seen - set(chosen))
    mine = {
        u["card"]
        for f in client.frames
        if isinstance(f.get("view"), dict) and f["view"].get("board")
        for cell in f["view"]["board"]
        for u in cell["cards"][0]
        if not u.get("token") and not u.get("copy")
    }
    assert mine and mine <= set(chosen), sorted(mine - set(chosen))
    placements = page.get_by_test_id("end-overlay").get_by_test_id("placements")
    expect(placements.locator("li")).to_have_count(2)
    href = placements.get_by_test_id("download-history").get_attribute("href")
    assert href
    history = json.loads(page.request.get(href).text())
    assert history["game"] == "guimenon"
    assert sorted(history["decks"][0]) == sorted(chosen)
    assert history["decks"][1] != history["decks"][0]
    # Back in the room, the panel is there again for the next match, with the saved deck still chosen.
    page.get_by_test_id("end-close").click()
    expect(page.get_by_test_id("seat-setup").first.get_by_test_id("gm-setup-saved-meu-deck")).to_have_attribute(
        "aria-pressed", "true"
    )
    assert client.errors == []
    client.close()


def test_without_a_render_setup_the_shell_draws_the_ready_choices_as_buttons(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    """The game-neutral part: a module that exports no renderSetup (Guimenon's module served without it) gets the
    shell's buttons, one per room.setup.choices[], labelled by its catalogue key; a click chooses, marks the seat
    ready, and the choice comes back after a reload (the server's private answer on join)."""
    client = open_client(browser, shared_server.url)
    page = client.page

    def without_render_setup(route: Route) -> None:
        response = route.fetch()
        body = response.text()
        assert "export function renderSetup(" in body
        route.fulfill(response=response, body=body.replace("export function renderSetup(", "function renderSetup("))

    page.route(re.compile(r"/games/guimenon/client/index\.js(\?.*)?$"), without_render_setup)
    page.goto("/")
    wait_ready(page)
    page.get_by_test_id("nickname").fill("Bia")
    page.get_by_test_id("create-game").select_option("guimenon")
    page.get_by_test_id("create-name").fill("Guimenon")
    page.get_by_test_id("create-visibility").select_option("invite")
    page.get_by_test_id("create-room").click()
    panel = page.get_by_test_id("seat-setup")
    expect(panel).to_be_visible()
    expect(panel.get_by_test_id("gm-setup")).to_have_count(0)
    buttons = panel.locator("[data-testid^=setup-choice-]")
    expect(buttons).to_have_count(len(POOL["decks"]))
    labels = [PT[f"guimenon.deck.{d['id']}"] for d in POOL["decks"]]
    assert sorted(buttons.all_inner_texts()) == sorted(labels)
    expect(panel.get_by_test_id("setup-ready-0")).to_have_attribute("data-ready", "0")
    panel.get_by_test_id("setup-choice-2").click()
    expect(panel.get_by_test_id("setup-choice-2")).to_have_attribute("aria-pressed", "true")
    expect(panel.get_by_test_id("setup-ready-0")).to_have_attribute("data-ready", "1")
    shoot(page, artifacts, "01-shell-setup-buttons")
    page.reload()
    panel = page.get_by_test_id("seat-setup")
    expect(panel.get_by_test_id("setup-choice-2")).to_have_attribute("aria-pressed", "true")
    expect(panel.get_by_test_id("setup-choice-0")).to_have_attribute("aria-pressed", "false")
    assert client.errors == []
    client.close()
