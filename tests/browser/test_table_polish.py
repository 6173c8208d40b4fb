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
import random
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, ViewportSize, expect
from start_points import before_the_end, first_seed, start_point

from sefode.engine import Game

from .conftest import Server
from .helpers import TURN_TIMEOUT_MS, open_client, open_solo

ROOT = Path(__file__).resolve().parents[2]
PHONE: ViewportSize = {"width": 360, "height": 740}
LAPTOP: ViewportSize = {"width": 1366, "height": 800}

SETTLED = """() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"""


def game_texts(game: str, lang: str = "pt-BR") -> dict[str, str]:
    data: dict[str, str] = json.loads((ROOT / "sefode" / "games" / game / "i18n" / f"{lang}.json").read_text("utf-8"))
    return data


def snap(page: Page, folder: Path, game: str, state: str) -> None:
    """The viewport (not the whole page: small files) at the phone's and the laptop's size; the size is restored."""
    original = page.viewport_size or PHONE
    for size in (PHONE, LAPTOP):
        page.set_viewport_size(size)
        page.evaluate(SETTLED)
        page.screenshot(path=str(folder / f"{game}-{state}-{size['width']}.png"), type="png")
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
    snap(page, artifacts, "king", "play")

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
    snap(page, artifacts, "king", "end")
    assert client.errors == []
    client.close()
