"""Matches between players, for ``sefode simulate``: the arena that measures bots."""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tqdm import tqdm

from sefode.bots.base import Player, Seen, make_player
from sefode.engine import get_game


@dataclass
class SeatStats:
    seat: int
    player: str
    wins: int = 0
    places: list[int] = field(default_factory=list)
    decision_s: list[float] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        ms = sorted(d * 1000.0 for d in self.decision_s)
        return {
            "seat": self.seat,
            "player": self.player,
            "wins": self.wins,
            "mean_place": round(statistics.fmean(self.places), 4) if self.places else None,
            "decision_ms_p50": round(_quantile(ms, 0.50), 4),
            "decision_ms_p95": round(_quantile(ms, 0.95), 4),
        }


def _quantile(sorted_values: Sequence[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    index = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[index]


@dataclass
class ArenaResult:
    matches: int
    elapsed_s: float
    decisions: int
    hands: int
    seats: list[SeatStats]

    def to_json(self) -> dict[str, Any]:
        return {
            "matches": self.matches,
            "elapsed_s": round(self.elapsed_s, 4),
            "decisions": self.decisions,
            "hands": self.hands,
            "seats": [s.to_json() for s in self.seats],
        }


def simulate(
    game_name: str,
    options: Mapping[str, Any],
    seats: Sequence[str],
    matches: int,
    seed: int,
    think_ms: float = 200.0,
    progress: bool = False,
) -> ArenaResult:
    """Play ``matches`` matches, match ``i`` with seed ``seed + i``; seat ``s`` is played by ``seats[s]``."""
    game = get_game(game_name)
    stats = [SeatStats(s, kind) for s, kind in enumerate(seats)]
    decisions = 0
    hands = 0
    elapsed = 0.0
    clock = time.perf_counter
    for m in tqdm(range(matches), disable=not progress, file=sys.stderr, unit="match"):
        players: list[Player] = [
            make_player(kind, seed * 1_000_003 + m * 16 + s, think_ms) for s, kind in enumerate(seats)
        ]
        start = clock()
        state = game.new_match(options, seed + m)
        while True:
            waiting = game.awaiting(state)
            if not waiting:
                break
            for seat in sorted(waiting):
                t0 = clock()
                action = players[seat].choose(Seen(game, state, seat))
                stats[seat].decision_s.append(clock() - t0)
                game.apply_fast(state, seat, action)
                decisions += 1
        elapsed += clock() - start
        outcome = game.outcome(state)
        assert outcome is not None
        hands += len(game.report(state).get("hands", []))
        for s, place in enumerate(outcome.placements):
            stats[s].places.append(place)
            if place == 1:
                stats[s].wins += 1
    return ArenaResult(matches, elapsed, decisions, hands, stats)


def format_table(result: ArenaResult) -> str:
    lines = [
        f"{result.matches} matches, {result.hands} hands, {result.decisions} decisions in {result.elapsed_s:.2f} s",
        f"{'seat':>4}  {'player':<8} {'wins':>6} {'win %':>6} {'mean place':>10} {'p50 ms':>8} {'p95 ms':>8}",
    ]
    for s in result.seats:
        row = s.to_json()
        share = 100.0 * s.wins / result.matches if result.matches else 0.0
        lines.append(
            f"{s.seat:>4}  {s.player:<8} {s.wins:>6} {share:>5.1f}% {row['mean_place'] or 0:>10.3f} "
            f"{row['decision_ms_p50']:>8.3f} {row['decision_ms_p95']:>8.3f}"
        )
    return "\n".join(lines)
