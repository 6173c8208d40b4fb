"""What a King seat or spectator sees: the table, the score sheet, what each seat has taken, why a card is refused;
and the match's report."""

from __future__ import annotations

from typing import Any

from sefode.engine import Seat, View
from sefode.games.king.rules import (
    CONTRACTS,
    HANDS_PER_MATCH,
    HEART_MASK,
    JK_MASK,
    KH_MASK,
    POOL,
    POOL_PER_SEAT,
    Q_MASK,
    SEATS,
    SUITS,
    TRUNFO,
    card_name,
    legal_mask,
    names_of,
)
from sefode.games.king.state import HandRecord, KingState, Phase, Trick

# What each link of a chain means, for the refusal message and the table's "why is this card dimmed".
REASONS: dict[str, str] = {
    "follow_suit": "you must follow the suit led",
    "no_hearts_lead": "hearts may not be led until a heart has been played, unless you hold only hearts",
    "no_trump_lead": "trumps may not be led until a trump has been played, unless you hold only trumps",
    "must_trump": "you have none of the suit led, so you must play a trump",
    "must_overtrump": "you must play a trump higher than the highest trump in the trick",
    "must_drop_under": "a higher card of the suit is in the trick, so you must play your penalty card under it",
    "must_discard": "you have none of the suit led, so you must discard a penalty card",
    "must_discard_kh": "you have none of the suit led, so you must discard the king of hearts",
    "must_discard_heart": "you have none of the suit led, so you must discard a heart",
}


def refusal_reason(st: KingState, chain: tuple[int, ...], hand: int) -> str:
    """Which rule binds a seat holding ``hand`` now (it names why the other cards are refused)."""
    index = next((i for i, allowed in enumerate(chain) if hand & allowed), len(chain))
    if st.led < 0:
        return "no_trump_lead" if st.contract == TRUNFO else "no_hearts_lead"
    if st.contract == TRUNFO:
        over = "must_overtrump" if st.top_trump >= 0 else "must_trump"
        names = [over, "follow_suit"] if st.led == st.trump else ["follow_suit", over, "must_trump"]
        return names[index]
    contract = CONTRACTS[st.contract]
    if contract.follow_forced:
        if index == 0:
            return "must_drop_under"
        index -= 1
    if index == 0:
        return "follow_suit"
    allowed = chain[-len(contract.void_forced) :][index - 1]
    if allowed == KH_MASK:
        return "must_discard_kh"
    if allowed == HEART_MASK:
        return "must_discard_heart"
    return "must_discard"


def quotas(st: KingState) -> list[dict[str, int]] | None:
    """Per seat: choices left (``trunfo`` 0/1, ``pool`` 0..2); None in the fixed order."""
    if st.fixed:
        return None
    return [
        {"trunfo": 0 if st.trunfo_chosen[s] else 1, "pool": POOL_PER_SEAT - st.pool_chosen[s]} for s in range(SEATS)
    ]


def counters(tricks: list[Trick]) -> list[dict[str, int]]:
    """Per seat, what it has taken in this hand: tricks, jacks and kings, queens, hearts, K♥, points."""
    out = [{"tricks": 0, "men": 0, "queens": 0, "hearts": 0, "king_of_hearts": 0, "points": 0} for _ in range(4)]
    for t in tricks:
        cards = 0
        for _, c in t.plays:
            cards |= 1 << c
        row = out[t.winner]
        row["tricks"] += 1
        row["men"] += (cards & JK_MASK).bit_count()
        row["queens"] += (cards & Q_MASK).bit_count()
        row["hearts"] += (cards & HEART_MASK).bit_count()
        row["king_of_hearts"] += 1 if cards & KH_MASK else 0
        row["points"] += t.points
    return out


def trick_json(t: Trick) -> dict[str, Any]:
    return {"leader": t.leader, "plays": [[s, card_name(c)] for s, c in t.plays], "winner": t.winner}


def record_json(r: HandRecord) -> dict[str, Any]:
    return {
        "number": r.number,
        "dealer": r.dealer,
        "chooser": r.chooser,
        "contract": CONTRACTS[r.contract].name,
        "trump": SUITS[r.trump] if r.trump >= 0 else None,
        "tricks": [trick_json(t) for t in r.tricks],
        "points": list(r.points),
        "totals": list(r.totals),
    }


def view(state: KingState, seat: Seat | None, options: dict[str, Any], chain: tuple[int, ...] | None) -> View:
    """What ``seat`` (None: a spectator) sees, given, when it is to play a card, the chain it must play from
    (``rules.play_chain``), which names why the other cards are refused. Its legal actions are in the ``state``
    message, with their labels, not in the view."""
    return seat_view(state, seat, public_view(state, options), chain)


def seat_view(state: KingState, seat: Seat | None, public: dict[str, Any], chain: tuple[int, ...] | None) -> View:
    """``public`` (``public_view``) with what only ``seat`` sees: its hand, and why its refused cards are refused
    when it is to play (``chain``, as for ``view``)."""
    st = state
    over = st.phase is Phase.OVER
    hands = [names_of(st.hands[o]) if seat == o and not over else None for o in range(SEATS)]
    reasons: dict[str, str] = {}
    if seat is not None and chain is not None:
        hand = st.hands[seat]
        refused = hand & ~legal_mask(hand, chain)
        if refused:
            reason = refusal_reason(st, chain, hand)
            for name in names_of(refused):
                reasons[name] = f"king.reason.{reason}"  # the catalogues word it (REASONS: the English, for errors)
    return {**public, "seat": seat, "hands": hands, "reasons": reasons}


def public_view(state: KingState, options: dict[str, Any]) -> dict[str, Any]:
    """What every seat and the spectators see, built once for all of them (``seat``, ``hands`` and ``reasons`` are
    each seat's own: ``seat_view`` fills them in, in their places)."""
    st = state
    over = st.phase is Phase.OVER
    sheet = [
        {
            "number": r.number,
            "dealer": r.dealer,
            "chooser": r.chooser,
            "contract": CONTRACTS[r.contract].name,
            "trump": SUITS[r.trump] if r.trump >= 0 else None,
            "points": list(r.points),
            "totals": list(r.totals),
            "early": r.early,
        }
        for r in st.records
    ]
    last = st.tricks[-1] if st.tricks else (st.records[-1].tricks[-1] if st.records else None)
    return {
        "game": "king",
        "options": options,
        "seat": None,
        "seats": SEATS,
        "phase": str(st.phase),
        "hand_number": st.hand_no,
        "hands_per_match": HANDS_PER_MATCH,
        "dealer": st.dealer,
        "chooser": st.chooser,
        "contract": CONTRACTS[st.contract].name if st.contract >= 0 and not over else None,
        "trump": SUITS[st.trump] if st.trump >= 0 and not over else None,
        "turn": st.turn if st.turn >= 0 else None,
        "hands": None,
        "hand_counts": [h.bit_count() for h in st.hands],
        "leader": st.leader,
        "trick": [[s, card_name(c)] for s, c in st.trick],
        "tricks": [trick_json(t) for t in st.tricks] if not over else [],
        "last_trick": None if last is None else trick_json(last),
        "broken": st.broken,
        "taken": counters(st.tricks) if not over else None,
        "points": list(st.points),
        "totals": list(st.totals),
        "sheet": sheet,
        "quotas": quotas(st),
        "pool_open": [CONTRACTS[c].name for c in POOL if not st.pool_played >> c & 1] if not st.fixed else None,
        "contracts": [
            {"name": c.name, "total": c.total, "points": c.points, "key": f"king.contract.{c.name}"} for c in CONTRACTS
        ],
        "reasons": {},
        "placements": st.placements,
    }


def report(state: KingState) -> dict[str, Any]:
    return {"hands": [record_json(r) for r in state.records]}
