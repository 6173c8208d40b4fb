"""Random-playout invariants of One Man's Trash, over 2..6 players, with and without jokers.

After every action of seeded random (and biased) matches:

* the 54 (or 50) cards are conserved across hands, Trash Piles and the Draw Pile, each exactly once;
* every pile is a stack of ranked cards or a lone Trash Collector;
* a seat still in that is awaited always has a legal action;
* no view (seat or spectator) shows a card its seat may not see, and no event names a card drawn;
* the checked and the fast paths give the same state; clone is independent;
* resample keeps the seat's information set and view, conserves the cards and keeps what a seat took
  from the table in its hand.

Every match ends within the turn limit with placements that follow docs/rulings.md §3.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from sefode.games.trash import Trash, TrashState
from sefode.games.trash.rules import TURN_LIMIT, card_name

GAME = Trash()
CARD_IN_JSON = re.compile(r'"([A2-9TJQK][chsd]|X[12])"')


def deck_cards(st: TrashState) -> list[int]:
    return [x for h in st.hands for x in h] + [x for p in st.piles for x in p] + st.draw


def public_cards(st: TrashState, seat: int | None) -> set[str]:
    """Cards a seat (or a spectator) may see: the piles, what any seat took from the table, its own hand,
    the Collectors' names (the rules name them) and, in events, played cards."""
    seen = {card_name(x) for p in st.piles for x in p}
    seen |= {card_name(x) for k in st.known for x in k}
    seen |= {card_name(x) for x in st.collectors}
    if seat is not None and st.turn >= 0:
        seen |= {card_name(x) for x in st.hands[seat]}
    return seen


def check_state(st: TrashState) -> None:
    cards = deck_cards(st)
    size = 54 if st.opts.jokers else 50
    assert len(cards) == size and len(set(cards)) == size, "every card exactly once"
    if not st.opts.jokers:
        assert 52 not in cards and 53 not in cards
        assert {x for x in cards if x < 4} == st.collectors
    for pile in st.piles:
        assert pile, "no pile is ever empty"
        if any(x in st.collectors for x in pile):
            assert len(pile) == 1, "a Collector is a pile on its own"
    for s in range(st.n):
        for x in st.known[s]:
            assert x in st.hands[s], "what a seat took from the table and did not play is still in its hand"
        if not st.alive[s]:
            assert st.hands[s] == [] or st.turn < 0
    if st.turn >= 0:
        assert st.alive[st.turn] and st.hands[st.turn], "an awaited seat is in and holds cards"
        assert GAME.legal_actions(st, st.turn), "a player always has a legal action while holding a card"
        assert sum(st.alive) >= 2
        assert min(st.turns[s] for s in range(st.n) if st.alive[s]) < TURN_LIMIT


def check_views(st: TrashState, events: list[dict[str, Any]]) -> None:
    for seat in [None, *range(st.n)]:
        view = GAME.view(st, seat)
        text = json.dumps(view)
        assert not {"seed", "rng", "draw", "dealt", "preset", "log", "drawn"} & set(view)
        shown = set(CARD_IN_JSON.findall(text))
        allowed = public_cards(st, seat)
        assert shown <= allowed, f"view of {seat} shows {sorted(shown - allowed)}"
        assert view["hand_sizes"] == [len(h) for h in st.hands]
        assert view["draw_size"] == len(st.draw)
    for event in events:
        if event["type"] == "draw":
            assert set(event) == {"type", "seat", "left"}, "a drawn card is never in an event"


def check_places(st: TrashState) -> None:
    outcome = GAME.outcome(st)
    assert outcome is not None
    n = st.n
    if st.winner < 0:
        assert outcome.no_winner and outcome.placements == (n,) * n
        assert st.reason in ("last_player", "turn_limit")
        return
    assert not outcome.no_winner and st.reason == "win"
    places = outcome.placements
    assert places[st.winner] == 1 and st.hands[st.winner] == []
    still = [s for s in range(n) if st.alive[s] and s != st.winner]
    assert all(places[s] == 2 for s in still)
    for earlier, later in zip(st.out, st.out[1:], strict=False):
        assert places[later] < places[earlier]
    assert sorted(places[s] for s in st.out) == list(range(2 + len(still), n + 1))


def biased_choice(st: TrashState, legal: list[int], rng: random.Random, style: int) -> int:
    """Random legal play; style 1 prefers non-draw actions (shorter matches, more piles), style 2 draws."""
    if style == 1:
        busy = [a for a in legal if a != 0]
        if busy and rng.random() < 0.8:
            return rng.choice(busy)
    if style == 2 and 0 in legal and rng.random() < 0.6:
        return 0
    return rng.choice(legal)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=hs.integers(2, 6),
    jokers=hs.booleans(),
    seed=hs.integers(0, 2**31),
    style=hs.integers(0, 2),
)
def test_random_matches_keep_every_invariant(players: int, jokers: bool, seed: int, style: int) -> None:
    st = GAME.new_match({"players": players, "jokers": jokers}, seed)
    fast = GAME.new_match({"players": players, "jokers": jokers}, seed)
    rng = random.Random(seed)
    check_state(st)
    check_views(st, [])
    steps = 0
    while GAME.outcome(st) is None:
        (seat,) = GAME.awaiting(st)
        legal = GAME.legal_actions(st, seat)
        if steps % 7 == 0:
            twin = GAME.resample(st, seat, rng)
            assert GAME.infoset_key(twin, seat) == GAME.infoset_key(st, seat)
            assert GAME.view(twin, seat) == GAME.view(st, seat)
            assert sorted(deck_cards(twin)) == sorted(deck_cards(st))
            assert GAME.legal_actions(twin, seat) == legal
            copy = GAME.clone(st)
            GAME.apply_fast(copy, seat, legal[0])
            assert GAME.legal_actions(st, seat) == legal, "clone is independent"
        action = biased_choice(st, legal, rng, style)
        events = GAME.apply(st, seat, action)
        GAME.apply_fast(fast, seat, action)
        assert fast.hands == st.hands and fast.piles == st.piles and fast.turn == st.turn
        check_state(st)
        check_views(st, events)
        steps += 1
        assert steps <= TURN_LIMIT * players
    check_places(st)
    assert events[-1]["type"] == "match_end"
    assert GAME.legal_actions(st, 0) == []


def test_illegal_actions_change_nothing() -> None:
    rng = random.Random(3)
    for seed in range(20):
        st = GAME.new_match({"players": 3}, seed)
        while GAME.outcome(st) is None:
            (seat,) = GAME.awaiting(st)
            legal = set(GAME.legal_actions(st, seat))
            probes = [0, 1, 2, 3, 100 + rng.randrange(54), 1000 + rng.randrange(700), 20000 + rng.randrange(700)]
            probe = rng.choice(probes)
            if probe not in legal:
                before = json.dumps(GAME.view(st, seat))
                try:
                    GAME.apply(st, seat, probe)
                except ValueError:
                    pass
                else:
                    raise AssertionError(f"illegal action {probe} was applied")
                assert json.dumps(GAME.view(st, seat)) == before
            GAME.apply(st, seat, rng.choice(sorted(legal)))
