"""Engine benchmark: the cost of one decision in random play, ours against OpenSpiel's ``oh_hell``.

Three loops are timed in the same process, with the same clock (``time.perf_counter``), the same kind
of seeded ``random.Random`` choosing uniformly among the legal actions, and the garbage collector left
as it is in a real process:

* **ours**: whole 4-player Se Fode matches through the :class:`sefode.engine.Game` interface
  (``new_match``, then ``awaiting`` / ``legal_actions`` / ``apply_fast`` until the match is over).
  Decisions are bids and chosen plays; the automatic plays of a one-card hand are not decisions.
* **OpenSpiel** ``oh_hell`` with 4 players, driven from Python through ``pyspiel``: whole games,
  including the chance nodes (number of tricks, dealer, one chance action per card dealt, trump).
  Player decisions (bids and plays) and chance actions are counted apart.
* **floor**: bare CPython with no rules: shuffle a 40-card deck, deal 4 hands of 10, and let each
  hand play random cards until it is empty. This is the least a Python engine can cost per play.

Each loop runs ``--repeat`` times; the table shows the best repetition (least noise) and the median.
The ratio is ours / OpenSpiel per player decision, best against best.

Run it with ``.venv/bin/python bench/engine.py`` (add ``--json`` for a machine-readable result). It
exits 0 without ``open_spiel`` too, saying that the reference is missing; install it with
``.venv/bin/pip install -e '.[bench]'``.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    from sefode.engine import get_game
except ImportError:  # run from a checkout whose package is not installed
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from sefode.engine import get_game

try:
    import pyspiel
except ImportError:
    pyspiel = None

TARGET_RATIO = 1.5
"""The engine issue's bar: ours may cost at most 1.5 times OpenSpiel per decision."""

OPTIONS: dict[str, Any] = {"variant": "sefode", "players": 4}
"""Our side of the comparison: 4-player Se Fode, one deck, defaults otherwise."""

OH_HELL_PARAMS: dict[str, Any] = {"players": 4}
"""OpenSpiel's side: ``oh_hell`` with 4 players, defaults otherwise (52 cards, random number of tricks)."""


@dataclass
class Run:
    """One timed repetition of one loop."""

    seconds: float
    decisions: int
    chance: int = 0
    extra: dict[str, int] = field(default_factory=dict)


@dataclass
class Result:
    """All repetitions of one loop, summarised per decision (and per action for OpenSpiel)."""

    name: str
    runs: list[Run]

    @property
    def decisions(self) -> int:
        return self.runs[0].decisions

    def per_decision_us(self) -> list[float]:
        return [r.seconds / r.decisions * 1e6 for r in self.runs]

    def per_action_us(self) -> list[float]:
        return [r.seconds / (r.decisions + r.chance) * 1e6 for r in self.runs]

    def to_json(self) -> dict[str, Any]:
        per_decision = self.per_decision_us()
        per_action = self.per_action_us()
        return {
            "decisions_per_run": self.decisions,
            "chance_actions_per_run": self.runs[0].chance,
            **{f"{k}_per_run": v for k, v in self.runs[0].extra.items()},
            "seconds": [round(r.seconds, 6) for r in self.runs],
            "us_per_decision_best": round(min(per_decision), 4),
            "us_per_decision_median": round(statistics.median(per_decision), 4),
            "us_per_action_best": round(min(per_action), 4),
            "us_per_action_median": round(statistics.median(per_action), 4),
        }


# --------------------------------------------------------------------------- the three loops
def run_ours(matches: int, seed: int) -> Run:
    """Random play of ``matches`` whole matches through the ``Game`` interface."""
    game = get_game("fodinha")
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


def run_openspiel(games: int, seed: int) -> Run:
    """Random play of ``games`` whole ``oh_hell`` games, chance nodes included.

    Every chance node of ``oh_hell`` is uniform (checked by :func:`check_openspiel_chance_uniform`),
    so picking one of its outcomes uniformly samples it exactly.
    """
    assert pyspiel is not None
    game = pyspiel.load_game("oh_hell", OH_HELL_PARAMS)
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


def run_floor(deals: int, seed: int) -> Run:
    """Bare CPython: deal 4 hands of 10 from a shuffled 40-card deck, then play random cards, no rules."""
    rng = random.Random(seed)
    shuffle = rng.shuffle
    randbelow = rng.randrange
    deck = list(range(40))
    plays = 0
    clock = time.perf_counter
    start = clock()
    for _ in range(deals):
        shuffle(deck)
        hands = [deck[0:10], deck[10:20], deck[20:30], deck[30:40]]
        table: list[int] = []
        for _ in range(10):
            for hand in hands:
                table.append(hand.pop(randbelow(len(hand))))
                plays += 1
            table.clear()
    elapsed = clock() - start
    return Run(elapsed, plays, extra={"deals": deals})


def check_openspiel_chance_uniform(games: int, seed: int) -> bool:
    """True when every chance node met in ``games`` random games has equal probabilities (untimed)."""
    assert pyspiel is not None
    game = pyspiel.load_game("oh_hell", OH_HELL_PARAMS)
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                first = outcomes[0][1]
                if any(abs(p - first) > 1e-12 for _, p in outcomes):
                    return False
                state.apply_action(rng.choice(outcomes)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return True


def interleave(loops: Sequence[tuple[str, Callable[[int, int], Run], int]], seed: int, times: int) -> list[Result]:
    """Run every loop ``times`` times, taking turns, so that load from elsewhere falls on all of them alike."""
    for _, loop, size in loops:
        loop(max(1, size // 10), seed)  # warm up: imports, caches, allocator
    runs: list[list[Run]] = [[] for _ in loops]
    for _ in range(times):
        for i, (_, loop, size) in enumerate(loops):
            runs[i].append(loop(size, seed))
    return [Result(name, r) for (name, _, _), r in zip(loops, runs, strict=True)]


# --------------------------------------------------------------------------- reporting
def machine() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "nproc": os.cpu_count(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": _cpu_model(),
        "load_average_1min": _load_average(),
    }


def _load_average() -> float | None:
    """The 1-minute load average, to tell a quiet machine from a busy one (None where unknown)."""
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def openspiel_version() -> str | None:
    try:
        return importlib.metadata.version("open_spiel")
    except importlib.metadata.PackageNotFoundError:
        return None


def measure(args: argparse.Namespace) -> dict[str, Any]:
    loops: list[tuple[str, Callable[[int, int], Run], int]] = [
        ("ours", run_ours, args.matches),
        ("floor", run_floor, args.deals),
    ]
    uniform: bool | None = None
    if pyspiel is not None:
        uniform = check_openspiel_chance_uniform(20, args.seed)
        loops.append(("openspiel", run_openspiel, args.games))
    load_before = _load_average()
    results = interleave(loops, args.seed, args.repeat)
    ours, floor = results[0], results[1]
    reference = results[2] if len(results) > 2 else None
    ratio: float | None = None
    ratio_paired: float | None = None
    if reference is not None:
        ratio = min(ours.per_decision_us()) / min(reference.per_decision_us())
        ratio_paired = statistics.median(
            a / b for a, b in zip(ours.per_decision_us(), reference.per_decision_us(), strict=True)
        )
    return {
        "benchmark": "engine",
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "machine": {**machine(), "load_average_1min_before": load_before},
        "repeat": args.repeat,
        "seed": args.seed,
        "ours": {"game": "fodinha", "options": OPTIONS, **ours.to_json()},
        "openspiel": None
        if reference is None
        else {
            "game": "oh_hell",
            "params": OH_HELL_PARAMS,
            "version": openspiel_version(),
            "chance_uniform": uniform,
            **reference.to_json(),
        },
        "floor": floor.to_json(),
        "ratio_per_decision": None if ratio is None else round(ratio, 4),
        "ratio_per_decision_paired_median": None if ratio_paired is None else round(ratio_paired, 4),
        "target_ratio": TARGET_RATIO,
        "meets_target": None if ratio is None else ratio <= TARGET_RATIO,
        "beats_reference": None if ratio is None or ratio_paired is None else ratio < 1.0 and ratio_paired < 1.0,
    }


def format_table(result: dict[str, Any]) -> str:
    m = result["machine"]
    lines = [
        f"engine benchmark, {result['date']}: {m['implementation']} {m['python']}, {m['nproc']} CPU(s), "
        f"{m['processor']}, load average {m['load_average_1min_before']} before, {m['load_average_1min']} after",
        f"best and median of {result['repeat']} repetitions, seed {result['seed']}",
        "",
        f"{'loop':<44} {'decisions':>9} {'chance':>7} {'µs/decision':>12} {'median':>7} {'µs/action':>10}",
    ]

    def row(label: str, data: dict[str, Any], per_action: bool) -> str:
        action = f"{data['us_per_action_best']:>10.3f}" if per_action else f"{'':>10}"
        return (
            f"{label:<44} {data['decisions_per_run']:>9} {data['chance_actions_per_run']:>7} "
            f"{data['us_per_decision_best']:>12.3f} {data['us_per_decision_median']:>7.3f} {action}"
        )

    ours = result["ours"]
    lines.append(row(f"ours: Se Fode, 4 players ({ours['matches_per_run']} matches)", ours, False))
    reference = result["openspiel"]
    if reference is None:
        lines.append(f"{'OpenSpiel oh_hell, 4 players':<44} reference missing: pip install -e '.[bench]'")
    else:
        label = f"OpenSpiel {reference['version']} oh_hell ({reference['games_per_run']} games)"
        lines.append(row(label, reference, True))
        if not reference["chance_uniform"]:
            lines.append("  warning: some oh_hell chance node is not uniform; its uniform sampling here is biased")
    floor = result["floor"]
    lines.append(row(f"floor: bare CPython ({floor['deals_per_run']} deals)", floor, False))
    lines.append("")
    if result["ratio_per_decision"] is None:
        lines.append("ratio ours/OpenSpiel per decision: n/a (open_spiel is not installed)")
    else:
        if result["beats_reference"]:
            verdict = "beats OpenSpiel"
        elif result["ratio_per_decision"] > 1.0 and result["ratio_per_decision_paired_median"] > 1.0:
            verdict = "slower than OpenSpiel"
        else:
            verdict = "even with OpenSpiel (the two ratios fall on either side of 1)"
        bar = "meets" if result["meets_target"] else "MISSES"
        lines.append(
            f"ratio ours/OpenSpiel per decision: {result['ratio_per_decision']:.3f} (best against best), "
            f"{result['ratio_per_decision_paired_median']:.3f} (median of paired repetitions)"
        )
        lines.append(f"  {verdict}; {bar} the ≤ {TARGET_RATIO}× target")
    floor_ratio = ours["us_per_decision_best"] / floor["us_per_decision_best"]
    lines.append(f"ours / bare CPython floor per decision: {floor_ratio:.2f}×")
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    parser.add_argument("--repeat", type=int, default=7, help="timed repetitions of each loop (default 7)")
    parser.add_argument("--matches", type=int, default=300, help="Se Fode matches per repetition (default 300)")
    parser.add_argument("--games", type=int, default=600, help="oh_hell games per repetition (default 600)")
    parser.add_argument("--deals", type=int, default=500, help="bare CPython deals per repetition (default 500)")
    parser.add_argument("--seed", type=int, default=1, help="seed of every loop (default 1)")
    args = parser.parse_args(argv)
    for name in ("repeat", "matches", "games", "deals"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    result = measure(args)
    print(json.dumps(result, indent=2) if args.json else format_table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
