"""Page helpers shared by the browser tests: open pages, take screenshots at both sizes, take a turn."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import copy
import json
import os
import random
import re
import secrets
import threading
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import (
    Browser,
    BrowserContext,
    Locator,
    Page,
    Route,
    ViewportSize,
    WebSocket,
    WebSocketRoute,
    expect,
)

from sefode.client import Client as SdkClient
from sefode.client import State
from sefode.server.patches import Held

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
    browser: Browser,
    base_url: str,
    viewport: ViewportSize = MOBILE,
    record_frames: bool = False,
    reduced_motion: bool = False,
) -> Client:
    """``reduced_motion``: the page is told the player prefers less motion (a finished trick stays 0.4 s on the felt
    instead of 1.45 s, with no slide), for tests that watch many tricks go by."""
    context = browser.new_context(
        viewport=viewport, base_url=base_url, locale="pt-BR", reduced_motion="reduce" if reduced_motion else None
    )
    page = context.new_page()
    client = Client(context, page)
    page.on("pageerror", lambda error: client.errors.append(str(error)))

    def on_websocket(ws: WebSocket) -> None:
        last_state: list[Held] = []  # this socket's last full state, as the page has folded it

        def on_frame(payload: str | bytes) -> None:
            text = payload.decode() if isinstance(payload, bytes) else payload
            try:
                message = json.loads(text)
            except ValueError:
                message = {"type": "?", "raw": text}
            client.frames.append(message)
            kind = message.get("type")
            if kind == "state":
                last_state[:] = [Held(json.loads(text))]
            elif kind == "update" and last_state:
                # The page joins with updates on: after each update, record the state it stands for, as the page
                # folds it, so the checks on what a seat was shown read every version, not only the full states.
                try:
                    folded = last_state[0].fold(message)
                except (ValueError, KeyError, IndexError, TypeError):
                    last_state.clear()  # part-folded: the page asks for a resync and records the full state it gets
                    return
                client.frames.append({**copy.deepcopy(folded), "folded_from_update": True})

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


SCREENSHOTS = os.environ.get("SEFODE_SCREENSHOTS", "") == "1"
"""Whether the tests write their screenshots (``SEFODE_SCREENSHOTS=1``, docs/testing.md): pictures for a person to look
at, in test-artifacts/browser/<test>/. Off by default: the suite's 340 PNGs took about 100 s of its CPU, and no check
reads them; every check made around a screenshot (the page fits the screen at each size) runs either way."""


def snap(target: Page | Locator, path: Path, **options: Any) -> None:
    """A screenshot of a page or an element, written when ``SCREENSHOTS`` is on."""
    if SCREENSHOTS:
        target.screenshot(path=str(path), **options)


def shoot(page: Page, folder: Path, name: str, sizes: Sequence[ViewportSize] = (MOBILE, DESKTOP)) -> None:
    """The page at 360x740 and at 1280x800, or at ``sizes`` (the viewport is restored afterwards): it must not scroll
    sideways at any of them; a screenshot of each when ``SCREENSHOTS`` is on."""
    original = page.viewport_size or MOBILE
    for size in sizes:
        page.set_viewport_size(size)
        page.evaluate(SETTLED)  # the layout after the resize, not a guess at how long it takes
        snap(page, folder / f"{name}-{size['width']}x{size['height']}.png", full_page=True)
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


TURN = """() => {
  const table = document.querySelector('[data-testid=table]');
  const seat = (what) => {
    const el = table && table.querySelector(`.seat.${what}[data-seat]`);
    return el ? Number(el.dataset.seat) : null;
  };
  return {
    over: Boolean(document.querySelector('[data-testid=end-overlay]:not([hidden]) [data-testid=placements]')),
    version: table ? Number(table.dataset.version) : -1,
    turn: seat('turn'),
    mine: seat('mine'),
  };
}"""
"""What one page shows: the match's end, the table's version, whose turn it is and which seat is this page's."""

OVER = "() => Boolean(document.querySelector('[data-testid=end-overlay]:not([hidden]) [data-testid=placements]'))"
"""The page shows the match's end (its placements)."""

MOVED_ON = """(v) => {
  if (document.querySelector('[data-testid=end-overlay]:not([hidden]) [data-testid=placements]')) return true;
  const t = document.querySelector('[data-testid=table]');
  return !t || Number(t.dataset.version) !== v;
}"""
"""The page shows a newer state than version ``v``, or the match's end."""


def wait_for_a_turn(players: Sequence[Client], actionable: str = ACTIONABLE) -> None:
    """Wait, without polling, until one of these pages may have a decision to offer: the most advanced page says
    whose turn it is; if it is one of these players, wait on that player's page until ``actionable`` (a function
    of the page answering null while there is nothing to do) answers; otherwise (a bot's or an outside player's turn,
    a hand being dealt, the end) wait on that page for the next state or the end, then on every other page for the
    end."""
    states: list[dict[str, Any]] = [client.page.evaluate(TURN) for client in players]
    ahead = max(range(len(players)), key=lambda k: (states[k]["over"], states[k]["version"]))
    if states[ahead]["over"]:
        for client, state in zip(players, states, strict=True):
            if not state["over"]:
                client.page.wait_for_function(OVER, timeout=TURN_TIMEOUT_MS)
        return
    seat_of = {state["mine"]: k for k, state in enumerate(states) if state["mine"] is not None}
    mover = seat_of.get(states[ahead]["turn"])
    if mover is None:
        players[ahead].page.wait_for_function(MOVED_ON, arg=states[ahead]["version"], timeout=TURN_TIMEOUT_MS)
    else:
        players[mover].page.wait_for_function(actionable, timeout=TURN_TIMEOUT_MS)


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
            wait_for_a_turn(players)
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


def unique(prefix: str) -> str:
    """A username no other test on a shared server takes: ``prefix`` and 8 random hex digits."""
    return f"{prefix}_{secrets.token_hex(4)}"


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


class ProtocolSeats:
    """Players whose seats are played through the WebSocket protocol (``sefode.client``, random legal actions, as
    ``examples/bots/random_bot.py`` plays) instead of by clicks, from an event loop in a thread of its own (Playwright's
    sync API holds the test thread's loop). Each plays with its player's token (the player's page, if open, keeps
    showing the table: a player may hold several connections), in every match of the room until ``stop()``.

    While held (``hold()``, or ``held=True``), the seats take no decision: the pages can be looked at before the match
    runs to its end; ``release()`` lets them play on."""

    def __init__(
        self, url: str, tokens: Sequence[str], room_id: str, seed: int, held: bool = False, invite: str | None = None
    ) -> None:
        """``invite``: the room's invite token (for an invite-only room)."""
        self.invite = invite
        self.go = asyncio.Event()
        if not held:
            self.go.set()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.url = url
        self.room_id = room_id
        self.tasks = [
            asyncio.run_coroutine_threadsafe(self._play(token, random.Random(seed + k)), self.loop)
            for k, token in enumerate(tokens)
        ]

    async def _play(self, token: str, rng: random.Random) -> None:
        async def decide(state: State) -> dict[str, Any]:
            await self.go.wait()
            return dict(rng.choice(state.legal).action)

        async with SdkClient(self.url, token) as client:
            await client.join(self.room_id, invite=self.invite)
            await client.play(decide, until_match_end=False)

    def _on_loop(self, switch: Callable[[], None]) -> None:
        async def call() -> None:
            switch()

        asyncio.run_coroutine_threadsafe(call(), self.loop).result(timeout=20)

    def hold(self) -> None:
        self._on_loop(self.go.clear)

    def release(self) -> None:
        self._on_loop(self.go.set)

    def check(self) -> None:
        """Raise what made a player stop, if one did."""
        for task in self.tasks:
            if task.done() and not task.cancelled():
                task.result()

    def stop(self) -> None:
        self.check()

        async def cancel() -> None:
            for task in asyncio.all_tasks():
                if task is not asyncio.current_task():
                    task.cancel()

        asyncio.run_coroutine_threadsafe(cancel(), self.loop).result(timeout=20)
        for task in self.tasks:
            with contextlib.suppress(concurrent.futures.CancelledError):
                task.result(timeout=20)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=20)
        self.loop.close()
