"""Issue 22: accessibility and a clean console on every page a player sees, for every game.

- axe-core finds no serious or critical violation on each game's table (Se Fode, 7 Letras, Se Fode Junto, King,
  One Man's Trash, Guimenon: each at one of its decisions), on Guimenon's deck builder, and on every rules page in
  both languages;
- a whole solo match of each game against bots (from a start point near its end for the long ones: King's last hand,
  Trash's last turns) runs to the end with no console error and no Content Security Policy violation.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page
from start_points import before_the_end

from .conftest import DESKTOP, MOBILE, Server
from .helpers import open_solo, snap, wait_ready
from .test_layout_all_games import CASES, Case
from .test_table_experience import _axe

CSP_WATCH = """window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile || ''}:${e.lineNumber || ''}`);
});"""
"""Every Content Security Policy violation the page reports, kept for the test to read."""

TABLES = {case.name: case for case in reversed(CASES)}
"""One decision of each game (the first seat count listed)."""


def _axe_context(browser: Browser, base_url: str, lang: str = "pt-BR") -> BrowserContext:
    # axe.min.js is injected as an inline script: only these contexts bypass the page's CSP to do so.
    context = browser.new_context(viewport=MOBILE, base_url=base_url, locale=lang, bypass_csp=True)
    context.add_init_script(f"localStorage.setItem('sefode.lang', '{lang}');")
    return context


@pytest.mark.parametrize("name", list(TABLES))
def test_axe_finds_nothing_serious_on_each_games_table(
    name: str, browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    case: Case = TABLES[name]
    context = _axe_context(browser, shared_server.url)
    page = context.new_page()
    open_solo(page, shared_server.url, "Ana", case.body())
    page.wait_for_selector(case.ready)
    found: list[dict[str, Any]] = []
    for size in (MOBILE, DESKTOP):
        page.set_viewport_size(size)
        found += _axe(page, f"{case.id} {size['width']}")
    (artifacts / "axe.txt").write_text("\n".join(repr(v) for v in found) + "\n")
    context.close()
    assert found == []


def test_axe_finds_nothing_serious_on_the_deck_builder(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    found: list[dict[str, Any]] = []
    for lang in ("pt-BR", "en"):
        context = _axe_context(browser, shared_server.url, lang)
        page = context.new_page()
        page.goto("/games/guimenon/client/builder.html")
        wait_ready(page)
        found += _axe(page, f"deck builder {lang}")
        context.close()
    (artifacts / "axe.txt").write_text("\n".join(repr(v) for v in found) + "\n")
    assert found == []


@pytest.mark.parametrize("lang", ["pt-BR", "en"])
def test_axe_finds_nothing_serious_on_every_rules_page_in_both_languages(
    browser: Browser, shared_server: Server, artifacts: Path, lang: str
) -> None:
    found: list[dict[str, Any]] = []
    context = _axe_context(browser, shared_server.url, lang)
    page = context.new_page()
    for rules in ("sefode", "7letras", "king", "trash", "guimenon"):
        page.goto(f"/rules/{rules}")
        wait_ready(page)
        page.wait_for_selector("[data-testid=rules-body] h1, [data-testid=rules-body] h2")
        found += _axe(page, f"rules {rules} {lang}")
    context.close()
    (artifacts / "axe.txt").write_text("\n".join(repr(v) for v in found) + "\n")
    assert found == []


# ---- a whole solo match of each game with a clean console

OVER = "[data-testid=end-overlay]:not([hidden]) [data-testid=placements]"

# Each driver takes the page's decisions in the page itself until the match's end (no round trip per decision).
FODINHA_DRIVE = """async (over) => {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  for (let i = 0; i < 20000; i += 1) {
    if (document.querySelector(over)) return 'over';
    const next = document.querySelector('[data-testid=bid-panel] button.bid:not([disabled])')
      || document.querySelector('[data-testid=my-hand] button.card.playable:not([disabled])');
    if (next) next.click();
    await sleep(25);
  }
  return 'stuck';
}"""
KING_DRIVE = """async (over) => {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  for (let i = 0; i < 20000; i += 1) {
    if (document.querySelector(over)) return 'over';
    const next = document.querySelector('[data-testid=contract-panel] button:not([disabled])')
      || document.querySelector('[data-testid=trump-panel] button:not([disabled])')
      || document.querySelector('[data-testid=my-hand] button.card.playable:not([disabled])');
    if (next) next.click();
    await sleep(25);
  }
  return 'stuck';
}"""
TRASH_DRIVE = """async (over) => {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  for (let i = 0; i < 20000; i += 1) {
    if (document.querySelector(over)) return 'over';
    const ok = document.querySelector('dialog#confirm[open] [data-testid=confirm-ok]');
    if (ok) { ok.click(); await sleep(25); continue; }
    const draw = document.querySelector("[data-testid=draw-pile][data-legal='1']");
    if (draw) draw.click();
    else {
      // No draw allowed: pick a card, then the first pile it may go to.
      for (const card of document.querySelectorAll('[data-testid=my-hand] [data-card]')) {
        card.click();
        await sleep(10);
        const target = document.querySelector(
          "[data-testid^=pile-][data-legal='1'], [data-testid=new-pile][data-legal='1']");
        if (target) { target.click(); break; }
        card.click();
      }
    }
    await sleep(25);
  }
  return 'stuck';
}"""
GUIMENON_DRIVE = """async (over) => {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  for (let i = 0; i < 20000; i += 1) {
    if (document.querySelector(over)) return 'over';
    const table = document.querySelector('[data-testid=table]');
    const version = table && table.dataset.version;
    // A discard owed: the first card; else a card put down on the first Location it may go to, then Confirm.
    const playable = document.querySelector('[data-testid=gm-hand] .gm-playable');
    const confirm = document.querySelector('[data-testid=gm-confirm]:not([disabled])');
    if (document.querySelector('[data-testid=gm-discard]') && playable) playable.click();
    else if (playable && !document.querySelector('.gm-pending')) {
      playable.click();
      await sleep(20);
      const target = document.querySelector('.gm-loc.gm-target');
      if (target) target.click();
    } else if (confirm) confirm.click();
    else { await sleep(40); continue; }
    for (let j = 0; j < 400; j += 1) {
      const now = document.querySelector('[data-testid=table]');
      if (document.querySelector(over) || !now || now.dataset.version !== version) break;
      await sleep(25);
    }
  }
  return 'stuck';
}"""


def _king_last_hand() -> dict[str, Any]:
    return before_the_end("king", {}, turns=13)


SEVEN_LETTERS = {"variant": "7letras", "players": 3, "max_cards": 2}


def _seven_letters_last_hands() -> dict[str, Any]:
    # The whole match took 12-19 s in the page (its length follows what the bots and the page play); its last few
    # hands are enough to see every screen of 7 Letras, the match's end included.
    return before_the_end("fodinha", SEVEN_LETTERS, turns=8)


def _trash_last_turns() -> dict[str, Any]:
    return before_the_end("trash", {"players": 3}, turns=3)


MATCHES: dict[str, tuple[Callable[[], dict[str, Any]], str]] = {
    "sefode": (lambda: {"bots": 3, "options": {"players": 4, "lives": 1, "max_cards": 3}}, FODINHA_DRIVE),
    "7letras": (
        lambda: {"bots": 2, "options": SEVEN_LETTERS, "start": _seven_letters_last_hands()},
        FODINHA_DRIVE,
    ),
    "sefodejunto": (
        lambda: {"bots": 3, "options": {"players": 4, "teams": True, "lives": 1, "max_cards": 3}},
        FODINHA_DRIVE,
    ),
    "king": (lambda: {"game": "king", "bots": 3, "start": _king_last_hand()}, KING_DRIVE),
    "trash": (
        lambda: {"game": "trash", "bots": 2, "options": {"players": 3}, "start": _trash_last_turns()},
        TRASH_DRIVE,
    ),
    "guimenon": (lambda: {"game": "guimenon", "bots": 1, "level": "easy"}, GUIMENON_DRIVE),
}


def _watch(page: Page, noise: list[str]) -> None:
    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            noise.append(f"console: {message.text}")

    page.on("console", on_console)
    page.on("pageerror", lambda error: noise.append(f"page error: {error}"))


@pytest.mark.parametrize("name", list(MATCHES))
def test_a_whole_solo_match_leaves_no_console_error_and_no_csp_violation(
    name: str, browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    body, drive = MATCHES[name]
    context = browser.new_context(viewport=MOBILE, base_url=shared_server.url, locale="pt-BR", reduced_motion="reduce")
    context.add_init_script(CSP_WATCH)
    page = context.new_page()
    noise: list[str] = []
    _watch(page, noise)
    open_solo(page, shared_server.url, "Ana", body())
    assert page.evaluate(drive, OVER) == "over"
    page.wait_for_selector(OVER)
    snap(page, artifacts / f"{name}-end.png")
    violations = page.evaluate("() => window.__csp")
    context.close()
    assert noise == []
    assert violations == []
