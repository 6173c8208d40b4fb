"""What each King contract gives its chooser, on average, when four normal bots play it (``CHOOSER_PAR``).

For ``--deals`` random deals, hand 1 is played once under each contract (Trunfo with the chooser's normal
trump), every seat deciding with the normal policy; the chooser's figure is its points against the mean of
the others', ``(4 x - total) / 3``. The hard bot subtracts these from its Monte Carlo value of a contract,
so that it keeps a contract for a hand that suits it better than the usual one.

    .venv/bin/python bench/king_par.py --deals 400
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

try:
    from sefode.engine import get_game
except ImportError:  # run from a checkout whose package is not installed
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from sefode.engine import get_game

from sefode.bots.knowledge import policies_for
from sefode.games.king.game import CONTRACT, King
from sefode.games.king.rules import CONTRACTS


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = get_game("king")
    assert isinstance(game, King)
    policy = policies_for(game)
    rng = random.Random(args.seed)
    values: dict[int, list[float]] = {c.index: [] for c in CONTRACTS}
    for deal in range(args.deals):
        for contract in CONTRACTS:
            st = game.new_match({}, args.seed * 100_003 + deal, {"dealer": 0})
            game.apply_fast(st, 1, CONTRACT + contract.index)
            while st.hand_no == 1:
                (seat,) = game.awaiting(st)
                legal = game.legal_actions(st, seat)
                game.apply_fast(st, seat, policy.normal(st, seat, legal, rng))
            points = st.records[0].points
            values[contract.index].append((4 * points[1] - sum(points)) / 3.0)
    print("CHOOSER_PAR = {")
    for index, vs in values.items():
        half = 1.96 * statistics.stdev(vs) / len(vs) ** 0.5
        name = CONTRACTS[index].name.upper()
        print(f"    {name}: {statistics.fmean(vs):.1f},  # ± {half:.1f}")
    print("}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
