"""Player words only (issue 22), as a player sees the pages on a 360×740 phone: a solo match with the coach's tip, its
fair-deal check and its replay, a Guimenon match's log and replay, the leaderboard and every game's rules page in both
languages. The visible text (``document.body.innerText``) has no card code, seed, rulings reference, hash, command
line or JSON (tests/player_words.py); what is one tap away (the deal's commitment, the score's method) is there when
tapped; no rules page is wider than the phone; no page raises a console error or a CSP violation. The catalogues and
rules pages themselves are checked in tests/test_player_words.py."""

from __future__ import annotations

import hashlib
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from player_words import card_names, findings
from playwright.sync_api import Browser, Page, Route, expect
from start_points import start_point

from .conftest import MOBILE, Server
from .helpers import Client, api, catalogue, open_client, open_solo, shoot, take_turn, wait_ready
from .test_accounts_pages import _record_match

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("pt-BR", "en")
WAIT_MS = 30_000

VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
"""


def watched(browser: Browser, server: Server, lang: str = "pt-BR") -> tuple[Client, list[str]]:
    """A phone-sized page in ``lang`` whose console errors (a CSP refusal is one) are collected."""
    client = open_client(browser, server.url, MOBILE)
    page = client.page
    page.add_init_script(f"localStorage.setItem('sefode.lang', {json.dumps(lang)});" + VIOLATIONS)
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    return client, console


def no_errors(page: Page, client: Client, console: list[str]) -> None:
    violations = page.evaluate("() => window.__violations || []")
    assert client.errors == [] and console == [] and violations == [], (client.errors, console, violations)


def shown_findings(page: Page, lang: str, where: str) -> list[str]:
    text = page.evaluate("() => document.body.innerText")
    assert isinstance(text, str)
    return [f"{where}: {f}" for f in findings(text, card_names(catalogue(lang)))]


def coach_answer(route: Route) -> None:
    """The coach's answer for any hand, in the server's shape: the player played 3♣ where the hard bot would have
    played A♠ (card codes in the labels' params, as the server sends them). The page only draws it."""
    query = dict(p.split("=") for p in (route.request.url.split("?", 1)[1]).split("&"))

    def play(card: str) -> dict[str, Any]:
        return {"key": "action.play", "params": {"card": card}, "text": f"play {card}"}

    options = [
        {"action": {"play": "3c"}, "label": play("3c"), "visits": 40, "value": 0.3, "made_bid": 0.25, "lost": 0.8},
        {"action": {"play": "As"}, "label": play("As"), "visits": 60, "value": 0.6, "made_bid": 0.7, "lost": 0.3},
    ]
    decision = {
        "index": int(query["since"]),
        "seat": 0,
        "chosen": {"play": "3c"},
        "chosen_label": play("3c"),
        "preferred": {"play": "As"},
        "preferred_label": play("As"),
        "options": options,
        "mistake": True,
        "headline": True,
    }
    body = {"seat": 0, "since": int(query["since"]), "until": int(query["until"]), "decisions": [decision]}
    route.fulfill(
        status=200, content_type="application/json", body=json.dumps({**body, "highlights": [decision["index"]]})
    )


def test_a_solo_match_its_tip_its_fair_check_and_its_replay_speak_player_words(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    pt = catalogue("pt-BR")
    rng = random.Random(4)
    client, console = watched(browser, shared_server)
    page = client.page
    page.emulate_media(reduced_motion="reduce")
    page.add_init_script("localStorage.setItem('sefode.coach', 'on');")
    page.route("**/api/rooms/*/coach*", coach_answer)
    open_solo(page, shared_server.url, "Ana", {"bots": 1, "options": {"players": 2, "lives": 2, "max_cards": 2}})

    # A move in words names its cards as the table draws them, whatever the game (cards.js moveText).
    moves = page.evaluate(
        """async () => {
          const { moveText } = await import('/static/js/cards.js');
          return [
            moveText({ key: 'action.play', params: { card: 'Ts' }, text: 'play Ts' }, 'fodinha'),
            moveText({ key: 'trash.action.trash', params: { cards: '7h 7s', pile: 2 }, text: 'trash 7h 7s' }, 'trash'),
            moveText({ key: 'guimenon.action.place', params: { card: 'fagulha', location: 1 }, text: 'x' }, 'guimenon'),
            moveText({ key: 'no.such.key', params: { card: 'Qd' }, text: 'play Qd' }, 'fodinha'),
          ];
        }"""
    )
    assert moves == [
        pt["action.play"].replace("{card}", "10♠"),
        pt["trash.action.trash"].replace("{cards}", "7♥ 7♠").replace("{pile}", "2"),
        pt["guimenon.action.place"].replace("{card}", pt["guimenon.card.fagulha"]).replace("{location}", "1"),
        "play Q♦",
    ]

    # The deal's commitment is one tap away, never on the table.
    fair = page.get_by_test_id("fair-check")
    expect(fair.locator("summary")).to_have_text(pt["fair.title"])
    expect(page.get_by_test_id("seed-hash")).to_be_hidden()
    bad = shown_findings(page, "pt-BR", "table")
    fair.locator("summary").click()
    expect(page.get_by_test_id("seed-hash")).to_be_visible()
    commitment = page.get_by_test_id("seed-hash").inner_text()
    assert re.fullmatch(r"[0-9a-f]{64}", commitment)
    shoot(page, artifacts, "fair-check-open")
    fair.locator("summary").click()
    expect(page.get_by_test_id("seed-hash")).to_be_hidden()

    tip_seen = False
    for _ in range(200):
        kind = page.wait_for_function(
            """() => {
              const end = '[data-testid=end-overlay]:not([hidden]) [data-testid=placements]';
              if (document.querySelector(end)) return 'over';
              const tip = document.querySelector('[data-testid=coach-tip][data-status=done]');
              if (tip && !tip.dataset.seen) { tip.dataset.seen = '1'; return 'tip'; }
              if (document.querySelector('[data-testid=bid-panel] button.bid:not([disabled])')) return 'bid';
              if (document.querySelector('[data-testid=my-hand] button.card.playable:not([disabled])')) return 'play';
              return null;
            }""",
            timeout=WAIT_MS,
        ).json_value()
        bad += shown_findings(page, "pt-BR", f"table ({kind})")
        if kind == "over":
            break
        if kind == "tip":
            # The tip names the moves with the cards as the table draws them: "Jogar 3♣", never "Jogar 3c".
            tip = page.get_by_test_id("coach-tip")
            expect(tip.get_by_test_id("coach-chosen")).to_contain_text("3♣")
            expect(tip.get_by_test_id("coach-preferred")).to_contain_text("A♠")
            if not tip_seen:
                # Scrolled in one step in the page: the table redraws while bots play, and an element handle
                # can be replaced between finding it and scrolling it.
                page.evaluate("() => document.querySelector('[data-testid=coach-tip]').scrollIntoView()")
                shoot(page, artifacts, "coach-tip")
            tip_seen = True
            continue
        take_turn(page, rng, str(kind))
    else:
        raise AssertionError("the match should end within 200 decisions")
    assert tip_seen, "the coach's tip was drawn after a hand"
    shoot(page, artifacts, "end")
    href = page.get_by_test_id("end-overlay").get_by_test_id("download-history").get_attribute("href")
    assert href
    page.get_by_test_id("end-close").click()
    page.get_by_test_id("tab-log").click()
    bad += shown_findings(page, "pt-BR", "log")
    match_id = href.split("/")[-2]
    history = json.loads(page.request.get(href).text())
    page.goto(f"/replay/{match_id}")
    wait_ready(page)
    expect(page.get_by_test_id("replay-page")).to_have_attribute("data-game", "fodinha")
    bad += shown_findings(page, "pt-BR", "replay")
    # The revealed number and its SHA-256 (the table's commitment) behind the same disclosure.
    expect(page.get_by_test_id("fair-seed")).to_be_hidden()
    page.get_by_test_id("replay-fair").locator("summary").click()
    expect(page.get_by_test_id("fair-seed")).to_have_text(str(history["seed"]))
    expect(page.get_by_test_id("fair-seed-hash")).to_have_text(commitment)
    assert hashlib.sha256(str(history["seed"]).encode()).hexdigest() == commitment
    shoot(page, artifacts, "replay-fair-open")
    assert bad == []
    no_errors(page, client, console)
    client.close()


def test_guimenon_log_and_replay_name_the_cards_in_player_words(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    ids = [c["id"] for c in json.loads((ROOT / "sefode/games/guimenon/client/cards.json").read_text())["cards"]]
    internal = re.compile(r"@\d|\bseat \d|\b(?:" + "|".join(map(re.escape, ids)) + r")\b")
    client, console = watched(browser, shared_server)
    page = client.page
    # Turn 5 of 6, both seats to move (a start point: tests/start_points.py); the page confirms to the end.
    start = start_point("guimenon", {}, lambda game, state: game.view(state, 0)["turn"] == 5)
    open_solo(page, shared_server.url, "Ana", {"game": "guimenon", "bots": 1, "start": start})
    bad: list[str] = []
    for _ in range(20):
        kind = page.wait_for_function(
            """() => {
              if (document.querySelector('[data-testid=end-overlay] [data-testid=placements]')) return 'over';
              if (document.querySelector('[data-testid=gm-discard]')) return 'discard';
              if (document.querySelector('[data-testid=gm-confirm]')) return 'turn';
              return null;
            }""",
            timeout=WAIT_MS,
        ).json_value()
        if kind == "over":
            break
        before = page.get_by_test_id("table").get_attribute("data-version")
        if kind == "discard":
            page.locator("[data-testid=gm-hand] .gm-playable").first.click()
        else:
            page.get_by_test_id("gm-confirm").click()
        page.wait_for_function(
            "(v) => { const t = document.querySelector('[data-testid=table]'); return !t || t.dataset.version !== v; }",
            arg=before,
            timeout=WAIT_MS,
        )
    else:
        raise AssertionError("the match should end within 20 steps")
    bad += shown_findings(page, "pt-BR", "table")
    href = page.get_by_test_id("end-overlay").get_by_test_id("download-history").get_attribute("href")
    assert href
    page.get_by_test_id("end-close").click()
    page.get_by_test_id("tab-log").click()
    log = page.get_by_test_id("pane-log").inner_text()
    assert log.strip()
    bad += [f"log: {m.group()!r}" for m in internal.finditer(log)]
    page.goto(f"/replay/{href.split('/')[-2]}")
    wait_ready(page)
    replay = page.get_by_test_id("gm-replay")
    expect(replay).to_be_visible()
    resolved = replay.locator("ol li")
    assert resolved.count() > 0, "abilities resolved during the match"
    text = replay.inner_text()
    bad += [f"replay: {m.group()!r}" for m in internal.finditer(text)]
    bad += shown_findings(page, "pt-BR", "replay")
    shoot(page, artifacts, "guimenon-replay")
    assert bad == []
    no_errors(page, client, console)
    client.close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_leaderboard_says_score_in_player_words_with_the_method_one_tap_away(
    browser: Browser, server: Server, artifacts: Path, lang: str
) -> None:
    words = catalogue(lang)
    client, console = watched(browser, server, lang)
    page = client.page
    page.goto("/")
    wait_ready(page)
    ana = str(page.evaluate("async () => (await import('/static/js/api.js')).ensureSession('Ana')")["player_id"])
    bia, caio = (str(api(f"{server.url}/api/session", "POST", body={"name": n})["player_id"]) for n in ("Bia", "Caio"))
    _record_match(server, [bia, ana, caio], [1, 2, 3], 1)
    page.goto("/leaderboard?board=ratings&game=fodinha")
    wait_ready(page)
    expect(page.locator("[data-testid=lb-table] tbody tr")).to_have_count(3)
    expect(page.locator("[data-testid=lb-table] th").nth(2)).to_have_text(words["lb.rating"])
    expect(page.get_by_test_id("lb-show-me")).to_have_text(words["lb.show_me"])
    explain = page.get_by_test_id("lb-score-explain")
    expect(explain.locator("summary")).to_have_text(words["lb.score_what"])
    shown = page.evaluate("() => document.body.innerText")
    assert "OpenSkill" not in shown and "μ" not in shown and "σ" not in shown
    bad = shown_findings(page, lang, "leaderboard")
    page.get_by_test_id("lb-show-me").click()
    expect(page.get_by_test_id(f"lb-row-{ana}")).to_have_class("you")
    shoot(page, artifacts, f"leaderboard-{lang}")
    explain.locator("summary").click()
    expect(explain).to_contain_text(words["lb.score_explain"])
    expect(explain.get_by_text("OpenSkill")).to_be_visible()  # the method, one tap away
    shoot(page, artifacts, f"leaderboard-explained-{lang}")
    assert bad == []
    no_errors(page, client, console)
    client.close()


@pytest.mark.parametrize("lang", LANGS)
def test_every_rules_page_fits_a_phone_in_player_words_with_no_console_error(
    browser: Browser, shared_server: Server, artifacts: Path, lang: str
) -> None:
    client, console = watched(browser, shared_server, lang)
    page = client.page
    specs = api(f"{shared_server.url}/api/games", "GET")["games"]
    pages = [p for spec in specs for p in spec["rules"]]
    assert {"sefode", "7letras", "king", "trash", "guimenon"} <= set(pages)
    bad: list[str] = []
    for name in pages:
        page.goto(f"/rules/{name}")
        wait_ready(page)
        body = page.get_by_test_id("rules-body")
        expect(body.locator("h1")).to_have_count(1)
        assert body.get_attribute("lang") == lang
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= MOBILE["width"], f"{name} ({lang}) is {width}px wide on a {MOBILE['width']}px phone"
        bad += shown_findings(page, lang, f"rules/{name}")
        if name in ("guimenon", "sefode"):
            shoot(page, artifacts, f"rules-{name}-{lang}", sizes=(MOBILE,))
    assert bad == []
    no_errors(page, client, console)
    client.close()


@pytest.mark.parametrize(("lang", "shape"), [("pt-BR", r"\d{2}:\d{2}"), ("en", r"\d{2}:\d{2}\s?[AP]M")])
def test_chat_times_follow_the_chosen_language_not_the_browsers(
    browser: Browser, shared_server: Server, lang: str, shape: str
) -> None:
    """The browser's locale is pt-BR (open_client); the time beside a chat message follows the page's language."""
    client, console = watched(browser, shared_server, lang)
    page = client.page
    open_solo(page, shared_server.url, "Ana", {"bots": 1, "options": {"players": 2}})
    page.get_by_test_id("tab-chat").click()
    page.get_by_test_id("chat-input").fill("oi")
    page.get_by_test_id("chat-send").click()
    time = page.get_by_test_id("chat-list").locator("li time").first
    expect(time).to_be_visible()
    assert re.fullmatch(shape, time.inner_text()), time.inner_text()
    no_errors(page, client, console)
    client.close()
