"""Helpers for the Fodinha rule tests: preset deals, checked actions, reading the record.

Every action goes through the checked path (``parse_action`` then ``apply``), exactly as input
from outside would.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sefode.engine import Event
from sefode.games.fodinha.game import Fodinha
from sefode.games.fodinha.state import FodinhaState

GAME = Fodinha()

Hand = Sequence[str] | None


def deal(hands: Sequence[Hand], vira: str | None = None) -> dict[str, Any]:
    """One preset deal: a hand per seat (None for a seat that is out) and, for 7 Letras, the vira."""
    out: dict[str, Any] = {"hands": [None if h is None else list(h) for h in hands]}
    if vira is not None:
        out["vira"] = vira
    return out


def new_match(
    variant: str = "sefode",
    players: int = 3,
    *,
    dealer: int | None = 0,
    deals: Sequence[Mapping[str, Any] | None] = (),
    seed: int = 7,
    **options: Any,
) -> FodinhaState:
    """A match with a fixed first dealer and preset deals (hands past the list come from the seed)."""
    setup: dict[str, Any] = {"deals": [None if d is None else dict(d) for d in deals]}
    if dealer is not None:
        setup["dealer"] = dealer
    opts: dict[str, Any] = {"variant": variant, "players": players, **options}
    return GAME.new_match(opts, seed, setup)


def act(st: FodinhaState, seat: int, **message: Any) -> list[Event]:
    """Apply one action given in its JSON form, e.g. ``act(st, 1, bid=2)`` or ``act(st, 0, play="Ks")``."""
    action = GAME.parse_action(st, seat, message)
    return GAME.apply(st, seat, action)


def bids(st: FodinhaState, values: Mapping[int, int]) -> list[Event]:
    """Every seat of the hand bids, in the order the engine asks for them; ``values`` maps seat -> bid."""
    events: list[Event] = []
    for _ in range(len(st.order)):
        (seat,) = GAME.awaiting(st)
        events += act(st, seat, bid=values[seat])
    return events


def plays(st: FodinhaState, *moves: tuple[int, str]) -> list[Event]:
    """Play ``(seat, card)`` moves in order, checking that each seat is the one awaited."""
    events: list[Event] = []
    for seat, card in moves:
        assert GAME.awaiting(st) == frozenset({seat}), f"expected seat {seat} to play, awaiting {GAME.awaiting(st)}"
        events += act(st, seat, play=card)
    return events


def hand_record(st: FodinhaState, number: int = -1) -> dict[str, Any]:
    """One finished hand of the report (the last by default)."""
    hands: list[dict[str, Any]] = GAME.report(st)["hands"]
    if number < 0:
        return hands[number]
    (found,) = [h for h in hands if h["number"] == number]
    return found


def tricks(record: Mapping[str, Any]) -> list[tuple[int, list[tuple[int, str]], int | None, int]]:
    """The tricks of a hand record as (leader, plays, winner, value)."""
    return [(t["leader"], [(s, c) for s, c in t["plays"]], t["winner"], t["value"]) for t in record["tricks"]]


def turn(st: FodinhaState) -> int:
    (seat,) = GAME.awaiting(st)
    return seat


def legal_json(st: FodinhaState, seat: int) -> list[dict[str, Any]]:
    return [GAME.action_json(st, a) for a in GAME.legal_actions(st, seat)]


def play_out_hand(st: FodinhaState, bid: int = 0) -> None:
    """Finish the hand in progress: every remaining bid is ``bid`` (or the first legal one), every play
    is the first legal card."""
    number = st.hand_no
    while st.hand_no == number and GAME.outcome(st) is None:
        seat = turn(st)
        legal = GAME.legal_actions(st, seat)
        if st.phase == "bidding":
            wanted = [a for a in legal if GAME.action_json(st, a) == {"bid": bid}]
            GAME.apply(st, seat, wanted[0] if wanted else legal[0])
        else:
            GAME.apply(st, seat, legal[0])
