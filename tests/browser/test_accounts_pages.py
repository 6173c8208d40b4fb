"""Browser test: the account pages (register from a guest who keeps their medals, log out, a refused login and the
rate limit, log in, rename, delete) and the leaderboard (medal order, trophy tab, pages, "show me", a rating tab per
game)."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from playwright.sync_api import Browser, Page, expect

from sefode.awards import recording
from sefode.awards import tables as awards_tables
from sefode.store import Store

from .conftest import DESKTOP, MOBILE, Server
from .helpers import api, open_client, shoot, unique, wait_ready

STATIC = Path(__file__).resolve().parents[2] / "sefode" / "web" / "static"
PT: dict[str, str] = json.loads((STATIC / "i18n" / "pt-BR.json").read_text(encoding="utf-8"))


def snap(page: Page, folder: Path, name: str) -> None:
    """Screenshots at both sizes (see ``shoot``), and no text left unfilled: no null, undefined or {placeholder}."""
    shoot(page, folder, name)
    text = page.locator("body").inner_text()
    for leftover in ("null", "undefined", "NaN", "{"):
        assert leftover not in text, f"{name}: {leftover!r} in the page text"


def _new_guest(server: Server, name: str) -> str:
    """A guest session made over HTTP (a player who is not in any browser); returns the player id."""
    request = urllib.request.Request(
        f"{server.url}/api/session",
        data=json.dumps({"name": name}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        data: dict[str, Any] = json.loads(response.read())
    return str(data["player_id"])


def _give_medals(server: Server, player_id: str, gold: int = 0, silver: int = 0, bronze: int = 0) -> None:
    """Medals as the awarding code stores them (one row per match and player), written to the server's database."""
    engine = sa.create_engine(f"sqlite:///{server.database}")
    stamp = int(time.time() * 1000)
    rows = []
    for medal, count, place in (("gold", gold, 1), ("silver", silver, 2), ("bronze", bronze, 3)):
        for k in range(count):
            rows.append(
                {
                    "match_id": f"m{medal[0]}{k}",
                    "player_id": player_id,
                    "medal": medal,
                    "place": place,
                    "awarded_at": stamp,
                }
            )
    with engine.begin() as conn:
        conn.execute(awards_tables.medals.insert(), rows)
    engine.dispose()


def _give_trophy(server: Server, player_id: str, tournament_id: str) -> None:
    engine = sa.create_engine(f"sqlite:///{server.database}")
    with engine.begin() as conn:
        conn.execute(
            awards_tables.trophies.insert(),
            [{"tournament_id": tournament_id, "player_id": player_id, "awarded_at": int(time.time() * 1000)}],
        )
    engine.dispose()


def _api_me(page: Page) -> dict[str, Any]:
    data = page.evaluate("async () => (await import('/static/js/api.js')).api('GET', '/account/me')")
    assert isinstance(data, dict)
    return data


def _login(page: Page, username: str, password: str) -> None:
    page.get_by_test_id("login-username").fill(username)
    page.get_by_test_id("login-password").fill(password)
    page.get_by_test_id("login-submit").click()


def test_guest_registers_keeps_medals_logs_out_in_renames_and_deletes_the_account(
    browser: Browser, server: Server, artifacts: Path
) -> None:
    """The account pages from a guest's first medals to the account's deletion (the leaderboard's part is the next
    test's). A fresh server: the failed logins from this address must be this test's own."""
    username = unique("ana").lower()
    ana = open_client(browser, server.url, MOBILE)
    page = ana.page
    page.goto("/")
    wait_ready(page)
    # A guest, the way the home page makes one (nickname, then a session).
    guest = page.evaluate("async () => (await import('/static/js/api.js')).ensureSession('Ana')")
    guest_id = str(guest["player_id"])
    # The guest already earned medals: 1 gold, 1 bronze.
    _give_medals(server, guest_id, gold=1, bronze=1)

    # The account page of a guest: medals so far, and the register form that keeps them.
    page.get_by_test_id("nav-account").click()
    expect(page.get_by_test_id("account-kind")).to_have_text(PT["acct.guest"])
    expect(page.get_by_test_id("account-medals-gold")).to_have_text("1")
    expect(page.get_by_test_id("account-medals-bronze")).to_have_text("1")
    snap(page, artifacts, "01-guest-account")
    page.get_by_test_id("register-username").fill("an")
    page.get_by_test_id("register-password").fill("senha-boa-123")
    page.get_by_test_id("register-submit").click()
    expect(page.get_by_test_id("register-error")).to_have_text(PT["acct.err_bad_username"])
    page.get_by_test_id("register-username").fill(username)
    page.get_by_test_id("register-submit").click()
    expect(page.get_by_test_id("account-kind")).to_have_text(PT["acct.registered_as"].replace("{username}", username))
    me = _api_me(page)
    assert me["player_id"] == guest_id and me["registered"] is True and me["username"] == username
    assert me["medals"] == {"gold": 1, "silver": 0, "bronze": 1}
    expect(page.get_by_test_id("account-medals-gold")).to_have_text("1")
    expect(page.get_by_test_id("register-form")).to_have_count(0)
    snap(page, artifacts, "02-registered")

    # Log out: back to the forms, no session left in the browser.
    page.get_by_test_id("logout").click()
    expect(page.get_by_test_id("login-form")).to_be_visible()
    expect(page.get_by_test_id("account-summary")).to_have_count(0)
    assert page.evaluate("() => localStorage.getItem('sefode.token')") is None
    expect(page.get_by_test_id("me-name")).to_have_text("")

    # A wrong password is refused with the catalogue's message; the right one logs in as the same player.
    _login(page, username, "senha-errada-0")
    expect(page.get_by_test_id("login-error")).to_have_text(PT["acct.err_bad_credentials"])
    snap(page, artifacts, "03-bad-login")
    _login(page, username.upper(), "senha-boa-123")
    expect(page.get_by_test_id("account-kind")).to_contain_text(username)
    assert _api_me(page)["player_id"] == guest_id
    expect(page.get_by_test_id("me-name")).to_contain_text("Ana")

    # Rename: the header, the account and the server all say the new name.
    page.get_by_test_id("rename-name").fill("Ana Maria")
    page.get_by_test_id("rename-submit").click()
    expect(page.get_by_test_id("account-name")).to_have_text("Ana Maria")
    expect(page.get_by_test_id("me-name")).to_contain_text("Ana Maria")
    assert _api_me(page)["name"] == "Ana Maria"

    # A second browser logs in to the same account; "log out everywhere" in the first ends both sessions.
    other = open_client(browser, server.url, DESKTOP)
    opage = other.page
    opage.goto("/")
    wait_ready(opage)
    opage.get_by_test_id("nav-account").click()
    _login(opage, username, "senha-boa-123")
    expect(opage.get_by_test_id("account-name")).to_have_text("Ana Maria")
    page.get_by_test_id("logout-all").click()
    page.get_by_test_id("confirm-ok").click()
    expect(page.get_by_test_id("login-form")).to_be_visible()
    opage.get_by_test_id("nav-leaderboard").click()
    opage.get_by_test_id("nav-account").click()
    expect(opage.get_by_test_id("login-form")).to_be_visible()
    expect(opage.get_by_test_id("account-summary")).to_have_count(0)
    assert opage.evaluate("() => localStorage.getItem('sefode.token')") is None
    _login(page, username, "senha-boa-123")
    expect(page.get_by_test_id("account-name")).to_have_text("Ana Maria")

    # The player's own profile from the account page: medals, no trophy, no finished match.
    page.get_by_test_id("nav-account").click()
    page.get_by_test_id("account-profile-link").click()
    expect(page.get_by_test_id("profile-name")).to_contain_text("Ana Maria")
    expect(page.get_by_test_id("profile-medals-gold")).to_have_text("1")
    expect(page.get_by_test_id("profile-no-trophies")).to_be_visible()
    snap(page, artifacts, "06-profile")

    # Deleting the account (password, then the confirm dialog) signs out and takes Ana off the leaderboard.
    page.get_by_test_id("nav-account").click()
    page.get_by_test_id("delete-password").fill("senha-boa-123")
    page.get_by_test_id("delete-submit").click()
    page.get_by_test_id("confirm-ok").click()
    expect(page.get_by_test_id("login-form")).to_be_visible()
    # The deleted player's profile shows the catalogue's anonymous name.
    page.evaluate(
        f"() => {{ history.pushState({{}}, '', '/players/{guest_id}'); dispatchEvent(new PopStateEvent('popstate')); }}"
    )
    expect(page.get_by_test_id("profile-name")).to_have_text(PT["acct.anonymous"])

    assert ana.errors == [] and other.errors == []
    ana.close()
    other.close()


def test_the_leaderboard_ranks_by_medals_in_pages_shows_me_lists_trophies_and_forgets_a_deleted_account(
    browser: Browser, server: Server, artifacts: Path
) -> None:
    """A registered player, 21 players with more medals and 3 with fewer, one of them a trophy holder (on a fresh
    server: the ranks count every player in its database)."""
    ana = open_client(browser, server.url, MOBILE)
    page = ana.page
    page.goto("/")
    wait_ready(page)
    # A guest, the way the home page makes one (nickname, then a session).
    guest = page.evaluate("async () => (await import('/static/js/api.js')).ensureSession('Ana Maria')")
    guest_id = str(guest["player_id"])
    # The guest already earned medals: 1 gold, 1 bronze. 21 players have more, 3 have fewer: Ana is 22nd.
    _give_medals(server, guest_id, gold=1, bronze=1)
    stronger = [_new_guest(server, f"Forte {k:02d}") for k in range(21)]
    for k, pid in enumerate(stronger):
        _give_medals(server, pid, gold=2, silver=k % 3)
    weaker = [_new_guest(server, f"Fraco {k}") for k in range(3)]
    for pid in weaker:
        _give_medals(server, pid, silver=1)
    _give_trophy(server, weaker[0], "tour-1")
    # Ana registers from the account page.
    page.get_by_test_id("nav-account").click()
    page.get_by_test_id("register-username").fill("ana_maria")
    page.get_by_test_id("register-password").fill("senha-boa-123")
    page.get_by_test_id("register-submit").click()
    expect(page.get_by_test_id("account-kind")).to_have_text(
        PT["acct.registered_as"].replace("{username}", "ana_maria")
    )

    # The leaderboard: gold first, then silver; 20 a page; Ana (22nd) is on page 2.
    page.get_by_test_id("nav-leaderboard").click()
    expect(page.get_by_test_id("lb-page")).to_have_text("Página 1 de 2")
    rows = page.locator("[data-testid=lb-table] tbody tr")
    expect(rows).to_have_count(20)
    ranks = [int(r) for r in rows.evaluate_all("els => els.map(e => e.dataset.rank)")]
    assert ranks == sorted(ranks) and ranks[0] == 1
    first = rows.nth(0).locator("td").all_inner_texts()
    assert first[2:5] == ["2", "2", "0"]  # gold 2, silver 2 (k % 3 == 2), bronze 0: the best of all
    expect(page.get_by_test_id(f"lb-row-{guest_id}")).to_have_count(0)
    snap(page, artifacts, "04-leaderboard-page1")
    page.get_by_test_id("lb-show-me").click()
    expect(page.get_by_test_id("lb-page")).to_have_text("Página 2 de 2")
    mine = page.get_by_test_id(f"lb-row-{guest_id}")
    expect(mine).to_have_class("you")
    expect(mine).to_contain_text("Ana Maria")
    assert mine.locator("td").all_inner_texts()[2:5] == ["1", "0", "1"]
    assert mine.get_attribute("data-rank") == "22"
    # The three with one silver rank below Ana, sharing rank 23.
    below = [page.get_by_test_id(f"lb-row-{pid}").get_attribute("data-rank") for pid in weaker]
    assert below == ["23", "23", "23"]
    snap(page, artifacts, "05-leaderboard-show-me")
    page.get_by_test_id("lb-prev").click()
    expect(page.get_by_test_id("lb-page")).to_have_text("Página 1 de 2")
    # The trophy board lists only the trophy holder, with the trophy first.
    page.get_by_test_id("lb-tab-trophies").click()
    expect(page.locator("[data-testid=lb-table] tbody tr")).to_have_count(1)
    expect(page.get_by_test_id(f"lb-row-{weaker[0]}")).to_contain_text("Fraco 0")
    assert page.get_by_test_id(f"lb-row-{weaker[0]}").locator("td").all_inner_texts()[2] == "1"

    # Deleting the account (password, then the confirm dialog) signs out and takes Ana off the leaderboard.
    page.get_by_test_id("nav-account").click()
    page.get_by_test_id("delete-password").fill("senha-boa-123")
    page.get_by_test_id("delete-submit").click()
    page.get_by_test_id("confirm-ok").click()
    expect(page.get_by_test_id("login-form")).to_be_visible()
    page.get_by_test_id("nav-leaderboard").click()
    expect(page.get_by_test_id("lb-page")).to_have_text("Página 1 de 2")
    page.get_by_test_id("lb-next").click()
    expect(page.get_by_test_id(f"lb-row-{weaker[1]}")).to_be_visible()
    expect(page.get_by_test_id(f"lb-row-{guest_id}")).to_have_count(0)

    assert ana.errors == []
    ana.close()


def test_five_wrong_passwords_and_even_the_right_one_is_refused_for_a_while(
    browser: Browser, server: Server, artifacts: Path
) -> None:
    """The login rate limit, from a browser that is not the account's (a fresh server: the failed logins from this
    address must be this test's own)."""
    username = unique("ana").lower()
    guest = api(f"{server.url}/api/session", "POST", body={"name": "Ana"})
    api(
        f"{server.url}/api/account/register",
        "POST",
        guest["token"],
        {"username": username, "password": "senha-boa-123"},
    )
    other = open_client(browser, server.url, DESKTOP)
    opage = other.page
    opage.goto("/account")
    wait_ready(opage)
    expect(opage.get_by_test_id("login-form")).to_be_visible()
    # Five wrong passwords, then even the right one is refused for a while (rate limit).
    for k in range(5):
        _login(opage, username, f"nao-e-essa-{k}")
        expect(opage.get_by_test_id("login-error")).to_have_text(PT["acct.err_bad_credentials"])
        expect(opage.get_by_test_id("login-submit")).to_be_enabled()
    _login(opage, username, "senha-boa-123")
    expect(opage.get_by_test_id("login-error")).to_have_text(PT["acct.err_rate_limited"])
    snap(opage, artifacts, "07-rate-limited")

    assert other.errors == []
    other.close()


def _record_match(server: Server, players: list[str | None], placements: list[int], number: int) -> None:
    """A finished match stored and recorded as the server does it (store calls, then the awarding code), in the
    server's own database: medals, tournaments and the game's rating table."""
    store = Store(f"sqlite:///{server.database}")
    try:
        room_id = "lbrooms"
        if not any(r[0] == room_id for r in store.load_rooms()):
            store.save_room(room_id, {"name": "Mesa"}, "public", "lb-invite")
        match_id = f"lbmatch{number}"
        seats = [{"player_id": p, "bot": None if p else "normal", "left": False} for p in players]
        store.create_match(match_id, room_id, number, "fodinha", {}, 1, {}, seats)
        units = [[s] for s in range(len(players))]
        outcome = {"placements": placements, "units": units, "no_winner": False, "scores": None}
        store.add_action(match_id, 0, 0, {"bid": 0}, "human", seats, outcome)
        assert recording.record_match_end(store.engine, match_id) is not None
    finally:
        store.close()


def test_the_leaderboard_has_a_rating_tab_per_game(browser: Browser, server: Server, artifacts: Path) -> None:
    ana = open_client(browser, server.url, DESKTOP)
    page = ana.page
    page.goto("/")
    wait_ready(page)
    guest = page.evaluate("async () => (await import('/static/js/api.js')).ensureSession('Ana')")
    ana_id = str(guest["player_id"])
    bia, caio, solo = (_new_guest(server, name) for name in ("Bia", "Caio", "Solo"))
    _record_match(server, [bia, ana_id, caio], [1, 2, 3], 1)
    _record_match(server, [caio, bia, ana_id], [3, 1, 2], 2)
    _record_match(server, [solo, None, None], [1, 2, 3], 3)  # one human and bots: nobody is rated

    page.get_by_test_id("nav-leaderboard").click()
    tab = page.get_by_test_id("lb-tab-game-fodinha")
    # The tab is named by the game's title key (from the registry) in the page's catalogues, else by its name.
    games = page.evaluate("async () => (await import('/static/js/api.js')).api('GET', '/ratings')")["games"]
    (entry,) = [g for g in games if g["game"] == "fodinha"]
    shown_title = page.evaluate("async (key) => (await import('/static/js/i18n.js')).t(key)", entry["title"])
    title = shown_title if shown_title != entry["title"] else "fodinha"
    expect(tab).to_have_text(title)
    expect(page.get_by_test_id("lb-tab-medals")).to_have_attribute("aria-selected", "true")
    tab.click()
    expect(tab).to_have_attribute("aria-selected", "true")
    rows = page.locator("[data-testid=lb-table] tbody tr")
    expect(rows).to_have_count(3)
    api_rows = page.evaluate("async () => (await import('/static/js/api.js')).api('GET', '/ratings/fodinha')")["rows"]
    shown = rows.evaluate_all("els => els.map(e => e.dataset.testid)")
    assert shown == [f"lb-row-{r['player_id']}" for r in api_rows]
    assert shown[0] == f"lb-row-{bia}"  # won both matches
    assert set(shown) == {f"lb-row-{p}" for p in (ana_id, bia, caio)}  # the lone human is not rated
    for r in api_rows:
        cells = page.get_by_test_id(f"lb-row-{r['player_id']}").locator("td").all_inner_texts()
        assert cells[2] == f"{r['rating']:.1f}" and cells[3] == "2"
    expect(page.get_by_test_id("lb-order")).to_contain_text(title)
    assert "board=ratings" in page.url and "game=fodinha" in page.url
    page.get_by_test_id("lb-show-me").click()
    expect(page.get_by_test_id(f"lb-row-{ana_id}")).to_have_class("you")
    snap(page, artifacts, "08-leaderboard-ratings")
    # The tab survives a reload (the address holds it); the medal tab is one click away.
    page.reload()
    wait_ready(page)
    expect(page.get_by_test_id("lb-tab-game-fodinha")).to_have_attribute("aria-selected", "true")
    expect(page.locator("[data-testid=lb-table] tbody tr")).to_have_count(3)
    page.get_by_test_id("lb-tab-medals").click()
    expect(page.get_by_test_id("lb-tab-medals")).to_have_attribute("aria-selected", "true")
    expect(page.get_by_test_id("lb-empty")).to_be_visible()  # 3 humans: no medals anywhere

    # The profile shows the player's rating in each game.
    page.evaluate(
        f"() => {{ history.pushState({{}}, '', '/players/{ana_id}'); dispatchEvent(new PopStateEvent('popstate')); }}"
    )
    line = page.get_by_test_id("profile-rating-fodinha")
    mine = next(r for r in api_rows if r["player_id"] == ana_id)
    expect(line).to_contain_text(
        PT["prof.rating_line"].replace("{rating}", f"{mine['rating']:.1f}").replace("{n}", "2")
    )
    expect(page.locator("[data-testid=profile-matches] > li")).to_have_count(2)
    # Progress (sefode/accounts/progress.py): two matches, no win; the group of Ana, Bia and Caio with its score.
    expect(page.get_by_test_id("progress-line-fodinha")).to_have_text(
        PT["prof.progress_line"]
        .replace("{matches}", PT["prof.matches_n.other"].replace("{count}", "2"))
        .replace("{wins}", PT["prof.group_wins.other"].replace("{count}", "0"))
    )
    group = page.get_by_test_id("profile-group-0")
    expect(group).to_contain_text(PT["prof.group_matches.other"].replace("{count}", "2"))
    expect(group.locator("li").first).to_contain_text("Bia")  # two wins of two
    snap(page, artifacts, "09-profile-ratings")
    assert ana.errors == []
    ana.close()
