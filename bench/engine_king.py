"""King engine benchmark: the cost of one decision in random play, ours against OpenSpiel's ``hearts``.

A sibling of ``bench/engine.py`` (same clock, same seeded ``random.Random`` choosing uniformly among the
legal actions, loops taking turns, best and median of ``--repeat`` repetitions):

* **ours**: whole 12-hand King matches (4 players, 52 cards, follow suit, contracts chosen at random)
  through the :class:`sefode.engine.Game` interface: ``new_match``, then ``awaiting`` / ``legal_actions``
  / ``apply_fast`` until the match is over. Decisions are contract and trump choices and card plays.
* **OpenSpiel** ``hearts`` (4 players, 52 cards, follow suit), driven from Python through ``pyspiel``:
  whole games including the chance nodes (pass direction, one chance action per card dealt). Passing is
  switched off (``pass_cards=False``) so that, as in King, the decisions are card plays; the other
  parameters are OpenSpiel's defaults. Player decisions and chance actions are counted apart.

The ratio is ours / OpenSpiel per player decision, best against best (and the median of paired
repetitions). Target: at most 1.5, goal 1.0.

    .venv/bin/python bench/engine_king.py --repeat 15
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
try:
    from sefode.engine import get_game
except ImportError:  # run from a checkout whose package is not installed
    sys.path.insert(0, str(HERE.parent))
    from sefode.engine import get_game

_spec = importlib.util.spec_from_file_location("bench_engine", HERE / "engine.py")
assert _spec is not None and _spec.loader is not None
base = importlib.util.module_from_spec(_spec)
sys.modules["bench_engine"] = base  # its dataclasses look their module up
_spec.loader.exec_module(base)

pyspiel = base.pyspiel
Run = base.Run
Result = base.Result

TARGET_RATIO = 1.5
OPTIONS: dict[str, Any] = {"order": "choice"}
HEARTS_PARAMS: dict[str, Any] = {"pass_cards": False}


def run_ours(matches: int, seed: int) -> Any:
    game = get_game("king")
    rng = random.Random(seed)
    choice = rng.choice
    awaiting = game.awaiting
    legal_actions = game.legal_actions
    apply_fast = game.apply_fast
    new_match = game.new_match
    decisions = 0
    clock = time.perf_counter
    start = clock()
    for m in range(matches):
        state = new_match(OPTIONS, seed + m)
        while True:
            waiting = awaiting(state)
            if not waiting:
                break
            for seat in waiting:
                apply_fast(state, seat, choice(legal_actions(state, seat)))
                decisions += 1
    elapsed = clock() - start
    return Run(elapsed, decisions, extra={"matches": matches})


def run_hearts(games: int, seed: int) -> Any:
    assert pyspiel is not None
    game = pyspiel.load_game("hearts", HEARTS_PARAMS)
    rng = random.Random(seed)
    choice = rng.choice
    new_state = game.new_initial_state
    decisions = 0
    chance = 0
    clock = time.perf_counter
    start = clock()
    for _ in range(games):
        state = new_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])
                chance += 1
            else:
                state.apply_action(choice(state.legal_actions()))
                decisions += 1
    elapsed = clock() - start
    return Run(elapsed, decisions, chance, extra={"games": games})


def hearts_chance_uniform(games: int, seed: int) -> bool:
    assert pyspiel is not None
    game = pyspiel.load_game("hearts", HEARTS_PARAMS)
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                if any(abs(p - outcomes[0][1]) > 1e-12 for _, p in outcomes):
                    return False
                state.apply_action(rng.choice(outcomes)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return True


def measure(args: argparse.Namespace) -> dict[str, Any]:
    loops: list[tuple[str, Callable[[int, int], Any], int]] = [("ours", run_ours, args.matches)]
    uniform: bool | None = None
    if pyspiel is not None:
        uniform = hearts_chance_uniform(20, args.seed)
        loops.append(("openspiel", run_hearts, args.games))
    load_before = base._load_average()
    results = base.interleave(loops, args.seed, args.repeat)
    ours = results[0]
    reference = results[1] if len(results) > 1 else None
    ratio = ratio_paired = None
    if reference is not None:
        ratio = min(ours.per_decision_us()) / min(reference.per_decision_us())
        ratio_paired = statistics.median(
            a / b for a, b in zip(ours.per_decision_us(), reference.per_decision_us(), strict=True)
        )
    return {
        "benchmark": "engine_king",
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "machine": {**base.machine(), "load_average_1min_before": load_before},
        "repeat": args.repeat,
        "seed": args.seed,
        "ours": {"game": "king", "options": OPTIONS, **ours.to_json()},
        "openspiel": None
        if reference is None
        else {
            "game": "hearts",
            "params": HEARTS_PARAMS,
            "version": base.openspiel_version(),
            "chance_uniform": uniform,
            **reference.to_json(),
        },
        "ratio_per_decision": None if ratio is None else round(ratio, 4),
        "ratio_per_decision_paired_median": None if ratio_paired is None else round(ratio_paired, 4),
        "target_ratio": TARGET_RATIO,
        "meets_target": None if ratio is None else ratio <= TARGET_RATIO,
    }


def format_table(result: dict[str, Any]) -> str:
    m = result["machine"]
    lines = [
        f"King engine benchmark, {result['date']}: {m['implementation']} {m['python']}, {m['nproc']} CPU(s), "
        f"{m['processor']}, load average {m['load_average_1min_before']} before, {m['load_average_1min']} after",
        f"best and median of {result['repeat']} repetitions, seed {result['seed']}",
        "",
        f"{'loop':<44} {'decisions':>9} {'chance':>7} {'µs/decision':>12} {'median':>7} {'µs/action':>10}",
    ]
    ours = result["ours"]
    lines.append(
        f"{'ours: King, 12 hands (' + str(ours['matches_per_run']) + ' matches)':<44} {ours['decisions_per_run']:>9} "
        f"{0:>7} {ours['us_per_decision_best']:>12.3f} {ours['us_per_decision_median']:>7.3f}"
    )
    ref = result["openspiel"]
    if ref is None:
        lines.append("OpenSpiel hearts: reference missing: pip install -e '.[bench]'")
    else:
        label = f"OpenSpiel {ref['version']} hearts ({ref['games_per_run']} games)"
        lines.append(
            f"{label:<44} {ref['decisions_per_run']:>9} {ref['chance_actions_per_run']:>7} "
            f"{ref['us_per_decision_best']:>12.3f} {ref['us_per_decision_median']:>7.3f} "
            f"{ref['us_per_action_best']:>10.3f}"
        )
        lines.append("")
        bar = "meets" if result["meets_target"] else "MISSES"
        lines.append(
            f"ratio ours/OpenSpiel per decision: {result['ratio_per_decision']:.3f} (best against best), "
            f"{result['ratio_per_decision_paired_median']:.3f} (median of paired repetitions); {bar} the "
            f"≤ {TARGET_RATIO}× target"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--matches", type=int, default=40, help="King matches per repetition (default 40)")
    parser.add_argument("--games", type=int, default=400, help="hearts games per repetition (default 400)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    result = measure(args)
    print(json.dumps(result, indent=2) if args.json else format_table(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
