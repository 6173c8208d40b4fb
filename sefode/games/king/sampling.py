"""Search support for King: copies, information sets (every decision is public; a seat sees its own hand), and
dealing the others' hidden cards again, respecting every card a seat has shown it does not hold."""

from __future__ import annotations

import random
from collections.abc import Hashable

from sefode.engine import Seat
from sefode.games.king.rules import ALL, SEATS, cards_of
from sefode.games.king.state import KingState, Phase


def clone_state(state: KingState) -> KingState:
    st = state
    return KingState(
        seed=st.seed,
        rng=st.copy_rng(),
        options=st.options,
        seats=SEATS,
        phase=st.phase,
        log=st.log[:],
        fixed=st.fixed,
        first_dealer=st.first_dealer,
        presets=st.presets,
        hand_no=st.hand_no,
        dealer=st.dealer,
        chooser=st.chooser,
        contract=st.contract,
        trump=st.trump,
        hands=st.hands[:],
        dealt=st.dealt[:],
        turn=st.turn,
        leader=st.leader,
        trick=st.trick[:],
        led=st.led,
        top_led=st.top_led,
        top_trump=st.top_trump,
        broken=st.broken,
        played=st.played,
        excluded=st.excluded[:],
        tricks=st.tricks[:],
        points=st.points[:],
        totals=st.totals[:],
        trunfo_chosen=st.trunfo_chosen[:],
        pool_chosen=st.pool_chosen[:],
        pool_played=st.pool_played,
        records=st.records[:],
        placements=None if st.placements is None else st.placements[:],
        left=st.left[:],
    )


def infoset_key(state: KingState, seat: Seat) -> Hashable:
    # Every decision is public (contracts, trumps, plays); a seat sees its own hand and nothing else.
    return (seat, state.hand_no, state.hands[seat] if state.phase is not Phase.OVER else 0, tuple(state.log))


def unseen_mask(state: KingState, seat: Seat) -> int:
    """Cards of the hand in progress whose place ``seat`` does not know: in the others' hands."""
    return ALL & ~state.hands[seat] & ~state.played


def resample(state: KingState, seat: Seat, rng: random.Random) -> KingState:
    """Deal the others' hidden cards again at random, respecting every card a seat has shown it does
    not hold (a void, a forced play it did not make): ``excluded``. The deal is drawn card by card,
    each card going to a seat that may hold it, and only where Hall's condition says the rest can
    still be dealt, so it never fails."""
    st = clone_state(state)
    st.rng = random.Random(rng.getrandbits(64))
    st.seed = -1  # the match seed would give every deal away
    st.presets = {}
    if st.phase is Phase.OVER:
        return st
    others = [o for o in range(SEATS) if o != seat]
    pool = cards_of(unseen_mask(state, seat))
    rng.shuffle(pool)
    sizes = [st.hands[o].bit_count() for o in others]
    excluded = [st.excluded[o] for o in others]
    new = [0, 0, 0]
    if not (excluded[0] | excluded[1] | excluded[2]) & ALL & ~state.played & ~state.hands[seat]:
        pos = 0
        for i in range(3):
            m = 0
            for c in pool[pos : pos + sizes[i]]:
                m |= 1 << c
            new[i] = m
            pos += sizes[i]
    else:
        new = _constrained_deal(pool, sizes, excluded, rng)
    played_by = [0] * SEATS
    for t in st.tricks:
        for s, c in t.plays:
            played_by[s] |= 1 << c
    for s, c in st.trick:
        played_by[s] |= 1 << c
    for i, o in enumerate(others):
        st.hands[o] = new[i]
        st.dealt[o] = new[i] | played_by[o]
    return st


def _constrained_deal(pool: list[int], sizes: list[int], excluded: list[int], rng: random.Random) -> list[int]:
    """Deal ``pool`` to three seats of ``sizes`` so that no seat gets a card of its ``excluded`` mask.

    Cards are grouped by the set of seats that may hold them (a 3-bit mask); a card goes to seat ``i``
    only if, afterwards, every set T of seats can still take the cards that only T may hold (Hall).
    """
    groups = [0] * 8
    allowed_of: list[int] = []
    for c in pool:
        b = 1 << c
        a = (0 if excluded[0] & b else 1) | (0 if excluded[1] & b else 2) | (0 if excluded[2] & b else 4)
        allowed_of.append(a)
        groups[a] += 1
    caps = sizes[:]
    new = [0, 0, 0]

    def feasible() -> bool:
        for t in range(1, 8):
            need = 0
            for a in range(1, 8):
                if a & ~t == 0:
                    need += groups[a]
            cap = (caps[0] if t & 1 else 0) + (caps[1] if t & 2 else 0) + (caps[2] if t & 4 else 0)
            if need > cap:
                return False
        return True

    # The most constrained cards first (fewest seats allowed), random order otherwise.
    order = sorted(range(len(pool)), key=lambda k: allowed_of[k].bit_count())
    for k in order:
        a = allowed_of[k]
        groups[a] -= 1
        seats = [i for i in range(3) if a >> i & 1 and caps[i] > 0]
        weights = [caps[i] for i in seats]
        chosen = -1
        while seats:
            pick = rng.choices(range(len(seats)), weights)[0]
            i = seats[pick]
            caps[i] -= 1
            if feasible():
                chosen = i
                break
            caps[i] += 1
            del seats[pick]
            del weights[pick]
        if chosen < 0:  # cannot happen when the real deal respects ``excluded``; deal anywhere then
            chosen = max(range(3), key=lambda i: caps[i])
            caps[chosen] -= 1
        new[chosen] |= 1 << pool[k]
    return new
