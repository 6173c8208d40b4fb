"""Scoring King: who takes a trick and its points under the hand's contract, the end of a hand (early when nothing it
punishes is left) and, after the twelfth, the placements."""

from __future__ import annotations

from sefode.engine import Event
from sefode.games.king.dealing import start_hand
from sefode.games.king.rules import CONTRACTS, HAND_SIZE, HANDS_PER_MATCH, SEATS, card_name, placements, trick_points
from sefode.games.king.state import HandRecord, KingState, Phase, Trick


def resolve_trick(st: KingState, events: list[Event] | None) -> None:
    plays = st.trick
    best = st.top_trump if st.top_trump >= 0 else st.top_led
    winner = plays[0][0]
    cards = 0
    for s, c in plays:
        cards |= 1 << c
        if c == best:
            winner = s
    points = trick_points(st.contract, cards, len(st.tricks))
    st.points[winner] += points
    trick = Trick(st.leader, plays, winner, points)
    st.tricks.append(trick)
    st.trick = []
    st.led = st.top_led = st.top_trump = -1
    st.chain = None
    st.leader = winner
    if events is not None:
        events.append(
            {
                "type": "trick",
                "leader": trick.leader,
                "plays": [[s, card_name(c)] for s, c in plays],
                "winner": winner,
                "points": points,
            }
        )
    ends = CONTRACTS[st.contract].ends_when
    if len(st.tricks) == HAND_SIZE or (ends and st.played & ends == ends):
        end_hand(st, events)
    else:
        st.turn = winner


def end_hand(st: KingState, events: list[Event] | None) -> None:
    totals = st.totals
    for s in range(SEATS):
        totals[s] += st.points[s]
    early = len(st.tricks) < HAND_SIZE
    record = HandRecord(
        st.hand_no, st.dealer, st.chooser, st.contract, st.trump, st.tricks, st.points[:], totals[:], early
    )
    st.records.append(record)
    if events is not None:
        events.append(
            {
                "type": "hand_end",
                "hand": st.hand_no,
                "contract": CONTRACTS[st.contract].name,
                "points": record.points[:],
                "totals": record.totals[:],
                "early": early,
            }
        )
    if st.hand_no >= HANDS_PER_MATCH:
        st.phase = Phase.OVER
        st.turn = -1
        st.hands = [0] * SEATS
        st.placements = placements(totals)
        if events is not None:
            events.append({"type": "match_end", "placements": st.placements[:], "totals": totals[:]})
        return
    start_hand(st, events)
