"""Friends in the page (issue 23), with two browser contexts: a friend invited from the room's Invite dialog finds the
invitation on their home page (it shows up by itself, on the page's refresh) and its link takes them into the
invite-only room, where they sit; a player blocked from the seat list no longer reaches the blocker's chat. The friends
panel is shot at 360x740 and 1366x800 into the test's artifacts (``docs/screenshots/friends-*.png`` are copies of
one run's) and checked with axe-core, as the seat list with its friend controls is."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Browser, Page, ViewportSize, expect

from .conftest import DESKTOP, MOBILE, Server
from .helpers import Client, api, catalogue, create_invite_room, open_client, snap, unique, wait_ready
from .test_table_experience import _axe

PT = catalogue("pt-BR")
WIDE: ViewportSize = {"width": 1366, "height": 800}
REFRESH_MS = 10_000  # the home page's refresh (home.js)
"""The home page reads the friends panel every 10 s; a test moves the page's clock on by that much (``page.clock``)
rather than wait for it."""


def _account(
    browser: Browser, server: Server, prefix: str, viewport: ViewportSize = MOBILE, axe: bool = False
) -> tuple[Client, str, str]:
    """A browser context logged in to a new account: (client, username, player id). ``axe``: the context lets
    axe-core be injected (it bypasses the page's CSP, as in test_table_experience)."""
    username = unique(prefix)
    made = api(f"{server.url}/api/account/register", "POST", body={"username": username, "password": "senha-boa-123"})
    if axe:
        context = browser.new_context(viewport=viewport, base_url=server.url, locale="pt-BR", bypass_csp=True)
        client = Client(context, context.new_page())
        client.page.on("pageerror", lambda error: client.errors.append(str(error)))
    else:
        client = open_client(browser, server.url, viewport)
    page = client.page
    page.goto("/")
    wait_ready(page)
    page.evaluate(
        f"() => {{ localStorage.setItem('sefode.token', {json.dumps(made['token'])});"
        f" localStorage.setItem('sefode.name', {json.dumps(username)}); }}"
    )
    page.reload()
    wait_ready(page)
    return client, username, str(made["player_id"])


def _token(page: Page) -> str:
    token: str = page.evaluate("() => localStorage.getItem('sefode.token')")
    return token


def _befriend(server: Server, one: Page, two: Page, two_name: str, one_id: str) -> None:
    api(f"{server.url}/api/account/friends", "POST", _token(one), {"name": two_name})
    api(f"{server.url}/api/account/friends/{one_id}/accept", "POST", _token(two), {})


def test_a_friends_invitation_shows_on_their_home_page_and_its_link_seats_them(
    browser: Browser, shared_server: Server
) -> None:
    ana, ana_name, ana_id = _account(browser, shared_server, "ana", DESKTOP)
    bia, bia_name, _bia_id = _account(browser, shared_server, "bia")
    _befriend(shared_server, ana.page, bia.page, bia_name, ana_id)

    # Bia's home page: Ana among her friends, with the keyboard-usable controls named for her. Its clock is one the
    # test moves on: the page refreshes its panels every REFRESH_MS, and the test brings that refresh on at once.
    bia.page.clock.install()
    bia.page.goto("/")
    wait_ready(bia.page)
    panel = bia.page.get_by_test_id("friends-panel")
    expect(panel.get_by_role("heading", name=PT["friends.title"], exact=True)).to_be_visible()
    expect(bia.page.get_by_test_id(f"friend-{ana_id}")).to_contain_text(ana_name)
    expect(bia.page.get_by_role("button", name=PT["friends.block_named"].replace("{name}", ana_name))).to_be_visible()
    expect(bia.page.get_by_test_id("friend-invites")).to_have_count(0)

    # Ana makes an invite-only table and calls Bia from the Invite dialog.
    create_invite_room(ana.page, ana_name, "Sexta", players=3)
    ana.page.get_by_test_id("share-open").click()
    invite = ana.page.get_by_role("button", name=PT["friends.invite_named"].replace("{name}", bia_name))
    expect(invite).to_be_visible()
    invite.click()
    expect(invite).to_have_text(PT["friends.invite_sent"])
    ana.page.keyboard.press("Escape")

    # It shows up on Bia's home page by itself (the page's refresh), with a link into the table.
    item = bia.page.get_by_test_id("friend-invites").locator("li")
    expect(item).to_have_count(0)
    bia.page.clock.fast_forward(REFRESH_MS)
    expect(item).to_have_count(1)
    expect(item).to_contain_text(PT["friends.invite_text"].replace("{name}", ana_name).replace("{room}", "Sexta"))
    item.get_by_role("link", name=PT["friends.invite_join"]).click()
    expect(bia.page.get_by_test_id("room-page")).to_be_visible()
    expect(bia.page.get_by_test_id("room-name")).to_have_text("Sexta")
    bia.page.get_by_test_id("sit-1").click()
    expect(ana.page.get_by_test_id("seat-row-1")).to_contain_text(bia_name)
    # At the table they are friends already: no "add" on her seat, a "Friend" mark instead.
    expect(ana.page.get_by_test_id("seat-is-friend-1")).to_have_text(PT["friends.seat_friend"])
    expect(ana.page.get_by_test_id("seat-friend-1")).to_have_count(0)
    assert ana.errors == [] and bia.errors == []
    ana.close()
    bia.close()


def test_blocking_a_player_from_the_seat_list_hides_their_chat(browser: Browser, shared_server: Server) -> None:
    ana, ana_name, _ana_id = _account(browser, shared_server, "ana", axe=True)
    bia, bia_name, _bia_id = _account(browser, shared_server, "bia", DESKTOP)
    invite_url = create_invite_room(bia.page, bia_name, "Mesa da Bia", players=3)
    ana.page.goto(invite_url)
    expect(ana.page.get_by_test_id("room-page")).to_be_visible()
    ana.page.get_by_test_id("sit-1").click()
    expect(bia.page.get_by_test_id("seat-row-1")).to_contain_text(ana_name)

    # Before: Bia's chat reaches Ana.
    for client in (ana, bia):
        client.page.get_by_test_id("tab-chat").click()
    bia.page.get_by_test_id("chat-input").fill("bem-vinda!")
    bia.page.get_by_test_id("chat-send").click()
    expect(ana.page.get_by_test_id("chat-list")).to_contain_text("bem-vinda!")

    assert _axe(ana.page, "seat list with friend controls") == []
    # Ana blocks Bia from the seat list: a named button, then the confirmation.
    block = ana.page.get_by_test_id("seat-row-0").get_by_role(
        "button", name=PT["friends.block_named"].replace("{name}", bia_name)
    )
    expect(ana.page.get_by_test_id("seat-friend-0")).to_have_text(PT["friends.seat_add"])  # an account: "add" too
    block.click()
    ana.page.get_by_test_id("confirm-ok").click()
    expect(ana.page.get_by_test_id("seat-blocked-0")).to_have_text(PT["friends.seat_blocked"])
    expect(ana.page.get_by_test_id("chat-list")).not_to_contain_text("bem-vinda!")  # what she said goes too

    bia.page.get_by_test_id("chat-input").fill("alguém me ouve?")
    bia.page.get_by_test_id("chat-send").click()
    expect(bia.page.get_by_test_id("chat-list")).to_contain_text("alguém me ouve?")  # sent and stored
    ana.page.get_by_test_id("chat-input").fill("cheguei")
    ana.page.get_by_test_id("chat-send").click()
    expect(ana.page.get_by_test_id("chat-list")).to_contain_text("cheguei")  # after Bia's, on the same socket
    expect(bia.page.get_by_test_id("chat-list")).to_contain_text("cheguei")  # Ana still speaks to the table
    expect(ana.page.get_by_test_id("chat-list")).not_to_contain_text("alguém me ouve?")
    assert ana.errors == [] and bia.errors == []
    ana.close()
    bia.close()


def test_the_friends_panel_at_phone_and_desktop_sizes(browser: Browser, shared_server: Server, artifacts: Path) -> None:
    ana, ana_name, ana_id = _account(browser, shared_server, "ana", axe=True)
    bia, bia_name, bia_id = _account(browser, shared_server, "bia", DESKTOP)
    caio_token = api(
        f"{shared_server.url}/api/account/register", "POST", body={"username": unique("caio"), "password": "x" * 10}
    )
    duda_token = api(
        f"{shared_server.url}/api/account/register", "POST", body={"username": unique("duda"), "password": "x" * 10}
    )
    _befriend(shared_server, ana.page, bia.page, bia_name, ana_id)
    url = shared_server.url
    api(f"{url}/api/account/friends", "POST", caio_token["token"], {"name": ana_name})  # Ana accepts it below
    api(f"{url}/api/account/friends/{caio_token['player_id']}/accept", "POST", _token(ana.page), {})
    api(f"{url}/api/account/friends", "POST", duda_token["token"], {"name": ana_name})  # waiting for Ana
    # Bia sits at a public table and invites Ana to it.
    room = api(
        f"{url}/api/rooms",
        "POST",
        _token(bia.page),
        {"name": "Mesa da Bia", "game": "fodinha", "options": {"players": 3}},
    )
    bia.page.goto(f"/room/{room['room_id']}")
    expect(bia.page.get_by_test_id("room-page")).to_be_visible()
    api(f"{url}/api/account/invites", "POST", _token(bia.page), {"player_id": ana_id, "room_id": room["room_id"]})

    page = ana.page
    page.goto("/")
    wait_ready(page)
    friend = page.get_by_test_id(f"friend-{bia_id}")
    expect(friend.get_by_test_id(f"friend-table-{bia_id}")).to_have_text(
        PT["friends.at_table"].replace("{room}", "Mesa da Bia")
    )
    expect(page.get_by_test_id(f"friend-status-{caio_token['player_id']}")).to_have_text(PT["friends.offline"])
    expect(page.get_by_test_id("friend-incoming").locator("li")).to_have_count(1)
    expect(page.get_by_test_id("friend-invites").locator("li")).to_have_count(1)
    # The record between Ana and Bia opens under her name, and says so to a screen reader.
    toggle = page.get_by_test_id(f"friend-record-toggle-{bia_id}")
    toggle.click()
    expect(page.get_by_test_id(f"friend-record-toggle-{bia_id}")).to_have_attribute("aria-expanded", "true")
    expect(page.get_by_test_id(f"friend-record-{bia_id}")).to_have_text(PT["friends.record_none"])
    panel = page.get_by_test_id("friends-panel")
    for size, name in ((MOBILE, "friends-360"), (WIDE, "friends-1366")):
        page.set_viewport_size(size)
        panel.scroll_into_view_if_needed()
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the home page at {size['width']}px scrolls sideways"
        snap(panel, artifacts / f"{name}.png")
        assert _axe(page, f"friends panel {size['width']}") == []
    assert ana.errors == [] and bia.errors == []
    ana.close()
    bia.close()


def test_a_guest_is_told_that_only_accounts_keep_friends(browser: Browser, shared_server: Server) -> None:
    guest = open_client(browser, shared_server.url, MOBILE)
    invite_url = create_invite_room(guest.page, "Gil", "Mesa do Gil", players=3)  # a guest session, at a table
    assert "/invite/" in invite_url
    guest.page.get_by_test_id("share-open").click()
    expect(guest.page.get_by_test_id("share-friends-guest")).to_contain_text(PT["friends.guest_note"])
    guest.page.keyboard.press("Escape")
    guest.page.goto("/")
    wait_ready(guest.page)
    note = guest.page.get_by_test_id("friends-guest-note")
    expect(note).to_contain_text(PT["friends.guest_note"])
    expect(note.get_by_role("link", name=PT["friends.guest_link"])).to_have_attribute("href", "/account")
    expect(guest.page.get_by_test_id("friend-add")).to_have_count(0)
    assert guest.errors == []
    guest.close()
