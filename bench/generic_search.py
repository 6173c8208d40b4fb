"""The hard bot's generic search, with the game's search hooks switched off, against the game's normal policy.

The question (issue "A kit for outside game authors"): does the search beat a greedy policy in a game it knows
nothing about? The hard seat here sees the game as an outside author's game would show it with no ``SearchHooks``:

* ``blind``: the search with no knowledge at all (``SearchHooks()``: random rollouts, placements as rewards), as
  the hard bot played a game without hooks before this benchmark;
* ``generic``: the hard bot as it plays a game that hands over its easy and normal policies but no search hooks
  (``sefode.bots.levels.policy_search``);
* ``rollouts``: as ``generic`` with the other seats searched by UCB1 in the tree (the policy in the rollouts alone);
* ``unfair``: as ``generic`` with the other seats' modelled moves read from the simulation's deal (they see all);
* ``bold``: as ``generic`` always playing the search's most visited move, never the policy's;
* ``hard``: the game's own hard bot, its hooks on;

every other seat plays the game's own ``normal`` policy (random play in a game that has none, as Lances), seats
rotated every match. Reports the hard seat's win share with its 95% interval against par (a seat's share of first
places if all were alike: 1 / seats, more where first places are shared) and its wall-clock decision times.

    nice -n 19 .venv/bin/python bench/generic_search.py --game fodinha --option lives=2 --hard generic \\
        --matches 80 --think-ms 50 --seed 1 --workers 2
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

try:
    import sefode  # noqa: F401
except ImportError:  # run from a checkout whose package is not installed
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sefode import arena
from sefode.bots import players
from sefode.bots.base import Seen
from sefode.bots.knowledge import policies_for
from sefode.bots.levels import HardPlayer, PolicyRollouts, policy_search
from sefode.bots.search import SearchHooks
from sefode.engine import get_game


class BlindHard(HardPlayer):
    """The hard bot with no knowledge of the game at all."""

    kind = "blind"

    def hooks(self, seen: Seen) -> SearchHooks:
        return SearchHooks()


class GenericHard(HardPlayer):
    """The hard bot with the game's policies but none of its search hooks."""

    kind = "generic"

    def hooks(self, seen: Seen) -> SearchHooks:
        return policy_search(seen.game)


class RolloutsOnly(HardPlayer):
    """The hard bot with the game's normal policy in its rollouts alone (the other seats searched by UCB1)."""

    kind = "rollouts"

    def hooks(self, seen: Seen) -> SearchHooks:
        return PolicyRollouts(seen.game, policies_for(seen.game), model_others=False)


class Unfair(HardPlayer):
    """As ``generic``, the others' modelled moves read from the simulation's deal itself (they see every card)."""

    kind = "unfair"

    def hooks(self, seen: Seen) -> SearchHooks:
        return PolicyRollouts(seen.game, policies_for(seen.game), fair=False)


class Bold(HardPlayer):
    """As ``generic``, always playing the search's own choice (never falling back on the normal policy's move)."""

    kind = "bold"

    def hooks(self, seen: Seen) -> SearchHooks:
        return PolicyRollouts(seen.game, policies_for(seen.game), trust=0)


VARIANTS: dict[str, type[HardPlayer]] = {cls.kind: cls for cls in (BlindHard, GenericHard, RolloutsOnly, Unfair, Bold)}


def _register() -> None:
    kinds: dict[str, Any] = dict(players.KINDS)
    kinds.update(VARIANTS)
    players.KINDS = kinds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--game", required=True)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--players", type=int, default=None, help="seats (default: the game's default)")
    parser.add_argument(
        "--hard", default="generic", choices=["blind", "rollouts", "unfair", "bold", "near", "generic", "hard"]
    )
    parser.add_argument("--opponent", default="normal")
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think-ms", type=float, default=50.0)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    _register()
    options: dict[str, Any] = {}
    for item in args.option:
        key, _, value = item.partition("=")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:  # a plain word: variant=7letras
            options[key] = value
    game = get_game(args.game)
    key = game.spec.seats_option
    n = args.players or int(game.validate_options(options).get(key or "", game.spec.min_seats) or game.spec.min_seats)
    if key is not None:
        options[key] = n
    seats = [args.hard] + [args.opponent] * (n - 1)
    result = arena.simulate(
        args.game, options, seats, args.matches, args.seed, args.think_ms, workers=args.workers, rotation="rotate"
    )
    hard = result.seats[0]
    low, high = arena.wilson_interval(hard.wins, args.matches)
    # Par: a seat's share of first places if every seat were alike (1 / seats, more where first places are shared).
    par = max(1 / n, sum(seat.wins for seat in result.seats) / (n * args.matches))
    times = sorted(hard.decision_s)
    p95 = times[int(0.95 * (len(times) - 1))] * 1000 if times else 0.0
    print(
        f"{args.game} {options} {args.hard} vs {args.opponent} x{n - 1}, {args.matches} matches, seed {args.seed}, "
        f"{args.think_ms:g} ms: hard wins {hard.wins} = {hard.wins / args.matches:.1%} "
        f"({low:.1%}-{high:.1%}), par {par:.1%}; ratio {hard.wins / args.matches / par:.2f}x; "
        f"mean place {sum(hard.places) / len(hard.places):.2f}; no winner {result.no_winner}; "
        f"p95 decision {p95:.0f} ms, max {times[-1] * 1000 if times else 0:.0f} ms"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
