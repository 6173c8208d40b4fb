"""One Man's Trash hand-written histories (``tests/histories/trash/*.json``), replayed against their companions.

Each ``<name>.json`` is a ``sefode-history/1`` file written by hand for one paragraph of seed 004 or one ruling
of docs/rulings.md §3; ``<name>.expect.json`` holds what its replay must give, worked out by hand: ``exit`` (0, or 2
when an action or the setup is refused), ``error`` (``null`` or its ``index`` and ``code``) and any of the
report keys ``sefode replay`` prints (``over``, ``winner``, ``placements``, ``turns``, ``out``, ``piles``,
``hand_sizes``).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sefode.engine import get_game
from sefode.history import export, replay, replay_file

HERE = Path(__file__).parent / "histories" / "trash"
HISTORIES = sorted(p for p in HERE.glob("*.json") if not p.name.endswith(".expect.json"))
ROOT = Path(__file__).parent.parent
REPORT_KEYS = {"over", "winner", "placements", "turns", "out", "piles", "hand_sizes", "error"}

# Which paragraph of seed 004 / ruling of docs/rulings.md §3 each history covers; every one must be covered.
COVERAGE: dict[str, list[str]] = {
    "seed § requirements (jokers are the Collectors)": ["requirements_jokers_are_collectors"],
    "seed § requirements (no jokers: two aces out, two aces Collectors)": [
        "requirements_no_jokers_aces_are_collectors",
        "bad_no_jokers_three_aces",
        "bad_no_jokers_joker_dealt",
    ],
    "seed § setup": ["setup_from_the_seed", "issue_example"],
    "seed ¶ drawnormal": ["draw_takes_the_top_card"],
    "seed ¶ drawempty": ["bad_draw_from_an_empty_draw_pile"],
    "seed ¶ trashvalid": ["trash_one_rank_away", "bad_trash_two_ranks_away"],
    "seed ¶ trashwraparound": [
        "trash_wraparound_jokers_a_and_k",
        "trash_wraparound_no_jokers_k_and_2",
        "bad_wraparound_k_on_2_with_jokers",
    ],
    "seed ¶ trashmultiple": ["trash_several_of_one_rank", "bad_trash_mixed_ranks"],
    "seed ¶ trashmultiplepiles": ["bad_trash_on_two_piles"],
    "seed ¶ trashwild": ["trash_any_card_on_a_collector_takes_it"],
    "seed ¶ trashplayoncollector": ["trash_any_card_on_a_collector_takes_it", "trash_several_on_a_collector"],
    "seed ¶ trashplaycollector": ["bad_trash_a_collector", "bad_trash_an_ace_collector_without_jokers"],
    "seed ¶ collectplay": ["collect_a_pile"],
    "seed ¶ collectcollector": ["collect_a_lone_collector_is_a_null_move"],
    "seed ¶ collectsingle": ["bad_collect_two_piles", "bad_collect_without_a_collector"],
    "seed ¶ littercreate": ["litter_a_new_pile_to_the_right", "bad_litter_two_cards"],
    "seed ¶ litterrestriction": [
        "bad_litter_a_playable_card",
        "bad_litter_with_a_collector_on_the_table",
        "bad_litter_a_collector",
    ],
    "seed ¶ swaptop": ["swap_one_card"],
    "seed ¶ swapmultiple": ["swap_two_eights_for_two_fours", "bad_swap_more_cards_than_the_top_run"],
    "seed ¶ swaprestriction": [
        "bad_swap_a_playable_card",
        "bad_swap_the_same_rank",
        "bad_swap_with_a_collector_on_the_table",
    ],
    "seed § gameplay (an empty hand without a win puts the player out)": [
        "out_by_trashing_the_last_cards",
        "out_by_littering_the_last_card",
    ],
    "seed § winning (four of a kind empties the hand)": ["win_with_four_of_a_kind"],
    "seed § winning (not on a Collector)": ["four_of_a_kind_on_a_collector_is_no_win"],
    "seed § winning (the last remaining player loses)": ["last_player_left_loses_no_winner"],
    "docs/rulings.md §3.2 no jokers: the deal may hold any two aces": ["no_jokers_deal_names_the_collector_aces"],
    "docs/rulings.md §3.3 turn order and one action per turn": ["bad_out_of_turn", "bad_two_actions_in_one_turn"],
    "docs/rulings.md §3.5 100 turns per player: no winner": [
        "turn_limit_100_turns_each_no_winner",
        "bad_play_after_the_turn_limit",
    ],
    "docs/rulings.md §3.6 the pile invariant (top card only)": [
        "swap_two_eights_for_two_fours",
        "bad_trash_looks_at_the_top_card_only",
        "issue_example",
    ],
    "docs/rulings.md §3.7 several cards on a Collector": ["trash_several_on_a_collector"],
    "docs/rulings.md §3.8 multi-card swap": ["swap_two_eights_for_two_fours"],
    "docs/rulings.md §3.9 null collect": ["collect_a_lone_collector_is_a_null_move"],
    "docs/rulings.md §3.10 trashing the last cards without four of a kind puts out": ["out_by_trashing_the_last_cards"],
    "docs/rulings.md §3.11 the new pile to the right; empty Draw Pile, never reshuffled": [
        "litter_a_new_pile_to_the_right",
        "bad_draw_from_an_empty_draw_pile",
    ],
    "docs/rulings.md §3.12 places": ["places_winner_still_in_and_exits", "win_with_four_of_a_kind"],
}


def _expect(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.with_name(path.stem + ".expect.json").read_text(encoding="utf-8"))
    return data


def _check(result: dict[str, Any], expect: dict[str, Any]) -> None:
    if expect["error"] is None:
        assert result["error"] is None, result["error"]
    else:
        assert result["error"] is not None
        assert result["error"]["index"] == expect["error"]["index"]
        assert result["error"]["code"] == expect["error"]["code"]
        assert isinstance(result["error"]["message"], str) and result["error"]["message"]
    for key, value in expect.items():
        if key in ("exit", "error"):
            continue
        assert result[key] == value, f"{key}: {result[key]!r} != {value!r}"


def test_every_history_has_an_expect_companion_and_no_companion_is_orphaned() -> None:
    assert len(HISTORIES) >= 40
    for path in HISTORIES:
        assert path.with_name(path.stem + ".expect.json").is_file(), path.name
    for companion in HERE.glob("*.expect.json"):
        assert companion.with_name(companion.name.replace(".expect.json", ".json")).is_file(), companion.name


def test_histories_cover_every_paragraph_and_ruling() -> None:
    names = {p.stem for p in HISTORIES}
    for row, files in COVERAGE.items():
        assert files, row
        for name in files:
            assert name in names, f"{row}: {name}"


@pytest.mark.parametrize("path", HISTORIES, ids=lambda p: p.stem)
def test_history_replays_to_its_expected_output(path: Path) -> None:
    result = replay_file(path).result()
    expect = _expect(path)
    _check(result, expect)
    assert (result["error"] is not None) == (expect["exit"] == 2)
    if result["error"] is None or result["error"]["index"] is not None:
        assert set(result) >= REPORT_KEYS, sorted(REPORT_KEYS - set(result))


@pytest.mark.parametrize(
    "name",
    ["issue_example", "win_with_four_of_a_kind", "bad_trash_on_two_piles", "bad_no_jokers_three_aces"],
)
def test_sefode_replay_command_prints_the_report(name: str) -> None:
    path = HERE / f"{name}.json"
    done = subprocess.run(
        [sys.executable, "-m", "sefode", "replay", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    expect = _expect(path)
    assert done.returncode == expect["exit"], done.stderr
    printed = json.loads(done.stdout)
    _check(printed, expect)
    here = replay_file(path).result()
    for result in (printed, here):
        if result["error"] is not None:
            del result["error"]["message"]
    assert printed == here


def _random_match(options: dict[str, Any], seed: int) -> tuple[Any, Any]:
    game = get_game("trash")
    state = game.new_match(options, seed)
    rng = random.Random(seed)
    while game.outcome(state) is None:
        (seat,) = game.awaiting(state)
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    return game, state


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 4, "jokers": False}, {"players": 6}])
def test_export_of_a_finished_random_match_replays_to_the_same_result(options: dict[str, Any]) -> None:
    for seed in range(4):
        game, state = _random_match(options, seed)
        history = export(game, state)
        assert history["first"] == state.first and "deal" not in history
        again = replay(json.loads(json.dumps(history))).result()
        assert again["error"] is None and again["over"] is True
        assert again["placements"] == list(game.outcome(state).placements)
        for key in ("winner", "turns", "out", "piles", "hand_sizes"):
            assert again[key] == game.report(state)[key]


def test_export_of_a_preset_deal_keeps_the_deal() -> None:
    path = HERE / "issue_example.json"
    first = replay_file(path)
    game, state = first.game, first.state
    assert game is not None
    history = export(game, state)
    assert history["deal"]["hands"][0] == ["7c", "7d", "Qh", "X1"]
    assert len(history["deal"]["draw"]) == 54 - 10 - 3
    again = replay(json.loads(json.dumps(history))).result()
    assert again == first.result()
