"""The lobby lists public rooms with their game, seats taken and whether a match is on; a password room asks for
its password; the owner fills seats with bots before starting."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, expect

from .conftest import DESKTOP, Server
from .helpers import catalogue, open_client, shoot, wait_ready

CATALOGUE = catalogue("pt-BR")


def test_lobby_lists_a_password_room_which_asks_for_its_password(
    browser: Browser, server: Server, artifacts: Path
) -> None:
    owner = open_client(browser, server.url, DESKTOP)
    page = owner.page
    page.goto("/")
    wait_ready(page)
    page.get_by_test_id("nickname").fill("Dona")
    page.get_by_test_id("create-name").fill("Mesa com senha")
    page.get_by_test_id("create-variant").select_option("7letras")
    page.get_by_test_id("create-players").select_option("3")
    page.get_by_test_id("create-visibility").select_option("password")
    page.get_by_test_id("create-password").fill("truco")
    page.get_by_test_id("create-room").click()
    expect(page.get_by_test_id("room-page")).to_be_visible()
    room_id = page.url.rsplit("/", 1)[1]
    # The owner puts a hard bot on seat 3.
    page.get_by_test_id("seat-bot-2").select_option("hard")
    expect(page.get_by_test_id("seat-row-2")).to_contain_text(CATALOGUE["level.hard"])

    guest = open_client(browser, server.url)
    gpage = guest.page
    gpage.goto("/")
    wait_ready(gpage)
    gpage.get_by_test_id("nickname").fill("Gil")
    row = gpage.get_by_test_id(f"lobby-room-{room_id}")
    expect(row).to_contain_text("Mesa com senha")
    expect(row).to_contain_text(CATALOGUE["variant.7letras"])
    expect(row).to_contain_text("2/3")
    expect(row).to_contain_text(CATALOGUE["lobby.waiting"])
    shoot(gpage, artifacts, "lobby")
    gpage.get_by_test_id(f"lobby-join-{room_id}").click()
    expect(gpage.get_by_test_id("password-gate")).to_be_visible()
    gpage.get_by_test_id("room-password").fill("errada")
    gpage.get_by_test_id("room-password-submit").click()
    expect(gpage.get_by_test_id("password-gate")).to_contain_text(CATALOGUE["error.room/bad_password"])
    gpage.get_by_test_id("room-password").fill("truco")
    gpage.get_by_test_id("room-password-submit").click()
    expect(gpage.get_by_test_id("seat-list")).to_be_visible()
    gpage.get_by_test_id("sit-1").click()
    expect(page.get_by_test_id("seat-row-1")).to_contain_text("Gil")

    page.get_by_test_id("start-match").click()
    expect(gpage.get_by_test_id("table")).to_be_visible()
    expect(gpage.locator("[data-testid^=seat-][data-seat]")).to_have_count(3)
    # Once the match is on, the lobby says so.
    page.goto("/")
    expect(page.get_by_test_id(f"lobby-room-{room_id}")).to_contain_text(CATALOGUE["lobby.playing"])
    assert owner.errors == [] and guest.errors == []
    owner.close()
    guest.close()


def test_owner_assigns_pairs_by_hand_and_the_table_shows_their_name_and_symbol(
    browser: Browser, server: Server, artifacts: Path
) -> None:
    owner = open_client(browser, server.url, DESKTOP)
    page = owner.page
    page.goto("/")
    wait_ready(page)
    page.get_by_test_id("nickname").fill("Ana")
    page.get_by_test_id("create-players").select_option("4")
    page.get_by_test_id("create-teams").check()
    for seat, level in ((1, "hard"), (2, "easy"), (3, "normal")):
        page.get_by_test_id(f"create-bot-{seat}").select_option(level)
    page.get_by_test_id("create-room").click()
    expect(page.get_by_test_id("teams")).to_be_visible()
    # Ana (seat 1) pairs with the hard bot of seat 2 instead of her default partner (seat 3).
    page.get_by_test_id("team-seat-0-1").select_option("1")
    page.get_by_test_id("team-seat-1-0").select_option("2")
    page.get_by_test_id("team-seat-1-1").select_option("3")
    page.get_by_test_id("team-name-0").fill("Pé de Pano")
    page.get_by_test_id("team-symbol-0").fill("★")
    page.get_by_test_id("team-colour-0").fill("#aa2244")
    page.get_by_test_id("teams-save").click()
    expect(page.get_by_test_id("seat-row-0")).to_contain_text("★")
    # Partners sit alternately: the hard bot moves to seat 3, opposite Ana, in her pair.
    expect(page.get_by_test_id("seat-row-2").locator(".seat-who")).to_contain_text(CATALOGUE["level.hard"])
    expect(page.get_by_test_id("seat-row-2")).to_contain_text("★")
    expect(page.get_by_test_id("seat-row-1").locator(".seat-who")).not_to_contain_text(CATALOGUE["level.hard"])
    shoot(page, artifacts, "pairs-room")
    page.get_by_test_id("start-match").click()
    expect(page.get_by_test_id("table")).to_be_visible()
    # Pairs sit alternately at the table: Ana and her partner are both in "Pé de Pano".
    badges = page.locator("[data-testid^=seat-][data-seat] .seat-team")
    expect(badges).to_have_count(4)
    names = badges.all_inner_texts()
    assert names.count("Pé de Pano") == 2
    expect(page.get_by_test_id("seat-0").locator(".team-dot")).to_have_text("★")
    expect(page.get_by_test_id("seat-0")).to_contain_text("Pé de Pano")
    assert owner.errors == []
    owner.close()
