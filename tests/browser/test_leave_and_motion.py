"""Issue 22 at King's table: leaving the table (a bot plays the seat to the end of the match, after a confirmation in
the game's own words), and motion that helps — a played card travels from the hand to the table, and none of it
runs when the player prefers reduced motion. Nothing here waits on animation time: the page counts the moves it
starts (``Element.animate``) and the test reads the count once the new state is drawn."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, ViewportSize, expect
from start_points import start_point

from sefode.engine import Game

from .conftest import MOBILE, Server
from .helpers import catalogue, open_solo, table_version

PT = catalogue("pt-BR")
LAPTOP: ViewportSize = {"width": 1366, "height": 800}
COUNT_MOVES = """
(() => {
  window.__moves = [];
  const base = Element.prototype.animate;
  Element.prototype.animate = function (...args) {
    const card = this.dataset ? this.dataset.card || null : null;
    window.__moves.push({ card, ghost: this.classList.contains('motion-ghost') });
    return base.apply(this, args);
  };
})();
"""


def _seat0_leads(game: Game[Any], state: Any) -> bool:
    view = game.view(state, 0)
    return bool(view["phase"] == "playing" and game.awaiting(state) == {0} and not view["trick"])


def _seat0_plays_in_last_hand(game: Game[Any], state: Any) -> bool:
    view = game.view(state, 0)
    return bool(view["hand_number"] == 12 and view["phase"] == "playing" and game.awaiting(state) == {0})


def _king_page(browser: Browser, server: Server, reduced: bool, point: dict[str, Any]) -> tuple[Any, Page, list[str]]:
    context = browser.new_context(
        viewport=MOBILE, base_url=server.url, locale="pt-BR", reduced_motion="reduce" if reduced else "no-preference"
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script(COUNT_MOVES)
    open_solo(page, server.url, "Ana", {"game": "king", "bots": 3, "level": "easy", "start": point})
    return context, page, errors


def _play_a_card(page: Page) -> str:
    card = page.locator("[data-testid=my-hand] button.card.playable").first
    expect(card).to_be_visible()
    name = card.get_attribute("data-card")
    assert name
    before = table_version(page)
    page.evaluate("() => { window.__moves = []; }")
    card.click()
    page.wait_for_function(
        "(v) => Number(document.querySelector('[data-testid=table]').dataset.version) > v", arg=before
    )
    # Drawn: the card has left the hand (it is on the table, or already in a trick that was taken).
    expect(page.locator(f"[data-testid=my-hand] [data-card='{name}']")).to_have_count(0)
    return name


def test_a_played_card_travels_to_the_table_unless_the_player_prefers_reduced_motion(
    browser: Browser, shared_server: Server
) -> None:
    point = start_point("king", {}, _seat0_leads, seed=2)
    context, page, errors = _king_page(browser, shared_server, False, point)
    name = _play_a_card(page)
    moves = page.evaluate("() => window.__moves")
    assert any(m["card"] == name and m["ghost"] for m in moves), moves
    # The travelling copy takes no taps (while it is still there).
    ghosts = page.evaluate(
        "() => [...document.querySelectorAll('.motion-ghost')].map((g) => getComputedStyle(g).pointerEvents)"
    )
    assert all(p == "none" for p in ghosts)
    assert errors == []
    context.close()

    context, page, errors = _king_page(browser, shared_server, True, point)
    _play_a_card(page)
    assert page.evaluate("() => window.__moves") == []
    assert page.evaluate("() => document.getAnimations().length") == 0
    assert errors == []
    context.close()


def test_king_leave_the_table_asks_first_then_a_bot_plays_the_seat_to_the_end(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    point = start_point("king", {}, _seat0_plays_in_last_hand, seed=3)
    context, page, errors = _king_page(browser, shared_server, True, point)
    # Asks first, in words about this game: a bot plays on for you.
    page.get_by_test_id("leave-match").click()
    dialog = page.get_by_test_id("confirm-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(PT["king.leave_confirm"])
    for size in (MOBILE, LAPTOP):  # leave-<width>.png, copied to docs/screenshots/
        page.set_viewport_size(size)
        page.screenshot(path=str(artifacts / f"leave-{size['width']}.png"))
    page.set_viewport_size(MOBILE)
    page.get_by_test_id("confirm-cancel").click()
    expect(page.get_by_test_id("leave-match")).to_be_visible()
    expect(page.locator("[data-testid=seat-0].mine")).to_have_count(1)
    # Confirmed: the player watches, and the seat is played by a bot until the match ends.
    page.get_by_test_id("leave-match").click()
    page.get_by_test_id("confirm-ok").click()
    expect(page.get_by_test_id("leave-match")).to_have_count(0)
    expect(page.get_by_test_id("spectating")).to_be_visible()
    overlay = page.get_by_test_id("end-overlay")
    expect(overlay.get_by_test_id("placements")).to_be_visible(timeout=60_000)
    expect(page.get_by_test_id("log")).to_contain_text(PT["event.leave"].replace("{name}", "Ana"))
    assert errors == []
    context.close()


MOTION_BENCH = """async () => {
  const motion = await import('/static/js/motion.js');
  const card = (name) => {
    const b = document.createElement('button');
    b.className = 'card md';
    b.dataset.card = name;
    b.textContent = name;
    b.style.setProperty('width', '50px');
    b.style.setProperty('height', '70px');
    return b;
  };
  const root = document.createElement('div');
  root.style.setProperty('position', 'fixed');
  root.style.setProperty('inset', '0');
  root.style.setProperty('z-index', '5000');
  root.style.setProperty('background', '#063');
  const seat = document.createElement('div');
  seat.dataset.seat = '1';
  seat.textContent = 'Bot';
  const table = document.createElement('div');
  table.dataset.motion = 'table';
  const hand = document.createElement('div');
  hand.dataset.focusGroup = 'hand';
  hand.append(card('Ks'), card('2h'));
  root.append(seat, table, hand);
  document.body.append(root);
  const timing = () => document.getAnimations().map((a) => {
    const t = a.effect.getComputedTiming();
    return t.delay + t.duration;
  });
  const out = {};
  // 1. Your card goes from the hand to the table; another seat's card comes from its seat.
  let before = motion.snapshot(root);
  table.append(hand.querySelector('[data-card=Ks]'), card('9c'));
  const plays = [{ type: 'play', seat: 0, card: 'Ks' }, { type: 'play', seat: 1, card: '9c' }];
  out.played = motion.play(root, before, plays);
  const ghosts = [...document.querySelectorAll('.motion-ghost')];
  out.ghosts = ghosts.length;
  out.ghostsTakeNoTaps = ghosts.every((g) => getComputedStyle(g).pointerEvents === 'none' && g.inert);
  const real = table.querySelector('[data-card=Ks]').getBoundingClientRect();
  const hit = document.elementFromPoint(real.left + real.width / 2, real.top + real.height / 2);
  out.tapHitsTheCard = hit && hit.dataset.card === 'Ks' && !hit.classList.contains('motion-ghost');
  out.longest = Math.max(...timing());
  document.getAnimations().forEach((a) => a.finish());
  // 2. The trick is taken by seat 1: what was on the table goes to that seat.
  before = motion.snapshot(root);
  table.replaceChildren();
  out.collected = motion.play(root, before, [{ type: 'trick', winner: 1, points: -20 }]);
  out.longest = Math.max(out.longest, ...timing());
  document.getAnimations().forEach((a) => a.finish());
  // 3. A new hand is dealt: every card comes in, one after the other, all within 300 ms.
  before = motion.snapshot(root);
  hand.replaceChildren(...['3c', '4c', '5c', '6c', '7c', '8c', '9d', 'Td', 'Jd', 'Qd', 'Kd', 'Ad', '2s'].map(card));
  out.dealt = motion.play(root, before, [{ type: 'hand_end' }]);
  out.longest = Math.max(out.longest, ...timing());
  document.getAnimations().forEach((a) => a.finish());
  root.remove();
  return out;
}"""


def test_motion_moves_cards_to_the_table_and_the_trick_to_its_winner_and_deals_within_300_ms_without_taking_taps(
    browser: Browser, shared_server: Server
) -> None:
    for preference in ("no-preference", "reduce"):
        context = browser.new_context(viewport=MOBILE, base_url=shared_server.url, reduced_motion=preference)
        page = context.new_page()
        page.goto("/rules")
        page.wait_for_selector("body[data-ready='1']")
        out = page.evaluate(MOTION_BENCH)
        if preference == "reduce":
            assert out["played"] == out["collected"] == out["dealt"] == 0 and out["ghosts"] == 0, out
        else:
            assert out["played"] == 2 and out["ghosts"] == 2, out
            assert out["ghostsTakeNoTaps"] and out["tapHitsTheCard"], out
            assert out["collected"] == 2, out
            assert out["dealt"] == 13, out
            assert 0 < out["longest"] <= 300, out
        context.close()
