"""Page helpers shared by the browser tests: open pages, take screenshots at both sizes, take a turn."""

from __future__ import annotations

import json
import random
import re
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, Route, ViewportSize, WebSocket, WebSocketRoute, expect

from .conftest import DESKTOP, MOBILE

ROOT = Path(__file__).resolve().parents[2]


def catalogue(lang: str = "pt-BR") -> dict[str, str]:
    """The page's catalogue merged with every built-in game's (``sefode/games/<game>/i18n/<lang>.json``), as the
    page itself merges them: a test can look up any text the page shows."""
    merged: dict[str, str] = {}
    for path in sorted(ROOT.glob(f"sefode/games/*/i18n/{lang}.json")):
        merged.update(json.loads(path.read_text(encoding="utf-8")))
    merged.update(json.loads((ROOT / "sefode/web/static/i18n" / f"{lang}.json").read_text(encoding="utf-8")))
    return merged


TURN_TIMEOUT_MS = 30_000

ACTIONABLE = """() => {
  if (document.querySelector('[data-testid=end-overlay]:not([hidden]) [data-testid=placements]')) return 'over';
  if (document.querySelector('[data-testid=bid-panel] button.bid:not([disabled])')) return 'bid';
  if (document.querySelector('[data-testid=my-hand] button.card.playable:not([disabled])')) return 'play';
  return null;
}"""


@dataclass
class Client:
    """One browser context (one guest session) with the page it drives and what it saw."""

    context: BrowserContext
    page: Page
    errors: list[str] = field(default_factory=list)
    frames: list[dict[str, Any]] = field(default_factory=list)

    def close(self) -> None:
        self.context.close()


def open_client(
    browser: Browser, base_url: str, viewport: ViewportSize = MOBILE, record_frames: bool = False
) -> Client:
    context = browser.new_context(viewport=viewport, base_url=base_url, locale="pt-BR")
    page = context.new_page()
    client = Client(context, page)
    page.on("pageerror", lambda error: client.errors.append(str(error)))

    def on_websocket(ws: WebSocket) -> None:
        def on_frame(payload: str | bytes) -> None:
            text = payload.decode() if isinstance(payload, bytes) else payload
            try:
                message = json.loads(text)
            except ValueError:
                message = {"type": "?", "raw": text}
            client.frames.append(message)

        ws.on("framereceived", on_frame)

    if record_frames:
        page.on("websocket", on_websocket)
    return client


def wait_ready(page: Page) -> None:
    page.wait_for_selector("body[data-ready='1']")


def enter_nickname(page: Page, name: str) -> None:
    page.get_by_test_id("nickname").fill(name)


SETTLED = """() => new Promise((done) => {
  // Two animation frames after the resize the layout has been recomputed; CSS transitions are awaited too.
  const running = document.getAnimations().filter(
    (a) => a.playState === "running" && a.effect?.getTiming().iterations !== Infinity);
  Promise.all(running.map((a) => a.finished.catch(() => null))).then(() =>
    requestAnimationFrame(() => requestAnimationFrame(done)));
})"""


def shoot(page: Page, folder: Path, name: str, sizes: Sequence[ViewportSize] = (MOBILE, DESKTOP)) -> None:
    """Screenshots of the page at 360x740 and at 1280x800, or at ``sizes`` (the viewport is restored afterwards)."""
    original = page.viewport_size or MOBILE
    for size in sizes:
        page.set_viewport_size(size)
        page.evaluate(SETTLED)  # the layout after the resize, not a guess at how long it takes
        page.screenshot(path=str(folder / f"{name}-{size['width']}x{size['height']}.png"), full_page=True)
        # Usable on a phone: nothing makes the page scroll sideways.
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{name} at {size['width']}px is {overflow}px wider than the screen"
    page.set_viewport_size(original)


def table_version(page: Page) -> int:
    value = page.get_by_test_id("table").get_attribute("data-version")
    assert value is not None
    return int(value)


def wait_actionable(page: Page, timeout_ms: int = TURN_TIMEOUT_MS) -> str:
    handle = page.wait_for_function(ACTIONABLE, timeout=timeout_ms)
    kind = handle.json_value()
    assert isinstance(kind, str)
    return kind


def my_cards(page: Page) -> list[str]:
    cards = page.locator("[data-testid=my-hand] [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    assert isinstance(cards, list)
    return [str(c) for c in cards]


def take_turn(page: Page, rng: random.Random, kind: str) -> None:
    """Click a random enabled bid or playable card, then wait until the table shows a newer state."""
    before = table_version(page)
    if kind == "bid":
        buttons = page.locator("[data-testid=bid-panel] button.bid:not([disabled])")
    else:
        buttons = page.locator("[data-testid=my-hand] button.card.playable:not([disabled])")
    count = buttons.count()
    assert count > 0
    buttons.nth(rng.randrange(count)).click()
    page.wait_for_function(
        """(v) => {
          const t = document.querySelector('[data-testid=table]');
          return !t || Number(t.dataset.version) !== v;
        }""",
        arg=before,
        timeout=TURN_TIMEOUT_MS,
    )


def play_until_over(players: Sequence[Client], rng: random.Random, max_decisions: int = 600) -> int:
    """Every human takes their turns (random legal bids and cards) until all their pages show the match's end.
    Returns how many decisions the humans took."""
    decisions = 0
    while True:
        kinds = [client.page.evaluate(ACTIONABLE) for client in players]
        if all(kind == "over" for kind in kinds):
            return decisions
        acted = False
        for client, kind in zip(players, kinds, strict=True):
            if kind in ("bid", "play"):
                take_turn(client.page, rng, kind)
                decisions += 1
                acted = True
                break
        if not acted:
            players[0].page.wait_for_timeout(50)  # polling the pages for whose turn it is (not an assertion)
        assert decisions < max_decisions, "the match should end"


def create_invite_room(page: Page, owner: str, name: str, players: int, lives: int = 2, max_cards: int = 3) -> str:
    """From the home page, ``owner`` creates an invite-only room (short matches); returns the invite link."""
    page.goto("/")
    wait_ready(page)
    page.get_by_test_id("nickname").fill(owner)
    page.get_by_test_id("create-name").fill(name)
    page.get_by_test_id("create-players").select_option(str(players))
    page.get_by_test_id("create-lives").fill(str(lives))
    page.get_by_test_id("create-max-cards").fill(str(max_cards))
    page.get_by_test_id("create-visibility").select_option("invite")
    page.get_by_test_id("create-room").click()
    expect(page.get_by_test_id("room-page")).to_be_visible()
    return page.get_by_test_id("invite-link").input_value()


def api(url: str, method: str, token: str | None = None, body: Any = None) -> Any:
    """One JSON request to the test server's API (``Authorization: Bearer`` when a token is given)."""
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        url, data=None if body is None else json.dumps(body).encode(), headers=headers, method=method
    )
    with urllib.request.urlopen(request, timeout=20) as response:
        return json.loads(response.read())


def open_solo(page: Page, base_url: str, name: str, body: dict[str, Any]) -> str:
    """A solo table made through the API for a new guest ``name`` (``body``: ``POST /api/solo``'s, e.g. with a
    ``"start"`` from ``tests/start_points.py``: the browser servers run with ``SEFODE_TEST_HOOKS=1``), opened in
    ``page`` as that guest. Returns the room's id."""
    guest = api(f"{base_url}/api/session", "POST", body={"name": name})
    room_id = str(api(f"{base_url}/api/solo", "POST", guest["token"], body)["room_id"])
    page.context.add_init_script(f"localStorage.setItem('sefode.token', {json.dumps(guest['token'])})")
    page.goto(f"/room/{room_id}")
    wait_ready(page)
    expect(page.get_by_test_id("table")).to_be_visible()
    return room_id


def start_at(page: Page, point: dict[str, Any]) -> None:
    """The next match this page's owner starts (the room's "start" button, as a player clicks it) begins at ``point``
    (``tests/start_points.py``; the browser servers run with ``SEFODE_TEST_HOOKS=1``): the page's WebSocket goes
    through the test, which adds ``"start": point`` to the page's ``start`` message and passes everything else as it
    is. Call it before the page opens its WebSocket."""

    def route(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def to_server(message: str | bytes) -> None:
            text = message.decode() if isinstance(message, bytes) else message
            data = json.loads(text)
            if isinstance(data, dict) and data.get("type") == "start":
                text = json.dumps({**data, "start": point})
            server.send(text)

        ws.on_message(to_server)

    page.route_web_socket(re.compile(r"/ws$"), route)


def solo_start_at(page: Page, point: dict[str, Any]) -> None:
    """The next solo table this page makes (the home page's form, as a player fills it) starts at ``point``: the
    test adds ``"start": point`` to the page's ``POST /api/solo`` (the browser servers take it) and changes nothing
    else."""

    def add_start(route: Route) -> None:
        body = json.loads(route.request.post_data or "{}")
        route.continue_(post_data=json.dumps({**body, "start": point}))

    page.route("**/api/solo", add_start)
