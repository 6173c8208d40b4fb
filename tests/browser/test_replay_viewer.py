"""Browser tests of the replay viewer (/replay/{match_id}): it draws the engine's own replay (``sefode replay``) of a
finished match, every hand open: one-card hands with every dealt card, the 7 Letras vira, each trick's cards in
order with the winner (or "melou") and value the engine reports, the score after each hand, bolo, void hands and
who went out. The page computes none of this itself, so everything it shows must equal the engine's report."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from sefode.history import replay

from .conftest import Server
from .helpers import ProtocolSeats, catalogue, enter_nickname, open_client, shoot, wait_ready

PT: dict[str, str] = catalogue("pt-BR")
HISTORIES = Path(__file__).resolve().parents[1] / "histories"


def _fill(key: str, **params: object) -> str:
    text = PT[key]
    for name, value in params.items():
        text = text.replace("{" + name + "}", str(value))
    return text


def _seat(seat: int, seats: Sequence[dict[str, Any]] = (), names: Mapping[int, str] | None = None) -> str:
    """How the viewer names a seat: a seat the history's own ``seats`` says one of the table's bots held, as that bot;
    a human by the name the table showed when the page was opened from that table's tab (``names``), else (opened
    directly) by its seat number."""
    held = next((k for k in seats if k["seat"] == seat), None)
    if held is not None and held["kind"] == "bot":
        return _fill("replay.bot_level_n", n=seat + 1, level=PT[f"level.{held['level']}"])
    if names and seat in names:
        return names[seat]
    return _fill("replay.seat_n", n=seat + 1)


ANA = {0: "Ana"}
"""The 7 Letras match's human, named on its replay (opened from the table's tab, which kept the table's names)."""


def _cards(page: Page, testid: str) -> list[str]:
    cards = page.get_by_test_id(testid).locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    assert isinstance(cards, list)
    return [str(c) for c in cards]


HAND_ON_SCREEN = """(seats) => {
  const q = (id) => document.querySelector(`[data-testid="${id}"]`);
  const count = (id) => document.querySelectorAll(`[data-testid="${id}"]`).length;
  // As Playwright's to_have_text reads a text: textContent, white space collapsed.
  const text = (el) => (el ? el.textContent.replace(/\\s+/g, " ").trim() : null);
  const cards = (el) => (el ? [...el.querySelectorAll("[data-card]")].map((e) => e.dataset.card) : []);
  const shown = {
    cards: q("replay-hand").dataset.cards,
    vira: q("replay-vira") ? cards(q("replay-vira")) : null,
    seats: [],
    tricks: [...document.querySelectorAll("[data-testid^=replay-trick-]")].map((e) => ({
      data: [e.dataset.leader, e.dataset.plays, e.dataset.winner, e.dataset.value],
      cards: cards(e),
    })),
    results: [],
    bolo: text(q("replay-bolo")),
    void: count("replay-void"),
    out: text(q("replay-out")),
  };
  for (let s = 0; s < seats; s += 1) {
    const seat = q(`replay-seat-${s}`);
    const score = q(`replay-score-${s}`);
    shown.seats.push(seat && {
      dealer: seat.querySelectorAll("[data-testid=replay-dealer]").length,
      dealt: cards(q(`replay-dealt-${s}`)),
      bid: q(`replay-bid-${s}`).innerText,
      score: score ? score.dataset.score : null,
      out: count(`replay-out-${s}`),
    });
  }
  for (let k = 1; k <= shown.tricks.length; k += 1) shown.results.push(text(q(`replay-result-${k}`)));
  return shown;
}"""
"""Everything the viewer shows of the hand on screen, read at once (the hand is drawn in one go, with its number)."""


def _check_hand_as_reported(
    page: Page,
    hand: dict[str, Any],
    where: str,
    seats: Sequence[dict[str, Any]] = (),
    names: Mapping[int, str] | None = None,
) -> None:
    """The hand on screen (all tricks shown) is the engine's: vira, bids, dealt cards, tricks, score, bolo, out."""
    page.get_by_test_id(f"replay-hand-{hand['number']}").click()
    expect(page.get_by_test_id("replay-hand")).to_have_attribute("data-hand", str(hand["number"]))
    shown: dict[str, Any] = page.evaluate(HAND_ON_SCREEN, len(hand["dealt"]))
    assert shown["cards"] == str(hand["cards"]), where
    assert shown["vira"] == (None if hand["vira"] is None else [hand["vira"]]), where
    assert shown["seats"][hand["dealer"]] is not None and shown["seats"][hand["dealer"]]["dealer"] == 1, where
    for seat, dealt in enumerate(hand["dealt"]):
        bid = hand["bids"][seat]
        on_screen = shown["seats"][seat]
        if dealt is None and bid is None:
            assert on_screen is None, f"{where} seat {seat}"
            continue
        assert on_screen is not None, f"{where} seat {seat}"
        # Every card dealt to the seat, face up, in the order dealt.
        assert on_screen["dealt"] == (dealt or []), f"{where} seat {seat}"
        if bid is not None:
            assert _fill("replay.bid", n=bid) in on_screen["bid"], f"{where} seat {seat}"
        if hand["won"][seat] is not None:
            assert _fill("replay.won", n=hand["won"][seat]) in on_screen["bid"], f"{where} seat {seat}"
        score = hand["score"][seat]
        assert on_screen["score"] == (None if score is None else str(score)), f"{where} seat {seat}"
        assert on_screen["out"] == (1 if seat in hand["out"] else 0), f"{where} seat {seat}"
    want = [
        [
            str(trick["leader"]),
            " ".join(f"{s}:{c}" for s, c in trick["plays"]),
            "null" if trick["winner"] is None else str(trick["winner"]),
            str(trick["value"]),
        ]
        for trick in hand["tricks"]
    ]
    assert [trick["data"] for trick in shown["tricks"]] == want, where
    for k, trick in enumerate(hand["tricks"]):
        assert shown["tricks"][k]["cards"] == [c for _, c in trick["plays"]], f"{where} trick {k + 1}"
        if trick["winner"] is None:
            text = _fill("replay.melou", n=trick["value"])
        else:
            text = _fill("replay.trick_winner", name=_seat(trick["winner"], seats, names), n=trick["value"])
        assert shown["results"][k] == text, f"{where} trick {k + 1}"
    bolo = hand["bolo"]
    if bolo is None:
        assert shown["bolo"] is None, where
    elif bolo["seat"] is None:
        assert shown["bolo"] == _fill("replay.bolo_none", n=bolo["value"]), where
    else:
        assert shown["bolo"] == _fill("replay.bolo", n=bolo["value"], name=_seat(bolo["seat"], seats, names)), where
    assert shown["void"] == (1 if hand["void"] else 0), where
    if hand["out"]:
        assert shown["out"] == _fill("replay.out", names=", ".join(_seat(s, seats, names) for s in hand["out"])), where
    else:
        assert shown["out"] is None, where


def test_seven_letras_replay_shows_one_card_hands_open_with_the_vira_and_the_engines_trick_winners(
    browser: Browser, shared_server: Server, artifacts: Path
) -> None:
    server = shared_server
    client = open_client(browser, server.url)
    page = client.page
    page.goto("/")
    wait_ready(page)
    # A short 7 Letras match against one bot: hands of one and two cards only. Ana's seat is played through the
    # protocol with her session (random legal actions), her page showing the table to the end.
    enter_nickname(page, "Ana")
    page.get_by_test_id("create-variant").select_option("7letras")
    page.get_by_test_id("create-players").select_option("2")
    page.get_by_test_id("create-max-cards").fill("2")
    page.get_by_test_id("create-bot-1").select_option("easy")
    page.get_by_test_id("create-room").click()
    expect(page.get_by_test_id("room-page")).to_be_visible()
    room_id = page.url.rsplit("/room/", 1)[1].split("?")[0]
    token = str(page.evaluate("() => localStorage.getItem('sefode.token')"))
    ana = ProtocolSeats(server.url, [token], room_id, seed=7, held=True)
    try:
        page.get_by_test_id("start-match").click()
        expect(page.get_by_test_id("table")).to_be_visible()
        ana.release()
        expect(page.get_by_test_id("end-overlay").get_by_test_id("placements")).to_be_visible()
    finally:
        ana.stop()
    # The end of the match links its history: /api/matches/{match_id}/history.
    href = page.get_by_test_id("end-overlay").get_by_test_id("download-history").get_attribute("href")
    assert href and href.startswith("/api/matches/") and href.endswith("/history")
    match_id = href.split("/")[3]

    raw = page.request.get(f"/api/matches/{match_id}/history").text()
    history = json.loads(raw)
    result = replay(history).result()
    assert result["error"] is None and result["over"] is True
    # The export says who held each seat (a human, the table's easy bot); the viewer names the bot as one.
    assert history["seats"] == [{"seat": 0, "kind": "human"}, {"seat": 1, "kind": "bot", "level": "easy"}]
    hands = result["hands"]
    one_card = [hand for hand in hands if hand["cards"] == 1]
    assert one_card and all(hand["vira"] for hand in hands)

    page.goto(f"/replay/{match_id}")
    wait_ready(page)
    expect(page.get_by_test_id("replay-hand")).to_be_visible()
    expect(page.get_by_test_id("replay-page")).to_have_attribute("data-hands", str(len(hands)))
    expect(page.get_by_test_id("replay-page")).to_have_attribute("data-error", "")
    # The seed is no player word: it is behind the "verifiable shuffle" disclosure, not in the header's line.
    expect(page.get_by_test_id("replay-meta")).not_to_contain_text(str(history["seed"]))
    expect(page.get_by_test_id("fair-seed")).to_have_text(str(history["seed"]))
    for seat, place in enumerate(result["placements"]):
        expect(page.get_by_test_id(f"replay-place-{seat}")).to_have_text(
            f"{_fill('prof.place_n', n=place)} {_seat(seat, history['seats'], ANA)}"
        )
    for hand in hands:
        _check_hand_as_reported(page, hand, f"hand {hand['number']}", history["seats"], ANA)
        if hand["cards"] == 1:
            # Mão na testa: both players' single cards are shown, and the one trick with its winner.
            for seat, dealt in enumerate(hand["dealt"]):
                if dealt is not None:
                    assert len(_cards(page, f"replay-dealt-{seat}")) == 1
            assert len(hand["tricks"]) == 1
    page.get_by_test_id(f"replay-hand-{one_card[0]['number']}").click()
    shoot(page, artifacts, "replay-one-card")
    two_cards = [hand for hand in hands if hand["cards"] == 2]
    if two_cards:
        page.get_by_test_id(f"replay-hand-{two_cards[0]['number']}").click()
        # Stepping back hides the last trick and greys nothing it did not play; stepping forward shows it again.
        last = page.get_by_test_id(f"replay-trick-{len(two_cards[0]['tricks'])}")
        page.get_by_test_id("replay-prev-trick").click()
        expect(last).to_contain_text(PT["replay.trick_hidden"])
        expect(last.locator("[data-card]")).to_have_count(0)
        expect(page.locator("[data-testid^=replay-dealt-] .replay-played")).to_have_count(
            sum(len(t["plays"]) for t in two_cards[0]["tricks"][:-1])
        )
        page.get_by_test_id("replay-next-trick").click()
        expect(last.locator("[data-card]")).to_have_count(len(two_cards[0]["tricks"][-1]["plays"]))
        shoot(page, artifacts, "replay-two-cards")
    assert client.errors == []
    client.close()


STORED = sorted(p for p in HISTORIES.glob("*.json") if not p.name.startswith("bad_") and ".expect." not in p.name)
"""The stored histories the viewer draws (Se Fode and 7 Letras, bolo, melada, void hands, pairs, players leaving and
joining); each is one test, so that they run side by side."""
BIG_SEED = 2**62 + 12345
"""Far beyond 2**53: a JavaScript number would round it."""


def _reported(path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    history = json.loads(path.read_text(encoding="utf-8"))
    result = replay(history).result()
    assert result["error"] is None, path.name
    return history, result


def _first_bolo_of_each_variant() -> dict[str, tuple[str, int]]:
    """Where the screenshots are taken: the first hand with a bolo of each variant, in file order."""
    first: dict[str, tuple[str, int]] = {}
    for path in STORED:
        history, result = _reported(path)
        variant = str(history["options"].get("variant", "sefode"))
        bolo = next((hand["number"] for hand in result["hands"] if hand["bolo"] is not None), None)
        if bolo is not None and variant not in first:
            first[variant] = (path.stem, bolo)
    return first


def test_the_stored_histories_cover_every_kind_of_line_the_viewer_draws() -> None:
    assert len(STORED) >= 8
    kinds = {"melou": 0, "bolo": 0, "void": 0, "out": 0, "vira": 0}
    for path in STORED:
        for hand in _reported(path)[1]["hands"]:
            kinds["melou"] += sum(1 for t in hand["tricks"] if t["winner"] is None)
            kinds["bolo"] += hand["bolo"] is not None
            kinds["void"] += hand["void"]
            kinds["out"] += bool(hand["out"])
            kinds["vira"] += hand["vira"] is not None
    assert all(count > 0 for count in kinds.values()), kinds


@pytest.mark.parametrize("path", STORED, ids=[p.stem for p in STORED])
def test_replay_viewer_draws_a_stored_history_as_the_engine_replays_it(
    browser: Browser, shared_server: Server, artifacts: Path, path: Path
) -> None:
    """The server's /replay answer for the stored history is drawn hand by hand exactly as reported; a 63-bit seed
    is shown to the digit (behind the "verifiable shuffle" disclosure)."""
    client = open_client(browser, shared_server.url)
    page = client.page
    history, result = _reported(path)
    shown_history = {**history, "seed": BIG_SEED}  # what the page shows of the history is its seed only
    body = json.dumps({"history": shown_history, "replay": result})

    def answer(route: Route) -> None:
        assert route.request.url.rsplit("/", 2)[-2] == path.stem
        route.fulfill(status=200, content_type="application/json", body=body)

    page.route("**/api/matches/*/replay", answer)
    page.goto(f"/replay/{path.stem}")
    wait_ready(page)
    expect(page.get_by_test_id("replay-page")).to_have_attribute("data-hands", str(len(result["hands"])))
    expect(page.get_by_test_id("fair-seed")).to_have_text(str(BIG_SEED))
    shot = {where for where in _first_bolo_of_each_variant().values() if where[0] == path.stem}
    for hand in result["hands"]:
        _check_hand_as_reported(page, hand, f"{path.name} hand {hand['number']}")
        if (path.stem, hand["number"]) in shot:
            shoot(page, artifacts, f"{path.stem}-hand-{hand['number']}")  # one hand with a bolo per variant
    assert client.errors == []
    client.close()
