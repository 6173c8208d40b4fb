"""Scenario helpers for Guimenon tests: set up a board, play cards through the real actions, look at the result."""

from __future__ import annotations

from collections.abc import Sequence

from sefode.engine import Event
from sefode.games.guimenon.game import CONFIRM, PLACE, Guimenon
from sefode.games.guimenon.rules import CARDSET, location_stars
from sefode.games.guimenon.state import GState, Unit

G = Guimenon()
QUIET = ("clareira-tranquila", "torre-de-vigia", "feira-noturna")
"""Locations whose abilities never touch Stars or Moon (only hands and costs), for card scenarios."""
FILLER = ["caranguejo-timido", "boneco-de-lata", "automato-pesado", "carvalho-velho", "vulto", "fagulha",
          "gota-curiosa", "lontra-mensageira", "raiz-profunda", "coruja-agourenta", "sussurro", "engrenagem-solta"]


def idx(card_id: str) -> int:
    return CARDSET.by_id[card_id].index


def scene(turn: int = 3, locations: Sequence[str] = QUIET, seed: int = 1, first: int = 0) -> GState:
    """A match at the start of ``turn`` with empty hands, empty decks and an empty board."""
    st = G.new_match({}, seed, {"decks": [FILLER, FILLER], "locations": list(locations), "first": first,
                                "shuffle": False})
    clear(st)
    while st.turn < turn:
        G.apply(st, 0, CONFIRM)
        G.apply(st, 1, CONFIRM)
        clear(st)
    return st


def clear(st: GState) -> None:
    for s in (0, 1):
        st.hand[s].clear()
        st.draw[s].clear()
        st.owed[s] = 0


def put(st: GState, seat: int, loc: int, card_id: str, perm: int = 0) -> Unit:
    """A card already in play (played on an earlier turn): no ability of it triggers now."""
    u = Unit(st.next_uid, CARDSET.by_id[card_id], seat, loc, st.next_serial, perm=perm)
    st.next_uid += 1
    st.next_serial += 1
    st.board[loc][seat].append(u)
    st.dirty = True
    return u


def play(st: GState, plays: Sequence[tuple[int, str, int]], moon: int = 10) -> list[Event]:
    """Give each card to its seat, place them in order with the real actions, and confirm both seats."""
    for s in (0, 1):
        st.moon[s] = moon
    events: list[Event] = []
    for seat, card_id, loc in plays:
        st.hand[seat].append(idx(card_id))
        events += G.apply(st, seat, PLACE + 3 * idx(card_id) + loc)
    events += G.apply(st, 0, CONFIRM)
    events += G.apply(st, 1, CONFIRM)
    return events


def units(st: GState, card_id: str) -> list[Unit]:
    return [u for loc in st.board for side in loc for u in side if u.card.id == card_id]


def unit(st: GState, card_id: str) -> Unit:
    found = units(st, card_id)
    assert len(found) == 1, f"{card_id}: {len(found)} in play"
    return found[0]


def stars(st: GState, card_id: str) -> int:
    if st.dirty:
        from sefode.games.guimenon.rules import recompute

        recompute(st)
    return unit(st, card_id).stars()


def total(st: GState, loc: int, seat: int) -> int:
    return location_stars(st, loc, seat)


def ids(st: GState, loc: int, seat: int) -> list[str]:
    return [u.card.id for u in st.board[loc][seat]]
