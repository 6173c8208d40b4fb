"""Issue 22's per-game polish of the King, One Man's Trash and Guimenon tables, each from a seeded start point:

* King: the seat counters are small icons named in player words (no "Vz 0 JK 0"), seat text is 12 px or more on a
  phone and a laptop, the súmula shows every column (its own sideways scroll on a phone, the hand column fixed), and
  the end-of-match card shows how it was won: the final súmula.
* One Man's Trash: a tall pile shows its top cards whole (a count for the rest), each pile says what a tap does with
  the selection (trash or swap), the score has headers, no "carta(s)", the end card says how the match was won, and
  the replay's move list is readable.
* Guimenon: card names are never cut, a card zooms to its full text on hover and long-press, and the end shows the
  final board (every Location with both sides' cards and Stars).

Screenshots of each table in a decision state and at the end, at 360x740 and 1366x800, go to the test's artifacts
folder as ``<game>-<state>-<width>.png`` (the ones kept in docs/screenshots/ came from here)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, ViewportSize, expect
from start_points import before_the_end, first_seed, start_point

from sefode.engine import Game

from .conftest import Server
from .helpers import TURN_TIMEOUT_MS, open_client, open_solo, snap

ROOT = Path(__file__).resolve().parents[2]
PHONE: ViewportSize = {"width": 360, "height": 740}
LAPTOP: ViewportSize = {"width": 1366, "height": 800}

SETTLED = """() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"""


def game_texts(game: str, lang: str = "pt-BR") -> dict[str, str]:
    data: dict[str, str] = json.loads((ROOT / "sefode" / "games" / game / "i18n" / f"{lang}.json").read_text("utf-8"))
    return data


def shots(page: Page, folder: Path, game: str, state: str) -> None:
    """The viewport (not the whole page: small files) at the phone's and the laptop's size; the size is restored."""
    original = page.viewport_size or PHONE
    for size in (PHONE, LAPTOP):
        page.set_viewport_size(size)
        page.evaluate(SETTLED)
        snap(page, folder / f"{game}-{state}-{size['width']}.png", type="png")
    page.set_viewport_size(original)


def end_card(page: Page) -> Any:
    card = page.locator("[data-testid=end-overlay]:not([hidden])")
    expect(card.get_by_test_id("placements")).to_be_visible(timeout=TURN_TIMEOUT_MS)
    return card


# ---- King


def _king_mid_salad() -> dict[str, Any]:
    """Seat 0 to play in a Salada or Bolola hand (every counter shown) after three tricks."""

    def until(game: Game[Any], state: Any) -> bool:
        view = game.view(state, 0)
        return bool(
            view["phase"] == "playing"
            and view["contract"] in ("salada", "bolola")
            and game.awaiting(state) == {0}
            and sum(view["taken"][s]["tricks"] for s in range(4)) >= 3
        )

    return first_seed(lambda seed: start_point("king", {}, until, seed=seed))


SMALL_TEXT = """(selector) => {
  // The smallest computed font size of any element under `selector` that shows text of its own.
  let smallest = 1000;
  for (const root of document.querySelectorAll(selector)) {
    for (const el of [root, ...root.querySelectorAll('*')]) {
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      if (!own || !el.getClientRects().length) continue;
      smallest = Math.min(smallest, parseFloat(getComputedStyle(el).fontSize));
    }
  }
  return smallest;
}"""


def test_king_seat_counters_are_icons_with_labels_and_seat_text_is_12px_or_more(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    pt = game_texts("king")
    client = open_client(browser, shared_server.url)
    page = client.page
    page.emulate_media(reduced_motion="reduce")
    open_solo(page, shared_server.url, "Ana", {"game": "king", "bots": 3, "level": "easy", "start": _king_mid_salad()})
    expect(page.locator("[data-testid=my-hand] button.card.playable").first).to_be_visible()
    for seat in range(4):
        taken = page.get_by_test_id(f"seat-taken-{seat}")
        expect(taken).to_be_visible()
        # No raw abbreviations: "Vz 0 JK 0 Q 0 ♥ 0 K♥ 0 0".
        assert pt["king.taken.short.tricks"] not in taken.inner_text()
        counters = taken.locator(".counter")
        assert counters.count() >= 4
        for i in range(counters.count()):
            counter = counters.nth(i)
            key = (counter.get_attribute("data-testid") or "").split("-", 2)[2]
            label = counter.get_attribute("aria-label") or ""
            assert re.fullmatch(re.escape(pt[f"king.taken.{key}"]) + r": \d+", label), label
            assert counter.get_attribute("role") == "img"
            assert counter.get_attribute("title") == label
        points = page.get_by_test_id(f"seat-points-{seat}")
        assert (points.get_attribute("aria-label") or "").startswith(pt["king.points_hand"] + ": ")
    for size in (PHONE, LAPTOP):
        page.set_viewport_size(size)
        page.evaluate(SETTLED)
        smallest = page.evaluate(SMALL_TEXT, "[data-testid=table] .seat")
        assert smallest >= 12, f"seat text of {smallest}px at {size['width']}px"
    shots(page, artifacts, "king", "play")

    # The súmula: at 360 px its box scrolls sideways and its last column can be seen, the hand column staying put.
    page.set_viewport_size(PHONE)
    page.get_by_test_id("tab-score").click()
    box = page.get_by_test_id("score-sheet-box")
    expect(box).to_be_visible()
    assert box.evaluate("b => getComputedStyle(b).overflowX") == "auto"
    box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
    page.evaluate(SETTLED)
    inside = """(b) => {
      const r = b.getBoundingClientRect();
      const last = b.querySelector('[data-testid=sheet-head-3]').getBoundingClientRect();
      const first = b.querySelector('thead th').getBoundingClientRect();
      return last.right <= r.right + 1 && last.left >= r.left && first.left >= r.left - 1 && first.left <= r.left + 1
        && r.right <= window.innerWidth;
    }"""
    assert box.evaluate(inside), "the súmula's last column is not in its box at 360px"
    page.set_viewport_size(LAPTOP)
    page.evaluate(SETTLED)
    box.evaluate("b => { b.scrollLeft = 0; }")
    assert box.evaluate("b => b.scrollWidth <= b.clientWidth"), "the súmula needs a scroll at 1366px"
    assert box.evaluate(inside)
    assert client.errors == []
    client.close()


def test_king_end_card_shows_the_final_sumula_and_who_won(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    pt = game_texts("king")
    client = open_client(browser, shared_server.url)
    page = client.page
    page.emulate_media(reduced_motion="reduce")
    point = before_the_end("king", {}, seat=0, turns=1, where=lambda g, s: g.view(s, 0)["phase"] == "playing")
    open_solo(page, shared_server.url, "Ana", {"game": "king", "bots": 3, "level": "easy", "start": point})
    page.locator("[data-testid=my-hand] button.card.playable").first.click()
    card = end_card(page)
    end = card.get_by_test_id("king-end")
    expect(end).to_be_visible()
    expect(end.get_by_test_id("score-sheet").locator("[data-testid^=sheet-row-]")).to_have_count(12)
    expect(end.get_by_test_id("sheet-totals")).to_be_visible()
    head = pt["king.end.how"].split("{name}")[0]
    expect(end.get_by_test_id("end-how-text")).to_contain_text(head)
    # On a phone the four columns fit the card: the last one shows without scrolling.
    page.set_viewport_size(PHONE)
    page.evaluate(SETTLED)
    box = end.get_by_test_id("score-sheet-box")
    assert box.evaluate("b => b.scrollWidth <= b.clientWidth + 1"), "the final súmula is cut at 360px"
    shots(page, artifacts, "king", "end")
    # The card links to the match's replay (as the profile does), which names the human as the table did.
    shell = json.loads((ROOT / "sefode" / "web" / "static" / "i18n" / "pt-BR.json").read_text("utf-8"))
    link = card.get_by_test_id("placements-replay")
    expect(link).to_have_text(shell["end.replay"])
    link.click()
    replay = page.get_by_test_id("replay-page")
    expect(replay).to_have_attribute("data-error", "")
    expect(replay.get_by_test_id("score-sheet").locator("[data-testid^=sheet-row-]")).to_have_count(12)
    expect(replay.get_by_test_id("replay-place-0")).to_contain_text("Ana")
    assert client.errors == []
    client.close()


# ---- One Man's Trash


def _trash_point(predicate: Any) -> dict[str, Any]:
    def find(seed: int) -> dict[str, Any] | None:
        try:
            return start_point("trash", {"players": 3}, predicate, seed=seed)
        except AssertionError:
            return None

    return first_seed(find)


def _tall_pile(game: Game[Any], state: Any) -> bool:
    """Seat 0 awaited with three cards or more, and a pile of nine cards or more on the table."""
    if game.awaiting(state) != {0}:
        return False
    view = game.view(state, 0)
    return max(len(p) for p in view["piles"]) >= 9 and len(view["hand"]) >= 3


def _can_win(game: Game[Any], state: Any) -> bool:
    """Seat 0 awaited, holding four of a kind that a pile takes: trashing them wins."""
    if game.awaiting(state) != {0}:
        return False
    view = game.view(state, 0)
    for action in game.legal_actions(state, 0):
        entry = game.action_json(state, action)
        four = "trash" in entry and len(entry["trash"]) == 4 == len(view["hand"])
        if four and view["piles"][entry["pile"]][-1] not in view["collectors"]:
            return True
    return False


FAN_GEOMETRY = """(pile) => {
  // Each shown card's left edge to the next one's: how much of it shows; the top card's box against the pile's.
  const cards = [...pile.querySelectorAll('[data-testid=pile-fan] .card')].map((c) => c.getBoundingClientRect());
  const steps = cards.slice(1).map((r, i) => r.left - cards[i].left);
  const top = cards[cards.length - 1];
  const box = pile.getBoundingClientRect();
  return { n: cards.length, steps, topWhole: top.left >= box.left && top.right <= box.right, topWidth: top.width };
}"""


def test_trash_tall_pile_shows_its_top_cards_whole_and_piles_say_what_a_tap_does(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    pt = game_texts("trash")
    client = open_client(browser, shared_server.url)
    page = client.page
    page.emulate_media(reduced_motion="reduce")
    open_solo(
        page, shared_server.url, "Ana", {"game": "trash", "bots": 2, "level": "easy", "start": _trash_point(_tall_pile)}
    )
    expect(page.get_by_test_id("turn-line")).to_have_class(re.compile(r"\bmine\b"))
    piles = page.locator("[data-testid^=pile-][data-legal]")
    labels = [piles.nth(i).locator(".label").inner_text() for i in range(piles.count())]
    sizes = [int(m[0]) if (m := re.findall(r"(\d+) cartas?", label)) else 1 for label in labels]  # a Collector: 1
    tall = piles.nth(sizes.index(max(sizes)))
    assert max(sizes) >= 9
    # The top four cards, and how many lie under them.
    expect(tall.get_by_test_id("fan-more")).to_have_text(f"+{max(sizes) - 4}")
    for size in (PHONE, LAPTOP):
        page.set_viewport_size(size)
        page.evaluate(SETTLED)
        geometry = tall.evaluate(FAN_GEOMETRY)
        assert geometry["n"] == 4
        # Every card under the top one shows its corner (rank and suit: 20 px of a 32 px card), the top one whole.
        assert min(geometry["steps"]) >= 20, geometry
        assert geometry["topWhole"], geometry
    # Before a card is picked no pile looks disabled, and none claims a tap does anything.
    expect(page.locator(".trash-pile.off")).to_have_count(0)
    expect(page.locator("[data-testid^=pile-tap-]")).to_have_count(0)
    # With a card picked, each pile a tap would act on says what the tap does (trash, swap or collect).
    hints = {pt[f"trash.tap.{verb}"] for verb in ("trash", "swap", "collect")}
    cards = page.locator("[data-testid=my-hand] [data-testid^=hand-card-]")
    said = 0
    for i in range(cards.count()):
        cards.nth(i).click()
        legal = page.locator("[data-testid^=pile-][data-legal='1']")
        for k in range(legal.count()):
            pile = legal.nth(k)
            verb = pile.get_attribute("data-tap")
            hint = pile.locator("[data-testid^=pile-tap-]")
            expect(hint).to_have_text(pt[f"trash.tap.{verb}"])
            assert hint.inner_text() in hints
            expect(pile).to_have_accessible_name(re.compile(re.escape(pt[f"trash.tap.{verb}"]) + "$"))
            said += 1
        if said:
            break
        cards.nth(i).click()  # deselect
    assert said, "no card of the hand goes on a pile in this deal"
    shots(page, artifacts, "trash", "pick-pile")
    # The score: a table with headers, not "3 0".
    page.get_by_test_id("tab-score").click()
    heads = page.get_by_test_id("trash-score").locator("thead th")
    expect(heads).to_have_text([pt[f"trash.score.{k}"] for k in ("player", "cards", "status", "turns")])
    # Plurals in words, never "carta(s)".
    assert "(s)" not in page.evaluate("() => document.body.innerText")
    assert client.errors == []
    client.close()


CONTRAST = """(el) => {
  // The contrast ratio of el's text against the first ancestor with an opaque background.
  const rgb = (s) => s.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => {
    const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  let bg = null;
  for (let n = el; n && !bg; n = n.parentElement) {
    const c = rgb(getComputedStyle(n).backgroundColor);
    if (c.length === 3 || c[3] === 1) bg = c.slice(0, 3);
  }
  const fg = lum(rgb(getComputedStyle(el).color));
  const back = lum(bg || [255, 255, 255]);
  return (Math.max(fg, back) + 0.05) / (Math.min(fg, back) + 0.05);
}"""


def test_trash_end_card_shows_the_four_of_a_kind_and_the_replay_move_list_reads(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    pt = game_texts("trash")
    client = open_client(browser, shared_server.url)
    page = client.page
    page.emulate_media(reduced_motion="reduce")
    open_solo(
        page, shared_server.url, "Ana", {"game": "trash", "bots": 2, "level": "easy", "start": _trash_point(_can_win)}
    )
    cards = page.locator("[data-testid=my-hand] [data-testid^=hand-card-]")
    expect(cards).to_have_count(4)
    for i in range(4):
        cards.nth(i).click()
    shots(page, artifacts, "trash", "four-picked")
    page.locator("[data-testid^=pile-][data-tap=trash]").first.click()
    card = end_card(page)
    end = card.get_by_test_id("trash-end")
    expect(end.get_by_test_id("end-four").locator(".card")).to_have_count(4)
    head = pt["trash.end.four"].split("{name}")[1].split("(")[0]
    expect(end.get_by_test_id("end-how-text")).to_contain_text(head)
    shots(page, artifacts, "trash", "end")
    # The replay's list of moves: readable text on its background (not dark on the dark green page).
    href = card.get_by_test_id("download-history").get_attribute("href") or ""
    match_id = re.findall(r"/api/matches/([^/]+)/history", href)[0]
    page.goto(f"/replay/{match_id}")
    moves = page.get_by_test_id("replay-actions").locator("li")
    expect(moves.first).to_be_visible()
    assert moves.first.evaluate(CONTRAST) >= 4.5
    assert "(s)" not in page.evaluate("() => document.body.innerText")
    # The human's seat by their name (kept from the table), not "Lugar 1".
    expect(page.get_by_test_id("trash-replay").locator(".trash-seats li").first).to_have_text(re.compile(r"^Ana: "))
    expect(moves.filter(has_text=re.compile(r"^Ana: "))).not_to_have_count(0)
    assert "Lugar 1" not in page.evaluate("() => document.body.innerText")
    shots(page, artifacts, "trash", "replay")
    assert client.errors == []
    client.close()


# ---- Guimenon


def _guimenon_point(turn: int) -> dict[str, Any]:
    """Seat 0 to place its cards at the start of turn ``turn`` (nothing owed to discard)."""

    def until(game: Game[Any], state: Any) -> bool:
        view = game.view(state, 0)
        return bool(
            view["turn"] == turn
            and 0 in game.awaiting(state)
            and not view["confirmed"][0]
            and not view["me"]["owed_discards"]
        )

    return first_seed(lambda seed: start_point("guimenon", {}, until, seed=seed))


NAMES_CUT = """() => [...document.querySelectorAll('.gm-cardname')].filter((el) => {
  const style = getComputedStyle(el);
  return el.scrollWidth > el.clientWidth + 1 || style.textOverflow === 'ellipsis' || style.whiteSpace === 'nowrap';
}).map((el) => el.textContent)"""


def test_guimenon_card_names_are_whole_and_a_card_zooms_on_hover_and_on_long_press(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    gm = game_texts("guimenon")
    client = open_client(browser, shared_server.url)
    page = client.page
    page.emulate_media(reduced_motion="reduce")
    open_solo(
        page, shared_server.url, "Ana", {"game": "guimenon", "bots": 1, "level": "easy", "start": _guimenon_point(4)}
    )
    expect(page.get_by_test_id("gm-prompt")).to_be_visible()
    for size in (PHONE, LAPTOP):
        page.set_viewport_size(size)
        page.evaluate(SETTLED)
        assert page.evaluate(NAMES_CUT) == [], f"card names cut at {size['width']}px"
    shots(page, artifacts, "guimenon", "place")

    # Laptop: the pointer resting on a card shows it whole, beside it; leaving the card hides it.
    page.set_viewport_size(LAPTOP)
    card = page.locator("[data-testid=gm-hand] .gm-card").first
    card_id = card.get_attribute("data-card") or ""
    zoom = page.get_by_test_id("gm-zoom")
    card.hover()
    expect(zoom).to_be_visible()
    expect(zoom).to_have_attribute("data-card", card_id)
    expect(zoom.locator(".gm-cardname")).to_have_text(gm[f"guimenon.card.{card_id}"])
    if gm[f"guimenon.card.{card_id}.text"]:
        expect(zoom.locator(".gm-text")).to_have_text(gm[f"guimenon.card.{card_id}.text"])
    box = zoom.bounding_box()
    frame = card.bounding_box()
    assert box and frame and (box["x"] >= frame["x"] + frame["width"] or box["x"] + box["width"] <= frame["x"])
    page.mouse.move(2, 2)
    expect(zoom).to_be_hidden()

    # Phone: a long press shows the card (centred) and does not also pick it; the next touch closes it.
    page.set_viewport_size(PHONE)
    page.evaluate(SETTLED)
    card = page.locator(f"[data-testid=gm-hand] .gm-card[data-card='{card_id}']")
    card.scroll_into_view_if_needed()
    card.dispatch_event("pointerdown", {"pointerType": "touch", "isPrimary": True, "bubbles": True})
    expect(zoom).to_be_visible()
    expect(zoom).to_have_attribute("data-by", "press")
    expect(zoom.locator(".gm-cardname")).to_have_text(gm[f"guimenon.card.{card_id}"])
    card.dispatch_event("pointerup", {"pointerType": "touch", "isPrimary": True, "bubbles": True})
    card.dispatch_event("click")
    assert page.locator(".gm-card.gm-selected").count() == 0
    snap(page, artifacts / "guimenon-zoom-360.png", type="png")
    page.locator(".gm-head").dispatch_event("pointerdown", {"pointerType": "touch", "isPrimary": True, "bubbles": True})
    expect(zoom).to_be_hidden()
    assert client.errors == []
    client.close()


def test_guimenon_a_location_zooms_on_long_press_with_its_whole_text(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    """Issue 22: on a phone at 130% text a Location's text is cut to three lines; a long press shows it whole (as a
    card's zoom), does not also act on the Location, and the next touch closes it. A laptop's pointer resting on it
    shows it too."""
    gm = game_texts("guimenon")
    client = open_client(browser, shared_server.url)
    page = client.page
    page.emulate_media(reduced_motion="reduce")
    page.add_init_script(
        "new MutationObserver((_, w) => { if (!document.documentElement) return;"
        " document.documentElement.style.fontSize = '130%'; w.disconnect(); }).observe(document, { childList: true });"
    )
    open_solo(
        page, shared_server.url, "Ana", {"game": "guimenon", "bots": 1, "level": "easy", "start": _guimenon_point(4)}
    )
    expect(page.get_by_test_id("gm-prompt")).to_be_visible()
    face = page.locator("[data-testid^=gm-location-]:not(.gm-hidden)").first
    expect(face).to_be_visible()
    testid = face.get_attribute("data-testid") or ""
    location = (face.get_attribute("data-zoom") or "").removeprefix("location:")
    assert location, "a revealed Location can be zoomed"
    text = gm[f"guimenon.location.{location}.text"]
    zoom = page.get_by_test_id("gm-zoom")
    face.scroll_into_view_if_needed()
    face.dispatch_event("pointerdown", {"pointerType": "touch", "isPrimary": True, "bubbles": True})
    expect(zoom).to_be_visible()
    expect(zoom).to_have_attribute("data-by", "press")
    expect(zoom).to_have_attribute("data-location", location)
    expect(zoom.locator(".gm-locname")).to_have_text(gm[f"guimenon.location.{location}"])
    expect(zoom.get_by_test_id("gm-zoom-location")).to_contain_text(text)
    # Whole: the zoom's text is not clamped, and it fits the screen.
    whole = zoom.locator(".gm-zoomloctext").evaluate("(el) => el.scrollHeight <= el.clientHeight + 1")
    assert whole
    box = zoom.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    face.dispatch_event("pointerup", {"pointerType": "touch", "isPrimary": True, "bubbles": True})
    snap(page, artifacts / "guimenon-location-zoom-360.png", type="png")
    page.locator(".gm-head").dispatch_event("pointerdown", {"pointerType": "touch", "isPrimary": True, "bubbles": True})
    expect(zoom).to_be_hidden()
    # Laptop: the pointer resting on the Location shows it; leaving it hides it.
    page.set_viewport_size(LAPTOP)
    page.evaluate(SETTLED)
    page.get_by_test_id(testid).hover()
    expect(zoom).to_have_attribute("data-location", location)
    expect(zoom).to_be_visible()
    snap(page, artifacts / "guimenon-location-zoom-1366.png", type="png")
    page.mouse.move(2, 2)
    expect(zoom).to_be_hidden()
    assert client.errors == []
    client.close()


def test_guimenon_end_card_shows_the_final_board_and_how_it_was_won(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    gm = game_texts("guimenon")
    client = open_client(browser, shared_server.url)
    page = client.page
    page.emulate_media(reduced_motion="reduce")
    open_solo(
        page, shared_server.url, "Ana", {"game": "guimenon", "bots": 1, "level": "easy", "start": _guimenon_point(6)}
    )
    page.get_by_test_id("gm-confirm").click()
    card = end_card(page)
    board = card.get_by_test_id("gm-final-board")
    expect(board.locator(".gm-final-loc")).to_have_count(3)
    expect(board.locator(".gm-final-side")).to_have_count(6)
    for li in range(3):
        for seat in range(2):
            expect(board.get_by_test_id(f"gm-final-stars-{li}-{seat}")).to_have_text(re.compile(r"^-?\d+★$"))
    # Cards on the board at the end are listed by name.
    assert board.locator("li").count() >= 1
    # How it was won: by Locations, by Stars, or a draw, in the catalogue's words.
    forms = [re.escape(gm[k]) for k in ("guimenon.end.locations", "guimenon.end.stars", "guimenon.end.draw")]
    pattern = "|".join(re.sub(r"\\\{[a-z]+\\\}", ".+", f) for f in forms)
    expect(card.get_by_test_id("end-how-text")).to_have_text(re.compile(f"^({pattern})$"))
    shots(page, artifacts, "guimenon", "end")
    assert client.errors == []
    client.close()
