"""Bot targets of issue 4, measured with the arena (duplicate seating: same deals, seats rotated).

    .venv/bin/python bench/arena.py                      # every target
    .venv/bin/python bench/arena.py --only hard-sefode --matches-hard 100 --workers 2

Targets (4 players; par is 25% for a single seat, 50% for a pair):

* ``normal-sefode``, ``normal-7letras``: normal against three easy, win share >= 40%;
* ``normal-pairs``: a normal pair against an easy pair (Se Fode Junto); par is 50%;
* ``hard-sefode``, ``hard-7letras``: hard (``--think-ms 200``) against three normal, >= 40% (goal 50%);
* ``hard-pairs``: a hard pair against a normal pair.

Prints one table per target and, with ``--json FILE``, appends one JSON object per target to FILE.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sefode.arena import format_table, simulate

TARGETS: dict[str, dict[str, Any]] = {
    "normal-sefode": {"variant": "sefode", "teams": False, "seats": ["normal", "easy", "easy", "easy"], "hard": False},
    "normal-7letras": {
        "variant": "7letras",
        "teams": False,
        "seats": ["normal", "easy", "easy", "easy"],
        "hard": False,
    },
    "normal-pairs": {"variant": "sefode", "teams": True, "seats": ["normal", "easy", "normal", "easy"], "hard": False},
    "hard-sefode": {"variant": "sefode", "teams": False, "seats": ["hard", "normal", "normal", "normal"], "hard": True},
    "hard-7letras": {
        "variant": "7letras",
        "teams": False,
        "seats": ["hard", "normal", "normal", "normal"],
        "hard": True,
    },
    "hard-pairs": {"variant": "sefode", "teams": True, "seats": ["hard", "normal", "hard", "normal"], "hard": True},
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", action="append", choices=sorted(TARGETS), help="run only these targets")
    parser.add_argument("--matches", type=int, default=800, help="matches per normal-vs-easy target")
    parser.add_argument("--matches-hard", type=int, default=200, help="matches per hard-vs-normal target")
    parser.add_argument("--think-ms", type=float, default=200.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None, help="append one JSON line per target to this file")
    args = parser.parse_args()
    for name in args.only or list(TARGETS):
        target = TARGETS[name]
        options = {"variant": target["variant"], "players": 4, "teams": target["teams"]}
        matches = args.matches_hard if target["hard"] else args.matches
        started = time.perf_counter()
        result = simulate(
            "fodinha",
            options,
            target["seats"],
            matches,
            args.seed,
            think_ms=args.think_ms,
            workers=args.workers,
            rotation="duplicate",
        )
        wall = time.perf_counter() - started
        lead = target["seats"][0]
        row = result.kinds()[lead]
        par = 0.5 if target["teams"] else 0.25
        # In pairs both partners share a place: the pair's share is the share of one of its seats.
        share = row["win_share"]
        low, high = row["win_share_ci95"]
        print(
            f"== {name}: {lead} win share {100 * share:.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f}%), "
            f"par {100 * par:.0f}%, {matches} matches, wall {wall:.0f} s"
        )
        print(format_table(result))
        print(flush=True)
        if args.json is not None:
            record = {"target": name, "options": options, "wall_s": round(wall, 1), **result.to_json()}
            with args.json.open("a") as out:
                out.write(json.dumps(record) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
