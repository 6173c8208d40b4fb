"""King engine (seed 001, docs/rulings.md §2): twelve hands of contracts for four players.

Actions are integers:

* ``0 .. 51`` play the card with that code (``sefode.games.king.rules``: ``suit * 13 + rank``, ace high);
* ``CONTRACT + k`` chooses contract ``k`` (``rules.CONTRACTS``) for this hand;
* ``TRUMP + s`` names suit ``s`` (``c h s d``) as trump in a Trunfo hand.

JSON forms (protocol and hand histories): ``{"contract": "vazas"}``, ``{"trump": "h"}``, ``{"play": "Qs"}``.
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
    Standing,
    View,
    check_seat,
)
from sefode.games.king import dealing, sampling, scoring, views
from sefode.games.king.bots import KNOWLEDGE
from sefode.games.king.rules import (
    BITS,
    CARDS_IN_SUIT,
    CLUBS_IN,
    CONTRACT_INDEX,
    CONTRACTS,
    DECK_SIZE,
    DIAMONDS_IN,
    FOLLOW_CHAINS,
    HANDS_PER_MATCH,
    HEARTS,
    HEARTS_IN,
    LEAD_CHAINS,
    POOL,
    POOL_PER_SEAT,
    SEATS,
    SPADES_IN,
    SUIT_MASK,
    SUITS,
    TRUNFO,
    TRUNFO_FOLLOW_CHAINS,
    KingCardError,
    card_code,
    card_name,
    legal_mask,
)
from sefode.games.king.rules import CONTRACT as CONTRACT
from sefode.games.king.rules import TRUMP as TRUMP
from sefode.games.king.state import KingState, Phase
from sefode.games.king.views import REASONS as REASONS
from sefode.match import MatchGame

_PLAYING = Phase.PLAYING
_AWAITING: tuple[frozenset[Seat], ...] = (*(frozenset((s,)) for s in range(SEATS)), frozenset())
"""What ``awaiting`` returns, by ``turn``: shared sets (it runs before every decision). A turn of -1 (the match is over)
takes the last one, the empty set."""
_NEXT_SEAT = tuple((s + 1) % SEATS for s in range(SEATS))
_CONTRACT_ACTIONS = tuple(CONTRACT + c.index for c in CONTRACTS)
_TRUMP_ACTIONS = [TRUMP + s for s in range(4)]
_POOL_BITS = sum(1 << c for c in POOL)
_FOLLOW_FORCED = tuple(bool(c.follow_forced) for c in CONTRACTS)
"""Per contract: does a follower's chain depend on the top card led (a penalty card must go under it)?"""


def _link_cards(link: int) -> tuple[int, tuple[tuple[int, ...], ...]] | None:
    """For a link within one suit: the suit's shift and its ``rules.CARDS_IN_SUIT`` table; None for a wider link."""
    for suit in range(4):
        if not link & ~SUIT_MASK[suit]:
            return 13 * suit, CARDS_IN_SUIT[suit]
    return None


_LINK_CARDS = {
    link: _link_cards(link)
    for link in {
        *(link for by_trump in LEAD_CHAINS for pair in by_trump for chain in pair for link in chain),
        *(link for by_top in FOLLOW_CHAINS for chain in by_top for link in chain),
        *(link for by_led in TRUNFO_FOLLOW_CHAINS for by_top in by_led for chain in by_top for link in chain),
    }
}
"""Every link of every chain the tables hold (``st.chain`` is always one of them) -> ``_link_cards(link)``: most plays
(following suit) are from a link within one suit, whose legal cards one table lookup lists."""

SUIT_WORDS = ("clubs", "hearts", "spades", "diamonds")

SPEC = GameSpec(
    name="king",
    title="game.king.title",
    package="sefode.games.king",
    min_seats=SEATS,
    max_seats=SEATS,
    options=(
        OptionSpec(
            "order",
            OptionKind.CHOICE,
            "choice",
            "option.order",
            choices=("choice", "fixed"),
            choice_labels=("option.order.choice", "option.order.fixed"),
            help="option.order_help",
        ),
    ),
    seats_option=None,
    summary=("order",),
    capabilities=frozenset({Capability.FORFEIT}),
)


def _situation_chain(st: KingState) -> tuple[int, ...]:
    """``play_chain`` of the trick's situation, from the tables ``rules`` made of it (the same chains)."""
    if st.led < 0:
        return LEAD_CHAINS[st.contract][st.trump][st.broken]
    if st.trump < 0:
        return FOLLOW_CHAINS[st.contract][st.top_led]
    return TRUNFO_FOLLOW_CHAINS[st.trump][st.led][st.top_trump]


def _bad(message: str, code: str = "action/illegal") -> IllegalAction:
    return IllegalAction(message, code)


class King(MatchGame[KingState]):
    """King: 7 negative contracts, Trunfo four times and Bolola, chosen by the seat after the dealer."""

    name = "king"
    spec = SPEC

    # ================================================================= setting up
    def new_match(self, options: Mapping[str, Any], seed: int, setup: Mapping[str, Any] | None = None) -> KingState:
        opts = self.validate_options(options)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidOptions(f"seed must be a whole number, not {seed!r}")
        setup = dict(setup or {})
        unknown = sorted(str(k) for k in setup if k not in ("dealer", "deals"))
        if unknown:
            raise InvalidOptions(f"unknown setup key(s) {', '.join(unknown)}; King takes dealer, deals")
        rng = random.Random(seed)
        # The first dealer is always drawn, so that the deals that follow depend on the seed alone.
        dealer = rng.randrange(SEATS)
        raw_dealer = setup.get("dealer")
        if raw_dealer is not None:
            if isinstance(raw_dealer, bool) or not isinstance(raw_dealer, int) or not 0 <= raw_dealer < SEATS:
                raise InvalidOptions(f"dealer must be a seat from 0 to {SEATS - 1}, not {raw_dealer!r}")
            dealer = raw_dealer
        st = KingState(
            seed=seed,
            rng=rng,
            options=opts,
            seats=SEATS,
            phase=Phase.CHOOSING,
            fixed=opts["order"] == "fixed",
            first_dealer=dealer,
            presets=dealing.parse_presets(setup.get("deals")),
            totals=[0] * SEATS,
            trunfo_chosen=[False] * SEATS,
            pool_chosen=[0] * SEATS,
        )
        dealing.start_hand(st, None)
        return st

    # ================================================================= dealing

    # ================================================================= turns
    def awaiting(self, state: KingState) -> frozenset[Seat]:
        return _AWAITING[state.turn]

    def contract_choices(self, st: KingState, seat: Seat) -> list[int]:
        """Contracts ``seat`` may still choose: its Trunfo if not yet chosen, and the open pool contracts
        while it has chosen fewer than two of them."""
        out = [c for c in POOL if not st.pool_played >> c & 1] if st.pool_chosen[seat] < POOL_PER_SEAT else []
        if not st.trunfo_chosen[seat]:
            out.append(TRUNFO)
        return sorted(out)

    def chain(self, st: KingState) -> tuple[int, ...]:
        """The chain of the seat to play (``rules.play_chain``), kept in the state until the situation changes."""
        chain = st.chain
        if chain is None:
            chain = st.chain = _situation_chain(st)
        return chain

    def legal_actions(self, state: KingState, seat: Seat) -> list[Action]:
        st = state
        if seat != st.turn:
            return []
        if st.phase is _PLAYING:
            chain = st.chain
            if chain is None:  # _situation_chain(st), written out
                if st.led < 0:
                    chain = LEAD_CHAINS[st.contract][st.trump][st.broken]
                elif st.trump < 0:
                    chain = FOLLOW_CHAINS[st.contract][st.top_led]
                else:
                    chain = TRUNFO_FOLLOW_CHAINS[st.trump][st.led][st.top_trump]
                st.chain = chain
            hand = st.hands[seat]
            for allowed in chain:
                m = hand & allowed
                if m:
                    one = _LINK_CARDS[allowed]
                    if one is not None:  # m is within one suit: its cards are one table entry
                        shift, cards_in = one
                        return [*cards_in[m >> shift]]
                    break
            else:
                m = hand
            # cards_of(m), written out: it runs before every play
            return [*CLUBS_IN[m & 8191], *HEARTS_IN[m >> 13 & 8191], *SPADES_IN[m >> 26 & 8191], *DIAMONDS_IN[m >> 39]]
        if st.phase is Phase.TRUMP:
            return _TRUMP_ACTIONS[:]
        return [CONTRACT + c for c in self.contract_choices(st, seat)]

    # ================================================================= applying
    def apply(self, state: KingState, seat: Seat, action: Action) -> list[Event]:
        st = state
        if st.phase is Phase.OVER:
            raise MatchOver(f"the match is over: a King match has {HANDS_PER_MATCH} hands", "action/match_over")
        if isinstance(action, bool) or not isinstance(action, int):
            raise _bad(f"an action is a whole number, not {action!r}", "action/invalid")
        check_seat(seat, SEATS)
        if seat != st.turn:
            raise NotYourTurn(f"it is seat {st.turn}'s turn, not seat {seat}'s")
        if st.phase is Phase.CHOOSING:
            self._check_contract(st, seat, action)
        elif st.phase is Phase.TRUMP:
            if not TRUMP <= action < TRUMP + 4:
                raise _bad(f"seat {seat} must name the trump suit now (c, h, s or d)", "action/must_name_trump")
        else:
            self._check_play(st, seat, action)
        events: list[Event] = []
        self._apply(st, seat, action, events)
        return events

    def _check_contract(self, st: KingState, seat: Seat, action: Action) -> None:
        if not CONTRACT <= action < CONTRACT + len(CONTRACTS):
            raise _bad(f"seat {seat} must choose this hand's contract now", "action/must_choose")
        contract = action - CONTRACT
        name = CONTRACTS[contract].name
        if contract == TRUNFO:
            if st.trunfo_chosen[seat]:
                raise _bad(
                    f"seat {seat} has already chosen its Trunfo: each player chooses exactly one", "action/quota"
                )
            return
        if st.pool_played >> contract & 1:
            raise _bad(f"{name} has already been played in this match: each is played once", "action/contract_played")
        if st.pool_chosen[seat] >= POOL_PER_SEAT:
            raise _bad(
                f"seat {seat} has already chosen its {POOL_PER_SEAT} contracts from the pool; "
                "it must choose its Trunfo",
                "action/quota",
            )

    def _check_play(self, st: KingState, seat: Seat, action: Action) -> None:
        if st.fixed and CONTRACT <= action < TRUMP:
            raise _bad(
                f"the contracts come in the fixed order: hand {st.hand_no} is {CONTRACTS[st.contract].name}",
                "action/fixed_order",
            )
        if not 0 <= action < DECK_SIZE:
            raise _bad(f"seat {seat} must play a card now", "action/must_play")
        hand = st.hands[seat]
        if not hand >> action & 1:
            raise _bad(f"seat {seat} does not hold {card_name(action)}", "action/card_not_in_hand")
        chain = self.chain(st)
        if not legal_mask(hand, chain) >> action & 1:
            reason = views.refusal_reason(st, chain, hand)
            raise _bad(f"{card_name(action)} may not be played now: {REASONS[reason]}", f"action/{reason}")

    def _apply(self, state: KingState, seat: Seat, action: Action, events: list[Event] | None = None) -> None:
        st = state
        entry = (seat, action)
        st.log.append(entry)
        if action < CONTRACT:
            chain = st.chain
            if chain is None:
                chain = self.chain(st)
            b = BITS[action]  # a table's shared int: ``1 << action`` would make a new one
            if chain and not chain[0] & b:  # a play from the first link reveals nothing
                shown = 0  # rules.revealed(action, chain), written out: the links before the one played from
                for allowed in chain:
                    if allowed & b:
                        break
                    shown |= allowed
                st.excluded[seat] |= shown
            st.hands[seat] ^= b  # the card is in the hand: it is legal
            st.played |= b
            trick = st.trick
            trick.append(entry)
            suit = action // 13
            # The next seat plays from the same chain unless the suit led or a top card it depends on changed (the top
            # card led where a penalty card must go under it, the top trump): then it is worked out again. Breaking
            # hearts (trumps) changes no follower's chain, only the next lead's, which starts afresh.
            led = st.led
            if led < 0:
                st.led = suit
                st.top_led = action
                st.chain = None
            elif suit == led and action > st.top_led:
                st.top_led = action
                if _FOLLOW_FORCED[st.contract]:
                    st.chain = None
            trump = st.trump
            if suit == trump:
                if action > st.top_trump:
                    st.top_trump = action
                    st.chain = None
                st.broken = True
            elif suit == HEARTS and trump < 0:
                st.broken = True
            if events is not None:
                events.append({"type": "play", "seat": seat, "card": card_name(action)})
            if len(trick) == SEATS:
                scoring.resolve_trick(st, events)
            else:
                st.turn = _NEXT_SEAT[seat]
            return
        if action < TRUMP:
            contract = action - CONTRACT
            st.contract = contract
            if contract == TRUNFO:
                st.trunfo_chosen[seat] = True
                st.phase = Phase.TRUMP
            else:
                st.pool_chosen[seat] += 1
                st.pool_played |= 1 << contract
                st.phase = Phase.PLAYING
            if events is not None:
                events.append({"type": "contract", "seat": seat, "contract": CONTRACTS[contract].name})
            return
        st.trump = action - TRUMP
        st.phase = Phase.PLAYING
        if events is not None:
            events.append({"type": "trump", "seat": seat, "suit": SUITS[st.trump]})

    apply_fast = _apply
    """The unchecked path is ``_apply`` itself with no events."""

    # ================================================================= leaving the table
    def forfeit(self, state: KingState, seat: Seat) -> list[Event]:
        """The seat's player leaves the table: a bot plays the seat for the rest of the match, which goes on
        unchanged (its points still count; King has no conceding)."""
        check_seat(seat, SEATS)
        if state.left[seat]:
            raise _bad(f"seat {seat} has already left the table", "action/already_left")
        state.left[seat] = True
        return [{"type": "leave", "seat": seat}]

    def stand_in_seats(self, state: KingState) -> frozenset[Seat]:
        return frozenset(s for s in range(SEATS) if state.left[s])

    # ================================================================= outcome
    def standing(self, state: KingState) -> Standing:
        """The hand and each seat's points over the finished hands."""
        return Standing(state.hand_no, tuple(float(t) for t in state.totals))

    def outcome(self, state: KingState) -> Outcome | None:
        if state.placements is None:
            return None
        return Outcome(tuple(state.placements), (), False, tuple(state.totals))

    def describe_action(self, state: KingState, seat: Seat, action: Action) -> dict[str, Any]:
        if action < CONTRACT:
            card = card_name(action)
            return {"key": "king.action.play", "params": {"card": card}, "text": f"play {card}"}
        if action < TRUMP:
            name = CONTRACTS[action - CONTRACT].name
            return {"key": f"king.action.contract.{name}", "params": {"contract": name}, "text": f"choose {name}"}
        suit = SUITS[action - TRUMP]
        return {
            "key": f"king.action.trump.{suit}",
            "params": {"suit": suit},
            "text": f"trump {SUIT_WORDS[action - TRUMP]}",
        }

    # ================================================================= views
    def quotas(self, st: KingState) -> list[dict[str, int]] | None:
        return views.quotas(st)

    def view(self, state: KingState, seat: Seat | None) -> View:
        st = state
        if seat is not None:
            check_seat(seat, SEATS)
        playing = seat is not None and seat == st.turn and st.phase is Phase.PLAYING
        return views.view(st, seat, self.options(st), self.chain(st) if playing else None)

    def views(self, state: KingState, seats: Sequence[Seat | None]) -> list[View]:
        """Every seat's view, with what they share (all but the hands and the refusal reasons) built once."""
        st = state
        for seat in seats:
            if seat is not None:
                check_seat(seat, SEATS)
        public = views.public_view(st, self.options(st))
        out: list[View] = []
        for seat in seats:
            playing = seat is not None and seat == st.turn and st.phase is Phase.PLAYING
            out.append(views.seat_view(st, seat, public, self.chain(st) if playing else None))
        return out

    def past(self, state: KingState, seat: Seat | None) -> dict[str, Any]:
        """The finished hands with their tricks (public: every card of a trick is played face up); the view keeps the
        súmula (12 rows at most), this hand's tricks and the last trick."""
        if seat is not None:
            check_seat(seat, SEATS)
        return views.report(state)

    def report(self, state: KingState) -> dict[str, Any]:
        return views.report(state)

    # ================================================================= JSON actions and histories
    def parse_action(self, state: KingState, seat: Seat, message: Mapping[str, Any]) -> Action:
        if not isinstance(message, Mapping):
            raise _bad('an action must be a JSON object such as {"play": "Qs"}', "action/invalid")
        keys = [k for k in message if k != "seat"]
        if len(keys) != 1:
            raise _bad(
                f"an action has exactly one of 'contract', 'trump', 'play', got {sorted(map(str, keys))}",
                "action/invalid",
            )
        key = keys[0]
        value = message[key]
        if key == "play":
            try:
                return card_code(value)
            except KingCardError as err:
                raise _bad(str(err), "action/bad_card") from None
        if key == "contract":
            if not isinstance(value, str) or value not in CONTRACT_INDEX:
                names = ", ".join(c.name for c in CONTRACTS)
                raise _bad(f"unknown contract {value!r}; the contracts are {names}", "action/bad_contract")
            return CONTRACT + CONTRACT_INDEX[value]
        if key == "trump":
            if not isinstance(value, str) or len(value) != 1 or value not in SUITS:
                raise _bad(f"a trump is a suit letter, c, h, s or d, not {value!r}", "action/bad_suit")
            return TRUMP + SUITS.index(value)
        raise _bad(f"unknown action {key!r}; use contract, trump or play", "action/invalid")

    def action_json(self, state: KingState, action: Action) -> dict[str, Any]:
        if action < CONTRACT:
            return {"play": card_name(action)}
        if action < TRUMP:
            return {"contract": CONTRACTS[action - CONTRACT].name}
        return {"trump": SUITS[action - TRUMP]}

    def history_setup(self, state: KingState) -> dict[str, Any]:
        return {"dealer": state.first_dealer}

    # ================================================================= search support
    def bot_knowledge(self) -> BotKnowledge:
        """The easy and normal policies and the search hooks of ``bots.py``, for the generic bots."""
        return KNOWLEDGE

    def clone(self, state: KingState) -> KingState:
        return sampling.clone_state(state)

    def infoset_key(self, state: KingState, seat: Seat) -> Hashable:
        return sampling.infoset_key(state, seat)

    def unseen_mask(self, state: KingState, seat: Seat) -> int:
        """Cards of the hand in progress whose place ``seat`` does not know (``sampling.unseen_mask``)."""
        return sampling.unseen_mask(state, seat)

    def resample(self, state: KingState, seat: Seat, rng: random.Random) -> KingState:
        return sampling.resample(state, seat, rng)
