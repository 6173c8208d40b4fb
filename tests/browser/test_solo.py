"""Browser test 1: a solo match against 3 bots, played in the page to the end by clicking bids and cards."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect
from start_points import before_the_end

from sefode.engine import Game

from .conftest import Server
from .helpers import enter_nickname, my_cards, open_client, open_solo, shoot, take_turn, wait_actionable, wait_ready


def _play(page: Page, rng: random.Random, artifacts: Path, seen: dict[str, bool], until_normal: bool = False) -> int:
    """Take the human's turns (random bids and cards) until the match ends, or (``until_normal``) until a hand of
    more than one card has been seen; check the one-card hand, a normal hand and the pé rule on the way."""
    decisions = 0
    while True:
        kind = wait_actionable(page)
        if kind == "over" or (until_normal and seen["normal"]):
            return decisions
        decisions += 1
        assert decisions < 400, "the match should end"
        hand_cards = page.locator("[data-testid=felt].one-card").count() == 1
        if kind == "bid" and hand_cards:
            # Mão na testa: my own card is face down; every other seat still in the hand shows its card.
            expect(page.get_by_test_id("my-forehead-card")).to_be_visible()
            assert my_cards(page) == []
            shown = page.locator("[data-testid^=seat-hand-] .card:not(.back)").count()
            backs = page.locator("[data-testid^=seat-hand-] .card.back").count()
            assert shown >= 1 and backs == 0
            if not seen["one_card"]:
                shoot(page, artifacts, "02-table-one-card")
            seen["one_card"] = True
        if kind == "bid" and not hand_cards:
            cards = page.get_by_test_id("my-hand").locator("[data-card]").count()
            assert cards >= 2
            if not seen["normal"]:
                shoot(page, artifacts, "03-table-normal")
            seen["normal"] = True
        if kind == "bid" and page.get_by_test_id("foot-rule").count():
            # The pé rule: the value that would make the bids add up is shown, and its button is disabled.
            forbidden = page.locator("button.bid.forbidden")
            expect(forbidden).to_have_count(1)
            expect(forbidden).to_be_disabled()
            seen["foot_rule"] = True
        take_turn(page, rng, kind)


def _seat_0_bids(game: Game[Any], state: Any) -> bool:
    return bool(game.view(state, 0)["phase"] == "bidding")


def test_solo_match_against_three_bots_is_played_in_the_page_to_the_end(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    rng = random.Random(3)
    client = open_client(browser, shared_server.url)
    page = client.page
    page.emulate_media(reduced_motion="reduce")  # a trick stays on show 0.4 s instead of 1.45 s
    page.goto("/")
    wait_ready(page)
    shoot(page, artifacts, "01-home")
    enter_nickname(page, "Ana")
    page.get_by_test_id("solo-bots").select_option("3")
    page.get_by_test_id("solo-start").click()
    expect(page.get_by_test_id("table")).to_be_visible()
    expect(page.locator("[data-testid^=seat-][data-seat]")).to_have_count(4)
    seen = {"one_card": False, "normal": False, "foot_rule": False}
    # The match made from the home page: its first hand (one card) and its second (two), in the page.
    decisions = _play(page, rng, artifacts, seen, until_normal=True)
    assert seen["one_card"], "the first hand is a one-card hand"
    # Its end: a solo table of the same options started at the human's last bid of a match the engine played
    # (tests/start_points.py), played to the end in the page instead of the ten hands before it.
    start = before_the_end("fodinha", {"players": 4}, where=_seat_0_bids)
    open_solo(page, shared_server.url, "Ana", {"bots": 3, "options": {"players": 4}, "start": start})
    expect(page.locator("[data-testid^=seat-][data-seat]")).to_have_count(4)
    decisions += _play(page, rng, artifacts, seen)

    placements = page.get_by_test_id("end-overlay").get_by_test_id("placements")
    expect(placements).to_be_visible()
    expect(placements.locator("li")).to_have_count(4)
    expect(placements.get_by_test_id("place-0")).to_be_visible()
    shoot(page, artifacts, "04-end")
    href = placements.get_by_test_id("download-history").get_attribute("href")
    assert href
    response = page.request.get(href)
    assert response.status == 200
    history = json.loads(response.text())
    assert history.get("format") == "sefode-history/1" or "sefode-history/1" in json.dumps(history)[:200]
    assert "seed" in history
    assert client.errors == []
    # Not every match reaches a pé decision for the human; record whether this one did.
    (artifacts / "notes.txt").write_text(
        f"decisions={decisions} normal_hand={seen['normal']} foot_rule={seen['foot_rule']}\n"
    )
    client.close()
