"""Issue 9: accessibility (axe-core from the npm registry, see scripts/test-setup.sh), a whole solo match played with
the keyboard alone with a clean console, chat surviving a reload and a server restart, the not-found page, the web app
manifest, turn alerts and the sound switch."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, Request, Response, expect

from .conftest import DESKTOP, MOBILE, Server
from .helpers import catalogue, open_client, snap, table_version, wait_actionable, wait_ready
from .test_table_layout import DRIVE, _solo

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
PT = catalogue("pt-BR")
NEWER = """(v) => {
  // A newer state, or no table any more (the match's end may draw the room in its place).
  const table = document.querySelector('[data-testid=table]');
  return !table || Number(table.dataset.version) !== v;
}"""
EN = catalogue("en")
WATCH_FOCUS = """() => {
  window.__lostFocus = [];
  let armed = false;
  const inPlace = (a) => !!(a && (a.closest('[data-focus-group]') || a.closest('[data-testid=end-overlay]')));
  const main = document.querySelector('[data-testid=table]').parentElement;
  new MutationObserver(() => {
    const table = document.querySelector('[data-testid=table]');
    if (!table || table.dataset.phase === 'over') return;
    const a = document.activeElement;
    const where = `v${table.dataset.version} ${table.dataset.phase} ${a ? a.tagName : 'none'}`;
    if (inPlace(a)) armed = true;
    else if (armed) window.__lostFocus.push(where);
  }).observe(main, { childList: true });
}"""


def _axe(page: Page, what: str) -> list[dict[str, Any]]:
    """Serious and critical axe-core violations on the page as it is now."""
    if not AXE.exists():
        pytest.fail("axe-core is missing: run scripts/test-setup.sh (npm install axe-core into tests/browser)")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        """async () => {
          const r = await axe.run(document, { resultTypes: ['violations'] });
          return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .map((v) => ({
              id: v.id,
              impact: v.impact,
              nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ') + ' ' + (n.failureSummary || '').slice(0, 160)),
            }));
        }"""
    )
    assert isinstance(result, list)
    return [dict(v, page=what) for v in result]


def _axe_context(browser: Browser, server: Server) -> tuple[BrowserContext, Page]:
    # axe.min.js is injected as an inline script: only these tests' contexts bypass the page's CSP to do so.
    context = browser.new_context(viewport=MOBILE, base_url=server.url, locale="pt-BR", bypass_csp=True)
    return context, context.new_page()


def _no_axe_findings(found: list[dict[str, Any]], artifacts: Path) -> None:
    (artifacts / "axe.txt").write_text("\n".join(repr(v) for v in found) + "\n")
    assert found == []


def test_axe_finds_no_serious_or_critical_violations_on_the_home_page_a_room_and_its_invite_dialog(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    context, page = _axe_context(browser, shared_server)
    found: list[dict[str, Any]] = []
    for size in (MOBILE, DESKTOP):
        page.set_viewport_size(size)
        page.goto("/")
        wait_ready(page)
        found += _axe(page, f"home {size['width']}")
    page.set_viewport_size(MOBILE)
    # A room between matches (the seating), and its invite dialog (share.js).
    page.get_by_test_id("nickname").fill("Ana")
    page.get_by_test_id("create-name").fill("Mesa da Ana")
    page.get_by_test_id("create-room").click()
    expect(page.get_by_test_id("seating")).to_be_visible()
    found += _axe(page, "room")
    page.get_by_test_id("share-open").click()
    expect(page.get_by_test_id("share-dialog")).to_be_visible()
    found += _axe(page, "share dialog")
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("share-dialog")).to_be_hidden()
    _no_axe_findings(found, artifacts)
    context.close()


def test_axe_finds_no_serious_or_critical_violations_at_the_table_the_end_of_a_match_its_replay_and_the_profile(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    context, page = _axe_context(browser, shared_server)
    found: list[dict[str, Any]] = []
    # The table of a short solo match at both sizes, its end, its replay, then the player's profile with it.
    _solo(page, bots=1, lives=1, max_cards=2)
    wait_actionable(page)
    for size in (MOBILE, DESKTOP):
        page.set_viewport_size(size)
        found += _axe(page, f"table {size['width']}")
    page.set_viewport_size(MOBILE)
    assert page.evaluate(DRIVE, [99, "bid"]) == -1, "the match ends"
    expect(page.get_by_test_id("end-overlay")).to_be_visible()
    found += _axe(page, "end of match")
    match_id = page.evaluate(
        "() => document.querySelector('[data-testid=download-history]').getAttribute('href').split('/')[3]"
    )
    page.goto(f"/replay/{match_id}")
    wait_ready(page)
    # The replay draws its hands once the history has loaded: its first hand's seats.
    expect(page.get_by_test_id("replay-seat-0").first).to_be_visible()
    found += _axe(page, "replay")
    snap(page, artifacts / "replay-360x740.png", full_page=True)
    page.goto("/profile")
    wait_ready(page)
    page.wait_for_load_state("networkidle")
    found += _axe(page, "profile")
    snap(page, artifacts / "profile-360x740.png", full_page=True)
    _no_axe_findings(found, artifacts)
    context.close()


@pytest.mark.parametrize(
    ("path", "name"),
    [("/leaderboard", "leaderboard"), ("/no/such/page", "not found")],
    ids=["leaderboard", "not-found"],
)
def test_axe_finds_no_serious_or_critical_violations_on_the_site_pages(
    browser: Browser, shared_server: Server, artifacts: Path, path: str, name: str
) -> None:
    context, page = _axe_context(browser, shared_server)
    page.goto(path)
    wait_ready(page)
    page.wait_for_load_state("networkidle")
    found = _axe(page, name)
    snap(page, artifacts / f"{name.replace(' ', '-')}-360x740.png", full_page=True)
    _no_axe_findings(found, artifacts)
    context.close()


def test_a_whole_solo_match_is_played_with_the_keyboard_alone_and_the_console_stays_clean(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    # Less motion: a taken trick stays 0.4 s on the felt, as for a player who asks for it (a whole match of them).
    client = open_client(browser, shared_server.url, reduced_motion=True)
    page = client.page
    noise: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type in ("warning", "error"):
            noise.append(f"{message.type}: {message.text}")

    def on_failed(request: Request) -> None:
        noise.append(f"failed: {request.url} {request.failure}")

    def on_response(response: Response) -> None:
        if response.status >= 400:
            noise.append(f"{response.status}: {response.url}")

    page.on("console", on_console)
    page.on("requestfailed", on_failed)
    page.on("response", on_response)
    page.goto("/")
    wait_ready(page)
    # Keyboard only from here: the nickname, then Tab to the solo button and Enter.
    page.get_by_test_id("nickname").focus()
    page.keyboard.type("Teclado")
    # A short match (2 lives, hands of at most 3 cards): the "more options" box opened and filled from the keyboard.
    page.get_by_test_id("solo-more-options").locator("summary").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("solo-lives")).to_be_visible()
    for field, value in (("solo-lives", "2"), ("solo-max-cards", "3")):
        page.get_by_test_id(field).focus()
        page.keyboard.press("ControlOrMeta+A")
        page.keyboard.type(value)
        expect(page.get_by_test_id(field)).to_have_value(value)
    page.get_by_test_id("solo-start").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("table")).to_be_visible()
    # Every redraw of the table is checked where it happens: once focus has entered the table, a redraw that leaves
    # it outside the hand, the bid bar or the end overlay is recorded (with the table's version and phase).
    page.evaluate(WATCH_FOCUS)
    decisions = 0
    shots = 0
    while True:
        kind = wait_actionable(page)
        if kind == "over":
            break
        decisions += 1
        assert decisions < 400, "the match should end"
        before = table_version(page)
        in_group = """() => {
          const g = document.activeElement && document.activeElement.closest('[data-focus-group]');
          return g ? g.dataset.focusGroup : null;
        }"""
        if kind == "bid":
            # Your turn to bid: focus is in the bid bar; a number key bids.
            assert page.evaluate(in_group) == "bid"
            enabled = page.locator("[data-testid=bid-panel] button.bid:not([disabled])")
            keys = enabled.evaluate_all("els => els.map(e => e.dataset.key)")
            assert keys
            page.keyboard.press(str(keys[-1]) if decisions % 2 else str(keys[0]))
        else:
            # Your turn to play: focus is on a card; arrow keys move between the playable cards, Enter plays.
            assert page.evaluate(in_group) == "hand"
            page.keyboard.press("ArrowRight")
            page.keyboard.press("ArrowLeft")
            focused = page.evaluate("() => document.activeElement.matches('button.card.playable:not([disabled])')")
            assert focused
            if shots < 2:
                snap(page, artifacts / f"keyboard-{shots}-360x740.png")
                shots += 1
            page.keyboard.press("Enter")
        page.wait_for_function(NEWER, arg=before)
        # Focus stays in the hand or the bid bar after the action and through every redraw that follows (the bots'
        # moves, the end of a hand, the one-card hand once its card is played): never thrown back to the page.
        assert page.evaluate("() => window.__lostFocus") == []
    expect(page.get_by_test_id("end-overlay").get_by_test_id("placements")).to_be_visible()
    snap(page, artifacts / "keyboard-end-360x740.png")
    assert noise == []
    assert client.errors == []
    client.close()


def test_chat_survives_a_reload_and_a_server_restart(browser: Browser, server: Server, artifacts: Path) -> None:
    client = open_client(browser, server.url)
    page = client.page
    _solo(page, bots=3)
    page.get_by_test_id("tab-chat").click()
    page.get_by_test_id("chat-input").fill("boa sorte a todos")
    page.get_by_test_id("chat-send").click()
    lines = page.get_by_test_id("chat-list").locator("li")
    expect(lines).to_have_count(1)
    page.reload()
    wait_ready(page)
    expect(page.get_by_test_id("table")).to_be_visible()
    page.get_by_test_id("tab-chat").click()
    expect(lines).to_have_count(1)
    expect(lines.first).to_contain_text("boa sorte a todos")
    server.kill()
    expect(page.get_by_test_id("room-page")).to_have_attribute("data-conn", "reconnecting")
    server.start()
    expect(page.get_by_test_id("room-page")).to_have_attribute("data-conn", "open", timeout=20_000)
    page.reload()
    wait_ready(page)
    page.get_by_test_id("tab-chat").click()
    expect(lines).to_have_count(1)
    expect(lines.first).to_contain_text("boa sorte a todos")
    snap(page, artifacts / "chat-after-restart-360x740.png")
    assert client.errors == []
    client.close()


def test_unknown_paths_missing_rooms_and_bad_invites_get_a_not_found_page_in_the_page_language(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    client = open_client(browser, shared_server.url)
    page = client.page
    response = page.goto("/no/such/page")
    assert response is not None and response.status == 404
    wait_ready(page)
    expect(page.get_by_test_id("not-found-page")).to_be_visible()
    expect(page.get_by_test_id("not-found-page").locator("h1")).to_have_text(PT["notfound.title"])
    page.get_by_test_id("nickname").count()  # the home page is not drawn under it
    assert page.get_by_test_id("solo-start").count() == 0
    page.get_by_test_id("lang-toggle").click()
    expect(page.get_by_test_id("not-found-page").locator("h1")).to_have_text(EN["notfound.title"])
    page.get_by_test_id("not-found-home").click()
    expect(page.get_by_test_id("solo-start")).to_be_visible()
    page.get_by_test_id("nickname").fill("Ana")
    page.goto("/room/nothinghere")
    wait_ready(page)
    if page.get_by_test_id("nickname-gate").count():
        page.get_by_test_id("nickname").fill("Ana")
        page.get_by_test_id("nickname-submit").click()
    expect(page.get_by_test_id("not-found-page")).to_be_visible(timeout=15_000)
    expect(page.get_by_test_id("room-error")).to_have_text(EN["error.room/not_found"])
    expect(page.get_by_test_id("not-found-home")).to_be_visible()
    snap(page, artifacts / "room-not-found-360x740.png")
    page.goto("/invite/not-a-real-invite")
    wait_ready(page)
    expect(page.get_by_test_id("not-found-page")).to_be_visible(timeout=15_000)
    expect(page.get_by_test_id("invite-error")).to_be_visible()
    expect(page.get_by_test_id("not-found-home")).to_have_attribute("href", "/")
    assert client.errors == []
    client.close()


def test_the_web_app_manifest_and_icons_are_linked_and_served(browser: Browser, shared_server: Server) -> None:
    client = open_client(browser, shared_server.url)
    page = client.page
    page.goto("/")
    wait_ready(page)
    href = page.locator("link[rel=manifest]").get_attribute("href")
    assert href
    response = page.request.get(href)
    assert response.status == 200
    assert response.headers["content-type"].startswith("application/manifest+json")
    manifest = response.json()
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone" and manifest["name"]
    sizes = set()
    for icon in manifest["icons"]:
        got = page.request.get(icon["src"])
        assert got.status == 200 and got.headers["content-type"].startswith("image/svg+xml")
        assert "<svg" in got.text()
        sizes.add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes
    client.close()


def test_turn_alerts_title_announcement_and_a_remembered_sound_switch(browser: Browser, shared_server: Server) -> None:
    client = open_client(browser, shared_server.url)
    page = client.page
    _solo(page, bots=1, lives=3, max_cards=3)
    wait_actionable(page)
    expect(page).to_have_title(re.compile(r"^" + re.escape(PT["alert.title_mark"])))
    toggle = page.get_by_test_id("sound-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    toggle.click()
    expect(page.get_by_test_id("sound-toggle")).to_have_attribute("aria-pressed", "false")
    page.reload()
    wait_ready(page)
    expect(page.get_by_test_id("sound-toggle")).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("() => localStorage.getItem('sefode.sound')") == "off"
    # After my decision the title loses its mark until my next turn, which is announced.
    kind = wait_actionable(page)
    before = table_version(page)
    if kind == "bid":
        page.locator("[data-testid=bid-panel] button.bid:not([disabled])").first.click()
    else:
        page.locator("[data-testid=my-hand] button.card.playable:not([disabled])").first.click()
    page.wait_for_function(NEWER, arg=before)
    wait_actionable(page)
    expect(page).to_have_title(re.compile(r"^" + re.escape(PT["alert.title_mark"])))
    expect(page.get_by_test_id("announcer")).not_to_have_text("")
    assert client.errors == []
    client.close()
