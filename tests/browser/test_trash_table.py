"""One Man's Trash in the page: a solo match against 2 bots played to the end by tapping cards, piles, the empty
space and the Draw Pile, with the game's own browser module (``sefode/games/trash/client/index.js``). Along the way:
every pile is fanned with its top card marked, every seat's hand size shows, a target that is not legal for the
selection says why when touched, and the hint appears when only drawing is possible. Screenshots at 360x740, 1280x800
and 1366x800."""

from __future__ import annotations

import json
import random
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from .conftest import Server
from .helpers import TURN_TIMEOUT_MS, catalogue, enter_nickname, open_client, shoot, table_version, wait_ready

GAME_CATALOGUE = Path(__file__).resolve().parents[2] / "sefode" / "games" / "trash" / "i18n" / "pt-BR.json"

STATE = """() => {
  if (document.querySelector('[data-testid=end-overlay]:not([hidden]) [data-testid=placements]')) return 'over';
  if (document.querySelector('[data-testid=table][data-game=trash] [data-testid=turn-line].mine')) return 'mine';
  return null;
}"""


def _wait_newer(page: Page, before: int) -> None:
    page.wait_for_function(
        """(v) => {
          const t = document.querySelector('[data-testid=table]');
          return !t || Number(t.dataset.version) !== v
            || document.querySelector('[data-testid=end-overlay]:not([hidden]) [data-testid=placements]');
        }""",
        arg=before,
        timeout=TURN_TIMEOUT_MS,
    )


def _legal_target(page: Page) -> str | None:
    targets = page.locator("[data-testid^=pile-][data-legal='1'], [data-testid=new-pile][data-legal='1']")
    if targets.count():
        testid = targets.first.get_attribute("data-testid")
        return testid
    return None


def _take_turn(page: Page, rng: random.Random, texts: dict[str, str], seen: dict[str, bool]) -> None:
    before = table_version(page)
    if page.get_by_test_id("only-draw").count():
        seen["only_draw"] = True
        expect(page.get_by_test_id("draw-pile")).to_have_attribute("data-legal", "1")
        page.get_by_test_id("draw-pile").click()
        _wait_newer(page, before)
        return
    cards = page.locator("[data-testid=my-hand] [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    draw = page.get_by_test_id("draw-pile")
    if len(cards) <= 2 and draw.get_attribute("data-legal") == "1":
        draw.click()  # a careful player: no going out by trashing the last cards
        _wait_newer(page, before)
        return
    rng.shuffle(cards)
    for card in cards:
        page.get_by_test_id(f"hand-card-{card}").click()
        expect(page.get_by_test_id(f"hand-card-{card}")).to_have_attribute("aria-pressed", "true")
        if not seen["refusal"]:
            off = page.locator("[data-testid^=pile-][data-legal='0']")
            if off.count():
                off.first.click(force=True)  # aria-disabled: still touchable, it says why
                toast = page.locator("#toast")
                expect(toast).to_be_visible()
                assert toast.inner_text().strip() in {
                    texts["trash.why_trash"], texts["trash.why_swap"], texts["trash.why_collect"]
                }
                seen["refusal"] = True
        target = _legal_target(page)
        if target is not None:
            page.get_by_test_id(target).click()
            _wait_newer(page, before)
            return
        page.get_by_test_id(f"hand-card-{card}").click()  # deselect, try another card
    expect(page.get_by_test_id("draw-pile")).to_have_attribute("data-legal", "1")
    page.get_by_test_id("draw-pile").click()
    _wait_newer(page, before)


def test_solo_trash_match_against_two_bots_is_played_in_the_page_to_the_end(
    browser: Browser, server: Server, artifacts: Path
) -> None:
    rng = random.Random(5)
    texts = {**catalogue("pt-BR"), **json.loads(GAME_CATALOGUE.read_text(encoding="utf-8"))}
    client = open_client(browser, server.url)
    page = client.page
    page.goto("/")
    wait_ready(page)
    enter_nickname(page, "Ana")
    page.get_by_test_id("solo-game").select_option("trash")
    page.get_by_test_id("solo-bots").select_option("2")
    page.get_by_test_id("solo-level").select_option("easy")
    page.get_by_test_id("solo-start").click()
    table = page.locator("[data-testid=table][data-game=trash]")
    expect(table).to_be_visible()
    expect(page.locator("[data-testid=trash-seats] [data-seat]")).to_have_count(3)
    # Three piles are dealt; a bot that plays first may already have littered a fourth, so at least three.
    page.wait_for_function("() => document.querySelectorAll('[data-testid^=pile-]').length >= 3")
    for seat in range(3):
        expect(page.get_by_test_id(f"hand-size-{seat}")).to_contain_text("×")
    seen = {"refusal": False, "only_draw": False, "shot": False}
    decisions = 0
    while True:
        handle = page.wait_for_function(STATE, timeout=TURN_TIMEOUT_MS)
        if handle.json_value() == "over":
            break
        decisions += 1
        assert decisions < 400, "the match should end"
        # Every pile is fanned with exactly one top card marked.
        piles = page.locator("[data-testid^=pile-]")
        for i in range(piles.count()):
            expect(piles.nth(i).locator(".card.top")).to_have_count(1)
        if decisions == 12:
            shoot(page, artifacts, "trash-02-midgame")
        if not seen["shot"]:
            shoot(page, artifacts, "trash-01-table")
            page.set_viewport_size({"width": 1366, "height": 800})
            page.screenshot(path=str(artifacts / "trash-01-table-1366x800.png"), full_page=True)
            seen["shot"] = True
        _take_turn(page, rng, texts, seen)
    placements = page.get_by_test_id("end-overlay").get_by_test_id("placements")
    expect(placements).to_be_visible()
    shoot(page, artifacts, "trash-03-end")
    href = placements.get_by_test_id("download-history").get_attribute("href")
    assert href
    history = json.loads(page.request.get(href).text())
    assert history["game"] == "trash" and history["format"] == "sefode-history/1"
    assert client.errors == []
    assert decisions >= 1
    (artifacts / "trash-notes.txt").write_text(f"decisions={decisions} {seen}\n")
