"""A tap on the table is never lost to a redraw (room-table.js): another seat's move that arrives between the press and
the release of a tap redraws the table, and a redraw that replaced the pressed element would make the browser fire no
click at all. The shell holds redraws while a pointer is pressed on the table and draws after the click."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Browser, WebSocketRoute, expect
from start_points import first_seed, start_point

from sefode.engine import Game

from .conftest import Server
from .helpers import open_client, open_solo

COUNT_MESSAGES = """
(() => {
  const Base = window.WebSocket;
  window.__received = 0;
  window.WebSocket = class extends Base {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", () => { window.__received += 1; });
    }
  };
})();
"""


def _can_place(game: Game[Any], state: Any) -> bool:
    return any("place" in game.action_json(state, a) for a in game.legal_actions(state, 0))


def test_a_state_arriving_between_the_press_and_the_release_of_a_tap_does_not_lose_the_tap(
    browser: Browser, shared_server: Server
) -> None:
    client = open_client(browser, shared_server.url)
    page = client.page
    relay: dict[str, Any] = {}

    def route(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        relay["page"] = ws

        def from_server(message: str | bytes) -> None:
            text = message.decode() if isinstance(message, bytes) else message
            if json.loads(text).get("type") == "state":
                relay["state"] = json.loads(text)
            ws.send(text)

        server.on_message(from_server)

    page.route_web_socket(re.compile(r"/ws$"), route)
    page.add_init_script(COUNT_MESSAGES)
    # A deal where seat 0 can put a card down on turn 1 (in some deals no card is cheap enough).
    start = first_seed(lambda seed: start_point("guimenon", {}, _can_place, seed=seed))
    open_solo(page, shared_server.url, "Ana", {"game": "guimenon", "bots": 1, "level": "easy", "start": start})
    expect(page.locator("[data-testid=gm-confirm]")).to_be_visible()
    card = page.locator("[data-testid=gm-hand] .gm-playable").first
    testid = card.get_attribute("data-testid")
    box = card.bounding_box()
    assert box is not None and testid
    received = page.evaluate("() => window.__received")
    assert received > 0, "the page's messages are counted"
    state = relay["state"]
    # Another seat's move, as far as the page can tell: the same view at a newer version.
    newer = {**state, "version": state["version"] + 1, "events": []}
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    relay["page"].send(json.dumps(newer))
    page.wait_for_function("(n) => window.__received > n", arg=received)
    page.mouse.up()
    # The tap counted (the card is chosen: the Locations where it may go are offered), and the new state is drawn.
    expect(page.get_by_test_id(testid)).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".gm-loc.gm-target").first).to_be_visible()
    expect(page.get_by_test_id("table")).to_have_attribute("data-version", str(newer["version"]))
    assert client.errors == []
    client.close()
