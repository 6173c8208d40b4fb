"""Guimenon figures: random playout speed and the bot targets of issue 13.

    .venv/bin/python bench/guimenon.py speed --playouts 3000
    .venv/bin/python bench/guimenon.py arena --matches 400 --matches-hard 100 --think-ms 200

``speed`` times whole random matches (easy-bot turns: random cards at random revealed Locations, no
take-backs) from a fresh match, two ways: the search path (a clone of the fresh match with the turn
record off, then ``apply_fast``) and the checked path with the record on (``new_match`` + ``apply``).
It prints the median and the playouts per second.

``arena`` plays the targets with duplicate seating (every deal twice, seats and the decks that go with
them swapped): normal vs easy (target >= 65%) and hard vs normal (target >= 60%). A drawn match counts
half to each side in the score; par is 50%.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sefode.arena import MatchPlan, plan_matches, play_match, wilson_interval
from sefode.engine import get_game
from sefode.games.guimenon import Guimenon
from sefode.games.guimenon.bots import hooks_of, random_turn_action

GAME = Guimenon()


def speed(playouts: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    fresh = [GAME.new_match({}, seed + i) for i in range(64)]
    for st in fresh:
        st.recording = False
        st.records = []
    fast: list[float] = []
    checked: list[float] = []
    clock = time.perf_counter
    for i in range(playouts):
        st = GAME.clone(fresh[i % len(fresh)])
        t0 = clock()
        while not st.over:
            for s in (0, 1):
                while not st.confirmed[s] and not st.over:
                    GAME.apply_fast(st, s, random_turn_action(st, s, GAME.legal_actions(st, s), rng))
        fast.append(clock() - t0)
        t0 = clock()
        st = GAME.new_match({}, seed + i)
        while not st.over:
            for s in (0, 1):
                while not st.confirmed[s] and not st.over:
                    GAME.apply(st, s, random_turn_action(st, s, GAME.legal_actions(st, s), rng))
        checked.append(clock() - t0)
    med_fast, med_checked = statistics.median(fast), statistics.median(checked)
    return {
        "playouts": playouts,
        "search_path_ms_median": round(med_fast * 1000, 4),
        "search_path_playouts_per_s": round(1 / med_fast),
        "checked_path_ms_median": round(med_checked * 1000, 4),
        "checked_path_playouts_per_s": round(1 / med_checked),
    }


def arena(kinds: list[str], matches: int, seed: int, think_ms: float) -> dict[str, Any]:
    hooks_of(get_game("guimenon")).think_ms = think_ms  # the game object play_match plays
    plans: list[MatchPlan] = plan_matches(2, matches, seed, "duplicate")
    score = 0.0
    wins = draws = 0
    hard_ms: list[float] = []
    t0 = time.perf_counter()
    for plan in plans:
        result = play_match("guimenon", {}, kinds, plan, think_ms)
        mine, theirs = result.places
        if mine == theirs:
            draws += 1
            score += 0.5
        elif mine < theirs:
            wins += 1
            score += 1.0
        hard_ms.extend(d * 1000 for d in result.decision_s[0])
    low, high = wilson_interval(round(score), matches)
    hard_ms.sort()
    return {
        "seats": kinds,
        "matches": matches,
        "wins": wins,
        "draws": draws,
        "score_share": round(score / matches, 4),
        "score_ci95": [round(low, 4), round(high, 4)],
        "think_ms": think_ms,
        "decision_ms_p50": round(hard_ms[len(hard_ms) // 2], 3) if hard_ms else None,
        "decision_ms_max": round(hard_ms[-1], 3) if hard_ms else None,
        "elapsed_s": round(time.perf_counter() - t0, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    sp = sub.add_parser("speed")
    sp.add_argument("--playouts", type=int, default=3000)
    sp.add_argument("--seed", type=int, default=1)
    ar = sub.add_parser("arena")
    ar.add_argument("--matches", type=int, default=400)
    ar.add_argument("--matches-hard", type=int, default=100)
    ar.add_argument("--think-ms", type=float, default=200.0)
    ar.add_argument("--seed", type=int, default=1)
    ar.add_argument("--only", choices=["normal", "hard"], default=None)
    args = parser.parse_args()
    if args.what == "speed":
        print(json.dumps(speed(args.playouts, args.seed)))
        return
    if args.only in (None, "normal"):
        print(json.dumps(arena(["normal", "easy"], args.matches, args.seed, args.think_ms)))
    if args.only in (None, "hard"):
        print(json.dumps(arena(["hard", "normal"], args.matches_hard, args.seed + 7, args.think_ms)))


if __name__ == "__main__":
    main()
