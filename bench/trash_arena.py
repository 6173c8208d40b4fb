"""One Man's Trash arena: one bot of a stronger kind against ``players - 1`` of a weaker kind.

``sefode simulate`` cannot pass One Man's Trash's options yet (it knows only Fodinha's), so this script
calls ``sefode.arena.simulate`` itself. Seating is duplicate (every deal played once from each seat). A
match with no winner is a loss for every seat (every seat is placed last). It prints the stronger kind's
win share with its 95% Wilson interval against par (1 / players), the share of matches with no winner,
and the decision times.

    .venv/bin/python bench/trash_arena.py --players 3 --strong normal --weak easy --matches 300
    .venv/bin/python bench/trash_arena.py --players 4 --strong hard --weak normal --matches 80 --think-ms 40
"""

from __future__ import annotations

import argparse
import json
import time

from sefode.arena import format_table, simulate, wilson_interval


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--jokers", choices=["true", "false"], default="true")
    parser.add_argument("--strong", default="normal")
    parser.add_argument("--weak", default="easy")
    parser.add_argument("--matches", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think-ms", type=float, default=200.0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    n = args.players
    seats = [args.strong] + [args.weak] * (n - 1)
    options = {"players": n, "jokers": args.jokers == "true"}
    start = time.perf_counter()
    result = simulate(
        "trash", options, seats, args.matches, args.seed, args.think_ms, workers=args.workers, rotation="duplicate"
    )
    wall = time.perf_counter() - start
    matches = result.matches
    no_winner = sum(1 for m in range(matches) if all(s.places[m] > 1 for s in result.seats))
    strong = result.seats[0]
    low, high = wilson_interval(strong.wins, matches)
    nw_low, nw_high = wilson_interval(no_winner, matches)
    par = 1.0 / n
    summary = {
        "players": n,
        "jokers": options["jokers"],
        "strong": args.strong,
        "weak": args.weak,
        "matches": matches,
        "think_ms": args.think_ms,
        "strong_wins": strong.wins,
        "strong_share": round(strong.wins / matches, 4),
        "strong_share_ci95": [round(low, 4), round(high, 4)],
        "par": round(par, 4),
        "ratio_to_par": round(strong.wins / matches / par, 3),
        "ratio_ci95": [round(low / par, 3), round(high / par, 3)],
        "no_winner": no_winner,
        "no_winner_share": round(no_winner / matches, 4),
        "no_winner_ci95": [round(nw_low, 4), round(nw_high, 4)],
        "decisions": result.decisions,
        "wall_s": round(wall, 1),
    }
    if args.json:
        print(json.dumps({"summary": summary, "arena": result.to_json()}))
        return
    print(format_table(result))
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
