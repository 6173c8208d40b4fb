"""Browser test of the solo coach (issue 15 §3, "Dica"): in a solo Fodinha room against bots, the player turns the
remembered switch on and plays through the page; when a hand ends, a panel says it is thinking (while the table stays
playable), then shows the player's bid beside the one the hard bot would have made, with its estimate, as the real
server answered (``GET /api/rooms/{id}/coach``). A failed request is shown as such and can be tried again. The server's
side is tested in tests/server/test_server_analysis.py."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Browser, Page, Response, Route, ViewportSize, expect

from .conftest import MOBILE, Server, make_server
from .helpers import catalogue, enter_nickname, open_client, shoot, take_turn, wait_actionable, wait_ready

PT: dict[str, str] = catalogue("pt-BR")
WIDE: ViewportSize = {"width": 1366, "height": 800}
WAIT_MS = 60_000


@pytest.fixture
def coach_server(tmp_path: Path) -> Iterator[Server]:
    # A small think budget per request: the test waits on the page, never on a clock.
    yield from make_server(tmp_path, SEFODE_COACH_BUDGET_S="1")


def fill(key: str, **params: Any) -> str:
    text = PT[key]
    for name, value in params.items():
        text = text.replace("{" + name + "}", str(value))
    return text


def tip_until(page: Page) -> int:
    """The history index up to which the panel on screen speaks (-1: no panel)."""
    tip = page.get_by_test_id("coach-tip")
    return int(tip.get_attribute("data-until") or -1) if tip.count() else -1


def play_until_tip(page: Page, rng: random.Random, status: str, after: int, limit: int = 200) -> int:
    """Take the player's turns until the coach's panel shows ``status`` for a hand that ended after history index
    ``after``; return the index its panel speaks up to."""
    for _ in range(limit):
        handle = page.wait_for_function(
            """([want, after]) => {
              const tip = document.querySelector('[data-testid=coach-tip]');
              if (tip && tip.dataset.status === want && Number(tip.dataset.until) > after) return 'tip';
              if (document.querySelector('[data-testid=bid-panel] button.bid:not([disabled])')) return 'bid';
              if (document.querySelector('[data-testid=my-hand] button.card.playable:not([disabled])')) return 'play';
              return null;
            }""",
            arg=[status, after],
            timeout=WAIT_MS,
        )
        kind = handle.json_value()
        if kind == "tip":
            return tip_until(page)
        take_turn(page, rng, str(kind))
    raise AssertionError(f"no coach panel '{status}' after {limit} turns")


def answer_for(answers: list[Response], until: int) -> dict[str, Any]:
    """The server's answer the panel drew (the coach's requests are real; only their order is steered)."""
    for response in reversed(answers):
        data: dict[str, Any] = response.json()
        if data.get("until") == until:
            return data
    raise AssertionError(f"no coach answer up to {until}")


def test_the_solo_coach_gives_a_tip_after_each_hand_with_the_hard_bots_bid(
    browser: Browser, coach_server: Server, artifacts: Path
) -> None:
    rng = random.Random(5)
    client = open_client(browser, coach_server.url)
    page = client.page
    page.emulate_media(reduced_motion="reduce")  # a trick stays on show 0.4 s instead of 1.45 s
    held: list[Route] = []
    answers: list[Response] = []
    plan = ["hold", "abort"]

    def on_coach(route: Route) -> None:
        step = plan.pop(0) if plan else "go"
        if step == "hold":
            held.append(route)  # answered by the real server once the test has seen the "thinking" state
        elif step == "abort":
            route.abort("connectionfailed")
        else:
            route.continue_()

    page.route("**/api/rooms/*/coach*", on_coach)
    page.on("response", lambda r: answers.append(r) if "/coach" in r.url and r.ok else None)

    page.goto("/")
    wait_ready(page)
    enter_nickname(page, "Ana")
    page.get_by_test_id("solo-bots").select_option("3")
    page.get_by_test_id("solo-start").click()
    expect(page.get_by_test_id("table")).to_be_visible()
    assert page.get_by_test_id("table").get_attribute("data-game") == "fodinha"

    # Off until the player turns it on; the choice is remembered.
    toggle = page.get_by_test_id("coach-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(toggle).to_have_text(PT["coach.off"])
    toggle.click()
    expect(page.get_by_test_id("coach-toggle")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("() => localStorage.getItem('sefode.coach')") == "on"

    # The first hand (one card, the bids only): when it ends, the panel thinks, and the table goes on meanwhile.
    first = play_until_tip(page, rng, "thinking", -1)
    expect(page.get_by_test_id("coach-thinking")).to_have_text(PT["coach.thinking"])
    assert len(held) == 1
    query = parse_qs(urlsplit(held[0].request.url).query)
    assert int(query["until"][0]) == first > int(query["since"][0]) >= 0
    assert wait_actionable(page, WAIT_MS) in ("bid", "play"), "the table is playable while the coach thinks"
    shoot(page, artifacts, "coach-thinking", (MOBILE, WIDE))
    held[0].continue_()
    expect(page.get_by_test_id("coach-tip")).to_have_attribute("data-status", "done", timeout=WAIT_MS)
    check_tip(page, answer_for(answers, first))

    # The next hand's request fails on the way: the panel says so, and "try again" asks the real server.
    second = play_until_tip(page, rng, "failed", first)
    expect(page.get_by_test_id("coach-error")).to_contain_text(fill("coach.failed", reason=PT["coach.offline"]))
    shoot(page, artifacts, "coach-error", (MOBILE, WIDE))
    page.get_by_test_id("coach-retry").click()
    expect(page.get_by_test_id("coach-tip")).to_have_attribute("data-status", "done", timeout=WAIT_MS)
    shown = check_tip(page, answer_for(answers, second))

    # Hands go on until a tip names a bid of the player's (a forced bid, the only legal one, is no decision).
    last = second
    for _ in range(12):
        if shown:
            break
        last = play_until_tip(page, rng, "done", last)
        shown = check_tip(page, answer_for(answers, last))
    assert shown, "some hand had a bid of the player's to talk about"
    shoot(page, artifacts, "coach-tip", (MOBILE, WIDE))

    # Switched off, the panel goes away and the switch stays off after a reload.
    page.get_by_test_id("coach-toggle").click()
    expect(page.get_by_test_id("coach-tip")).to_have_count(0)
    page.reload()
    wait_ready(page)
    expect(page.get_by_test_id("coach-toggle")).to_have_attribute("aria-pressed", "false")
    assert client.errors == []
    client.close()


def check_tip(page: Page, answer: dict[str, Any]) -> bool:
    """The panel shows what the server answered: each named decision with the player's move and the hard bot's (or
    that it agrees), with the estimate; True when a bid was named."""
    tip = page.get_by_test_id("coach-tip")
    text = json.dumps(answer)
    assert '"seed"' not in text and '"hands"' not in text, "the coach's answer carries no hidden information"
    decisions = {d["index"]: d for d in answer["decisions"]}
    named = [decisions[i] for i in answer["highlights"]]
    bids = [d for d in named if d["headline"]]
    # Fodinha's bid is always named when it was a decision.
    assert [d["index"] for d in bids] == [d["index"] for d in answer["decisions"] if "bid" in d["chosen"]]
    if not named:
        expect(tip.get_by_test_id("coach-nothing")).to_be_visible()
        return False
    rows = tip.locator("[data-testid^=coach-decision-]")
    expect(rows).to_have_count(len(named))
    for i, d in enumerate(named):
        row = tip.get_by_test_id(f"coach-decision-{i}")
        expect(row).to_have_attribute("data-index", str(d["index"]))
        expect(row).to_have_attribute("data-headline", "1" if d["headline"] else "0")
        if "bid" in d["chosen"]:
            expect(row.get_by_test_id("coach-chosen")).to_have_text(
                fill("coach.you_chose", move=fill("action.bid", bid=d["chosen"]["bid"]))
            )
            assert "bid" in d["preferred"], "the hard bot's answer to a bid is a bid"
            if d["preferred"] == d["chosen"]:
                expect(row.get_by_test_id("coach-agreed")).to_have_text(PT["coach.agreed"])
            else:
                expect(row.get_by_test_id("coach-preferred")).to_have_text(
                    fill("coach.hard_bot", move=fill("action.bid", bid=d["preferred"]["bid"]))
                )
            # Fodinha's own figure, the chance to make the bid, in words.
            expect(row.get_by_test_id("coach-estimate")).to_contain_text(PT["coach.measure.made_bid"].split("}")[1])
    expect(tip).to_contain_text(PT["coach.no_hindsight"])
    return bool(bids)
