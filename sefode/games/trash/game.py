"""One Man's Trash engine (seed 004, docs/rulings.md §3): a shedding game of Trash Piles for 2 to 6 players.

Each turn a player does exactly one of five things: draw, trash, collect, litter or swap. Trashing a
four-of-a-kind that empties the hand wins; any other empty hand puts the player out; the last player left
loses too, and so does everybody when the match reaches 100 turns per player (no winner).

Actions are small integers (``rules.py``). JSON forms (protocol and hand histories)::

    {"draw": true}
    {"trash": ["7h", "7s"], "pile": 0}     (one card may be written "7h")
    {"collect": 1}
    {"litter": "2c"}
    {"swap": ["8c"], "pile": 0}

Piles are numbered from 0 in table order; a littered pile takes the next number (to the right).

A hand history may carry ``first`` (the seat that plays first; drawn from the seed when absent) and
``deal``: ``{"hands": [[...], ...], "piles": [[bottom .. top], ...], "draw": [top .. bottom]}``. Without
``draw`` the cards the deal does not name are shuffled from the seed into the Draw Pile; with it, the deal
must name every card of the deck once. Without jokers, the aces the deal names are the Collectors (the
others needed are drawn from the seed).
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
    MatchOver,
    NotYourTurn,
    OptionKind,
    OptionSpec,
    Outcome,
    Seat,
    SeatStatus,
    View,
    check_seat,
    validate_options,
)
from sefode.games.trash import dealing, notation, sampling, scoring, views
from sefode.games.trash.bots import KNOWLEDGE
from sefode.games.trash.rules import (
    COLLECT,
    DRAW,
    LITTER,
    SWAP,
    TRASH,
    TURN_LIMIT,
    card_name,
    card_names,
    cards_of,
    decode,
    popcount,
    rank_of,
)
from sefode.games.trash.state import TrashOptions, TrashState
from sefode.match import MatchGame

MIN_SEATS = 2
MAX_SEATS = 6

SPEC = GameSpec(
    name="trash",
    title="game.trash.title",
    package="sefode.games.trash",
    min_seats=MIN_SEATS,
    max_seats=MAX_SEATS,
    options=(
        OptionSpec("players", OptionKind.INT, 3, "option.players", minimum=MIN_SEATS, maximum=MAX_SEATS),
        OptionSpec("jokers", OptionKind.BOOL, True, "option.jokers", help="option.jokers_help"),
    ),
    seats_option="players",
    summary=("players", "jokers"),
    capabilities=frozenset({Capability.FORFEIT}),
)

_NOBODY: frozenset[Seat] = frozenset()
_ONLY: tuple[frozenset[Seat], ...] = tuple(frozenset((s,)) for s in range(MAX_SEATS))


def _bad(message: str, code: str) -> IllegalAction:
    return IllegalAction(message, code)


class Trash(MatchGame[TrashState]):
    """One Man's Trash behind the one engine interface."""

    name = "trash"
    spec = SPEC

    # ================================================================= setting up
    @staticmethod
    def parse_options(raw: object) -> TrashOptions:
        values = validate_options(SPEC, raw)
        return TrashOptions(players=values["players"], jokers=values["jokers"])

    def new_match(self, options: Mapping[str, Any], seed: int, setup: Mapping[str, Any] | None = None) -> TrashState:
        return dealing.new_state(self.parse_options(options), seed, setup)

    # ================================================================= leaving the table
    def forfeit(self, state: TrashState, seat: Seat) -> list[Event]:
        """The seat's player leaves the table: a bot plays the seat for the rest of the match, which goes on
        unchanged (One Man's Trash has no conceding). A seat already out has nothing left to hand over."""
        check_seat(seat, state.seats)
        if not state.left:
            state.left = [False] * state.seats
        if state.left[seat]:
            raise _bad(f"seat {seat} has already left the table", "action/already_left")
        if not state.alive[seat]:
            raise _bad(f"seat {seat} is out of the match", "action/out")
        state.left[seat] = True
        return [{"type": "leave", "seat": seat}]

    def stand_in_seats(self, state: TrashState) -> frozenset[Seat]:
        return frozenset(s for s, gone in enumerate(state.left) if gone and state.alive[s])

    def seat_status(self, state: TrashState) -> list[SeatStatus]:
        """Out of the match first (a hand that ran out without a win: the seat plays no more), then left, else
        playing. A seat cannot leave once out, but a seat that left may go out while its bot plays."""
        left = state.left or [False] * state.seats
        return [
            SeatStatus.OUT if not state.alive[s] else SeatStatus.LEFT if left[s] else SeatStatus.PLAYING
            for s in range(state.seats)
        ]

    # ================================================================= turns
    def awaiting(self, state: TrashState) -> frozenset[Seat]:
        turn = state.turn
        return _NOBODY if turn < 0 else _ONLY[turn]

    def collector_on_table(self, st: TrashState) -> bool:
        return views.collector_on_table(st)

    def legal_actions(self, state: TrashState, seat: Seat) -> list[Action]:
        st = state
        if seat != st.turn:
            return []
        hand = st.hands[seat]
        collectors = st.collectors
        fits = st.fits
        tops = [p[-1] for p in st.piles]
        actions: list[Action] = [DRAW] if st.draw else []
        masks: dict[int, int] = {}
        has_collector = False
        for c in hand:
            if c in collectors:
                has_collector = True
            else:
                r = c >> 2
                masks[r] = masks.get(r, 0) | (1 << (c & 3))
        table_collector = any(t in collectors for t in tops)
        for r, mask in masks.items():
            probe = r * 4 + (mask & -mask).bit_length() - 1  # any card of the rank: suits do not matter
            fits_somewhere = False
            for p, top in enumerate(tops):
                if fits[top][probe]:
                    fits_somewhere = True
                    base = TRASH + (p * 13 + r) * 16
                    sub = mask
                    while sub:
                        actions.append(base + sub)
                        sub = (sub - 1) & mask
            if not fits_somewhere:
                # ¶ littercreate, ¶ litterrestriction: one card that fits no pile (so no Collector is on the table).
                for s in range(4):
                    if mask >> s & 1:
                        actions.append(LITTER + r * 4 + s)
                if not table_collector:
                    self._swaps(st, r, mask, actions)
        if has_collector:
            actions.extend(COLLECT + p for p in range(len(tops)))
        return actions

    @staticmethod
    def _swaps(st: TrashState, rank: int, mask: int, actions: list[Action]) -> None:
        """¶ swaptop, ¶ swapmultiple: k cards of ``rank`` (which fits no pile) for the top k cards of a pile,
        all of one rank."""
        have = popcount(mask)
        for p, pile in enumerate(st.piles):
            top_rank = pile[-1] >> 2
            run = 1
            while run < len(pile) and run < have and pile[-1 - run] >> 2 == top_rank:
                run += 1
            base = SWAP + (p * 13 + rank) * 16
            sub = mask
            while sub:
                if popcount(sub) <= run:
                    actions.append(base + sub)
                sub = (sub - 1) & mask

    # ================================================================= applying
    def apply(self, state: TrashState, seat: Seat, action: Action) -> list[Event]:
        st = state
        if st.over:
            raise MatchOver("the match is over", "action/match_over")
        if isinstance(action, bool) or not isinstance(action, int):
            raise _bad(f"an action is a whole number, not {action!r}", "action/invalid")
        check_seat(seat, st.seats)
        if not st.alive[seat]:
            raise _bad(f"seat {seat} is out of the match", "action/seat_out")
        if seat != st.turn:
            raise NotYourTurn(f"it is seat {st.turn}'s turn, not seat {seat}'s")
        self.check(st, seat, action)
        events: list[Event] = []
        self._apply(st, seat, action, events)
        return events

    def check(self, st: TrashState, seat: Seat, action: Action) -> None:
        """Raise IllegalAction naming the rule ``action`` breaks, if it is not legal for ``seat`` now."""
        kind, p, rank, suits = decode(action)
        hand = st.hands[seat]
        collectors = st.collectors
        if kind == "invalid":
            raise _bad(f"{action} is not an action of this game", "action/invalid")
        if kind == "draw":
            if not st.draw:
                raise _bad(
                    "the Draw Pile is empty: you may not pick up from it (seed ¶ drawempty)", "action/draw_empty"
                )
            return
        if p >= len(st.piles):
            raise _bad(f"there is no Trash Pile {p}; the piles are 0 to {len(st.piles) - 1}", "action/no_such_pile")
        if kind == "collect":
            if not any(c in collectors for c in hand):
                raise _bad("you need a Trash Collector in your hand to collect the trash", "action/no_collector")
            return
        if kind == "litter":
            card = rank
            if card not in hand:
                raise _bad(f"you do not hold {card_name(card)}", "action/not_in_hand")
            if card in collectors:
                raise _bad(
                    "a Trash Collector cannot start a new pile: it is a valid play on any pile "
                    "(seed ¶ litterrestriction)",
                    "action/litter_collector",
                )
            for i, pile in enumerate(st.piles):
                if st.fits[pile[-1]][card]:
                    raise _bad(
                        f"{card_name(card)} can be trashed on pile {i}, so it may not start a new pile "
                        "(seed ¶ litterrestriction)",
                        "action/litter_playable",
                    )
            return
        cards = cards_of(rank, suits)
        if rank_of(cards[0]) == 0 and cards[0] in collectors:
            raise _bad("Trash Collectors cannot be trashed or swapped (seed ¶ trashplaycollector)", "action/collector")
        missing = [c for c in cards if c not in hand]
        if missing:
            raise _bad(f"you do not hold {' '.join(card_names(missing))}", "action/not_in_hand")
        pile = st.piles[p]
        top = pile[-1]
        if kind == "trash":
            if not st.fits[top][cards[0]]:
                raise _bad(
                    f"{card_name(cards[0])} is more than one rank away from {card_name(top)}, the top of pile {p} "
                    "(seed ¶ trashvalid)",
                    "action/does_not_fit",
                )
            return
        # swap
        if self.collector_on_table(st):
            raise _bad(
                "no swap while a Trash Collector is on the table (seed ¶ swaprestriction)", "action/swap_collector"
            )
        for i, other in enumerate(st.piles):
            if st.fits[other[-1]][cards[0]]:
                raise _bad(
                    f"{card_name(cards[0])} is a valid play on pile {i}, so it may not be swapped "
                    "(seed ¶ swaprestriction)",
                    "action/swap_playable",
                )
        k = len(cards)
        top_rank = top >> 2
        if len(pile) < k or any(c >> 2 != top_rank for c in pile[-k:]):
            raise _bad(
                f"the top {k} cards of pile {p} are not all of one rank: swap as many cards as the pile has of its "
                "top rank on top (seed ¶ swapmultiple)",
                "action/swap_count",
            )

    def _apply(self, state: TrashState, seat: Seat, action: Action, events: list[Event] | None = None) -> None:
        st = state
        hand = st.hands[seat]
        known = st.known[seat]
        st.log.append((seat, action))
        finished_hand = False
        four = False
        if action == DRAW:
            card = st.draw.pop()
            hand.append(card)
            st.drawn.append(card)
            if events is not None:
                events.append({"type": "draw", "seat": seat, "left": len(st.draw)})
        elif action < LITTER:
            p = action - COLLECT
            collector = min(c for c in hand if c in st.collectors)
            hand.remove(collector)
            if collector in known:
                known.remove(collector)
            taken = st.piles[p]
            st.piles[p] = [collector]
            hand.extend(taken)
            known.extend(taken)
            if events is not None:
                events.append(
                    {
                        "type": "collect",
                        "seat": seat,
                        "pile": p,
                        "collector": card_name(collector),
                        "cards": card_names(taken),
                    }
                )
        elif action < TRASH:
            card = action - LITTER
            hand.remove(card)
            if card in known:
                known.remove(card)
            st.piles.append([card])
            finished_hand = not hand
            if events is not None:
                events.append({"type": "litter", "seat": seat, "card": card_name(card), "pile": len(st.piles) - 1})
        else:
            swap = action >= SWAP
            rest = action - (SWAP if swap else TRASH)
            p, rank = divmod(rest >> 4, 13)
            cards = cards_of(rank, rest & 15)
            for c in cards:
                hand.remove(c)
                if c in known:
                    known.remove(c)
            pile = st.piles[p]
            if swap:
                k = len(cards)
                taken = pile[-k:]
                del pile[-k:]
                pile.extend(cards)
                hand.extend(taken)
                known.extend(taken)
                if events is not None:
                    events.append(
                        {
                            "type": "swap",
                            "seat": seat,
                            "pile": p,
                            "cards": card_names(cards),
                            "taken": card_names(taken),
                        }
                    )
            else:
                picked: int | None = None
                if pile[-1] in st.collectors:
                    # ¶ trashplayoncollector: the Collector goes to the hand (so this is never a win).
                    picked = pile.pop()
                    hand.append(picked)
                    known.append(picked)
                pile.extend(cards)
                finished_hand = not hand
                four = finished_hand and len(cards) == 4
                if events is not None:
                    events.append(
                        {
                            "type": "trash",
                            "seat": seat,
                            "pile": p,
                            "cards": card_names(cards),
                            "collector": None if picked is None else card_name(picked),
                        }
                    )
        st.turns[seat] += 1
        if four:
            st.winner = seat
            scoring.finish(st, "win", events)
            return
        if finished_hand:
            st.alive[seat] = False
            st.out.append(seat)
            if events is not None:
                events.append({"type": "out", "seat": seat})
            if sum(st.alive) <= 1:
                scoring.finish(st, "last_player", events)
                return
        if st.turns[seat] >= TURN_LIMIT and all(st.turns[s] >= TURN_LIMIT for s in range(st.seats) if st.alive[s]):
            scoring.finish(st, "turn_limit", events)
            return
        n = st.seats
        nxt = (seat + 1) % n
        while not st.alive[nxt]:
            nxt = (nxt + 1) % n
        st.turn = nxt

    apply_fast = _apply
    """The unchecked path is ``_apply`` itself with no events."""

    # ================================================================= outcome
    def outcome(self, state: TrashState) -> Outcome | None:
        if state.placements is None:
            return None
        return Outcome(tuple(state.placements), (), state.winner < 0, None)

    def describe_action(self, state: TrashState, seat: Seat, action: Action) -> dict[str, Any]:
        label = notation.describe_action(action)
        return label if label is not None else super().describe_action(state, seat, action)

    # ================================================================= views
    def view(self, state: TrashState, seat: Seat | None) -> View:
        if seat is not None:
            check_seat(seat, state.seats)
        return views.view(state, seat, self._last(state))

    def views(self, state: TrashState, seats: Sequence[Seat | None]) -> list[View]:
        """Every seat's view, with what they share (all but the hand) built once."""
        for seat in seats:
            if seat is not None:
                check_seat(seat, state.seats)
        public = views.public_view(state, self._last(state))
        return [views.seat_view(state, seat, public) for seat in seats]

    def _last(self, st: TrashState) -> dict[str, Any] | None:
        if not st.log:
            return None
        seat, action = st.log[-1]
        entry = {"seat": seat, **self.action_json(st, action)}
        entry["label"] = self.describe_action(st, seat, action)
        return entry

    def report(self, state: TrashState) -> dict[str, Any]:
        return views.report(state)

    # ================================================================= JSON actions and histories
    def parse_action(self, state: TrashState, seat: Seat, message: Mapping[str, Any]) -> Action:
        return notation.parse_action(state, message)

    def action_json(self, state: TrashState, action: Action) -> dict[str, Any]:
        return notation.action_json(action)

    def history_setup(self, state: TrashState) -> dict[str, Any]:
        setup: dict[str, Any] = {"first": state.first}
        if state.preset is not None:
            setup["deal"] = state.preset
        return setup

    # ================================================================= search support
    def bot_knowledge(self) -> BotKnowledge:
        """The easy and normal policies and the search hooks of ``bots.py``, for the generic bots."""
        return KNOWLEDGE

    def clone(self, state: TrashState) -> TrashState:
        return sampling.clone_state(state)

    def infoset_key(self, state: TrashState, seat: Seat) -> Hashable:
        return sampling.infoset_key(state, seat)

    def unseen_cards(self, state: TrashState, seat: Seat) -> list[int]:
        """Cards whose place ``seat`` does not know (``sampling.unseen_cards``)."""
        return sampling.unseen_cards(state, seat)

    def resample(self, state: TrashState, seat: Seat, rng: random.Random) -> TrashState:
        return sampling.resample(state, seat, rng)
