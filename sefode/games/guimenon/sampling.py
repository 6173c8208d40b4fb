"""Search support for Guimenon: information sets, and dealing again what a seat cannot see (its own deck's order, the
other seat's hand and deck, the face-down Locations; the other seat's unconfirmed plays go back to its hand)."""

from __future__ import annotations

import random
from collections.abc import Hashable

from sefode.engine import Seat
from sefode.games.guimenon import rules
from sefode.games.guimenon.dealing import READY_DECKS
from sefode.games.guimenon.rules import CARDSET, LOCATION_DEFS, N
from sefode.games.guimenon.state import LOCATIONS, SEATS, GState
from sefode.games.guimenon.views import public_hand_count


def infoset_key(state: GState, seat: Seat) -> Hashable:
    st = state
    board = tuple((u.uid, u.card.index, u.owner, u.loc, u.perm) for loc in st.board for side in loc for u in side)
    return (
        seat,
        st.turn,
        st.revealed,
        tuple(st.locations[: st.revealed]),
        tuple(sorted(st.hand[seat])),
        tuple(st.pending[seat]),
        tuple(st.pending_discards[seat]),
        board,
        tuple(tuple(d) for d in st.discard),
        tuple(public_hand_count(st, s) for s in range(SEATS)),
        tuple(len(d) for d in st.draw),
        tuple(st.confirmed),
        tuple(st.moon_bonus),
        st.moon[seat],
        st.over,
    )


def resample(state: GState, seat: Seat, rng: random.Random) -> GState:
    """Everything ``seat`` cannot see dealt again: its own deck's order, the other seat's hand and deck
    (from a ready deck that holds every card it has revealed, else from the whole set), the face-down
    Locations. The other seat's unconfirmed plays are never looked at: they go back to its hand before
    the deal; if it had confirmed, it stays confirmed with nothing placed (search bots that want it to
    play take that back, see ``bots``)."""
    st = state.clone()
    st.rng = random.Random(rng.getrandbits(64))
    st.log = []  # the log holds the other seat's secret actions of this turn
    rng.shuffle(st.draw[seat])
    other = 1 - seat
    for card, _ in st.pending[other]:
        st.moon[other] += rules.cost(st, other, card)
    hidden = len(st.hand[other]) + len(st.pending[other]) + len(st.pending_discards[other])
    st.owed[other] += len(st.pending_discards[other])
    st.pending[other] = []
    st.pending_discards[other] = []
    # A seat that confirmed stays confirmed (that much is public), with no placement: what it placed is secret.
    n_draw = len(st.draw[other])
    seen = st.seen[other]
    fits = [d for d in READY_DECKS if seen.issubset(CARDSET.by_id[c].index for c in CARDSET.decks[d].cards)]
    pool: list[int] = []
    if fits:
        deck = CARDSET.decks[fits[rng.randrange(len(fits))]]
        pool = [CARDSET.by_id[c].index for c in deck.cards if CARDSET.by_id[c].index not in seen]
        rng.shuffle(pool)
    need = hidden + n_draw
    if len(pool) < need:
        rest = [c for c in range(N) if c not in seen and c not in pool]
        rng.shuffle(rest)
        pool += rest[: need - len(pool)]
    st.hand[other] = pool[:hidden]
    st.draw[other] = pool[hidden:need]
    st.cost_mod[other] = {}
    if st.revealed < LOCATIONS:
        shown = set(st.locations[: st.revealed])
        rest = [x for x in range(len(LOCATION_DEFS)) if x not in shown]
        rng.shuffle(rest)
        st.locations = st.locations[: st.revealed] + rest[: LOCATIONS - st.revealed]
    return st
