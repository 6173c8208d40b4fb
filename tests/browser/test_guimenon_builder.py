"""Guimenon's deck builder page (sefode/games/guimenon/client/builder.html): browse and filter the pool, build a deck
with the live check of the deck rules and the Moon curve, keep it on the server (the platform's player data, as a
guest), find it again after a reload, and share it by a short code."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Browser, expect

from .conftest import DESKTOP, Server
from .helpers import open_client, shoot

POOL = json.loads((Path(__file__).resolve().parents[2] / "sefode" / "games" / "guimenon" / "client" / "cards.json")
                  .read_text(encoding="utf-8"))


def test_build_a_deck_save_it_reload_it_and_share_it_by_code(browser: Browser, server: Server, artifacts: Path) -> None:
    client = open_client(browser, server.url)
    page = client.page
    page.goto("/games/guimenon/client/builder.html")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("[data-testid=builder-pool] .gm-card")).to_have_count(len(POOL["cards"]))
    # Filters: a Type, then a cost, then a kind.
    page.get_by_test_id("builder-type").select_option("raiz")
    roots = [c for c in POOL["cards"] if "raiz" in c["types"]]
    expect(page.locator("[data-testid=builder-pool] .gm-card")).to_have_count(len(roots))
    page.get_by_test_id("builder-cost").select_option("1")
    expect(page.locator("[data-testid=builder-pool] .gm-card")).to_have_count(
        len([c for c in roots if c["cost"] == 1]))
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
    page.set_viewport_size(DESKTOP)
    shoot(page, artifacts, "01-builder")
    # Keep it on the server as a guest, and find it again after a reload.
    page.get_by_test_id("builder-nickname").fill("Ana")
    page.get_by_test_id("builder-name").fill("Meu Deck")
    page.get_by_test_id("builder-save").click()
    expect(page.get_by_test_id("builder-saved-meu-deck")).to_contain_text("Meu Deck (12)")
    code = page.get_by_test_id("builder-code").input_value()
    assert code.startswith("G1-") and len(code) < 20
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    expect(page.get_by_test_id("builder-saved-meu-deck")).to_be_visible()
    expect(page.locator("[data-testid=builder-deck] .gm-card")).to_have_count(0)
    page.get_by_test_id("builder-open-meu-deck").click()
    expect(page.locator("[data-testid=builder-deck] .gm-card")).to_have_count(12)
    # The server checked it with the deck rules and kept it for this player.
    saved = page.request.get("/api/me/games/guimenon/data").json()["items"]
    assert [i["value"]["cards"] for i in saved] == [chosen]
    # The share code brings the same deck back into an empty builder.
    page.get_by_test_id("builder-ready").select_option(POOL["decks"][0]["id"])
    expect(page.locator("[data-testid=builder-deck] .gm-card")).to_have_count(len(POOL["decks"][0]["cards"]))
    page.get_by_test_id("builder-import-code").fill(code)
    page.get_by_test_id("builder-import").click()
    expect(page.locator("[data-testid=builder-deck] .gm-card")).to_have_count(12)
    assert sorted(page.locator("[data-testid=builder-deck] .gm-card").evaluate_all(
        "els => els.map(e => e.dataset.card)")) == sorted(chosen)
    page.get_by_test_id("builder-import-code").fill("nonsense")
    page.get_by_test_id("builder-import").click()
    expect(page.get_by_test_id("builder-message")).not_to_be_empty()
    page.get_by_test_id("builder-delete-meu-deck").click()
    expect(page.get_by_test_id("builder-saved-meu-deck")).to_have_count(0)
    assert client.errors == []
    client.close()
