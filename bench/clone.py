"""What one ``Game.clone`` costs (the search bots clone before every determinization), per game, in CPU time.

Each game plays 30 random decisions from seed 5, then the state is cloned ``--number`` times per repetition; the figure
is the best repetition's CPU time (``time.process_time``, so a busy machine's waiting does not count) per clone.

    nice -n 19 .venv/bin/python bench/clone.py --games fodinha,king,trash,guimenon,lances
"""

from __future__ import annotations

import argparse
import json
import random
import time
import timeit

from sefode.engine import get_game


def clone_us(name: str, number: int, repeat: int) -> float:
    game = get_game(name)
    rng = random.Random(3)
    state = game.new_match(game.validate_options({}), 5)
    for _ in range(30):
        awaited = sorted(game.awaiting(state))
        if not awaited:
            break
        game.apply_fast(state, awaited[0], rng.choice(game.legal_actions(state, awaited[0])))
    best = min(timeit.repeat(lambda: game.clone(state), number=number, repeat=repeat, timer=time.process_time))
    return round(best / number * 1e6, 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="fodinha,king,trash,guimenon,lances")
    parser.add_argument("--number", type=int, default=500, help="clones per repetition (default 500)")
    parser.add_argument("--repeat", type=int, default=30, help="repetitions; the best counts (default 30)")
    args = parser.parse_args()
    print(json.dumps({name: clone_us(name, args.number, args.repeat) for name in args.games.split(",")}))


if __name__ == "__main__":
    main()
