"""How a Fodinha trick, hand and match end: who takes a trick (and a cancelled trick's bolo), lives lost or points
won at the end of a hand (seed 002 for Se Fode, seed 000 for 7 Letras), who is out, the next hand, the placements."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sefode.engine import Event
from sefode.games.fodinha.dealing import start_hand
from sefode.games.fodinha.options import SETE_LETRAS_LIMIT
from sefode.games.fodinha.rules import next_hand_size, trick_winner_all, trick_winner_pairs
from sefode.games.fodinha.state import OVER, FodinhaState, HandRecord, Trick


def resolve_trick(st: FodinhaState, events: list[Event] | None) -> None:
    plays = st.trick
    sete_letras = st.opts.sete_letras
    if sete_letras:
        index = trick_winner_all(plays, st.strength)
    else:
        index = trick_winner_pairs(plays, st.strength)
    value = 1 + st.acc
    leader = st.leader
    if index < 0:
        trick = Trick(leader, plays, None, value, None, st.hand_no)
        st.acc = value
        # Se Fode: the seat that opened the bids leads again; 7 Letras: the cancelled trick's leader.
        st.leader = leader if sete_letras else st.order[0]
    else:
        winner = plays[index][0]
        trick = Trick(leader, plays, winner, value, winner, st.hand_no)
        if st.acc:
            for earlier in reversed(st.tricks):
                if earlier.winner is not None:
                    break
                earlier.taken_by = winner
        st.won[winner] += value
        st.acc = 0
        st.last_winner = winner
        st.leader = winner
    st.tricks.append(trick)
    st.match_tricks.append(trick)
    st.trick = []
    if events is not None:
        # Who took it and what it was worth: its cards came in the play events, and the view holds it whole (the
        # last of its ``tricks``, or of its ``last_hand`` when it ended the hand).
        events.append({"type": "trick", "winner": trick.winner, "value": value})
    if st.hands[st.leader]:
        st.turn = st.leader
    else:
        end_hand(st, events)


def end_hand(st: FodinhaState, events: list[Event] | None) -> None:
    opts = st.opts
    sete_letras = opts.sete_letras
    bolo = take_bolo(st, events) if st.acc else None
    n = st.seats
    order = st.order
    unit = st.unit
    bids = st.bids
    won = st.won
    alive = st.alive
    # The hand's record: each seat's bid and tricks, None for the seats not dealt in.
    if len(order) == n:
        bids_record: list[int | None] = list(bids)
        won_record: list[int | None] = list(won)
    else:
        bids_record = [None] * n
        won_record = [None] * n
        for s in order:
            bids_record[s] = bids[s]
            won_record[s] = won[s]
    # Score by unit (a pair adds its partners' bids and tricks): each unit dealt in is off by the sum of its seats'
    # bids minus the sum of their tricks.
    new_score = st.score[:]
    busted: list[int] = []
    if opts.teams:
        off: dict[int, int] = {}
        for s in order:
            u = unit[s]
            off[u] = off.get(u, 0) + bids[s] - won[s]
        for u, diff in off.items():  # Se Fode only: 7 Letras has no pairs
            new_score[u] -= abs(diff)
            if new_score[u] <= 0:
                busted.append(u)
        units_in: Iterable[int] = off
    else:  # each seat is its own unit (written out: no dict of differences)
        units_in = order
        if sete_letras:
            for s in order:
                if bids[s] != won[s]:
                    new_score[s] += 1
                if new_score[s] >= SETE_LETRAS_LIMIT:
                    busted.append(s)
        else:
            for s in order:
                left = new_score[s] - abs(bids[s] - won[s])
                new_score[s] = left
                if left <= 0:
                    busted.append(s)
    leavers = not opts.teams and True in st.leaving
    if busted or leavers:
        void, out_seats = settle_outs(st, units_in, new_score, busted, leavers)
    else:
        void, out_seats = False, []
        st.score = new_score
    score = st.score
    # The scores of the seats dealt in (those alive when it was dealt): after this hand, or as they were if it is void.
    if len(order) == n and not opts.teams:  # every seat was in, each its own unit
        score_record: list[int | None] = list(score)
    else:
        score_record = [None] * n
        for s in order:
            score_record[s] = score[unit[s]]
    # Positional (the fields' order): with keywords this call cost three times as much.
    record = HandRecord(
        st.hand_no, st.dealer, st.size, st.vira, bids_record, st.tricks, won_record, score_record, out_seats, void,
        bolo, st.dealt,  # the dealt cards are never changed: the next deal makes new lists
    )  # fmt: skip
    st.records.append(record)
    if events is not None:
        # Which hand ended, and whether it was void: the rest of it (bids, tricks won, who went out, the scores) is
        # in the view (its ``last_hand`` and ``scores``).
        events.append({"type": "hand_end", "hand": st.hand_no, "void": void})
    still_in = alive.count(True)
    if out_seats and (len({unit[s] for s in range(n) if alive[s]}) if opts.teams else still_in) <= 1:
        finish(st, events)
        return
    most = opts.fits(still_in)
    if void:
        size, climbing = min(st.size, most), st.climbing
    elif out_seats and not sete_letras:
        size, climbing = 1, True
    else:
        size, climbing = next_hand_size(st.size, st.climbing, most)
    after = order[0]  # the seat after the dealer when this hand was dealt
    st.dealer = after if alive[after] else next_alive(st, st.dealer)
    start_hand(st, size, climbing, events)


def take_bolo(st: FodinhaState, events: list[Event] | None) -> dict[str, Any]:
    """The accumulation still pending at the end of a hand: Se Fode gives it to the winner of the last trick before the
    run of cancellations, if any; 7 Letras to nobody."""
    acc = st.acc
    taker: int | None = None
    if not st.opts.sete_letras and st.last_winner >= 0:
        taker = st.last_winner
        st.won[taker] += acc
    for earlier in reversed(st.tricks):
        if earlier.winner is not None:
            break
        earlier.taken_by = taker
    if events is not None:
        events.append({"type": "bolo", "seat": taker, "value": acc})
    st.acc = 0
    return {"seat": taker, "value": acc}


def settle_outs(
    st: FodinhaState, units_in: Iterable[int], new_score: list[int], busted: list[int], leavers: bool
) -> tuple[bool, list[int]]:
    """A hand that ends with units out of lives (points) or seats that left: is the hand void, and which seats go out.
    ``units_in`` are the units dealt in. Sets the scores (unless void), the units' out keys for the placements, and
    the seats out."""
    forfeits = [s for s in st.order if st.leaving[s]] if leavers else []
    void = False
    if busted:
        # Everyone still in would go out together: the hand is void (a seat that left does not count).
        staying = set(units_in).difference(forfeits)
        void = bool(staying) and staying.issubset(busted)
    out_units: list[int] = []
    if not void:
        st.score = new_score
        out_units = busted
    if forfeits:
        out_units = sorted(set(out_units) | set(forfeits))
    for u in out_units:
        if u not in forfeits:
            st.out_key[u] = (2 * st.hand_no + 1, left_value(st, u))
    alive = st.alive
    if not out_units:
        out_seats: list[int] = []
    elif st.opts.teams:
        unit = st.unit
        out_seats = [s for s in range(st.seats) if alive[s] and unit[s] in out_units]
    else:  # each seat its own unit, and every unit out was dealt in (alive until now)
        out_seats = sorted(out_units)
    for s in out_seats:
        alive[s] = False
    return void, out_seats


def next_alive(st: FodinhaState, seat: int) -> int:
    for k in range(1, st.seats + 1):
        s = (seat + k) % st.seats
        if st.alive[s]:
            return s
    return seat


def left_value(st: FodinhaState, unit: int) -> int:
    """What a unit has left, oriented so that bigger is better (lives, or fewer points)."""
    return -st.score[unit] if st.opts.sete_letras else st.score[unit]


_STILL_IN = (1 << 30, 0)
"""The placement key of a unit still in at the end: above every unit that went out."""


def finish(st: FodinhaState, events: list[Event] | None) -> None:
    st.phase = OVER
    st.turn = -1
    n = st.seats
    unit = st.unit
    # Loops rather than comprehensions (each costs a function call, some 3,800 instructions on CPython 3.11): a short
    # match's start and end weigh on every decision of a search that plays it out.
    hands: list[list[int]] = []
    for _ in range(n):
        hands.append([])
    st.hands = hands
    keys: list[tuple[int, int]] = []
    for key in st.out_key:
        keys.append(_STILL_IN if key is None else key)
    if not st.opts.teams:
        for s, (hand, order) in st.left_key.items():
            keys[unit[s]] = (2 * hand, order)
    # Competition ranking (1, 2, 2, 4): one place more than the number of units with a greater key.
    ranked = sorted(keys, reverse=True)
    placements: list[int] = []
    for s in range(n):
        placements.append(ranked.index(keys[unit[s]]) + 1)
    for s, place in st.reserved.items():
        placements[s] = max(place, placements[s])
    st.placements = placements
    if events is not None:
        events.append({"type": "match_end", "placements": placements})
