"""Issue 22 at King's table: leaving the table (a bot plays the seat to the end of the match, after a confirmation in
the game's own words), and motion that helps — a played card travels from the hand to the table, and none of it
runs when the player prefers reduced motion. Nothing here waits on animation time: the page counts the moves it
starts (``Element.animate``) and the test reads the count once the new state is drawn."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, ViewportSize, WebSocketRoute, expect
from start_points import first_seed, new_state, start_point

from sefode.engine import Game, get_game
from sefode.games.fodinha.cards import truco_name

from .conftest import MOBILE, Server
from .helpers import SETTLED, catalogue, open_solo, snap, table_version

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


def _seat0_to_play(game: Game[Any], state: Any) -> dict[str, Any] | None:
    """Seat 0's view when it alone is to play a card (King or Fodinha), else None."""
    view: dict[str, Any] = game.view(state, 0)
    return view if view["phase"] == "playing" and game.awaiting(state) == {0} else None


def _seat0_leads(game: Game[Any], state: Any) -> bool:
    view = _seat0_to_play(game, state)
    return bool(view and not view["trick"])


def _seat0_plays_in_last_hand(game: Game[Any], state: Any) -> bool:
    view = _seat0_to_play(game, state)
    return bool(view and view["hand_number"] == 12)


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
    _play_on_screen(page, card)
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
        snap(page, artifacts / f"leave-{size['width']}.png")
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


WATCH_TRICK_MOVES = """
(() => {
  window.__moves = [];
  const base = Element.prototype.animate;
  Element.prototype.animate = function (...args) {
    const card = this.dataset ? this.dataset.card || null : null;
    const inTakenTrick = Boolean(this.closest && this.closest('[data-testid=trick-resolve]'));
    window.__moves.push({ card, ghost: this.classList.contains('motion-ghost'), inTakenTrick });
    return base.apply(this, args);
  };
})();
"""


def _errors_of(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def _play_on_screen(page: Page, card: Locator) -> None:
    """Tap ``card`` in a table that has settled: the cards just dealt have faded in and stopped, so the tap neither
    waits on a moving card nor scrolls the page to it. The table's moves are made on screen only (a move off the screen
    is not drawn), so the felt must still be in view after the tap."""
    page.evaluate(SETTLED)
    card.click()
    assert page.evaluate("() => scrollY") == 0, "the tap scrolled the page: the felt's moves would be off the screen"


def _seat0_plays_the_next_to_last_card(game: Game[Any], state: Any) -> bool:
    view = _seat0_to_play(game, state)
    return bool(view and view["cards"] >= 2 and len(view["hands"][0]) >= 2 and len(view["trick"]) == view["seats"] - 2)


@pytest.mark.parametrize("reduced", [False, True], ids=["motion", "reduced-motion"])
def test_se_fode_the_last_card_of_a_trick_played_by_another_seat_travels_before_the_trick_is_taken(
    browser: Browser, shared_server: Server, artifacts: Path, reduced: bool
) -> None:
    """Issue 22: in Se Fode a bot's card that completes the trick is seen coming from its seat into the taken trick
    (which then slides to its winner, no longer than any other move); nothing moves under reduced motion."""
    point = start_point("fodinha", {"players": 4}, _seat0_plays_the_next_to_last_card, seed=1)
    context, page, errors = _watched_page(browser, shared_server, reduced, WATCH_TRICK_MOVES)
    open_solo(page, shared_server.url, "Ana", {"game": "fodinha", "bots": 3, "level": "easy", "start": point})
    card = page.locator("[data-testid=my-hand] button.card.playable").first
    expect(card).to_be_visible()
    mine = card.get_attribute("data-card")
    before = table_version(page)
    page.evaluate("() => { window.__moves = []; }")
    _play_on_screen(page, card)
    # My card, then the bot's that completes the trick: two states drawn.
    page.wait_for_function(
        "(v) => Number(document.querySelector('[data-testid=table]').dataset.version) >= v + 2", arg=before
    )
    if reduced:
        assert page.evaluate("() => window.__moves") == []
    else:
        # The card that lands in the taken trick fades in where it is drawn while its copy travels from the seat.
        page.wait_for_function("() => window.__moves.some((m) => m.inTakenTrick && m.card)")
        snap(page, artifacts / "last-card-travelling-360.png")
        moves = page.evaluate("() => window.__moves")
        landed = {m["card"] for m in moves if m["inTakenTrick"] and m["card"]}
        assert landed - {mine}, moves
        for name in landed - {mine}:
            assert any(m["ghost"] and m["card"] == name for m in moves), moves
        limits = page.evaluate(
            """async () => {
              const table = await import('/games/fodinha/client/table.js');
              const motion = await import('/static/js/motion.js');
              return { collect: table.TRICK_COLLECT_MS, max: motion.MAX_MS };
            }"""
        )
        assert 0 < limits["collect"] <= limits["max"], limits
    assert errors == []
    context.close()


WATCH_MOTION = """
(() => {
  // Every move started (Element.animate: a travelling copy, or the card fading in where it lands) and every CSS
  // pop-in that starts on a card (animationstart), with the card it is about.
  window.__moves = [];
  window.__pops = [];
  const base = Element.prototype.animate;
  Element.prototype.animate = function (...args) {
    const card = this.dataset ? this.dataset.card || null : null;
    const inTakenTrick = Boolean(this.closest && this.closest('[data-testid=trick-resolve]'));
    window.__moves.push({ card, ghost: this.classList.contains('motion-ghost'), inTakenTrick });
    return base.apply(this, args);
  };
  document.addEventListener('animationstart', (event) => {
    const card = event.target.dataset ? event.target.dataset.card || null : null;
    if (card) window.__pops.push({ card, name: event.animationName });
  }, true);
})();
"""


def _watched_page(
    browser: Browser, server: Server, reduced: bool, watch: str = WATCH_MOTION
) -> tuple[BrowserContext, Page, list[str]]:
    """A phone's page that records the table's motion (``watch``: ``WATCH_MOTION`` or ``WATCH_TRICK_MOVES``) and its
    errors, with or without the player's wish for less motion."""
    context = browser.new_context(
        viewport=MOBILE,
        base_url=server.url,
        locale="pt-BR",
        reduced_motion="reduce" if reduced else "no-preference",
    )
    page = context.new_page()
    errors = _errors_of(page)
    page.add_init_script(watch)
    return context, page, errors


def _seat0_plays_the_last_card_of_a_trick(game: Game[Any], state: Any) -> bool:
    view = _seat0_to_play(game, state)
    return bool(view and len(view["hands"][0]) >= 2 and len(view["trick"]) == view["seats"] - 1)


def _seat0_ends_a_trick_a_bot_wins(game: Game[Any], state: Any) -> bool:
    """Seat 0 to play the last card of a trick that a bot wins whatever seat 0 plays: the bot leads the next trick
    while the taken one is still on the felt."""
    if not _seat0_plays_the_last_card_of_a_trick(game, state):
        return False
    for action in game.legal_actions(state, 0):
        events = game.apply(copy.deepcopy(state), 0, action)
        if any(ev.get("type") == "trick" and ev.get("winner") in (None, 0) for ev in events):
            return False
    return True


WAITED = """async () => {
  // Once the taken trick has gone and the table is drawn again: the card of the next trick that waited under it.
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  return [...document.querySelectorAll('[data-testid=trick-area] > .card')].map((el) => el.dataset.card);
}"""


SEEN_UNDER_THE_TAKEN_TRICK = """() => {
  // Sticky: whether the table was ever drawn with a card of the next trick waiting, still, under the taken trick.
  window.__seen = { underTakenTrick: false };
  const look = () => {
    if (document.querySelector('[data-testid=trick-resolve]')
        && document.querySelector('.trick-area.resolving > .card[data-motion=still]')) {
      window.__seen.underTakenTrick = true;
    }
  };
  new MutationObserver(look).observe(document.body, { childList: true, subtree: true, attributes: true });
  look();
}"""


def _events_of(text: str) -> list[str]:
    data = json.loads(text)
    events = data.get("events") if isinstance(data, dict) else None
    return [str(ev.get("type")) for ev in events or [] if isinstance(ev, dict)]


def _lead_with_the_taken_trick(ws: WebSocketRoute) -> None:
    """The page's WebSocket through the test: the message that ends a trick is held back, with whatever follows it,
    until the next card is played, and then all are passed on in order. So the winner's lead always reaches the page
    while the taken trick is on the felt, however long the bot (or a loaded machine) takes."""
    server = ws.connect_to_server()
    held: list[str] = []

    def to_page(message: str | bytes) -> None:
        text = message.decode() if isinstance(message, bytes) else message
        kinds = _events_of(text)
        if not held and "trick" not in kinds:
            ws.send(text)
            return
        held.append(text)
        # A card played after the trick's end (in a later message, or after it in the same one): all go on.
        since = kinds[len(kinds) - kinds[::-1].index("trick") :] if "trick" in kinds else kinds
        if "play" in since:
            for item in held:
                ws.send(item)
            held.clear()

    server.on_message(to_page)
    ws.on_message(lambda message: server.send(message))


@pytest.mark.parametrize("reduced", [False, True], ids=["motion", "reduced-motion"])
def test_se_fode_the_next_lead_played_while_the_trick_is_taken_travels_in_once_the_trick_has_gone(
    browser: Browser, shared_server: Server, reduced: bool
) -> None:
    """Issue 22: a bot that wins a trick leads the next while the taken trick is still shown; its card waits hidden
    under the taken trick and, once that has slid to its winner, is seen travelling from the bot's seat (before, it
    just appeared, after popping in half-hidden behind the taken trick). Under reduced motion nothing moves."""
    point = _fodinha_point(_seat0_ends_a_trick_a_bot_wins)
    context, page, errors = _watched_page(browser, shared_server, reduced)
    page.route_web_socket(re.compile(r"/ws$"), _lead_with_the_taken_trick)
    open_solo(page, shared_server.url, "Ana", {"game": "fodinha", "bots": 3, "level": "easy", "start": point})
    card = page.locator("[data-testid=my-hand] button.card.playable").first
    expect(card).to_be_visible()
    mine = card.get_attribute("data-card")
    page.evaluate("() => { window.__moves = []; window.__pops = []; }")
    page.evaluate(SEEN_UNDER_THE_TAKEN_TRICK)
    _play_on_screen(page, card)
    # The winner's lead is drawn (hidden) under the taken trick, then the taken trick goes. The page notes each
    # drawing as it happens: the taken trick is on the felt for 400 ms under reduced motion, which the test's own
    # polling could miss on a loaded machine.
    page.wait_for_function("() => window.__seen.underTakenTrick")
    expect(page.get_by_test_id("trick-resolve")).to_have_count(0)
    page.wait_for_selector(".trick-area:not(.resolving) > .card")
    lead = page.evaluate(WAITED)
    moves = page.evaluate("() => window.__moves")
    pops = page.evaluate("() => window.__pops")
    if reduced:
        assert moves == [] and pops == [], (moves, pops)
    else:
        assert lead and mine not in lead
        for name in lead:
            assert any(m["ghost"] and m["card"] == name for m in moves), (lead, moves)
            # It fades in as it lands.
            assert any(not m["ghost"] and m["card"] == name for m in moves), (lead, moves)
        assert not {p["card"] for p in pops} & set(lead), (lead, pops)
    assert errors == []
    context.close()


def _seat0_plays_the_last_card_of_a_hand(game: Game[Any], state: Any) -> bool:
    """Seat 0 to play its last card, the one that ends the last trick of a hand of two cards or more."""
    view = _seat0_to_play(game, state)
    return bool(view and view["cards"] >= 2 and len(view["hands"][0]) == 1 and len(view["trick"]) == view["seats"] - 1)


def _seat0_ends_a_later_trick_of_a_hand(game: Game[Any], state: Any) -> bool:
    """Seat 0 to play the last card of a trick, not the hand's first nor its last."""
    return _seat0_plays_the_last_card_of_a_trick(game, state) and len(game.view(state, 0)["tricks"]) >= 1


TAKEN_TRICK = """() => {
  // The first taken trick the table draws: its cards in the order drawn, and which of them is lit as the winner's.
  window.__taken = null;
  const look = () => {
    const overlay = document.querySelector('[data-testid=trick-resolve]');
    if (window.__taken || !overlay) return;
    const cards = [...overlay.querySelectorAll('.card')];
    window.__taken = {
      cards: cards.map((el) => el.dataset.card),
      winner: cards.filter((el) => el.classList.contains('winner')).map((el) => el.dataset.card),
    };
  };
  new MutationObserver(look).observe(document.body, { childList: true, subtree: true, attributes: true });
  look();
}"""


@pytest.mark.parametrize("until_name", ["trick", "hand"])
def test_se_fode_the_taken_trick_on_the_felt_is_the_trick_just_played_with_its_winner_lit(
    browser: Browser, shared_server: Server, until_name: str
) -> None:
    """Issue 25: a ``trick`` event names only who took the trick; the table draws the taken trick from the view (its
    last trick, or the last of the hand it ended, ``lastTrick``): the cards in the order they were played, the
    winner's lit."""
    until = {"trick": _seat0_ends_a_later_trick_of_a_hand, "hand": _seat0_plays_the_last_card_of_a_hand}[until_name]
    point = _fodinha_point(until)
    context, page, errors = _watched_page(browser, shared_server, True)
    open_solo(page, shared_server.url, "Ana", {"game": "fodinha", "bots": 3, "level": "easy", "start": point})
    card = page.locator("[data-testid=my-hand] button.card.playable").first
    expect(card).to_be_visible()
    mine = card.get_attribute("data-card")
    # The trick it ends, played out of the server's sight: the same match from the same seed and actions.
    game = get_game("fodinha")
    state = new_state(game, {"players": 4}, point["seed"])
    for seat, action in point["actions"]:
        game.apply(state, seat, game.parse_action(state, seat, action))
    tricks = len(state.match_tricks)
    game.apply(state, 0, game.parse_action(state, 0, {"play": mine}))
    assert len(state.match_tricks) > tricks
    trick = state.match_tricks[tricks]
    want = [truco_name(c) for _, c in trick.plays]
    assert mine in want
    page.evaluate(TAKEN_TRICK)
    _play_on_screen(page, card)
    page.wait_for_function("() => window.__taken")
    taken = page.evaluate("() => window.__taken")
    assert taken["cards"] == want, (taken, want)
    lit = [] if trick.winner is None else [truco_name(c) for s, c in trick.plays if s == trick.winner]
    assert taken["winner"] == lit, (taken, trick)
    assert errors == []
    context.close()


@pytest.mark.parametrize("reduced", [False, True], ids=["motion", "reduced-motion"])
@pytest.mark.parametrize("until_name", ["last-card", "lead"])
def test_se_fode_your_card_that_ends_a_trick_travels_into_it_and_no_card_both_travels_and_pops_in(
    browser: Browser, shared_server: Server, until_name: str, reduced: bool
) -> None:
    """Issue 22: the card that ends a trick is drawn in the taken trick (the felt's trick is already the next one);
    yours is seen travelling there from your hand like any other before the trick slides to its winner. A card that
    travels does not also pop in where it lands (the table's ``.fresh`` animation): one motion per card. Under reduced
    motion nothing moves."""
    players = 4
    until = {"last-card": _seat0_plays_the_last_card_of_a_trick, "lead": _seat0_leads}[until_name]
    point = _fodinha_point(until)
    context, page, errors = _watched_page(browser, shared_server, reduced)
    body = {"game": "fodinha", "bots": players - 1, "level": "easy", "start": point}
    open_solo(page, shared_server.url, "Ana", body)
    card = page.locator("[data-testid=my-hand] button.card.playable").first
    expect(card).to_be_visible()
    mine = card.get_attribute("data-card")
    before = table_version(page)
    page.evaluate("() => { window.__moves = []; window.__pops = []; }")
    _play_on_screen(page, card)
    if until is _seat0_leads:
        # My card, then the three bots' cards, the last one ending the trick.
        page.wait_for_function(
            "(v) => Number(document.querySelector('[data-testid=table]').dataset.version) >= v + 4", arg=before
        )
    else:
        page.wait_for_function(
            "(v) => Number(document.querySelector('[data-testid=table]').dataset.version) > v", arg=before
        )
    moves = page.evaluate("() => window.__moves")
    pops = page.evaluate("() => window.__pops")
    if reduced:
        assert moves == [] and pops == [], (moves, pops)
    else:
        travelled = {m["card"] for m in moves if m["ghost"]}
        if until is _seat0_plays_the_last_card_of_a_trick:
            # Mine lands in the taken trick: its copy travels there, and it fades in as it lands.
            assert mine in travelled, moves
            assert any(m["card"] == mine and m["inTakenTrick"] and not m["ghost"] for m in moves), moves
        else:
            assert mine in travelled, moves  # (it popped in too, before)
        # One motion per card: none that travelled also popped in.
        assert not travelled & {p["card"] for p in pops}, (moves, pops)
    assert errors == []
    context.close()


def _fodinha_point(until: Any) -> dict[str, Any]:
    """The first seed's start point of a four-player Se Fode match where ``until`` holds."""

    def find(seed: int) -> dict[str, Any] | None:
        try:
            return start_point("fodinha", {"players": 4}, until, seed=seed)
        except AssertionError:
            return None

    return first_seed(find)
