"""Dealing a Fodinha hand: from the match's generator, or from a preset deal (a hand history's), with the deal
checks of seed 000 rules (c) and (d) (the server deals, so a count is always right)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sefode.engine import Event
from sefode.games.fodinha.cards import TRUCO_DECK_SIZE, CardError, truco_code, truco_name
from sefode.games.fodinha.rules import SEFODE_STRENGTH_1, SEFODE_STRENGTH_2, sete_letras_strength
from sefode.games.fodinha.state import BIDDING, OVER, FodinhaState
from sefode.match import sample_range

_ROUNDS: list[list[tuple[int, ...]]] = [
    [tuple((d + k) % n for k in range(1, n + 1)) for d in range(n)] for n in range(9)
]
"""``_ROUNDS[n][d]``: the ``n`` seats in the direction of play, from the one after seat ``d`` round to ``d`` itself."""
_NEXT: list[tuple[int, ...]] = [tuple((s + 1) % n for s in range(n)) for n in range(9)]
"""``_NEXT[n]``: each seat's next seat when all ``n`` are in."""
_MOST_CARDS = TRUCO_DECK_SIZE  # the largest hand: two decks between two players
_HAND_CUTS: list[tuple[slice, ...]] = [
    tuple(slice(i * size, (i + 1) * size) for i in range(8)) for size in range(_MOST_CARDS + 1)
]
"""``_HAND_CUTS[size][i]``: where the ``i``-th hand of ``size`` cards lies in a deal's cards (up to 8 seats)."""
_SEAT_CUTS: list[list[list[tuple[slice, ...]]]] = [
    [
        [tuple(_HAND_CUTS[size][(s - first) % n] for s in range(n)) for size in range(_MOST_CARDS + 1)]
        for first in range(n)
    ]
    for n in range(9)
]
"""``_SEAT_CUTS[n][first][size]``: each seat's hand in a deal's cards when all ``n`` seats are in and seat ``first``
is dealt first (the deal's ``order`` is then ``_ROUNDS[n][(first - 1) % n]``)."""
_NO_CARDS = slice(0, 0)


def seating(n: int, dealer: int, alive: list[bool]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The seats dealt into a hand, from the one after the dealer to the dealer, and each one's next seat in it (-1 for
    the seats out)."""
    everyone = _ROUNDS[n][dealer]
    if False not in alive:
        return everyone, _NEXT[n]
    order = tuple(filter(alive.__getitem__, everyone))  # the seats of ``everyone`` still alive
    nxt = [-1] * n
    prev = order[-1]
    for s in order:
        nxt[prev] = s
        prev = s
    return order, tuple(nxt)


def start_hand(st: FodinhaState, size: int, climbing: bool, events: list[Event] | None) -> None:
    st.hand_no += 1
    st.size = size
    st.climbing = climbing
    n = st.seats
    if False not in st.alive:  # seating()'s usual case written out: every seat is in
        order = _ROUNDS[n][st.dealer]
        st.nxt = _NEXT[n]
    else:
        order, st.nxt = seating(n, st.dealer, st.alive)
    st.order = order
    deal(st)
    first = order[0]
    st.phase = BIDDING
    st.bids = [-1] * n
    st.nbids = 0
    st.turn = first
    st.leader = first
    st.trick = []
    st.acc = 0
    st.last_winner = -1
    st.won = [0] * n
    st.tricks = []
    st.shown = [False] * n
    if events is not None:
        events.append(
            {
                "type": "deal",
                "hand": st.hand_no,
                "dealer": st.dealer,
                "cards": size,
                "vira": visible_vira(st),
            }
        )


def deal(st: FodinhaState) -> None:
    """Deal the hand in progress: from a preset (hand history) if one fits, else from the rng."""
    st.deal_error = None
    preset = st.presets.get(st.hand_no)
    if preset is not None:
        error = deal_preset(st, preset)
        if error is None:
            return
        st.deal_error = f"deals[{st.hand_no - 1}]: {error}"
    opts = st.opts
    order = st.order
    size = st.size
    n = st.seats
    deck = sample_range(st.rng, TRUCO_DECK_SIZE * opts.decks, len(order) * size + opts.sete_letras)  # as ``draw``
    # Each seat's cuts of the deck, hands in ``order`` one after the other (an empty cut for a seat not dealt in).
    if len(order) == n:
        cuts: Sequence[slice] = _SEAT_CUTS[n][order[0]][size]
    else:
        cuts = [_NO_CARDS] * n
        hand_cuts = _HAND_CUTS[size]
        for i, s in enumerate(order):
            cuts[s] = hand_cuts[i]
    cut = deck.__getitem__
    st.hands = list(map(cut, cuts))
    st.dealt = list(map(cut, cuts))
    if opts.sete_letras:
        st.vira = deck[-1]  # drawn after the hands
        st.strength = sete_letras_strength(st.vira)
    else:
        st.vira = -1
        st.strength = SEFODE_STRENGTH_2 if opts.decks == 2 else SEFODE_STRENGTH_1


def deal_preset(st: FodinhaState, preset: dict[str, Any]) -> str | None:
    hands = preset["hands"]
    if len(hands) != st.seats:
        return f"'hands' lists {len(hands)} seats but the table has {st.seats}"
    copies = st.opts.decks
    used: dict[int, int] = {}

    def take(name: object) -> int:
        base = truco_code(name)
        copy = used.get(base, 0)
        if copy >= copies:
            raise CardError(f"{name} is dealt more often than the {copies} deck(s) hold")
        used[base] = copy + 1
        return base + copy * TRUCO_DECK_SIZE

    new_hands: list[list[int]] = [[] for _ in range(st.seats)]
    try:
        for s in range(st.seats):
            cards = hands[s]
            if s not in st.order:
                if cards is not None:
                    return f"seat {s} is out but is dealt cards"
                continue
            if not isinstance(cards, list) or len(cards) != st.size:
                got = len(cards) if isinstance(cards, list) else cards
                return f"seat {s} must get {st.size} card(s) in hand {st.hand_no}, got {got!r}"
            new_hands[s] = [take(c) for c in cards]
        vira = -1
        if st.opts.sete_letras:
            if "vira" not in preset:
                return "a 7 Letras deal must give the 'vira' card"
            vira = take(preset["vira"])
        elif preset.get("vira") is not None:
            return "Se Fode has no vira; remove 'vira' from the deal"
    except CardError as err:
        return str(err)
    st.hands = new_hands
    st.vira = vira
    if st.opts.sete_letras:
        st.strength = sete_letras_strength(vira)
    else:
        st.strength = SEFODE_STRENGTH_2 if st.opts.decks == 2 else SEFODE_STRENGTH_1
    st.dealt = [h[:] for h in new_hands]
    # Advance the generator as a random deal would, so later hands do not depend on presets.
    draw(st)
    return None


def draw(st: FodinhaState) -> list[int]:
    """The cards of a random deal: one hand per seat in ``order``, then the vira (7 Letras)."""
    opts = st.opts
    wanted = len(st.order) * st.size + (1 if opts.sete_letras else 0)
    return sample_range(st.rng, TRUCO_DECK_SIZE * opts.decks, wanted)


def visible_vira(st: FodinhaState) -> str | None:
    if st.vira < 0 or (st.size == 1 and st.phase is not OVER):
        return None
    return truco_name(st.vira)


def deal_cards_error(deal: Mapping[str, Any], decks: int) -> str | None:
    """What is wrong with a preset deal's cards regardless of when it is dealt: a name that is not a card, or a
    card dealt more often than the ``decks`` hold (hands and vira together). Sizes and seats are checked when the
    hand is dealt (they depend on the match so far)."""
    seen: dict[int, int] = {}
    cards: list[object] = []
    for hand in deal["hands"]:
        if hand is None:
            continue
        if not isinstance(hand, list):
            return f"every entry of 'hands' is a list of cards or null, not {type(hand).__name__}"
        cards.extend(hand)
    if deal.get("vira") is not None:
        cards.append(deal["vira"])
    for name in cards:
        try:
            base = truco_code(name)
        except CardError as err:
            return str(err)
        seen[base] = seen.get(base, 0) + 1
        if seen[base] > decks:
            return f"{name} is dealt more often than the {decks} deck(s) hold"
    return None
