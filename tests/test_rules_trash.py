"""One Man's Trash: one test per paragraph of seed 004 and per ruling of docs/rulings.md §3, each named after it.

Most replay a hand-written history of ``tests/histories/trash/`` and look further into the state; the
others build a position with a ``deal`` and ask the engine what is legal.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sefode.cards import standard_code
from sefode.engine import IllegalAction, InvalidOptions, get_game
from sefode.games.trash import Trash, TrashState
from sefode.games.trash.rules import DRAW, TURN_LIMIT, adjacency
from sefode.history import Replay, replay, replay_file

HISTORIES = Path(__file__).parent / "histories" / "trash"
GAME = Trash()


def run(name: str) -> Replay:
    done = replay_file(HISTORIES / f"{name}.json")
    assert done.state is not None
    return done


def position(hands: list[list[str]], piles: list[list[str]], jokers: bool = True, first: int = 0) -> TrashState:
    deal = {"hands": hands, "piles": piles}
    return GAME.new_match({"players": len(hands), "jokers": jokers}, 5, {"deal": deal, "first": first})


def legal(st: TrashState) -> list[dict[str, Any]]:
    return [GAME.action_json(st, a) for a in GAME.legal_actions(st, st.turn)]


def c(name: str) -> int:
    return standard_code(name)


def deck_of(st: TrashState) -> list[int]:
    return sorted([x for h in st.hands for x in h] + [x for p in st.piles for x in p] + st.draw)


# ------------------------------------------------------------------ § requirements
def test_requirements_2_to_6_players() -> None:
    for n in range(2, 7):
        assert GAME.seats(GAME.new_match({"players": n}, 1)) == n
    for n in (1, 7):
        with pytest.raises(InvalidOptions):
            GAME.new_match({"players": n}, 1)
    assert get_game("trash").spec.seats_option == "players"


def test_requirements_jokers_are_the_trash_collectors_54_cards() -> None:
    st = GAME.new_match({"players": 3}, 11)
    assert st.collectors == {c("X1"), c("X2")}
    assert deck_of(st) == list(range(54))
    done = run("requirements_jokers_are_collectors")
    assert done.state.hands[0].count(c("X1")) == 0 and done.state.piles[1] == [c("X1")]


def test_requirements_without_jokers_two_aces_removed_from_the_seed_the_others_collect() -> None:
    removed = set()
    for seed in range(30):
        st = GAME.new_match({"players": 3, "jokers": False}, seed)
        deck = deck_of(st)
        assert len(deck) == 50 and c("X1") not in deck and c("X2") not in deck
        aces = [x for x in deck if x < 4]
        assert len(aces) == 2 and set(aces) == st.collectors
        removed.add(frozenset(range(4)) - st.collectors)
    assert len(removed) > 2, "which aces leave the deck is drawn from the seed"
    done = run("requirements_no_jokers_aces_are_collectors")
    assert done.state.collectors == {c("Ah"), c("As")}


def test_rulings_no_jokers_a_deal_may_hold_any_two_aces_and_they_collect() -> None:
    done = run("no_jokers_deal_names_the_collector_aces")
    assert done.state.collectors == {c("Ac"), c("Ad")}
    assert c("Ac") in done.state.hands[0]  # picked up by trashing on it
    for name in ("bad_no_jokers_three_aces", "bad_no_jokers_joker_dealt"):
        assert run_error(name) == (None, "options/invalid")


def run_error(name: str) -> tuple[int | None, str]:
    result = replay_file(HISTORIES / f"{name}.json").result()
    assert result["error"] is not None
    return result["error"]["index"], result["error"]["code"]


# ------------------------------------------------------------------ § setup
def test_setup_three_cards_each_three_piles_the_rest_face_down() -> None:
    for n in range(2, 7):
        st = GAME.new_match({"players": n}, n)
        assert [len(h) for h in st.hands] == [3] * n
        assert [len(p) for p in st.piles] == [1, 1, 1]
        assert len(st.draw) == 54 - 3 * n - 3
    result = run("setup_from_the_seed").result()
    assert result["hand_sizes"] == [3, 3, 3, 3] and len(result["piles"]) == 3


def test_rulings_turn_order_starts_at_a_random_seat_and_first_fixes_it() -> None:
    firsts = {GAME.new_match({"players": 4}, seed).first for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    st = GAME.new_match({"players": 4}, 3, {"first": 2})
    assert GAME.awaiting(st) == {2}
    assert run_error("bad_out_of_turn") == (0, "action/not_your_turn")


def test_rulings_exactly_one_action_per_turn() -> None:
    assert run_error("bad_two_actions_in_one_turn") == (0, "action/invalid")
    done = run("issue_example")
    assert [s for s, _ in done.state.log] == [1, 2, 0, 1, 2, 0]


# ------------------------------------------------------------------ § rules: the piles
def test_rules_a_pile_is_a_stack_or_a_lone_collector() -> None:
    with pytest.raises(InvalidOptions, match="on its own"):
        position([["5c"], ["6c"]], [["X1", "7h"], ["8d"]])


# ------------------------------------------------------------------ § draw
def test_drawnormal_draw_one_card_from_the_top() -> None:
    done = run("draw_takes_the_top_card")
    assert done.state.drawn == [c("Kc"), c("Qs")]
    assert len(done.state.draw) == 54 - 6 - 3 - 2


def test_drawempty_no_drawing_from_an_empty_draw_pile_never_reshuffled() -> None:
    assert run_error("bad_draw_from_an_empty_draw_pile") == (1, "action/draw_empty")
    done = run("bad_draw_from_an_empty_draw_pile")
    assert DRAW not in GAME.legal_actions(done.state, 1)
    assert done.state.draw == []


# ------------------------------------------------------------------ § trash a card
def test_trashvalid_no_more_than_one_rank_away_suits_do_not_matter() -> None:
    done = run("trash_one_rank_away")
    assert [len(p) for p in done.state.piles] == [4, 1, 1]
    assert run_error("bad_trash_two_ranks_away") == (0, "action/does_not_fit")
    st = position([["6h", "7s", "8d", "9c"], ["2c"]], [["7c"], ["Kd"], ["Kh"]])
    trashes = {tuple(a["trash"]) for a in legal(st) if "trash" in a and a["pile"] == 0}
    assert trashes == {("6h",), ("7s",), ("8d",)}


def test_trashwraparound_with_jokers_aces_low_a_and_k_adjacent() -> None:
    assert sorted(adjacency(True)[0]) == [0, 1, 12]
    assert run("trash_wraparound_jokers_a_and_k").result()["piles"][0] == ["Kc", "Ac", "Kh"]
    assert run_error("bad_wraparound_k_on_2_with_jokers") == (0, "action/does_not_fit")


def test_trashwraparound_aces_as_collectors_k_and_2_adjacent() -> None:
    assert sorted(adjacency(False)[12]) == [1, 11, 12]
    assert run("trash_wraparound_no_jokers_k_and_2").result()["piles"][:2] == [["2c", "Kc"], ["Kh", "2s"]]


def test_trashmultiple_several_cards_of_one_rank_together() -> None:
    assert run("trash_several_of_one_rank").result()["piles"][0] == ["6c", "7h", "7s", "7d"]
    assert run_error("bad_trash_mixed_ranks") == (0, "action/mixed_ranks")
    st = position([["7h", "7s", "7d"], ["2c"]], [["6c"], ["Kd"], ["Kh"]])
    on_zero = [a["trash"] for a in legal(st) if "trash" in a and a["pile"] == 0]
    assert len(on_zero) == 7  # every non-empty set of the three sevens


def test_trashmultiplepiles_one_pile_per_turn() -> None:
    assert run_error("bad_trash_on_two_piles") == (0, "action/two_piles")


def test_trashwild_any_card_on_a_collector() -> None:
    st = position([["2c", "9d", "Kh"], ["5c"]], [["X1"], ["6c"], ["7h"]])
    targets = {(a["trash"][0], a["pile"]) for a in legal(st) if "trash" in a}
    assert {("2c", 0), ("9d", 0), ("Kh", 0)} <= targets


def test_trashplayoncollector_the_collector_goes_to_the_hand() -> None:
    done = run("trash_any_card_on_a_collector_takes_it")
    assert c("X2") in done.state.hands[0] and c("X2") in done.state.known[0]
    assert done.state.piles[0] == [c("9d"), c("8c")]


def test_rulings_several_cards_on_a_collector_take_it_never_a_win() -> None:
    done = run("trash_several_on_a_collector")
    assert done.state.piles[1] == [c("5c"), c("5h")] and c("X1") in done.state.hands[0]
    four = run("four_of_a_kind_on_a_collector_is_no_win")
    assert four.result()["winner"] is None and four.state.hands[0] == [c("X1")]
    assert 0 not in four.state.out and four.state.alive[0]


def test_trashplaycollector_collectors_cannot_be_trashed() -> None:
    assert run_error("bad_trash_a_collector") == (0, "action/collector")
    assert run_error("bad_trash_an_ace_collector_without_jokers") == (0, "action/collector")
    st = position([["X1", "X2", "5h"], ["5c"]], [["4c"], ["6c"], ["7h"]])
    assert all("X" not in card for a in legal(st) for card in a.get("trash", []))


# ------------------------------------------------------------------ § collect the trash
def test_collectplay_collect_a_pile_leave_a_collector() -> None:
    done = run("collect_a_pile")
    st = done.state
    assert sorted(st.hands[0]) == sorted([c("3c"), c("4c"), c("5h"), c("6s")])
    assert st.piles[0] == [c("Td")]  # the Collector left there was then taken by seat 1
    assert c("X1") in st.hands[1]


def test_collectcollector_collecting_a_lone_collector_is_a_null_move() -> None:
    done = run("collect_a_lone_collector_is_a_null_move")
    assert done.state.piles[0] == [c("X1")] and c("X2") in done.state.hands[0]


def test_collectsingle_one_pile_and_one_collector_per_turn() -> None:
    assert run_error("bad_collect_two_piles") == (0, "action/two_piles")
    assert run_error("bad_collect_without_a_collector") == (0, "action/no_collector")
    st = position([["X1", "X2", "5h"], ["5c"]], [["4c"], ["6c"], ["7h"]])
    collects = [a for a in legal(st) if "collect" in a]
    assert collects == [{"collect": 0}, {"collect": 1}, {"collect": 2}]
    GAME.apply(st, 0, GAME.parse_action(st, 0, {"collect": 1}))
    assert sum(1 for x in st.hands[0] if x in st.collectors) == 1  # one Collector played


# ------------------------------------------------------------------ § litter
def test_littercreate_one_card_makes_a_new_pile_to_the_right() -> None:
    result = run("litter_a_new_pile_to_the_right").result()
    assert result["piles"][3] == ["2c", "3d"]
    assert run_error("bad_litter_two_cards") == (0, "action/litter_many")


def test_litterrestriction_no_new_pile_with_a_playable_card_or_a_collector() -> None:
    assert run_error("bad_litter_a_playable_card") == (0, "action/litter_playable")
    assert run_error("bad_litter_with_a_collector_on_the_table") == (0, "action/litter_playable")
    assert run_error("bad_litter_a_collector") == (0, "action/litter_collector")
    st = position([["2c", "7h", "X1"], ["5c"]], [["6c"], ["Jd"], ["Jh"]])
    assert [a for a in legal(st) if "litter" in a] == [{"litter": "2c"}]


# ------------------------------------------------------------------ § swap
def test_swaptop_swap_a_card_with_the_top_card() -> None:
    done = run("swap_one_card")
    assert done.state.piles[1] == [c("2c")] and c("7d") in done.state.hands[0]
    assert c("7d") in done.state.known[0]


def test_swapmultiple_k_cards_of_one_rank_for_the_top_k_of_one_rank() -> None:
    done = run("swap_two_eights_for_two_fours")
    assert sorted(done.state.known[0]) == sorted([c("4h"), c("4s")])
    assert run_error("bad_swap_more_cards_than_the_top_run") == (0, "action/swap_count")
    st = position([["8c", "8d", "8h"], ["5c"]], [["Jc", "4h", "4s"], ["Kd"], ["Tc"]])
    swaps = [a for a in legal(st) if "swap" in a]
    # one or two eights for pile 0 (two fours on top), one eight for the others
    assert sum(1 for a in swaps if a["pile"] == 0) == 3 + 3
    assert all(len(a["swap"]) == 1 for a in swaps if a["pile"] != 0)


def test_swaprestriction_not_a_playable_card_not_the_same_rank_not_with_a_collector_out() -> None:
    assert run_error("bad_swap_a_playable_card") == (0, "action/swap_playable")
    assert run_error("bad_swap_the_same_rank") == (0, "action/swap_playable")
    assert run_error("bad_swap_with_a_collector_on_the_table") == (0, "action/swap_collector")
    st = position([["2c", "7h"], ["5c"]], [["6c"], ["X1"], ["Jh"]])
    assert not [a for a in legal(st) if "swap" in a]
    # Trashing on the Collector is still allowed, even for a card that fits elsewhere.
    assert {"trash": ["7h"], "pile": 1} in legal(st)


def test_rulings_pile_invariant_a_swap_may_break_the_run_only_the_top_counts() -> None:
    done = run("swap_two_eights_for_two_fours")
    assert done.result()["piles"][0] == ["Jc", "8c", "8d", "9h"]
    assert run_error("bad_trash_looks_at_the_top_card_only") == (1, "action/does_not_fit")


# ------------------------------------------------------------------ § gameplay: out, § winning
def test_gameplay_an_empty_hand_without_a_win_puts_the_player_out() -> None:
    for name in ("out_by_trashing_the_last_cards", "out_by_littering_the_last_card"):
        done = run(name)
        assert done.state.out == [0] and not done.state.alive[0]
        assert GAME.outcome(done.state) is None
        assert 0 not in GAME.awaiting(done.state)


def test_rulings_trashing_the_last_cards_without_four_of_a_kind_is_legal_and_puts_out() -> None:
    st = position([["7h", "7s"], ["5c", "5d"], ["Kc"]], [["6c"], ["Jd"], ["Jh"]])
    assert {"trash": ["7h", "7s"], "pile": 0} in legal(st)
    GAME.apply(st, 0, GAME.parse_action(st, 0, {"trash": ["7h", "7s"], "pile": 0}))
    assert st.out == [0] and st.turn == 1


def test_winning_trash_four_of_a_kind_emptying_the_hand() -> None:
    done = run("win_with_four_of_a_kind")
    outcome = GAME.outcome(done.state)
    assert outcome is not None and not outcome.no_winner
    assert outcome.placements == (1, 2, 2) and done.state.reason == "win"


def test_winning_four_of_a_kind_on_a_collector_is_no_win() -> None:
    done = run("four_of_a_kind_on_a_collector_is_no_win")
    assert GAME.outcome(done.state) is None and done.state.winner == -1


def test_winning_the_last_remaining_player_loses_no_winner() -> None:
    done = run("last_player_left_loses_no_winner")
    outcome = GAME.outcome(done.state)
    assert outcome is not None and outcome.no_winner and outcome.placements == (3, 3, 3)
    assert done.state.reason == "last_player"


def test_rulings_100_turns_per_player_no_winner() -> None:
    done = run("turn_limit_100_turns_each_no_winner")
    outcome = GAME.outcome(done.state)
    assert outcome is not None and outcome.no_winner and outcome.placements == (2, 2)
    assert done.state.turns == [TURN_LIMIT, TURN_LIMIT] and done.state.reason == "turn_limit"
    data = json.loads((HISTORIES / "turn_limit_100_turns_each_no_winner.json").read_text())
    data["actions"] = data["actions"][:-1]
    assert replay(data).result()["over"] is False  # seat 1 has played 99 turns only
    assert run_error("bad_play_after_the_turn_limit") == (200, "action/match_over")


def test_rulings_places_winner_first_still_in_second_later_exits_above_earlier() -> None:
    done = run("places_winner_still_in_and_exits")
    assert GAME.outcome(done.state).placements == (1, 4, 3, 2)  # type: ignore[union-attr]


def test_rulings_a_player_always_has_a_legal_action_while_holding_a_card() -> None:
    done = run("bad_draw_from_an_empty_draw_pile")
    assert GAME.legal_actions(done.state, 1)
    st = position([["X1"], ["5c"]], [["6c"]])
    assert {"collect": 0} in legal(st)


def test_rulings_public_piles_order_and_hand_sizes_hidden_hands_and_draw_pile() -> None:
    done = run("issue_example")
    st = done.state
    spectator = GAME.view(st, None)
    assert spectator["piles"] == [["6s", "7h", "5c"], ["Jd", "Qh"], ["Kd"], ["X1"]]
    assert spectator["hand_sizes"] == [3, 3, 1] and spectator["hand"] is None
    assert spectator["hands"] == [None, None, None]
    assert spectator["known"][2] == ["7s"]  # taken by the swap: everyone saw it
    mine = GAME.view(st, 1)
    assert mine["hand"] is not None and len(mine["hand"]) == 3 and mine["hands"][0] is None
    assert "draw" not in mine and mine["draw_size"] == len(st.draw)


def test_describe_action_labels_use_trash_keys() -> None:
    st = position([["7h", "7s", "X1"], ["5c"]], [["6c"], ["Jd"], ["2h"]])
    keys = {GAME.describe_action(st, 0, a)["key"] for a in GAME.legal_actions(st, 0)}
    assert {"trash.action.draw", "trash.action.trash", "trash.action.collect"} <= keys
    label = GAME.describe_action(st, 0, GAME.parse_action(st, 0, {"trash": ["7s", "7h"], "pile": 0}))
    assert label == {"key": "trash.action.trash", "params": {"cards": "7h 7s", "pile": 1},
                     "text": "trash 7h 7s on pile 1"}


def test_parse_action_refuses_malformed_input_with_a_message() -> None:
    st = position([["7h", "7s", "X1"], ["5c"]], [["6c"], ["Jd"], ["2h"]])
    malformed: list[dict[str, Any]] = [
        {},
        {"draw": False},
        {"trash": [], "pile": 0},
        {"trash": ["7h"]},
        {"trash": ["7h", "7h"], "pile": 0},
        {"litter": "Zz"},
        {"collect": -1},
        {"collect": True},
        {"swap": "7h", "pile": "x"},
    ]
    for message in malformed:
        with pytest.raises(IllegalAction) as err:
            GAME.parse_action(st, 0, message)
        assert str(err.value)
    with pytest.raises(IllegalAction, match="no Trash Pile 5"):
        GAME.apply(st, 0, GAME.parse_action(st, 0, {"trash": ["7h"], "pile": 5}))


def test_rulings_language_rules_pages_in_english_and_pt_br_with_the_catalogue_words() -> None:
    from importlib import resources

    pages = resources.files("sefode.games.trash") / "rules"
    en = (pages / "trash.en.md").read_text(encoding="utf-8")
    pt = (pages / "trash.pt-BR.md").read_text(encoding="utf-8")
    for words in ("Trash Collector", "four-of-a-kind", "never reshuffled", "100 turns", "nobody is placed", "swap"):
        assert words in en, words
    for words in ("pilha de lixo", "lixeiro", "quadra", "100 vezes", "ninguém é colocado"):
        assert words in pt, words
    catalogue = json.loads((resources.files("sefode.games.trash") / "i18n" / "pt-BR.json").read_text("utf-8"))
    assert "lixeiro" in catalogue["trash.collector"].lower() and "pilha" in catalogue["trash.pile"].lower()
