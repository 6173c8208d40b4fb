"""Guimenon figures: random playout speed and the bot targets of issue 13.

    .venv/bin/python bench/guimenon.py speed --playouts 3000
    .venv/bin/python bench/guimenon.py arena --matches 400 --matches-hard 100 --think-ms 200
    .venv/bin/python bench/guimenon.py last-turn --matches 60 [--before]
    .venv/bin/python bench/guimenon.py simulate --game guimenon --seats normal,old-normal --matches 60
    .venv/bin/python bench/guimenon.py passes DIR
    .venv/bin/python bench/guimenon.py cards DIR semente-lunar fornalha

``speed`` times whole random matches (easy-bot turns: random cards at random revealed Locations, no
take-backs) from a fresh match, two ways: the search path (a clone of the fresh match with the turn
record off, then ``apply_fast``) and the checked path with the record on (``new_match`` + ``apply``).
It prints the median and the playouts per second.

``arena`` plays the targets with duplicate seating (every deal twice, seats and the decks that go with
them swapped): normal vs easy (target >= 65%) and hard vs normal (target >= 60%). A drawn match counts
half to each side in the score; par is 50%.

``last-turn`` (issue 27) plays normal against normal (random ready decks, seeds ``seed`` to ``seed + matches - 1``)
and counts the seats that confirmed turn 6 with nothing placed while they could have placed a card, and how many
of those did not win. ``--before`` gives both seats the turn-6 policy of before issue 27 (the greedy turn of the
other turns, which scores a finished match only as win, draw or loss), to measure the change on the same deals.

``simulate`` is ``sefode simulate`` (the same arguments) with one more player kind, ``old-normal``: the normal bot
with the turn-6 policy of before issue 27, for normal against old-normal and old-normal self-play (one worker: the
kind exists in this process only). ``passes`` reads the histories that ``sefode simulate --export DIR`` wrote, replays
each, and counts the seats that confirmed turn 6 with nothing placed while a placement was legal. ``cards`` reads
the same histories and gives, for each card named, on which turns it was played (confirmed) and its owner's share
(a draw counts half) when it was played on turn 6 and when earlier, and, mirror matches left out, when its owner
drew it by the end of the match (played it, held it or discarded it) and when not.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sefode import cli
from sefode.arena import MatchPlan, plan_matches, play_match, wilson_interval
from sefode.bots.base import Seen
from sefode.bots.levels import NormalPlayer
from sefode.bots.players import KINDS, PlayerFactory, make_player
from sefode.engine import Action, apply_entry, get_game
from sefode.games.guimenon import Guimenon
from sefode.games.guimenon import bots as guimenon_bots
from sefode.games.guimenon.bots import hooks_of, random_turn_action
from sefode.games.guimenon.game import CONFIRM, PLACE, TAKE_BACK
from sefode.games.guimenon.rules import CARDS, CARDSET
from sefode.history import TOP_KEYS, read_file

GAME = Guimenon()


def speed(playouts: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    fresh = [GAME.new_match({}, seed + i) for i in range(64)]
    for st in fresh:
        st.recording = False
        st.records = []
    fast: list[float] = []
    checked: list[float] = []
    clock = time.perf_counter
    for i in range(playouts):
        st = GAME.clone(fresh[i % len(fresh)])
        t0 = clock()
        while not st.over:
            for s in (0, 1):
                while not st.confirmed[s] and not st.over:
                    GAME.apply_fast(st, s, random_turn_action(st, s, GAME.legal_actions(st, s), rng))
        fast.append(clock() - t0)
        t0 = clock()
        st = GAME.new_match({}, seed + i)
        while not st.over:
            for s in (0, 1):
                while not st.confirmed[s] and not st.over:
                    GAME.apply(st, s, random_turn_action(st, s, GAME.legal_actions(st, s), rng))
        checked.append(clock() - t0)
    med_fast, med_checked = statistics.median(fast), statistics.median(checked)
    return {
        "playouts": playouts,
        "search_path_ms_median": round(med_fast * 1000, 4),
        "search_path_playouts_per_s": round(1 / med_fast),
        "checked_path_ms_median": round(med_checked * 1000, 4),
        "checked_path_playouts_per_s": round(1 / med_checked),
    }


def arena(kinds: list[str], matches: int, seed: int, think_ms: float) -> dict[str, Any]:
    hooks_of(get_game("guimenon")).think_ms = think_ms  # the game object play_match plays
    plans: list[MatchPlan] = plan_matches(2, matches, seed, "duplicate")
    score = 0.0
    wins = draws = 0
    hard_ms: list[float] = []
    t0 = time.perf_counter()
    for plan in plans:
        result = play_match("guimenon", {}, kinds, plan, think_ms)
        mine, theirs = result.places
        if mine == theirs:
            draws += 1
            score += 0.5
        elif mine < theirs:
            wins += 1
            score += 1.0
        hard_ms.extend(d * 1000 for d in result.decision_s[0])
    low, high = wilson_interval(round(score), matches)
    hard_ms.sort()
    return {
        "seats": kinds,
        "matches": matches,
        "wins": wins,
        "draws": draws,
        "score_share": round(score / matches, 4),
        "score_ci95": [round(low, 4), round(high, 4)],
        "think_ms": think_ms,
        "decision_ms_p50": round(hard_ms[len(hard_ms) // 2], 3) if hard_ms else None,
        "decision_ms_max": round(hard_ms[-1], 3) if hard_ms else None,
        "elapsed_s": round(time.perf_counter() - t0, 1),
    }


def last_turn(matches: int, seed: int, before: bool) -> dict[str, Any]:
    if before:
        guimenon_bots.last_turn_plan = guimenon_bots.greedy_plan
    passed = passed_not_won = 0
    t0 = time.perf_counter()
    for m in range(matches):
        st = GAME.new_match({}, seed + m)
        players = [make_player("normal", seed * 1_000_003 + m * 16 + i) for i in range(2)]
        could = [False, False]
        while GAME.awaiting(st):
            for s in sorted(GAME.awaiting(st)):
                while s in GAME.awaiting(st):
                    legal = GAME.legal_actions(st, s)
                    action = players[s].choose(Seen(GAME, st, s))
                    if st.turn == 6 and action == CONFIRM and not st.pending[s]:
                        could[s] = any(PLACE <= a < TAKE_BACK for a in legal)
                    GAME.apply(st, s, action)
        outcome = GAME.outcome(st)
        assert outcome is not None
        for s in (0, 1):
            won = outcome.placements[s] < outcome.placements[1 - s]
            if could[s]:
                passed += 1
                passed_not_won += not won
    return {
        "policy": "before" if before else "after",
        "matches": matches,
        "seats": 2 * matches,
        "passed_turn_6_holding_a_playable_card": passed,
        "of_which_did_not_win": passed_not_won,
        "elapsed_s": round(time.perf_counter() - t0, 1),
    }


class OldNormalPlayer(NormalPlayer):
    """The normal bot with the turn-6 policy of before issue 27 (its greedy turn, no reply modelled)."""

    kind = "old-normal"

    def choose(self, seen: Seen) -> Action:
        new = guimenon_bots.last_turn_plan
        guimenon_bots.last_turn_plan = guimenon_bots.greedy_plan
        try:
            return super().choose(seen)
        finally:
            guimenon_bots.last_turn_plan = new


def simulate_with_old_normal(argv: list[str]) -> int:
    """``sefode simulate`` with the ``old-normal`` kind added (it exists in this process only: one worker)."""
    kinds: dict[str, PlayerFactory] = KINDS  # type: ignore[assignment]  # a dict at run time
    kinds["old-normal"] = OldNormalPlayer
    return cli.main(["simulate", *argv])


def passes(folder: Path) -> dict[str, Any]:
    """Turn-6 passes holding a playable card over the histories ``sefode simulate --export`` wrote (every seat
    counted alike: export self-play, ``normal,normal`` or ``old-normal,old-normal``)."""
    seats = passed = not_won = 0
    files = sorted(folder.glob("*.json"))
    for path in files:
        data = read_file(path)
        setup = {k: v for k, v in data.items() if k not in TOP_KEYS}
        st = GAME.new_match(data.get("options", {}), data["seed"], setup)
        could = [False, False]
        for entry in data["actions"]:
            seat = entry["seat"]
            if st.turn == 6 and GAME.parse_action(st, seat, entry) == CONFIRM and not st.pending[seat]:
                could[seat] = any(PLACE <= a < TAKE_BACK for a in GAME.legal_actions(st, seat))
            apply_entry(GAME, st, seat, entry)
        outcome = GAME.outcome(st)
        assert outcome is not None, f"{path} does not end"
        for s in (0, 1):
            seats += 1
            if could[s]:
                passed += 1
                not_won += outcome.placements[s] >= outcome.placements[1 - s]
    return {
        "histories": len(files),
        "seats": seats,
        "passed_turn_6_holding_a_playable_card": passed,
        "of_which_did_not_win": not_won,
    }


def _replayed(path: Path) -> tuple[Any, list[tuple[int, int, list[int]]]]:
    """A history's final state and each confirm as (turn, seat, the cards it placed)."""
    data = read_file(path)
    st = GAME.new_match(data.get("options", {}), data["seed"], {k: v for k, v in data.items() if k not in TOP_KEYS})
    confirms = []
    for entry in data["actions"]:
        seat = entry["seat"]
        if GAME.parse_action(st, seat, entry) == CONFIRM:
            confirms.append((st.turn, seat, [card for card, _ in st.pending[seat]]))
        apply_entry(GAME, st, seat, entry)
    return st, confirms


def cards_by_turn(folder: Path, ids: list[str]) -> dict[str, Any]:
    """On which turns each card of ``ids`` was played, its owner's share when it was played on turn 6 and before,
    and (mirror matches left out) when its owner drew it by the end and when not."""
    index = {CARDSET.by_id[i].index: i for i in ids}
    turns: dict[str, list[int]] = {i: [0] * 6 for i in ids}
    keys = ("turn_6", "turns_1_5", "drawn", "not_drawn")
    score: dict[str, dict[str, list[float]]] = {i: {k: [] for k in keys} for i in ids}
    for path in sorted(folder.glob("*.json")):
        st, confirms = _replayed(path)
        outcome = GAME.outcome(st)
        assert outcome is not None, f"{path} does not end"
        mine, theirs = outcome.placements, outcome.placements[::-1]
        shares = [0.5 if mine[s] == theirs[s] else 1.0 if mine[s] < theirs[s] else 0.0 for s in (0, 1)]
        played: list[set[int]] = [set(), set()]
        for turn, seat, placed in confirms:
            played[seat].update(placed)
            for card in placed:
                if card in index:
                    turns[index[card]][turn - 1] += 1
                    score[index[card]]["turn_6" if turn == 6 else "turns_1_5"].append(shares[seat])
        if sorted(st.deck_lists[0]) == sorted(st.deck_lists[1]):
            continue
        for seat in (0, 1):
            for card, cid in index.items():
                if CARDS[card].id in st.deck_lists[seat]:
                    held = card in played[seat] or card in st.hand[seat] or card in st.discard[seat]
                    score[cid]["drawn" if held else "not_drawn"].append(shares[seat])
    return {
        i: {
            "played_by_turn": turns[i],
            **{f"share_{k}": [round(sum(v) / len(v), 3) if v else None, len(v)] for k, v in score[i].items()},
        }
        for i in ids
    }


def main() -> None:
    if sys.argv[1:2] == ["simulate"]:  # every other argument is sefode simulate's
        sys.exit(simulate_with_old_normal(sys.argv[2:]))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    sp = sub.add_parser("speed")
    sp.add_argument("--playouts", type=int, default=3000)
    sp.add_argument("--seed", type=int, default=1)
    ar = sub.add_parser("arena")
    ar.add_argument("--matches", type=int, default=400)
    ar.add_argument("--matches-hard", type=int, default=100)
    ar.add_argument("--think-ms", type=float, default=200.0)
    ar.add_argument("--seed", type=int, default=1)
    ar.add_argument("--only", choices=["normal", "hard"], default=None)
    lt = sub.add_parser("last-turn")
    lt.add_argument("--matches", type=int, default=60)
    lt.add_argument("--seed", type=int, default=1)
    lt.add_argument("--before", action="store_true")
    sub.add_parser("simulate", help="sefode simulate with the old-normal kind (see above)")
    pa = sub.add_parser("passes")
    pa.add_argument("folder", type=Path)
    ca = sub.add_parser("cards")
    ca.add_argument("folder", type=Path)
    ca.add_argument("ids", nargs="+")
    args = parser.parse_args()
    if args.what == "cards":
        print(json.dumps(cards_by_turn(args.folder, args.ids)))
        return
    if args.what == "passes":
        print(json.dumps(passes(args.folder)))
        return
    if args.what == "last-turn":
        print(json.dumps(last_turn(args.matches, args.seed, args.before)))
        return
    if args.what == "speed":
        print(json.dumps(speed(args.playouts, args.seed)))
        return
    if args.only in (None, "normal"):
        print(json.dumps(arena(["normal", "easy"], args.matches, args.seed, args.think_ms)))
    if args.only in (None, "hard"):
        print(json.dumps(arena(["hard", "normal"], args.matches_hard, args.seed + 7, args.think_ms)))


if __name__ == "__main__":
    main()
