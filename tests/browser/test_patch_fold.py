"""The page's fold of updates (``sefode/web/static/js/patch.js``, used by ``ws.js``) gives the same states as the
server's full ``state`` messages: the updates of seeded random matches, made by the server's own code
(``sefode.server.patches.Updates``), are folded in chromium and compared, state after state, with the full states."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from playwright.sync_api import Browser

from sefode.engine import get_game
from sefode.server.matchrun import MatchRun
from sefode.server.messages import encode
from sefode.server.patches import Updates
from sefode.server.present import state_common, state_message
from sefode.server.record import MatchSeat

from .conftest import Server


class _Link:
    def __init__(self, seat: int | None, updates: bool) -> None:
        self.seat = seat
        self.last_join: dict[str, Any] = {"type": "join", "room": "r", "updates": updates}


def streams(name: str, options: dict[str, Any], seed: int) -> dict[str, tuple[list[Any], list[Any]]]:
    """Per seat (and "spectator"): (what a connection that takes updates is sent, the full states)."""
    game = get_game(name)
    values = game.validate_options(options)
    state = game.new_match(values, seed)
    n = game.seats(state)
    run = MatchRun("m", 1, game, state, seed, values, {}, [MatchSeat() for _ in range(n)])
    run.awaiting = game.awaiting(state)
    seats: list[int | None] = [None, *range(n)]
    links = [_Link(s, True) for s in seats] + [_Link(s, False) for s in seats]
    updates = Updates()
    out: dict[str, tuple[list[Any], list[Any]]] = {str(s): ([], []) for s in seats}
    rng = random.Random(seed)

    def send(events: list[dict[str, Any]], only: int | str | None) -> None:
        to = [link for link in links if only == "all" or link.seat == only]
        common = state_common(run, 0)  # the clocks below are made up: the time left is read at time 0
        messages: dict[int | None, dict[str, Any]] = {
            link.seat: state_message(run, link.seat, events, common) for link in to
        }
        for link, text in updates.texts([(link, link.seat) for link in to], messages, encode):
            out[str(link.seat)][0 if link.last_join["updates"] else 1].append(json.loads(text))

    def clocks(step: int) -> None:
        # The awaited seats' clocks, as a room with clocks keeps them (every few steps none: no clock on).
        run.deadlines = {} if step % 5 == 4 else {s: 1_000_000 + 1_000 * step + 7 * s for s in run.awaiting}

    clocks(0)
    send([], "all")
    for step in range(1, 151):
        if not game.awaiting(run.state):
            break
        seat = rng.choice(sorted(game.awaiting(run.state)))
        events = game.apply(run.state, seat, rng.choice(game.legal_actions(run.state, seat)))
        secret = run.secret(seat, events)
        run.advance(seat, secret)
        clocks(step)
        send(events, seat if secret else "all")
    return out


FOLD = """async (text) => {
  const streams = JSON.parse(text);
  const { StateModel } = await import("/static/js/patch.js");
  const out = {};
  for (const [seat, [sent]] of Object.entries(streams)) {
    const model = new StateModel();
    out[seat] = sent.map((msg) => {
      if (msg.type === "state") return model.take(msg);
      const state = model.fold(msg);
      if (state) state.type = "state";
      return state;
    });
  }
  return JSON.stringify(out);
}"""


GAMES = [
    ("fodinha", {"variant": "sefode", "players": 4}),
    ("fodinha", {"variant": "7letras", "players": 3}),
    ("king", {}),
    ("guimenon", {}),
]


@pytest.mark.parametrize(("name", "options"), GAMES, ids=["sefode", "7letras", "king", "guimenon"])
def test_the_page_folds_updates_into_the_full_states(
    browser: Browser, shared_server: Server, name: str, options: dict[str, Any]
) -> None:
    page = browser.new_page()
    page.goto(f"{shared_server.url}/static/index.html")
    made = streams(name, options, 7)
    # The streams go to the page and back as JSON text: Playwright's own serialisation of a few MB of nested objects
    # took half a minute.
    folded = json.loads(page.evaluate(FOLD, json.dumps(made)))
    for seat, (sent, full) in made.items():
        assert any(m["type"] == "update" for m in sent), (name, seat)
        assert folded[seat] == full, f"{name} {options}, seat {seat}: the page's fold differs"
    kinds = {op[0] for sent, _full in made.values() for m in sent if m["type"] == "update" for op in m.get("ops", [])}
    assert name != "fodinha" or "*" in kinds, "a card played from the middle of a hand is a splice"
    told = [m for sent, _full in made.values() for m in sent if m["type"] == "update" and "deadlines" in m]
    assert any("deadline" not in m for m in told), "the page takes a deadline its deadlines tell"
    page.close()
