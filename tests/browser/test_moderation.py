"""The moderators' page (issue 28, ``/mod``): a report made at a table shows with the chat the server kept; a
moderator acts on it with the keyboard alone (the action, a reason, submit) and the audit list says who did what and
why; a plain account gets one line that the page is for moderators. The page is checked with axe-core and shot at
360x740 and 1366x800 (``docs/screenshots/moderation-*.png`` are copies of one run's)."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Browser, Response, ViewportSize, expect
from websockets.sync.client import connect

from sefode.cli import main as cli

from .conftest import MOBILE, Server
from .helpers import Client, api, catalogue, snap, unique, wait_ready
from .test_table_experience import _axe

PT = catalogue("pt-BR")
WIDE: ViewportSize = {"width": 1366, "height": 800}


def _register(server: Server, prefix: str) -> tuple[str, str, str]:
    username = unique(prefix)
    made = api(f"{server.url}/api/account/register", "POST", body={"username": username, "password": "senha-boa-123"})
    return username, str(made["token"]), str(made["player_id"])


def _until(ws: object, kind: str, text: str | None = None) -> dict[str, object]:
    while True:
        message: dict[str, object] = json.loads(ws.recv(timeout=20))  # type: ignore[attr-defined]
        if message["type"] == kind and (text is None or message.get("text") == text):
            return message


def test_a_moderator_reads_a_report_and_mutes_with_a_reason_from_the_keyboard(
    browser: Browser, server: Server, artifacts: Path
) -> None:
    _ana, ana_token, _ana_id = _register(server, "ana")
    bia, bia_token, bia_id = _register(server, "bia")
    mod, mod_token, _mod_id = _register(server, "mod")
    assert cli(["admin", "grant", mod, "--database", f"sqlite:///{server.database}"]) == 0
    room = api(f"{server.url}/api/rooms", "POST", ana_token, {"name": "Mesa", "options": {"players": 3, "lives": 1}})
    ws_url = server.url.replace("http://", "ws://") + "/ws"
    with connect(ws_url) as ana_ws, connect(ws_url) as bia_ws:
        for ws, token in ((ana_ws, ana_token), (bia_ws, bia_token)):
            ws.send(json.dumps({"type": "auth", "token": token}))
            _until(ws, "hello")
            ws.send(json.dumps({"type": "join", "room": room["room_id"]}))
            _until(ws, "room")
        bia_ws.send(json.dumps({"type": "chat", "text": "vocês jogam muito mal"}))
        chat = _until(ana_ws, "chat", "vocês jogam muito mal")
        body = {"player_id": bia_id, "room_id": room["room_id"], "chat_id": chat["id"], "note": "grosseria"}
        api(f"{server.url}/api/reports", "POST", ana_token, body)

    context = browser.new_context(viewport=MOBILE, base_url=server.url, locale="pt-BR", bypass_csp=True)
    client = Client(context, context.new_page())
    client.page.on("pageerror", lambda error: client.errors.append(str(error)))
    page = client.page
    page.goto("/")
    wait_ready(page)
    expect(page.get_by_test_id("nav-mod")).to_be_hidden()  # a guest's menu has no moderators' page
    page.evaluate(f"() => localStorage.setItem('sefode.token', {json.dumps(mod_token)})")
    page.goto("/")
    wait_ready(page)
    # A moderator's menu has the moderators' page, and it opens from there.
    page.get_by_test_id("nav-mod").click()
    expect(page).to_have_url(f"{server.url}/mod")
    expect(page.get_by_role("heading", name=PT["mod.title"], exact=True)).to_be_visible()
    report = page.get_by_test_id("mod-report")
    expect(report).to_contain_text("vocês jogam muito mal")
    expect(report).to_contain_text("grosseria")
    assert _axe(page, "mod") == []

    # Keyboard only: the report's button fills the form and puts the focus in the reason box.
    report.get_by_role("button", name=PT["mod.use_report"].replace("{name}", bia)).focus()
    page.keyboard.press("Enter")
    expect(page.get_by_label(PT["mod.field.reason"])).to_be_focused()
    expect(page.get_by_label(PT["mod.field.player"])).to_have_value(bia_id)
    page.get_by_label(PT["mod.field.action"]).select_option("mute")
    page.get_by_label(PT["mod.field.reason"]).fill("grosseria no chat")
    page.get_by_label(PT["mod.field.reason"]).focus()
    page.keyboard.press("Tab")
    expect(page.get_by_test_id("mod-submit")).to_be_focused()
    page.keyboard.press("Enter")
    entry = page.get_by_test_id("mod-audit-entry").first
    expect(entry).to_contain_text("grosseria no chat")
    expect(entry).to_contain_text(PT["mod.action.mute"])
    expect(page.get_by_test_id("mod-status")).to_contain_text(PT["mod.action.mute"])
    assert _axe(page, "mod after") == []
    for size in (MOBILE, WIDE):
        page.set_viewport_size(size)
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"/mod at {size['width']}px is {overflow}px wider than the screen"
        snap(page, artifacts / f"moderation-{size['width']}.png", full_page=True)
    assert client.errors == []

    # A plain account: one plain line, no form.
    _other, other_token, _ = _register(server, "caio")
    page.evaluate(f"() => localStorage.setItem('sefode.token', {json.dumps(other_token)})")
    page.goto("/mod")
    wait_ready(page)
    expect(page.get_by_test_id("nav-mod")).to_be_hidden()
    expect(page.get_by_test_id("mod-refused")).to_have_text(PT["mod.only_moderators"])
    expect(page.get_by_test_id("mod-form")).to_have_count(0)
    context.close()


def _report_filed(response: Response) -> bool:
    return response.request.method == "POST" and response.url.endswith("/api/reports")


def test_the_report_controls_on_a_seat_and_a_chat_message_file_reports_with_the_servers_chat(
    browser: Browser, server: Server
) -> None:
    ana, ana_token, _ana_id = _register(server, "ana")
    bia, bia_token, bia_id = _register(server, "bia")
    mod, mod_token, _ = _register(server, "mod")
    assert cli(["admin", "grant", mod, "--database", f"sqlite:///{server.database}"]) == 0
    room = api(f"{server.url}/api/rooms", "POST", ana_token, {"name": "Mesa", "options": {"players": 3, "lives": 1}})
    ws_url = server.url.replace("http://", "ws://") + "/ws"
    context = browser.new_context(viewport=MOBILE, base_url=server.url, locale="pt-BR")
    page = context.new_page()
    with connect(ws_url) as bia_ws:
        bia_ws.send(json.dumps({"type": "auth", "token": bia_token}))
        _until(bia_ws, "hello")
        bia_ws.send(json.dumps({"type": "join", "room": room["room_id"]}))
        _until(bia_ws, "room")
        bia_ws.send(json.dumps({"type": "sit", "seat": 1}))
        bia_ws.send(json.dumps({"type": "chat", "text": "chato demais"}))
        _until(bia_ws, "chat", "chato demais")
        page.goto("/")
        wait_ready(page)
        page.evaluate(f"() => localStorage.setItem('sefode.token', {json.dumps(ana_token)})")
        page.goto(f"/room/{room['room_id']}")
        wait_ready(page)
        report = page.get_by_role("button", name=PT["report.named"].replace("{name}", bia))
        expect(report).to_be_visible()
        expect(page.get_by_role("button", name=PT["report.named"].replace("{name}", ana))).to_have_count(0)  # not me
        report.click()
        with page.expect_response(_report_filed) as filed:
            page.get_by_test_id("confirm-ok").click()
        assert filed.value.ok
        expect(page.locator("#toast")).to_have_text(PT["report.sent"])
        # And one message: the flag beside Bia's chat line names her message.
        if page.get_by_test_id("tab-chat").is_visible():
            page.get_by_test_id("tab-chat").click()
        flag = page.get_by_role("button", name=PT["report.message_named"].replace("{name}", bia))
        expect(flag).to_have_count(1)
        flag.click()
        # The toast still says "sent" from the first report: the wait is on the second report's own answer.
        with page.expect_response(_report_filed) as filed:
            page.get_by_test_id("confirm-ok").click()
        assert filed.value.ok
        expect(page.locator("#toast")).to_have_text(PT["report.sent"])
    seat, message = api(f"{server.url}/api/mod/reports", "GET", mod_token)["reports"]
    for filed in (seat, message):
        assert filed["reported"]["player_id"] == bia_id and filed["reporter"]["name"] == ana
        assert [m["text"] for m in filed["chat"]] == ["chato demais"]
    assert seat["chat_id"] is None and message["chat_id"] == 1
    context.close()
