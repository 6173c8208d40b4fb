"""Guimenon TCG (seed 003, docs/rulings.md §4): two players, 3 Locations, 6 simultaneous secret turns.

Actions are integers (``N`` is the number of cards in the set):

* ``CONFIRM`` (0) ends the seat's secret turn;
* ``PLACE + 3 * card + location`` places a card of the hand face down at a revealed Location, paying its Moon;
* ``TAKE_BACK + card`` takes a placed card back to the hand (its Moon is refunded);
* ``DISCARD + card`` discards a card of the hand while the seat is over the hand limit of 7.

JSON forms: ``{"place": "broto-teimoso", "location": 0}``, ``{"take_back": "broto-teimoso"}``,
``{"discard": "vulto"}``, ``{"confirm": true}``.

Both seats are awaited during the secret turn; a seat that confirmed is not. Nothing of a seat's
unconfirmed plays shows in the other seat's view or in any event (placing, taking back and discarding
return no events at all) until both have confirmed; then everything is revealed together and the
abilities resolve (see ``rules``).

Setup (``new_match``'s ``setup``, also the hand history's top-level keys): ``decks`` (per seat a ready
deck's id or a list of card ids), ``locations`` (3 Location ids, left to right), ``first`` (who
starts), ``shuffle`` (false: decks are drawn in the listed order, first card first). Options
``deck_0``/``deck_1`` pick a ready deck (or ``random``) for a seat when the setup does not.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping
from typing import Any

from sefode.bots.knowledge import BotKnowledge
from sefode.engine import (
    JSON,
    Action,
    Capability,
    Event,
    Game,
    GameSpec,
    IllegalAction,
    InvalidOptions,
    MatchOver,
    NotYourTurn,
    OptionKind,
    OptionSpec,
    Outcome,
    Seat,
    Turns,
    View,
    check_seat,
    validate_options,
)
from sefode.games.guimenon import rules
from sefode.games.guimenon.bots import bot_knowledge
from sefode.games.guimenon.cardset import LANGS, MAX_PER_LOCATION, DeckError, ability_text
from sefode.games.guimenon.rules import ACTIONS, CARDS, CARDSET, LOCATION_DEFS, N
from sefode.games.guimenon.rules import CONFIRM as CONFIRM
from sefode.games.guimenon.rules import DISCARD as DISCARD
from sefode.games.guimenon.rules import PLACE as PLACE
from sefode.games.guimenon.rules import TAKE_BACK as TAKE_BACK
from sefode.games.guimenon.state import (
    HAND_LIMIT,
    LOCATIONS,
    OPENING_HAND,
    SEATS,
    TURNS,
    GState,
    TurnRecord,
    Unit,
)

READY_DECKS = tuple(sorted(CARDSET.decks))
DECK_CHOICES = ("random", *READY_DECKS)

SPEC = GameSpec(
    name="guimenon",
    title="game.guimenon.title",
    package="sefode.games.guimenon",
    min_seats=SEATS,
    max_seats=SEATS,
    options=(
        OptionSpec(
            "deck_0",
            OptionKind.CHOICE,
            "random",
            "guimenon.option.deck_0",
            choices=DECK_CHOICES,
            choice_labels=tuple(f"guimenon.deck.{d}" for d in DECK_CHOICES),
            help="guimenon.option.deck_help",
        ),
        OptionSpec(
            "deck_1",
            OptionKind.CHOICE,
            "random",
            "guimenon.option.deck_1",
            choices=DECK_CHOICES,
            choice_labels=tuple(f"guimenon.deck.{d}" for d in DECK_CHOICES),
            help="guimenon.option.deck_help",
        ),
    ),
    seats_option=None,
    turns=Turns.SIMULTANEOUS,
    capabilities=frozenset({Capability.SEAT_SETUP, Capability.PLAYER_DATA, Capability.FORFEIT}),
    bot_levels=("easy", "normal", "hard"),
)

_SETUP_KEYS = ("decks", "first", "locations", "seat_setup", "shuffle")
MAX_SAVED_DECK_NAME = 40
_BOTH = frozenset((0, 1))
_AWAIT: tuple[frozenset[Seat], ...] = (frozenset(), frozenset((0,)), frozenset((1,)), _BOTH)
"""Indexed by ``(not confirmed[0]) + 2 * (not confirmed[1])``."""


def _bad(message: str, code: str = "action/illegal") -> IllegalAction:
    return IllegalAction(message, code)


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


class Guimenon(Game[GState]):
    name = "guimenon"
    spec = SPEC
    _bot_knowledge: BotKnowledge | None = None
    """Made on the first ``bot_knowledge`` call, then kept."""

    # ================================================================= setting up
    def new_match(self, options: Mapping[str, Any], seed: int, setup: Mapping[str, Any] | None = None) -> GState:
        opts = validate_options(SPEC, options)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidOptions(f"seed must be a whole number, not {seed!r}")
        setup = dict(setup or {})
        unknown = sorted(str(k) for k in setup if k not in _SETUP_KEYS)
        if unknown:
            raise InvalidOptions(f"unknown setup key(s) {', '.join(unknown)}; Guimenon takes {', '.join(_SETUP_KEYS)}")
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
        self._start_turn(st)
        return st

    # ================================================================= before the match (capabilities)
    def seat_setup_choices(self, options: Mapping[str, JSON]) -> list[dict[str, JSON]]:
        """The ready decks; a seat may also bring a deck it built (a list of card ids)."""
        return [
            {"value": d, "label": f"guimenon.deck.{d}", "description": f"guimenon.deck.{d}.description"}
            for d in READY_DECKS
        ]

    def check_seat_setup(self, options: Mapping[str, JSON], value: JSON) -> JSON:
        """A ready deck's id, or a list of card ids following the deck rules (12+ cards, 1 copy, Beings and
        Items only)."""
        try:
            cards = CARDSET.check_deck(value)
        except DeckError as err:
            raise InvalidOptions(str(err), "setup/bad_deck") from err
        return value if isinstance(value, str) else cards

    def default_seat_setup(self, options: Mapping[str, JSON], seat: Seat, rng: random.Random) -> JSON:
        """The seat's ``deck_<seat>`` option, or a ready deck drawn at random."""
        chosen = options.get(f"deck_{seat}", "random")
        return chosen if chosen in READY_DECKS else READY_DECKS[rng.randrange(len(READY_DECKS))]

    def check_player_data(self, key: str, value: JSON) -> JSON:
        """A saved deck: ``{"name": "...", "cards": [card ids]}`` following the deck rules."""
        if not isinstance(value, Mapping) or set(value) != {"name", "cards"}:
            raise InvalidOptions('a saved deck is {"name": "...", "cards": [card ids]}', "data/bad_deck")
        name = value["name"]
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_SAVED_DECK_NAME:
            raise InvalidOptions(f"a deck's name is 1 to {MAX_SAVED_DECK_NAME} characters", "data/bad_deck")
        try:
            cards = CARDSET.check_deck(list(value["cards"]) if isinstance(value["cards"], list) else value["cards"])
        except DeckError as err:
            raise InvalidOptions(str(err), "data/bad_deck") from err
        return {"name": name.strip(), "cards": cards}

    def options(self, state: GState) -> dict[str, Any]:
        return dict(state.options)

    def match_seed(self, state: GState) -> int:
        return state.seed

    def seats(self, state: GState) -> int:
        return SEATS

    # ================================================================= turns
    def _start_turn(self, st: GState) -> None:
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

    def _reveal(self, st: GState) -> None:
        """Both confirmed: reveal together, resolve On Reveal, End of Turn, Continuous, End of Game."""
        record = st.records[-1] if st.recording else None
        for s in (st.first, 1 - st.first):
            for card, li in st.pending[s]:
                u = Unit(st.next_uid, CARDS[card], s, li, st.next_serial, fresh=True)
                st.next_uid += 1
                st.next_serial += 1
                st.board[li][s].append(u)
                st.seen[s].add(card)
                st.played[s].append(card)
                if record is not None:
                    record.plays.append((s, CARDS[card].id, li))
            for card in st.pending_discards[s]:
                st.discard[s].append(card)
                st.seen[s].add(card)
                if record is not None:
                    record.discards.append((s, CARDS[card].id))
            st.pending[s] = []
            st.pending_discards[s] = []
        st.dirty = True
        rules.on_reveal_step(st)
        rules.trigger_step(st, "end_of_turn")
        rules.recompute(st)
        if st.turn == TURNS:
            rules.trigger_step(st, "end_of_game")
            rules.recompute(st)
        if record is not None:
            record.board = self._board_json(st)
        if st.turn == TURNS:
            st.over = True
            return
        self._start_turn(st)

    # ================================================================= leaving the table
    def forfeit(self, state: GState, seat: Seat) -> list[Event]:
        """The seat's player leaves the table: a bot plays the seat for the rest of the match, which goes on
        unchanged (Guimenon has no conceding)."""
        check_seat(seat, SEATS)
        if state.left[seat]:
            raise _bad(f"seat {seat} has already left the table", "action/already_left")
        state.left[seat] = True
        return [{"type": "leave", "seat": seat}]

    def stand_in_seats(self, state: GState) -> frozenset[Seat]:
        return frozenset(s for s in range(SEATS) if state.left[s])

    # ================================================================= playing
    def awaiting(self, state: GState) -> frozenset[Seat]:
        if state.over:
            return _AWAIT[0]
        c = state.confirmed
        return _AWAIT[(not c[0]) + 2 * (not c[1])]

    def legal_actions(self, state: GState, seat: Seat) -> list[Action]:
        st = state
        if st.over or not 0 <= seat < SEATS or st.confirmed[seat]:
            return []
        if st.owed[seat]:  # over the hand limit: discarding comes first
            return [DISCARD + card for card in st.hand[seat]]
        out: list[Action] = [CONFIRM]
        moon = st.moon[seat]
        room = [li for li in range(st.revealed) if self._count(st, seat, li) < MAX_PER_LOCATION]
        mods = st.cost_mod[seat]
        for card in st.hand[seat]:
            c = CARDS[card].cost + mods.get(card, 0) if mods else CARDS[card].cost
            if c <= moon:
                base = PLACE + 3 * card
                out.extend(base + li for li in room)
        for card, _ in st.pending[seat]:
            out.append(TAKE_BACK + card)
        return out

    @staticmethod
    def _count(st: GState, seat: int, li: int) -> int:
        return len(st.board[li][seat]) + sum(1 for _, at in st.pending[seat] if at == li)

    def apply(self, state: GState, seat: Seat, action: Action) -> list[Event]:
        st = state
        if st.over:
            raise MatchOver("the match is over")
        check_seat(seat, SEATS)
        if st.confirmed[seat]:
            raise NotYourTurn(f"seat {seat} has already confirmed this turn", "action/already_confirmed")
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < ACTIONS:
            raise _bad(f"unknown action {action!r}", "action/invalid")
        self._check(st, seat, action)
        turn, over = st.turn, st.over
        self._apply(st, seat, action)
        if action != CONFIRM:
            return []  # a secret action: nothing public happens
        events: list[Event] = [{"type": "confirmed", "seat": seat, "turn": turn}]
        if st.turn == turn and st.over == over:
            return events  # the other seat has not confirmed yet
        events.extend(self._turn_events(st, turn))
        return events

    def _check(self, st: GState, seat: int, action: int) -> None:
        if action == CONFIRM:
            if st.owed[seat]:
                raise _bad(
                    f"seat {seat} holds more than {HAND_LIMIT} cards and must discard {st.owed[seat]} more "
                    "before confirming",
                    "action/must_discard",
                )
            return
        if action < DISCARD and st.owed[seat]:
            raise _bad(
                f"seat {seat} holds more than {HAND_LIMIT} cards and must first discard {st.owed[seat]}",
                "action/must_discard",
            )
        if action < TAKE_BACK:
            card, li = divmod(action - PLACE, 3)
            cid = CARDS[card].id
            if card not in st.hand[seat]:
                raise _bad(f"seat {seat} does not hold {cid!r}", "action/card_not_in_hand")
            if li >= st.revealed:
                raise _bad(
                    f"Location {li} is not revealed yet; cards are played only at revealed Locations",
                    "action/location_hidden",
                )
            if self._count(st, seat, li) >= MAX_PER_LOCATION:
                raise _bad(
                    f"Location {li} already holds {MAX_PER_LOCATION} of seat {seat}'s cards", "action/location_full"
                )
            c = rules.cost(st, seat, card)
            if c > st.moon[seat]:
                raise _bad(f"{cid!r} costs {c} Moon and seat {seat} has {st.moon[seat]} left", "action/no_moon")
            return
        if action < DISCARD:
            card = action - TAKE_BACK
            if all(c != card for c, _ in st.pending[seat]):
                raise _bad(f"seat {seat} has not placed {CARDS[card].id!r} this turn", "action/not_placed")
            return
        card = action - DISCARD
        if not st.owed[seat]:
            raise _bad(f"seat {seat} is within the hand limit of {HAND_LIMIT} and may not discard", "action/no_discard")
        if card not in st.hand[seat]:
            raise _bad(f"seat {seat} does not hold {CARDS[card].id!r}", "action/card_not_in_hand")

    def apply_fast(self, state: GState, seat: Seat, action: Action) -> None:
        self._apply(state, seat, action)

    def _apply(self, st: GState, seat: int, action: int) -> None:
        st.log.append((seat, action))
        if action == CONFIRM:
            st.confirmed[seat] = True
            if st.confirmed[0] and st.confirmed[1]:
                self._reveal(st)
            return
        if action < TAKE_BACK:
            card, li = divmod(action - PLACE, 3)
            st.hand[seat].remove(card)
            st.moon[seat] -= rules.cost(st, seat, card)
            st.pending[seat].append((card, li))
            return
        if action < DISCARD:
            card = action - TAKE_BACK
            pending = st.pending[seat]
            for i, (c, _) in enumerate(pending):
                if c == card:
                    del pending[i]
                    break
            st.hand[seat].append(card)
            st.moon[seat] += rules.cost(st, seat, card)
            return
        card = action - DISCARD
        st.hand[seat].remove(card)
        st.pending_discards[seat].append(card)
        st.owed[seat] -= 1

    def _turn_events(self, st: GState, turn: int) -> list[Event]:
        """The public story of a resolved turn, and the start of the next one."""
        events: list[Event] = []
        rec = self._record(st, turn)
        if rec is not None:
            events.append(
                {
                    "type": "reveal",
                    "turn": rec.turn,
                    "plays": [{"seat": s, "card": c, "location": li} for s, c, li in rec.plays],
                    "discards": [{"seat": s, "card": c} for s, c in rec.discards],
                }
            )
            events.extend({"type": "ability", **self._resolution_json(r)} for r in rec.resolved[rec.opening :])
            events.append({"type": "turn_end", "turn": rec.turn, "order": rec.order, "board": rec.board})
        if st.over:
            outcome = self.outcome(st)
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
            events.append(self._turn_start_event(st))
        return events

    def _turn_start_event(self, st: GState) -> Event:
        rec = self._record(st, st.turn)
        revealed = None if rec is None or rec.revealed is None else rec.revealed
        return {
            "type": "turn",
            "turn": st.turn,
            "moon": list(st.moon_total),
            "revealed": None if revealed is None else self.location_json(st.locations[revealed]) | {"index": revealed},
            "resolved": [] if rec is None else [self._resolution_json(r) for r in rec.resolved[: rec.opening]],
        }

    @staticmethod
    def _record(st: GState, turn: int) -> TurnRecord | None:
        if not st.recording or not 1 <= turn <= len(st.records):
            return None
        return st.records[turn - 1]

    @staticmethod
    def _resolution_json(r: Any) -> dict[str, Any]:
        return {"step": r.step, "location": r.location, "seat": r.seat, "source": r.source, "results": r.results}

    def parse_action(self, state: GState, seat: Seat, message: Mapping[str, Any]) -> Action:
        if not isinstance(message, Mapping):
            raise _bad('an action is a JSON object such as {"place": "vulto", "location": 0}', "action/invalid")
        keys = sorted(str(k) for k in message if k != "seat")
        if keys == ["confirm"]:
            if message["confirm"] is not True:
                raise _bad("'confirm' takes the value true", "action/invalid")
            return CONFIRM

        def card_of(key: str) -> int:
            cid = message[key]
            if not isinstance(cid, str) or cid not in CARDSET.by_id:
                raise _bad(f"unknown card {cid!r}", "action/bad_card")
            return CARDSET.by_id[cid].index

        if keys == ["location", "place"]:
            li = message["location"]
            if isinstance(li, bool) or not isinstance(li, int) or not 0 <= li < LOCATIONS:
                raise _bad(f"a Location is 0, 1 or 2 (left to right), not {li!r}", "action/bad_location")
            return PLACE + 3 * card_of("place") + li
        if keys == ["take_back"]:
            return TAKE_BACK + card_of("take_back")
        if keys == ["discard"]:
            return DISCARD + card_of("discard")
        raise _bad(f"an action is place+location, take_back, discard or confirm; got keys {keys}", "action/invalid")

    def action_json(self, state: GState, action: Action) -> dict[str, Any]:
        if action == CONFIRM:
            return {"confirm": True}
        if action < TAKE_BACK:
            card, li = divmod(action - PLACE, 3)
            return {"place": CARDS[card].id, "location": li}
        if action < DISCARD:
            return {"take_back": CARDS[action - TAKE_BACK].id}
        return {"discard": CARDS[action - DISCARD].id}

    def describe_action(self, state: GState, seat: Seat, action: Action) -> dict[str, Any]:
        data = self.action_json(state, action)
        if "confirm" in data:
            return {"key": "guimenon.action.confirm", "params": {}, "text": "confirm"}
        if "place" in data:
            name = CARDSET.by_id[data["place"]].name.en
            return {
                "key": "guimenon.action.place",
                "params": {"card": data["place"], "location": data["location"] + 1},  # Locations 1-3, as players count
                "text": f"place {name} at Location {data['location'] + 1}",
            }
        key = "take_back" if "take_back" in data else "discard"
        name = CARDSET.by_id[data[key]].name.en
        return {
            "key": f"guimenon.action.{key}",
            "params": {"card": data[key]},
            "text": f"{key.replace('_', ' ')} {name}",
        }

    def outcome(self, state: GState) -> Outcome | None:
        if not state.over:
            return None
        win = rules.winner(state)
        ctrl = rules.control(state)
        scores = tuple(
            {
                "locations": sum(1 for c in ctrl if c == s),
                "stars": sum(rules.location_stars(state, li, s) for li in range(LOCATIONS)),
            }
            for s in range(SEATS)
        )
        placements = (1, 1) if win is None else (1, 2) if win == 0 else (2, 1)
        return Outcome(placements, scores=scores)

    # ================================================================= seeing
    def _board_json(self, st: GState) -> list[dict[str, Any]]:
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

    @staticmethod
    def location_json(index: int) -> dict[str, Any]:
        loc = LOCATION_DEFS[index]
        return {
            "id": loc.id,
            "name": {lang: loc.name.get(lang) for lang in LANGS},
            "text": {lang: ability_text(loc.ability, CARDSET, lang, location=True) for lang in LANGS},
        }

    def view(self, state: GState, seat: Seat | None) -> View:
        st = state
        if seat is not None:
            check_seat(seat, SEATS)
        locations = [
            dict(self.location_json(st.locations[li]), revealed=True, index=li)
            if li < st.revealed
            else {"index": li, "revealed": False}
            for li in range(LOCATIONS)
        ]
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
        outcome = self.outcome(st)
        last = self._record(st, st.turn if st.over else st.turn - 1)
        current = None if st.over else self._record(st, st.turn)
        return {
            "game": self.name,
            "seat": seat,
            "turn": st.turn,
            "turns": TURNS,
            "first": st.first,
            "moon": list(st.moon_total),
            "moon_next": list(st.moon_bonus),
            "locations": locations,
            "board": self._board_json(st),
            "control": rules.control(st),
            "hand_counts": [self.public_hand_count(st, s) for s in range(SEATS)],
            "deck_counts": [len(d) for d in st.draw],
            "discards": [[CARDS[c].id for c in d] for d in st.discard],
            "confirmed": list(st.confirmed),
            "me": mine,
            "awaiting": sorted(self.awaiting(st)),
            "legal": [self.action_json(st, a) for a in self.legal_actions(st, seat)] if seat is not None else [],
            "last_turn": self._record_json(last) if last is not None else None,
            "opening": []
            if current is None
            else [self._resolution_json(r) for r in current.resolved[: current.opening]],
            "placements": list(outcome.placements) if outcome else None,
            "decks": [list(d) for d in st.deck_lists] if st.over else None,
        }

    @staticmethod
    def public_hand_count(st: GState, seat: int) -> int:
        """The hand as the table sees it: cards placed or discarded in secret still count until the reveal."""
        return len(st.hand[seat]) + len(st.pending[seat]) + len(st.pending_discards[seat])

    def _record_json(self, rec: TurnRecord) -> dict[str, Any]:
        return {
            "turn": rec.turn,
            "moon": rec.moon,
            "revealed": rec.revealed,
            "plays": [{"seat": s, "card": c, "location": li} for s, c, li in rec.plays],
            "discards": [{"seat": s, "card": c} for s, c in rec.discards],
            "order": rec.order,
            "resolved": [self._resolution_json(r) for r in rec.resolved],
            "board": rec.board,
        }

    def report(self, state: GState) -> dict[str, Any]:
        st = state
        ctrl = rules.control(st) if st.over else None
        return {
            "decks": [list(d) for d in st.deck_lists],
            "first": st.first,
            "locations": [LOCATION_DEFS[x].id for x in st.locations],
            "turns": [self._record_json(r) for r in st.records],
            "control": ctrl,
            "stars": [[rules.location_stars(st, li, s) for s in range(SEATS)] for li in range(LOCATIONS)],
            "hands": [],
        }

    def history_actions(self, state: GState) -> list[dict[str, Any]]:
        return [{"seat": s, **self.action_json(state, a)} for s, a in state.log]

    def history_setup(self, state: GState) -> dict[str, Any]:
        return {
            "decks": [list(d) for d in state.deck_lists],
            "locations": [LOCATION_DEFS[x].id for x in state.locations],
            "first": state.first,
            "shuffle": state.shuffle,
        }

    # ================================================================= searching
    def bot_knowledge(self) -> BotKnowledge:
        """The easy and normal policies and the search hooks of ``bots.py``, for the generic bots: made once for
        this game object (the hard bot's search plays through it and keeps the plan of a turn)."""
        if self._bot_knowledge is None:
            self._bot_knowledge = bot_knowledge(self)
        return self._bot_knowledge

    def clone(self, state: GState) -> GState:
        return state.clone()

    def infoset_key(self, state: GState, seat: Seat) -> Hashable:
        st = state
        board = tuple((u.uid, u.card.index, u.owner, u.loc, u.perm) for loc in st.board for side in loc for u in side)
        return (
            seat,
            st.turn,
            st.revealed,
            tuple(st.locations[: st.revealed]),
            tuple(sorted(st.hand[seat])),
            tuple(st.pending[seat]),
            tuple(st.pending_discards[seat]),
            board,
            tuple(tuple(d) for d in st.discard),
            tuple(self.public_hand_count(st, s) for s in range(SEATS)),
            tuple(len(d) for d in st.draw),
            tuple(st.confirmed),
            tuple(st.moon_bonus),
            st.moon[seat],
            st.over,
        )

    def resample(self, state: GState, seat: Seat, rng: random.Random) -> GState:
        """Everything ``seat`` cannot see dealt again: its own deck's order, the other seat's hand and deck
        (from a ready deck that holds every card it has revealed, else from the whole set), the face-down
        Locations. The other seat's unconfirmed plays are never looked at: they go back to its hand before
        the deal; if it had confirmed, it stays confirmed with nothing placed (search bots that want it to
        play take that back, see ``bots``)."""
        st = state.clone()
        st.rng = random.Random(rng.getrandbits(64))
        st.log = []  # the log holds the other seat's secret actions of this turn
        rng.shuffle(st.draw[seat])
        other = 1 - seat
        for card, _ in st.pending[other]:
            st.moon[other] += rules.cost(st, other, card)
        hidden = len(st.hand[other]) + len(st.pending[other]) + len(st.pending_discards[other])
        st.owed[other] += len(st.pending_discards[other])
        st.pending[other] = []
        st.pending_discards[other] = []
        # A seat that confirmed stays confirmed (that much is public), with no placement: what it placed is secret.
        n_draw = len(st.draw[other])
        seen = st.seen[other]
        fits = [d for d in READY_DECKS if seen.issubset(CARDSET.by_id[c].index for c in CARDSET.decks[d].cards)]
        pool: list[int] = []
        if fits:
            deck = CARDSET.decks[fits[rng.randrange(len(fits))]]
            pool = [CARDSET.by_id[c].index for c in deck.cards if CARDSET.by_id[c].index not in seen]
            rng.shuffle(pool)
        need = hidden + n_draw
        if len(pool) < need:
            rest = [c for c in range(N) if c not in seen and c not in pool]
            rng.shuffle(rest)
            pool += rest[: need - len(pool)]
        st.hand[other] = pool[:hidden]
        st.draw[other] = pool[hidden:need]
        st.cost_mod[other] = {}
        if st.revealed < LOCATIONS:
            shown = set(st.locations[: st.revealed])
            rest = [x for x in range(len(LOCATION_DEFS)) if x not in shown]
            rng.shuffle(rest)
            st.locations = st.locations[: st.revealed] + rest[: LOCATIONS - st.revealed]
        return st
