"""Move analysis of a finished match, for one seat (``sefode analyse``; issue 15 §3).

For each decision of the seat, the hard bot's search runs from that seat's information set at that moment: the
state is rebuilt from the history up to the decision, and the search sees it only through a :class:`Seen` of the
seat (every card the seat could not see is dealt again at random), so no hindsight enters the estimate. The result
gives what the seat chose, the move the hard bot prefers, and for every option the search's estimate: ``value``, the
mean reward of the generic search (from the placements, or the game's own ``SearchHooks.rewards``), and the game's
own figures (``SearchHooks.measures``: for Fodinha the chance to make the bid and the lives lost). A decision whose
value is much worse than the best option's is marked a ``mistake``.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from tqdm import tqdm

from sefode.bots.base import Seen
from sefode.bots.knowledge import hooks_for
from sefode.bots.search import ismcts
from sefode.engine import PLATFORM_ACTIONS, EngineError, Game, apply_entry, get_game
from sefode.history import FORMAT, TOP_KEYS, HistoryError

ANALYSIS_FORMAT = "sefode-analysis/1"
DEFAULT_THINK_MS = 500.0
MISTAKE_MARGIN = 0.15
"""A decision is a mistake when the chosen option's value is this much below the best option's (rewards are on a
0..1 scale per match or per hand), and the search tried it often enough to say so."""
MIN_VISITS = 24
TOP_UP = 48
"""Simulations of an option the search itself tried fewer than ``MIN_VISITS`` times, searched on its own."""

Progress = Callable[[int, int], None]


def _decisions(game: Game[Any], data: Mapping[str, Any], seat: int) -> Iterator[tuple[int, Any, Mapping[str, Any]]]:
    """Replay the history; yield ``(index, state before, entry)`` at each decision of ``seat`` (two or more legal
    actions), the state being the one the match was in at that moment."""
    if data.get("format") != FORMAT:
        raise HistoryError(f"'format' must be {FORMAT!r}")
    setup = {k: v for k, v in data.items() if k not in TOP_KEYS}
    state = game.new_match(data.get("options") or {}, data.get("seed"), setup)  # type: ignore[arg-type]
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise HistoryError("'actions' must be a list")
    for index, entry in enumerate(actions):
        if not isinstance(entry, Mapping):
            raise HistoryError(f"action {index} must be an object")
        who = entry.get("seat")
        platform = any(k in PLATFORM_ACTIONS for k in entry if k != "seat")
        if who == seat and not platform and seat in game.awaiting(state) and len(game.legal_actions(state, seat)) > 1:
            yield index, game.clone(state), entry
        try:
            apply_entry(game, state, who, entry)
        except EngineError as err:
            raise HistoryError(f"action {index}: {err}") from None


def count_decisions(data: Mapping[str, Any], seat: int, since: int = 0, until: int | None = None) -> int:
    game = get_game(data.get("game"))
    return sum(1 for index, _, _ in _decisions(game, data, seat) if index >= since and (until is None or index < until))


def _merge(a: dict[str, float] | None, b: dict[str, float]) -> dict[str, float]:
    """Two root statistics of one option (means weighted by their visits)."""
    if not a or not a.get("visits"):
        return dict(b)
    va, vb = a["visits"], b["visits"]
    out = {"visits": va + vb}
    for key in set(a) | set(b):
        if key != "visits":
            out[key] = (a.get(key, 0.0) * va + b.get(key, 0.0) * vb) / (va + vb)
    return out


def analyse_decision(
    game: Game[Any],
    state: Any,
    seat: int,
    entry: Mapping[str, Any],
    think_ms: float,
    rng: random.Random,
    max_iterations: int | None = None,
) -> dict[str, Any]:
    """The search's estimate of every option of one decision, from the seat's information set only."""
    seen = Seen(game, state, seat)
    legal = seen.legal_actions()
    labels = seen.legal_json()
    chosen = game.parse_action(state, seat, {k: v for k, v in entry.items() if k != "seat"})
    hooks = hooks_for(game)
    stats: dict[int, dict[str, float]] = {}
    searched, _ = ismcts(game, seen.determinize, seat, legal, hooks, rng, think_ms, max_iterations, root_stats=stats)
    # The search spends little on options it finds poor early; each such option is searched on its own as well, so
    # that every option's estimate rests on enough simulations to compare it with the best.
    for action in legal:
        have = stats.get(action, {}).get("visits", 0.0)
        if have >= MIN_VISITS:
            continue
        extra: dict[int, dict[str, float]] = {}
        ismcts(game, seen.determinize, seat, [action], hooks, rng, think_ms / 4, TOP_UP, root_stats=extra)
        if action in extra:
            stats[action] = _merge(stats.get(action), extra[action])
    quick = hooks.shortcut(seen.determinize(rng), seat, legal)
    preferred = quick if quick is not None and quick in legal else searched
    options = []
    for action, label in zip(legal, labels, strict=True):
        entry_stats = stats.get(action, {"visits": 0.0})
        option: dict[str, Any] = {"action": label["action"], "label": label["label"]}
        option["visits"] = int(entry_stats.get("visits", 0))
        for key, figure in entry_stats.items():
            if key != "visits":
                option[key] = round(figure, 4)
        options.append(option)
    tried = [o for o in options if o["visits"] >= MIN_VISITS and "value" in o]
    best = max((o["value"] for o in tried), default=None)
    mine = options[legal.index(chosen)]
    loss = round(best - mine["value"], 4) if best is not None and mine in tried else None
    return {
        "chosen": mine["action"],
        "chosen_label": mine["label"],
        "preferred": game.action_json(state, preferred),
        "preferred_label": game.describe_action(state, seat, preferred),
        "options": options,
        "loss": loss,
        "mistake": loss is not None and loss >= MISTAKE_MARGIN,
    }


def analyse(
    data: Mapping[str, Any],
    seat: int,
    think_ms: float = DEFAULT_THINK_MS,
    *,
    seed: int = 1,
    progress: Progress | None = None,
    bar: bool = False,
    max_iterations: int | None = None,
    since: int = 0,
    until: int | None = None,
) -> dict[str, Any]:
    """Analyse every decision of ``seat`` in the history ``data`` (a ``sefode-history/1`` object).

    ``progress(done, total)`` is called after each decision; ``bar`` shows a tqdm bar on stderr. ``max_iterations``
    caps each search by iterations as well as by ``think_ms`` (reproducible tests). Only the decisions at history index
    ``since`` or later, and before ``until`` when given, are analysed (the solo coach asks for the last hand's). Each
    decision says whether it is a ``headline`` one, a decision the game's hooks name as the one that shapes the hand
    (``SearchHooks.headline``: Fodinha's bid), which the solo coach always shows."""
    game = get_game(data.get("game"))
    seats = game.seats(game.new_match(data.get("options") or {}, data.get("seed") or 0, None))
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        raise HistoryError(f"seat must be from 0 to {seats - 1}, not {seat!r}")
    total = count_decisions(data, seat, since, until)
    hooks = hooks_for(game)
    rng = random.Random(seed)
    started = time.perf_counter()
    out: list[dict[str, Any]] = []
    with tqdm(total=total, disable=not bar, file=sys.stderr, unit="decision") as shown:
        for index, state, entry in _decisions(game, data, seat):
            if index < since:
                continue
            if until is not None and index >= until:
                break
            headline = hooks.headline(state, seat)
            result = {
                "index": index,
                **analyse_decision(game, state, seat, entry, think_ms, rng, max_iterations),
                "headline": headline,
            }
            out.append(result)
            shown.update(1)
            if progress is not None:
                progress(len(out), total)
    return {
        "format": ANALYSIS_FORMAT,
        "game": game.name,
        "seat": seat,
        "think_ms": think_ms,
        "information": "each decision is judged from what this seat knew then (its information set), never the "
        "other hands",
        "decisions": out,
        "mistakes": sum(1 for d in out if d["mistake"]),
        "elapsed_s": round(time.perf_counter() - started, 3),
    }


COACH_MOST = 3
"""The solo coach names at most this many decisions of a hand (its headline ones always)."""


def highlights(decisions: list[dict[str, Any]], most: int = COACH_MOST) -> list[int]:
    """The history indexes of the decisions the solo coach names, in the order of play: every ``headline`` decision
    (what the hard bot would have bid), then the marked mistakes, the costliest first, up to ``most`` in all. Empty
    when there is nothing worth saying (no headline decision and no mistake)."""
    chosen = [d["index"] for d in decisions if d.get("headline")]
    mistakes = sorted((d for d in decisions if d.get("mistake") and not d.get("headline")), key=lambda d: -d["loss"])
    for d in mistakes:
        if len(chosen) >= max(most, 1):
            break
        chosen.append(d["index"])
    return sorted(chosen)
