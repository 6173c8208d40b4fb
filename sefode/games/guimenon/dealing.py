"""Setting up a Guimenon match (decks from the options, the room's secret choices or a history; Locations and who
starts, all drawn from the seed whatever the setup fixes) and starting each turn."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from sefode.engine import InvalidOptions
from sefode.games.guimenon import rules
from sefode.games.guimenon.cardset import DeckError
from sefode.games.guimenon.rules import CARDSET, LOCATION_DEFS
from sefode.games.guimenon.state import HAND_LIMIT, LOCATIONS, OPENING_HAND, SEATS, GState, TurnRecord
from sefode.match import Phase

READY_DECKS = tuple(sorted(CARDSET.decks))
SETUP_KEYS = ("decks", "first", "locations", "seat_setup", "shuffle")


def new_state(opts: dict[str, Any], seed: int, setup: Mapping[str, Any] | None) -> GState:
    """The first state of a match (``Guimenon.new_match`` has checked the options): decks, Locations, who starts, the
    opening hands and the first turn."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidOptions(f"seed must be a whole number, not {seed!r}")
    setup = dict(setup or {})
    unknown = sorted(str(k) for k in setup if k not in SETUP_KEYS)
    if unknown:
        raise InvalidOptions(f"unknown setup key(s) {', '.join(unknown)}; Guimenon takes {', '.join(SETUP_KEYS)}")
    rng = random.Random(seed)
    # Every draw below happens whatever the setup fixes, so that a history naming the decks,
    # Locations and first player replays the very match the seed dealt.
    drawn_decks = [READY_DECKS[rng.randrange(len(READY_DECKS))] for _ in range(SEATS)]
    decks_raw = setup.get("decks")
    if decks_raw is None:
        decks_raw = setup.get("seat_setup")  # each seat's secret choice, from the room (capability seat_setup)
    if decks_raw is None:
        decks_raw = [drawn_decks[s] if opts[f"deck_{s}"] == "random" else opts[f"deck_{s}"] for s in range(SEATS)]
    if not isinstance(decks_raw, list) or len(decks_raw) != SEATS:
        raise InvalidOptions("setup 'decks' must be a list of 2 decks (a ready deck's id or a list of card ids)")
    deck_lists: list[list[str]] = []
    for s, raw in enumerate(decks_raw):
        try:
            deck_lists.append(CARDSET.check_deck(raw))
        except DeckError as err:
            raise InvalidOptions(f"seat {s}'s deck: {err}", "options/bad_deck") from err
    shuffle = setup.get("shuffle", True)
    if not isinstance(shuffle, bool):
        raise InvalidOptions("setup 'shuffle' must be true or false")
    draw = []
    for ids in deck_lists:
        pile = [CARDSET.by_id[c].index for c in ids]
        shuffled = pile[:]
        rng.shuffle(shuffled)
        draw.append(shuffled if shuffle else pile[::-1])
    loc_pool = list(range(len(LOCATION_DEFS)))
    rng.shuffle(loc_pool)
    locations = loc_pool[:LOCATIONS]
    first = rng.randrange(SEATS)
    if setup.get("locations") is not None:
        ids = setup["locations"]
        if (
            not isinstance(ids, list)
            or len(ids) != LOCATIONS
            or len(set(map(str, ids))) != LOCATIONS
            or any(i not in CARDSET.location_by_id for i in ids)
        ):
            raise InvalidOptions(f"setup 'locations' must name {LOCATIONS} different Locations, not {ids!r}")
        locations = [CARDSET.location_by_id[i].index for i in ids]
    if setup.get("first") is not None:
        f = setup["first"]
        if isinstance(f, bool) or f not in (0, 1):
            raise InvalidOptions(f"setup 'first' must be 0 or 1, not {f!r}")
        first = f
    st = GState(
        seed=seed,
        rng=rng,
        options=opts,
        seats=SEATS,
        phase=Phase.PLAYING,
        deck_lists=deck_lists,
        shuffle=shuffle,
        draw=draw,
        hand=[[], []],
        discard=[[], []],
        locations=locations,
        first=first,
    )
    for s in (first, 1 - first):
        for _ in range(OPENING_HAND):
            rules.draw_card(st, s)
    start_turn(st)
    return st


def start_turn(st: GState) -> None:
    """A new turn: Moon, a card drawn (from the second turn), a Location revealed (the first three turns)."""
    st.turn += 1
    if st.recording:
        st.records.append(TurnRecord(st.turn, [st.turn + b for b in st.moon_bonus]))
    for s in (0, 1):
        st.moon_total[s] = st.moon[s] = st.turn + st.moon_bonus[s]  # Moon does not carry over
        st.moon_bonus[s] = 0
    if st.turn >= 2:
        for s in (st.first, 1 - st.first):
            rules.draw_card(st, s)
    if st.turn <= LOCATIONS:
        rules.reveal_location(st)
    if st.recording:
        st.records[-1].opening = len(st.records[-1].resolved)
    for s in (0, 1):
        st.owed[s] = max(0, len(st.hand[s]) - HAND_LIMIT)
        st.confirmed[s] = False
