"""Issue 23, sharing a table: the room's one Invite control opens a dialog with the phone's share sheet (when the
browser has the Web Share API), a WhatsApp link, copying the link and the link's QR code; a visitor with no nickname
sees which table and game the link is for before choosing one; the plain address of an invite-only room says to ask
for the link, with no password box."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import Browser, ViewportSize, expect

from .conftest import MOBILE, Server
from .helpers import Client, catalogue, create_invite_room, open_client, shoot, wait_ready

CATALOGUE = catalogue("pt-BR")
WIDE: ViewportSize = {"width": 1366, "height": 800}
INVITATION = "Vem jogar Se Fode comigo na mesa “Sexta”"

STUB_SHARE = """
window.__shared = [];
Object.defineProperty(Navigator.prototype, "share", {
  configurable: true,
  value: function (data) { window.__shared.push(data); return Promise.resolve(); },
});
"""
"""The phone's share sheet, recorded instead of shown."""

NO_SHARE = "delete Navigator.prototype.share; delete Navigator.prototype.canShare;"
"""A browser without the Web Share API (most desktops)."""


def _owner(browser: Browser, server: Server, script: str) -> tuple[Client, str]:
    client = open_client(browser, server.url, MOBILE)
    client.context.add_init_script(script)
    return client, create_invite_room(client.page, "Ana", "Sexta", players=3)


def test_the_invite_dialog_opens_the_phones_share_sheet_when_there_is_one(
    browser: Browser, shared_server: Server
) -> None:
    ana, invite_url = _owner(browser, shared_server, STUB_SHARE)
    page = ana.page
    assert "/invite/" in invite_url
    opener = page.get_by_test_id("share-open")
    expect(opener).to_have_text(CATALOGUE["share.open"])
    expect(page.get_by_test_id("share-dialog")).to_be_hidden()
    opener.click()
    dialog = page.get_by_test_id("share-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("heading", name=CATALOGUE["share.title"])).to_be_visible()
    native = page.get_by_test_id("share-native")
    expect(native).to_be_focused()
    native.click()
    page.wait_for_function("() => window.__shared.length === 1")
    shared: dict[str, Any] = page.evaluate("() => window.__shared[0]")
    assert shared == {"title": "Se Fode", "text": INVITATION, "url": invite_url}
    # Escape closes the dialog and gives the focus back to the Invite button.
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(opener).to_be_focused()
    # In English, the invitation is in English.
    page.get_by_test_id("lang-toggle").click()
    expect(page.get_by_test_id("share-open")).to_have_text(catalogue("en")["share.open"])
    page.get_by_test_id("share-open").click()
    expect(page.get_by_test_id("share-message")).to_have_text("Come play Se Fode with me at the table “Sexta”")
    page.get_by_test_id("share-native").click()
    page.wait_for_function("() => window.__shared.length === 2")
    assert page.evaluate("() => window.__shared[1].text") == "Come play Se Fode with me at the table “Sexta”"
    assert ana.errors == []
    ana.close()


def test_without_a_share_sheet_the_dialog_offers_whatsapp_copy_and_a_qr_code(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    ana, invite_url = _owner(browser, shared_server, NO_SHARE)
    ana.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=shared_server.url)
    page = ana.page
    expect(page.get_by_test_id("share-open")).to_be_visible()
    shoot(page, artifacts, "room-with-invite", sizes=(MOBILE,))
    with page.expect_response(lambda r: r.url.endswith("/qr")) as qr_answer:
        page.get_by_test_id("share-open").click()
    assert qr_answer.value.status == 200
    assert qr_answer.value.headers["content-type"].startswith("image/svg+xml")
    expect(page.get_by_test_id("share-dialog")).to_be_visible()
    expect(page.get_by_test_id("share-native")).to_be_hidden()
    expect(page.get_by_test_id("share-message")).to_have_text(INVITATION)

    # WhatsApp: the invitation and the link, encoded in the wa.me address.
    whatsapp = page.get_by_test_id("share-whatsapp")
    expect(whatsapp).to_be_focused()
    href = whatsapp.get_attribute("href")
    assert href is not None and href.startswith("https://wa.me/?text=")
    assert parse_qs(urlsplit(href).query)["text"] == [f"{INVITATION} {invite_url}"]

    # The QR code of the link, drawn by the server, has loaded.
    qr = page.get_by_test_id("share-qr")
    expect(qr).to_be_visible()
    expect(qr).to_have_attribute("alt", CATALOGUE["share.qr_alt"])
    page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=qr.element_handle())

    # Copying puts the link on the clipboard and says so.
    expect(page.get_by_test_id("share-status")).to_have_text("")
    page.get_by_test_id("share-copy").click()
    expect(page.get_by_test_id("share-status")).to_have_text(CATALOGUE["room.link_copied"])
    assert page.evaluate("() => navigator.clipboard.readText()") == invite_url
    shoot(page, artifacts, "share-dialog", sizes=(MOBILE, WIDE))

    # The close button closes it too.
    page.get_by_test_id("share-close").click()
    expect(page.get_by_test_id("share-dialog")).to_be_hidden()
    # And so does a tap on the backdrop, but not one on the dialog's own margin.
    page.get_by_test_id("share-open").click()
    box = page.get_by_test_id("share-dialog").bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + 3, box["y"] + 3)
    expect(page.get_by_test_id("share-dialog")).to_be_visible()
    page.mouse.click(3, 3)
    expect(page.get_by_test_id("share-dialog")).to_be_hidden()
    assert ana.errors == []
    ana.close()


def test_a_visitor_without_a_nickname_sees_the_table_first_then_joins(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    ana, invite_url = _owner(browser, shared_server, NO_SHARE)
    ana.page.get_by_test_id("seat-bot-2").select_option("hard")
    expect(ana.page.get_by_test_id("seat-row-2")).to_contain_text(CATALOGUE["level.hard"])

    bia = open_client(browser, shared_server.url, MOBILE)
    page = bia.page
    page.goto(invite_url)
    wait_ready(page)
    preview = page.get_by_test_id("table-preview")
    expect(preview).to_be_visible()
    expect(page.get_by_test_id("preview-room")).to_have_text("Sexta")
    expect(page.get_by_test_id("preview-game")).to_have_text("Se Fode")
    expect(page.get_by_test_id("preview-seat-0")).to_contain_text("Ana")
    expect(page.get_by_test_id("preview-seat-1")).to_contain_text(CATALOGUE["seat.free"])
    expect(page.get_by_test_id("preview-seat-2")).to_contain_text(CATALOGUE["level.hard"])
    # The table comes before the name prompt.
    gate = page.get_by_test_id("nickname-gate")
    expect(gate).to_be_visible()
    assert preview.evaluate(
        "(el) => Boolean(el.compareDocumentPosition(document.querySelector('[data-testid=nickname-gate]')) & 4)"
    )
    expect(page.get_by_test_id("nickname")).to_be_focused()
    shoot(page, artifacts, "visitor-preview", sizes=(MOBILE, WIDE))

    page.get_by_test_id("nickname").fill("Bia")
    page.get_by_test_id("nickname-submit").click()
    expect(page.get_by_test_id("room-page")).to_be_visible()
    expect(page.get_by_test_id("room-name")).to_have_text("Sexta")
    page.get_by_test_id("sit-1").click()
    expect(ana.page.get_by_test_id("seat-row-1")).to_contain_text("Bia")
    for client in (ana, bia):
        assert client.errors == []
        client.close()


def test_the_plain_address_of_an_invite_only_room_says_to_ask_for_the_link(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    ana, _ = _owner(browser, shared_server, NO_SHARE)
    room_path = urlsplit(ana.page.url).path
    assert room_path.startswith("/room/")

    # A visitor without a session: told at once, asked for no name and no password.
    carl = open_client(browser, shared_server.url, MOBILE)
    carl.page.goto(room_path)
    wait_ready(carl.page)
    expect(carl.page.get_by_test_id("invite-only")).to_have_text(CATALOGUE["invite_only.text"])
    expect(carl.page.get_by_test_id("room-password")).to_have_count(0)
    expect(carl.page.get_by_test_id("nickname")).to_have_count(0)
    expect(carl.page.get_by_test_id("table-preview")).to_have_count(0)
    assert "Sexta" not in carl.page.content()
    shoot(carl.page, artifacts, "invite-only", sizes=(MOBILE,))

    # A visitor who has a nickname already (the room refuses them when they join): the same, no password box.
    dora = open_client(browser, shared_server.url, MOBILE)
    session = dora.page.request.post("/api/session", data={"name": "Dora"})
    assert session.ok
    dora.page.add_init_script(f"localStorage.setItem('sefode.token', {session.json()['token']!r})")
    dora.page.goto(room_path)
    wait_ready(dora.page)
    expect(dora.page.get_by_test_id("invite-only")).to_have_text(CATALOGUE["invite_only.text"])
    expect(dora.page.get_by_test_id("room-password")).to_have_count(0)
    expect(dora.page.get_by_test_id("password-gate")).to_have_count(0)
    for client in (ana, carl, dora):
        assert client.errors == []
        client.close()
