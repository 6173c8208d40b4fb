"""What a One Man's Trash seat or spectator sees, and the match's report. Every action is public; a hand is seen
by its seat alone (the cards others know it took from the table are in ``known``)."""

from __future__ import annotations

from typing import Any

from sefode.engine import Seat, View, check_seat
from sefode.games.trash.rules import TURN_LIMIT, card_names
from sefode.games.trash.state import TrashState


def collector_on_table(st: TrashState) -> bool:
    collectors = st.collectors
    return any(p[-1] in collectors for p in st.piles)


def view(state: TrashState, seat: Seat | None, last: dict[str, Any] | None) -> View:
    """What ``seat`` (None: a spectator) sees, given the last action's entry (its legal actions are in the ``state``
    message, with their labels, not in the view)."""
    if seat is not None:
        check_seat(seat, state.seats)
    return seat_view(state, seat, public_view(state, last))


def seat_view(state: TrashState, seat: Seat | None, public: dict[str, Any]) -> View:
    """``public`` (``public_view``) with ``seat``'s own hand in its places."""
    st = state
    hand = card_names(st.hands[seat]) if seat is not None and not st.over else None
    return {**public, "seat": seat, "hand": hand, "hands": [hand if s == seat else None for s in range(st.seats)]}


def public_view(state: TrashState, last: dict[str, Any] | None) -> dict[str, Any]:
    """What every seat and the spectators see, built once for all of them (``seat``, ``hand`` and ``hands`` are
    each seat's own: ``seat_view`` fills them in, in their places)."""
    st = state
    over = st.over
    return {
        "game": "trash",
        "options": st.opts.to_json(),
        "seat": None,
        "seats": st.seats,
        "first": st.first,
        "turn": st.turn if st.turn >= 0 else None,
        "piles": [card_names(p) for p in st.piles],
        "collectors": card_names(sorted(st.collectors)),
        "collector_on_table": collector_on_table(st),
        "draw_size": len(st.draw),
        "hand": None,
        "hands": None,
        "hand_sizes": [len(h) for h in st.hands],
        "known": [card_names(k) for k in st.known],
        "in": list(st.alive),
        "out": list(st.out),
        "turns": list(st.turns),
        "turn_limit": TURN_LIMIT,
        "last": last,
        "over": over,
        "winner": st.winner if st.winner >= 0 else None,
        "no_winner": over and st.winner < 0,
        "reason": st.reason or None,
        "placements": st.placements,
    }


def report(state: TrashState) -> dict[str, Any]:
    st = state
    return {
        "winner": st.winner if st.winner >= 0 else None,
        "turns": len(st.log),
        "out": list(st.out),
        "piles": [card_names(p) for p in st.piles],
        "hand_sizes": [len(h) for h in st.hands],
    }
