"""Matches between players, for ``sefode simulate``: the arena that measures bots.

The players are *entrants*: entrant ``i`` is a player of kind ``seats[i]``. How they sit:

* ``rotation="none"``: entrant ``i`` sits at seat ``i`` in every match; match ``m`` has seed ``seed + m``.
* ``rotation="rotate"``: match ``m`` (seed ``seed + m``) seats entrant ``i`` at seat ``(i + m) mod n``,
  so every entrant plays every position equally often.
* ``rotation="duplicate"`` (the default): the matches come in groups of ``n``; every match of group ``g``
  has seed ``seed + g`` (the same deals, as long as the hands go the same way) and match ``r`` of the
  group seats entrant ``i`` at seat ``(i + r) mod n``. Luck of the deal and seat position cancel out.

Win shares get a 95% Wilson interval; each kind of player gets a Bradley-Terry rating (on the Elo
scale, the mean kind at 1500) fitted to the pairwise placements of entrants of different kinds.
Matches may run in parallel worker processes (``workers``); results do not depend on it.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

from sefode.bots.base import Player, Seen
from sefode.bots.players import make_player
from sefode.engine import get_game, guard_reason
from sefode.history import export

ROTATIONS = ("none", "rotate", "duplicate")


@dataclass
class SeatStats:
    """One entrant: a player kind and what it did over the matches."""

    seat: int
    player: str
    wins: int = 0
    places: list[int] = field(default_factory=list)
    decision_s: list[float] = field(default_factory=list)
    faults: dict[str, int] = field(default_factory=dict)
    """Decisions lost to a default move (a program that crashed, hung past its budget, or answered illegally)."""
    scores: list[float] = field(default_factory=list)
    """Final scores (``Outcome.scores``) when the game gives numbers."""

    def to_json(self) -> dict[str, Any]:
        ms = sorted(d * 1000.0 for d in self.decision_s)
        matches = len(self.places)
        low, high = wilson_interval(self.wins, matches)
        return {
            "seat": self.seat,
            "player": self.player,
            "wins": self.wins,
            "win_share": round(self.wins / matches, 4) if matches else None,
            "win_share_ci95": [round(low, 4), round(high, 4)],
            "mean_place": round(statistics.fmean(self.places), 4) if self.places else None,
            "mean_score": round(statistics.fmean(self.scores), 4) if self.scores else None,
            "mean_score_ci95": _mean_interval(self.scores),
            "decisions": len(ms),
            "decision_ms_p50": round(_quantile(ms, 0.50), 4),
            "decision_ms_p95": round(_quantile(ms, 0.95), 4),
            "decision_ms_max": round(ms[-1], 4) if ms else 0.0,
            "faults": dict(sorted(self.faults.items())),
        }


def _mean_interval(values: Sequence[float]) -> list[float] | None:
    """A normal-approximation 95% interval of the mean (None with fewer than two values)."""
    if len(values) < 2:
        return None
    mean = statistics.fmean(values)
    half = 1.959964 * statistics.stdev(values) / math.sqrt(len(values))
    return [round(mean - half, 4), round(mean + half, 4)]


def _quantile(sorted_values: Sequence[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    index = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[index]


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval of a proportion.

    >>> [round(x, 3) for x in wilson_interval(50, 100)]
    [0.404, 0.596]
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def bradley_terry(
    pairs: Mapping[tuple[str, str], float], kinds: Sequence[str], iterations: int = 500
) -> dict[str, float]:
    """Ratings on the Elo scale (mean 1500) from ``pairs[(a, b)]`` = how often ``a`` placed above ``b``
    (ties count half to each). Fitted by the minorization-maximization algorithm (Hunter 2004), with a
    small prior (one tie against every other kind) so that an unbeaten kind still gets a finite rating.

    >>> r = bradley_terry({("a", "b"): 3.0, ("b", "a"): 1.0}, ["a", "b"])
    >>> round(r["a"] - r["b"])
    147
    """
    names = sorted(set(kinds))
    if len(names) < 2:
        return {k: 1500.0 for k in names}
    wins = {(a, b): pairs.get((a, b), 0.0) + 0.5 for a in names for b in names if a != b}
    strength = {k: 1.0 for k in names}
    for _ in range(iterations):
        new: dict[str, float] = {}
        for a in names:
            total_wins = sum(wins[(a, b)] for b in names if b != a)
            denom = sum((wins[(a, b)] + wins[(b, a)]) / (strength[a] + strength[b]) for b in names if b != a)
            new[a] = total_wins / denom if denom > 0 else strength[a]
        scale = math.exp(statistics.fmean(math.log(v) for v in new.values()))
        strength = {k: v / scale for k, v in new.items()}
    return {k: 1500.0 + 400.0 * math.log10(v) for k, v in strength.items()}


@dataclass
class ArenaResult:
    matches: int
    elapsed_s: float
    decisions: int
    hands: int
    seats: list[SeatStats]
    rotation: str = "none"
    workers: int = 1
    think_ms: float = 200.0
    pairs: dict[tuple[str, str], float] = field(default_factory=dict)
    no_winner: int = 0
    """Matches that ended with no winner (they count as a loss for every seat)."""
    guarded: int = 0
    """Matches the guard against endless play stopped (``Game.max_decisions``); they count among ``no_winner``
    when the game's ``unfinished_outcome`` places nobody."""
    exported: list[str] = field(default_factory=list)
    """The history files written (``export_dir``)."""
    guard_reason: str | None = None
    """Why the guard stopped the first such match."""

    def kinds(self) -> dict[str, dict[str, Any]]:
        """Per kind of player: entrants, matches played (entrant-matches), wins, share with 95% CI, rating."""
        names = [s.player for s in self.seats]
        ratings = bradley_terry(self.pairs, names)
        out: dict[str, dict[str, Any]] = {}
        for kind in sorted(set(names)):
            mine = [s for s in self.seats if s.player == kind]
            played = sum(len(s.places) for s in mine)
            wins = sum(s.wins for s in mine)
            low, high = wilson_interval(wins, played)
            out[kind] = {
                "entrants": len(mine),
                "played": played,
                "wins": wins,
                "win_share": round(wins / played, 4) if played else None,
                "win_share_ci95": [round(low, 4), round(high, 4)],
                "mean_place": round(statistics.fmean(p for s in mine for p in s.places), 4) if played else None,
                "rating": round(ratings.get(kind, 1500.0), 1),
            }
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "matches": self.matches,
            "elapsed_s": round(self.elapsed_s, 4),
            "decisions": self.decisions,
            "hands": self.hands,
            "rotation": self.rotation,
            "workers": self.workers,
            "think_ms": self.think_ms,
            "no_winner": self.no_winner,
            "guarded": self.guarded,
            "guard_reason": self.guard_reason,
            "exported": len(self.exported),
            "seats": [s.to_json() for s in self.seats],
            "kinds": self.kinds(),
        }


@dataclass(frozen=True)
class MatchPlan:
    """One match to play: which entrant sits where, with what seeds."""

    index: int
    game_seed: int
    seat_of: tuple[int, ...]
    """Entrant -> seat."""
    player_seeds: tuple[int, ...]
    """Entrant -> its player's seed."""


@dataclass
class MatchResult:
    index: int
    places: list[int]
    """Per entrant."""
    decision_s: list[list[float]]
    """Per entrant."""
    decisions: int
    hands: int
    elapsed_s: float
    scores: list[float] | None = None
    """Per entrant, when the game's outcome has numeric scores."""
    no_winner: bool = False
    faults: list[dict[str, int]] = field(default_factory=list)
    """Per entrant: decisions lost to a default move, by cause."""
    guard: str | None = None
    """Why the guard against endless play stopped the match (``sefode.engine.guard_reason``), or None."""
    history: dict[str, Any] | None = None
    """The match's history (``sefode.history.export``), when asked for."""


def plan_matches(n: int, matches: int, seed: int, rotation: str) -> list[MatchPlan]:
    """The seating and seeds of every match (see the module docstring)."""
    if rotation not in ROTATIONS:
        raise ValueError(f"rotation must be one of {', '.join(ROTATIONS)}, not {rotation!r}")
    plans = []
    for m in range(matches):
        if rotation == "none":
            game_seed, shift = seed + m, 0
        elif rotation == "rotate":
            game_seed, shift = seed + m, m % n
        else:
            game_seed, shift = seed + m // n, m % n
        seat_of = tuple((i + shift) % n for i in range(n))
        player_seeds = tuple(seed * 1_000_003 + m * 16 + i for i in range(n))
        plans.append(MatchPlan(m, game_seed, seat_of, player_seeds))
    return plans


def play_match(
    game_name: str,
    options: Mapping[str, Any],
    kinds: Sequence[str],
    plan: MatchPlan,
    think_ms: float,
    with_history: bool = False,
) -> MatchResult:
    """Play one match of the plan; every decision goes through a ``Seen`` of the deciding seat.

    The guard against endless play stops a match at the game's ``max_decisions``: it then ends with the game's
    ``unfinished_outcome`` and the result (and the history's ``result``) says why."""
    game = get_game(game_name)
    n = len(kinds)
    entrant_at = [0] * n
    for entrant, seat in enumerate(plan.seat_of):
        entrant_at[seat] = entrant
    players: list[Player] = [make_player(kinds[e], plan.player_seeds[e], think_ms) for e in entrant_at]
    times: list[list[float]] = [[] for _ in range(n)]
    clock = time.perf_counter
    start = clock()
    decisions = 0
    outcome = None
    guard: str | None = None
    try:
        state = game.new_match(options, plan.game_seed)
        limit = game.max_decisions(game.options(state))
        while True:
            waiting = game.awaiting(state)
            if not waiting:
                break
            if decisions >= limit:
                guard = guard_reason(game, state, decisions)
                break
            for seat in sorted(waiting):
                t0 = clock()
                action = players[seat].choose(Seen(game, state, seat))
                times[entrant_at[seat]].append(clock() - t0)
                game.apply_fast(state, seat, action)
                decisions += 1
        elapsed = clock() - start
        outcome = game.unfinished_outcome(state) if guard is not None else game.outcome(state)
        assert outcome is not None
    finally:  # programs are told the result and stopped, whatever happened
        for player in players:
            player.finish(list(outcome.placements) if outcome is not None else None)
    hands = len(game.report(state).get("hands", []))
    places = [outcome.placements[plan.seat_of[e]] for e in range(n)]
    scores = None
    if outcome.scores is not None and all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in outcome.scores
    ):
        scores = [float(outcome.scores[plan.seat_of[e]]) for e in range(n)]
    faults = [dict(players[plan.seat_of[e]].faults) for e in range(n)]
    history = None
    if with_history:
        history = export(game, state)
        history["result"] = {**outcome.to_json(), "guard": guard}
    return MatchResult(
        plan.index, places, times, decisions, hands, elapsed, scores, outcome.no_winner, faults, guard, history
    )


def _play_job(job: Job) -> MatchResult:
    return play_match(*job)


Job = tuple[str, Mapping[str, Any], Sequence[str], MatchPlan, float, bool]


def _results(jobs: Sequence[Job], workers: int) -> Iterator[MatchResult]:
    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            yield _play_job(job)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(_play_job, jobs, chunksize=1)


def simulate(
    game_name: str,
    options: Mapping[str, Any],
    seats: Sequence[str],
    matches: int,
    seed: int,
    think_ms: float = 200.0,
    progress: bool = False,
    workers: int = 1,
    rotation: str = "none",
    export_dir: Path | None = None,
) -> ArenaResult:
    """Play ``matches`` matches between the entrants ``seats`` (player kinds), seated per ``rotation``.

    With ``export_dir``, each match's history (``sefode-history/1``, replayable with ``sefode replay``) is written
    there as ``match-0001.json``...; its ``result`` holds the outcome and, for a match the guard stopped, why."""
    game = get_game(game_name)
    options = game.validate_options(options)  # before starting any worker
    n = len(seats)
    stats = [SeatStats(i, kind) for i, kind in enumerate(seats)]
    plans = plan_matches(n, matches, seed, rotation)
    jobs: list[Job] = [
        (game_name, dict(options), list(seats), plan, think_ms, export_dir is not None) for plan in plans
    ]
    if export_dir is not None:
        export_dir.mkdir(parents=True, exist_ok=True)
    exported: list[str] = []
    guarded = 0
    first_guard: str | None = None
    decisions = hands = 0
    elapsed = 0.0
    pairs: dict[tuple[str, str], float] = {}
    no_winner = 0
    results = _results(jobs, workers)
    for result in tqdm(results, total=len(jobs), disable=not progress, file=sys.stderr, unit="match"):
        decisions += result.decisions
        hands += result.hands
        elapsed += result.elapsed_s
        for i, place in enumerate(result.places):
            for fault, count in (result.faults[i] if result.faults else {}).items():
                stats[i].faults[fault] = stats[i].faults.get(fault, 0) + count
            stats[i].places.append(place)
            stats[i].decision_s.extend(result.decision_s[i])
            if place == 1:
                stats[i].wins += 1
            if result.scores is not None:
                stats[i].scores.append(result.scores[i])
        no_winner += result.no_winner
        if result.guard is not None:
            guarded += 1
            first_guard = first_guard or result.guard
        if export_dir is not None and result.history is not None:
            path = export_dir / f"match-{result.index + 1:04d}.json"
            path.write_text(json.dumps(result.history, ensure_ascii=False), encoding="utf-8")
            exported.append(str(path))
        for i in range(n):
            for j in range(n):
                if i == j or seats[i] == seats[j]:
                    continue
                a, b = result.places[i], result.places[j]
                score = 1.0 if a < b else 0.5 if a == b else 0.0
                key = (seats[i], seats[j])
                pairs[key] = pairs.get(key, 0.0) + score
    return ArenaResult(
        matches, elapsed, decisions, hands, stats, rotation, workers, think_ms, pairs, no_winner, guarded, exported,
        first_guard,
    )  # fmt: skip


def format_table(result: ArenaResult) -> str:
    lines = [
        f"{result.matches} matches ({result.rotation} seating, {result.workers} worker(s)), {result.hands} hands, "
        f"{result.decisions} decisions, {result.elapsed_s:.2f} s of play"
        + (f", {result.no_winner} with no winner" if result.no_winner else "")
        + (f", {result.guarded} stopped by the guard against endless play" if result.guarded else ""),
        f"{'seat':>4}  {'player':<8} {'wins':>6} {'win %':>6} {'95% CI':>13} {'mean place':>10} {'p50 ms':>8} "
        f"{'p95 ms':>8}",
    ]
    for s in result.seats:
        row = s.to_json()
        share = 100.0 * s.wins / len(s.places) if s.places else 0.0
        low, high = row["win_share_ci95"]
        lines.append(
            f"{s.seat:>4}  {s.player:<8} {s.wins:>6} {share:>5.1f}% {100 * low:>5.1f}-{100 * high:>5.1f}% "
            f"{row['mean_place'] or 0:>10.3f} {row['decision_ms_p50']:>8.3f} {row['decision_ms_p95']:>8.3f}"
            + (f"  mean score {row['mean_score']:.1f}" if row["mean_score"] is not None else "")
        )
    for s in result.seats:
        if s.faults:
            causes = ", ".join(f"{n} {cause}" for cause, n in sorted(s.faults.items()))
            lines.append(f"seat {s.seat} ({s.player}) lost decisions to the default move: {causes}")
    if result.guard_reason:
        lines.append(f"the guard against endless play stopped {result.guarded} match(es): {result.guard_reason}")
    lines.append(f"{'kind':<8} {'played':>6} {'wins':>6} {'win %':>6} {'95% CI':>13} {'rating':>7}")
    for kind, row in result.kinds().items():
        low, high = row["win_share_ci95"]
        lines.append(
            f"{kind:<8} {row['played']:>6} {row['wins']:>6} {100 * (row['win_share'] or 0):>5.1f}% "
            f"{100 * low:>5.1f}-{100 * high:>5.1f}% {row['rating']:>7.1f}"
        )
    return "\n".join(lines)
