"""One Man's Trash bots (issue 12): what the hard bot reads from the public record, and that it decides from its
seat's information set alone."""

from __future__ import annotations

import json
import random
from pathlib import Path

from sefode.bots.base import Player, Seen
from sefode.bots.levels import HardPlayer
from sefode.bots.players import make_player
from sefode.cards import standard_code
from sefode.games.trash import Trash, TrashState
from sefode.games.trash.bots import TrashHooks, block_known_win, known_near_wins, last_draw_tops, searcher
from sefode.games.trash.rules import COLLECT, DRAW, rank_of
from sefode.history import replay

GAME = Trash()


def situations(matches: int, seed: int, players: int = 3) -> list[TrashState]:
    """Positions of normal-bot matches, each a copy taken before a decision with more than one legal action."""
    rng = random.Random(seed)
    out: list[TrashState] = []
    for m in range(matches):
        st = GAME.new_match({"players": players, "jokers": m % 2 == 0}, seed * 100 + m)
        bots = [make_player("normal", seed + s) for s in range(players)]
        while GAME.awaiting(st):
            s = st.turn
            if len(GAME.legal_actions(st, s)) > 1 and rng.random() < 0.15:
                out.append(GAME.clone(st))
            GAME.apply(st, s, bots[s].choose(Seen(GAME, st, s)))
    return out


def test_the_pile_tops_at_each_seats_last_draw_are_replayed_from_the_public_record() -> None:
    checked = 0
    for st in situations(12, 1):
        if not st.log or st.log[-1][1] != DRAW:
            continue
        drew = st.log[-1][0]
        det = GAME.resample(st, st.turn, random.Random(2))  # what the searching seat has: a determinization
        tops = last_draw_tops(det)[drew]
        real = [p[-1] for p in st.piles]
        assert [t in st.collectors or t for t in tops] == [t in st.collectors or t for t in real]
        checked += 1
    assert checked > 20


def test_a_later_action_than_a_draw_says_nothing_about_it() -> None:
    st = GAME.new_match({"players": 3}, 5, {"first": 0})
    GAME.apply(st, 0, DRAW)
    assert set(last_draw_tops(st)) == {0}
    legal = [a for a in GAME.legal_actions(st, 1) if a != DRAW]
    GAME.apply(st, 1, legal[0])
    GAME.apply(st, 2, DRAW)
    GAME.apply(st, 0, next(a for a in GAME.legal_actions(st, 0) if a != DRAW))
    assert set(last_draw_tops(st)) == {2}


def test_a_determinization_names_the_seat_it_was_drawn_for() -> None:
    for st in situations(2, 3):
        assert searcher(st) == -1  # the real state knows every hand as dealt
        for seat in range(st.n):
            assert searcher(GAME.resample(st, seat, random.Random(seat))) == seat


def deal_for_seat_2(seat_1_hand: list[str]) -> TrashState:
    """Seat 1 drew last (the piles' tops 5s, 9d, Kh); a determinization of seat 2 in which seat 1 holds the given
    cards (a hand of 4: three dealt and the card drawn)."""
    deal = {"hands": [["2c", "2d", "3h"], ["Jc", "Jd", "Jh"], ["6c", "6d", "Ts"]], "piles": [["5s"], ["9d"], ["Kh"]]}
    st = GAME.new_match({"players": 3}, 5, {"deal": deal, "first": 1})
    GAME.apply(st, 1, DRAW)
    det = GAME.resample(st, 2, random.Random(1))
    det.hands[1] = [standard_code(c) for c in seat_1_hand]
    return det


def test_a_player_who_drew_was_unlikely_to_hold_junk_that_fitted_a_pile() -> None:
    hooks = TrashHooks(infer=0.3)
    # Nothing fitted but its rank: 7s and a 2 fit none of 5, 9, K.
    assert hooks.plausibility(deal_for_seat_2(["7c", "7d", "7h", "2s"]), 2) == 1.0
    # One fitting card may be the one it drew.
    assert hooks.plausibility(deal_for_seat_2(["7c", "7d", "7h", "4s"]), 2) == 1.0
    # Two fitting junk cards (8 on 9, Q on K): at least one was there before the draw, and shedding it was better.
    assert abs(hooks.plausibility(deal_for_seat_2(["7c", "7d", "8c", "Qd"]), 2) - 0.3) < 1e-9
    # Cards of its most held rank fitting a pile are no junk.
    assert hooks.plausibility(deal_for_seat_2(["4c", "4d", "4h", "7s"]), 2) == 1.0
    assert TrashHooks(infer=0.0).plausibility(deal_for_seat_2(["7c", "7d", "8c", "Qd"]), 2) == 1.0


def test_at_the_others_turns_the_tree_follows_the_normal_policy() -> None:
    hooks = TrashHooks()
    for st in situations(3, 4):
        seat = st.turn
        other = (seat + 1) % st.n
        det = GAME.resample(st, (seat + 2) % st.n, random.Random(3))  # searched for a seat that is not `seat`
        if other == (seat + 2) % st.n:
            continue
        legal = GAME.legal_actions(det, seat)
        picked = hooks.candidates(det, seat, legal)
        assert len(picked) == 1 and picked[0] in legal
        own = GAME.resample(st, seat, random.Random(3))
        mine = hooks.candidates(own, seat, GAME.legal_actions(own, seat))
        assert 1 <= len(mine) <= hooks.width


def twin(st: TrashState, seat: int, rng: random.Random) -> TrashState:
    """A real state with the same information set for ``seat`` and the hidden cards dealt differently."""
    other = GAME.resample(st, seat, rng)
    other.seed = rng.randrange(1 << 30)
    other.dealt = list(st.dealt)  # the record of the others' deals is not shown to the seat
    assert GAME.infoset_key(other, seat) == GAME.infoset_key(st, seat)
    return other


def bot(kind: str) -> Player:
    return HardPlayer(7, think_ms=1e7, max_iterations=25) if kind == "hard" else make_player(kind, 7)


def test_the_bots_decide_from_their_information_set_alone() -> None:
    rng = random.Random(6)
    differing = 0
    for st in situations(6, 5):
        seat = st.turn
        other = twin(st, seat, rng)
        differing += any(sorted(other.hands[o]) != sorted(st.hands[o]) for o in range(st.n) if o != seat)
        for kind in ("easy", "normal", "hard"):
            first = bot(kind).choose(Seen(GAME, st, seat))
            second = bot(kind).choose(Seen(GAME, other, seat))
            assert first == second, kind
    assert differing > 10


def test_near_the_turn_limit_the_search_counts_no_one_winning_as_a_loss_that_grows() -> None:
    """docs/rulings.md §3.5 (the 100-turn limit): a match that reaches it has no winner, a loss for every seat. In the
    last ``late`` turns the hard bot's reward gives "no one wins" a share of the softmax that grows towards the limit,
    so a stalemate no longer looks free to it."""
    hooks = TrashHooks(late=40, nobody=(30.0, 90.0))
    st = situations(1, 8)[0]
    early = hooks.rewards(st, st)
    assert abs(sum(early) - 1 / 1.1) < 1e-9  # the fixed tenth far from the limit
    shares = []
    for left in (39, 20, 1):
        st.turns = [100 - left] * st.n
        rewards = hooks.rewards(st, st)
        assert all(r >= 0 for r in rewards)
        shares.append(sum(rewards))
        # The seats keep their order: the softmax of the hands is only scaled down.
        assert sorted(range(st.n), key=lambda s: rewards[s]) == sorted(range(st.n), key=lambda s: early[s])
    assert shares[0] > shares[1] > shares[2] > 0.0
    assert shares[2] < 0.5  # at the limit a stalemate is nearly certain: the seats' hands are worth far less
    assert TrashHooks(late=0).rewards(st, st) == early  # late=0: the fixed tenth to the end


# ------------------------------------------------------------------ a known near-win (issue 27)
MATCH3 = Path(__file__).resolve().parents[1] / "bench" / "trash_solo" / "match3.json"


def match3_at(n: int) -> TrashState:
    """The third recorded solo match restored from its history up to ``n`` actions."""
    history = json.loads(MATCH3.read_text())
    history["actions"] = history["actions"][:n]
    done = replay(history)
    assert done.error is None
    state: TrashState = done.state
    return state


def test_hard_bot_blocks_a_known_win_match3_action_99() -> None:
    """Issue 27: at action 99 of `bench/trash_solo/match3.json` seat 2 (hard) holds both Collectors; seat 1 holds four
    cards, the 4c and 4d known (it collected them) and just shed its last other card: four 4s, with one pile to win on
    (the 5d on top of pile 4). The hard bot takes that pile away (it drew, and seat 1 won at its next turn)."""
    st = match3_at(99)
    seat = st.turn
    assert seat == 2 and sum(c in st.collectors for c in st.hands[2]) == 2
    assert known_near_wins(st, 2) == [(1, rank_of(standard_code("4c")))]
    action = HardPlayer(7, think_ms=1e7, max_iterations=25).choose(Seen(GAME, st, seat))
    assert action == COLLECT + 4, "it collects the winner's only pile"
    GAME.apply(st, seat, action)
    assert not [i for i, p in enumerate(st.piles) if p[-1] not in st.collectors and
                rank_of(p[-1]) in (rank_of(standard_code("3c")), rank_of(standard_code("5c")))], "no pile left for 4s"


def test_a_near_win_is_inferred_only_from_what_the_table_shows() -> None:
    """Four known cards of one rank are shown; two known and a trash that left exactly four are inferred; the same
    hand after a draw, or with a missing card in sight, is not a known near-win."""
    st = match3_at(99)
    assert (1, 3) in known_near_wins(st, 2) and (1, 3) in known_near_wins(st, 0)
    drew = match3_at(99)
    drew.log[-1] = (1, DRAW)
    assert known_near_wins(drew, 2) == [], "after a draw the two hidden cards could be anything"
    seen = match3_at(99)
    seen.piles[0].append(standard_code("4h"))
    seen.hands[1].remove(standard_code("4h"))
    seen.hands[1].append(standard_code("9s"))
    assert known_near_wins(seen, 2) == [], "the 4h is on a pile: seat 1 cannot hold four 4s"
    shown = match3_at(99)
    shown.known[1] = sorted(shown.hands[1])
    shown.log[-1] = (1, DRAW)
    assert known_near_wins(shown, 2) == [(1, 3)], "all four taken from the table: shown"


def test_without_a_known_win_the_block_leaves_the_decision_to_the_search() -> None:
    st = match3_at(96)
    assert block_known_win(st, st.turn, GAME.legal_actions(st, st.turn)) is None
