"""Scoring King: who takes a trick and its points under the hand's contract, the end of a hand (early when nothing it
punishes is left) and, after the twelfth, the placements."""

from __future__ import annotations

from sefode.engine import Event
from sefode.games.king.dealing import start_hand
from sefode.games.king.rules import (
    BITS,
    CONTRACTS,
    DUAS_ULTIMAS,
    HAND_SIZE,
    HANDS_PER_MATCH,
    SEATS,
    TRICK_POINTS,
    TRUNFO,
    VAZAS,
    placements,
)
from sefode.games.king.state import HandRecord, KingState, Phase, Trick

_ENDS_WHEN = tuple(c.ends_when for c in CONTRACTS)
"""Per contract: the hand ends early once every one of these cards has been taken (0: never early)."""
_POINTS_BY_NUMBER = tuple(
    tuple(TRICK_POINTS[c.index](0, number) for number in range(HAND_SIZE))
    if c.index in (VAZAS, DUAS_ULTIMAS, TRUNFO)
    else None
    for c in CONTRACTS
)
"""Per contract whose trick points depend on the trick's number alone (Vazas, Duas últimas, Trunfo: not on its cards):
``TRICK_POINTS`` of each trick number, so that its tricks need neither the cards' mask nor the call; None for the
others. ``tests/test_rules_king.py`` holds it equal to ``TRICK_POINTS``."""


def resolve_trick(st: KingState, events: list[Event] | None) -> None:
    plays = st.trick
    (s0, c0), (s1, c1), (s2, c2), (s3, c3) = plays  # a trick is resolved once all four seats have played
    best = st.top_trump if st.top_trump >= 0 else st.top_led
    winner = s0 if c0 == best else s1 if c1 == best else s2 if c2 == best else s3
    tricks = st.tricks
    number = len(tricks)  # of this trick, 0 for the first
    by_number = _POINTS_BY_NUMBER[st.contract]
    if by_number is not None:
        points = by_number[number]
    else:
        points = TRICK_POINTS[st.contract](BITS[c0] | BITS[c1] | BITS[c2] | BITS[c3], number)
    st.points[winner] += points
    trick = Trick(st.leader, plays, winner, points)
    tricks.append(trick)
    st.trick = []
    st.led = st.top_led = st.top_trump = -1
    st.chain = None
    st.leader = winner
    if events is not None:
        # Who took it and its points: its cards came in the play events, and the view holds it (``last_trick``).
        events.append({"type": "trick", "winner": winner, "points": points})
    ends = _ENDS_WHEN[st.contract]
    if number == HAND_SIZE - 1 or (ends and st.played & ends == ends):
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
