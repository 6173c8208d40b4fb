"""How long the move analysis of a 10-hand Se Fode match takes (issue 15: within 60 s on this machine).

    .venv/bin/python bench/analysis.py [--think-ms 500] [--seat 0]

Plays four-player Se Fode matches between normal bots (seeds 1, 2, …) until one lasts exactly 10 hands, then runs
``sefode.analysis.analyse`` for one seat at the CLI's default budget and prints the figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sefode.analysis import DEFAULT_THINK_MS, analyse
from sefode.bots.base import Seen, make_player
from sefode.engine import get_game
from sefode.history import export


def ten_hand_match() -> tuple[int, dict[str, Any]]:
    game = get_game("fodinha")
    for seed in range(1, 500):
        state = game.new_match({"variant": "sefode", "players": 4}, seed)
        players = [make_player("normal", seed * 10 + s) for s in range(4)]
        while game.awaiting(state):
            seat = min(game.awaiting(state))
            game.apply_fast(state, seat, players[seat].choose(Seen(game, state, seat)))
        if len(game.report(state)["hands"]) == 10:
            return seed, export(game, state)
    raise RuntimeError("no 10-hand match in 500 seeds")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--think-ms", type=float, default=DEFAULT_THINK_MS)
    parser.add_argument("--seat", type=int, default=0)
    args = parser.parse_args()
    seed, history = ten_hand_match()
    started = time.perf_counter()
    result = analyse(history, args.seat, args.think_ms, bar=True)
    elapsed = time.perf_counter() - started
    print(
        json.dumps(
            {
                "match_seed": seed,
                "hands": 10,
                "seat": args.seat,
                "think_ms": args.think_ms,
                "decisions": len(result["decisions"]),
                "mistakes": result["mistakes"],
                "elapsed_s": round(elapsed, 2),
            }
        )
    )


if __name__ == "__main__":
    main()
