"""Random-playout invariants of the Fodinha family (Se Fode, Se Fode Junto, 7 Letras).

Thousands of seeded random matches over mixed options (variant, 2..8 players, 1 or 2 decks, pairs, lives,
max_cards), with leaves, shows and 7 Letras late joins at random legal moments. After every action:

* cards are conserved: hands + cards played this hand + undealt + vira == the deck, each copy once;
* an awaited seat always has something legal, unless the match is over;
* no view (per seat or spectator) shows a card its seat may not see, the seed or the deck order;
* no event carries a card that is not public;
* the checked path and the fast path give the same views; clone is independent;
* resample keeps the seat's information set (key and view) and conserves the cards.

Every match ends (bounded steps) with a valid competition ranking, and replaying its exported history
(same options, seed and actions) gives the same match. The finished record is checked against docs/rulings.md §1
as well: the pé rule, every trick counted, scoring and void hands, the hand-size cycle, the dealer's
rotation, placements and the leaving forfeits.
"""

from __future__ import annotations

import itertools
import json
import pickle
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from sefode.engine import Event, IllegalAction, NotYourTurn
from sefode.games.fodinha import BID, JOIN, LEAVE, SHOW, Fodinha, FodinhaState
from sefode.games.fodinha.cards import TRUCO_DECK_SIZE, names
from sefode.games.fodinha.options import parse_options
from sefode.games.fodinha.rules import FIXED_MANILHAS, manilha_rank
from sefode.games.fodinha.state import BIDDING, OVER
from sefode.history import export, replay

GAME = Fodinha()
MAX_STEPS = 20_000
CARD_IN_JSON = re.compile(r'"([4567QJKA23][chsd])"')
KEY_IN_JSON = re.compile(r'"([^"]*)": ')
FORBIDDEN_VIEW_KEYS = {"seed", "rng", "deck", "dealt", "presets", "log", "undealt"}


# ======================================================================= helpers
def card_accounting(st: FodinhaState) -> dict[str, list[int]]:
    """Where every card code of the match's deck(s) is now, computed from the state.

    ``hands``: held by the seats; ``played``: played in the hand in progress (finished tricks and the
    open one); ``vira``: the turned card (7 Letras); ``undealt``: everything else.
    """
    held = [c for h in st.hands for c in h]
    played = [c for t in st.tricks for _, c in t.plays] + [c for _, c in st.trick]
    vira = [st.vira] if st.vira >= 0 else []
    placed = set(held) | set(played) | set(vira)
    undealt = [c for c in range(TRUCO_DECK_SIZE * st.opts.decks) if c not in placed]
    return {"hands": held, "played": played, "vira": vira, "undealt": undealt}


def assert_cards_conserved(st: FodinhaState) -> None:
    deck = list(range(TRUCO_DECK_SIZE * st.opts.decks))
    acc = card_accounting(st)
    everything = acc["hands"] + acc["played"] + acc["vira"] + acc["undealt"]
    assert sorted(everything) == deck, "each copy of each card exactly once"
    assert bool(acc["vira"]) == st.opts.sete_letras
    assert len(acc["hands"]) + len(acc["played"]) == st.size * len(st.order)
    played_by = Counter(s for t in st.tricks for s, _ in t.plays) + Counter(s for s, _ in st.trick)
    for s in range(st.n):
        if s not in st.order:
            assert st.hands[s] == [], f"seat {s} is not in this hand but holds cards"
            continue
        assert len(st.hands[s]) + played_by[s] == st.size
        mine = st.hands[s] + [c for t in st.tricks for o, c in t.plays if o == s] + [c for o, c in st.trick if o == s]
        assert sorted(mine) == sorted(st.dealt[s]), f"seat {s} holds and played exactly what it was dealt"


def assert_competition_ranking(places: list[int]) -> None:
    """1..n, ties share, the next place is skipped (1, 2, 2, 4)."""
    assert places, "a finished match places every seat"
    for p in places:
        assert 1 <= p <= len(places)
        assert p == 1 + sum(1 for q in places if q < p), places


def card_strings(value: Any) -> list[str]:
    """Every card name anywhere in a JSON value (scanned in its JSON text: views are large)."""
    return CARD_IN_JSON.findall(json.dumps(value))


def all_keys(value: Any) -> set[str]:
    """Every object key anywhere in a JSON value."""
    return set(KEY_IN_JSON.findall(json.dumps(value)))


def vira_visible(st: FodinhaState) -> bool:
    """docs/rulings.md §1.3: the vira is face up except in a one-card 7 Letras round still being played."""
    return st.vira >= 0 and (st.size > 1 or st.phase == OVER)


def may_see_hand(st: FodinhaState, viewer: int | None, owner: int) -> bool:
    """docs/rulings.md §1.10 and §1.21: own hand; in a one-card hand all but one's own; a shown hand (7 Letras)."""
    if st.phase == OVER:
        return False
    if st.size > 1:
        return st.shown[owner] or viewer == owner
    return viewer is not None and viewer != owner and st.alive[viewer] and viewer in st.order


def public_codes(st: FodinhaState) -> list[int]:
    """Cards every seat and spectator has seen: every trick of the match, shown hands, turned viras."""
    codes = {c for t in st.match_tricks for _, c in t.plays} | {c for _, c in st.trick}
    codes |= {r.vira for r in st.records if r.vira >= 0}
    if vira_visible(st):
        codes.add(st.vira)
    for s in range(st.n):
        if may_see_hand(st, None, s):
            codes.update(st.hands[s])
    return sorted(codes)


def perturbed(st: FodinhaState, viewer: int | None, rng: random.Random) -> FodinhaState:
    """The same match with everything ``viewer`` may not see changed: hidden hands, the hidden vira and
    the undealt cards dealt again, and another seed and generator. Written here, not with ``resample``."""
    out = GAME.clone(st)
    out.seed = st.seed + 7919
    out.rng = random.Random(rng.getrandbits(64))
    hidden = [s for s in range(st.n) if st.hands[s] and not may_see_hand(st, viewer, s)]
    pool = [c for s in hidden for c in st.hands[s]] + card_accounting(st)["undealt"]
    hide_vira = st.vira >= 0 and not vira_visible(st)
    if hide_vira:
        pool.append(st.vira)
    rng.shuffle(pool)
    for s in hidden:
        k = len(st.hands[s])
        out.hands[s], pool = pool[:k], pool[k:]
    if hide_vira:
        out.vira = pool[0]
    return out


def this_hand_only(st: FodinhaState, view: dict[str, Any]) -> dict[str, Any]:
    """``view`` without the finished hand it recalls (``last_hand``): what can change from one action to the next. The
    whole view is scanned once a hand; the rest of the hand, this part. (The tricks of the whole match are not in the
    view: ``Fodinha.past`` gives them, checked with the whole view.)"""
    return {k: v for k, v in view.items() if k != "last_hand"}


def assert_view_shows_only_what_the_seat_may_see(
    st: FodinhaState, viewer: int | None, view: dict[str, Any], rng: random.Random | None, whole: bool = True
) -> None:
    """``view`` is ``viewer``'s view of ``st``. With ``rng``, also check it against a perturbed state. With
    ``whole`` False, the finished hands' part of the view is left out of the scans (it was scanned when the hand
    began, and tests/test_rules_shared.py checks that it is the same every time it is built)."""
    scanned = view if whole else this_hand_only(st, view)
    assert not all_keys(scanned) & FORBIDDEN_VIEW_KEYS, "a view never carries the seed or the deck"
    for owner in range(st.n):
        shown = view["hands"][owner]
        if may_see_hand(st, viewer, owner):
            assert shown == names(st.hands[owner])
        else:
            assert shown is None, f"seat {viewer} sees seat {owner}'s hidden hand"
    if st.opts.sete_letras and not vira_visible(st):
        assert view["vira"] is None and view["manilhas"] is None, "the one-card round's vira stays hidden"
    allowed = set(public_codes(st))
    for owner in range(st.n):
        if may_see_hand(st, viewer, owner):
            allowed.update(st.hands[owner])
    # The manilhas are rules, not cards seen: fixed in Se Fode, the rank above the (visible) vira in 7 Letras.
    if st.opts.sete_letras:
        assert view["manilhas"] is None or view["manilhas"] == [
            "4567QJKA23"[manilha_rank(st.vira)] + suit for suit in "chsd"
        ]
    else:
        assert view["manilhas"] == list(FIXED_MANILHAS)
    unexpected = set(card_strings({k: v for k, v in scanned.items() if k != "manilhas"})) - set(names(allowed))
    assert not unexpected, f"view of {viewer} shows {unexpected}"
    if whole:  # the match's past, given on demand while it runs: played cards alone
        past = GAME.past(st, viewer)
        assert not all_keys(past) & FORBIDDEN_VIEW_KEYS
        unexpected = set(card_strings(past)) - set(names(public_codes(st)))
        assert not unexpected, f"the past of {viewer} shows {unexpected}"
    # Whatever the viewer may not see can be anything at all: the view (and the past) stays the same.
    if rng is not None:
        other = perturbed(st, viewer, rng)
        assert GAME.view(other, viewer) == view, f"view of {viewer} depends on hidden cards"
        if whole:
            assert GAME.past(other, viewer) == GAME.past(st, viewer), f"past of {viewer} depends on hidden cards"


def assert_events_public(st: FodinhaState, events: list[Event]) -> None:
    public = Counter(names(public_codes(st)))
    for event in events:
        carried = Counter(card_strings(event))
        assert not carried - public, f"event {event} carries a card that is not public"
        if event["type"] == "deal" and event["hand"] == st.hand_no:
            assert event["vira"] == (names([st.vira])[0] if vira_visible(st) else None)


def fingerprint(st: FodinhaState) -> bytes:
    """Everything in the state, generator included."""
    return pickle.dumps(st)


def random_options(rng: random.Random) -> dict[str, Any]:
    opts: dict[str, Any]
    if rng.random() < 0.35:
        opts = {"variant": "7letras", "players": rng.randint(2, 8)}
    else:
        players = rng.randint(2, 8)
        opts = {"variant": "sefode", "players": players, "decks": rng.choice([1, 2])}
        if players in (4, 6, 8) and rng.random() < 0.35:
            opts["teams"] = True
        if rng.random() < 0.7:
            opts["lives"] = rng.randint(1, 5)
    if rng.random() < 0.3:
        most = parse_options(opts).fits(opts["players"])
        opts["max_cards"] = rng.randint(1, most)
    return opts


# ======================================================================= the playout
@dataclass
class Playout:
    options: dict[str, Any]
    seed: int
    full: bool
    """Also check every view, the fast path, clones and resamples (slower)."""
    free_actions: bool = True
    steps: int = 0
    leavers_above: dict[int, set[int]] = field(default_factory=dict)
    """Leaver -> seats still in (and not leaving) when it left; they must place above it."""
    worst_open_place: dict[int, int] = field(default_factory=dict)
    """Pairs: leaver -> the worst place still open when it left (the number of pairs still in)."""
    free_done: Counter[int] = field(default_factory=Counter)
    """How many leaves, shows and joins were applied."""


def _free_action(st: FodinhaState, rng: random.Random) -> tuple[int, int] | None:
    """A leave, show or join that is legal now, or None."""
    roll = rng.random()
    if roll < 0.006:
        candidates = [s for s in range(st.n) if st.alive[s] and not st.leaving[s]]
        if candidates:
            return rng.choice(candidates), LEAVE
    if st.opts.sete_letras and roll > 0.97 and st.size > 1:
        candidates = [s for s in st.order if st.alive[s] and not st.shown[s]]
        if candidates:
            return rng.choice(candidates), SHOW
    boundary = st.phase == BIDDING and st.nbids == 0 and not any(st.shown)
    if st.opts.sete_letras and 0.5 < roll < 0.53 and boundary and st.n < 8:
        return st.n, JOIN
    return None


def _check_state(st: FodinhaState, events: list[Event]) -> None:
    over = GAME.outcome(st) is not None
    waiting = GAME.awaiting(st)
    assert over == (not waiting) == (st.phase == OVER)
    for seat in waiting:
        assert GAME.legal_actions(st, seat), f"seat {seat} is awaited but has nothing legal"
    if not over:
        assert_cards_conserved(st)
    assert_events_public(st, events)


def _check_search_support(st: FodinhaState, rng: random.Random) -> None:
    seat = rng.choice(sorted(GAME.awaiting(st))) if rng.random() < 0.7 else rng.randrange(st.n)
    before = fingerprint(st)
    sample = GAME.resample(st, seat, rng)
    assert GAME.infoset_key(sample, seat) == GAME.infoset_key(st, seat)
    assert GAME.view(sample, seat) == GAME.view(st, seat)
    assert_cards_conserved(sample)
    assert fingerprint(st) == before, "resample does not touch the original"
    # Resampling really deals again what the seat cannot see (when there is a choice to make).
    hidden = [o for o in range(st.n) if st.hands[o] and not may_see_hand(st, seat, o)]
    hidden_cards = sum(len(st.hands[o]) for o in hidden)
    pool = hidden_cards + len(card_accounting(st)["undealt"]) + (1 if st.vira >= 0 and not vira_visible(st) else 0)
    if hidden_cards and pool >= hidden_cards + 2:
        deals = set()
        for _ in range(16):
            other = GAME.resample(st, seat, rng)
            deals.add((tuple(tuple(sorted(other.hands[o])) for o in hidden), other.vira))
        assert len(deals) > 1, "resample deals the unseen cards again"
    # A clone (and a resample) plays on to the end without touching the original.
    other = GAME.clone(st) if rng.random() < 0.5 else sample
    while GAME.awaiting(other):
        s = min(GAME.awaiting(other))
        GAME.apply_fast(other, s, rng.choice(GAME.legal_actions(other, s)))
    assert GAME.outcome(other) is not None
    assert fingerprint(st) == before, "a clone is independent of the original"


def _check_rejections(st: FodinhaState, rng: random.Random) -> None:
    """Checked apply refuses what is not legal now, and a refused action changes nothing."""
    before = fingerprint(st)
    seat = rng.choice(sorted(GAME.awaiting(st)))
    legal = GAME.legal_actions(st, seat)
    wrong = [a for a in [*range(TRUCO_DECK_SIZE * 2), *range(BID, BID + 41)] if a not in legal]
    with pytest.raises(IllegalAction):
        GAME.apply(st, seat, rng.choice(wrong))
    assert fingerprint(st) == before
    others = [s for s in range(st.n) if s != seat and st.alive[s]]
    if others:
        with pytest.raises(NotYourTurn):
            GAME.apply(st, rng.choice(others), rng.choice(legal))
        assert fingerprint(st) == before
    with pytest.raises(IllegalAction) as err:
        GAME.apply(st, st.n + rng.randrange(3), legal[0])
    assert err.value.code == "action/bad_seat"
    assert fingerprint(st) == before
    # Free actions at the wrong moment: Se Fode has no show and no late join; 7 Letras joins only at a
    # round boundary; nobody leaves twice.
    refused: list[tuple[int, int]] = []
    if not st.opts.sete_letras:
        refused += [(seat, SHOW), (st.n, JOIN)]
    elif st.nbids or st.phase != BIDDING or any(st.shown):
        refused.append((st.n, JOIN))
    refused += [(s, LEAVE) for s in range(st.n) if st.leaving[s] or not st.alive[s]]
    for s, action in refused:
        with pytest.raises(IllegalAction):
            GAME.apply(st, s, action)
        assert fingerprint(st) == before


def _check_records(st: FodinhaState) -> None:
    """Every hand of the record: bids in range, the pé rule, and the tricks all accounted for."""
    for hand in GAME.report(st)["hands"]:
        cards = hand["cards"]
        bids = [b for b in hand["bids"] if b is not None]
        assert all(0 <= b <= cards for b in bids)
        if cards > 1 or not st.opts.sete_letras:
            assert sum(bids) != cards, f"pé rule broken in hand {hand['number']}"
        assert len(hand["tricks"]) == cards
        assert all(len(t["plays"]) == len(bids) for t in hand["tricks"])
        bolo = hand["bolo"]
        discarded = bolo["value"] if bolo is not None and bolo["seat"] is None else 0
        assert sum(w for w in hand["won"] if w is not None) + discarded == cards, "every trick counted once"


def _check_cycle_and_dealer(st: FodinhaState) -> None:
    """docs/rulings.md §1.12 over the whole record: the hand-size cycle (1, 2, .. the most that fits, .. 1, 2 ..; peak
    and 1 not repeated; Se Fode resets to 1 after an elimination; a void hand keeps its size) and the
    dealer rotating over the seats still alive."""
    hands = GAME.report(st)["hands"]
    assert hands[0]["cards"] == 1
    assert hands[0]["dealer"] == st.first_dealer
    size, climbing = 1, True
    for prev, hand in itertools.pairwise(hands):
        seats_before = len(prev["bids"])
        alive_after = [s for s in range(seats_before) if prev["score"][s] is not None and s not in prev["out"]]
        dealt_in = [s for s, b in enumerate(hand["bids"]) if b is not None]
        assert hand["dealer"] in dealt_in
        following = [(prev["dealer"] + k) % seats_before for k in range(1, seats_before + 1)]
        assert hand["dealer"] == next(s for s in following if s in alive_after), "the dealer rotates over live seats"
        most = st.opts.fits(len(alive_after))
        if prev["void"]:
            expected = min(prev["cards"], most)
        elif (prev["out"] and not st.opts.sete_letras) or most == 1:
            expected, climbing = 1, True
        elif climbing and size + 1 <= most:
            expected = size + 1
        elif climbing:
            # Past the peak (not repeated); or the next size does not fit: the largest that fits.
            expected, climbing = (most - 1 if size == most else most), False
        else:
            expected = min(size - 1, most)
        if expected <= 1:
            expected, climbing = 1, True
        if len(dealt_in) > len(alive_after):
            # A 7 Letras late joiner: the hand is dealt again for one seat more, as large as still fits.
            expected = min(expected, st.opts.fits(len(dealt_in)))
        assert hand["cards"] == expected, f"hand {hand['number']} has {hand['cards']} cards, expected {expected}"
        assert 1 <= hand["cards"] <= st.opts.fits(len(dealt_in))
        size = hand["cards"]


def _check_placements_model(st: FodinhaState) -> None:
    """Placements from the record alone (no leaves): the last standing is 1st; those out in the same hand are
    ordered by what they have left (more lives, fewer points); exact ties share."""
    hands = GAME.report(st)["hands"]
    units = st.n // 2 if st.opts.teams else st.n
    keys: list[tuple[float, int]] = [(float("inf"), 0)] * units
    for hand in hands:
        for s in hand["out"]:
            left = hand["score"][s]
            keys[s % units] = (hand["number"], -left if st.opts.sete_letras else left)
    unit_place = [1 + sum(1 for other in keys if other > key) for key in keys]
    assert st.placements == [unit_place[s % units] for s in range(st.n)]


def _check_scores(st: FodinhaState, with_leaves: bool) -> None:
    """docs/rulings.md §1.11 scoring over the record: Se Fode loses abs(bid - won) lives (pairs add up their bids and
    tricks and share one pool), out at 0 or less; 7 Letras takes a point for any miss, out at 7; a hand that
    would put everyone still in out is void and changes nothing; a late joiner starts with the second-highest
    distinct point total."""
    hands = GAME.report(st)["hands"]
    sete = st.opts.sete_letras
    n0 = st.opts.players
    units = n0 // 2 if st.opts.teams else n0
    score: dict[int, int] = {s: (0 if sete else st.opts.lives * (2 if st.opts.teams else 1)) for s in range(n0)}
    alive = set(range(n0))
    for hand in hands:
        for s in range(len(hand["bids"])):
            if s not in score:
                totals = sorted({score[o] for o in alive}, reverse=True)
                score[s] = totals[1] if len(totals) > 1 else totals[0]
                alive.add(s)
        dealt_in = [s for s, b in enumerate(hand["bids"]) if b is not None]
        assert set(dealt_in) == alive
        unit_of = {s: (s % units if s < n0 else s) for s in dealt_in}
        bid: Counter[int] = Counter()
        won: Counter[int] = Counter()
        for s in dealt_in:
            bid[unit_of[s]] += hand["bids"][s]
            won[unit_of[s]] += hand["won"][s]
        new = {}
        for s in dealt_in:
            u = unit_of[s]
            miss = abs(bid[u] - won[u])
            new[s] = score[s] + (1 if miss else 0) if sete else score[s] - miss
        busted = {s for s in dealt_in if (new[s] >= 7 if sete else new[s] <= 0)}
        if with_leaves:
            if not hand["void"]:
                assert all(hand["score"][s] == new[s] for s in dealt_in)
                score.update(new)
            alive -= set(hand["out"])
            continue
        assert hand["void"] == (busted == set(dealt_in)), f"hand {hand['number']}: void iff everyone would go out"
        if hand["void"]:
            assert all(hand["score"][s] == score[s] for s in dealt_in), "a void hand changes no score"
            assert hand["out"] == []
        else:
            assert all(hand["score"][s] == new[s] for s in dealt_in), f"hand {hand['number']} scored wrong"
            assert sorted(hand["out"]) == sorted(busted)
            score.update(new)
        alive -= set(hand["out"])


def _check_final(play: Playout, st: FodinhaState) -> None:
    outcome = GAME.outcome(st)
    assert outcome is not None
    _check_records(st)
    _check_scores(st, with_leaves=bool(play.leavers_above))
    _check_cycle_and_dealer(st)
    if not play.leavers_above:
        _check_placements_model(st)
    places = list(outcome.placements)
    assert len(places) == st.n
    if not st.opts.teams:
        assert_competition_ranking(places)
        for leaver, above in play.leavers_above.items():
            for s in above:
                assert places[s] < places[leaver], f"leaver {leaver} places below seat {s}, still in when it left"
    else:
        units = st.units
        unit_places: dict[int, set[int]] = {}
        for s in range(st.n):
            assert 1 <= places[s] <= units
            if not st.leaving[s]:
                unit_places.setdefault(st.unit[s], set()).add(places[s])
        assert all(len(p) == 1 for p in unit_places.values()), "partners share their pair's place"
        if not play.leavers_above:
            assert_competition_ranking([min(unit_places[u]) for u in range(units)])
        for leaver in play.leavers_above:
            partner_places = unit_places.get(st.unit[leaver])
            if partner_places:
                assert places[leaver] >= min(partner_places), "a leaver never places above its partner"
            assert places[leaver] == play.worst_open_place[leaver], "a leaver gets the worst place open when it left"


def run_playout(play: Playout, choice_seed: int) -> FodinhaState:
    rng = random.Random(choice_seed)
    st = GAME.new_match(play.options, play.seed)
    fast = GAME.clone(st) if play.full else None
    previous_views: list[Any] = []
    previous_keys: list[Any] = []
    scanned_hand = -1
    _check_state(st, [])
    while GAME.awaiting(st):
        play.steps += 1
        assert play.steps <= MAX_STEPS, "a match ends in bounded steps"
        free = _free_action(st, rng) if play.free_actions else None
        if free is not None:
            seat, action = free
            if action == LEAVE:
                play.leavers_above[seat] = {s for s in range(st.n) if st.alive[s] and not st.leaving[s] and s != seat}
                play.worst_open_place[seat] = len({s % (st.n // 2) for s in range(st.n) if st.alive[s]})
            events = GAME.apply(st, seat, action)
            play.free_done[action] += 1
            if fast is not None:
                GAME.apply(fast, seat, action)
        else:
            seat = rng.choice(sorted(GAME.awaiting(st)))
            action = rng.choice(GAME.legal_actions(st, seat))
            events = GAME.apply(st, seat, action)
            if fast is not None:
                GAME.apply_fast(fast, seat, action)
        _check_state(st, events)
        if not play.full:
            continue
        assert fast is not None
        viewers: list[int | None] = [None, *range(st.n)]
        views = [GAME.view(st, v) for v in viewers]
        assert views == [GAME.view(fast, v) for v in viewers], "checked apply and apply_fast agree"
        keys = [GAME.infoset_key(st, v) for v in range(st.n)]
        if len(previous_views) == len(views):
            for v in range(st.n):
                if views[v + 1] != previous_views[v + 1]:
                    assert keys[v] != previous_keys[v], (
                        f"seat {v}'s view changed but its infoset key did not: "
                        f"{ {k for k in views[v + 1] if views[v + 1][k] != previous_views[v + 1][k]} }"
                    )
        previous_views, previous_keys = views, keys
        perturb = rng.choice(viewers)
        whole = st.hand_no != scanned_hand or st.phase == OVER
        scanned_hand = st.hand_no
        for viewer, view in zip(viewers, views, strict=True):
            assert_view_shows_only_what_the_seat_may_see(st, viewer, view, rng if viewer == perturb else None, whole)
        if GAME.awaiting(st) and rng.random() < 0.15:
            _check_search_support(st, rng)
        if GAME.awaiting(st) and rng.random() < 0.1:
            _check_rejections(st, rng)
    _check_final(play, st)
    return st


def assert_history_replays(st: FodinhaState) -> None:
    """Same options + seed + actions => the same match (through the exported history and the checked path)."""
    result = replay(export(GAME, st)).result()
    assert result["error"] is None, result["error"]
    assert result["over"] is True
    assert result["placements"] == list(st.placements or [])
    assert result["hands"] == GAME.report(st)["hands"]


# ======================================================================= the tests
# The two seeded loops are split into chunks that pytest-xdist spreads over its workers: chunk k plays the matches
# m = k, k + chunks, k + 2*chunks, ... of one fixed list whose options are drawn in order from one generator as
# before, so the chunks together play exactly the matches (options, seeds, choices) that one long loop played.
FAST_MATCHES, FAST_CHUNKS = 3000, 12
FULL_MATCHES, FULL_CHUNKS = 60, 20


@cache
def fast_loop_options() -> tuple[dict[str, Any], ...]:
    rng = random.Random(2026)
    return tuple(random_options(rng) for _ in range(FAST_MATCHES))


@cache
def full_loop_options() -> tuple[dict[str, Any], ...]:
    rng = random.Random(77)
    return tuple(random_options(rng) for _ in range(FULL_MATCHES))


def _chunk(chunk: int, matches: int, chunks: int) -> range:
    return range(chunk, matches, chunks)


def test_the_fast_loop_mixes_every_variant() -> None:
    variants = {o["variant"] + ("/teams" if o.get("teams") else "") for o in fast_loop_options()}
    assert variants == {"sefode", "sefode/teams", "7letras"}


@pytest.mark.parametrize("chunk", range(FAST_CHUNKS))
def test_thousands_of_random_matches_conserve_cards_and_rank_validly(chunk: int) -> None:
    """Fast loop: 3000 seeded matches with mixed options (this chunk's share), cheap checks after every action."""
    free: Counter[int] = Counter()
    for m in _chunk(chunk, FAST_MATCHES, FAST_CHUNKS):
        play = Playout(dict(fast_loop_options()[m]), seed=m, full=False)
        st = run_playout(play, choice_seed=m * 31 + 1)
        free += play.free_done
        if m % 3 == 0:
            assert_history_replays(st)
    # Each chunk's share of "at least 50 of each over the 3000 matches", so that the chunks together still say it.
    least = -(-50 // FAST_CHUNKS)
    assert min(free[LEAVE], free[SHOW], free[JOIN]) >= least, ("leaves, shows and joins all happen", free)


@pytest.mark.parametrize("chunk", range(FULL_CHUNKS))
def test_random_matches_full_checks_on_views_fast_path_clone_and_resample(chunk: int) -> None:
    """Slower loop: every view, the fast path, clones and resamples, on 60 seeded matches (this chunk's share)."""
    for m in _chunk(chunk, FULL_MATCHES, FULL_CHUNKS):
        run_playout(Playout(dict(full_loop_options()[m]), seed=10_000 + m, full=True), choice_seed=m)


def test_determinism_same_options_seed_and_actions_give_the_same_match() -> None:
    rng = random.Random(5)
    for m in range(200):
        options = random_options(rng)
        a = run_playout(Playout(options, seed=m, full=False), choice_seed=m)
        b = run_playout(Playout(options, seed=m, full=False), choice_seed=m)
        assert GAME.report(a) == GAME.report(b)
        assert a.placements == b.placements
        assert GAME.history_actions(a) == GAME.history_actions(b)


SEFODE_OPTIONS = hs.builds(
    lambda players, decks, lives, teams: {
        "variant": "sefode",
        "players": players,
        "decks": decks,
        "lives": lives,
        "teams": teams and players % 2 == 0 and players >= 4,
    },
    hs.integers(2, 8),
    hs.sampled_from([1, 2]),
    hs.integers(1, 5),
    hs.booleans(),
)
SETE_LETRAS_OPTIONS = hs.builds(lambda players: {"variant": "7letras", "players": players}, hs.integers(2, 8))
OPTIONS = hs.one_of(SEFODE_OPTIONS, SETE_LETRAS_OPTIONS)
OPTIONS_BY_VARIANT = {"sefode": SEFODE_OPTIONS, "7letras": SETE_LETRAS_OPTIONS}


# 40 examples in all, as 5 for each variant, with and without a max_cards cap (the split the one strategy drew at
# random before), and each half of the seeds' range, so that pytest-xdist can spread them.
SEED_HALVES = {"low": hs.integers(0, 2**31), "high": hs.integers(2**31 + 1, 2**32)}


@pytest.mark.parametrize("half", sorted(SEED_HALVES))
@pytest.mark.parametrize("cap", [False, True], ids=["uncapped", "capped"])
@pytest.mark.parametrize("variant", sorted(OPTIONS_BY_VARIANT))
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=hs.data(), choice_seed=hs.integers(0, 2**32))
def test_hypothesis_playouts_keep_every_invariant(
    variant: str, cap: bool, half: str, data: hs.DataObject, choice_seed: int
) -> None:
    seed: int = data.draw(SEED_HALVES[half], label="seed")
    options: dict[str, Any] = data.draw(OPTIONS_BY_VARIANT[variant], label="options")
    if cap:
        options = {**options, "max_cards": 1 + choice_seed % parse_options(options).fits(options["players"])}
    st = run_playout(Playout(options, seed, full=True), choice_seed)
    assert_history_replays(st)


@settings(max_examples=40, deadline=None)
@given(options=OPTIONS, seed=hs.integers(0, 2**32), choice_seed=hs.integers(0, 2**32))
def test_hypothesis_playouts_without_free_actions_rank_every_seat(
    options: dict[str, Any], seed: int, choice_seed: int
) -> None:
    play = Playout(options, seed, full=False, free_actions=False)
    st = run_playout(play, choice_seed)
    assert st.placements is not None and 1 in st.placements
    assert_history_replays(st)


def test_naming_the_drawn_first_dealer_gives_the_same_deals() -> None:
    """Histories (and the server's stored matches) name the first dealer even when the seed drew it: the
    deals that follow must not depend on whether it was named."""
    for seed in range(30):
        drawn = GAME.new_match({"variant": "sefode", "players": 4}, seed)
        named = GAME.new_match({"variant": "sefode", "players": 4}, seed, GAME.history_setup(drawn))
        rng = random.Random(seed)
        while GAME.awaiting(drawn):
            assert named.hands == drawn.hands and named.dealer == drawn.dealer
            seat = min(GAME.awaiting(drawn))
            action = rng.choice(GAME.legal_actions(drawn, seat))
            GAME.apply_fast(drawn, seat, action)
            GAME.apply_fast(named, seat, action)
        assert named.placements == drawn.placements


def test_infoset_key_changes_when_a_seat_leaves_or_shows() -> None:
    """Both are public and change every view, so no seat may confuse the states before and after."""
    st = GAME.new_match({"variant": "7letras", "players": 3}, 4, {"dealer": 0})
    while st.size == 1:
        seat = min(GAME.awaiting(st))
        GAME.apply(st, seat, GAME.legal_actions(st, seat)[0])
    for seat, action in ((1, SHOW), (2, LEAVE)):
        before = [GAME.infoset_key(st, s) for s in range(st.n)]
        GAME.apply(st, seat, action)
        after = [GAME.infoset_key(st, s) for s in range(st.n)]
        assert all(b != a for b, a in zip(before, after, strict=True)), (seat, action)
