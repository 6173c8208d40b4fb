"""Fodinha family engine: Se Fode (seed 002, with Se Fode Junto pairs) and 7 Letras (seed 000).

Actions are integers:

* ``0 .. 79`` play the card with that code (see ``sefode.games.fodinha.cards``);
* ``BID + b`` bids ``b`` tricks (in a one-card 7 Letras round, 1 declares a win and 0 a loss);
* ``SHOW`` shows the seat's hand to the table (7 Letras), ``LEAVE`` leaves the match for good,
  ``JOIN`` seats a late player at a round boundary (7 Letras).

JSON forms (protocol and hand histories): ``{"bid": 2}``, ``{"play": "Ks"}``, ``{"show": true}``,
``{"leave": true}``, ``{"join": true}``.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from sefode.bots.knowledge import BotKnowledge
from sefode.engine import (
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
    SeatStatus,
    Standing,
    Variant,
    View,
    check_seat,
)
from sefode.games.fodinha import sampling
from sefode.games.fodinha.bots import KNOWLEDGE
from sefode.games.fodinha.cards import TRUCO_DECK_SIZE, CardError, names, truco_code, truco_name
from sefode.games.fodinha.dealing import deal_cards_error, start_hand
from sefode.games.fodinha.options import parse_options
from sefode.games.fodinha.rules import BID as BID
from sefode.games.fodinha.rules import JOIN as JOIN
from sefode.games.fodinha.rules import LEAVE as LEAVE
from sefode.games.fodinha.rules import SHOW as SHOW
from sefode.games.fodinha.scoring import resolve_trick
from sefode.games.fodinha.state import BIDDING, OVER, PLAYING, FodinhaState
from sefode.games.fodinha.views import past, public_view, record_json, sees
from sefode.match import MatchGame, randbelow, seeded_random

MAX_SEATS = 8

_AWAITING: tuple[frozenset[Seat], ...] = (*(frozenset((s,)) for s in range(MAX_SEATS)), frozenset())
"""What ``awaiting`` returns, by ``turn``: shared sets, not a new one per call (it runs before every decision). A turn
of -1 (nobody's: the match is over) takes the last one, the empty set."""
_SETUP_KEYS = frozenset(("dealer", "deals"))

_BIDS: list[list[Action]] = [list(range(BID, BID + size + 1)) for size in range(TRUCO_DECK_SIZE + 1)]
"""``_BIDS[size]``: every bid of a hand of ``size`` cards, 0 to ``size`` (``legal_actions`` hands out copies)."""


def _foot_rule(st: FodinhaState) -> int | None:
    """The bid the pé rule forbids the last bidder (``forbidden_bid``, once it is known to be their turn)."""
    size = st.size
    if size == 1 and st.opts.sete_letras:
        return None
    # The bids made so far: every seat that has not bid (the last bidder, the seats out) holds -1.
    rest = size - (sum(st.bids) + st.seats - st.nbids)
    return rest if 0 <= rest <= size else None


def _start_play(st: FodinhaState, events: list[Event] | None) -> None:
    """The last bid is in: the cards are played, automatically in a one-card hand (mão na testa)."""
    st.phase = PLAYING
    st.turn = st.leader
    if st.size == 1:
        # Mão na testa: the cards are played automatically, in order, from the seat after the dealer.
        for s in st.order:
            card = st.hands[s].pop()
            st.trick.append((s, card))
            if events is not None:
                events.append({"type": "play", "seat": s, "card": truco_name(card), "auto": True})
        if events is not None and st.vira >= 0:
            events.append({"type": "vira", "card": truco_name(st.vira)})
        resolve_trick(st, events)


def _bad(message: str, code: str = "action/illegal") -> IllegalAction:
    return IllegalAction(message, code)


SEFODE_ONLY = {"variant": ("sefode",)}

SPEC = GameSpec(
    name="fodinha",
    title="game.fodinha.title",
    package="sefode.games.fodinha",
    min_seats=2,
    max_seats=MAX_SEATS,
    options=(
        OptionSpec(
            "variant",
            OptionKind.CHOICE,
            "sefode",
            "option.variant",
            choices=("sefode", "7letras"),
            choice_labels=("variant.sefode", "variant.7letras"),
        ),
        OptionSpec("players", OptionKind.INT, 4, "option.players", minimum=2, maximum=MAX_SEATS),
        OptionSpec("decks", OptionKind.CHOICE, 1, "option.decks", choices=(1, 2), when=SEFODE_ONLY),
        OptionSpec("teams", OptionKind.BOOL, False, "option.teams", when=SEFODE_ONLY, help="option.teams_help"),
        OptionSpec("lives", OptionKind.INT, 5, "option.lives", minimum=1, maximum=99, nullable=True, when=SEFODE_ONLY),
        OptionSpec("max_cards", OptionKind.INT, None, "option.max_cards", minimum=1, maximum=40, nullable=True),
    ),
    variants=(
        Variant("sefode", "variant.sefode", "sefode"),
        Variant("7letras", "variant.7letras", "7letras"),
    ),
    capabilities=frozenset({Capability.JOIN, Capability.FORFEIT, Capability.SHOW_HAND, Capability.UNITS}),
    summary=("players", "decks", "teams"),
)


class Fodinha(MatchGame[FodinhaState]):
    """Se Fode, Se Fode Junto and 7 Letras behind the one engine interface."""

    name = "fodinha"
    spec = SPEC

    def validate_options(self, raw: object) -> dict[str, Any]:
        # The family's own checks (``options.py``) say more than the schema can: which variant takes
        # what, and the largest hand for the number of players.
        if not isinstance(raw, Mapping):
            raise InvalidOptions(f"options must be a JSON object, not {type(raw).__name__}")
        return parse_options(raw).to_json()

    # ================================================================= setting up
    def new_match(self, options: Mapping[str, Any], seed: int, setup: Mapping[str, Any] | None = None) -> FodinhaState:
        opts = parse_options(options)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidOptions(f"seed must be a whole number, not {seed!r}")
        setup = setup or {}
        if not _SETUP_KEYS.issuperset(setup):
            unknown = sorted(k for k in setup if k not in _SETUP_KEYS)
            raise InvalidOptions(f"unknown setup key(s) {', '.join(unknown)}; Fodinha takes dealer, deals")
        n = opts.players
        rng = seeded_random(seed)  # random.Random(seed)
        dealer_raw = setup.get("dealer")
        # The first dealer is always drawn, even when the setup fixes it, so that the deals that follow
        # depend on the seed alone: an exported history (which names the dealer) replays the same match.
        dealer = randbelow(rng, n)  # rng.randrange(n)
        if dealer_raw is not None:
            if isinstance(dealer_raw, bool) or not isinstance(dealer_raw, int) or not 0 <= dealer_raw < n:
                raise InvalidOptions(f"dealer must be a seat from 0 to {n - 1}, not {dealer_raw!r}")
            dealer = dealer_raw
        deals = setup.get("deals") or []
        if not isinstance(deals, list):
            raise InvalidOptions('deals must be a list of {"hands": [...]} objects')
        presets: dict[int, dict[str, Any]] = {}
        for i, deal in enumerate(deals):
            if deal is None:
                continue
            if not isinstance(deal, dict) or not isinstance(deal.get("hands"), list):
                raise InvalidOptions(f"deals[{i}] must be an object with a 'hands' list")
            error = deal_cards_error(deal, opts.decks)
            if error is not None:  # every given deal is checked now, not only when its hand comes
                raise InvalidOptions(f"deals[{i}]: {error}")
            presets[i + 1] = deal
        units = n // 2 if opts.teams else n
        state = FodinhaState(
            seed=seed,
            rng=rng,
            options=opts.to_json(),
            seats=n,
            phase=BIDDING,
            opts=opts,
            unit=list(range(units)) * (n // units),  # seat s -> s % units (n is a multiple of units), no comprehension
            units=units,
            score=[opts.pool] * units,
            alive=[True] * n,
            first_dealer=dealer,
            dealer=dealer,
            presets=presets,
            leaving=[False] * n,
            out_key=[None] * units,
        )
        start_hand(state, 1, True, None)
        first = presets.get(1)
        late_join = opts.sete_letras and first is not None and len(first["hands"]) == n + 1
        if state.deal_error is not None and not late_join:
            # A 7 Letras first deal for one seat more waits for a join; any other bad deal is refused now.
            raise InvalidOptions(state.deal_error)
        return state

    # ================================================================= turns
    def awaiting(self, state: FodinhaState) -> frozenset[Seat]:
        return _AWAITING[state.turn]

    def forbidden_bid(self, st: FodinhaState) -> int | None:
        """The pé rule: the value the last bidder may not choose, if it is their turn to bid."""
        if st.phase is not BIDDING or st.nbids != len(st.order) - 1:
            return None
        return _foot_rule(st)

    def legal_actions(self, state: FodinhaState, seat: Seat) -> list[Action]:
        if seat != state.turn:
            return []
        if state.phase is PLAYING:
            return state.hands[seat][:]
        actions = _BIDS[state.size][:]
        if seat == state.order[-1]:  # the last bidder (bids go round ``order``)
            forbidden = _foot_rule(state)
            if forbidden is not None:
                del actions[forbidden]
        return actions

    def stand_in_seats(self, state: FodinhaState) -> frozenset[Seat]:
        return frozenset(s for s in range(state.seats) if state.leaving[s] and state.alive[s])

    def seat_status(self, state: FodinhaState) -> list[SeatStatus]:
        """Out of lives first (a seat that left and then lost its last life is out), then left, else playing."""
        return [
            SeatStatus.OUT if not state.alive[s] else SeatStatus.LEFT if state.leaving[s] else SeatStatus.PLAYING
            for s in range(state.seats)
        ]

    # ================================================================= applying
    def apply(self, state: FodinhaState, seat: Seat, action: Action) -> list[Event]:
        st = state
        if st.phase is OVER:
            raise MatchOver("the match is over", "action/match_over")
        if isinstance(action, bool) or not isinstance(action, int):
            raise _bad(f"an action is a whole number, not {action!r}", "action/invalid")
        if action == JOIN:
            return self._join(st, seat)
        check_seat(seat, st.seats)
        if action == LEAVE:
            return self._leave(st, seat)
        if action == SHOW:
            return self._show(st, seat)
        if st.deal_error is not None:
            raise _bad(st.deal_error, "history/bad_deal")
        if not st.alive[seat]:
            raise _bad(f"seat {seat} is out of the match", "action/seat_out")
        if seat != st.turn:
            raise NotYourTurn(f"it is seat {st.turn}'s turn, not seat {seat}'s")
        if st.phase is BIDDING:
            if not BID <= action <= BID + 40:
                raise _bad(f"seat {seat} must bid now, not play a card", "action/must_bid")
            bid = action - BID
            if bid > st.size:
                raise _bad(f"a bid is from 0 to {st.size} in a hand of {st.size} card(s), not {bid}", "action/bad_bid")
            if bid == self.forbidden_bid(st):
                raise _bad(
                    f"pé rule: the last bidder may not bid {bid}, which would make the bids add up to "
                    f"{st.size}, the number of cards",
                    "action/foot_rule",
                )
        else:
            if not 0 <= action < TRUCO_DECK_SIZE * 2:
                raise _bad(f"seat {seat} must play a card now, not bid", "action/must_play")
            if action not in st.hands[seat]:
                raise _bad(f"seat {seat} does not hold {truco_name(action)}", "action/card_not_in_hand")
        events: list[Event] = []
        self._apply(st, seat, action, events)
        return events

    def _apply(self, state: FodinhaState, seat: Seat, action: Action, events: list[Event] | None = None) -> None:
        st = state
        entry = (seat, action)
        st.log.append(entry)
        if action < BID:
            st.hands[seat].remove(action)
            st.trick.append(entry)
            if events is not None:
                events.append({"type": "play", "seat": seat, "card": truco_name(action)})
            after = st.nxt[seat]
            if after != st.leader:  # the trick ends when its turn comes back round to its leader
                st.turn = after
                return
            resolve_trick(st, events)
            return
        st.bids[seat] = action - BID
        nbids = st.nbids = st.nbids + 1
        if events is not None:
            events.append({"type": "bid", "seat": seat, "bid": action - BID})
        order = st.order
        if nbids < len(order):
            st.turn = order[nbids]
            return
        _start_play(st, events)

    apply_fast = _apply
    """The unchecked path is ``_apply`` itself with no events: one call less per decision in search."""

    # ================================================================= free actions
    def _leave(self, st: FodinhaState, seat: int) -> list[Event]:
        if not st.alive[seat]:
            raise _bad(f"seat {seat} is already out of the match", "action/seat_out")
        if st.leaving[seat]:
            raise _bad(f"seat {seat} has already left", "action/already_left")
        st.log.append((seat, LEAVE))
        st.leaving[seat] = True
        st.left_key[seat] = (st.hand_no, len(st.left_key))
        if st.opts.teams:
            alive_units = {st.unit[s] for s in range(st.seats) if st.alive[s]}
            st.reserved[seat] = len(alive_units)
        return [{"type": "leave", "seat": seat}]

    def _show(self, st: FodinhaState, seat: int) -> list[Event]:
        if not st.opts.sete_letras:
            raise _bad("showing your hand is a 7 Letras right; Se Fode tables do not offer it", "action/no_show")
        if not st.alive[seat] or seat not in st.order:
            raise _bad(f"seat {seat} has no hand to show", "action/seat_out")
        if st.size == 1:
            raise _bad("in a one-card round your card is already seen by everyone but you", "action/no_show")
        if st.shown[seat]:
            raise _bad(f"seat {seat} has already shown their hand", "action/already_shown")
        st.log.append((seat, SHOW))
        st.shown[seat] = True
        return [{"type": "show", "seat": seat, "cards": names(st.hands[seat])}]

    def _join(self, st: FodinhaState, seat: int) -> list[Event]:
        if not st.opts.sete_letras:
            raise _bad("a Se Fode player who arrives late sits at the next match", "action/no_join")
        if st.seats >= MAX_SEATS:
            raise _bad(f"the table is full ({MAX_SEATS} seats)", "action/table_full")
        if seat != st.seats:
            raise _bad(f"a late player takes the next seat, {st.seats}, not {seat!r}", "action/bad_seat")
        if st.phase is not BIDDING or st.nbids or any(st.shown):
            raise _bad("a late player may join only at a round boundary, before any bid", "action/not_boundary")
        alive_points = sorted({st.score[s] for s in range(st.seats) if st.alive[s]}, reverse=True)
        points = alive_points[1] if len(alive_points) > 1 else alive_points[0]
        st.log.append((seat, JOIN))
        st.seats += 1
        st.units += 1
        st.unit.append(seat)
        st.score.append(points)
        st.alive.append(True)
        st.leaving.append(False)
        st.out_key.append(None)
        size = min(st.size, st.opts.fits(sum(st.alive)))
        events: list[Event] = [{"type": "join", "seat": seat, "score": points}]
        # The round is dealt again with the same number (and so the same preset deal, if any).
        st.hand_no -= 1
        start_hand(st, size, st.climbing, events)
        return events

    # ================================================================= platform actions
    def forfeit(self, state: FodinhaState, seat: Seat) -> list[Event]:
        return self.apply(state, seat, LEAVE)

    def join(self, state: FodinhaState, seat: Seat) -> list[Event]:
        return self.apply(state, seat, JOIN)

    def show_hand(self, state: FodinhaState, seat: Seat) -> list[Event]:
        return self.apply(state, seat, SHOW)

    def units(self, state: FodinhaState) -> tuple[tuple[Seat, ...], ...]:
        if not state.opts.teams:
            return ()
        return tuple(tuple(s for s in range(state.seats) if state.unit[s] == u) for u in range(state.units))

    def planned_units(self, options: Mapping[str, Any]) -> tuple[tuple[Seat, ...], ...]:
        if not options.get("teams"):
            return ()
        n = int(options.get("players") or 4)
        return tuple((p, p + n // 2) for p in range(n // 2))

    def describe_action(self, state: FodinhaState, seat: Seat, action: Action) -> dict[str, Any]:
        if action < BID:
            card = truco_name(action)
            return {"key": "action.play", "params": {"card": card}, "text": f"play {card}"}
        if action < SHOW:
            bid = action - BID
            if state.opts.sete_letras and state.size == 1:
                key, text = ("action.declare_win", "win") if bid else ("action.declare_lose", "lose")
                return {"key": key, "params": {}, "text": text}
            return {"key": "action.bid", "params": {"bid": bid}, "text": f"bid {bid}"}
        word = {SHOW: "show", LEAVE: "leave", JOIN: "join"}[action]
        return {"key": f"action.{word}", "params": {}, "text": word}

    # ================================================================= outcome
    def standing(self, state: FodinhaState) -> Standing | None:
        """The hand and each seat's lives (its pair's, in Se Fode Junto); in 7 Letras the letters taken, negated."""
        sign = -1 if state.opts.sete_letras else 1
        return Standing(state.hand_no, tuple(float(sign * state.score[state.unit[s]]) for s in range(state.seats)))

    def outcome(self, state: FodinhaState) -> Outcome | None:
        if state.placements is None:
            return None
        if state.opts.sete_letras:
            scores = tuple(state.score[state.unit[s]] for s in range(state.seats))
        else:
            scores = tuple(max(0, state.score[state.unit[s]]) for s in range(state.seats))
        return Outcome(tuple(state.placements), self.units(state), False, scores)

    # ================================================================= views
    def view(self, state: FodinhaState, seat: Seat | None) -> View:
        if seat is not None:
            check_seat(seat, state.seats)
        return self._seat_view(state, seat, public_view(state, self.name, self.forbidden_bid(state)))

    def views(self, state: FodinhaState, seats: Sequence[Seat | None]) -> list[View]:
        """Every seat's view, with what they share (all but the hands and the legal actions) built once."""
        for seat in seats:
            if seat is not None:
                check_seat(seat, state.seats)
        public = public_view(state, self.name, self.forbidden_bid(state))
        return [self._seat_view(state, seat, public) for seat in seats]

    def _seat_view(self, st: FodinhaState, seat: Seat | None, public: dict[str, Any]) -> View:
        hands: list[list[str] | None] = []
        for owner in range(st.seats):
            hands.append(names(st.hands[owner]) if st.phase is not OVER and sees(st, seat, owner) else None)
        return {**public, "seat": seat, "hands": hands}

    def past(self, state: FodinhaState, seat: Seat | None) -> dict[str, Any]:
        """The tricks of the whole match, grouped under whoever took them (public: the view keeps only this hand's)."""
        if seat is not None:
            check_seat(seat, state.seats)
        return past(state)

    def report(self, state: FodinhaState) -> dict[str, Any]:
        """Every finished hand, opened: the report also gives each seat's cards as dealt (``dealt``)."""
        hands = []
        for r in state.records:
            entry = record_json(r)
            entry["dealt"] = [names(h) if h else None for h in r.dealt]
            hands.append(entry)
        return {"hands": hands}

    # ================================================================= JSON actions and histories
    def parse_action(self, state: FodinhaState, seat: Seat, message: Mapping[str, Any]) -> Action:
        if not isinstance(message, Mapping):
            raise _bad('an action must be a JSON object such as {"bid": 1}', "action/invalid")
        keys = [k for k in message if k != "seat"]
        if len(keys) != 1:
            raise _bad(
                f"an action has exactly one of 'bid', 'play', 'show', 'leave', 'join', got {sorted(map(str, keys))}",
                "action/invalid",
            )
        key = keys[0]
        value = message[key]
        if key == "bid":
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 40:
                raise _bad(f"a bid is a whole number of tricks, not {value!r}", "action/bad_bid")
            return BID + value
        if key == "play":
            try:
                code = truco_code(value)
            except CardError as err:
                raise _bad(str(err), "action/bad_card") from None
            if 0 <= seat < state.seats:
                for held in state.hands[seat]:
                    if held % TRUCO_DECK_SIZE == code:
                        return held
            return code
        if key in ("show", "leave", "join"):
            if value is not True:
                raise _bad(f"'{key}' takes the value true", "action/invalid")
            return {"show": SHOW, "leave": LEAVE, "join": JOIN}[key]
        raise _bad(f"unknown action {key!r}; use bid, play, show, leave or join", "action/invalid")

    def action_json(self, state: FodinhaState, action: Action) -> dict[str, Any]:
        if action < BID:
            return {"play": truco_name(action)}
        if action < SHOW:
            return {"bid": action - BID}
        return {{SHOW: "show", LEAVE: "leave", JOIN: "join"}[action]: True}

    def history_setup(self, state: FodinhaState) -> dict[str, Any]:
        return {"dealer": state.first_dealer}

    # ================================================================= search support
    def bot_knowledge(self) -> BotKnowledge:
        """The easy and normal policies and the search hooks of ``bots.py``, for the generic bots."""
        return KNOWLEDGE

    def clone(self, state: FodinhaState) -> FodinhaState:
        return sampling.clone_state(state)

    def infoset_key(self, state: FodinhaState, seat: Seat) -> Hashable:
        return sampling.infoset_key(state, seat)

    def unseen_cards(self, state: FodinhaState, seat: Seat) -> list[int]:
        return sampling.unseen_cards(state, seat)

    def from_view(self, view: View, seat: Seat) -> FodinhaState:
        return sampling.from_view(self.new_match(view["options"], 0), view, seat)

    def resample(self, state: FodinhaState, seat: Seat, rng: random.Random) -> FodinhaState:
        return sampling.resample(state, seat, rng)
