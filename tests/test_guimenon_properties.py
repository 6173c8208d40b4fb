"""Random-playout properties of Guimenon with random decks built by the deck rules: cards conserved, the limit of 4
per Location, Moon never negative, nothing of a hand, a deck or an unconfirmed play leaks, resample consistent."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as hs

from sefode.games.guimenon.cardset import MAX_PER_LOCATION
from sefode.games.guimenon.game import CONFIRM, Guimenon
from sefode.games.guimenon.rules import CARDSET
from sefode.games.guimenon.state import GState

G = Guimenon()
IDS = [c.id for c in CARDSET.cards]
DECK = hs.lists(hs.sampled_from(IDS), min_size=12, max_size=20, unique=True)


def cards_of(st: GState, seat: int) -> Counter[int]:
    held = st.draw[seat] + st.hand[seat] + st.discard[seat] + st.pending_discards[seat]
    held += [c for c, _ in st.pending[seat]]
    held += [u.card.index for loc in st.board for u in loc[seat] if not u.created]
    return Counter(held)


def check(st: GState) -> None:
    for seat in (0, 1):
        assert cards_of(st, seat) == Counter(CARDSET.by_id[c].index for c in st.deck_lists[seat]), "cards conserved"
        assert st.moon[seat] >= 0, "Moon never negative"
        for li in range(3):
            placed = sum(1 for _, at in st.pending[seat] if at == li)
            assert len(st.board[li][seat]) + placed <= MAX_PER_LOCATION


def public(view: dict[str, Any]) -> dict[str, Any]:
    return view


@settings(max_examples=40, deadline=None)
@given(DECK, DECK, hs.integers(0, 2**32), hs.integers(0, 2**32))
def test_random_playouts_keep_the_invariants_and_leak_nothing(d0: list[str], d1: list[str], seed: int,
                                                             choice_seed: int) -> None:
    st = G.new_match({}, seed, {"decks": [d0, d1]})
    rng = random.Random(choice_seed)
    steps = 0
    check(st)
    while G.awaiting(st):
        seat = rng.choice(sorted(G.awaiting(st)))
        legal = G.legal_actions(st, seat)
        assert legal, "a waiting seat always has something to do"
        action = CONFIRM if steps > 400 and CONFIRM in legal else rng.choice(legal)
        steps += 1
        other_before, spectator_before = G.view(st, 1 - seat), G.view(st, None)
        events = G.apply(st, seat, action)
        check(st)
        if action != CONFIRM:
            assert events == [], "secret actions make no events"
            assert G.view(st, 1 - seat) == other_before and G.view(st, None) == spectator_before
        elif len(events) == 1:
            assert G.view(st, None) == dict(spectator_before, confirmed=G.view(st, None)["confirmed"],
                                            awaiting=G.view(st, None)["awaiting"])
        if steps % 7 == 0 and G.awaiting(st):
            watcher = rng.randrange(2)
            sample = G.resample(st, watcher, random.Random(steps))
            assert public(G.view(sample, watcher)) == public(G.view(st, watcher)), "resample keeps what it sees"
            assert sample.pending[1 - watcher] == []
    outcome = G.outcome(st)
    assert outcome is not None and sorted(outcome.placements) in ([1, 1], [1, 2])
    assert st.turn == 6


@settings(max_examples=15, deadline=None)
@given(hs.integers(0, 2**32))
def test_same_seed_and_actions_same_match(seed: int) -> None:
    a = G.new_match({}, seed)
    b = G.new_match({}, seed)
    rng = random.Random(seed)
    while G.awaiting(a):
        for seat in sorted(G.awaiting(a)):
            action = rng.choice(G.legal_actions(a, seat)[:6])
            G.apply(a, seat, action)
            G.apply(b, seat, action)
    assert G.report(a) == G.report(b) and G.outcome(a) == G.outcome(b)
