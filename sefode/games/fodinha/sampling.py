"""What the bots need of a Fodinha match (``Game.clone``, ``infoset_key``, ``unseen_cards``, ``from_view``,
``resample``): copies, information sets and hidden cards dealt again, never the real ones."""

from __future__ import annotations

import random
from collections.abc import Hashable

from sefode.engine import IllegalAction, Seat, View
from sefode.games.fodinha.cards import TRUCO_DECK_SIZE, truco_code
from sefode.games.fodinha.dealing import seating, visible_vira
from sefode.games.fodinha.rules import SEFODE_STRENGTH_1, SEFODE_STRENGTH_2, sete_letras_strength
from sefode.games.fodinha.state import OVER, FodinhaState, Phase, Trick
from sefode.games.fodinha.views import sees


def clone_state(state: FodinhaState) -> FodinhaState:
    st = state
    # Tricks of the hand in progress may still change (a bolo taken later), so they are copied.
    tricks = [Trick(t.leader, t.plays, t.winner, t.value, t.taken_by, t.hand) for t in st.tricks]
    return FodinhaState(
        seed=st.seed,
        rng=st.copy_rng(),
        options=st.options,
        seats=st.seats,
        phase=st.phase,
        log=st.log[:],
        opts=st.opts,
        unit=st.unit[:],
        units=st.units,
        score=st.score[:],
        alive=st.alive[:],
        first_dealer=st.first_dealer,
        dealer=st.dealer,
        presets=st.presets,
        hand_no=st.hand_no,
        size=st.size,
        climbing=st.climbing,
        order=st.order,
        nxt=st.nxt,
        hands=[h[:] for h in st.hands],
        dealt=[h[:] for h in st.dealt],
        vira=st.vira,
        strength=st.strength,
        turn=st.turn,
        bids=st.bids[:],
        nbids=st.nbids,
        leader=st.leader,
        trick=st.trick[:],
        acc=st.acc,
        last_winner=st.last_winner,
        won=st.won[:],
        tricks=tricks,
        shown=st.shown[:],
        deal_error=st.deal_error,
        records=st.records[:],
        match_tricks=st.match_tricks[: len(st.match_tricks) - len(st.tricks)] + tricks,
        leaving=st.leaving[:],
        left_key=dict(st.left_key),
        reserved=dict(st.reserved),
        out_key=st.out_key[:],
        placements=None if st.placements is None else st.placements[:],
        grouped_past=st.grouped_past,
    )


def infoset_key(state: FodinhaState, seat: Seat) -> Hashable:
    st = state
    visible = tuple(
        tuple(sorted(c % TRUCO_DECK_SIZE for c in st.hands[o])) if sees(st, seat, o) else len(st.hands[o])
        for o in range(st.seats)
    )
    return (
        seat,
        st.hand_no,
        st.dealer,
        tuple(st.score),
        tuple(st.alive),
        tuple(st.leaving),
        tuple(st.shown),
        visible_vira(st),
        visible,
        tuple(st.bids),
        tuple((t.leader, tuple((s, c % TRUCO_DECK_SIZE) for s, c in t.plays)) for t in st.tricks),
        tuple((s, c % TRUCO_DECK_SIZE) for s, c in st.trick),
    )


def unseen_cards(state: FodinhaState, seat: Seat) -> list[int]:
    """Card codes whose place ``seat`` does not know (others' hidden hands, the hidden vira, its own
    forehead card, and the cards not dealt)."""
    st = state
    known: set[int] = set()
    for o in range(st.seats):
        if sees(st, seat, o):
            known.update(st.hands[o])
    for t in st.tricks:
        known.update(c for _, c in t.plays)
    known.update(c for _, c in st.trick)
    if visible_vira(st) is not None:
        known.add(st.vira)
    return [c for c in range(TRUCO_DECK_SIZE * st.opts.decks) if c not in known]


def from_view(st: FodinhaState, view: View, seat: Seat) -> FodinhaState:
    """The hand in progress as ``seat`` sees it (``Game.from_view``): scores, bids, tricks and visible cards from
    the view; hidden hands (and a hidden vira) filled with cards nobody is seen holding, for ``resample`` to deal
    again. Past hands are not rebuilt (the bots look no further back than the scores). ``st`` is a new match with the
    view's options, which this fills in."""
    n = st.seats
    if view.get("seats") != n or view.get("phase") == OVER:
        raise IllegalAction("this view is not of a match in progress", "action/invalid")
    decks = st.opts.decks
    used: dict[int, int] = {}

    def code(name: object) -> int:
        base = truco_code(name)
        copy = used.get(base, 0)
        used[base] = copy + 1
        return base + min(copy, decks - 1) * TRUCO_DECK_SIZE

    st.hand_no = int(view["hand_number"])
    st.size = int(view["cards"])
    st.dealer = int(view["dealer"])
    st.alive = [bool(a) for a in view["alive"]]
    st.leaving = [bool(x) for x in view["left"]]
    for s_ in range(n):
        st.score[st.unit[s_]] = int(view["scores"][s_])
    st.order, st.nxt = seating(n, st.dealer, st.alive)
    st.phase = Phase(view["phase"])
    st.bids = [-1 if b is None else int(b) for b in view["bids"]]
    st.nbids = sum(1 for b in view["bids"] if b is not None)
    st.leader = int(view["leader"])
    st.acc = int(view["trick_value"]) - 1
    st.won = [int(w) for w in view["won"]]
    st.shown = [bool(x) for x in view["shown"]]
    st.tricks = [
        Trick(
            int(t["leader"]),
            [(int(p), code(c)) for p, c in t["plays"]],
            t["winner"],
            int(t["value"]),
            t["winner"],
            st.hand_no,
        )
        for t in view["tricks"]
    ]
    st.match_tricks = list(st.tricks)
    st.grouped_past = None
    st.last_winner = next((int(t.winner) for t in reversed(st.tricks) if t.winner is not None), -1)
    st.trick = [(int(p), code(c)) for p, c in view["trick"]]
    # Whose turn it is (the view does not say: the state message's ``awaiting`` does): the next bidder, or the seat
    # as many places after the trick's leader as cards are on the table.
    st.turn = st.order[st.nbids] if st.phase is Phase.BIDDING else st.leader
    if st.phase is Phase.PLAYING:
        for _ in st.trick:
            st.turn = st.nxt[st.turn]
    visible = view["hands"]
    hands: list[list[int]] = [[] for _ in range(n)]
    for o in range(n):
        if visible[o] is not None:
            hands[o] = [code(c) for c in visible[o]]
    if view.get("vira") is not None:
        st.vira = code(view["vira"])
    free = [c for c in range(TRUCO_DECK_SIZE * decks) if used.get(c % TRUCO_DECK_SIZE, 0) <= c // TRUCO_DECK_SIZE]
    if st.opts.sete_letras and view.get("vira") is None:
        st.vira = free.pop()
    for o in range(n):
        if visible[o] is None:
            k = int(view["hand_counts"][o])
            hands[o], free = free[:k], free[k:]
    st.hands = hands
    if st.opts.sete_letras:
        st.strength = sete_letras_strength(st.vira)
    else:
        st.vira = -1
        st.strength = SEFODE_STRENGTH_2 if decks == 2 else SEFODE_STRENGTH_1
    st.dealt = [
        [c for t in st.tricks for p, c in t.plays if p == o] + [c for p, c in st.trick if p == o] + hands[o]
        for o in range(n)
    ]
    return st


def resample(state: FodinhaState, seat: Seat, rng: random.Random) -> FodinhaState:
    st = clone_state(state)
    st.rng = random.Random(rng.getrandbits(64))
    st.seed = -1  # the match seed would give every deal away
    if st.phase is OVER:
        return st
    pool = unseen_cards(state, seat)
    rng.shuffle(pool)
    pos = 0
    hidden = [o for o in range(st.seats) if not sees(state, seat, o)]
    for o in hidden:
        k = len(st.hands[o])
        st.hands[o] = pool[pos : pos + k]
        pos += k
        # The record of the deal must not keep the real hidden cards either.
        st.dealt[o] = [c for t in st.tricks for s, c in t.plays if s == o] + [c for s, c in st.trick if s == o]
        st.dealt[o] += st.hands[o]
    if st.opts.sete_letras and visible_vira(state) is None:
        st.vira = pool[pos]
        st.strength = sete_letras_strength(st.vira)
    st.presets = {}
    return st
