"""Keyboard play at the King, One Man's Trash and Guimenon tables (the Se Fode table has its own whole-match test in
``test_table_experience.py``). When your turn comes the focus is in your hand (or the decision bar), ←/→ move
within a group, Space or Enter press a card, a pile or a Location (a ``role=button`` element the shell presses),
and after every action and redraw the focus is still in the table, never thrown back to the page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect
from start_points import first_seed, start_point

from sefode.engine import Game

from .conftest import Server
from .helpers import TURN_TIMEOUT_MS, enter_nickname, open_client, open_solo, snap, table_version, wait_ready

# The focus group of the focused element ("hand", "piles", "bid", "board"), or what holds the focus otherwise.
FOCUS = """() => {
  const a = document.activeElement;
  if (!a || a === document.body) return 'body';
  const g = a.closest('[data-focus-group]');
  return g ? g.dataset.focusGroup : 'elsewhere:' + (a.dataset.testid || a.tagName);
}"""

NEWER = """(v) => {
  const t = document.querySelector('[data-testid=table]');
  return !t || Number(t.dataset.version) !== v
    || document.querySelector('[data-testid=end-overlay]:not([hidden]) [data-testid=placements]');
}"""


def _solo(page: Page, game: str, bots: int | None = None) -> None:
    page.goto("/")
    wait_ready(page)
    enter_nickname(page, "Teclado")
    page.get_by_test_id("solo-game").select_option(game)
    if bots is not None:
        page.get_by_test_id("solo-bots").select_option(str(bots))
    page.get_by_test_id("solo-start").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("table")).to_be_visible()


def _focused(page: Page) -> str:
    value = page.evaluate(FOCUS)
    assert isinstance(value, str)
    return value


def _arrow_to(page: Page, selector: str, limit: int = 40) -> bool:
    """ArrowRight within the focused group until the focused element matches ``selector``."""
    for _ in range(limit):
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return True
        page.keyboard.press("ArrowRight")
    return False


def _shift_tab_into(page: Page, group: str, limit: int = 40, key: str = "Shift+Tab") -> None:
    for _ in range(limit):
        if _focused(page) == group:
            return
        page.keyboard.press(key)
    raise AssertionError(f"{key} never reached the {group} group (focus: {_focused(page)})")


TRASH_MINE = """() => {
  if (document.querySelector('[data-testid=end-overlay]:not([hidden]) [data-testid=placements]')) return 'over';
  if (document.querySelector('[data-testid=table][data-game=trash] [data-testid=turn-line].mine')) return 'mine';
  return null;
}"""

TRASH_TARGET = "[data-testid^=pile-][data-legal='1'], [data-testid=new-pile][data-legal='1']"


def test_one_mans_trash_is_played_with_the_keyboard(browser: Browser, shared_server: Server, artifacts: Path) -> None:
    client = open_client(browser, shared_server.url)
    page = client.page
    _solo(page, "trash", bots=2)
    played = {"pile": 0, "draw": 0}
    for turn in range(6):
        if page.wait_for_function(TRASH_MINE, timeout=TURN_TIMEOUT_MS).json_value() == "over":
            break
        # Your turn: the focus is in your hand (the first turn), or still on the pile of your last move: Tab leads
        # from the piles to the hand.
        focus = _focused(page)
        assert focus == "hand" or (turn > 0 and focus == "piles"), f"turn {turn}: {focus}"
        _shift_tab_into(page, "hand", key="Tab")
        before = table_version(page)
        cards = page.locator("[data-testid=my-hand] [data-card]").count()
        done = False
        if cards > 2 and not page.get_by_test_id("only-draw").count():
            for _ in range(cards):
                card = page.evaluate("() => document.activeElement.dataset.card")
                page.keyboard.press("Space")  # select it
                expect(page.get_by_test_id(f"hand-card-{card}")).to_have_attribute("aria-pressed", "true")
                assert _focused(page) == "hand"  # the redraw kept the focus on the card
                if page.locator(TRASH_TARGET).count():
                    _shift_tab_into(page, "piles")
                    assert _arrow_to(page, TRASH_TARGET)
                    page.keyboard.press("Enter")
                    played["pile"] += 1
                    done = True
                    break
                page.keyboard.press("Space")  # no pile takes it: unselect, try the next card
                expect(page.get_by_test_id(f"hand-card-{card}")).to_have_attribute("aria-pressed", "false")
                page.keyboard.press("ArrowRight")
        if not done:
            _shift_tab_into(page, "piles")
            assert _arrow_to(page, "[data-testid=draw-pile][data-legal='1']")
            page.keyboard.press("Enter")
            played["draw"] += 1
        page.wait_for_function(NEWER, arg=before, timeout=TURN_TIMEOUT_MS)
        assert _focused(page) in ("hand", "piles")
    assert played["pile"] >= 1, played  # a card went on a pile (or a new one) with Enter on a role=button pile
    snap(page, artifacts / "trash-keyboard-360x740.png")
    assert client.errors == []
    client.close()


KING_ACTIONABLE = """() => {
  if (document.querySelector('[data-testid=end-overlay]:not([hidden]) [data-testid=placements]')) return 'over';
  if (document.querySelector('[data-testid=contract-panel] button:not([disabled])')) return 'bid';
  if (document.querySelector('[data-testid=trump-panel] button:not([disabled])')) return 'bid';
  if (document.querySelector('[data-testid=my-hand] button.card.playable')) return 'hand';
  return null;
}"""


def test_king_is_played_with_the_keyboard(browser: Browser, shared_server: Server, artifacts: Path) -> None:
    client = open_client(browser, shared_server.url)
    page = client.page
    _solo(page, "king", bots=3)
    cards_played = 0
    for _ in range(40):
        kind = page.wait_for_function(KING_ACTIONABLE, timeout=TURN_TIMEOUT_MS).json_value()
        if kind == "over" or cards_played >= 4:
            break
        # Your turn: the focus is in the contract or trump bar, or in your hand.
        assert _focused(page) == kind
        before = table_version(page)
        if kind == "bid":
            assert _arrow_to(page, "button:not([disabled])")
        else:
            assert _arrow_to(page, "button.card.playable")
            cards_played += 1
        page.keyboard.press("Enter")
        page.wait_for_function(NEWER, arg=before, timeout=TURN_TIMEOUT_MS)
        assert _focused(page) != "body"
    assert cards_played >= 4
    snap(page, artifacts / "king-keyboard-360x740.png")
    assert client.errors == []
    client.close()


GM_TURN = """() => {
  if (document.querySelector('[data-testid=end-overlay]:not([hidden]) [data-testid=placements]')) return 'over';
  if (document.querySelector('[data-testid=gm-discard]')) return 'discard';
  if (document.querySelector('[data-testid=gm-confirm]')) return 'turn';
  return null;
}"""


def test_guimenon_is_played_with_the_keyboard(browser: Browser, shared_server: Server, artifacts: Path) -> None:
    client = open_client(browser, shared_server.url)
    page = client.page
    _solo(page, "guimenon")
    placed = 0
    for turn in range(3):
        kind = page.wait_for_function(GM_TURN, timeout=TURN_TIMEOUT_MS).json_value()
        if kind == "over":
            break
        assert _focused(page) == "hand", f"turn {turn}"
        if kind == "discard":
            assert _arrow_to(page, "[data-testid^=gm-hand-].gm-playable")
            before = table_version(page)
            page.keyboard.press("Enter")
            page.wait_for_function(NEWER, arg=before, timeout=TURN_TIMEOUT_MS)
            continue
        playable = page.locator("[data-testid^=gm-hand-].gm-playable")
        if playable.count():
            assert _arrow_to(page, "[data-testid^=gm-hand-].gm-playable")
            card = page.evaluate("() => document.activeElement.dataset.card")
            page.keyboard.press("Space")  # choose it: the Locations it may go to become buttons
            expect(page.get_by_test_id(f"gm-hand-{card}")).to_have_attribute("aria-pressed", "true")
            assert _focused(page) == "hand"
            _shift_tab_into(page, "board")
            assert page.evaluate("() => document.activeElement.matches('.gm-loc[role=button]')")
            before = table_version(page)
            page.keyboard.press("Enter")
            page.wait_for_function(NEWER, arg=before, timeout=TURN_TIMEOUT_MS)
            expect(page.get_by_test_id(f"gm-pending-{card}")).to_be_visible()
            assert _focused(page) != "body"
            placed += 1
        # Confirm, with Tab from wherever the focus is.
        for _ in range(30):
            if page.evaluate("() => document.activeElement.dataset.testid") == "gm-confirm":
                break
            page.keyboard.press("Tab")
        assert page.evaluate("() => document.activeElement.dataset.testid") == "gm-confirm"
        before = table_version(page)
        page.keyboard.press("Enter")
        page.wait_for_function(NEWER, arg=before, timeout=TURN_TIMEOUT_MS)
    assert placed >= 1
    snap(page, artifacts / "guimenon-keyboard-360x740.png")
    assert client.errors == []
    client.close()


def test_one_card_of_the_hand_is_picked_out_at_a_time(browser: Browser, shared_server: Server) -> None:
    """Issue 22: the card the keyboard focus is on and the card under the pointer were both raised with a gold border;
    while the pointer is over the hand, only the card under it is."""

    def my_card_turn(game: Game[Any], state: Any) -> bool:
        view = game.view(state, 0)
        return game.awaiting(state) == {0} and view["phase"] == "playing" and len(view["hands"][0]) >= 3

    point = first_seed(lambda seed: start_point("fodinha", {"players": 2}, my_card_turn, seed=seed))
    client = open_client(browser, shared_server.url)
    page = client.page
    open_solo(page, shared_server.url, "Ana", {"bots": 1, "options": {"players": 2}, "start": point})
    cards = page.locator("[data-testid=my-hand] > button.card.playable")
    expect(cards.first).to_be_visible()
    page.keyboard.press("ArrowRight")  # a keyboard move: the focus shows
    focused = page.evaluate("() => document.activeElement.dataset.testid")
    others = [t for t in cards.evaluate_all("els => els.map(e => e.dataset.testid)") if t != focused]
    assert focused and others
    page.get_by_test_id(others[-1]).hover()
    outlined = cards.evaluate_all(
        "els => els.filter(e => getComputedStyle(e).outlineStyle !== 'none').map(e => e.dataset.testid)"
    )
    assert outlined == [others[-1]], outlined
    assert client.errors == []
    client.close()
