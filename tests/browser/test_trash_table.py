"""One Man's Trash in the page: a solo match against 2 bots played to the end by tapping cards, piles, the empty
space and the Draw Pile, with the game's own browser module (``sefode/games/trash/client/index.js``). Along the way:
every pile is fanned with its top card marked, every seat's hand size shows, a target that is not legal for the
selection says why when touched, and the hint appears when only drawing is possible. Screenshots at 360x740, 1280x800
and 1366x800. The match starts (from the home page's solo form) near its 100-turn limit, so that the page's careful play
ends it in a few turns."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect
from start_points import first_seed, start_point

from sefode.engine import Game

from .conftest import Server
from .helpers import (
    TURN_TIMEOUT_MS,
    catalogue,
    enter_nickname,
    open_client,
    open_solo,
    shoot,
    snap,
    solo_start_at,
    table_version,
    wait_ready,
)

GAME_CATALOGUE = Path(__file__).resolve().parents[2] / "sefode" / "games" / "trash" / "i18n" / "pt-BR.json"

STATE = """() => {
  if (document.querySelector('[data-testid=end-overlay]:not([hidden]) [data-testid=placements]')) return 'over';
  if (document.querySelector('[data-testid=table][data-game=trash] [data-testid=turn-line].mine')) return 'mine';
  return null;
}"""


TURNS_LEFT = 4
"""The human's turns left before the 100-turn limit ends the match (docs/rulings.md §3.5) at the start point."""


def _hand_after(view: dict[str, Any], seat: int, action: dict[str, Any]) -> int:
    """How many cards ``seat`` holds after ``action`` (its JSON)."""
    held = int(view["hand_sizes"][seat])
    if "draw" in action:
        return held + 1
    if "collect" in action:
        return held + len(view["piles"][action["collect"]])
    if "litter" in action:
        return held - 1
    if "swap" in action:
        return held
    cards = action["trash"] if isinstance(action["trash"], list) else [action["trash"]]
    return held - len(cards) + (1 if view["piles"][action["pile"]][-1] in view["collectors"] else 0)


def _keeps_three(game: Game[Any], state: Any, seat: int, legal: list[Any], rng: random.Random) -> Any:
    """Seeded random moves that keep at least three cards in hand when they can: nobody goes out or wins early."""
    view = game.view(state, seat)
    safe = [a for a in legal if _hand_after(view, seat, game.action_json(state, a)) >= 3]
    return rng.choice(safe or legal)


def _near_the_turn_limit() -> dict[str, Any]:
    """Seat 0 (the human) to play its turn 100 - TURNS_LEFT, the bots as far on: the match ends within a few turns."""

    def until(game: Game[Any], state: Any) -> bool:
        return game.awaiting(state) == {0} and game.view(state, 0)["turns"][0] == 100 - TURNS_LEFT

    def find(seed: int) -> dict[str, Any] | None:
        try:  # in some deals a seat still goes out (then the limit comes before the human's turn)
            return start_point("trash", {"players": 3}, until, seed=seed, policy=_keeps_three)
        except AssertionError:
            return None

    return first_seed(find, range(3, 200))  # seeds 1 and 2 do not get there (searching them costs a second)


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
                    texts["trash.why_trash"],
                    texts["trash.why_swap"],
                    texts["trash.why_collect"],
                }
                seen["refusal"] = True
        target = _legal_target(page)
        if target is not None:
            page.get_by_test_id(target).click()
            # A move that empties the hand without a four asks first (the dialog opens within the click): go ahead.
            if page.locator("dialog#confirm").is_visible():
                seen["asked"] = True
                page.get_by_test_id("confirm-ok").click()
            _wait_newer(page, before)
            return
        page.get_by_test_id(f"hand-card-{card}").click()  # deselect, try another card
    expect(page.get_by_test_id("draw-pile")).to_have_attribute("data-legal", "1")
    page.get_by_test_id("draw-pile").click()
    _wait_newer(page, before)


def test_solo_trash_match_against_two_bots_is_played_in_the_page_to_the_end(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    rng = random.Random(5)
    texts = {**catalogue("pt-BR"), **json.loads(GAME_CATALOGUE.read_text(encoding="utf-8"))}
    client = open_client(browser, shared_server.url)
    page = client.page
    solo_start_at(page, _near_the_turn_limit())
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
        if decisions == 3:  # the table a few turns on (the start point is already late in the match)
            shoot(page, artifacts, "trash-02-midgame")
        if not seen["shot"]:
            shoot(page, artifacts, "trash-01-table")
            page.set_viewport_size({"width": 1366, "height": 800})
            snap(page, artifacts / "trash-01-table-1366x800.png", full_page=True)
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


def _about_to_empty_the_hand() -> dict[str, Any]:
    """Seat 0 (the human) awaited with a legal move that empties its hand without a four-of-a-kind."""

    def knock(game: Game[Any], state: Any) -> bool:
        if game.awaiting(state) != {0}:
            return False
        view = game.view(state, 0)
        return any(_knocks_out(view, game.action_json(state, a)) for a in game.legal_actions(state, 0))

    def find(seed: int) -> dict[str, Any] | None:
        try:
            return start_point("trash", {"players": 3}, knock, seed=seed)
        except AssertionError:
            return None

    return first_seed(find)


def _knocks_out(view: dict[str, Any], action: dict[str, Any]) -> bool:
    hand = view["hand"]
    if "litter" in action:
        return len(hand) == 1
    if "trash" in action and view["piles"][action["pile"]][-1] not in view["collectors"]:
        return len(action["trash"]) == len(hand) != 4
    return False


def test_a_move_that_empties_the_hand_without_a_four_asks_first_and_cancel_keeps_the_turn(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    """Issue 22: emptying your hand without a four-of-a-kind puts you out; the table asks before it sends the move."""
    texts = json.loads(GAME_CATALOGUE.read_text(encoding="utf-8"))
    client = open_client(browser, shared_server.url)
    page = client.page
    open_solo(
        page,
        shared_server.url,
        "Ana",
        {"game": "trash", "bots": 2, "level": "easy", "start": _about_to_empty_the_hand()},
    )
    expect(page.get_by_test_id("my-hand")).to_be_visible()
    cards = page.locator("[data-testid=my-hand] [data-testid^=hand-card-]").evaluate_all(
        "els => els.map(e => e.dataset.testid.slice('hand-card-'.length))"
    )
    for card in cards:
        page.get_by_test_id(f"hand-card-{card}").click()
    version = page.get_by_test_id("table").get_attribute("data-version")
    # The move that empties the hand: a new pile with the last card, else the first pile that takes them all.
    target = (
        page.get_by_test_id("new-pile")
        if len(cards) == 1
        else page.locator("[data-testid^=pile-][data-legal='1']").first
    )
    if len(cards) == 1 and target.get_attribute("data-legal") != "1":
        target = page.locator("[data-testid^=pile-][data-legal='1']").first
    target.click()
    dialog = page.locator("dialog#confirm")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(texts["trash.confirm_out"])
    shoot(page, artifacts, "trash-confirm-out")
    page.get_by_test_id("confirm-cancel").click()
    # Nothing was sent: the same state, still your turn, your cards still in hand.
    expect(dialog).to_be_hidden()
    expect(page.get_by_test_id("table")).to_have_attribute("data-version", version or "")
    expect(page.locator("[data-testid=my-hand] [data-testid^=hand-card-]")).to_have_count(len(cards))
    # Confirmed, the move is played and the seat is out.
    for card in cards:
        if page.get_by_test_id(f"hand-card-{card}").get_attribute("aria-pressed") != "true":
            page.get_by_test_id(f"hand-card-{card}").click()
    target.click()
    expect(dialog).to_be_visible()
    page.get_by_test_id("confirm-ok").click()
    expect(page.get_by_test_id("seat-0")).to_have_class(re.compile(r"\bout\b"))
    assert client.errors == []
    client.close()
