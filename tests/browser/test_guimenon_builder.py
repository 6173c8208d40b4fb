"""Guimenon's deck builder, a page of the shell at /games/guimenon/decks (the module's ``pages``; issue 22): under the
site's header (home, language), every field labelled; browse and filter the pool, build a deck with the live check of
the deck rules and the Moon curve, keep it on the server (the platform's player data, as a guest) with a "saved"
confirmation, find it again after a reload, copy its share code with a confirmation, open a shared code, and refuse a
mistyped code in player words, leaving the deck on screen as it was."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Browser, Page, ViewportSize, expect

from .conftest import DESKTOP, MOBILE, Server
from .helpers import catalogue, open_client, shoot, snap
from .test_table_experience import _axe

POOL = json.loads(
    (Path(__file__).resolve().parents[2] / "sefode" / "games" / "guimenon" / "client" / "cards.json").read_text(
        encoding="utf-8"
    )
)
PT = catalogue("pt-BR")
EN = catalogue("en")
LAPTOP: ViewportSize = {"width": 1366, "height": 800}


def _open(page: Page) -> None:
    page.goto("/games/guimenon/decks")
    page.wait_for_selector("[data-testid=game-page-decks][data-ready='1']")


def _deck(page: Page) -> list[str]:
    cards = page.locator("[data-testid=builder-deck] .gm-card").evaluate_all("els => els.map(e => e.dataset.card)")
    return sorted(str(c) for c in cards)


def _mistyped(code: str) -> str:
    """The code with one character of its body changed (a typo)."""
    i = len("G2-") + 1
    return code[:i] + ("1" if code[i] != "1" else "2") + code[i + 1 :]


def test_build_a_deck_save_it_reload_it_and_share_it_by_code(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    client = open_client(browser, shared_server.url)
    client.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = client.page
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    _open(page)
    # Inside the shell: the site's header, with its way home and its language switch.
    expect(page.get_by_test_id("nav-home")).to_be_visible()
    expect(page.get_by_test_id("lang-toggle")).to_be_visible()
    expect(page.locator("h1")).to_have_text(PT["guimenon.builder.title"])
    # The nickname box has a label of its own.
    expect(page.get_by_label(PT["guimenon.builder.nickname"])).to_have_attribute("data-testid", "builder-nickname")
    expect(page.locator("[data-testid=builder-pool] .gm-card")).to_have_count(len(POOL["cards"]))
    # Filters: a Type, then a cost, then a kind.
    page.get_by_test_id("builder-type").select_option("raiz")
    roots = [c for c in POOL["cards"] if "raiz" in c["types"]]
    expect(page.locator("[data-testid=builder-pool] .gm-card")).to_have_count(len(roots))
    page.get_by_test_id("builder-cost").select_option("1")
    expect(page.locator("[data-testid=builder-pool] .gm-card")).to_have_count(len([c for c in roots if c["cost"] == 1]))
    page.get_by_test_id("builder-type").select_option("")
    page.get_by_test_id("builder-cost").select_option("")
    page.get_by_test_id("builder-kind").select_option("item")
    items = [c for c in POOL["cards"] if c["kind"] == "item"]
    expect(page.locator("[data-testid=builder-pool] .gm-card")).to_have_count(len(items))
    page.get_by_test_id("builder-kind").select_option("")
    # Build: 11 cards is too few, the 12th makes it valid; a card in the deck leaves the pool (1 copy).
    chosen = [c["id"] for c in POOL["cards"][:12]]
    for card in chosen[:11]:
        page.get_by_test_id(f"builder-pool-{card}").click()
    expect(page.get_by_test_id("builder-status")).to_have_attribute("data-valid", "0")
    expect(page.get_by_test_id("builder-save")).to_be_disabled()
    expect(page.get_by_test_id(f"builder-pool-{chosen[0]}")).to_have_count(0)
    page.get_by_test_id(f"builder-pool-{chosen[11]}").click()
    expect(page.get_by_test_id("builder-status")).to_have_attribute("data-valid", "1")
    ones = len([c for c in POOL["cards"][:12] if c["cost"] == 1])
    expect(page.get_by_test_id("builder-curve-1")).to_have_attribute("data-count", str(ones))
    shoot(page, artifacts, "01-builder")
    # Keep it on the server as a guest: the page says it is saved, and finds it again after a reload.
    page.get_by_label(PT["guimenon.builder.nickname"]).fill("Ana")
    page.get_by_label(PT["guimenon.builder.name"]).fill("Meu Deck")
    page.get_by_test_id("builder-save").click()
    expect(page.get_by_test_id("builder-message")).to_have_text(
        PT["guimenon.builder.saved_ok"].replace("{name}", "Meu Deck").replace("{count}", "12")
    )
    expect(page.get_by_test_id("builder-saved-meu-deck")).to_contain_text("Meu Deck (12)")
    code = page.get_by_test_id("builder-code").input_value()
    assert code.startswith("G2-") and len(code) < 20
    # Copy the code: a visible confirmation, and the code is on the clipboard.
    page.get_by_test_id("builder-copy").click()
    expect(page.get_by_test_id("builder-copied")).to_have_text(PT["guimenon.builder.copied"])
    assert page.evaluate("() => navigator.clipboard.readText()") == code
    page.reload()
    page.wait_for_selector("[data-testid=game-page-decks][data-ready='1']")
    expect(page.get_by_test_id("builder-saved-meu-deck")).to_be_visible()
    expect(page.get_by_test_id("builder-who")).to_contain_text("Ana")
    expect(page.locator("[data-testid=builder-deck] .gm-card")).to_have_count(0)
    page.get_by_test_id("builder-open-meu-deck").click()
    expect(page.locator("[data-testid=builder-deck] .gm-card")).to_have_count(12)
    # The server checked it with the deck rules and kept it for this player.
    saved = page.request.get("/api/me/games/guimenon/data").json()["items"]
    assert [i["value"]["cards"] for i in saved] == [chosen]
    # The share code brings the same deck back in place of another.
    ready = POOL["decks"][0]
    page.get_by_test_id("builder-ready").select_option(ready["id"])
    expect(page.locator("[data-testid=builder-deck] .gm-card")).to_have_count(len(ready["cards"]))
    page.get_by_label(PT["guimenon.builder.import_label"]).fill(code)
    page.get_by_test_id("builder-import").click()
    expect(page.locator("[data-testid=builder-deck] .gm-card")).to_have_count(12)
    assert _deck(page) == sorted(chosen)
    # A mistyped code (one character off), or words that are no code: refused in player words, the deck unchanged.
    page.get_by_test_id("builder-ready").select_option(ready["id"])
    expect(page.locator("[data-testid=builder-deck] .gm-card")).to_have_count(len(ready["cards"]))
    for wrong in (_mistyped(code), code[:-1], "nonsense"):
        page.get_by_test_id("builder-import-code").fill(wrong)
        page.get_by_test_id("builder-import").click()
        expect(page.get_by_test_id("builder-message")).to_have_text(PT["guimenon.builder.bad_code"])
        expect(page.get_by_test_id("builder-message")).to_have_attribute("data-kind", "error")
        expect(page.get_by_test_id("builder-import-code")).to_have_attribute("aria-invalid", "true")
        assert _deck(page) == sorted(ready["cards"])
    # The language switch redraws the page in English and keeps the deck being built.
    page.get_by_test_id("lang-toggle").click()
    expect(page.locator("h1")).to_have_text(EN["guimenon.builder.title"])
    assert _deck(page) == sorted(ready["cards"])
    page.get_by_test_id("lang-toggle").click()
    expect(page.locator("h1")).to_have_text(PT["guimenon.builder.title"])
    page.get_by_test_id("builder-delete-meu-deck").click()
    expect(page.get_by_test_id("builder-saved-meu-deck")).to_have_count(0)
    # The way home.
    page.get_by_test_id("builder-home").click()
    expect(page).to_have_url(f"{shared_server.url}/")
    expect(page.get_by_test_id("nickname")).to_be_visible()
    assert client.errors == []
    assert console == []  # no Content-Security-Policy refusal, no failed request
    client.close()


def test_the_deck_builder_has_no_serious_accessibility_violation_at_either_size(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    """axe-core on the builder with a deck and a refused code on screen; the screenshots (deckbuilder-<width>.png,
    copied to docs/screenshots/) show the laptop page from the top and the phone's share rows."""
    # axe.min.js is injected as an inline script: only this test's context bypasses the page's CSP to do so.
    context = browser.new_context(viewport=MOBILE, base_url=shared_server.url, locale="pt-BR", bypass_csp=True)
    page = context.new_page()
    _open(page)
    for card in [c["id"] for c in POOL["cards"][:13]]:
        page.get_by_test_id(f"builder-pool-{card}").click()
    page.get_by_test_id("builder-import-code").fill("G2-oops")
    page.get_by_test_id("builder-import").click()
    expect(page.get_by_test_id("builder-message")).to_have_attribute("data-kind", "error")
    found = []
    for size in (MOBILE, LAPTOP, DESKTOP):
        page.set_viewport_size(size)
        found += _axe(page, f"builder {size['width']}")
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the builder at {size['width']}px is {overflow}px wider than the screen"
        if size is not DESKTOP:
            # On the phone, the share rows and the refusal of a mistyped code; on the laptop, the page from the top.
            page.evaluate(
                """(phone) => phone
              ? document.querySelector('[data-testid=builder-name]').scrollIntoView({ block: 'start' })
              : window.scrollTo(0, 0)""",
                size is MOBILE,
            )
            snap(page, artifacts / f"deckbuilder-{size['width']}.png")
    assert found == [], json.dumps(found, indent=1)
    context.close()
