"""Table controls in a 7 Letras solo match: the vira and the letters, pause by vote, showing one's hand, the match's
tricks grouped under their winners, and leaving (a forfeit, after a confirmation)."""

from __future__ import annotations

import random
from pathlib import Path

from playwright.sync_api import Browser, expect

from .conftest import Server
from .helpers import catalogue, enter_nickname, my_cards, open_client, shoot, take_turn, wait_actionable, wait_ready

CATALOGUE = catalogue("pt-BR")


def test_seven_letras_pause_show_hand_tricks_by_winner_and_leave_forfeits(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    rng = random.Random(2)
    # Less motion: a taken trick stays 0.4 s on the felt (this test watches many go by).
    client = open_client(browser, shared_server.url, reduced_motion=True, record_frames=True)
    page = client.page
    page.goto("/")
    wait_ready(page)
    enter_nickname(page, "Leo")
    page.get_by_test_id("solo-variant").select_option("7letras")
    # One bot: leaving hands it the match at once (with more bots they would play it to its end first).
    page.get_by_test_id("solo-bots").select_option("1")
    page.get_by_test_id("solo-start").click()
    expect(page.get_by_test_id("table")).to_be_visible()

    # One-card round: the vira stays face down and the bids are win/lose.
    assert wait_actionable(page) == "bid"
    expect(page.get_by_test_id("vira").locator(".card.back")).to_have_count(1)
    expect(page.get_by_test_id("bid-1")).to_have_text(CATALOGUE["bid.win"])
    expect(page.get_by_test_id("seat-0").get_by_test_id("score-0").locator("span")).to_have_count(7)
    for _ in range(100):
        kind = wait_actionable(page)
        assert kind != "over"
        if len(my_cards(page)) >= 2:
            break
        take_turn(page, rng, kind)
    # Rounds of two or more cards: the vira is face up and the manilha rank is shown.
    expect(page.get_by_test_id("vira").locator(".card:not(.back)")).to_have_count(1)
    expect(page.get_by_test_id("manilha-rank")).to_be_visible()

    # Pause by simple majority (the only human here), then resume.
    page.get_by_test_id("pause-vote").click()
    expect(page.get_by_test_id("room-status")).to_have_text(CATALOGUE["room.status_paused"])
    expect(page.get_by_test_id("banner")).to_be_visible()
    shoot(page, artifacts, "paused")
    page.get_by_test_id("pause-vote").click()
    expect(page.get_by_test_id("room-status")).to_have_text(CATALOGUE["room.status_playing"])

    # Show my hand: asks first; afterwards the option is gone and the table's log says so.
    cards = my_cards(page)
    page.get_by_test_id("show-hand").click()
    page.get_by_test_id("confirm-ok").click()
    expect(page.get_by_test_id("show-hand")).to_have_count(0)
    page.get_by_test_id("tab-log").click()
    symbols = {"c": "♣", "h": "♥", "s": "♠", "d": "♦"}
    shown_line = page.get_by_test_id("log").locator("li").first
    for card in cards:
        expect(shown_line).to_contain_text(card[:-1] + symbols[card[-1]])

    # Play on until some tricks were taken: they are listed under whoever took them. The view does not carry the
    # match's tricks: the pane, once shown, asks the server for them (a `past` message) and again as play goes on.
    page.get_by_test_id("tab-tricks").click()
    rows = page.locator("[data-testid=pane-tricks] .trick-row")
    for _ in range(30):
        kind = wait_actionable(page)
        assert kind != "over"
        take_turn(page, rng, kind)
        if rows.count() >= 3:
            break
    expect(rows.nth(2)).to_be_attached()
    groups = page.locator("[data-testid=pane-tricks] details.trick-group")
    assert groups.count() >= 1
    states = [f for f in client.frames if f.get("type") == "state"]
    assert states and not any("match_tricks" in f["view"] for f in states)
    assert any(f.get("type") == "past" and f["past"]["match_tricks"] for f in client.frames)
    shoot(page, artifacts, "tricks-by-winner")

    # Leaving asks for a confirmation; cancelling keeps the seat, confirming forfeits it.
    page.get_by_test_id("leave-match").click()
    page.get_by_test_id("confirm-cancel").click()
    expect(page.get_by_test_id("leave-match")).to_be_visible()
    page.get_by_test_id("leave-match").click()
    page.get_by_test_id("confirm-ok").click()
    expect(page.get_by_test_id("leave-match")).to_have_count(0)
    overlay = page.get_by_test_id("end-overlay")
    expect(overlay.get_by_test_id("placements")).to_be_visible(timeout=60_000)
    expect(overlay.get_by_test_id("place-0")).to_contain_text("2º")  # last of two
    shoot(page, artifacts, "end-after-leave")
    assert client.errors == []
    client.close()


def test_seven_letras_spectator_joins_the_table_at_a_round_boundary(browser: Browser, shared_server: Server) -> None:
    rng = random.Random(1)
    server = shared_server
    owner = open_client(browser, server.url, reduced_motion=True)  # shorter trick pauses on the way to a boundary
    page = owner.page
    page.goto("/")
    wait_ready(page)
    enter_nickname(page, "Ana")
    page.get_by_test_id("create-variant").select_option("7letras")
    page.get_by_test_id("create-players").select_option("3")
    page.get_by_test_id("create-bot-1").select_option("easy")
    page.get_by_test_id("create-bot-2").select_option("easy")
    page.get_by_test_id("create-room").click()
    page.get_by_test_id("start-match").click()
    expect(page.get_by_test_id("table")).to_be_visible()
    invite = page.get_by_test_id("invite-link").input_value()

    late = open_client(browser, server.url)
    lpage = late.page
    lpage.goto(invite)
    wait_ready(lpage)
    lpage.get_by_test_id("nickname").fill("Caio")
    lpage.get_by_test_id("nickname-submit").click()
    expect(lpage.get_by_test_id("spectating")).to_be_visible()
    # The owner plays on until a round starts with nobody having bid yet: a round boundary.
    # It stays there while the owner, first to bid, has not bid; the spectator is offered a seat only then.
    for _ in range(60):
        kind = wait_actionable(page)
        assert kind != "over"
        if kind == "bid":
            version = page.get_by_test_id("table").get_attribute("data-version")
            expect(lpage.get_by_test_id("table")).to_have_attribute("data-version", version or "")
            if lpage.get_by_test_id("join-table").count():
                break
        take_turn(page, rng, kind)
    lpage.get_by_test_id("join-table").click()
    expect(lpage.locator("[data-testid=seat-3].seat.mine")).to_have_count(1)
    expect(lpage.get_by_test_id("spectating")).to_have_count(0)
    expect(page.locator("[data-testid^=seat-][data-seat]")).to_have_count(4)
    assert owner.errors == [] and late.errors == []
    owner.close()
    late.close()
