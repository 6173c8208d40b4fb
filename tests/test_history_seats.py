"""The server's export names who held each seat (``seats``: human, the table's bot, a bot account; issue 15 §1). The
key is informative: a history replays, and is analysed, the same with it as without it."""

from __future__ import annotations

import json
from pathlib import Path

from sefode.analysis import count_decisions
from sefode.history import replay

HISTORY = Path(__file__).parent / "histories" / "7letras_rules.json"


def test_a_history_with_seats_replays_and_is_analysed_as_without() -> None:
    plain = json.loads(HISTORY.read_text(encoding="utf-8"))
    players = int(plain["options"]["players"])
    seats = [{"seat": 0, "kind": "human"}, {"seat": 1, "kind": "bot_account", "player_id": "b0", "name": "Robô"}]
    seats += [{"seat": s, "kind": "bot", "level": "hard"} for s in range(2, players)]
    marked = {**plain, "seats": seats}
    assert replay(marked).result() == replay(plain).result()
    assert replay(marked).result()["error"] is None
    for seat in range(players):
        assert count_decisions(marked, seat) == count_decisions(plain, seat)
    assert sum(count_decisions(plain, seat) for seat in range(players)) > 0
