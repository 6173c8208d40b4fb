"""A tiny test-only game with SIMULTANEOUS secret turns: sealed bids ("lances").

It exists to prove that :class:`sefode.engine.Game` expresses the Guimenon-style turn, where both
players submit in secret and nothing is revealed until both have, and that a game packaged as its own
distribution plays through the whole platform (replay, simulate, server, browser) with no change to it.

Rules:

* Cards are the numbers 1..15. From a seeded shuffle each of the two seats gets ``rounds`` cards
  (secret), then one prize card per round is turned face up as the round starts.
* Every round both seats are awaited. Each submits one card of its hand in secret. Until both have
  submitted, the only thing anybody learns is *that* a seat has submitted.
* Then both cards are revealed. The higher card takes the prize (its value in points); on a tie a
  seeded coin flip decides, so chance is part of the resolution too.
* After the last round the higher score is first; equal scores share first place.

Actions are the card numbers (1..15). JSON form: ``{"card": 7}``. Options: ``{"rounds": 1..5}``
(default 3).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sefode.engine import (
    Action,
    Event,
    GameSpec,
    IllegalAction,
    Information,
    InvalidOptions,
    MatchOver,
    NotYourTurn,
    OptionKind,
    OptionSpec,
    Outcome,
    Seat,
    Turns,
    View,
    ViewSchema,
    check_seat,
    rank_places,
)
from sefode.match import MatchGame, MatchState, Phase

CARDS = tuple(range(1, 16))
SEATS = 2
MAX_ROUNDS = 5


@dataclass
class Resolved:
    prize: int
    cards: tuple[int, int]
    winner: int
    coin: bool
    """True when a tie was settled by the coin flip."""


@dataclass
class LancesState(MatchState):
    """The base fields (``sefode.match``: seed, generator, options, seats, phase, log) and the game's own."""

    rounds: int
    hands: list[list[int]]
    deck: list[int]
    """Cards not dealt, in the order they will be turned as prizes (secret)."""
    prize: int | None = None
    round_no: int = 0
    pending: list[int | None] = field(default_factory=lambda: [None, None])
    score: list[int] = field(default_factory=lambda: [0, 0])
    done: list[Resolved] = field(default_factory=list)


SPEC = GameSpec(
    name="lances",
    title="game.lances.title",
    package="sefode_lances",
    min_seats=SEATS,
    max_seats=SEATS,
    seats_option=None,
    options=(OptionSpec("rounds", OptionKind.INT, 3, "lances.option.rounds", minimum=1, maximum=MAX_ROUNDS),),
    turns=Turns.SIMULTANEOUS,
    information=Information.IMPERFECT,
    summary=("rounds",),
    # For the generic renderer: "awaiting" holds seat numbers (drawn as names), "score" one score per seat.
    view_schema=ViewSchema(seats=("awaiting",), scores="score"),
)


class Lances(MatchGame[LancesState]):
    name = "lances"
    spec = SPEC

    # ----------------------------------------------------------------- setting up
    def new_match(self, options: Mapping[str, Any], seed: int, setup: Mapping[str, Any] | None = None) -> LancesState:
        values = self.validate_options(options)
        rounds = int(values["rounds"])
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidOptions(f"seed must be a whole number, not {seed!r}")
        if setup:
            raise InvalidOptions(f"unknown setup key(s) {', '.join(sorted(map(str, setup)))}; lances takes none")
        rng = random.Random(seed)
        deck = list(CARDS)
        rng.shuffle(deck)
        hands = [sorted(deck[:rounds]), sorted(deck[rounds : 2 * rounds])]
        st = LancesState(
            seed=seed,
            rng=rng,
            options=values,
            seats=SEATS,
            phase=Phase.PLAYING,
            rounds=rounds,
            hands=hands,
            deck=deck[2 * rounds :],
        )
        self._next_round(st, None)
        return st

    # ----------------------------------------------------------------- playing
    def awaiting(self, state: LancesState) -> frozenset[Seat]:
        if state.over:
            return frozenset()
        return frozenset(s for s in range(SEATS) if state.pending[s] is None)

    def legal_actions(self, state: LancesState, seat: Seat) -> list[Action]:
        if state.over or not 0 <= seat < SEATS or state.pending[seat] is not None:
            return []
        return list(state.hands[seat])

    def apply(self, state: LancesState, seat: Seat, action: Action) -> list[Event]:
        if state.over:
            raise MatchOver("the match is over")
        check_seat(seat, SEATS)
        if state.pending[seat] is not None:
            raise NotYourTurn(f"seat {seat} has already submitted a card this round", "action/already_submitted")
        if isinstance(action, bool) or not isinstance(action, int) or action not in state.hands[seat]:
            raise IllegalAction(f"seat {seat} does not hold the card {action!r}", "action/card_not_in_hand")
        events: list[Event] = []
        self._apply(state, seat, action, events)
        return events

    def apply_fast(self, state: LancesState, seat: Seat, action: Action) -> None:
        self._apply(state, seat, action, None)

    def _apply(self, st: LancesState, seat: int, card: int, events: list[Event] | None) -> None:
        st.log.append((seat, card))
        st.hands[seat].remove(card)
        st.pending[seat] = card
        if events is not None:
            # Public: only THAT the seat submitted, never which card.
            events.append({"type": "submitted", "seat": seat})
        if any(p is None for p in st.pending):
            return
        a, b = st.pending[0], st.pending[1]
        assert a is not None and b is not None and st.prize is not None
        coin = a == b
        winner = (0 if a > b else 1) if not coin else st.rng.randrange(SEATS)
        st.score[winner] += st.prize
        st.done.append(Resolved(st.prize, (a, b), winner, coin))
        st.pending = [None, None]
        if events is not None:
            events.append({"type": "reveal", "cards": [a, b], "winner": winner, "prize": st.prize, "coin": coin})
        self._next_round(st, events)

    def _next_round(self, st: LancesState, events: list[Event] | None) -> None:
        if st.round_no == st.rounds:
            st.phase = Phase.OVER
            st.prize = None
            if events is not None:
                events.append({"type": "match_end", "placements": rank_places(st.score)})
            return
        st.round_no += 1
        st.prize = st.deck.pop()
        if events is not None:
            events.append({"type": "round", "round": st.round_no, "prize": st.prize})

    def parse_action(self, state: LancesState, seat: Seat, message: Mapping[str, Any]) -> Action:
        if not isinstance(message, Mapping):
            raise IllegalAction('an action is a JSON object such as {"card": 7}', "action/invalid")
        keys = sorted(str(k) for k in message if k != "seat")
        if keys != ["card"]:
            raise IllegalAction(f"an action has exactly the key 'card', got {keys}", "action/invalid")
        card = message["card"]
        if isinstance(card, bool) or not isinstance(card, int) or card not in CARDS:
            raise IllegalAction(f"a card is a whole number from 1 to 15, not {card!r}", "action/bad_card")
        return card

    def action_json(self, state: LancesState, action: Action) -> dict[str, Any]:
        return {"card": action}

    def describe_action(self, state: LancesState, seat: Seat, action: Action) -> dict[str, Any]:
        return {"key": "lances.action.card", "params": {"card": action}, "text": f"bid the card {action}"}

    def outcome(self, state: LancesState) -> Outcome | None:
        return Outcome(tuple(rank_places(state.score))) if state.over else None

    # ----------------------------------------------------------------- seeing
    def view(self, state: LancesState, seat: Seat | None) -> View:
        if seat is not None:
            check_seat(seat, SEATS)
        return {
            "game": self.name,
            "seat": seat,
            "round": state.round_no,
            "rounds": state.rounds,
            "prize": state.prize,
            "hand": list(state.hands[seat]) if seat is not None else None,
            "hand_counts": [len(h) for h in state.hands],
            "submitted": [p is not None for p in state.pending],
            "my_submission": state.pending[seat] if seat is not None else None,
            "history": [
                {"prize": r.prize, "cards": list(r.cards), "winner": r.winner, "coin": r.coin} for r in state.done
            ],
            "score": list(state.score),
            "awaiting": sorted(self.awaiting(state)),
            "legal": [self.action_json(state, a) for a in self.legal_actions(state, seat)] if seat is not None else [],
            "placements": list(rank_places(state.score)) if state.over else None,
        }

    def report(self, state: LancesState) -> dict[str, Any]:
        return {
            "rounds": [{"prize": r.prize, "cards": list(r.cards), "winner": r.winner} for r in state.done],
            "score": list(state.score),
        }

    def history_setup(self, state: LancesState) -> dict[str, Any]:
        return {}

    # ----------------------------------------------------------------- searching
    def clone(self, state: LancesState) -> LancesState:
        return LancesState(
            seed=state.seed,
            rng=state.copy_rng(),
            options=state.options,
            seats=SEATS,
            phase=state.phase,
            log=state.log[:],
            rounds=state.rounds,
            hands=[h[:] for h in state.hands],
            deck=state.deck[:],
            prize=state.prize,
            round_no=state.round_no,
            pending=state.pending[:],
            score=state.score[:],
            done=list(state.done),
        )

    def infoset_key(self, state: LancesState, seat: Seat) -> Hashable:
        return (
            seat,
            state.round_no,
            state.prize,
            tuple(state.hands[seat]),
            state.pending[seat],
            tuple(p is not None for p in state.pending),
            tuple((r.prize, r.cards, r.winner) for r in state.done),
            state.over,
        )

    def resample(self, state: LancesState, seat: Seat, rng: random.Random) -> LancesState:
        """Deal the other seat's hand, its sealed card and the prize deck again from what ``seat`` has not seen."""
        st = self.clone(state)
        st.rng = random.Random(rng.getrandbits(64))
        other = 1 - seat
        sealed = st.pending[other]
        pool = st.hands[other] + ([] if sealed is None else [sealed]) + st.deck
        rng.shuffle(pool)
        k = len(st.hands[other])
        st.hands[other] = sorted(pool[:k])
        pos = k
        if sealed is not None:
            st.pending[other] = pool[pos]
            pos += 1
        st.deck = pool[pos:]
        return st
