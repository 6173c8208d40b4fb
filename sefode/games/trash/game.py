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
from collections.abc import Hashable, Mapping
from typing import Any

from sefode.bots.knowledge import BotKnowledge
from sefode.cards import CardError, standard_code
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
    validate_options,
)
from sefode.games.trash.bots import KNOWLEDGE
from sefode.games.trash.rules import (
    ACE_CODES,
    COLLECT,
    DRAW,
    JOKER_CODES,
    LITTER,
    MAX_PILES,
    START_HAND,
    START_PILES,
    SWAP,
    TRASH,
    TURN_LIMIT,
    card_name,
    cards_of,
    deck,
    decode,
    fits_table,
    popcount,
    rank_of,
    swap_action,
    trash_action,
)
from sefode.games.trash.state import TrashOptions, TrashState

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


def _names(codes: list[int] | tuple[int, ...]) -> list[str]:
    return [card_name(c) for c in codes]


class Trash(Game[TrashState]):
    """One Man's Trash behind the one engine interface."""

    name = "trash"
    spec = SPEC

    # ================================================================= setting up
    @staticmethod
    def parse_options(raw: object) -> TrashOptions:
        values = validate_options(SPEC, raw)
        return TrashOptions(players=values["players"], jokers=values["jokers"])

    def new_match(self, options: Mapping[str, Any], seed: int, setup: Mapping[str, Any] | None = None) -> TrashState:
        opts = self.parse_options(options)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidOptions(f"seed must be a whole number, not {seed!r}")
        setup = dict(setup or {})
        unknown = sorted(str(k) for k in setup if k not in ("first", "deal"))
        if unknown:
            raise InvalidOptions(f"unknown setup key(s) {', '.join(unknown)}; One Man's Trash takes first, deal")
        n = opts.players
        rng = random.Random(seed)
        # Chance is always drawn in the same order, whatever the setup fixes, so that an exported history
        # (which names ``first``) replays the same match from the seed.
        first = rng.randrange(n)
        aces = rng.sample(ACE_CODES, 4)
        first_raw = setup.get("first")
        if first_raw is not None:
            if isinstance(first_raw, bool) or not isinstance(first_raw, int) or not 0 <= first_raw < n:
                raise InvalidOptions(f"first must be a seat from 0 to {n - 1}, not {first_raw!r}")
            first = first_raw
        deal = setup.get("deal")
        if deal is None:
            collectors = frozenset(JOKER_CODES) if opts.jokers else frozenset(aces[:2])
            cards = deck(opts.jokers, collectors)
            rng.shuffle(cards)
            hands = [cards[START_HAND * s : START_HAND * (s + 1)] for s in range(n)]
            pos = START_HAND * n
            piles = [[c] for c in cards[pos : pos + START_PILES]]
            draw = cards[pos + START_PILES :]
            preset = None
        else:
            hands, piles, draw, collectors, preset = self._preset(opts, deal, aces, rng)
        return TrashState(
            opts=opts,
            seed=seed,
            rng=rng,
            n=n,
            collectors=collectors,
            fits=fits_table(opts.jokers, collectors),
            first=first,
            hands=hands,
            piles=piles,
            draw=draw,
            known=[[] for _ in range(n)],
            alive=[True] * n,
            turn=first,
            turns=[0] * n,
            start_piles=tuple(tuple(p) for p in piles),
            dealt=[tuple(h) for h in hands],
            preset=preset,
        )

    def _preset(
        self, opts: TrashOptions, deal: object, aces: list[int], rng: random.Random
    ) -> tuple[list[list[int]], list[list[int]], list[int], frozenset[int], dict[str, Any]]:
        """Hands, piles, Draw Pile (top last) and Collectors from a history's ``deal``; InvalidOptions if wrong."""
        n = opts.players
        if not isinstance(deal, Mapping):
            raise InvalidOptions('deal must be an object {"hands": [...], "piles": [...], "draw": [...]}')
        extra = sorted(str(k) for k in deal if k not in ("hands", "piles", "draw"))
        if extra:
            raise InvalidOptions(f"unknown deal key(s) {', '.join(extra)}; a deal takes hands, piles, draw")
        raw_hands, raw_piles, raw_draw = deal.get("hands"), deal.get("piles"), deal.get("draw")
        if not isinstance(raw_hands, list) or len(raw_hands) != n:
            raise InvalidOptions(f"deal.hands must list one hand for each of the {n} seats")
        if not isinstance(raw_piles, list) or not raw_piles:
            raise InvalidOptions("deal.piles must list at least one Trash Pile")
        if len(raw_piles) > MAX_PILES:
            raise InvalidOptions(f"deal.piles may list at most {MAX_PILES} piles")
        if raw_draw is not None and not isinstance(raw_draw, list):
            raise InvalidOptions("deal.draw must be a list of cards, top card first")
        seen: set[int] = set()

        def parse(where: str, items: object, allow_empty: bool) -> list[int]:
            if not isinstance(items, list) or (not items and not allow_empty):
                raise InvalidOptions(f"deal.{where} must be a non-empty list of cards")
            out = []
            for name in items:
                try:
                    code = standard_code(name)
                except CardError as err:
                    raise InvalidOptions(f"deal.{where}: {err}") from None
                if code in JOKER_CODES and not opts.jokers:
                    raise InvalidOptions(f"deal.{where}: {name} is a joker, but this match is played without jokers")
                if code in seen:
                    raise InvalidOptions(f"deal.{where}: {name} is dealt twice")
                seen.add(code)
                out.append(code)
            return out

        hands = [parse(f"hands[{s}]", h, False) for s, h in enumerate(raw_hands)]
        piles = [parse(f"piles[{i}]", p, False) for i, p in enumerate(raw_piles)]
        draw_top_first = parse("draw", raw_draw, True) if raw_draw is not None else None
        if opts.jokers:
            collectors = frozenset(JOKER_CODES)
        else:
            named = [a for a in ACE_CODES if a in seen]
            if len(named) > 2:
                raise InvalidOptions(
                    "without jokers only two aces stay in the deck (they are the Trash Collectors); "
                    f"the deal names {len(named)}"
                )
            collectors = frozenset(named + [a for a in aces if a not in named][: 2 - len(named)])
        for i, pile in enumerate(piles):
            if len(pile) > 1 and any(c in collectors for c in pile):
                raise InvalidOptions(f"deal.piles[{i}]: a Trash Collector can only be a pile on its own")
        full = deck(opts.jokers, collectors)
        if draw_top_first is not None:
            missing = [c for c in full if c not in seen]
            if missing:
                raise InvalidOptions(
                    f"deal names {len(seen)} cards but the deck has {len(full)}: missing {' '.join(_names(missing))} "
                    "(leave 'draw' out to have the rest shuffled into the Draw Pile)"
                )
            draw = draw_top_first[::-1]
        else:
            draw = [c for c in full if c not in seen]
            rng.shuffle(draw)
        preset = {
            "hands": [_names(h) for h in hands],
            "piles": [_names(p) for p in piles],
            "draw": _names(draw[::-1]),
        }
        return hands, piles, draw, collectors, preset

    def options(self, state: TrashState) -> dict[str, Any]:
        return state.opts.to_json()

    def match_seed(self, state: TrashState) -> int:
        return state.seed

    def seats(self, state: TrashState) -> int:
        return state.n

    # ================================================================= leaving the table
    def forfeit(self, state: TrashState, seat: Seat) -> list[Event]:
        """The seat's player leaves the table: a bot plays the seat for the rest of the match, which goes on
        unchanged (One Man's Trash has no conceding). A seat already out has nothing left to hand over."""
        check_seat(seat, state.n)
        if not state.left:
            state.left = [False] * state.n
        if state.left[seat]:
            raise _bad(f"seat {seat} has already left the table", "action/already_left")
        if not state.alive[seat]:
            raise _bad(f"seat {seat} is out of the match", "action/out")
        state.left[seat] = True
        return [{"type": "leave", "seat": seat}]

    def stand_in_seats(self, state: TrashState) -> frozenset[Seat]:
        return frozenset(s for s, gone in enumerate(state.left) if gone and state.alive[s])

    # ================================================================= turns
    def awaiting(self, state: TrashState) -> frozenset[Seat]:
        turn = state.turn
        return _NOBODY if turn < 0 else _ONLY[turn]

    def collector_on_table(self, st: TrashState) -> bool:
        collectors = st.collectors
        return any(p[-1] in collectors for p in st.piles)

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
        if st.turn < 0:
            raise MatchOver("the match is over", "action/match_over")
        if isinstance(action, bool) or not isinstance(action, int):
            raise _bad(f"an action is a whole number, not {action!r}", "action/invalid")
        check_seat(seat, st.n)
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
            raise _bad(f"you do not hold {' '.join(_names(missing))}", "action/not_in_hand")
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
                        "cards": _names(taken),
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
                        {"type": "swap", "seat": seat, "pile": p, "cards": _names(cards), "taken": _names(taken)}
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
                            "cards": _names(cards),
                            "collector": None if picked is None else card_name(picked),
                        }
                    )
        st.turns[seat] += 1
        if four:
            st.winner = seat
            self._finish(st, "win", events)
            return
        if finished_hand:
            st.alive[seat] = False
            st.out.append(seat)
            if events is not None:
                events.append({"type": "out", "seat": seat})
            if sum(st.alive) <= 1:
                self._finish(st, "last_player", events)
                return
        if st.turns[seat] >= TURN_LIMIT and all(st.turns[s] >= TURN_LIMIT for s in range(st.n) if st.alive[s]):
            self._finish(st, "turn_limit", events)
            return
        n = st.n
        nxt = (seat + 1) % n
        while not st.alive[nxt]:
            nxt = (nxt + 1) % n
        st.turn = nxt

    apply_fast = _apply
    """The unchecked path is ``_apply`` itself with no events."""

    def _finish(self, st: TrashState, reason: str, events: list[Event] | None) -> None:
        st.turn = -1
        st.reason = reason
        n = st.n
        if st.winner < 0:
            placements = [n] * n  # docs/rulings.md §3.12: nobody is placed; every seat has the last place
        else:
            placements = [0] * n
            still_in = [s for s in range(n) if st.alive[s] and s != st.winner]
            placements[st.winner] = 1
            for s in still_in:
                placements[s] = 2
            place = 2 + len(still_in)
            for s in reversed(st.out):  # a later exit above an earlier one
                placements[s] = place
                place += 1
        st.placements = placements
        if events is not None:
            events.append(
                {
                    "type": "match_end",
                    "reason": reason,
                    "winner": st.winner if st.winner >= 0 else None,
                    "no_winner": st.winner < 0,
                    "placements": placements[:],
                }
            )

    # ================================================================= outcome
    def outcome(self, state: TrashState) -> Outcome | None:
        if state.placements is None:
            return None
        return Outcome(tuple(state.placements), (), state.winner < 0, None)

    def describe_action(self, state: TrashState, seat: Seat, action: Action) -> dict[str, Any]:
        kind, p, rank, suits = decode(action)
        if kind == "draw":
            return {"key": "trash.action.draw", "params": {}, "text": "draw"}
        if kind == "collect":
            return {"key": "trash.action.collect", "params": {"pile": p + 1}, "text": f"collect pile {p + 1}"}
        if kind == "litter":
            card = card_name(rank)
            return {"key": "trash.action.litter", "params": {"card": card}, "text": f"litter {card}"}
        if kind in ("trash", "swap"):
            cards = " ".join(_names(cards_of(rank, suits)))
            verb = "trash" if kind == "trash" else "swap"
            text = f"{verb} {cards} on pile {p + 1}" if verb == "trash" else f"swap {cards} with pile {p + 1}"
            return {"key": f"trash.action.{verb}", "params": {"cards": cards, "pile": p + 1}, "text": text}
        return super().describe_action(state, seat, action)

    # ================================================================= views
    def view(self, state: TrashState, seat: Seat | None) -> View:
        st = state
        if seat is not None:
            check_seat(seat, st.n)
        over = st.turn < 0
        hand = _names(st.hands[seat]) if seat is not None and not over else None
        legal = [self.action_json(st, a) for a in self.legal_actions(st, seat)] if seat is not None else []
        return {
            "game": self.name,
            "options": st.opts.to_json(),
            "seat": seat,
            "seats": st.n,
            "first": st.first,
            "turn": st.turn if st.turn >= 0 else None,
            "piles": [_names(p) for p in st.piles],
            "collectors": _names(sorted(st.collectors)),
            "collector_on_table": self.collector_on_table(st),
            "draw_size": len(st.draw),
            "hand": hand,
            "hands": [hand if s == seat else None for s in range(st.n)],
            "hand_sizes": [len(h) for h in st.hands],
            "known": [_names(k) for k in st.known],
            "in": list(st.alive),
            "out": list(st.out),
            "turns": list(st.turns),
            "turn_limit": TURN_LIMIT,
            "legal": legal,
            "last": self._last(st),
            "over": over,
            "winner": st.winner if st.winner >= 0 else None,
            "no_winner": over and st.winner < 0,
            "reason": st.reason or None,
            "placements": st.placements,
        }

    def _last(self, st: TrashState) -> dict[str, Any] | None:
        if not st.log:
            return None
        seat, action = st.log[-1]
        entry = {"seat": seat, **self.action_json(st, action)}
        entry["label"] = self.describe_action(st, seat, action)
        return entry

    def report(self, state: TrashState) -> dict[str, Any]:
        st = state
        return {
            "winner": st.winner if st.winner >= 0 else None,
            "turns": len(st.log),
            "out": list(st.out),
            "piles": [_names(p) for p in st.piles],
            "hand_sizes": [len(h) for h in st.hands],
        }

    # ================================================================= JSON actions and histories
    def parse_action(self, state: TrashState, seat: Seat, message: Mapping[str, Any]) -> Action:
        if not isinstance(message, Mapping):
            raise _bad('an action must be a JSON object such as {"draw": true}', "action/invalid")
        keys = sorted(str(k) for k in message if k != "seat")
        kinds = [k for k in keys if k in ("draw", "trash", "collect", "litter", "swap")]
        if len(kinds) != 1:
            raise _bad(
                "exactly one action per turn: one of draw, trash, collect, litter, swap "
                f"(got {', '.join(keys) or 'none'})",
                "action/invalid",
            )
        kind = kinds[0]
        allowed = {kind, "pile"} if kind in ("trash", "swap") else {kind}
        extra = [k for k in keys if k not in allowed]
        if extra:
            raise _bad(f"'{kind}' takes no {', '.join(extra)}", "action/invalid")
        value = message[kind]
        if kind == "draw":
            if value is not True:
                raise _bad("'draw' takes the value true", "action/invalid")
            return DRAW
        if kind == "collect":
            return COLLECT + self._pile_index(value, "collect")
        if kind == "litter":
            if isinstance(value, list):
                if len(value) != 1:
                    raise _bad("a new Trash Pile is made of a single card (seed ¶ littercreate)", "action/litter_many")
                value = value[0]
            return LITTER + self._card(value)
        pile = self._pile_index(message.get("pile"), kind)
        names = [value] if isinstance(value, str) else value
        if not isinstance(names, list) or not names:
            raise _bad(f'\'{kind}\' takes a card or a list of cards, such as ["7h", "7s"]', "action/invalid")
        codes = [self._card(v) for v in names]
        if len(set(codes)) != len(codes):
            raise _bad("a card is named twice", "action/invalid")
        if any(c in JOKER_CODES or (0 <= c < 4 and c in state.collectors) for c in codes):
            raise _bad(
                "Trash Collectors cannot be trashed or swapped; collect the trash with them "
                "(seed ¶ trashplaycollector)",
                "action/collector",
            )
        ranks = {rank_of(c) for c in codes}
        if len(ranks) != 1:
            raise _bad(
                "cards trashed or swapped together must all have the same rank (seed ¶ trashmultiple)",
                "action/mixed_ranks",
            )
        rank = ranks.pop()
        suits = 0
        for c in codes:
            suits |= 1 << (c & 3)
        return trash_action(pile, rank, suits) if kind == "trash" else swap_action(pile, rank, suits)

    @staticmethod
    def _card(value: object) -> int:
        try:
            return standard_code(value)
        except CardError as err:
            raise _bad(str(err), "action/bad_card") from None

    @staticmethod
    def _pile_index(value: object, kind: str) -> int:
        if isinstance(value, list):
            if len(value) != 1:
                which = "trash on" if kind == "trash" else f"{kind}"
                raise _bad(
                    f"you may not {which} more than one Trash Pile per turn "
                    "(seed ¶ trashmultiplepiles, ¶ collectsingle)",
                    "action/two_piles",
                )
            value = value[0]
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < MAX_PILES:
            raise _bad(
                f"'{'pile' if kind in ('trash', 'swap') else kind}' must be a pile number from 0, not {value!r}",
                "action/no_such_pile",
            )
        return value

    def action_json(self, state: TrashState, action: Action) -> dict[str, Any]:
        kind, p, rank, suits = decode(action)
        if kind == "draw":
            return {"draw": True}
        if kind == "collect":
            return {"collect": p}
        if kind == "litter":
            return {"litter": card_name(rank)}
        if kind in ("trash", "swap"):
            return {kind: _names(cards_of(rank, suits)), "pile": p}
        raise _bad(f"{action} is not an action of this game", "action/invalid")

    def history_actions(self, state: TrashState) -> list[dict[str, Any]]:
        return [{"seat": seat, **self.action_json(state, action)} for seat, action in state.log]

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
        st = state
        rng = random.Random()
        rng.setstate(st.rng.getstate())
        return TrashState(
            opts=st.opts,
            seed=st.seed,
            rng=rng,
            n=st.n,
            collectors=st.collectors,
            fits=st.fits,
            first=st.first,
            hands=[h[:] for h in st.hands],
            piles=[p[:] for p in st.piles],
            draw=st.draw[:],
            known=[k[:] for k in st.known],
            alive=st.alive[:],
            turn=st.turn,
            turns=st.turns[:],
            start_piles=st.start_piles,
            dealt=st.dealt[:],
            preset=st.preset,
            out=st.out[:],
            log=st.log[:],
            drawn=st.drawn[:],
            winner=st.winner,
            reason=st.reason,
            placements=None if st.placements is None else st.placements[:],
            left=st.left[:],
        )

    def infoset_key(self, state: TrashState, seat: Seat) -> Hashable:
        st = state
        own_draws = tuple(d for (s, a), d in zip(self._draw_entries(st), st.drawn, strict=True) if s == seat)
        return (
            seat,
            st.first,
            st.start_piles,
            tuple(len(h) for h in st.dealt),
            tuple(sorted(st.dealt[seat])) if 0 <= seat < st.n else (),
            tuple(st.log),
            own_draws if 0 <= seat < st.n else (),
            tuple(sorted(st.hands[seat])) if 0 <= seat < st.n else (),
        )

    @staticmethod
    def _draw_entries(st: TrashState) -> list[tuple[int, int]]:
        return [(s, a) for s, a in st.log if a == DRAW]

    def unseen_cards(self, state: TrashState, seat: Seat) -> list[int]:
        """Cards whose place ``seat`` does not know: the others' hands less what they took from the table,
        and the Draw Pile."""
        st = state
        pool: list[int] = []
        for o in range(st.n):
            if o == seat:
                continue
            hidden = st.hands[o][:]
            for c in st.known[o]:
                hidden.remove(c)
            pool.extend(hidden)
        pool.extend(st.draw)
        return pool

    def resample(self, state: TrashState, seat: Seat, rng: random.Random) -> TrashState:
        st = self.clone(state)
        st.rng = random.Random(rng.getrandbits(64))
        st.seed = -1  # the match seed would give the deal away
        st.preset = None
        if st.turn < 0:
            return st
        pool = sorted(self.unseen_cards(state, seat))  # a function of what the seat knows, not of where they are
        rng.shuffle(pool)
        pos = 0
        for o in range(st.n):
            if o == seat:
                continue
            k = len(st.hands[o]) - len(st.known[o])
            st.hands[o] = pool[pos : pos + k] + st.known[o]
            pos += k
            st.dealt[o] = (-1,) * len(st.dealt[o])
        st.draw = pool[pos:]
        # What the others drew is unknown to ``seat``: forget it.
        drawn = st.drawn
        i = 0
        for s, a in st.log:
            if a == DRAW:
                if s != seat:
                    drawn[i] = -1
                i += 1
        return st
