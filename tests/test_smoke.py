"""The first replay example of the engine issue, byte for byte."""

from __future__ import annotations

from sefode.history import replay

EXAMPLE = {
    "format": "sefode-history/1",
    "game": "fodinha",
    "options": {"variant": "sefode", "players": 3, "decks": 1, "teams": False},
    "seed": 11,
    "dealer": 0,
    "deals": [{"hands": [["3c"], ["3h"], ["2d"]]}, {"hands": [["Kc", "5d"], ["Kh", "6c"], ["Ks", "7h"]]}],
    "actions": [
        {"seat": 1, "bid": 0},
        {"seat": 2, "bid": 1},
        {"seat": 0, "bid": 1},
        {"seat": 2, "bid": 1},
        {"seat": 0, "bid": 0},
        {"seat": 1, "bid": 0},
        {"seat": 2, "play": "Ks"},
    ],
}


def test_issue_example_replays_to_the_documented_output() -> None:
    result = replay(EXAMPLE).result()
    assert result["error"] is None
    assert result["over"] is False and result["placements"] is None
    (hand,) = result["hands"]
    assert hand["bids"] == [1, 0, 1]
    assert hand["tricks"] == [{"leader": 1, "plays": [[1, "3h"], [2, "2d"], [0, "3c"]], "winner": 2, "value": 1}]
    assert hand["won"] == [0, 0, 1]
    assert hand["score"] == [4, 5, 5]
    assert hand["out"] == []
