"""Guimenon figures: random playout speed and the bot targets of issue 13.

    .venv/bin/python bench/guimenon.py speed --playouts 3000
    .venv/bin/python bench/guimenon.py arena --matches 400 --matches-hard 100 --think-ms 200
    .venv/bin/python bench/guimenon.py last-turn --matches 60 [--before]

``speed`` times whole random matches (easy-bot turns: random cards at random revealed Locations, no
take-backs) from a fresh match, two ways: the search path (a clone of the fresh match with the turn
record off, then ``apply_fast``) and the checked path with the record on (``new_match`` + ``apply``).
It prints the median and the playouts per second.

``arena`` plays the targets with duplicate seating (every deal twice, seats and the decks that go with
them swapped): normal vs easy (target >= 65%) and hard vs normal (target >= 60%). A drawn match counts
half to each side in the score; par is 50%.

``last-turn`` (issue 27) plays normal against normal (random ready decks, seeds ``seed`` to ``seed + matches - 1``)
and counts the seats that confirmed turn 6 with nothing placed while they could have placed a card, and how many
of those did not win. ``--before`` gives both seats the turn-6 policy of before issue 27 (the greedy turn of the
other turns, which scores a finished match only as win, draw or loss), to measure the change on the same deals.
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
from sefode.bots.base import Seen
from sefode.bots.players import make_player
from sefode.engine import get_game
from sefode.games.guimenon import Guimenon
from sefode.games.guimenon import bots as guimenon_bots
from sefode.games.guimenon.bots import hooks_of, random_turn_action
from sefode.games.guimenon.game import CONFIRM, PLACE, TAKE_BACK

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


def last_turn(matches: int, seed: int, before: bool) -> dict[str, Any]:
    if before:
        guimenon_bots.last_turn_plan = guimenon_bots.greedy_plan
    passed = passed_not_won = 0
    t0 = time.perf_counter()
    for m in range(matches):
        st = GAME.new_match({}, seed + m)
        players = [make_player("normal", seed * 1_000_003 + m * 16 + i) for i in range(2)]
        could = [False, False]
        while GAME.awaiting(st):
            for s in sorted(GAME.awaiting(st)):
                while s in GAME.awaiting(st):
                    legal = GAME.legal_actions(st, s)
                    action = players[s].choose(Seen(GAME, st, s))
                    if st.turn == 6 and action == CONFIRM and not st.pending[s]:
                        could[s] = any(PLACE <= a < TAKE_BACK for a in legal)
                    GAME.apply(st, s, action)
        outcome = GAME.outcome(st)
        assert outcome is not None
        for s in (0, 1):
            won = outcome.placements[s] < outcome.placements[1 - s]
            if could[s]:
                passed += 1
                passed_not_won += not won
    return {
        "policy": "before" if before else "after",
        "matches": matches,
        "seats": 2 * matches,
        "passed_turn_6_holding_a_playable_card": passed,
        "of_which_did_not_win": passed_not_won,
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
    lt = sub.add_parser("last-turn")
    lt.add_argument("--matches", type=int, default=60)
    lt.add_argument("--seed", type=int, default=1)
    lt.add_argument("--before", action="store_true")
    args = parser.parse_args()
    if args.what == "last-turn":
        print(json.dumps(last_turn(args.matches, args.seed, args.before)))
        return
    if args.what == "speed":
        print(json.dumps(speed(args.playouts, args.seed)))
        return
    if args.only in (None, "normal"):
        print(json.dumps(arena(["normal", "easy"], args.matches, args.seed, args.think_ms)))
    if args.only in (None, "hard"):
        print(json.dumps(arena(["hard", "normal"], args.matches_hard, args.seed + 7, args.think_ms)))


if __name__ == "__main__":
    main()
