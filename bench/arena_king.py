"""King arena: win share *and mean score* per kind of bot, duplicate seating, with 95% intervals.

``sefode simulate`` reports win shares and places; King's targets also ask for "a clearly better mean
score", so this script plays the same matches (the arena's own seating plan, ``sefode.arena.plan_matches``,
so the deals and seats are exactly those of ``sefode simulate --rotation duplicate``) and keeps each
match's final totals (``Outcome.scores``) as well.

    .venv/bin/python bench/arena_king.py --seats normal,easy,easy,easy --matches 400
    .venv/bin/python bench/arena_king.py --seats hard,normal,normal,normal --matches 48 --think-ms 200

Win shares get a Wilson interval; mean scores a normal-approximation interval over entrant-matches. The
matches of one duplicate group share their deals, so read the intervals as a guide. One process, one core.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

try:
    from sefode.arena import plan_matches, wilson_interval
except ImportError:  # run from a checkout whose package is not installed
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from sefode.arena import plan_matches, wilson_interval

from sefode.bots.base import Player, Seen
from sefode.bots.players import make_player
from sefode.engine import get_game


def play(
    options: dict[str, Any], kinds: list[str], plan: Any, think_ms: float
) -> tuple[list[int], list[int], list[list[float]]]:
    """One match: per entrant its place, its final total and its decision times (seconds)."""
    game = get_game("king")
    entrant_at = [0] * 4
    for entrant, seat in enumerate(plan.seat_of):
        entrant_at[seat] = entrant
    players: list[Player] = [make_player(kinds[e], plan.player_seeds[e], think_ms) for e in entrant_at]
    times: list[list[float]] = [[] for _ in range(4)]
    state = game.new_match(options, plan.game_seed)
    clock = time.perf_counter
    while True:
        waiting = game.awaiting(state)
        if not waiting:
            break
        (seat,) = waiting
        t0 = clock()
        action = players[seat].choose(Seen(game, state, seat))
        times[entrant_at[seat]].append(clock() - t0)
        game.apply_fast(state, seat, action)
    outcome = game.outcome(state)
    assert outcome is not None and outcome.scores is not None
    places = [outcome.placements[plan.seat_of[e]] for e in range(4)]
    scores = [int(outcome.scores[plan.seat_of[e]]) for e in range(4)]
    return places, scores, times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seats", default="normal,easy,easy,easy")
    parser.add_argument("--matches", type=int, default=400, help="a multiple of 4 keeps the duplicate groups whole")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think-ms", type=float, default=200.0)
    parser.add_argument("--order", default="choice", choices=["choice", "fixed"])
    parser.add_argument("--seconds", type=float, default=None, help="stop starting matches after this long")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    kinds = [k.strip() for k in args.seats.split(",")]
    if len(kinds) != 4:
        parser.error("King has 4 seats: --seats names 4 player kinds")
    plans = plan_matches(4, args.matches, args.seed, "duplicate")
    start = time.perf_counter()
    per_kind: dict[str, dict[str, list[float]]] = {k: {"wins": [], "scores": [], "times": []} for k in set(kinds)}
    played = 0
    for plan in plans:
        if args.seconds is not None and time.perf_counter() - start > args.seconds and played % 4 == 0:
            break
        places, scores, times = play({"order": args.order}, kinds, plan, args.think_ms)
        played += 1
        for e, kind in enumerate(kinds):
            per_kind[kind]["wins"].append(1.0 if places[e] == 1 else 0.0)
            per_kind[kind]["scores"].append(float(scores[e]))
            per_kind[kind]["times"].extend(times[e])
    elapsed = time.perf_counter() - start
    rows: dict[str, Any] = {}
    for kind, data in sorted(per_kind.items()):
        n = len(data["wins"])
        wins = int(sum(data["wins"]))
        low, high = wilson_interval(wins, n)
        mean = statistics.fmean(data["scores"])
        half = 1.96 * statistics.stdev(data["scores"]) / math.sqrt(n) if n > 1 else float("inf")
        ms = sorted(t * 1000 for t in data["times"])
        rows[kind] = {
            "entrant_matches": n,
            "wins": wins,
            "win_share": round(wins / n, 4),
            "win_share_ci95": [round(low, 4), round(high, 4)],
            "mean_score": round(mean, 1),
            "mean_score_ci95": [round(mean - half, 1), round(mean + half, 1)],
            "decision_ms_p50": round(ms[len(ms) // 2], 2) if ms else None,
            "decision_ms_p95": round(ms[min(len(ms) - 1, int(0.95 * len(ms)))], 2) if ms else None,
            "decision_ms_max": round(ms[-1], 2) if ms else None,
        }
    result = {
        "seats": kinds,
        "matches": played,
        "elapsed_s": round(elapsed, 1),
        "think_ms": args.think_ms,
        "order": args.order,
        "seed": args.seed,
        "kinds": rows,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(
        f"{played} matches of King ({args.order} order, duplicate seating), {elapsed:.0f} s, think {args.think_ms} ms"
    )
    print(
        f"{'kind':<8} {'n':>5} {'wins':>5} {'win %':>6} {'95% CI':>13} {'mean score':>10} {'95% CI':>15} {'p95 ms':>8}"
    )
    for kind, r in rows.items():
        lo, hi = r["win_share_ci95"]
        slo, shi = r["mean_score_ci95"]
        print(
            f"{kind:<8} {r['entrant_matches']:>5} {r['wins']:>5} {100 * r['win_share']:>5.1f}% "
            f"{100 * lo:>5.1f}-{100 * hi:>5.1f}% {r['mean_score']:>10.1f} {slo:>7.1f}..{shi:<7.1f} "
            f"{r['decision_ms_p95'] or 0:>8.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
