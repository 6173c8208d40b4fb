"""A game without a browser module plays in the page through the generic renderer: the test-only plugin game
``lances`` (sealed bids, two seats, simultaneous secret turns; ``plugins/sefode-lances``) is created from the schema-
driven form, its legal actions are buttons labelled by ``describe_action`` in the page's language, each seat is told
when it has submitted and waits for the other, no submission is refused as stale, the end screen shows the places,
and the replay viewer lists the match's submissions. Also: ``cards.js`` names and sorts the 52-card deck and the
jokers in both languages."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from .conftest import DESKTOP, MOBILE, Server
from .helpers import Client, catalogue, open_client, shoot, wait_ready

ROUNDS = 3


def _lances_catalogue(page: Page) -> dict[str, str]:
    """The plugin's catalogue as the server serves it from the plugin's own package."""
    response = page.request.get("/games/lances/i18n/pt-BR.json")
    assert response.status == 200, "the plugin game 'lances' is installed (scripts/test.sh installs it)"
    data = json.loads(response.text())
    assert isinstance(data, dict)
    return data


def _fill(text: str, **params: object) -> str:
    for name, value in params.items():
        text = text.replace("{" + name + "}", str(value))
    return text


def _errors(client: Client) -> list[dict[str, Any]]:
    return [f for f in client.frames if f.get("type") == "error"]


def _actions(page: Page) -> list[str]:
    texts = page.get_by_test_id("generic-actions").locator("button.action").all_inner_texts()
    return [t.strip() for t in texts]


def test_a_plugin_game_without_a_module_plays_through_the_generic_renderer(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    pt = catalogue("pt-BR")
    ana = open_client(browser, shared_server.url, MOBILE, record_frames=True)
    bia = open_client(browser, shared_server.url, DESKTOP, record_frames=True)
    page = ana.page
    game_pt = _lances_catalogue(page)
    page.goto("/")
    wait_ready(page)
    page.get_by_test_id("nickname").fill("Ana")
    # The create form is drawn from the game's schema: its one option, its fixed two seats.
    page.get_by_test_id("create-game").select_option("lances")
    expect(page.get_by_test_id("create-players")).to_have_count(0)
    expect(page.locator("[data-testid=create-options] [data-option=rounds]")).to_contain_text(
        game_pt["lances.option.rounds"]
    )
    page.get_by_test_id("create-rounds").select_option(str(ROUNDS))
    expect(page.locator("[data-testid^=create-bot-]")).to_have_count(2)
    page.get_by_test_id("create-name").fill("Lances")
    page.get_by_test_id("create-visibility").select_option("invite")
    shoot(page, artifacts, "01-create-lances")
    page.get_by_test_id("create-room").click()
    expect(page.get_by_test_id("room-page")).to_be_visible()
    expect(page.get_by_test_id("room-game")).to_have_text(game_pt["game.lances.title"])
    invite = page.get_by_test_id("invite-link").input_value()

    bpage = bia.page
    bpage.goto(invite)
    wait_ready(bpage)
    bpage.get_by_test_id("nickname").fill("Bia")
    bpage.get_by_test_id("nickname-submit").click()
    bpage.get_by_test_id("sit-1").click()
    expect(page.get_by_test_id("seat-row-1")).to_contain_text("Bia")
    page.get_by_test_id("start-match").click()

    label = re.compile("^" + re.escape(game_pt["lances.action.card"]).replace(re.escape("{card}"), r"\d+") + "$")
    for round_no in range(1, ROUNDS + 1):
        for p in (page, bpage):
            expect(p.get_by_test_id("table")).to_have_attribute("data-game", "lances")
            expect(p.get_by_test_id("generic-actions")).to_be_visible()
            # One button per card still in hand, labelled by describe_action in the page's language.
            labels = _actions(p)
            assert len(labels) == ROUNDS - round_no + 1
            assert all(label.match(text) for text in labels), labels
        if round_no == 1:
            shoot(page, artifacts, "02-generic-table")
        # Ana submits first: she is told she waits for Bia, and has no more buttons; Bia still has hers.
        page.get_by_test_id("generic-actions").locator("button.action").first.click()
        expect(page.get_by_test_id("generic-actions")).to_have_count(0)
        waiting = _fill(pt["generic.submitted_waiting"], names="Bia")
        expect(page.get_by_test_id("turn-line")).to_have_text(waiting)
        expect(bpage.get_by_test_id("generic-actions")).to_be_visible()
        if round_no == 1:
            shoot(page, artifacts, "03-generic-submitted")
        # Bia's submission is not stale although Ana's came first in the same turn.
        bpage.get_by_test_id("generic-actions").locator("button.action").last.click()
        if round_no < ROUNDS:
            expect(page.get_by_test_id("generic-actions")).to_be_visible()
    for client in (ana, bia):
        placements = client.page.get_by_test_id("end-overlay").get_by_test_id("placements")
        expect(placements).to_be_visible()
        expect(placements.locator("li")).to_have_count(2)
    shoot(page, artifacts, "04-generic-end")
    # Its replay: the generic part lists every submission in order and the engine's report.
    href = page.get_by_test_id("end-overlay").get_by_test_id("download-history").get_attribute("href")
    assert href and href.endswith("/history")
    history = json.loads(page.request.get(href).text())
    page.goto(href.replace("/api/matches/", "/replay/").removesuffix("/history"))
    wait_ready(page)
    expect(page.get_by_test_id("replay-page")).to_have_attribute("data-game", "lances")
    actions = page.get_by_test_id("replay-actions").locator("li")
    expect(actions).to_have_count(2 * ROUNDS)
    assert len(history["actions"]) == 2 * ROUNDS
    for i, entry in enumerate(history["actions"]):
        expect(actions.nth(i)).to_contain_text(str(entry["card"]))
    expect(page.get_by_test_id("replay-places").locator("li")).to_have_count(2)
    expect(page.get_by_test_id("replay-report")).to_be_visible()
    shoot(page, artifacts, "05-generic-replay")
    for client in (ana, bia):
        assert _errors(client) == [], _errors(client)
        assert client.errors == []
        client.close()


def test_cards_name_and_sort_the_52_card_deck_and_the_jokers_in_both_languages(
    browser: Browser, shared_server: Server
) -> None:
    client = open_client(browser, shared_server.url)
    page = client.page
    page.goto("/")
    wait_ready(page)
    script = """async () => {
      const cards = await import('/static/js/cards.js');
      const truco = await import('/games/fodinha/client/cards.js');  // the truco deck's order is Fodinha's
      const box = document.createElement('div');
      const names = ['Td', 'Ah', '9c', 'X1', 'X2', '4c'];
      for (const n of names) box.appendChild(cards.cardEl(n, { size: 'lg' }));
      document.body.appendChild(box);
      const out = {
        labels: names.map((n) => cards.cardLabel(n)),
        printed: [...box.querySelectorAll('.card .corner.tl b')].map((b) => b.textContent),
        sorted: cards.sortCards(['X2', 'Kd', 'Td', '2c', 'Ac', 'X1', '9c']),
        aceLow: cards.sortCards(['Kc', 'Ac', '2c'], { ranks: cards.RANKS_52_ACE_LOW }),
        truco: truco.sortHand(['3c', '4c', 'Kd', '7h'], ['4c', '7h', 'As', '7d']),
        isCard: ['Td', 'X1', '1c', 'X3', 'Tx', 10].map((v) => cards.isCardName(v)),
      };
      box.remove();
      return out;
    }"""
    out = page.evaluate(script)
    pt = catalogue("pt-BR")

    def name(rank: str, suit: str, cat: dict[str, str]) -> str:
        return _fill(cat["card.name"], rank=cat[f"rank.{rank}"], suit=cat[f"suit.{suit}"])

    assert out["labels"] == [
        name("T", "d", pt),
        name("A", "h", pt),
        name("9", "c", pt),
        _fill(pt["card.joker"], n=1),
        _fill(pt["card.joker"], n=2),
        name("4", "c", pt),
    ]
    assert out["printed"] == ["10", "A", "9", "★", "★", "4"]
    assert out["sorted"] == ["2c", "9c", "Ac", "Td", "Kd", "X1", "X2"]
    assert out["aceLow"] == ["Ac", "2c", "Kc"]
    assert out["truco"] == ["Kd", "3c", "7h", "4c"]
    assert out["isCard"] == [True, True, False, False, False, False]
    page.get_by_test_id("lang-toggle").click()
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    en = catalogue("en")
    labels = page.evaluate(
        "async () => { const c = await import('/static/js/cards.js'); "
        "return `${c.cardLabel('Td')}|${c.cardLabel('X2')}`; }"
    )
    assert labels == f"{name('T', 'd', en)}|{_fill(en['card.joker'], n=2)}"
    assert client.errors == []
    client.close()


RENDER_WITH_SCHEMA = """async ([spec, schema]) => {
  const i18n = await import('/static/js/i18n.js');
  const generic = await import('/static/js/generic.js');
  await i18n.addGameCatalogue(spec.name, spec.i18n);
  const names = ['Ana', 'Bia'];
  const ctx = {
    game: { ...spec, view_schema: schema }, gameName: spec.name, seat: 0, seats: 2, awaited: true, paused: false,
    pending: false, over: false, name: (s) => names[s], act: () => {},
    state: {
      awaiting: [0],
      legal: [{
        action: { card: '4c' },
        label: { key: 'lances.action.card', params: { card: '4c' }, text: 'bid the card 4c' },
      }],
      view: { turn: 1, awaiting: [0, 1], trump: 'h', table: ['4c', null], won: [2, 1] },
    },
  };
  const box = document.createElement('div');
  box.append(generic.renderTable(ctx));
  const score = generic.renderScore(ctx);
  if (score) box.append(score);
  document.body.append(box);
  const row = (k) => box.querySelector(`[data-key=${k}] dd`);
  const button = box.querySelector('[data-testid=generic-actions] button.action');
  const out = {
    buttonText: button.textContent,
    buttonCards: [...button.querySelectorAll('.card')].length,
    buttonName: button.getAttribute('aria-label'),
    turn: row('turn').textContent,
    awaiting: row('awaiting').textContent,
    trump: row('trump').textContent,
    tableBacks: row('table').querySelectorAll('.card.back').length,
    tableCards: row('table').querySelectorAll('.card').length,
    scores: [...box.querySelectorAll('[data-testid^=score-row-]')].map((r) => r.textContent),
  };
  box.remove();
  return out;
}"""


def _lances_spec(page: Page) -> dict[str, Any]:
    games = json.loads(page.request.get("/api/games").text())["games"]
    spec = next(g for g in games if g["name"] == "lances")
    assert isinstance(spec, dict)
    return spec


def test_the_sample_plugin_declares_a_view_schema_that_the_games_list_carries(
    browser: Browser, shared_server: Server
) -> None:
    client = open_client(browser, shared_server.url)
    client.page.goto("/")
    wait_ready(client.page)
    spec = _lances_spec(client.page)
    assert spec["view_schema"] == {"seats": ["awaiting"], "suits": [], "cards": [], "scores": "score"}
    client.close()


def test_generic_action_buttons_draw_the_card_they_name_as_a_card(browser: Browser, shared_server: Server) -> None:
    """A label whose param is a card name ("Dar o lance {card}" with 4c) shows the card drawn as a card, not "4c"."""
    client = open_client(browser, shared_server.url)
    page = client.page
    page.goto("/")
    wait_ready(page)
    out = page.evaluate(RENDER_WITH_SCHEMA, [_lances_spec(page), None])
    words = _lances_catalogue(page)["lances.action.card"].split("{card}")[0].strip()
    assert out["buttonCards"] == 1
    assert out["buttonText"].startswith(words) and "4c" not in out["buttonText"]
    assert out["buttonName"] == f"{words} 4♣"
    assert client.errors == []
    client.close()


def test_the_view_schema_draws_seats_as_names_suits_as_symbols_hidden_cards_and_the_score_pane(
    browser: Browser, shared_server: Server
) -> None:
    client = open_client(browser, shared_server.url)
    page = client.page
    page.goto("/")
    wait_ready(page)
    spec = _lances_spec(page)
    schema = {"seats": ["turn", "awaiting"], "suits": ["trump"], "cards": ["table"], "scores": "won"}
    plain = page.evaluate(RENDER_WITH_SCHEMA, [spec, None])
    marked = page.evaluate(RENDER_WITH_SCHEMA, [spec, schema])
    # Without a schema the values are raw numbers and letters, and no score pane has scores.
    assert (plain["turn"], plain["trump"], plain["tableBacks"], plain["tableCards"]) == ("1", "h", 0, 1)
    assert plain["scores"] == ["Ana", "Bia"]
    # With it: seats by name, the suit by its symbol, a face-down card where a seat's card is not shown, and the
    # "won" list as the scores.
    assert marked["turn"] == "Bia"
    assert marked["awaiting"] == "AnaBia"
    assert marked["trump"] == "♥"
    assert (marked["tableBacks"], marked["tableCards"]) == (1, 2)  # the seat with no card shown has a face-down one
    assert marked["scores"] == ["Ana2", "Bia1"]
    assert client.errors == []
    client.close()
