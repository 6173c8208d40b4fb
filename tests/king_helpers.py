"""Helpers for the King rule tests: preset deals, checked actions, reading the views.

Every action goes through the checked path (``parse_action`` then ``apply``), as input from outside would.
With ``dealer=0`` (the default here) seat 1 chooses the first contract and leads the first trick.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sefode.engine import Event
from sefode.games.king.game import King
from sefode.games.king.rules import RANKS, SUITS
from sefode.games.king.state import KingState

GAME = King()
DECK = [r + s for s in SUITS for r in RANKS]


def fill(partial: Mapping[int, Sequence[str]], voids: Mapping[int, str] | None = None) -> dict[str, Any]:
    """A full deal: each seat gets the cards given for it, then the rest of the deck in order (clubs 2 up to
    diamonds A), skipping for each seat the suits named in ``voids`` (e.g. ``{2: "h"}``)."""
    voids = voids or {}
    hands: list[list[str]] = [list(partial.get(s, ())) for s in range(4)]
    used = {c for h in hands for c in h}
    assert len(used) == sum(len(h) for h in hands), "a card is given twice"
    rest = [c for c in DECK if c not in used]
    # Seats with voids are served first so that they can still be filled.
    order = sorted(range(4), key=lambda s: -len(voids.get(s, "")))
    for card in rest:
        for seat in order:
            if len(hands[seat]) < 13 and card[1] not in voids.get(seat, ""):
                hands[seat].append(card)
                break
        else:
            raise AssertionError(f"cannot place {card} with voids {voids}")
    assert all(len(h) == 13 for h in hands), hands
    return {"hands": hands}


def new_match(
    deals: Sequence[Mapping[str, Any] | None] = (), *, order: str = "choice", dealer: int = 0, seed: int = 7
) -> KingState:
    setup: dict[str, Any] = {"dealer": dealer, "deals": [None if d is None else dict(d) for d in deals]}
    return GAME.new_match({"order": order}, seed, setup)


def act(st: KingState, seat: int, **message: Any) -> list[Event]:
    """One action in its JSON form: ``act(st, 1, contract="vazas")``, ``act(st, 2, play="Qs")``."""
    return GAME.apply(st, seat, GAME.parse_action(st, seat, message))


def turn(st: KingState) -> int:
    (seat,) = GAME.awaiting(st)
    return seat


def play(st: KingState, *cards: str) -> list[Event]:
    """Each card played in turn by whoever is awaited."""
    events: list[Event] = []
    for card in cards:
        events += act(st, turn(st), play=card)
    return events


def legal(st: KingState, seat: int | None = None) -> list[str]:
    seat = turn(st) if seat is None else seat
    return sorted(GAME.action_json(st, a)["play"] for a in GAME.legal_actions(st, seat))


def hand(st: KingState, seat: int) -> list[str]:
    cards = GAME.view(st, seat)["hands"][seat]
    assert cards is not None
    return sorted(cards)


def start(
    contract: str,
    partial: Mapping[int, Sequence[str]],
    voids: Mapping[int, str] | None = None,
    trump: str | None = None,
) -> KingState:
    """Hand 1 (dealer 0) dealt from ``fill(partial, voids)``; seat 1 chooses ``contract`` (and ``trump``)."""
    st = new_match([fill(partial, voids)])
    act(st, 1, contract=contract)
    if trump is not None:
        act(st, 1, trump=trump)
    return st


def play_out_hand(st: KingState) -> list[Event]:
    """Finish the hand in progress with the first legal action at every turn (choosing the first contract
    offered, and clubs as trump)."""
    number = st.hand_no
    events: list[Event] = []
    while GAME.outcome(st) is None and st.hand_no == number:
        seat = turn(st)
        events += GAME.apply(st, seat, GAME.legal_actions(st, seat)[0])
    return events
