"""Bots: every level plays every variant and mode legally, decides from its information set alone,
and plays the way the bots issue describes (bids from its cards, the pé, ducking, melada, pairs)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from sefode.bots.base import Player, Seen
from sefode.bots.levels import EasyPlayer, HardPlayer, NormalPlayer
from sefode.bots.players import make_player, player_kinds
from sefode.engine import Game
from sefode.games.fodinha.bots import KNOWLEDGE, one_card_win_probability
from sefode.games.fodinha.cards import truco_name
from sefode.games.fodinha.game import BID, Fodinha
from sefode.games.fodinha.state import FodinhaState

GAME = Fodinha()

CONFIGS: list[dict[str, Any]] = [
    {"variant": "sefode", "players": 2},
    {"variant": "sefode", "players": 4},
    {"variant": "sefode", "players": 5, "decks": 2},
    {"variant": "sefode", "players": 4, "teams": True},
    {"variant": "sefode", "players": 6, "teams": True},
    {"variant": "7letras", "players": 3},
    {"variant": "7letras", "players": 6},
]


def config_id(options: Mapping[str, Any]) -> str:
    return "-".join(f"{k}={v}" for k, v in options.items())


def play_checked(game: Game[Any], state: Any, players: Sequence[Player]) -> int:
    """Play a match to its end through the checked path (``apply`` raises on an illegal action)."""
    decisions = 0
    while True:
        waiting = game.awaiting(state)
        if not waiting:
            return decisions
        for seat in sorted(waiting):
            legal = game.legal_actions(state, seat)
            action = players[seat].choose(Seen(game, state, seat))
            assert action in legal, f"seat {seat} chose {action}, not among {legal}"
            game.apply(state, seat, action)
            decisions += 1


def tiny_hard(seed: int, iterations: int = 4) -> HardPlayer:
    return HardPlayer(seed, think_ms=1e7, max_iterations=iterations)


# ------------------------------------------------------------------ every level, every variant and mode


def test_every_level_is_a_known_player_kind() -> None:
    assert {"random", "easy", "normal", "hard"} <= set(player_kinds())
    assert isinstance(make_player("easy", 1), EasyPlayer)
    assert isinstance(make_player("normal", 1), NormalPlayer)
    assert isinstance(make_player("hard", 1, 50.0), HardPlayer)


@pytest.mark.parametrize("options", CONFIGS, ids=config_id)
def test_easy_and_normal_play_every_variant_and_mode_without_an_illegal_move(options: dict[str, Any]) -> None:
    n = options["players"]
    for m in range(40):
        kinds = ["easy" if (s + m) % 2 else "normal" for s in range(n)]
        players = [make_player(k, 1000 * m + s) for s, k in enumerate(kinds)]
        state = GAME.new_match(options, m)
        assert play_checked(GAME, state, players) > 0
        assert GAME.outcome(state) is not None


@pytest.mark.parametrize("options", CONFIGS, ids=config_id)
def test_hard_plays_every_variant_and_mode_without_an_illegal_move(options: dict[str, Any]) -> None:
    n = options["players"]
    short = dict(options)
    if short["variant"] == "sefode":
        short["lives"] = 2
    for m in range(2):
        players: list[Player] = [
            tiny_hard(100 * m + s) if s % 2 == m % 2 else make_player("normal", 100 * m + s) for s in range(n)
        ]
        state = GAME.new_match(short, 50 + m)
        play_checked(GAME, state, players)
        assert GAME.outcome(state) is not None


def test_the_search_is_generic_it_plays_a_game_with_simultaneous_turns_and_no_hooks() -> None:
    from toygame import Lances

    game = Lances()
    for m in range(5):
        players: list[Player] = [tiny_hard(m, 10), make_player("random", m)]
        state = game.new_match({"rounds": 3}, m)
        play_checked(game, state, players)
        assert game.outcome(state) is not None


# ------------------------------------------------------------------ fairness: the information set alone


def situations(count: int, seed: int) -> list[tuple[FodinhaState, int]]:
    """Decision points from random matches of every configuration: (state, seat to act)."""
    rng = random.Random(seed)
    out: list[tuple[FodinhaState, int]] = []
    while len(out) < count:
        options = CONFIGS[len(out) % len(CONFIGS)]
        state = GAME.new_match(options, rng.randrange(1 << 30))
        stop = rng.randrange(1, 120)
        steps = 0
        while GAME.awaiting(state) and steps < stop:
            seat = min(GAME.awaiting(state))
            GAME.apply_fast(state, seat, rng.choice(GAME.legal_actions(state, seat)))
            steps += 1
        if GAME.awaiting(state):
            out.append((state, min(GAME.awaiting(state))))
    return out


def twin(state: FodinhaState, seat: int, rng: random.Random) -> FodinhaState:
    """The same information set for ``seat`` with every hidden card dealt differently (and another seed)."""
    other = GAME.resample(state, seat, rng)
    other.seed = rng.randrange(1 << 30)
    for o in range(other.n):
        if (o == seat) == (state.size > 1):
            continue  # a hand the seat sees keeps its record as it was
        # A real state records its deal: what each seat played this hand plus what it still holds.
        played = [c for t in other.tricks for s, c in t.plays if s == o] + [c for s, c in other.trick if s == o]
        other.dealt[o] = played + other.hands[o]
    assert GAME.infoset_key(other, seat) == GAME.infoset_key(state, seat)
    return other


def hidden_differs(a: FodinhaState, b: FodinhaState, seat: int) -> bool:
    return any(a.hands[o] != b.hands[o] for o in range(a.n) if o != seat) or a.vira != b.vira


def test_bot_decisions_depend_only_on_the_information_set() -> None:
    """Two states that differ only in what the seat cannot see: the same bot (same seed) decides the same."""
    rng = random.Random(4)
    differing = 0
    for state, seat in situations(70, 11):
        other = twin(state, seat, rng)
        differing += hidden_differs(state, other, seat)
        for kind in ("easy", "normal", "hard"):
            first = (tiny_hard(7, 12) if kind == "hard" else make_player(kind, 7)).choose(Seen(GAME, state, seat))
            second = (tiny_hard(7, 12) if kind == "hard" else make_player(kind, 7)).choose(Seen(GAME, other, seat))
            assert first == second, kind
    assert differing > 50  # the twins really hide other cards


def fields_of(state: FodinhaState) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in dataclasses.fields(state):
        value = getattr(state, f.name)
        if f.name == "rng":
            value = value.getstate()
        elif f.name in ("tricks", "match_tricks", "records"):
            value = repr(value)
        out[f.name] = value
    return out


def test_a_determinization_is_a_function_of_the_information_set_alone() -> None:
    """What a bot can get from ``Seen`` (views and determinized states) is the same for two states the
    seat cannot tell apart: no field of the determinized state (deal record, seed, generator) leaks."""
    rng = random.Random(5)
    for state, seat in situations(60, 12):
        other = twin(state, seat, rng)
        a, b = Seen(GAME, state, seat), Seen(GAME, other, seat)
        assert a.view() == b.view()
        assert a.legal_actions() == b.legal_actions()
        assert a.infoset_key() == b.infoset_key()
        assert fields_of(a.determinize(random.Random(3))) == fields_of(b.determinize(random.Random(3)))


def test_seen_exposes_no_state() -> None:
    state, seat = situations(1, 13)[0]
    seen = Seen(GAME, state, seat)
    public = {name for name in dir(seen) if not name.startswith("_")}
    assert public == {"game", "seat", "view", "legal_actions", "infoset_key", "determinize", "legal_json"}
    det = seen.determinize(random.Random(1))
    assert det is not state
    assert all(det.hands[o] is not state.hands[o] for o in range(state.n))


def test_a_bot_does_not_change_the_state_it_decides_on() -> None:
    for state, seat in situations(21, 14):
        before = (GAME.infoset_key(state, seat), [h[:] for h in state.hands], state.rng.getstate())
        for player in (make_player("easy", 1), make_player("normal", 1), tiny_hard(1, 8)):
            player.choose(Seen(GAME, state, seat))
        assert (GAME.infoset_key(state, seat), [h[:] for h in state.hands], state.rng.getstate()) == before


# ------------------------------------------------------------------ how the levels play


def hand_at(
    number: int,
    hands: Sequence[Sequence[str]],
    *,
    players: int = 4,
    variant: str = "sefode",
    teams: bool = False,
    vira: str | None = None,
    dealer: int = 0,
) -> FodinhaState:
    """A match at the start of hand ``number`` (of ``number`` cards), whose deal is ``hands``, dealt by
    ``dealer`` (so the seat after it bids first and leads); the earlier hands are played out with the
    first legal action."""
    deal: dict[str, Any] = {"hands": [list(h) for h in hands]}
    if vira is not None:
        deal["vira"] = vira
    deals: list[dict[str, Any] | None] = [None] * (number - 1) + [deal]
    options = {"variant": variant, "players": players, "teams": teams}
    first_dealer = (dealer + 1 - number) % players
    state = GAME.new_match(options, 3, {"dealer": first_dealer, "deals": deals})
    while state.hand_no < number:
        seat = min(GAME.awaiting(state))
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    assert state.dealer == dealer and state.size == number
    return state


def bid(state: FodinhaState, values: Mapping[int, int]) -> None:
    for seat in list(state.order):
        if seat in values:
            GAME.apply(state, seat, BID + values[seat])


def play(state: FodinhaState, seat: int, card: str) -> None:
    GAME.apply(state, seat, GAME.parse_action(state, seat, {"play": card}))


def decide(player: Player, state: FodinhaState, seat: int) -> int:
    (turn,) = GAME.awaiting(state)
    assert turn == seat
    return player.choose(Seen(GAME, state, seat))


def card(action: int) -> str:
    return truco_name(action)


def test_normal_bids_every_trick_with_the_three_top_manilhas() -> None:
    state = hand_at(3, [["5c", "6c", "Qc"], ["4c", "7h", "As"], ["5h", "6h", "Qh"], ["5s", "6s", "Qs"]])
    assert decide(make_player("normal", 1), state, 1) == BID + 3


def test_normal_bids_nothing_with_the_weakest_cards() -> None:
    state = hand_at(3, [["3c", "2c", "Ac"], ["4d", "5d", "6d"], ["3h", "2h", "Ah"], ["3s", "2s", "Kc"]])
    assert decide(make_player("normal", 1), state, 1) == BID


def test_normal_dealer_takes_the_nearest_bid_the_pe_allows() -> None:
    # The dealer (seat 0) holds the three top manilhas; the others bid 0, so 3 is forbidden (pé rule).
    state = hand_at(3, [["4c", "7h", "As"], ["4d", "5d", "6d"], ["5h", "6h", "Qh"], ["5s", "6s", "Qs"]])
    bid(state, {1: 0, 2: 0, 3: 0})
    assert GAME.forbidden_bid(state) == 3
    assert decide(make_player("normal", 1), state, 0) == BID + 2


def test_normal_that_needs_every_trick_leads_a_top_card() -> None:
    state = hand_at(3, [["5c", "6c", "Qc"], ["4c", "7h", "5d"], ["5h", "6h", "Qh"], ["5s", "6s", "Qs"]])
    bid(state, {1: 3, 2: 0, 3: 0, 0: 1})
    assert card(decide(make_player("normal", 1), state, 1)) in ("4c", "7h")


def test_normal_ducks_when_its_bid_is_made() -> None:
    state = hand_at(3, [["5c", "6c", "Qc"], ["Kd", "7c", "5d"], ["3c", "5h", "6h"], ["5s", "6s", "Qs"]])
    bid(state, {1: 1, 2: 0, 3: 0, 0: 1})
    play(state, 1, "Kd")
    assert card(decide(make_player("normal", 1), state, 2)) in ("5h", "6h")


def test_normal_melts_a_card_on_purpose_to_avoid_a_trick() -> None:
    # Seat 2 bid 0 and every card it holds beats the Kd led, except the Kc that melts it (melada).
    state = hand_at(3, [["5c", "6c", "Qc"], ["Kd", "7c", "5d"], ["Kc", "3c", "2c"], ["5s", "6s", "Qs"]])
    bid(state, {1: 1, 2: 0, 3: 0, 0: 1})
    play(state, 1, "Kd")
    assert card(decide(make_player("normal", 1), state, 2)) == "Kc"


def test_the_hard_search_has_the_other_seats_bid_and_play_as_a_normal_player_would() -> None:
    # Inside the tree, a seat other than the searching one is not searched as if it saw the simulated deal: it bids
    # and plays as the normal policy would from its own cards (here: three top manilhas, bid 3; then, its bid made,
    # it ducks under the Kd led).
    hooks = KNOWLEDGE.hooks
    rng = random.Random(1)
    state = hand_at(3, [["5c", "6c", "Qc"], ["4c", "7h", "As"], ["5h", "6h", "Qh"], ["5s", "6s", "Qs"]])
    assert hooks.others_move(state, 1, GAME.legal_actions(state, 1), rng) == BID + 3
    state = hand_at(3, [["5c", "6c", "Qc"], ["Kd", "7c", "5d"], ["3c", "5h", "6h"], ["5s", "6s", "Qs"]])
    bid(state, {1: 1, 2: 0, 3: 0, 0: 1})
    play(state, 1, "Kd")
    moved = hooks.others_move(state, 2, GAME.legal_actions(state, 2), rng)
    assert moved is not None and card(moved) in ("5h", "6h")
    # A seat with one legal action makes it.
    only = GAME.legal_actions(state, 2)[0]
    assert hooks.others_move(state, 2, [only], rng) == only


@pytest.mark.parametrize("kind", ["normal", "hard"])
def test_a_bot_that_needs_one_trick_does_not_take_a_bolo_worth_three(kind: str) -> None:
    # Two tricks melt entirely (four kings, four queens): the third is worth 3. Seat 1 needs one trick;
    # taking the bolo with its 3c would make it three. It leads the 5c and keeps the 3c for the last trick.
    state = hand_at(
        4, [["Kd", "Qd", "4h", "6h"], ["Kc", "Qc", "3c", "5c"], ["Kh", "Qh", "4d", "6d"], ["Ks", "Qs", "2c", "5d"]]
    )
    bid(state, {1: 1, 2: 0, 3: 0, 0: 0})
    for rank in "KQ":
        for seat, suit in ((1, "c"), (2, "h"), (3, "s"), (0, "d")):
            play(state, seat, rank + suit)
    assert state.acc == 2
    player = make_player("normal", 1) if kind == "normal" else HardPlayer(1, think_ms=1e7, max_iterations=300)
    assert card(decide(player, state, 1)) == "5c"


@pytest.mark.parametrize("kind", ["normal", "hard"])
def test_in_pairs_a_bot_does_not_melt_its_partners_winning_card(kind: str) -> None:
    # Pairs: seats 1 and 3 are partners and bid one trick between them. Seat 1's Kc is winning the first
    # trick; seat 3, last to play, holds Kh, which would melt it, and two low cards. The other pair holds
    # four manilhas and takes the other two tricks whatever happens.
    state = hand_at(
        3,
        [["5c", "4c", "7h"], ["Kc", "4d", "5d"], ["6h", "As", "7d"], ["Kh", "4s", "5h"]],
        teams=True,
        dealer=3,
    )
    bid(state, {0: 2, 1: 1, 2: 1, 3: 0})
    play(state, 0, "5c")
    play(state, 1, "Kc")
    play(state, 2, "6h")
    player = make_player("normal", 1) if kind == "normal" else HardPlayer(1, think_ms=1e7, max_iterations=400)
    assert card(decide(player, state, 3)) in ("4s", "5h")


@pytest.mark.parametrize("kind", ["normal", "hard"])
def test_one_card_hand_bid_reads_the_cards_on_the_others(kind: str) -> None:
    player = make_player("normal", 1) if kind == "normal" else HardPlayer(1, think_ms=1e7, max_iterations=50)
    # Seat 1 sees the top manilha (4c) on seat 2: its own card cannot win.
    state = hand_at(1, [["5d"], ["3h"], ["4c"], ["6d"]])
    assert decide(player, state, 1) == BID
    # Seat 1 sees only weak cards: its own card most likely wins.
    state = hand_at(1, [["5d"], ["3h"], ["4d"], ["6d"]])
    assert decide(player, state, 1) == BID + 1


def test_hard_one_card_bid_reads_the_earlier_bids_as_hints_about_its_own_card() -> None:
    # The dealer (seat 0) sees 7c, Qd, Jd: by the cards alone its own card wins about half the time, and
    # a normal bot bids 1. But the three others, who see its card, all bid 1: they see a weak card.
    hands = [["4h"], ["7c"], ["Qd"], ["Jd"]]
    state = hand_at(1, hands)
    bid(state, {1: 1, 2: 1, 3: 1})
    assert GAME.forbidden_bid(state) is None
    assert decide(make_player("normal", 1), state, 0) == BID + 1
    assert decide(HardPlayer(1, think_ms=1e7, max_iterations=50), state, 0) == BID


def test_one_card_hints_move_the_chance_of_the_unseen_card_the_right_way() -> None:
    hands = [["4h"], ["Kd"], ["Qd"], ["Jd"]]
    plain = one_card_win_probability(hand_at(1, hands), 0, infer=False)
    all_win = hand_at(1, hands)
    bid(all_win, {1: 1, 2: 1, 3: 1})
    all_lose = hand_at(1, hands)
    bid(all_lose, {1: 0, 2: 0, 3: 0})
    assert one_card_win_probability(all_win, 0, infer=True) < plain < one_card_win_probability(all_lose, 0, infer=True)


def test_easy_never_bids_more_than_its_strong_cards_allow() -> None:
    # With no manilha, no 3 and no 2 a beginner bids at most one trick, however the dice fall.
    state = hand_at(3, [["5c", "6c", "Qc"], ["4d", "5d", "6d"], ["5h", "6h", "Qh"], ["5s", "6s", "Qs"]])
    for seed in range(40):
        assert decide(make_player("easy", seed), state, 1) <= BID + 1


def test_easy_never_bids_to_win_a_one_card_hand_it_sees_it_cannot_win() -> None:
    # Seat 1 sees the top manilha (4c) on seat 2: a win is impossible, and even a beginner knows it.
    state = hand_at(1, [["5d"], ["3h"], ["4c"], ["6d"]])
    for seed in range(40):
        assert decide(make_player("easy", seed), state, 1) == BID


def test_the_hard_bot_searches_at_a_simultaneous_node_and_beats_random_in_the_sealed_bid_game() -> None:
    """Issue 8 §3: at a node where both seats are awaited the search spreads its visits over its OWN legal actions
    (decoupled UCT), and it beats random play clearly. Iteration-capped, seeded: the same result on every run."""
    from toygame import Lances

    game = Lances()
    state = game.new_match({"rounds": 3}, 11)
    assert game.awaiting(state) == {0, 1}
    for seat in (0, 1):
        hard = HardPlayer(seat, think_ms=1e7, max_iterations=300)
        action = hard.choose(Seen(game, state, seat))
        assert action in game.legal_actions(state, seat)
        assert set(hard.last_visits) == set(game.legal_actions(state, seat))
        assert sum(hard.last_visits.values()) == 300
    better = worse = 0
    for m in range(60):
        for hard_seat in (0, 1):  # duplicate seating: each deal played from both seats
            state = game.new_match({"rounds": 3}, 1000 + m)
            players: list[Player] = [make_player("random", 7 * m + hard_seat)] * 2
            players[hard_seat] = HardPlayer(m, think_ms=1e7, max_iterations=200)
            play_checked(game, state, players)
            outcome = game.outcome(state)
            assert outcome is not None
            mine, theirs = outcome.placements[hard_seat], outcome.placements[1 - hard_seat]
            better += mine < theirs
            worse += mine > theirs
    assert better >= 1.3 * worse, (better, worse)
