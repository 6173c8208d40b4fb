"""Browser tests 3 and 4: a reload mid-hand returns the player to their seat; a server killed with SIGKILL
mid-hand comes back on the same database and the page reconnects by itself and plays on from the same point."""

from __future__ import annotations

import random
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from .conftest import Server
from .helpers import enter_nickname, my_cards, open_client, shoot, table_version, take_turn, wait_actionable, wait_ready


def _solo_until_my_turn_in_a_normal_hand(page: Page, rng: random.Random) -> str:
    page.goto("/")
    wait_ready(page)
    enter_nickname(page, "Rita")
    page.get_by_test_id("solo-start").click()
    expect(page.get_by_test_id("table")).to_be_visible()
    for _ in range(200):
        kind = wait_actionable(page)
        assert kind != "over", "the match ended before a hand of two or more cards"
        if page.locator("[data-testid=felt].one-card").count() == 0 and len(my_cards(page)) >= 2:
            return kind
        take_turn(page, rng, kind)
    raise AssertionError("no hand of two or more cards came")


def test_reload_mid_hand_returns_the_player_to_their_seat(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    rng = random.Random(11)
    client = open_client(browser, shared_server.url, reduced_motion=True)  # shorter trick pauses on the way
    page = client.page
    kind = _solo_until_my_turn_in_a_normal_hand(page, rng)
    before_version = table_version(page)
    before_hand = page.get_by_test_id("hand-number").inner_text()
    before_cards = my_cards(page)

    page.reload()
    wait_ready(page)
    expect(page.get_by_test_id("table")).to_be_visible()
    expect(page.locator("[data-testid=seat-0].seat.mine")).to_have_count(1)
    expect(page.get_by_test_id("score-row-0")).to_contain_text("Rita")
    assert wait_actionable(page) == kind
    assert table_version(page) == before_version
    assert page.get_by_test_id("hand-number").inner_text() == before_hand
    assert my_cards(page) == before_cards
    shoot(page, artifacts, "after-reload")
    # The seat still plays: the next action is accepted.
    take_turn(page, rng, kind)
    assert table_version(page) > before_version
    assert client.errors == []
    client.close()


def test_server_killed_mid_hand_resumes_and_the_page_reconnects_by_itself(
    browser: Browser, server: Server, artifacts: Path
) -> None:
    rng = random.Random(5)
    client = open_client(browser, server.url, reduced_motion=True)  # shorter trick pauses on the way
    page = client.page
    kind = _solo_until_my_turn_in_a_normal_hand(page, rng)
    before_version = table_version(page)
    before_hand = page.get_by_test_id("hand-number").inner_text()
    before_cards = my_cards(page)
    before_scores = page.get_by_test_id("scoreboard").inner_text()
    page.evaluate("window.__sameDocument = true")

    server.kill()
    expect(page.get_by_test_id("room-page")).to_have_attribute("data-conn", "reconnecting")
    expect(page.get_by_test_id("banner")).to_be_visible()
    shoot(page, artifacts, "server-down")
    server.start()

    expect(page.get_by_test_id("room-page")).to_have_attribute("data-conn", "open", timeout=20_000)
    assert wait_actionable(page) == kind
    assert page.evaluate("window.__sameDocument === true"), "the page reconnected without a reload"
    assert table_version(page) == before_version
    assert page.get_by_test_id("hand-number").inner_text() == before_hand
    assert my_cards(page) == before_cards
    assert page.get_by_test_id("scoreboard").inner_text() == before_scores
    expect(page.get_by_test_id("banner")).to_be_hidden()
    take_turn(page, rng, kind)
    assert table_version(page) > before_version
    assert server.starts == 2
    assert client.errors == []
    client.close()
