"""King engine (seed 001, docs/rulings.md §2): twelve hands of contracts for four players.

Actions are integers:

* ``0 .. 51`` play the card with that code (``sefode.games.king.rules``: ``suit * 13 + rank``, ace high);
* ``CONTRACT + k`` chooses contract ``k`` (``rules.CONTRACTS``) for this hand;
* ``TRUMP + s`` names suit ``s`` (``c h s d``) as trump in a Trunfo hand.

JSON forms (protocol and hand histories): ``{"contract": "vazas"}``, ``{"trump": "h"}``, ``{"play": "Qs"}``.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping
from typing import Any

from sefode.bots.knowledge import BotKnowledge
from sefode.engine import (
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
    View,
    check_seat,
)
from sefode.games.king.bots import KNOWLEDGE
from sefode.games.king.rules import (
    ALL,
    CONTRACT_INDEX,
    CONTRACTS,
    DECK_SIZE,
    FIXED_ORDER,
    HAND_SIZE,
    HANDS_PER_MATCH,
    HEART_MASK,
    HEARTS,
    JK_MASK,
    KH_MASK,
    POOL,
    POOL_PER_SEAT,
    Q_MASK,
    SEATS,
    SUITS,
    TRUNFO,
    KingCardError,
    card_code,
    card_name,
    cards_of,
    legal_mask,
    names_of,
    placements,
    play_chain,
    revealed,
    trick_points,
)
from sefode.games.king.rules import CONTRACT as CONTRACT
from sefode.games.king.rules import TRUMP as TRUMP
from sefode.games.king.state import HandRecord, KingState, Phase, Trick

_PLAYING = Phase.PLAYING
_NOBODY: frozenset[Seat] = frozenset()
_ONLY: tuple[frozenset[Seat], ...] = tuple(frozenset((s,)) for s in range(SEATS))
_CONTRACT_ACTIONS = tuple(CONTRACT + c.index for c in CONTRACTS)
_TRUMP_ACTIONS = [TRUMP + s for s in range(4)]
_POOL_BITS = sum(1 << c for c in POOL)

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

# What each link of a chain means, for the refusal message and the table's "why is this card dimmed".
REASONS: dict[str, str] = {
    "follow_suit": "you must follow the suit led",
    "no_hearts_lead": "hearts may not be led until a heart has been played, unless you hold only hearts",
    "no_trump_lead": "trumps may not be led until a trump has been played, unless you hold only trumps",
    "must_trump": "you have none of the suit led, so you must play a trump",
    "must_overtrump": "you must play a trump higher than the highest trump in the trick",
    "must_drop_under": "a higher card of the suit is in the trick, so you must play your penalty card under it",
    "must_discard": "you have none of the suit led, so you must discard a penalty card",
    "must_discard_kh": "you have none of the suit led, so you must discard the king of hearts",
    "must_discard_heart": "you have none of the suit led, so you must discard a heart",
}


def _bad(message: str, code: str = "action/illegal") -> IllegalAction:
    return IllegalAction(message, code)


class King(Game[KingState]):
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
            fixed=opts["order"] == "fixed",
            seed=seed,
            rng=rng,
            first_dealer=dealer,
            presets=self._presets(setup.get("deals")),
            totals=[0] * SEATS,
            trunfo_chosen=[False] * SEATS,
            pool_chosen=[0] * SEATS,
        )
        self._start_hand(st, None)
        return st

    @staticmethod
    def _presets(deals: object) -> dict[int, list[int]]:
        if deals is None:
            return {}
        if not isinstance(deals, list):
            raise InvalidOptions('deals must be a list of {"hands": [[13 cards] × 4]} objects')
        if len(deals) > HANDS_PER_MATCH:
            raise InvalidOptions(f"deals lists {len(deals)} hands but a King match has {HANDS_PER_MATCH}")
        presets: dict[int, list[int]] = {}
        for i, deal in enumerate(deals):
            if deal is None:
                continue
            where = f"deals[{i}]"
            if not isinstance(deal, Mapping) or not isinstance(deal.get("hands"), list) or set(deal) != {"hands"}:
                raise InvalidOptions(f"{where} must be an object with just a 'hands' list")
            hands = deal["hands"]
            if len(hands) != SEATS:
                raise InvalidOptions(f"{where}: 'hands' lists {len(hands)} seats but King has {SEATS}")
            masks: list[int] = []
            seen = 0
            for seat, cards in enumerate(hands):
                if not isinstance(cards, list) or len(cards) != HAND_SIZE:
                    got = len(cards) if isinstance(cards, list) else cards
                    raise InvalidOptions(f"{where}: seat {seat} must get {HAND_SIZE} cards, got {got!r}")
                mask = 0
                for name in cards:
                    try:
                        b = 1 << card_code(name)
                    except KingCardError as err:
                        raise InvalidOptions(f"{where}: {err}") from None
                    if (mask | seen) & b:
                        raise InvalidOptions(f"{where}: {name} is dealt twice")
                    mask |= b
                seen |= mask
                masks.append(mask)
            presets[i + 1] = masks
        return presets

    def options(self, state: KingState) -> dict[str, Any]:
        return {"order": "fixed" if state.fixed else "choice"}

    def match_seed(self, state: KingState) -> int:
        return state.seed

    def seats(self, state: KingState) -> int:
        return SEATS

    # ================================================================= dealing
    def _start_hand(self, st: KingState, events: list[Event] | None) -> None:
        st.hand_no += 1
        number = st.hand_no
        st.dealer = dealer = (st.first_dealer + number - 1) % SEATS
        st.chooser = chooser = (dealer + 1) % SEATS
        deck = list(range(DECK_SIZE))
        st.rng.shuffle(deck)  # always, so that later hands do not depend on presets
        preset = st.presets.get(number)
        if preset is not None:
            hands = preset[:]
        else:
            hands = [0] * SEATS
            for i in range(SEATS):
                seat = (chooser + i) % SEATS
                m = 0
                for c in deck[HAND_SIZE * i : HAND_SIZE * (i + 1)]:
                    m |= 1 << c
                hands[seat] = m
        st.hands = hands
        st.dealt = hands[:]
        st.turn = chooser
        st.leader = chooser
        st.trick = []
        st.led = st.top_led = st.top_trump = -1
        st.broken = False
        st.chain = None
        st.played = 0
        st.excluded = [0] * SEATS
        st.tricks = []
        st.points = [0] * SEATS
        st.trump = -1
        if st.fixed:
            st.contract = FIXED_ORDER[number - 1]
            st.phase = Phase.TRUMP if st.contract == TRUNFO else Phase.PLAYING
        else:
            st.contract = -1
            st.phase = Phase.CHOOSING
        if events is not None:
            events.append(
                {
                    "type": "deal",
                    "hand": number,
                    "dealer": dealer,
                    "chooser": chooser,
                    "contract": CONTRACTS[st.contract].name if st.contract >= 0 else None,
                }
            )

    # ================================================================= turns
    def awaiting(self, state: KingState) -> frozenset[Seat]:
        turn = state.turn
        return _NOBODY if turn < 0 else _ONLY[turn]

    def contract_choices(self, st: KingState, seat: Seat) -> list[int]:
        """Contracts ``seat`` may still choose: its Trunfo if not yet chosen, and the open pool contracts
        while it has chosen fewer than two of them."""
        out = [c for c in POOL if not st.pool_played >> c & 1] if st.pool_chosen[seat] < POOL_PER_SEAT else []
        if not st.trunfo_chosen[seat]:
            out.append(TRUNFO)
        return sorted(out)

    def chain(self, st: KingState) -> list[int]:
        if st.chain is None:
            st.chain = play_chain(st.contract, st.trump, st.led, st.top_led, st.top_trump, st.broken)
        return st.chain

    def legal_actions(self, state: KingState, seat: Seat) -> list[Action]:
        st = state
        if seat != st.turn:
            return []
        if st.phase is _PLAYING:
            chain = st.chain
            if chain is None:
                chain = st.chain = play_chain(st.contract, st.trump, st.led, st.top_led, st.top_trump, st.broken)
            hand = st.hands[seat]
            for allowed in chain:
                m = hand & allowed
                if m:
                    return cards_of(m)
            return cards_of(hand)
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
            reason = self._reason(st, chain, hand)
            raise _bad(f"{card_name(action)} may not be played now: {REASONS[reason]}", f"action/{reason}")

    def _reason(self, st: KingState, chain: list[int], hand: int) -> str:
        """Which rule binds a seat holding ``hand`` now (it names why the other cards are refused)."""
        index = next((i for i, allowed in enumerate(chain) if hand & allowed), len(chain))
        if st.led < 0:
            return "no_trump_lead" if st.contract == TRUNFO else "no_hearts_lead"
        if st.contract == TRUNFO:
            over = "must_overtrump" if st.top_trump >= 0 else "must_trump"
            names = [over, "follow_suit"] if st.led == st.trump else ["follow_suit", over, "must_trump"]
            return names[index]
        contract = CONTRACTS[st.contract]
        if contract.follow_forced:
            if index == 0:
                return "must_drop_under"
            index -= 1
        if index == 0:
            return "follow_suit"
        allowed = chain[-len(contract.void_forced) :][index - 1]
        if allowed == KH_MASK:
            return "must_discard_kh"
        if allowed == HEART_MASK:
            return "must_discard_heart"
        return "must_discard"

    def _apply(self, state: KingState, seat: Seat, action: Action, events: list[Event] | None = None) -> None:
        st = state
        st.log.append((seat, action))
        if action < CONTRACT:
            chain = st.chain
            if chain is None:
                chain = play_chain(st.contract, st.trump, st.led, st.top_led, st.top_trump, st.broken)
            else:
                st.chain = None
            if chain and not chain[0] >> action & 1:  # a play from the first link reveals nothing
                st.excluded[seat] |= revealed(action, chain)
            b = 1 << action
            st.hands[seat] &= ~b
            st.played |= b
            trick = st.trick
            trick.append((seat, action))
            suit = action // 13
            if st.led < 0:
                st.led = suit
                st.top_led = action
            elif suit == st.led and action > st.top_led:
                st.top_led = action
            if suit == st.trump:
                if action > st.top_trump:
                    st.top_trump = action
                st.broken = True
            elif suit == HEARTS and st.trump < 0:
                st.broken = True
            if events is not None:
                events.append({"type": "play", "seat": seat, "card": card_name(action)})
            if len(trick) == SEATS:
                self._resolve_trick(st, events)
            else:
                st.turn = (seat + 1) % SEATS
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

    def _resolve_trick(self, st: KingState, events: list[Event] | None) -> None:
        plays = st.trick
        best = st.top_trump if st.top_trump >= 0 else st.top_led
        winner = plays[0][0]
        cards = 0
        for s, c in plays:
            cards |= 1 << c
            if c == best:
                winner = s
        points = trick_points(st.contract, cards, len(st.tricks))
        st.points[winner] += points
        trick = Trick(st.leader, plays, winner, points)
        st.tricks.append(trick)
        st.trick = []
        st.led = st.top_led = st.top_trump = -1
        st.leader = winner
        if events is not None:
            events.append(
                {
                    "type": "trick",
                    "leader": trick.leader,
                    "plays": [[s, card_name(c)] for s, c in plays],
                    "winner": winner,
                    "points": points,
                }
            )
        ends = CONTRACTS[st.contract].ends_when
        if len(st.tricks) == HAND_SIZE or (ends and st.played & ends == ends):
            self._end_hand(st, events)
        else:
            st.turn = winner

    def _end_hand(self, st: KingState, events: list[Event] | None) -> None:
        totals = st.totals
        for s in range(SEATS):
            totals[s] += st.points[s]
        early = len(st.tricks) < HAND_SIZE
        record = HandRecord(
            st.hand_no, st.dealer, st.chooser, st.contract, st.trump, st.tricks, st.points[:], totals[:], early
        )
        st.records.append(record)
        if events is not None:
            events.append(
                {
                    "type": "hand_end",
                    "hand": st.hand_no,
                    "contract": CONTRACTS[st.contract].name,
                    "points": record.points[:],
                    "totals": record.totals[:],
                    "early": early,
                }
            )
        if st.hand_no >= HANDS_PER_MATCH:
            st.phase = Phase.OVER
            st.turn = -1
            st.hands = [0] * SEATS
            st.placements = placements(totals)
            if events is not None:
                events.append({"type": "match_end", "placements": st.placements[:], "totals": totals[:]})
            return
        self._start_hand(st, events)

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
        """Per seat: choices left (``trunfo`` 0/1, ``pool`` 0..2); None in the fixed order."""
        if st.fixed:
            return None
        return [
            {"trunfo": 0 if st.trunfo_chosen[s] else 1, "pool": POOL_PER_SEAT - st.pool_chosen[s]} for s in range(SEATS)
        ]

    @staticmethod
    def counters(tricks: list[Trick]) -> list[dict[str, int]]:
        """Per seat, what it has taken in this hand: tricks, jacks and kings, queens, hearts, K♥, points."""
        out = [{"tricks": 0, "men": 0, "queens": 0, "hearts": 0, "king_of_hearts": 0, "points": 0} for _ in range(4)]
        for t in tricks:
            cards = 0
            for _, c in t.plays:
                cards |= 1 << c
            row = out[t.winner]
            row["tricks"] += 1
            row["men"] += (cards & JK_MASK).bit_count()
            row["queens"] += (cards & Q_MASK).bit_count()
            row["hearts"] += (cards & HEART_MASK).bit_count()
            row["king_of_hearts"] += 1 if cards & KH_MASK else 0
            row["points"] += t.points
        return out

    @staticmethod
    def _trick_json(t: Trick) -> dict[str, Any]:
        return {"leader": t.leader, "plays": [[s, card_name(c)] for s, c in t.plays], "winner": t.winner}

    def _record_json(self, r: HandRecord) -> dict[str, Any]:
        return {
            "number": r.number,
            "dealer": r.dealer,
            "chooser": r.chooser,
            "contract": CONTRACTS[r.contract].name,
            "trump": SUITS[r.trump] if r.trump >= 0 else None,
            "tricks": [self._trick_json(t) for t in r.tricks],
            "points": list(r.points),
            "totals": list(r.totals),
        }

    def view(self, state: KingState, seat: Seat | None) -> View:
        st = state
        if seat is not None:
            check_seat(seat, SEATS)
        over = st.phase is Phase.OVER
        hands = [names_of(st.hands[o]) if seat == o and not over else None for o in range(SEATS)]
        legal = [self.action_json(st, a) for a in self.legal_actions(st, seat)] if seat is not None else []
        reasons: dict[str, dict[str, str]] = {}
        if seat is not None and seat == st.turn and st.phase is Phase.PLAYING:
            hand = st.hands[seat]
            chain = self.chain(st)
            refused = hand & ~legal_mask(hand, chain)
            if refused:
                reason = self._reason(st, chain, hand)
                for name in names_of(refused):
                    reasons[name] = {"key": f"king.reason.{reason}", "text": REASONS[reason]}
        sheet = [
            {
                "number": r.number,
                "dealer": r.dealer,
                "chooser": r.chooser,
                "contract": CONTRACTS[r.contract].name,
                "trump": SUITS[r.trump] if r.trump >= 0 else None,
                "points": list(r.points),
                "totals": list(r.totals),
                "early": r.early,
            }
            for r in st.records
        ]
        last = st.tricks[-1] if st.tricks else (st.records[-1].tricks[-1] if st.records else None)
        return {
            "game": self.name,
            "options": self.options(st),
            "seat": seat,
            "seats": SEATS,
            "phase": str(st.phase),
            "hand_number": st.hand_no,
            "hands_per_match": HANDS_PER_MATCH,
            "dealer": st.dealer,
            "chooser": st.chooser,
            "contract": CONTRACTS[st.contract].name if st.contract >= 0 and not over else None,
            "trump": SUITS[st.trump] if st.trump >= 0 and not over else None,
            "turn": st.turn if st.turn >= 0 else None,
            "hands": hands,
            "hand_counts": [h.bit_count() for h in st.hands],
            "leader": st.leader,
            "trick": [[s, card_name(c)] for s, c in st.trick],
            "tricks": [self._trick_json(t) for t in st.tricks] if not over else [],
            "last_trick": None if last is None else self._trick_json(last),
            "broken": st.broken,
            "taken": self.counters(st.tricks) if not over else None,
            "points": list(st.points),
            "totals": list(st.totals),
            "sheet": sheet,
            "quotas": self.quotas(st),
            "pool_open": [CONTRACTS[c].name for c in POOL if not st.pool_played >> c & 1] if not st.fixed else None,
            "contracts": [
                {"name": c.name, "total": c.total, "points": c.points, "key": f"king.contract.{c.name}"}
                for c in CONTRACTS
            ],
            "legal": legal,
            "reasons": reasons,
            "placements": st.placements,
        }

    def report(self, state: KingState) -> dict[str, Any]:
        return {"hands": [self._record_json(r) for r in state.records]}

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

    def history_actions(self, state: KingState) -> list[dict[str, Any]]:
        out = []
        for seat, action in state.log:
            entry: dict[str, Any] = {"seat": seat}
            entry.update(self.action_json(state, action))
            out.append(entry)
        return out

    def history_setup(self, state: KingState) -> dict[str, Any]:
        return {"dealer": state.first_dealer}

    # ================================================================= search support
    def bot_knowledge(self) -> BotKnowledge:
        """The easy and normal policies and the search hooks of ``bots.py``, for the generic bots."""
        return KNOWLEDGE

    def clone(self, state: KingState) -> KingState:
        st = state
        rng = random.Random()
        rng.setstate(st.rng.getstate())
        return KingState(
            fixed=st.fixed,
            seed=st.seed,
            rng=rng,
            first_dealer=st.first_dealer,
            presets=st.presets,
            hand_no=st.hand_no,
            dealer=st.dealer,
            chooser=st.chooser,
            phase=st.phase,
            contract=st.contract,
            trump=st.trump,
            hands=st.hands[:],
            dealt=st.dealt[:],
            turn=st.turn,
            leader=st.leader,
            trick=st.trick[:],
            led=st.led,
            top_led=st.top_led,
            top_trump=st.top_trump,
            broken=st.broken,
            played=st.played,
            excluded=st.excluded[:],
            tricks=st.tricks[:],
            points=st.points[:],
            totals=st.totals[:],
            trunfo_chosen=st.trunfo_chosen[:],
            pool_chosen=st.pool_chosen[:],
            pool_played=st.pool_played,
            records=st.records[:],
            log=st.log[:],
            placements=None if st.placements is None else st.placements[:],
            left=st.left[:],
        )

    def infoset_key(self, state: KingState, seat: Seat) -> Hashable:
        # Every decision is public (contracts, trumps, plays); a seat sees its own hand and nothing else.
        return (seat, state.hand_no, state.hands[seat] if state.phase is not Phase.OVER else 0, tuple(state.log))

    def unseen_mask(self, state: KingState, seat: Seat) -> int:
        """Cards of the hand in progress whose place ``seat`` does not know: in the others' hands."""
        return ALL & ~state.hands[seat] & ~state.played

    def resample(self, state: KingState, seat: Seat, rng: random.Random) -> KingState:
        """Deal the others' hidden cards again at random, respecting every card a seat has shown it does
        not hold (a void, a forced play it did not make): ``excluded``. The deal is drawn card by card,
        each card going to a seat that may hold it, and only where Hall's condition says the rest can
        still be dealt, so it never fails."""
        st = self.clone(state)
        st.rng = random.Random(rng.getrandbits(64))
        st.seed = -1  # the match seed would give every deal away
        st.presets = {}
        if st.phase is Phase.OVER:
            return st
        others = [o for o in range(SEATS) if o != seat]
        pool = cards_of(self.unseen_mask(state, seat))
        rng.shuffle(pool)
        sizes = [st.hands[o].bit_count() for o in others]
        excluded = [st.excluded[o] for o in others]
        new = [0, 0, 0]
        if not (excluded[0] | excluded[1] | excluded[2]) & ALL & ~state.played & ~state.hands[seat]:
            pos = 0
            for i in range(3):
                m = 0
                for c in pool[pos : pos + sizes[i]]:
                    m |= 1 << c
                new[i] = m
                pos += sizes[i]
        else:
            new = _constrained_deal(pool, sizes, excluded, rng)
        played_by = [0] * SEATS
        for t in st.tricks:
            for s, c in t.plays:
                played_by[s] |= 1 << c
        for s, c in st.trick:
            played_by[s] |= 1 << c
        for i, o in enumerate(others):
            st.hands[o] = new[i]
            st.dealt[o] = new[i] | played_by[o]
        return st


def _constrained_deal(pool: list[int], sizes: list[int], excluded: list[int], rng: random.Random) -> list[int]:
    """Deal ``pool`` to three seats of ``sizes`` so that no seat gets a card of its ``excluded`` mask.

    Cards are grouped by the set of seats that may hold them (a 3-bit mask); a card goes to seat ``i``
    only if, afterwards, every set T of seats can still take the cards that only T may hold (Hall).
    """
    groups = [0] * 8
    allowed_of: list[int] = []
    for c in pool:
        b = 1 << c
        a = (0 if excluded[0] & b else 1) | (0 if excluded[1] & b else 2) | (0 if excluded[2] & b else 4)
        allowed_of.append(a)
        groups[a] += 1
    caps = sizes[:]
    new = [0, 0, 0]

    def feasible() -> bool:
        for t in range(1, 8):
            need = 0
            for a in range(1, 8):
                if a & ~t == 0:
                    need += groups[a]
            cap = (caps[0] if t & 1 else 0) + (caps[1] if t & 2 else 0) + (caps[2] if t & 4 else 0)
            if need > cap:
                return False
        return True

    # The most constrained cards first (fewest seats allowed), random order otherwise.
    order = sorted(range(len(pool)), key=lambda k: allowed_of[k].bit_count())
    for k in order:
        a = allowed_of[k]
        groups[a] -= 1
        seats = [i for i in range(3) if a >> i & 1 and caps[i] > 0]
        weights = [caps[i] for i in seats]
        chosen = -1
        while seats:
            pick = rng.choices(range(len(seats)), weights)[0]
            i = seats[pick]
            caps[i] -= 1
            if feasible():
                chosen = i
                break
            caps[i] += 1
            del seats[pick]
            del weights[pick]
        if chosen < 0:  # cannot happen when the real deal respects ``excluded``; deal anywhere then
            chosen = max(range(3), key=lambda i: caps[i])
            caps[chosen] -= 1
        new[chosen] |= 1 << pool[k]
    return new
