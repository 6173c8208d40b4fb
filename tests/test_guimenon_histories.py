"""Hand-written Guimenon histories (tests/histories/guimenon/): resolution order, tie-breaks, End of Game scoring,
the hand limit and the full Location, replayed through the one replay path and through ``sefode replay``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from sefode.history import replay_file

HERE = Path(__file__).parent / "histories" / "guimenon"


def result(name: str) -> dict[str, Any]:
    return replay_file(HERE / f"{name}.json").result()


def sources(turn: dict[str, Any]) -> list[str]:
    """The cards that resolved after the reveal (not the Location turned at the start of the turn)."""
    locations = {"altar-da-lua", "feira-noturna", "torre-de-vigia"}
    return [r["source"] for r in turn["resolved"] if r["source"] not in locations]


def test_history_resolution_order_fewer_stars_first() -> None:
    r = result("resolution_order")
    assert r["error"] is None and r["over"] and r["placements"] == [1, 2]
    one, two = r["turns"][0], r["turns"][2]
    assert one["order"] == [{"step": "on_reveal", "location": 0, "first": 1, "stars": [2, 0], "tie": False}]
    assert sources(one) == ["sussurro", "fagulha"], "seat 1 had fewer Stars there: its Whisper first"
    assert sources(two) == ["lontra-mensageira", "coruja-agourenta"]
    assert two["resolved"][-1]["results"] == ["lontra-mensageira@1 -1"]


def test_history_tie_break_by_the_seeded_draw() -> None:
    r = result("tie_break")
    order = r["turns"][0]["order"][0]
    assert order["tie"] and order["stars"] == [2, 2]
    first = order["first"]
    assert [x["seat"] for x in r["turns"][0]["resolved"]] == [first, 1 - first]
    assert r["control"] == [None, None, None] and r["placements"] == [1, 1], "all neutral, equal totals: a draw"


def test_history_end_of_game_scoring() -> None:
    r = result("end_of_game_scoring")
    assert r["turns"][4]["board"][0]["stars"] == [1, 2], "before the End of Game seat 1 leads the left Location"
    assert r["turns"][5]["resolved"][-1] == {"step": "end_of_game", "location": 0, "seat": 0, "source": "vulto",
                                             "results": ["vulto@0 +2"]}
    assert r["control"] == [0, 1, None] and r["stars"] == [[3, 2], [0, 3], [0, 0]]
    assert r["placements"] == [2, 1], "1-1 with one neutral: the total Stars, 3 against 5"


def test_history_hand_limit() -> None:
    r = result("hand_limit")
    assert r["error"] is None and r["over"]
    assert r["turns"][4]["discards"] == [{"seat": 0, "card": "vulto"}, {"seat": 1, "card": "fagulha"}]
    assert r["turns"][5]["discards"] == [{"seat": 0, "card": "sussurro"}, {"seat": 1, "card": "boneco-de-lata"}]
    refused = result("hand_limit_refused")
    assert refused["error"]["code"] == "action/must_discard" and refused["error"]["index"] == 8


def test_history_full_location() -> None:
    r = result("full_location")
    assert r["error"]["code"] == "action/location_full" and r["error"]["index"] == 7
    assert [c["card"] for c in r["turns"][1]["board"][0]["cards"][0]] == ["fagulha", "vulto", "gota-curiosa",
                                                                          "respingo"]


def test_sefode_replay_prints_turns_control_placements_and_error() -> None:
    out = subprocess.run([sys.executable, "-m", "sefode", "replay", str(HERE / "resolution_order.json")],
                         capture_output=True, text=True, check=True)
    printed = json.loads(out.stdout)
    assert {"turns", "control", "placements", "error", "locations", "decks"} <= set(printed)
    turn = printed["turns"][0]
    assert {"board", "resolved", "order", "plays"} <= set(turn)
    assert {"id", "cards", "stars"} <= set(turn["board"][0])
