"""Issue 22: every table reads at a glance. Each game (Se Fode, 7 Letras, Se Fode Junto, King, One Man's Trash,
Guimenon), at several seat counts, is started at each of its decisions (seeded start points, tests/start_points.py)
and looked at on a 360x740 phone and a 1366x800 laptop, at the normal font size and at 130%:

- no two of the listed elements (seats, names, labels, chips, banners, played cards, the prompt line, clocks) cover
  each other, and a seat's parts stay inside it;
- every card of the hand and the decision's control are inside the screen while the player is awaited;
- no visible text is under 12 px, and no listed text is cut without a tooltip.

The geometry is checked in the page (``layout.py``), and a failure names what overlaps. Screenshots of every case go
to the test's artifacts folder; with ``SEFODE_DOCS_SCREENSHOTS=1`` the first seat count of each game also writes its
decision states to ``docs/screenshots/<game>-<state>-<width>.png``.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect
from start_points import first_seed, start_point

from sefode.engine import Game

from .conftest import MOBILE, ROOT, Server
from .helpers import SETTLED, open_solo, snap
from .layout import Layout, problems

WIDE: ViewportSize = {"width": 1366, "height": 800}
DOCS = ROOT / "docs" / "screenshots"
NAME = "Ana Beatriz Albuquerque"
"""A long name, as people have: it must wrap or be cut with a tooltip, never run over a neighbour."""

# ---- what to look at, per game

FODINHA = Layout(
    parts=(
        ("[data-testid^=seat-][data-seat]", False),
        ("[data-testid=info-bar] .chip", False),
        ("[data-testid=pairs-bar] .pair", False),
        ("[data-testid=knockout-banner]", False),
        ("[data-testid=hand-summary]", False),
        ("[data-testid=trick-area] .card", True),
        ("[data-testid=turn-line] > span", False),
        ("[data-testid=turn-line] .clock", False),
        (".seat .clock", False),
    ),
    contained=(".seat-name", ".seat-team", ".seat-score", ".seat-bid", ".seat-tags", ".clock", ".seat-hand"),
    texts=(".seat-team", ".pair-name", ".chip"),
)
KING = Layout(
    parts=(
        ("[data-testid^=seat-][data-seat]", False),
        ("[data-testid=info-bar] .chip", False),
        ("[data-testid=trick-area] .card", True),
        ("[data-testid=turn-line] > span", False),
        (".seat .clock", False),
        (".decision", False),
    ),
    contained=(".seat-name", ".seat-taken", ".seat-total", ".seat-points", ".seat-tags", ".clock", ".seat-hand"),
    texts=(".seat-name", ".chip"),
)
TRASH = Layout(
    parts=(
        ("[data-testid^=seat-][data-seat]", False),
        ("[data-testid^=pile-]", False),
        ("[data-testid=draw-pile]", False),
        ("[data-testid=new-pile]", False),
        ("[data-testid=turn-line]", False),
        ("[data-testid=collectors]", False),
    ),
    contained=(".name", ".score", ".size", ".tag", ".clock"),
    texts=(".name", ".chip", ".label"),
)
GUIMENON = Layout(
    parts=(
        ("[data-testid^=gm-location-]", False),
        ("[data-testid=gm-prompt]", False),
        ("[data-testid=gm-moon]", False),
        ("[data-testid=gm-score]", False),
        ("[data-testid=gm-hand] > *", False),
        ("[data-testid=gm-confirm]", False),
    ),
    container="[data-testid^=gm-location-]",
    contained=(".gm-locname", ".gm-side", ".gm-stars"),
    texts=(".gm-cardname", ".gm-locname", ".gm-ctrl"),
    words=(".gm-cardname", ".gm-locname", ".gm-ctrl"),
    whole=("[data-testid^=gm-loc-]",),
)

HAND = "[data-testid=my-hand] [data-card]"
LARGER_TEXT = """new MutationObserver((_, watch) => {
  if (!document.documentElement) return;
  document.documentElement.style.fontSize = '130%';
  watch.disconnect();
}).observe(document, { childList: true });"""
"""The root font at 130% from the first moment the page has one (as a browser's text size setting)."""

# ---- start points: each decision of each game, seat 0 (the human) awaited


def _fodinha_at(options: dict[str, Any], decision: str) -> dict[str, Any]:
    def until(game: Game[Any], state: Any) -> bool:
        view = game.view(state, 0)
        if game.awaiting(state) != {0} or view["hand_number"] < 2 or view["cards"] < 3:
            return False
        if decision == "bid":
            return bool(view["phase"] == "bidding")
        return bool(view["phase"] == "playing" and len(view["trick"]) >= min(2, view["seats"] - 1))

    return start_point("fodinha", options, until, seed=1)


def _one_card_bid(options: dict[str, Any]) -> dict[str, Any]:
    """Seat 0 to bid in a one-card hand: its own card on its forehead, the others' cards (and, in 7 Letras, the vira
    still face down) on show."""

    def until(game: Game[Any], state: Any) -> bool:
        view = game.view(state, 0)
        return bool(game.awaiting(state) == {0} and view["phase"] == "bidding" and view["cards"] == 1)

    return start_point("fodinha", options, until, seed=1)


def _king_at(decision: str) -> dict[str, Any]:
    phase = {"contract": "choosing", "trump": "trump", "card": "playing"}[decision]

    def until(game: Game[Any], state: Any) -> bool:
        view = game.view(state, 0)
        if game.awaiting(state) != {0} or view["phase"] != phase:
            return False
        return decision != "card" or len(view["trick"]) >= 2

    def find(seed: int) -> dict[str, Any] | None:
        try:  # seat 0 names a trump only in the hands it chooses Trunfo
            return start_point("king", {}, until, seed=seed)
        except AssertionError:
            return None

    return first_seed(find)


def _trash_at(players: int) -> dict[str, Any]:
    """Seat 0 to play with piles on the table, a few turns in."""

    def until(game: Game[Any], state: Any) -> bool:
        view = game.view(state, 0)
        return bool(game.awaiting(state) == {0} and view["turns"][0] >= 6 and len(view["piles"]) >= 2)

    def find(seed: int) -> dict[str, Any] | None:
        try:
            return start_point("trash", {"players": players}, until, seed=seed)
        except AssertionError:
            return None

    return first_seed(find)


def _guimenon_at(turn: int) -> dict[str, Any]:
    def until(game: Game[Any], state: Any) -> bool:
        view = game.view(state, 0)
        return bool(0 in game.awaiting(state) and view["turn"] >= turn and view["me"]["hand"])

    return start_point("guimenon", {}, until, seed=1)


# ---- the cases


@dataclass(frozen=True)
class Case:
    name: str
    """The game's name in screenshots: sefode, 7letras, sefodejunto, king, trash, guimenon."""
    state: str
    seats: int
    body: Callable[[], dict[str, Any]]
    ready: str
    """A selector present once the decision is offered."""
    in_view: tuple[str, ...]
    layout: Layout
    docs: bool = False

    @property
    def id(self) -> str:
        return f"{self.name}-{self.seats}-{self.state}"


BID = "[data-testid=bid-panel] button.bid:not([disabled])"
PLAYABLE = "[data-testid=my-hand] button.card.playable"


def _fodinha_cases(name: str, options: dict[str, Any], seat_counts: tuple[int, ...]) -> list[Case]:
    cases = []
    for k, seats in enumerate(seat_counts):
        opts = {**options, "players": seats}
        for decision, ready, control in (
            ("bid", BID, "[data-testid=bid-panel]"),
            ("card", PLAYABLE, "[data-testid=my-hand]"),
        ):
            body = functools.partial(
                lambda o, d: {"bots": o["players"] - 1, "options": o, "start": _fodinha_at(o, d)}, opts, decision
            )
            cases.append(Case(name, decision, seats, body, ready, (HAND, control), FODINHA, docs=k == 0))
    return cases


CASES: list[Case] = [
    *_fodinha_cases("sefode", {}, (5, 2, 8)),
    *_fodinha_cases("7letras", {"variant": "7letras"}, (4, 7)),
    *_fodinha_cases("sefodejunto", {"teams": True}, (6, 4, 8)),
    *[
        Case(
            name,
            "one-card",
            seats,
            functools.partial(
                lambda o: {"bots": o["players"] - 1, "options": o, "start": _one_card_bid(o)},
                {**options, "players": seats},
            ),
            BID,
            # Mão na testa: the others' cards on show on their seats, whatever the seats' size.
            ("[data-testid=my-forehead-card]", "[data-testid=bid-panel]", ".seat-hand.visible .card"),
            FODINHA,
            docs=True,
        )
        for name, options, seats in (("7letras", {"variant": "7letras"}, 4), ("sefode", {}, 8))
    ],
    Case(
        "king",
        "contract",
        4,
        lambda: {"game": "king", "bots": 3, "start": _king_at("contract")},
        "[data-testid=contract-panel] button:not([disabled])",
        (HAND, "[data-testid=contract-panel]"),
        KING,
        docs=True,
    ),
    Case(
        "king",
        "trump",
        4,
        lambda: {"game": "king", "bots": 3, "start": _king_at("trump")},
        "[data-testid=trump-panel] button:not([disabled])",
        (HAND, "[data-testid=trump-panel]"),
        KING,
        docs=True,
    ),
    Case(
        "king",
        "card",
        4,
        lambda: {"game": "king", "bots": 3, "start": _king_at("card")},
        PLAYABLE,
        (HAND,),
        KING,
        docs=True,
    ),
    Case(
        "trash",
        "pile",
        2,
        lambda: {"game": "trash", "bots": 1, "options": {"players": 2}, "start": _trash_at(2)},
        "[data-testid=turn-line].mine, [data-testid=draw-pile][data-legal='1']",
        (HAND, "[data-testid=draw-pile]", "[data-testid^=pile-]"),
        TRASH,
        docs=True,
    ),
    Case(
        "trash",
        "pile",
        4,
        lambda: {"game": "trash", "bots": 3, "options": {"players": 4}, "start": _trash_at(4)},
        "[data-testid=turn-line].mine, [data-testid=draw-pile][data-legal='1']",
        (HAND, "[data-testid=draw-pile]", "[data-testid^=pile-]"),
        TRASH,
    ),
    Case(
        "guimenon",
        "placement",
        2,
        lambda: {"game": "guimenon", "bots": 1, "level": "easy", "start": _guimenon_at(1)},
        "[data-testid=gm-confirm]",
        ("[data-testid=gm-hand] > *", "[data-testid=gm-confirm]"),
        GUIMENON,
        docs=True,
    ),
    Case(
        "guimenon",
        "late-turn",
        2,
        lambda: {"game": "guimenon", "bots": 1, "level": "easy", "start": _guimenon_at(5)},
        "[data-testid=gm-confirm]",
        ("[data-testid=gm-hand] > *", "[data-testid=gm-confirm]"),
        GUIMENON,
        docs=True,
    ),
]


def _params() -> list[Any]:
    return [pytest.param(case, id=case.id) for case in CASES]


def _look(page: Page, case: Case, folder: Path, font: int) -> list[str]:
    found: list[str] = []
    for size in (MOBILE, WIDE):
        page.set_viewport_size(size)
        page.evaluate(SETTLED)  # the layout after the resize (the table refits on resize)
        width = size["width"]
        snap(page, folder / f"{case.name}-{case.state}-{width}-{font}.png")
        if font == 100 and case.docs and os.environ.get("SEFODE_DOCS_SCREENSHOTS") == "1":
            DOCS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(DOCS / f"{case.name}-{case.state}-{width}.png"))  # asked for: always written
        found += [f"{font}% font, {width}px: {p}" for p in _steady_problems(page, case)]
    return found


VERSION = "() => document.querySelector('[data-testid=table]')?.dataset.version ?? null"


def _steady_problems(page: Page, case: Case) -> list[str]:
    """``problems`` of one drawing of the table: a bot's move may arrive between the settling and the check, and the
    new drawing is fitted on its next frame; then the check is made again on the settled new drawing."""
    for _ in range(10):
        before = page.evaluate(VERSION)
        page.evaluate(SETTLED)
        found = problems(page, case.layout, case.in_view)
        if page.evaluate(VERSION) == before:
            return found
    raise AssertionError(f"{case.id}: the table kept changing while it was checked")


@pytest.mark.parametrize("case", _params())
def test_the_table_has_nothing_over_anything_and_the_decision_in_view(
    case: Case, browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    context = browser.new_context(viewport=MOBILE, base_url=shared_server.url, locale="pt-BR", reduced_motion="reduce")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_solo(page, shared_server.url, NAME, case.body())
    page.wait_for_selector(case.ready)
    if case.state == "one-card":
        expect(page.locator(".seat-hand.visible .card")).to_have_count(case.seats - 1)
    if case.name == "sefodejunto":  # the game's chip names the pairs game, not plain Se Fode
        expect(page.get_by_test_id("room-game")).to_have_text("Se Fode Junto")
    found = _look(page, case, artifacts, 100)
    # 130% text, as a player who enlarges it: the page drawn again with the larger root font.
    context.add_init_script(LARGER_TEXT)
    page.set_viewport_size(MOBILE)
    page.reload()
    page.wait_for_selector(case.ready)
    found += _look(page, case, artifacts, 130)
    context.close()
    assert found == [], f"{case.id}:\n" + "\n".join(found)
    assert errors == []


def _last_card_of_a_hand(game: Game[Any], state: Any) -> bool:
    """Seat 0 to play the last card of a hand of 2 or more cards, last in the trick: its card ends the hand."""
    view = game.view(state, 0)
    return bool(
        game.awaiting(state) == {0}
        and view["phase"] == "playing"
        and view["cards"] >= 2
        and len(view["hands"][0]) == 1
        and len(view["trick"]) == sum(1 for alive in view["alive"] if alive) - 1
    )


def test_the_end_of_hand_summary_gives_way_to_your_bid(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    """Issue 22: the end-of-hand box stayed over the table while your next bid's clock ran. It shows while others
    bid, and is gone once your bid is due: the felt under the bid bar is clear."""
    context = browser.new_context(viewport=MOBILE, base_url=shared_server.url, locale="pt-BR", reduced_motion="reduce")
    page = context.new_page()
    options = {"players": 4, "lives": 9}
    start = first_seed(lambda seed: _try(lambda: start_point("fodinha", options, _last_card_of_a_hand, seed=seed)))
    open_solo(page, shared_server.url, NAME, {"bots": 3, "options": options, "start": start})
    page.locator(PLAYABLE).first.click()
    page.wait_for_selector(BID)
    page.evaluate(SETTLED)
    snap(page, artifacts / "next-bid-360.png")
    assert page.get_by_test_id("hand-summary").count() == 0, "the summary covers the table while your bid is due"
    assert problems(page, FODINHA, (HAND, "[data-testid=bid-panel]")) == []
    context.close()


def _try(make: Callable[[], dict[str, Any]]) -> dict[str, Any] | None:
    try:
        return make()
    except AssertionError:
        return None
