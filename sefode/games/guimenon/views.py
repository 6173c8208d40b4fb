"""What a Guimenon seat or spectator sees (the board, Locations, its own hand and secret placements), the public
events of a resolved turn, and the match's report."""

from __future__ import annotations

from typing import Any

from sefode.engine import Event, Outcome, Seat, View
from sefode.games.guimenon import rules
from sefode.games.guimenon.cardset import LANGS, ability_text
from sefode.games.guimenon.rules import CARDS, CARDSET, LOCATION_DEFS
from sefode.games.guimenon.state import LOCATIONS, SEATS, TURNS, GState, TurnRecord, Unit


def unit_json(u: Unit) -> dict[str, Any]:
    return {
        "uid": u.uid,
        "card": u.card.id,
        "owner": u.owner,
        "stars": u.stars(),
        "printed": u.card.stars,
        "being": u.card.being,
        "types": sorted(u.card.types),
        "token": u.card.token,
        "copy": u.created and not u.card.token,
    }


def turn_events(st: GState, turn: int, outcome: Outcome | None) -> list[Event]:
    """The public story of a resolved turn, and the start of the next one."""
    events: list[Event] = []
    rec = record(st, turn)
    if rec is not None:
        events.append(
            {
                "type": "reveal",
                "turn": rec.turn,
                "plays": [{"seat": s, "card": c, "location": li} for s, c, li in rec.plays],
                "discards": [{"seat": s, "card": c} for s, c in rec.discards],
            }
        )
        events.extend({"type": "ability", **resolution_json(r)} for r in rec.resolved[rec.opening :])
        events.append({"type": "turn_end", "turn": rec.turn, "order": rec.order, "board": rec.board})
    if st.over:
        assert outcome is not None
        events.append(
            {
                "type": "match_end",
                "placements": list(outcome.placements),
                "control": rules.control(st),
                "decks": [list(d) for d in st.deck_lists],
            }
        )
    else:
        events.append(turn_start_event(st))
    return events


def turn_start_event(st: GState) -> Event:
    rec = record(st, st.turn)
    revealed = None if rec is None or rec.revealed is None else rec.revealed
    return {
        "type": "turn",
        "turn": st.turn,
        "moon": list(st.moon_total),
        "revealed": None if revealed is None else location_json(st.locations[revealed]) | {"index": revealed},
        "resolved": [] if rec is None else [resolution_json(r) for r in rec.resolved[: rec.opening]],
    }


def record(st: GState, turn: int) -> TurnRecord | None:
    if not st.recording or not 1 <= turn <= len(st.records):
        return None
    return st.records[turn - 1]


def resolution_json(r: Any) -> dict[str, Any]:
    return {"step": r.step, "location": r.location, "seat": r.seat, "source": r.source, "results": r.results}


def board_json(st: GState) -> list[dict[str, Any]]:
    out = []
    for li in range(LOCATIONS):
        out.append(
            {
                "location": li,
                "id": LOCATION_DEFS[st.locations[li]].id if li < st.revealed else None,
                "cards": [[unit_json(u) for u in st.board[li][s]] for s in range(SEATS)],
                "stars": [rules.location_stars(st, li, s) for s in range(SEATS)],
            }
        )
    return out


def location_json(index: int) -> dict[str, Any]:
    loc = LOCATION_DEFS[index]
    return {
        "id": loc.id,
        "name": {lang: loc.name.get(lang) for lang in LANGS},
        "text": {lang: ability_text(loc.ability, CARDSET, lang, location=True) for lang in LANGS},
    }


def view(
    state: GState,
    seat: Seat | None,
    outcome: Outcome | None,
    awaiting: frozenset[Seat],
) -> View:
    """What ``seat`` (None: a spectator) sees, given the outcome (None while playing) and the awaited seats. A seat's
    secret placements show in its own view alone; its legal actions are in the ``state`` message, not in the view."""
    return seat_view(state, seat, public_view(state, outcome, awaiting))


def seat_view(state: GState, seat: Seat | None, public: dict[str, Any]) -> View:
    """``public`` (``public_view``) with what only ``seat`` sees (``me``: its hand, its secret placements...)."""
    st = state
    mine: dict[str, Any] | None = None
    if seat is not None:
        mine = {
            "hand": [
                {
                    "card": CARDS[c].id,
                    "cost": rules.cost(st, seat, c),
                    "printed_cost": CARDS[c].cost,
                    "stars": CARDS[c].stars,
                    "being": CARDS[c].being,
                    "types": sorted(CARDS[c].types),
                }
                for c in st.hand[seat]
            ],
            "moon_left": st.moon[seat],
            "pending": [
                {
                    "card": CARDS[c].id,
                    "location": li,
                    "stars": CARDS[c].stars,
                    "being": CARDS[c].being,
                    "types": sorted(CARDS[c].types),
                }
                for c, li in st.pending[seat]
            ],
            "pending_discards": [CARDS[c].id for c in st.pending_discards[seat]],
            "owed_discards": st.owed[seat],
            "deck": list(st.deck_lists[seat]),
        }
    return {**public, "seat": seat, "me": mine}


def public_view(state: GState, outcome: Outcome | None, awaiting: frozenset[Seat]) -> dict[str, Any]:
    """What every seat and the spectators see, built once for all of them (``seat`` and ``me`` are each seat's own:
    ``seat_view`` fills them in, in their places)."""
    st = state
    locations = [
        dict(location_json(st.locations[li]), revealed=True, index=li)
        if li < st.revealed
        else {"index": li, "revealed": False}
        for li in range(LOCATIONS)
    ]
    last = record(st, st.turn if st.over else st.turn - 1)
    current = None if st.over else record(st, st.turn)
    return {
        "game": "guimenon",
        "seat": None,
        "turn": st.turn,
        "turns": TURNS,
        "first": st.first,
        "moon": list(st.moon_total),
        "moon_next": list(st.moon_bonus),
        "locations": locations,
        "board": board_json(st),
        "control": rules.control(st),
        "hand_counts": [public_hand_count(st, s) for s in range(SEATS)],
        "deck_counts": [len(d) for d in st.draw],
        "discards": [[CARDS[c].id for c in d] for d in st.discard],
        "confirmed": list(st.confirmed),
        "me": None,
        "awaiting": sorted(awaiting),
        "last_turn": record_json(last) if last is not None else None,
        "opening": [] if current is None else [resolution_json(r) for r in current.resolved[: current.opening]],
        "placements": list(outcome.placements) if outcome else None,
        "decks": [list(d) for d in st.deck_lists] if st.over else None,
    }


def public_hand_count(st: GState, seat: int) -> int:
    """The hand as the table sees it: cards placed or discarded in secret still count until the reveal."""
    return len(st.hand[seat]) + len(st.pending[seat]) + len(st.pending_discards[seat])


def record_json(rec: TurnRecord) -> dict[str, Any]:
    return {
        "turn": rec.turn,
        "moon": rec.moon,
        "revealed": rec.revealed,
        "plays": [{"seat": s, "card": c, "location": li} for s, c, li in rec.plays],
        "discards": [{"seat": s, "card": c} for s, c in rec.discards],
        "order": rec.order,
        "resolved": [resolution_json(r) for r in rec.resolved],
        "board": rec.board,
    }


def report(state: GState) -> dict[str, Any]:
    st = state
    ctrl = rules.control(st) if st.over else None
    return {
        "decks": [list(d) for d in st.deck_lists],
        "first": st.first,
        "locations": [LOCATION_DEFS[x].id for x in st.locations],
        "turns": [record_json(r) for r in st.records],
        "control": ctrl,
        "stars": [[rules.location_stars(st, li, s) for s in range(SEATS)] for li in range(LOCATIONS)],
        "hands": [],
    }
