"""King knowledge for the bots: the easy and normal policies and the search hooks of the hard level.

Everything here reads a *determinized* state (``Seen.determinize``: every card the seat cannot see was
dealt again, respecting the voids each seat has shown) and only what the acting seat may see: its own
hand, the cards played, the contract, the trump and the scores.

* **easy** plays legal cards with little sense: often a random one, otherwise its lowest card in a negative
  contract and its highest in a positive one; it picks contracts and trumps almost at random.
* **normal** plays each contract on purpose: it ducks under the winning card, sheds its dangerous cards
  when void, keeps low cards for the last tricks of Duas Últimas, counts trumps in Trunfo (drawing them
  while it holds the most), and chooses contracts from its hand (a long, strong suit: Trunfo in that suit;
  few high cards: Vazas or Homens...).
* **hard** is the generic ISMCTS (``sefode.bots.search``) with :class:`KingHooks`: a simulation stops at the
  end of the hand, each seat is rewarded by its points there against the others', rollouts use a quick
  version of the normal play, and the contract (and trump) are chosen by the same Monte Carlo search, each
  contract measured against what it usually gives its chooser (``CHOOSER_PAR``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from sefode.bots.knowledge import BotKnowledge
from sefode.bots.policies import GamePolicies
from sefode.bots.search import SearchHooks
from sefode.engine import Action
from sefode.games.king.rules import (
    ACE,
    ALL,
    BOLOLA,
    CONTRACT,
    CONTRACTS,
    COPAS,
    DUAS_ULTIMAS,
    HAND_SIZE,
    HEART_MASK,
    HEARTS,
    HIGHER,
    HOMENS,
    JK_MASK,
    KH_MASK,
    KING,
    KING_OF_HEARTS,
    MULHERES,
    Q_MASK,
    SALADA,
    SUIT_MASK,
    TRUMP,
    TRUNFO,
    VAZAS,
)
from sefode.games.king.state import KingState, Phase

_RANK = [c % 13 for c in range(52)]
_SUIT = [c // 13 for c in range(52)]


# ------------------------------------------------------------------ what a card costs in a contract
def card_penalty(contract: int, card: int) -> int:
    """Points (as a positive cost) a card carries into the trick that takes it, in a negative contract."""
    b = 1 << card
    if contract == HOMENS:
        return 60 if b & JK_MASK else 0
    if contract == MULHERES:
        return 100 if b & Q_MASK else 0
    if contract == COPAS:
        return 30 if b & HEART_MASK else 0
    if contract == KING:
        return 320 if card == KING_OF_HEARTS else 0
    if contract == SALADA:
        cost = 0
        if b & JK_MASK:
            cost += 20
        if b & Q_MASK:
            cost += 30
        if b & HEART_MASK:
            cost += 10
        if card == KING_OF_HEARTS:
            cost += 95
        return cost
    return 0


_PENALTY = [[card_penalty(k, c) for c in range(52)] for k in range(len(CONTRACTS))]


def trick_cost(st: KingState, extra: int = -1) -> int:
    """The cost of taking the trick on the table (plus ``extra``), counting the trick itself and its place."""
    k = st.contract
    table = _PENALTY[k]
    cost = sum(table[c] for _, c in st.trick) + (table[extra] if extra >= 0 else 0)
    index = len(st.tricks)
    if k == VAZAS:
        cost += 50
    elif k == SALADA:
        cost += 15 + (40 if index == HAND_SIZE - 2 else 60 if index == HAND_SIZE - 1 else 0)
    elif k == DUAS_ULTIMAS:
        cost += 120 if index == HAND_SIZE - 2 else 240 if index == HAND_SIZE - 1 else 0
    return cost


def _winning_card(st: KingState) -> int:
    return st.top_trump if st.top_trump >= 0 else st.top_led


def _beats(st: KingState, card: int, best: int) -> bool:
    """Would ``card`` take the lead from ``best`` in the trick on the table?"""
    s = _SUIT[card]
    if s == _SUIT[best]:
        return card > best
    return st.trump >= 0 and s == st.trump


def _unseen(st: KingState, seat: int) -> int:
    return ALL & ~st.hands[seat] & ~st.played


# ------------------------------------------------------------------ easy
def easy_choice(st: KingState, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
    if st.phase is Phase.TRUMP:
        hand = st.hands[seat]
        if rng.random() < 0.5:
            return rng.choice(list(legal))
        return TRUMP + max(range(4), key=lambda s: (hand & SUIT_MASK[s]).bit_count())
    return rng.choice(list(legal))


def easy_play(st: KingState, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
    if rng.random() < 0.5:
        return rng.choice(list(legal))
    if CONTRACTS[st.contract].negative:
        return min(legal, key=lambda c: _RANK[c])
    return max(legal, key=lambda c: _RANK[c])


# ------------------------------------------------------------------ normal: choosing
def _suit_cards(hand: int, s: int) -> list[int]:
    m = (hand >> (13 * s)) & 8191
    return [13 * s + r for r in range(13) if m >> r & 1]


def hand_features(hand: int) -> dict[str, float]:
    ranks = [c % 13 for c in range(52) if hand >> c & 1]
    return {
        "hcp": float(sum(max(0, r - 8) for r in ranks)),  # J 1, Q 2, K 3, A 4
        "aces": float(sum(1 for r in ranks if r == ACE)),
        "high": float(sum(1 for r in ranks if r >= 9)),
        "low": float(sum(1 for r in ranks if r <= 4)),
    }


def trump_strength(hand: int, s: int) -> float:
    """Rough tricks a suit gives as trump: its length past 3 and its honours."""
    cards = _suit_cards(hand, s)
    honours = sum(max(0, c % 13 - 8) for c in cards)
    return len(cards) * 1.0 + honours * 0.35


def expected_tricks_nt(hand: int) -> float:
    """Rough tricks the hand takes when it tries not to: its high cards in short suits are the trouble."""
    tricks = 0.0
    for s in range(4):
        cards = _suit_cards(hand, s)
        lows = sum(1 for c in cards if c % 13 <= 5)
        for c in cards:
            r = c % 13
            if r >= 10:
                tricks += (0.55 if r == ACE else 0.4 if r == 11 else 0.25) * (1.0 if lows < 2 else 0.5)
    return tricks


def contract_value(hand: int, contract: int) -> float:
    """A rough guess of what ``contract`` gives this hand's chooser against the others (par = 0)."""
    f = hand_features(hand)
    if contract == TRUNFO:
        best = max(trump_strength(hand, s) for s in range(4))
        return 50.0 * (best - 6.0) + 25.0 * f["aces"]
    if contract == BOLOLA:
        return 25.0 * (f["hcp"] - 10.0)
    if contract == VAZAS:
        return 60.0 * (2.0 - expected_tricks_nt(hand)) - 8.0 * f["high"]
    if contract == HOMENS:
        men = (hand & JK_MASK).bit_count()
        return 60.0 * (1.5 - 0.7 * men) - 10.0 * f["aces"]
    if contract == MULHERES:
        value = 60.0
        for s in range(4):
            cards = _suit_cards(hand, s)
            if any(c % 13 == 10 for c in cards):
                lows = sum(1 for c in cards if c % 13 <= 6)
                value -= 90.0 if lows < 2 else 35.0
        return value - 10.0 * f["aces"]
    if contract == COPAS:
        hearts = _suit_cards(hand, HEARTS)
        high = sum(1 for c in hearts if c % 13 >= 9)
        lows = sum(1 for c in hearts if c % 13 <= 5)
        return 60.0 - 35.0 * high + 10.0 * lows - 5.0 * f["high"]
    if contract == KING:
        hearts = _suit_cards(hand, HEARTS)
        lows = sum(1 for c in hearts if c % 13 <= 7)
        risk = 0.15
        if hand & KH_MASK:
            risk = 0.55 if lows < 3 else 0.3
        elif hand >> (HEARTS * 13 + ACE) & 1:
            risk = 0.35 if lows < 2 else 0.2
        return 80.0 - 320.0 * risk
    if contract == DUAS_ULTIMAS:
        return 25.0 * (f["low"] - 4.0)
    if contract == SALADA:
        return 120.0 - 12.0 * f["hcp"] - 25.0 * expected_tricks_nt(hand)
    return 0.0


def normal_contract(st: KingState, seat: int, legal: Sequence[Action]) -> Action:
    hand = st.hands[seat]
    return max(legal, key=lambda a: (contract_value(hand, a - CONTRACT), -a))


def normal_trump(st: KingState, seat: int) -> Action:
    hand = st.hands[seat]
    return TRUMP + max(range(4), key=lambda s: (trump_strength(hand, s), -s))


# ------------------------------------------------------------------ normal: playing
def _highest(cards: Sequence[int]) -> int:
    return max(cards, key=lambda c: (_RANK[c], c))


def _lowest(cards: Sequence[int]) -> int:
    return min(cards, key=lambda c: (_RANK[c], c))


def _suit_danger(st: KingState, seat: int, card: int) -> float:
    """How likely ``card`` is to take a trick later: the unseen cards of its suit below it, against those above."""
    unseen = _unseen(st, seat)
    suit = SUIT_MASK[_SUIT[card]]
    above = (unseen & HIGHER[card]).bit_count()
    below = (unseen & suit & ~HIGHER[card]).bit_count()
    if above + below == 0:
        return 1.0
    return below / (above + below) * (1.0 if above < 2 else 0.6)


def negative_lead(st: KingState, seat: int, legal: Sequence[Action]) -> Action:
    table = _PENALTY[st.contract]

    def risk(c: int) -> tuple[float, int]:
        return (_suit_danger(st, seat, c) * (1.0 + table[c] / 50.0) + table[c] / 400.0, _RANK[c])

    if st.contract == DUAS_ULTIMAS and len(st.tricks) < HAND_SIZE - 3:
        # Early tricks cost nothing: cash the high cards now, keep the low ones for the last two tricks.
        return _highest(legal)
    return min(legal, key=risk)


def negative_follow(st: KingState, seat: int, legal: Sequence[Action]) -> Action:
    best = _winning_card(st)
    table = _PENALTY[st.contract]
    last = len(st.trick) == 3
    duas_early = st.contract == DUAS_ULTIMAS and len(st.tricks) < HAND_SIZE - 3
    following = _SUIT[legal[0]] == st.led and all(_SUIT[c] == st.led for c in legal)
    if not following:
        # Void: shed the most dangerous card (penalty first, then the high card most likely to win later).
        return max(legal, key=lambda c: (table[c], _suit_danger(st, seat, c), _RANK[c]))
    if duas_early:
        return _highest(legal)
    under = [c for c in legal if not _beats(st, c, best)]
    if under:
        # Duck with the highest card that still loses the trick.
        return max(under, key=lambda c: (_RANK[c], -table[c]))
    if last:
        # The trick is ours anyway: take it with the highest card (but keep penalty cards out of it).
        return max(legal, key=lambda c: (-table[c], _RANK[c]))
    # Someone may still go over us: play the lowest, unless the top is ours for sure (then shed the highest).
    unseen = _unseen(st, seat)
    if not any(unseen & HIGHER[c] for c in legal):
        return max(legal, key=lambda c: (-table[c], _RANK[c]))
    return min(legal, key=lambda c: (table[c], _RANK[c]))


def _outstanding_trumps(st: KingState, seat: int) -> int:
    return (_unseen(st, seat) & SUIT_MASK[st.trump]).bit_count() if st.trump >= 0 else 0


def positive_lead(st: KingState, seat: int, legal: Sequence[Action]) -> Action:
    unseen = _unseen(st, seat)
    hand = st.hands[seat]
    trump = st.trump
    if trump >= 0:
        trumps = [c for c in legal if _SUIT[c] == trump]
        outstanding = _outstanding_trumps(st, seat)
        mine = (hand & SUIT_MASK[trump]).bit_count()
        if trumps and outstanding and (mine >= outstanding or not unseen & HIGHER[_highest(trumps)]):
            # Count trumps: while we hold the most (or the top one), draw theirs.
            return _highest(trumps)
        side = [c for c in legal if _SUIT[c] != trump] or list(legal)
    else:
        side = list(legal)
    winners = [c for c in side if not unseen & HIGHER[c]]
    if winners:
        return _highest(winners)
    if st.contract == BOLOLA:
        # Lead low from a long suit, hoping to win it later; keep the high cards for tricks worth points.
        return _lowest(side)
    # Trunfo: lead from the shortest side suit, to be able to trump it later.
    return min(side, key=lambda c: ((hand & SUIT_MASK[_SUIT[c]]).bit_count(), _RANK[c]))


def positive_follow(st: KingState, seat: int, legal: Sequence[Action]) -> Action:
    best = _winning_card(st)
    unseen = _unseen(st, seat)
    last = len(st.trick) == 3
    winners = [c for c in legal if _beats(st, c, best)]
    table = _PENALTY[SALADA]
    if winners:
        cheapest = min(winners, key=lambda c: (_SUIT[c] == st.trump, _RANK[c]))
        if last:
            return cheapest
        safe = [c for c in winners if _SUIT[c] != st.led or not unseen & HIGHER[c]]
        if safe:
            return min(safe, key=lambda c: (_SUIT[c] == st.trump, _RANK[c]))
        top = max(winners, key=lambda c: (_SUIT[c] == st.trump, _RANK[c]))
        return top if _RANK[top] >= 10 else cheapest
    # Cannot win: throw the least useful card (in Bolola, never a card worth points to the winner).
    if st.contract == BOLOLA:
        return min(legal, key=lambda c: (table[c], _RANK[c]))
    return min(legal, key=lambda c: (_SUIT[c] == st.trump, _RANK[c]))


def normal_play(st: KingState, seat: int, legal: Sequence[Action]) -> Action:
    if len(legal) == 1:
        return legal[0]
    if CONTRACTS[st.contract].negative:
        return negative_lead(st, seat, legal) if not st.trick else negative_follow(st, seat, legal)
    return positive_lead(st, seat, legal) if not st.trick else positive_follow(st, seat, legal)


# ------------------------------------------------------------------ quick play for rollouts
def quick_play(st: KingState, seat: int, legal: Sequence[Action]) -> Action:
    """A cheap version of :func:`normal_play`: looks only at the trick on the table and at ranks."""
    if len(legal) == 1:
        return legal[0]
    negative = CONTRACTS[st.contract].negative
    if not st.trick:
        if negative and not (st.contract == DUAS_ULTIMAS and len(st.tricks) < HAND_SIZE - 3):
            return min(legal, key=lambda c: _RANK[c])
        return max(legal, key=lambda c: _RANK[c])
    best = st.top_trump if st.top_trump >= 0 else st.top_led
    led = st.led
    trump = st.trump
    low_lose = high_lose = low_win = high_win = -1
    for c in legal:
        s = c // 13
        wins = (c > best) if s == best // 13 else (s == trump)
        if wins:
            if low_win < 0 or c % 13 < low_win % 13:
                low_win = c
            if high_win < 0 or c % 13 > high_win % 13:
                high_win = c
        else:
            if low_lose < 0 or c % 13 < low_lose % 13:
                low_lose = c
            if high_lose < 0 or c % 13 > high_lose % 13:
                high_lose = c
    if negative:
        if st.contract == DUAS_ULTIMAS and len(st.tricks) < HAND_SIZE - 3:
            return max(legal, key=lambda c: c % 13)  # early tricks cost nothing: away with the high cards
        if legal[0] // 13 != led:  # void: shed the most costly, else the highest
            table = _PENALTY[st.contract]
            return max(legal, key=lambda c: (table[c], c % 13))
        if high_lose >= 0:
            return high_lose
        return high_win if len(st.trick) == 3 else low_win
    if low_win >= 0:
        return low_win
    return low_lose


# ------------------------------------------------------------------ the policies the arena and search use
class KingPolicies(GamePolicies):
    def easy(self, state: Any, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        st: KingState = state
        if st.phase is not Phase.PLAYING:
            return easy_choice(st, seat, legal, rng)
        return easy_play(st, seat, legal, rng)

    def normal(self, state: Any, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        st: KingState = state
        if st.phase is Phase.CHOOSING:
            return normal_contract(st, seat, legal)
        if st.phase is Phase.TRUMP:
            return normal_trump(st, seat)
        return normal_play(st, seat, legal)


CHOOSER_PAR: dict[int, float] = {
    VAZAS: -11.6,
    HOMENS: -7.4,
    MULHERES: -6.9,
    COPAS: -9.4,
    DUAS_ULTIMAS: -3.2,
    KING: -15.4,
    SALADA: -17.2,
    TRUNFO: 79.8,
    BOLOLA: -0.1,
}
"""Per contract: what choosing it usually gives the chooser against the others, in points, from self-play of
the normal bots over 3000 deals (each figure ± 4 to 9; ``bench/king_par.py --deals 3000``). The search weighs
a contract by how much better than that this hand does with it."""

REWARD_SCALE = 400.0


class KingHooks(SearchHooks):
    """Search to the end of the hand; reward each seat by its hand points against the others'."""

    def horizon(self, root: Any, state: Any) -> bool:
        r: KingState = root
        st: KingState = state
        return st.hand_no != r.hand_no or st.phase is Phase.OVER

    def rewards(self, root: Any, state: Any) -> list[float]:
        r: KingState = root
        st: KingState = state
        if st.records and st.records[-1].number == r.hand_no:
            record = st.records[-1]
            points = record.points
            contract = record.contract
        else:
            points = st.points
            contract = st.contract
        total = sum(points)
        out = [(4 * p - total) / 3.0 for p in points]
        if r.phase is Phase.CHOOSING and contract >= 0:
            out[r.chooser] -= CHOOSER_PAR.get(contract, 0.0)
        return [v / REWARD_SCALE for v in out]

    def headline(self, state: Any, seat: int) -> bool:
        """The chooser's contract (or trump): what the solo coach always names."""
        st: KingState = state
        return st.phase is not Phase.PLAYING and st.phase is not Phase.OVER

    def rollout(self, state: Any, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        st: KingState = state
        if st.phase is not Phase.PLAYING:
            if st.phase is Phase.CHOOSING:
                return normal_contract(st, seat, legal)
            return normal_trump(st, seat)
        if rng.random() < 0.1:
            return legal[rng.randrange(len(legal))]
        return quick_play(st, seat, legal)


KNOWLEDGE = BotKnowledge(policies=KingPolicies(), hooks=KingHooks())
"""What the generic bots know of King: ``King.bot_knowledge`` hands it to them."""
