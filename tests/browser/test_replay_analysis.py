"""Browser test of the replay viewer's "Analisar" (issue 15 §3): the page asks the server for the analysis of a seat,
shows its progress, then every decision with what was chosen, what the hard bot prefers and each option's estimate,
the mistakes marked, and says that no hidden hand was looked at. The answers are the real ``sefode.analysis`` output
of a constructed match with a deliberate mistake (tests/test_analysis.py); the server's own endpoint is tested in
tests/server/test_server_analysis.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Route, expect
from test_analysis import _match_with_a_mistake

from sefode.analysis import analyse
from sefode.history import replay

from .conftest import Server
from .helpers import catalogue, open_client, shoot, wait_ready

PT: dict[str, str] = catalogue("pt-BR")


def test_the_replay_viewer_opens_the_analysis_of_a_finished_match(
    browser: Browser, server: Server, artifacts: Path
) -> None:
    history, mistake = _match_with_a_mistake()
    result = analyse(history, 0, think_ms=60_000, max_iterations=300, seed=2)
    assert any(d["index"] == mistake and d["mistake"] for d in result["decisions"])
    replay_body = json.dumps({"history": history, "replay": replay(history).result()})
    asked: list[tuple[str, str]] = []
    total = len(result["decisions"])

    def answer_replay(route: Route) -> None:
        route.fulfill(status=200, content_type="application/json", body=replay_body)

    def answer_analysis(route: Route) -> None:
        asked.append((route.request.method, route.request.url))
        body: dict[str, Any]
        if route.request.method == "POST":
            body = {"status": "running", "done": 1, "total": total}
        else:
            body = {"status": "done", "done": total, "total": total, "analysis": result}
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    client = open_client(browser, server.url)
    page = client.page
    page.route("**/api/matches/*/replay", answer_replay)
    page.route("**/api/matches/*/analysis*", answer_analysis)
    page.goto("/replay/m-analysis")
    wait_ready(page)
    panel = page.get_by_test_id("replay-analysis")
    expect(panel).to_contain_text(PT["analysis.no_hindsight"])
    page.get_by_test_id("analysis-start").click()
    decisions = page.get_by_test_id("analysis-decisions").locator(":scope > li")
    expect(decisions).to_have_count(total)
    assert [m for m, _ in asked] == ["POST", "GET"] and all("seat=0" in url for _, url in asked)
    marked = page.locator("[data-testid^=analysis-decision-][data-mistake='1']")
    expect(marked).to_have_count(result["mistakes"])
    row = page.locator(f"[data-testid^=analysis-decision-][data-index='{mistake}']")
    expect(row.get_by_test_id("analysis-mark")).to_have_count(1)
    expect(row.get_by_test_id("analysis-chosen")).to_contain_text(PT["analysis.chosen"].split("{")[0].strip())
    expect(row.get_by_test_id("analysis-preferred")).to_contain_text("0")
    # Fodinha's own figure is named by its catalogue.
    expect(row).to_contain_text("chance de cumprir a aposta")
    expect(page.get_by_test_id("analysis-progress")).to_have_attribute("value", "1")
    shoot(page, artifacts, "replay-analysis")
    assert client.errors == []
    client.close()
