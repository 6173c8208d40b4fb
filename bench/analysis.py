"""How long the move analysis of a 10-hand Se Fode match takes (issue 15: within 60 s on this machine).

    .venv/bin/python bench/analysis.py [--think-ms 500] [--seat 0] [--no-mistake] [--coach]

Plays four-player Se Fode matches between normal bots (seeds 1, 2, …) until one lasts exactly 10 hands, then runs
``sefode.analysis.analyse`` for one seat at the CLI's default budget and prints the figures as JSON. Unless
``--no-mistake``, the analysed seat makes one deliberate mistake: in the first hand of three cards or more it bids the
legal bid farthest from the normal bot's own (an overbid with weak cards, an underbid with strong ones); the figures
say whether the analysis marks it, and list every decision it marks. ``--coach`` also times the solo coach on each
hand of the match as the server asks it (``sefode/server/routes/analysis.py``: the hand's decisions within
``COACH_BUDGET_S`` in all).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sefode.analysis import DEFAULT_THINK_MS, analyse, count_decisions
from sefode.bots.base import Seen
from sefode.bots.players import make_player
from sefode.engine import apply_entry, get_game
from sefode.games.fodinha.state import BIDDING
from sefode.history import export


def ten_hand_match(mistake_seat: int | None) -> tuple[int, dict[str, Any], int | None]:
    """``(seed, history, index of the deliberate mistake)``: the first match of exactly 10 hands (with the mistake
    made, when ``mistake_seat`` is a seat, and that seat in every hand of it)."""
    game = get_game("fodinha")
    for seed in range(1, 500):
        state = game.new_match({"variant": "sefode", "players": 4}, seed)
        players = [make_player("normal", seed * 10 + s) for s in range(4)]
        mistake: int | None = None
        while game.awaiting(state):
            seat = min(game.awaiting(state))
            seen = Seen(game, state, seat)
            action = players[seat].choose(seen)
            if seat == mistake_seat and mistake is None and state.phase == BIDDING and state.size >= 3:
                legal = seen.legal_actions()
                own = int(game.action_json(state, action)["bid"])
                far = max(legal, key=lambda a: abs(int(game.action_json(state, a)["bid"]) - own))
                if far != action:
                    mistake = len(game.history_actions(state))
                    action = far
            game.apply_fast(state, seat, action)
        hands = game.report(state)["hands"]
        played = mistake_seat is None or all(h["bids"][mistake_seat] is not None for h in hands)
        if len(hands) == 10 and played and (mistake_seat is None or mistake is not None):
            return seed, export(game, state), mistake
    raise RuntimeError("no 10-hand match in 500 seeds")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--think-ms", type=float, default=DEFAULT_THINK_MS)
    parser.add_argument("--seat", type=int, default=0)
    parser.add_argument("--no-mistake", action="store_true", help="no deliberate mistake: the bots' match as played")
    parser.add_argument("--coach", action="store_true", help="also time the solo coach on each hand")
    args = parser.parse_args()
    seed, history, mistake = ten_hand_match(None if args.no_mistake else args.seat)
    started = time.perf_counter()
    result = analyse(history, args.seat, args.think_ms, bar=True)
    elapsed = time.perf_counter() - started
    deliberate = next((d for d in result["decisions"] if d["index"] == mistake), None)
    coach = coach_times(history, args.seat) if args.coach else None
    print(
        json.dumps(
            {
                "match_seed": seed,
                "hands": 10,
                "seat": args.seat,
                "think_ms": args.think_ms,
                "decisions": len(result["decisions"]),
                "mistakes": result["mistakes"],
                "elapsed_s": round(elapsed, 2),
                "deliberate": None if deliberate is None else _brief(deliberate),
                "marked": [_brief(d) for d in result["decisions"] if d["mistake"]],
                "coach_s": None if coach is None else _spread(coach),
            }
        )
    )


def coach_times(history: dict[str, Any], seat: int) -> list[float]:
    """The solo coach's time on each hand of the match, as the server runs it (its budget spread over the hand)."""
    from sefode.server.routes.analysis import COACH_BUDGET_S

    game = get_game("fodinha")
    setup = {k: v for k, v in history.items() if k not in {"format", "game", "options", "seed", "actions", "result"}}
    state = game.new_match(history["options"], history["seed"], setup)
    ends: list[int] = []
    hand = state.hand_no
    for index, entry in enumerate(history["actions"]):
        apply_entry(game, state, entry["seat"], {k: v for k, v in entry.items() if k != "seat"})
        if state.hand_no != hand or not game.awaiting(state):
            ends.append(index + 1)
            hand = state.hand_no
    times = []
    since = 0
    for until in ends:
        total = count_decisions(history, seat, since, until)
        think_ms = min(DEFAULT_THINK_MS, COACH_BUDGET_S * 1000.0 / max(1, total))
        started = time.perf_counter()
        analyse(history, seat, think_ms, since=since, until=until)
        times.append(time.perf_counter() - started)
        since = until
    return times


def _spread(times: list[float]) -> dict[str, Any]:
    return {"hands": len(times), "max": round(max(times), 2), "mean": round(sum(times) / len(times), 2)}


def _brief(d: dict[str, Any]) -> dict[str, Any]:
    return {
        "index": d["index"],
        "chosen": d["chosen"],
        "preferred": d["preferred"],
        "loss": d["loss"],
        "mistake": d["mistake"],
    }


if __name__ == "__main__":
    main()
