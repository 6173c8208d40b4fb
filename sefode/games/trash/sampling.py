"""Search support for One Man's Trash: copies, information sets, and dealing again what a seat cannot see."""

from __future__ import annotations

import random
from collections.abc import Hashable

from sefode.engine import Seat
from sefode.games.trash.rules import DRAW
from sefode.games.trash.state import TrashState


def clone_state(state: TrashState) -> TrashState:
    st = state
    return TrashState(
        seed=st.seed,
        rng=st.copy_rng(),
        options=st.options,
        seats=st.seats,
        phase=st.phase,
        log=st.log[:],
        opts=st.opts,
        collectors=st.collectors,
        fits=st.fits,
        first=st.first,
        hands=[h[:] for h in st.hands],
        piles=[p[:] for p in st.piles],
        draw=st.draw[:],
        known=[k[:] for k in st.known],
        alive=st.alive[:],
        turn=st.turn,
        turns=st.turns[:],
        start_piles=st.start_piles,
        dealt=st.dealt[:],
        preset=st.preset,
        out=st.out[:],
        drawn=st.drawn[:],
        winner=st.winner,
        reason=st.reason,
        placements=None if st.placements is None else st.placements[:],
        left=st.left[:],
    )


def infoset_key(state: TrashState, seat: Seat) -> Hashable:
    st = state
    own_draws = tuple(d for (s, a), d in zip(_draw_entries(st), st.drawn, strict=True) if s == seat)
    return (
        seat,
        st.first,
        st.start_piles,
        tuple(len(h) for h in st.dealt),
        tuple(sorted(st.dealt[seat])) if 0 <= seat < st.seats else (),
        tuple(st.log),
        own_draws if 0 <= seat < st.seats else (),
        tuple(sorted(st.hands[seat])) if 0 <= seat < st.seats else (),
    )


def _draw_entries(st: TrashState) -> list[tuple[int, int]]:
    return [(s, a) for s, a in st.log if a == DRAW]


def unseen_cards(state: TrashState, seat: Seat) -> list[int]:
    """Cards whose place ``seat`` does not know: the others' hands less what they took from the table,
    and the Draw Pile."""
    st = state
    pool: list[int] = []
    for o in range(st.seats):
        if o == seat:
            continue
        hidden = st.hands[o][:]
        for c in st.known[o]:
            hidden.remove(c)
        pool.extend(hidden)
    pool.extend(st.draw)
    return pool


def resample(state: TrashState, seat: Seat, rng: random.Random) -> TrashState:
    st = clone_state(state)
    st.rng = random.Random(rng.getrandbits(64))
    st.seed = -1  # the match seed would give the deal away
    st.preset = None
    if st.over:
        return st
    pool = sorted(unseen_cards(state, seat))  # a function of what the seat knows, not of where they are
    rng.shuffle(pool)
    pos = 0
    for o in range(st.seats):
        if o == seat:
            continue
        k = len(st.hands[o]) - len(st.known[o])
        st.hands[o] = pool[pos : pos + k] + st.known[o]
        pos += k
        st.dealt[o] = (-1,) * len(st.dealt[o])
    st.draw = pool[pos:]
    # What the others drew is unknown to ``seat``: forget it.
    drawn = st.drawn
    i = 0
    for s, a in st.log:
        if a == DRAW:
            if s != seat:
                drawn[i] = -1
            i += 1
    return st
