"""Issue 10, defect 3, in the page: when the session ends elsewhere, the table's WebSocket is closed with 4410 and
the page says why, in its language, and stops reconnecting (``ws.js``)."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from .conftest import DESKTOP, Server
from .helpers import catalogue, create_invite_room, open_client

PT = catalogue("pt-BR")


def test_logging_out_elsewhere_closes_the_table_and_the_page_explains(browser: Browser, server: Server) -> None:
    ana = open_client(browser, server.url, DESKTOP, record_frames=True)
    page = ana.page
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    create_invite_room(page, "Ana", "Mesa da Ana", players=2)
    expect(page.get_by_test_id("seat-row-0")).to_contain_text("Ana")
    token = page.evaluate("localStorage.getItem('sefode.token')")
    assert token and token not in page.url
    assert sockets and all(url.endswith("/ws") for url in sockets), sockets  # no token in the WebSocket URL
    answer = page.request.post("/api/account/logout", headers={"authorization": f"Bearer {token}"})
    assert answer.status == 200, answer.text()
    expect(page.locator("#toast")).to_have_text(PT["ws.closed_session_ended"])
    expect(page.get_by_test_id("room-page")).to_have_attribute("data-conn", "closed")
    assert not ana.errors, ana.errors
    ana.close()
