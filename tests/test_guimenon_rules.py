"""Every line of seed 003 and ruling of docs/rulings.md §4, one named test each (cards have theirs in
test_guimenon_cards.py)."""

from __future__ import annotations

import random

import pytest
from guimenon_helpers import FILLER, QUIET, G, ids, idx, play, put, scene, stars, total

from sefode.engine import IllegalAction, InvalidOptions, NotYourTurn, Outcome
from sefode.games.guimenon import rules
from sefode.games.guimenon.game import CONFIRM, DISCARD, PLACE, SPEC, TAKE_BACK
from sefode.games.guimenon.rules import CARDSET
from sefode.games.guimenon.state import GState
from sefode.history import export, replay


def resolved(st: GState, turn: int) -> list[tuple[str, int, str]]:
    """What resolved after the reveal of ``turn`` (not the Location turned at its start), in order."""
    rec = st.records[turn - 1]
    return [(r.step, r.location, r.source) for r in rec.resolved[rec.opening:]]


def place(card: str, loc: int) -> int:
    return PLACE + 3 * idx(card) + loc


def listed(seed: int = 3, first: int = 0, locations: tuple[str, ...] = QUIET,
           decks: list[list[str]] | None = None) -> GState:
    return G.new_match({}, seed, {"decks": decks or [FILLER, FILLER[::-1]], "locations": list(locations),
                                  "first": first, "shuffle": False})


# ------------------------------------------------------------------------------------------- setup
def test_spec_is_a_simultaneous_two_seat_game() -> None:
    assert SPEC.turns == "simultaneous" and SPEC.min_seats == SPEC.max_seats == 2 and SPEC.seats_option is None


def test_setup_shuffles_each_deck_and_deals_an_opening_hand_of_3() -> None:
    a, b = G.new_match({}, 1), G.new_match({}, 2)
    assert [len(h) for h in a.hand] == [3, 3] and [len(d) for d in a.draw] == [9, 9]
    orders = {tuple(G.new_match({"deck_0": "jardim-paciente"}, s).draw[0]) for s in range(8)}
    assert len(orders) > 1, "the deck is shuffled from the seed"
    assert G.view(a, 0)["me"]["hand"] != [] and a.turn == b.turn == 1


def test_setup_three_locations_face_down_revealed_one_per_turn_left_to_right() -> None:
    st = listed()
    assert len(st.locations) == 3 and len(set(st.locations)) == 3
    assert [loc["revealed"] for loc in G.view(st, 0)["locations"]] == [True, False, False]
    for turn, shown in ((2, 2), (3, 3), (4, 3)):
        G.apply(st, 0, CONFIRM)
        G.apply(st, 1, CONFIRM)
        assert st.turn == turn and st.revealed == shown


def test_setup_who_starts_is_drawn_and_may_be_fixed() -> None:
    assert {G.new_match({}, s).first for s in range(20)} == {0, 1}
    assert listed(first=1).first == 1


def test_setup_decks_from_options_setup_or_an_explicit_list() -> None:
    st = G.new_match({"deck_0": "brasa-viva", "deck_1": "mare-cheia"}, 4)
    assert st.deck_lists[0] == list(CARDSET.decks["brasa-viva"].cards)
    assert st.deck_lists[1] == list(CARDSET.decks["mare-cheia"].cards)
    custom = [c.id for c in CARDSET.cards[:13]]
    st = G.new_match({}, 4, {"decks": [custom, "veu-de-sombras"]})
    assert st.deck_lists[0] == custom and len(st.draw[0]) + len(st.hand[0]) == 13


@pytest.mark.parametrize(("deck", "words"), [
    (FILLER[:11], "at least 12"),
    ([*FILLER[:11], FILLER[0]], "at most 1 copy"),
    ([*FILLER[:11], "respingo"], "unknown card"),
    ("no-such-deck", "unknown ready deck"),
])
def test_deck_rules_12_cards_one_copy_beings_and_items_only(deck: object, words: str) -> None:
    with pytest.raises(InvalidOptions, match=words):
        G.new_match({}, 1, {"decks": [deck, FILLER]})


def test_bad_options_and_setup_are_refused() -> None:
    with pytest.raises(InvalidOptions):
        G.new_match({"deck_0": "nope"}, 1)
    with pytest.raises(InvalidOptions, match="unknown setup"):
        G.new_match({}, 1, {"dealer": 0})
    with pytest.raises(InvalidOptions, match="Locations"):
        G.new_match({}, 1, {"locations": ["bosque-antigo", "bosque-antigo", "clareira-tranquila"]})


# ------------------------------------------------------------------------------------------- each turn
def test_moon_equals_the_turn_number_and_does_not_carry_over() -> None:
    st = listed()
    for turn in range(1, 7):
        assert st.moon_total == [turn, turn] and st.moon == [turn, turn]
        for s in (0, 1):
            while st.owed[s]:
                G.apply(st, s, DISCARD + st.hand[s][0])
        G.apply(st, 0, CONFIRM)
        G.apply(st, 1, CONFIRM)
    assert st.over


def test_draw_one_card_from_turn_2() -> None:
    st = listed(locations=("clareira-tranquila", "feira-noturna", "altar-da-lua"))
    assert [len(h) for h in st.hand] == [3, 3]
    G.apply(st, 0, CONFIRM)
    G.apply(st, 1, CONFIRM)
    assert [len(h) for h in st.hand] == [4, 4] and st.hand[0][-1] == idx(FILLER[3])


def test_empty_deck_means_no_draw() -> None:
    st = scene(turn=2)
    assert st.hand == [[], []]
    play(st, [])
    assert st.hand == [[], []] and st.turn == 3


def test_turn_with_no_possible_play_goes_on() -> None:
    st = scene(turn=2)
    assert G.legal_actions(st, 0) == [CONFIRM]
    play(st, [])
    assert st.turn == 3


def test_hand_limit_7_discard_is_part_of_the_secret_turn() -> None:
    st = scene(turn=4)
    st.hand[0] = [idx(c) for c in FILLER[:8]]
    st.owed[0] = 1  # as after a draw to 8
    with pytest.raises(IllegalAction, match="discard"):
        G.apply(st, 0, CONFIRM)
    with pytest.raises(IllegalAction, match="discard"):
        G.apply(st, 0, place("vulto", 0))
    assert all(a >= DISCARD for a in G.legal_actions(st, 0))
    other_before = G.view(st, 1)
    assert G.apply(st, 0, DISCARD + idx("vulto")) == []
    assert G.view(st, 1) == other_before, "the discard is secret until the reveal"
    with pytest.raises(IllegalAction, match="within the hand limit"):
        G.apply(st, 0, DISCARD + idx("fagulha"))
    G.apply(st, 0, CONFIRM)
    events = G.apply(st, 1, CONFIRM)
    reveal = next(e for e in events if e["type"] == "reveal")
    assert reveal["discards"] == [{"seat": 0, "card": "vulto"}] and st.discard[0] == [idx("vulto")]


def test_hand_limit_counts_after_the_draw() -> None:
    st = listed(locations=("clareira-tranquila", "torre-de-vigia", "feira-noturna"))
    for _ in range(3):  # turn 2 draws 2 (turn + tower), turns 3 and 4 one each: 7 in hand
        G.apply(st, 0, CONFIRM)
        G.apply(st, 1, CONFIRM)
    assert [len(h) for h in st.hand] == [7, 7] and st.owed == [0, 0]
    G.apply(st, 0, CONFIRM)
    G.apply(st, 1, CONFIRM)
    assert [len(h) for h in st.hand] == [8, 8] and st.owed == [1, 1]


# ------------------------------------------------------------------------------------------- playing
def test_plays_only_at_revealed_locations() -> None:
    st = listed()
    card = CARDSET.cards[st.hand[0][0]].id
    st.moon[0] = 5
    with pytest.raises(IllegalAction, match="not revealed"):
        G.apply(st, 0, place(card, 1))
    assert all((a - PLACE) % 3 == 0 for a in G.legal_actions(st, 0) if PLACE <= a < TAKE_BACK)


def test_moon_is_paid_when_placing_and_refunded_on_take_back() -> None:
    st = scene(turn=3)
    st.hand[0] = [idx("automato-pesado"), idx("boneco-de-lata")]
    G.apply(st, 0, place("boneco-de-lata", 0))
    assert st.moon[0] == 1
    with pytest.raises(IllegalAction, match="costs 5 Moon"):
        G.apply(st, 0, place("automato-pesado", 0))
    G.apply(st, 0, TAKE_BACK + idx("boneco-de-lata"))
    assert st.moon[0] == 3 and sorted(st.hand[0]) == sorted([idx("automato-pesado"), idx("boneco-de-lata")])
    with pytest.raises(IllegalAction, match="not placed"):
        G.apply(st, 0, TAKE_BACK + idx("boneco-de-lata"))


def test_at_most_4_cards_per_player_per_location_tokens_included() -> None:
    st = scene(turn=3)
    play(st, [(0, "cardume-prateado", 0)])  # itself and 2 tokens
    st.hand[0] = [idx("vulto"), idx("fagulha")]
    st.moon[0] = 4
    G.apply(st, 0, place("vulto", 0))
    with pytest.raises(IllegalAction, match="already holds 4"):
        G.apply(st, 0, place("fagulha", 0))
    assert place("fagulha", 0) not in G.legal_actions(st, 0) and place("fagulha", 1) in G.legal_actions(st, 0)


def test_no_play_into_a_full_location_and_no_token_beyond_4() -> None:
    st = scene(turn=3)
    for card in ("vulto", "fagulha", "caranguejo-timido"):
        put(st, 0, 0, card)
    play(st, [(0, "cardume-prateado", 0)])
    assert len(st.board[0][0]) == 4, "the tokens that do not fit are not created"
    st.hand[0] = [idx("boneco-de-lata")]
    assert not any(PLACE + 3 * idx("boneco-de-lata") == a for a in G.legal_actions(st, 0))


def test_both_seats_awaited_and_a_confirmed_seat_is_not() -> None:
    st = listed()
    assert G.awaiting(st) == {0, 1}
    G.apply(st, 1, CONFIRM)
    assert G.awaiting(st) == {0} and G.legal_actions(st, 1) == []
    with pytest.raises(NotYourTurn):
        G.apply(st, 1, CONFIRM)
    G.apply(st, 0, CONFIRM)
    assert G.awaiting(st) == {0, 1} and st.turn == 2


def test_unconfirmed_plays_show_in_no_other_view_and_no_event() -> None:
    st = scene(turn=3)
    st.hand[0] = [idx("boneco-de-lata"), idx("vulto")]
    st.hand[1] = [idx("fagulha")]
    other, spectator = G.view(st, 1), G.view(st, None)
    assert G.apply(st, 0, place("boneco-de-lata", 2)) == []
    assert G.apply(st, 0, place("vulto", 1)) == []
    assert G.apply(st, 0, TAKE_BACK + idx("vulto")) == []
    assert G.view(st, 1) == other and G.view(st, None) == spectator
    events = G.apply(st, 0, CONFIRM)
    assert events == [{"type": "confirmed", "seat": 0, "turn": 3}]
    public = {k: v for k, v in G.view(st, 1).items() if k != "me"}  # its own deck lists every filler card
    assert "boneco" not in repr(public) and "boneco" not in repr(G.view(st, None))
    assert [(p["card"], p["location"]) for p in G.view(st, 0)["me"]["pending"]] == [("boneco-de-lata", 2)]
    events = G.apply(st, 1, CONFIRM)
    assert events[1]["type"] == "reveal" and events[1]["plays"] == [{"seat": 0, "card": "boneco-de-lata",
                                                                     "location": 2}]
    assert ids(st, 2, 0) == ["boneco-de-lata"]


def test_action_json_round_trip_and_bad_messages() -> None:
    st = scene(turn=3)
    for action in (CONFIRM, place("vulto", 2), TAKE_BACK + idx("vulto"), DISCARD + idx("vulto")):
        assert G.parse_action(st, 0, G.action_json(st, action)) == action
    for bad in ({"place": "vulto"}, {"place": "nope", "location": 0}, {"place": "vulto", "location": 3},
                {"confirm": 1}, {"play": "vulto"}):
        with pytest.raises(IllegalAction):
            G.parse_action(st, 0, bad)


# ------------------------------------------------------------------------------------------- reveal and abilities
def test_reveal_together_then_on_reveal_then_end_of_turn() -> None:
    st = scene(turn=3)
    events = play(st, [(0, "broto-teimoso", 0), (1, "fagulha", 0)])
    kinds = [e["type"] for e in events]
    assert kinds == ["confirmed", "confirmed", "reveal", "ability", "ability", "turn_end", "turn"]
    assert resolved(st, 3) == [("on_reveal", 0, "fagulha"), ("end_of_turn", 0, "broto-teimoso")]
    assert stars(st, "broto-teimoso") == 0, "0★, -1 from the Cinderling (On Reveal), then +1 (End of Turn)"


def test_resolution_location_by_location_left_to_right() -> None:
    st = scene(turn=3)
    play(st, [(0, "lontra-mensageira", 2), (0, "engrenagem-solta", 0), (1, "fagulha", 1)])
    assert [(loc, src) for _, loc, src in resolved(st, 3)] == [
        (0, "engrenagem-solta"), (1, "fagulha"), (2, "lontra-mensageira")]


def test_resolution_fewer_stars_first_at_a_location() -> None:
    st = scene(turn=3)
    put(st, 0, 0, "automato-pesado")
    put(st, 1, 0, "vulto")
    play(st, [(0, "coruja-agourenta", 0), (1, "fagulha", 0)])
    assert [src for _, _, src in resolved(st, 3)] == ["fagulha", "coruja-agourenta"]
    assert st.records[2].order[0] == {"step": "on_reveal", "location": 0, "first": 1, "stars": [10, 3],
                                      "tie": False}


def test_resolution_tie_broken_by_a_seeded_draw() -> None:
    firsts = set()
    for seed in range(12):
        st = scene(turn=3, seed=seed)
        play(st, [(0, "fagulha", 0), (1, "fagulha", 0)])
        order = st.records[2].order[0]
        assert order["tie"] and order["stars"] == [2, 2]
        firsts.add(order["first"])
        again = scene(turn=3, seed=seed)
        play(again, [(0, "fagulha", 0), (1, "fagulha", 0)])
        assert again.records[2].order[0]["first"] == order["first"], "the same seed, the same draw"
    assert firsts == {0, 1}


def test_resolution_within_a_player_in_play_order() -> None:
    st = scene(turn=3)
    play(st, [(0, "lontra-mensageira", 0), (0, "engrenagem-solta", 0), (0, "fagulha", 0)])
    assert [src for _, _, src in resolved(st, 3)] == ["lontra-mensageira", "engrenagem-solta", "fagulha"]


def test_only_beings_receive_star_bonuses() -> None:
    st = scene(turn=3, locations=("bosque-antigo", "torre-de-vigia", "feira-noturna"))
    play(st, [(0, "sussurro", 0), (0, "regador-de-orvalho", 0)])
    assert total(st, 0, 0) == 0 and all(u.stars() == 0 for u in st.board[0][0])


def test_continuous_is_recomputed_when_its_source_leaves() -> None:
    st = scene(turn=3)
    put(st, 0, 0, "lampiao-lunar")
    put(st, 0, 0, "boneco-de-lata")
    assert stars(st, "boneco-de-lata") == 4
    play(st, [(0, "colosso-de-magma", 0)])
    assert ids(st, 0, 0) == ["colosso-de-magma"] and stars(st, "colosso-de-magma") == 9
    assert idx("lampiao-lunar") in st.discard[0]


def test_destroyed_cards_go_to_the_discard_pile_tokens_and_copies_do_not() -> None:
    st = scene(turn=3)
    put(st, 0, 0, "boneco-de-lata")
    play(st, [(0, "concha-do-eco", 0), (0, "gota-curiosa", 0)])
    assert sorted(ids(st, 0, 0)) == sorted(["boneco-de-lata", "concha-do-eco", "gota-curiosa", "boneco-de-lata"])
    st.hand[0] = []
    play(st, [])
    st2 = scene(turn=3)
    put(st2, 0, 0, "boneco-de-lata")
    play(st2, [(0, "concha-do-eco", 0)])
    play(st2, [(0, "colosso-de-magma", 1)])
    u = next(x for x in st2.board[0][0] if x.created)
    rules.destroy(st2, u, None)
    rules.destroy(st2, st2.board[0][0][0], None)
    assert st2.discard[0] == [idx("boneco-de-lata")], "the copy left no card behind"


def test_effect_with_no_legal_target_does_nothing() -> None:
    st = scene(turn=3)
    play(st, [(0, "cometa-rubro", 0), (0, "correnteza", 1), (0, "espelho-escuro", 2)], moon=20)
    assert ids(st, 0, 0) == ["cometa-rubro"] and ids(st, 0, 1) == []


def test_end_of_game_abilities_only_on_turn_6() -> None:
    st = scene(turn=5)
    play(st, [(0, "vulto", 0)])
    assert stars(st, "vulto") == 1 and not st.over
    play(st, [])
    assert st.over and stars(st, "vulto") == 3


# ------------------------------------------------------------------------------------------- scoring
def outcome(st: GState) -> Outcome:
    result = G.outcome(st)
    assert result is not None
    return result


def finish(st_setup: list[tuple[int, int, str]]) -> GState:
    st = scene(turn=6)
    for seat, loc, card in st_setup:
        put(st, seat, loc, card)
    play(st, [])
    return st


def test_control_goes_to_more_stars() -> None:
    st = finish([(0, 0, "boneco-de-lata"), (1, 0, "caranguejo-timido")])
    assert rules.control(st)[0] == 0


def test_control_tie_on_stars_goes_to_fewer_cards_else_neutral() -> None:
    st = finish([(0, 0, "caranguejo-timido"), (0, 0, "sussurro"), (1, 0, "caranguejo-timido")])
    assert rules.control(st)[0] == 1, "equal Stars: the side with fewer cards there"
    st = finish([(0, 0, "boneco-de-lata"), (1, 0, "boneco-de-lata")])
    assert rules.control(st)[0] is None


def test_two_or_three_locations_win() -> None:
    st = finish([(0, 0, "vulto"), (0, 1, "vulto"), (1, 2, "automato-pesado")])
    assert rules.control(st) == [0, 0, 1] and outcome(st).placements == (1, 2)
    st = finish([(1, 0, "vulto"), (1, 1, "vulto"), (1, 2, "vulto")])
    assert outcome(st).placements == (2, 1)


def test_one_each_and_one_neutral_goes_to_total_stars() -> None:
    st = finish([(0, 0, "automato-pesado"), (1, 1, "boneco-de-lata")])
    assert rules.control(st) == [0, 1, None] and outcome(st).placements == (1, 2)
    assert outcome(st).scores == ({"locations": 1, "stars": 7}, {"locations": 1, "stars": 3})


def test_still_tied_is_a_draw_a_shared_place() -> None:
    st = finish([(0, 0, "boneco-de-lata"), (1, 1, "boneco-de-lata")])
    assert rules.control(st) == [0, 1, None] and outcome(st).placements == (1, 1)
    st = finish([])
    assert outcome(st).placements == (1, 1)


def test_one_location_against_none_wins_whatever_the_star_totals() -> None:
    """§4.9: more Locations controlled wins outright; 1 against none with two neutral is a win, even on equal Stars."""
    st = finish([(0, 0, "boneco-de-lata"), (1, 0, "boneco-de-lata"), (1, 0, "sussurro")])
    assert rules.control(st) == [0, None, None], "equal Stars at the left: fewer cards controls it"
    assert outcome(st).scores == ({"locations": 1, "stars": 3}, {"locations": 0, "stars": 3})
    assert outcome(st).placements == (1, 2), "1 Location against none is a win, not a draw on equal totals"
    assert rules.winner(st) == 0


def test_star_totals_decide_only_with_as_many_locations_each() -> None:
    """§4.9: the Star totals are read only when both control the same number of Locations."""
    st = finish([(1, 0, "automato-pesado"), (0, 1, "caranguejo-timido"), (0, 2, "caranguejo-timido")])
    assert rules.control(st) == [1, 0, 0] and outcome(st).placements == (1, 2), "2 Locations beat 7 Stars against 4"
    st = finish([(1, 0, "boneco-de-lata"), (1, 0, "automato-pesado"), (0, 1, "sussurro"), (1, 1, "sussurro"),
                 (1, 1, "sussurro")])
    assert rules.control(st) == [1, 0, None], "equal (zero) Stars in the centre: fewer cards"
    assert outcome(st).placements == (2, 1), "1 each with one neutral: the Star totals, 0 against 10"


# ----------------------------------------------------------------------------------- On Reveal, moved or destroyed
def test_card_moved_by_a_card_gets_the_new_locations_when_a_card_is_revealed_here() -> None:
    """§4.10: Undertow moves a card before its own On Reveal; it resolves at its new Location, whose "when a card is
    revealed here" applies to it."""
    st = scene(turn=2, locations=("clareira-tranquila", "ninho-estrelado", "torre-de-vigia"))
    play(st, [(0, "correnteza", 0), (1, "cogumelo-fofoqueiro", 0)])
    assert ids(st, 1, 1) == ["cogumelo-fofoqueiro"], "Undertow (fewer Stars there) resolved first and moved it"
    assert stars(st, "cogumelo-fofoqueiro") == 2, "Starry Nest's +1 applied at its new Location"
    assert ("on_reveal", 1, "cogumelo-fofoqueiro") in resolved(st, 2), "its On Reveal resolved at the new Location"


def test_card_moved_by_a_location_gets_the_new_locations_when_a_card_is_revealed_here() -> None:
    """§4.10: the same when the Restless Gate moves it: whatever moved it, the new Location's "when a card is
    revealed here" applies, and its On Reveal resolves there."""
    st = scene(turn=2, locations=("portal-inquieto", "ninho-estrelado", "torre-de-vigia"))
    put(st, 0, 1, "caranguejo-timido")
    play(st, [(0, "cogumelo-fofoqueiro", 0)])
    assert ids(st, 1, 0) == ["caranguejo-timido", "cogumelo-fofoqueiro"], "the Gate moved it to the only other one"
    assert stars(st, "cogumelo-fofoqueiro") == 2, "Starry Nest's +1 applied to the card the Gate moved there"
    assert stars(st, "caranguejo-timido") == 3, "its On Reveal (+1 to your other Beings here) resolved at the Nest"
    steps = resolved(st, 2)
    assert steps.index(("on_card_revealed", 0, "portal-inquieto")) < steps.index(
        ("on_card_revealed", 1, "ninho-estrelado")) < steps.index(("on_reveal", 1, "cogumelo-fofoqueiro"))
    assert ("on_reveal", 0, "cogumelo-fofoqueiro") not in steps, "not at the Gate: it had left"


def test_card_destroyed_before_its_on_reveal_does_not_resolve() -> None:
    """§4.10: a card destroyed before its own On Reveal resolves never resolves it."""
    st = scene(turn=2)
    st.draw[0] += [idx("vulto"), idx("sussurro")]
    play(st, [(0, "lontra-mensageira", 0), (1, "lanca-de-chamas", 0)])
    assert ids(st, 0, 0) == [] and idx("lontra-mensageira") in st.discard[0], "Flame Lance (no Stars) went first"
    assert st.hand[0] == [idx("sussurro")] and st.draw[0] == [idx("vulto")], (
        "only turn 3's draw: the Otter's On Reveal (draw 1) never resolved")
    assert ("on_reveal", 0, "lontra-mensageira") not in resolved(st, 2)


# ------------------------------------------------------------------------------------------- tokens and data
def test_token_types_are_counted_by_type_based_effects() -> None:
    """Seed: tokens may have a Type, and Type-based effects count them (Shoots are Root, the Stone has no Type)."""
    st = scene(turn=3, locations=("clareira-tranquila", "ruinas-caidas", "torre-de-vigia"))
    put(st, 0, 0, "tronco-ancestral")
    assert stars(st, "tronco-ancestral") == 3
    play(st, [(0, "semeadora", 0)])
    assert sorted(ids(st, 0, 0)) == sorted(["tronco-ancestral", "semeadora", "broto", "broto"])
    assert stars(st, "tronco-ancestral") == 6, "+1 for each other Root Being here: the Sower and its 2 Shoots"
    assert ids(st, 1, 0) == ["pedra"], "the Fallen Ruins gave each side a Stone (no Type)"
    rules.create(st, CARDSET.tokens["pedra"], 0, 0)
    assert stars(st, "tronco-ancestral") == 6, "a Stone has no Type: not counted"
    st2 = scene(turn=3)
    put(st2, 0, 0, "medusa-lenta")
    play(st2, [(0, "cardume-prateado", 0)])
    assert stars(st2, "medusa-lenta") == 6, "+1 for each other Tide card here: the Shoal and its 2 Splashes"


def test_location_deck_has_at_least_3_locations() -> None:
    """Seed: the Location deck holds at least 3 Locations; a match sets out 3 different ones."""
    assert len(CARDSET.locations) >= 3
    for ids_ in (["clareira-tranquila", "torre-de-vigia"], ["clareira-tranquila"] * 3):
        with pytest.raises(InvalidOptions, match="3 different Locations"):
            G.new_match({}, 1, {"decks": [FILLER, FILLER], "locations": ids_})


# ------------------------------------------------------------------------------------------- secrecy and histories
def test_opponent_deck_is_revealed_card_by_card_and_both_decks_exported_at_the_end() -> None:
    st = G.new_match({"deck_0": "brasa-viva", "deck_1": "mare-cheia"}, 8)
    view = G.view(st, 1)
    assert view["decks"] is None
    assert view["me"]["deck"] == list(CARDSET.decks["mare-cheia"].cards)
    assert not set(CARDSET.decks["brasa-viva"].cards) & set(repr(view["board"]).split("'"))
    rng = random.Random(3)
    while G.awaiting(st):
        for s in sorted(G.awaiting(st)):
            G.apply(st, s, rng.choice([a for a in G.legal_actions(st, s) if not TAKE_BACK <= a < DISCARD]))
    history = export(G, st)
    assert history["decks"] == [list(CARDSET.decks["brasa-viva"].cards), list(CARDSET.decks["mare-cheia"].cards)]
    again = replay(history)
    assert again.error is None and G.outcome(again.state) == G.outcome(st)
    assert G.report(again.state) == G.report(st)


def test_resample_never_sees_unconfirmed_plays_and_keeps_what_was_revealed() -> None:
    st = G.new_match({"deck_0": "brasa-viva", "deck_1": "mare-cheia"}, 9)
    for _ in range(2):
        G.apply(st, 0, CONFIRM)
        G.apply(st, 1, CONFIRM)
    card = st.hand[1][0]
    G.apply(st, 1, place(CARDSET.cards[card].id, 0)) if rules.cost(st, 1, card) <= st.moon[1] else None
    G.apply(st, 1, CONFIRM)
    rng = random.Random(1)
    for _ in range(20):
        sample = G.resample(st, 0, rng)
        assert sample.pending[1] == [] and sample.confirmed[1], "confirmed is public; what it placed is not"
        assert sample.moon[1] == st.moon_total[1]
        assert len(sample.hand[1]) == len(st.hand[1]) + len(st.pending[1])
        assert sample.hand[0] == st.hand[0] and sorted(sample.draw[0]) == sorted(st.draw[0])
        assert not set(sample.hand[1] + sample.draw[1]) & st.seen[1]
        assert sample.locations[:3] == st.locations[:3]


# ------------------------------------------------------------------------------------------- deck choice (platform)
def test_deck_choice_is_a_secret_seat_setup_checked_by_the_deck_rules() -> None:
    choices = G.seat_setup_choices({})
    assert [c["value"] for c in choices] == sorted(CARDSET.decks) and all(c["label"] for c in choices)
    assert G.check_seat_setup({}, "brasa-viva") == "brasa-viva"
    custom = [c.id for c in CARDSET.cards[-12:]]
    assert G.check_seat_setup({}, custom) == custom
    for bad in (FILLER[:11], [*FILLER[:11], FILLER[0]], "nope", 3):
        with pytest.raises(InvalidOptions) as err:
            G.check_seat_setup({}, bad)
        assert err.value.code == "setup/bad_deck"
    rng = random.Random(1)
    assert G.default_seat_setup({"deck_0": "mare-cheia", "deck_1": "random"}, 0, rng) == "mare-cheia"
    assert G.default_seat_setup({"deck_0": "mare-cheia", "deck_1": "random"}, 1, rng) in CARDSET.decks
    st = G.new_match({}, 5, {"seat_setup": [custom, "veu-de-sombras"]})
    assert st.deck_lists == [custom, list(CARDSET.decks["veu-de-sombras"].cards)]
    assert G.view(st, 1)["me"]["deck"] == list(CARDSET.decks["veu-de-sombras"].cards)
    assert G.view(st, 1)["decks"] is None, "the other seat's deck is not shown before the end"
    again = G.new_match({}, 5, G.history_setup(st))
    assert again.draw == st.draw and again.hand == st.hand, "the exported setup replays the same match"


def test_saved_decks_are_player_data_checked_by_the_deck_rules() -> None:
    deck = [c.id for c in CARDSET.cards[:12]]
    assert G.check_player_data("d1", {"name": " Meu deck ", "cards": deck}) == {"name": "Meu deck", "cards": deck}
    for bad in ({"name": "x", "cards": deck[:5]}, {"cards": deck}, {"name": "", "cards": deck}, deck,
                {"name": "x" * 41, "cards": deck}):
        with pytest.raises(InvalidOptions) as err:
            G.check_player_data("d1", bad)
        assert err.value.code == "data/bad_deck"
