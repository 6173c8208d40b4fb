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
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from sefode.bots.knowledge import BotKnowledge
from sefode.engine import (
    JSON,
    Action,
    Capability,
    Event,
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
from sefode.games.guimenon import dealing, rules, sampling, scoring, views
from sefode.games.guimenon.bots import bot_knowledge
from sefode.games.guimenon.cardset import MAX_PER_LOCATION, DeckError
from sefode.games.guimenon.dealing import READY_DECKS as READY_DECKS
from sefode.games.guimenon.rules import ACTIONS, CARDS, CARDSET, LOCATION_DEFS
from sefode.games.guimenon.rules import CONFIRM as CONFIRM
from sefode.games.guimenon.rules import DISCARD as DISCARD
from sefode.games.guimenon.rules import PLACE as PLACE
from sefode.games.guimenon.rules import TAKE_BACK as TAKE_BACK
from sefode.games.guimenon.state import (
    HAND_LIMIT,
    LOCATIONS,
    SEATS,
    GState,
)
from sefode.match import MatchGame

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

MAX_SAVED_DECK_NAME = 40
_BOTH = frozenset((0, 1))
_AWAIT: tuple[frozenset[Seat], ...] = (frozenset(), frozenset((0,)), frozenset((1,)), _BOTH)
"""Indexed by ``(not confirmed[0]) + 2 * (not confirmed[1])``."""


def _bad(message: str, code: str = "action/illegal") -> IllegalAction:
    return IllegalAction(message, code)


class Guimenon(MatchGame[GState]):
    name = "guimenon"
    spec = SPEC
    _bot_knowledge: BotKnowledge | None = None
    """Made on the first ``bot_knowledge`` call, then kept."""

    # ================================================================= setting up
    def new_match(self, options: Mapping[str, Any], seed: int, setup: Mapping[str, Any] | None = None) -> GState:
        return dealing.new_state(validate_options(SPEC, options), seed, setup)

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

    # ================================================================= turns

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
                scoring.reveal(st)
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
        return views.turn_events(st, turn, self.outcome(st) if st.over else None)

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

    @staticmethod
    def location_json(index: int) -> dict[str, Any]:
        return views.location_json(index)

    def view(self, state: GState, seat: Seat | None) -> View:
        if seat is not None:
            check_seat(seat, SEATS)
        return views.view(state, seat, self.outcome(state), self.awaiting(state))

    def views(self, state: GState, seats: Sequence[Seat | None]) -> list[View]:
        """Every seat's view, with what they share (all but each seat's own ``me``) built once."""
        for seat in seats:
            if seat is not None:
                check_seat(seat, SEATS)
        public = views.public_view(state, self.outcome(state), self.awaiting(state))
        return [views.seat_view(state, seat, public) for seat in seats]

    @staticmethod
    def public_hand_count(st: GState, seat: int) -> int:
        return views.public_hand_count(st, seat)

    def report(self, state: GState) -> dict[str, Any]:
        return views.report(state)

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
        return sampling.infoset_key(state, seat)

    def resample(self, state: GState, seat: Seat, rng: random.Random) -> GState:
        return sampling.resample(state, seat, rng)
