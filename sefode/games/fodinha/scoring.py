"""How a Fodinha trick, hand and match end: who takes a trick (and a cancelled trick's bolo), lives lost or points
won at the end of a hand (seed 002 for Se Fode, seed 000 for 7 Letras), who is out, the next hand, the placements."""

from __future__ import annotations

from typing import Any

from sefode.engine import Event
from sefode.games.fodinha.cards import truco_name
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
        events.append(
            {
                "type": "trick",
                "leader": leader,
                "plays": [[s, truco_name(c)] for s, c in plays],
                "winner": trick.winner,
                "value": value,
            }
        )
    if st.hands[st.leader]:
        st.turn = st.leader
    else:
        end_hand(st, events)


def end_hand(st: FodinhaState, events: list[Event] | None) -> None:
    opts = st.opts
    bolo: dict[str, Any] | None = None
    if st.acc:
        if not opts.sete_letras and st.last_winner >= 0:
            taker: int | None = st.last_winner
            st.won[st.last_winner] += st.acc
        else:
            taker = None
        for earlier in reversed(st.tricks):
            if earlier.winner is not None:
                break
            earlier.taken_by = taker
        bolo = {"seat": taker, "value": st.acc}
        if events is not None:
            events.append({"type": "bolo", "seat": taker, "value": st.acc})
        st.acc = 0
    # Score by unit (a pair adds its partners' bids and tricks).
    n = st.seats
    units = st.units
    unit = st.unit
    bids = st.bids
    won = st.won
    alive = st.alive
    sete_letras = opts.sete_letras
    unit_bid = [0] * units
    unit_won = [0] * units
    in_hand = [False] * units
    in_order = [False] * n
    for s in st.order:
        in_order[s] = True
        u = unit[s]
        unit_bid[u] += bids[s]
        unit_won[u] += won[s]
        in_hand[u] = True
    new_score = st.score[:]
    busted: list[int] = []
    for u in range(units):
        if not in_hand[u]:
            continue
        if sete_letras:
            new_score[u] += 1 if unit_bid[u] != unit_won[u] else 0
            if new_score[u] >= SETE_LETRAS_LIMIT:
                busted.append(u)
        else:
            new_score[u] -= abs(unit_bid[u] - unit_won[u])
            if new_score[u] <= 0:
                busted.append(u)
    forfeits = [] if opts.teams or True not in st.leaving else [s for s in st.order if st.leaving[s]]
    staying = [u for u in range(units) if in_hand[u] and u not in forfeits] if busted else []
    void = bool(staying) and all(u in busted for u in staying)
    out_units: list[int] = []
    if not void:
        st.score = new_score
        out_units = busted
    if forfeits:
        out_units = sorted(set(out_units) | set(forfeits))
    for u in out_units:
        if u not in forfeits:
            st.out_key[u] = (2 * st.hand_no + 1, left_value(st, u))
    out_seats = [s for s in range(n) if alive[s] and unit[s] in out_units] if out_units else []
    for s in out_seats:
        alive[s] = False
    score = st.score
    if void:
        score_record: list[int | None] = [score[unit[s]] if in_order[s] else None for s in range(n)]
    else:
        score_record = [score[unit[s]] if (alive[s] or s in out_seats) else None for s in range(n)]
    bids_record: list[int | None] = [bids[s] if in_order[s] else None for s in range(n)]
    won_record: list[int | None] = [won[s] if in_order[s] else None for s in range(n)]
    st.records.append(
        HandRecord(
            number=st.hand_no,
            dealer=st.dealer,
            cards=st.size,
            vira=st.vira,
            bids=bids_record,
            tricks=st.tricks,
            won=won_record,
            score=score_record,
            out=out_seats,
            void=void,
            bolo=bolo,
            dealt=[h[:] for h in st.dealt],
        )
    )
    if events is not None:
        events.append(
            {
                "type": "hand_end",
                "hand": st.hand_no,
                "bids": bids_record[:],
                "won": won_record[:],
                "score": score_record,
                "out": out_seats,
                "void": void,
            }
        )
    alive_units = {unit[s] for s in range(n) if alive[s]}
    if len(alive_units) <= 1:
        finish(st, events)
        return
    most = opts.fits(sum(st.alive))
    if void:
        size, climbing = min(st.size, most), st.climbing
    elif out_units and not opts.sete_letras:
        size, climbing = 1, True
    else:
        size, climbing = next_hand_size(st.size, st.climbing, most)
    st.dealer = next_alive(st, st.dealer)
    start_hand(st, size, climbing, events)


def next_alive(st: FodinhaState, seat: int) -> int:
    for k in range(1, st.seats + 1):
        s = (seat + k) % st.seats
        if st.alive[s]:
            return s
    return seat


def left_value(st: FodinhaState, unit: int) -> int:
    """What a unit has left, oriented so that bigger is better (lives, or fewer points)."""
    return -st.score[unit] if st.opts.sete_letras else st.score[unit]


def finish(st: FodinhaState, events: list[Event] | None) -> None:
    st.phase = OVER
    st.turn = -1
    st.hands = [[] for _ in range(st.seats)]
    keys: list[tuple[int, int]] = []
    for u in range(st.units):
        key = st.out_key[u]
        keys.append(key if key is not None else (1 << 30, 0))
    for s, (hand, order) in st.left_key.items():
        if not st.opts.teams:
            keys[st.unit[s]] = (2 * hand, order)
    unit_place = [1 + sum(1 for other in keys if other > key) for key in keys]
    placements = [unit_place[st.unit[s]] for s in range(st.seats)]
    for s, place in st.reserved.items():
        placements[s] = max(place, placements[s])
    st.placements = placements
    if events is not None:
        events.append({"type": "match_end", "placements": placements})
