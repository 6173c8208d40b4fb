"""Guimenon in the page through its own module (sefode/games/guimenon/client/index.js): a solo match against a hard
bot played to the end by tapping a card, then a Location, then Confirm; the board shows 3 Locations with their
names or "not revealed yet", the Stars per side; the end screen shows the places."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect
from start_points import first_seed, start_point

from sefode.engine import Game

from .conftest import Server
from .helpers import enter_nickname, open_client, open_solo, shoot, wait_ready

GAME_PT = json.loads(
    (Path(__file__).resolve().parents[2] / "sefode" / "games" / "guimenon" / "i18n" / "pt-BR.json").read_text(
        encoding="utf-8"
    )
)
STEP_MS = 30_000

MY_TURN_OR_OVER = """() => {
  if (document.querySelector('[data-testid=end-overlay] [data-testid=placements]')) return 'over';
  if (document.querySelector('[data-testid=gm-discard]')) return 'discard';
  if (document.querySelector('[data-testid=gm-confirm]')) return 'turn';
  return null;
}"""


def wait_turn(page: Page) -> str:
    kind = page.wait_for_function(MY_TURN_OR_OVER, timeout=STEP_MS).json_value()
    assert isinstance(kind, str)
    return kind


def wait_new_state(page: Page, before: str | None) -> None:
    page.wait_for_function(
        "(v) => { const t = document.querySelector('[data-testid=table]'); return !t || t.dataset.version !== v; }",
        arg=before,
        timeout=STEP_MS,
    )


def test_solo_guimenon_against_a_hard_bot_is_played_in_the_page_to_the_end(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    rng = random.Random(2)
    client = open_client(browser, shared_server.url)
    page = client.page
    page.goto("/")
    wait_ready(page)
    enter_nickname(page, "Ana")
    page.get_by_test_id("solo-game").select_option("guimenon")
    page.get_by_test_id("solo-level").select_option("hard")
    page.get_by_test_id("solo-start").click()
    expect(page.get_by_test_id("table")).to_have_attribute("data-game", "guimenon")
    # Turn 1: the left Location is revealed, the other two are face down.
    expect(page.get_by_test_id("gm-location-1")).to_have_text(GAME_PT["guimenon.not_revealed"])
    left = page.get_by_test_id("gm-location-0").inner_text()
    assert any(
        left.startswith(GAME_PT[f"guimenon.location.{key.split('guimenon.location.')[1]}"])
        for key in GAME_PT
        if key.startswith("guimenon.location.") and not key.endswith(".text")
    )
    shoot(page, artifacts, "01-guimenon-turn1")
    placed = 0
    for _step in range(80):
        kind = wait_turn(page)
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
            expect(page.locator(".gm-pending").first).to_be_visible()
            placed += 1
            if placed == 3:
                shoot(page, artifacts, "02-guimenon-placed")
            continue
        page.get_by_test_id("gm-confirm").click()
        wait_new_state(page, before)
    else:
        raise AssertionError("the match should end within 80 steps")
    assert placed >= 1, "cards were placed through the page"
    placements = page.get_by_test_id("end-overlay").get_by_test_id("placements")
    expect(placements.locator("li")).to_have_count(2)
    shoot(page, artifacts, "03-guimenon-end")
    href = placements.get_by_test_id("download-history").get_attribute("href")
    assert href
    history = json.loads(page.request.get(href).text())
    assert history["game"] == "guimenon" and len(history["decks"]) == 2
    assert client.errors == []
    client.close()


def test_two_players_submit_in_secret_and_neither_sees_the_others_plays_before_both_confirm(
    browser: Browser, server: Server, artifacts: Path
) -> None:
    ana = open_client(browser, server.url, record_frames=True)
    bia = open_client(browser, server.url, record_frames=True)
    page, bpage = ana.page, bia.page
    page.goto("/")
    wait_ready(page)
    page.get_by_test_id("nickname").fill("Ana")
    page.get_by_test_id("create-game").select_option("guimenon")
    page.get_by_test_id("create-name").fill("Guimenon")
    page.get_by_test_id("create-visibility").select_option("invite")
    page.get_by_test_id("create-room").click()
    expect(page.get_by_test_id("room-page")).to_be_visible()
    invite = page.get_by_test_id("invite-link").input_value()
    bpage.goto(invite)
    wait_ready(bpage)
    bpage.get_by_test_id("nickname").fill("Bia")
    bpage.get_by_test_id("nickname-submit").click()
    bpage.get_by_test_id("sit-1").click()
    expect(page.get_by_test_id("seat-row-1")).to_contain_text("Bia")
    page.get_by_test_id("start-match").click()
    for p in (page, bpage):
        expect(p.get_by_test_id("table")).to_have_attribute("data-game", "guimenon")
        expect(p.get_by_test_id("gm-confirm")).to_be_visible()
    # Turn 1 is 1 Moon: keep confirming until Ana holds a card she can play. Each step waits for the server's word
    # (Bia sees Ana's ✔, both pages show the next turn): a click on a page that had not drawn the new turn yet once
    # confirmed a turn early for Bia, and Ana's card was then revealed at once.
    for _turn in range(6):
        turn = page.get_by_test_id("gm-turn").inner_text()
        expect(bpage.get_by_test_id("gm-turn")).to_have_text(turn)
        if page.locator("[data-testid=gm-hand] .gm-playable").count():
            break
        page.get_by_test_id("gm-confirm").click()
        expect(bpage.get_by_test_id("gm-other")).to_contain_text("✔")
        bpage.get_by_test_id("gm-confirm").click()
        for p in (page, bpage):
            expect(p.get_by_test_id("gm-turn")).not_to_have_text(turn)
            expect(p.get_by_test_id("gm-confirm")).to_be_visible()
    card = page.locator("[data-testid=gm-hand] .gm-playable").first
    card_id = card.get_attribute("data-card")
    assert card_id
    other_before = bpage.get_by_test_id("gm-other").inner_text()
    board_before = bpage.get_by_test_id("gm-board").inner_text()
    assert "✔" not in other_before
    seen_before = len(bia.frames)
    # A Location revealed on reveal may have put a token on each side already (a "pedra"): those are public.
    theirs = "[data-testid^=gm-side-][data-testid$=-them] .gm-card"
    theirs_before = bpage.locator(theirs).count()
    last_view = [f["view"] for f in bia.frames if isinstance(f.get("view"), dict)][-1]
    ana_side_before = [cell["cards"][0] for cell in last_view["board"]]
    card.click()
    page.locator(".gm-loc.gm-target").first.click()
    expect(page.get_by_test_id(f"gm-pending-{card_id}")).to_be_visible()
    page.get_by_test_id("gm-confirm").click()
    expect(page.get_by_test_id("gm-waiting")).to_be_visible()
    # Bia learns that Ana confirmed, and nothing of what she placed.
    expect(bpage.get_by_test_id("gm-other")).to_contain_text("✔")
    assert bpage.get_by_test_id("gm-other").inner_text().replace(" ✔", "") == other_before.replace(" ✔", "")
    assert bpage.get_by_test_id("gm-board").inner_text() == board_before
    assert bpage.locator(theirs).count() == theirs_before
    views = [f["view"] for f in bia.frames[seen_before:] if isinstance(f.get("view"), dict)]
    assert views, "Bia was told that Ana confirmed"
    for view in views:  # what reached Bia's browser: Ana's side as it was, Ana's hand count unchanged
        assert [cell["cards"][0] for cell in view["board"]] == ana_side_before, view["board"]
        assert view["hand_counts"][0] == views[0]["hand_counts"][0]
        assert "pending" not in json.dumps({k: v for k, v in view.items() if k != "me"})
    shoot(bpage, artifacts, "01-guimenon-other-confirmed")
    bpage.get_by_test_id("gm-confirm").click()
    # Both confirmed: the card is revealed to both, on Ana's side.
    expect(bpage.locator(f"{theirs}[data-card='{card_id}']")).to_be_visible()
    expect(page.locator(f"[data-testid^=gm-side-][data-testid$=-me] .gm-card[data-card='{card_id}']")).to_be_visible()
    revealed = [f["view"] for f in bia.frames if isinstance(f.get("view"), dict)][-1]
    assert any(u["card"] == card_id for cell in revealed["board"] for u in cell["cards"][0])
    shoot(bpage, artifacts, "02-guimenon-revealed")
    for client in (ana, bia):
        assert client.errors == []
        client.close()


def _first_turn_with_a_card_too_dear() -> dict[str, Any]:
    """A solo deal whose first turn gives seat 0 a card that costs more Moon than it has."""

    def dear(game: Game[Any], state: Any) -> bool:
        me = game.view(state, 0)["me"]
        return any(c.get("cost", 0) > me["moon_left"] for c in me["hand"])

    return first_seed(lambda seed: start_point("guimenon", {}, dear, seed=seed))


def test_the_turn_says_what_to_do_marks_your_side_and_explains_a_card_you_cannot_afford(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    """Issue 22: a turn prompt, your side of each Location labelled, and a card you cannot afford says why."""
    client = open_client(browser, shared_server.url)
    page = client.page
    open_solo(
        page,
        shared_server.url,
        "Ana",
        {"game": "guimenon", "bots": 1, "level": "easy", "start": _first_turn_with_a_card_too_dear()},
    )
    expect(page.get_by_test_id("gm-prompt")).to_have_text(GAME_PT["guimenon.your_turn"])
    expect(page.get_by_test_id("gm-your-side")).to_have_text(GAME_PT["guimenon.your_side"])
    expect(page.get_by_test_id("gm-side-0-me")).to_have_attribute("aria-label", GAME_PT["guimenon.your_side"])
    dear = page.locator("[data-testid=gm-hand] .gm-unplayable").first
    name = dear.locator(".gm-cardname").inner_text()
    cost = dear.locator(".gm-cost").inner_text()
    dear.click()
    moon = page.get_by_test_id("gm-moon").inner_text().split(":")[1].strip().split("/")[0]
    expected = GAME_PT["guimenon.why_moon"].replace("{card}", name).replace("{cost}", cost).replace("{moon}", moon)
    expect(page.locator("#toast")).to_have_text(expected)
    shoot(page, artifacts, "guimenon-prompt-and-why")
    assert client.errors == []
    client.close()


def _a_card_placed_and_another_that_fits_beside_it() -> dict[str, Any]:
    """A solo deal played until seat 0 has put a card down (not confirmed) at a Location where another card of its
    hand may still go."""

    def ready(game: Game[Any], state: Any) -> bool:
        if 0 not in game.awaiting(state):
            return False
        pending = {p["location"] for p in game.view(state, 0)["me"]["pending"]}
        moves = [game.action_json(state, a) for a in game.legal_actions(state, 0)]
        return any("place" in m and m["location"] in pending for m in moves)

    def find(seed: int) -> dict[str, Any] | None:
        try:
            return start_point("guimenon", {}, ready, seed=seed)
        except AssertionError:
            return None

    return first_seed(find)


def test_with_a_card_chosen_a_tap_on_a_card_already_put_down_places_the_chosen_one_there(
    browser: Browser, shared_server: Server
) -> None:
    """Choosing a card, then tapping the Location where you already put one (on that card) puts the chosen card there
    too; it does not take the first one back. (With no card chosen, the same tap takes it back.)"""
    client = open_client(browser, shared_server.url)
    page = client.page
    start = _a_card_placed_and_another_that_fits_beside_it()
    open_solo(page, shared_server.url, "Ana", {"game": "guimenon", "bots": 1, "level": "easy", "start": start})
    pending = page.locator(".gm-pending")
    expect(pending).to_have_count(1)
    first = pending.first.get_attribute("data-testid")
    loc = page.locator(".gm-loc").filter(has=pending)
    for k in range(page.locator("[data-testid=gm-hand] .gm-playable").count()):
        page.locator("[data-testid=gm-hand] .gm-playable").nth(k).click()
        if loc.and_(page.locator(".gm-target")).count():
            break
    else:
        raise AssertionError("the start point has a card that may go beside the one put down")
    pending.first.click()
    expect(pending).to_have_count(2)
    expect(page.get_by_test_id(str(first))).to_be_visible()
    # With nothing chosen, a tap on a card put down takes it back.
    page.get_by_test_id(str(first)).click()
    expect(pending).to_have_count(1)
    expect(page.get_by_test_id(str(first))).to_have_count(0)
    assert client.errors == []
    client.close()
