"""Fodinha family engine: Se Fode (seed 002, with Se Fode Junto pairs) and 7 Letras (seed 000).

Actions are integers:

* ``0 .. 79`` play the card with that code (see ``sefode.cards``);
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
from sefode.cards import TRUCO_DECK_SIZE, CardError, names, truco_code, truco_name
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
    SeatStatus,
    Variant,
    View,
    check_seat,
)
from sefode.games.fodinha.bots import KNOWLEDGE
from sefode.games.fodinha.options import SETE_LETRAS_LIMIT, parse_options
from sefode.games.fodinha.rules import BID as BID
from sefode.games.fodinha.rules import (
    FIXED_MANILHAS,
    SEFODE_STRENGTH_1,
    SEFODE_STRENGTH_2,
    manilha_rank,
    next_hand_size,
    sete_letras_strength,
    trick_winner_all,
    trick_winner_pairs,
)
from sefode.games.fodinha.rules import JOIN as JOIN
from sefode.games.fodinha.rules import LEAVE as LEAVE
from sefode.games.fodinha.rules import SHOW as SHOW
from sefode.games.fodinha.state import BIDDING, OVER, PLAYING, FodinhaState, HandRecord, Trick

MAX_SEATS = 8

_NOBODY: frozenset[Seat] = frozenset()
_ONLY: tuple[frozenset[Seat], ...] = tuple(frozenset((s,)) for s in range(MAX_SEATS))
"""What ``awaiting`` returns: shared sets, not a new one per call (it runs before every decision)."""


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


def _deal_cards_error(deal: Mapping[str, Any], decks: int) -> str | None:
    """What is wrong with a preset deal's cards regardless of when it is dealt: a name that is not a card, or a
    card dealt more often than the ``decks`` hold (hands and vira together). Sizes and seats are checked when the
    hand is dealt (they depend on the match so far)."""
    seen: dict[int, int] = {}
    cards: list[object] = []
    for hand in deal["hands"]:
        if hand is None:
            continue
        if not isinstance(hand, list):
            return f"every entry of 'hands' is a list of cards or null, not {type(hand).__name__}"
        cards.extend(hand)
    if deal.get("vira") is not None:
        cards.append(deal["vira"])
    for name in cards:
        try:
            base = truco_code(name)
        except CardError as err:
            return str(err)
        seen[base] = seen.get(base, 0) + 1
        if seen[base] > decks:
            return f"{name} is dealt more often than the {decks} deck(s) hold"
    return None


class Fodinha(Game[FodinhaState]):
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
        setup = dict(setup or {})
        unknown = sorted(k for k in setup if k not in ("dealer", "deals"))
        if unknown:
            raise InvalidOptions(f"unknown setup key(s) {', '.join(unknown)}; Fodinha takes dealer, deals")
        n = opts.players
        rng = random.Random(seed)
        dealer_raw = setup.get("dealer")
        # The first dealer is always drawn, even when the setup fixes it, so that the deals that follow
        # depend on the seed alone: an exported history (which names the dealer) replays the same match.
        dealer = rng.randrange(n)
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
            error = _deal_cards_error(deal, opts.decks)
            if error is not None:  # every given deal is checked now, not only when its hand comes
                raise InvalidOptions(f"deals[{i}]: {error}")
            presets[i + 1] = deal
        units = n // 2 if opts.teams else n
        state = FodinhaState(
            opts=opts,
            seed=seed,
            rng=rng,
            n=n,
            unit=[s % units for s in range(n)],
            units=units,
            score=[opts.pool] * units,
            alive=[True] * n,
            first_dealer=dealer,
            dealer=dealer,
            presets=presets,
            leaving=[False] * n,
            out_key=[None] * units,
        )
        self._start_hand(state, 1, True, None)
        first = presets.get(1)
        late_join = opts.sete_letras and first is not None and len(first["hands"]) == n + 1
        if state.deal_error is not None and not late_join:
            # A 7 Letras first deal for one seat more waits for a join; any other bad deal is refused now.
            raise InvalidOptions(state.deal_error)
        return state

    def options(self, state: FodinhaState) -> dict[str, Any]:
        return state.opts.to_json()

    def match_seed(self, state: FodinhaState) -> int:
        return state.seed

    def seats(self, state: FodinhaState) -> int:
        return state.n

    # ================================================================= dealing
    def _start_hand(self, st: FodinhaState, size: int, climbing: bool, events: list[Event] | None) -> None:
        st.hand_no += 1
        st.size = size
        st.climbing = climbing
        n = st.n
        d = st.dealer
        alive = st.alive
        order = [s % n for s in range(d + 1, d + 1 + n) if alive[s % n]]
        st.order = order
        nxt = [-1] * n
        prev = order[-1]
        for s in order:
            nxt[prev] = s
            prev = s
        st.nxt = nxt
        self._deal(st)
        st.phase = BIDDING
        st.bids = [-1] * n
        st.nbids = 0
        st.turn = order[0]
        st.leader = order[0]
        st.trick = []
        st.acc = 0
        st.last_winner = -1
        st.won = [0] * n
        st.tricks = []
        st.shown = [False] * n
        if events is not None:
            events.append(
                {
                    "type": "deal",
                    "hand": st.hand_no,
                    "dealer": d,
                    "cards": size,
                    "vira": self._visible_vira(st),
                }
            )

    def _deal(self, st: FodinhaState) -> None:
        """Deal the hand in progress: from a preset (hand history) if one fits, else from the rng."""
        size = st.size
        st.hands = [[] for _ in range(st.n)]
        st.deal_error = None
        preset = st.presets.get(st.hand_no)
        if preset is not None:
            error = self._deal_preset(st, preset)
            if error is None:
                return
            st.deal_error = f"deals[{st.hand_no - 1}]: {error}"
        deck = self._draw(st)
        pos = 0
        for s in st.order:
            st.hands[s] = deck[pos : pos + size]
            pos += size
        if st.opts.sete_letras:
            st.vira = deck[pos]
            st.strength = sete_letras_strength(st.vira)
        else:
            st.vira = -1
            st.strength = SEFODE_STRENGTH_2 if st.opts.decks == 2 else SEFODE_STRENGTH_1
        st.dealt = [h[:] for h in st.hands]

    def _deal_preset(self, st: FodinhaState, preset: dict[str, Any]) -> str | None:
        hands = preset["hands"]
        if len(hands) != st.n:
            return f"'hands' lists {len(hands)} seats but the table has {st.n}"
        copies = st.opts.decks
        used: dict[int, int] = {}

        def take(name: object) -> int:
            base = truco_code(name)
            copy = used.get(base, 0)
            if copy >= copies:
                raise CardError(f"{name} is dealt more often than the {copies} deck(s) hold")
            used[base] = copy + 1
            return base + copy * TRUCO_DECK_SIZE

        new_hands: list[list[int]] = [[] for _ in range(st.n)]
        try:
            for s in range(st.n):
                cards = hands[s]
                if s not in st.order:
                    if cards is not None:
                        return f"seat {s} is out but is dealt cards"
                    continue
                if not isinstance(cards, list) or len(cards) != st.size:
                    got = len(cards) if isinstance(cards, list) else cards
                    return f"seat {s} must get {st.size} card(s) in hand {st.hand_no}, got {got!r}"
                new_hands[s] = [take(c) for c in cards]
            vira = -1
            if st.opts.sete_letras:
                if "vira" not in preset:
                    return "a 7 Letras deal must give the 'vira' card"
                vira = take(preset["vira"])
            elif preset.get("vira") is not None:
                return "Se Fode has no vira; remove 'vira' from the deal"
        except CardError as err:
            return str(err)
        st.hands = new_hands
        st.vira = vira
        if st.opts.sete_letras:
            st.strength = sete_letras_strength(vira)
        else:
            st.strength = SEFODE_STRENGTH_2 if st.opts.decks == 2 else SEFODE_STRENGTH_1
        st.dealt = [h[:] for h in new_hands]
        # Advance the generator as a random deal would, so later hands do not depend on presets.
        self._draw(st)
        return None

    @staticmethod
    def _draw(st: FodinhaState) -> list[int]:
        """The cards of a random deal: one hand per seat in ``order``, then the vira (7 Letras)."""
        wanted = len(st.order) * st.size + (1 if st.opts.sete_letras else 0)
        return st.rng.sample(range(TRUCO_DECK_SIZE * st.opts.decks), wanted)

    @staticmethod
    def _visible_vira(st: FodinhaState) -> str | None:
        if st.vira < 0 or (st.size == 1 and st.phase != OVER):
            return None
        return truco_name(st.vira)

    # ================================================================= turns
    def awaiting(self, state: FodinhaState) -> frozenset[Seat]:
        turn = state.turn
        return _NOBODY if turn < 0 else _ONLY[turn]

    def forbidden_bid(self, st: FodinhaState) -> int | None:
        """The pé rule: the value the last bidder may not choose, if it is their turn to bid."""
        if st.phase != BIDDING or st.nbids != len(st.order) - 1:
            return None
        if st.opts.sete_letras and st.size == 1:
            return None
        rest = st.size - sum(b for b in st.bids if b >= 0)
        return rest if 0 <= rest <= st.size else None

    def legal_actions(self, state: FodinhaState, seat: Seat) -> list[Action]:
        if seat != state.turn:
            return []
        if state.phase == PLAYING:
            return state.hands[seat][:]
        actions = list(range(BID, BID + state.size + 1))
        if state.nbids == len(state.order) - 1:
            forbidden = self.forbidden_bid(state)
            if forbidden is not None:
                del actions[forbidden]
        return actions

    def stand_in_seats(self, state: FodinhaState) -> frozenset[Seat]:
        return frozenset(s for s in range(state.n) if state.leaving[s] and state.alive[s])

    def seat_status(self, state: FodinhaState) -> list[SeatStatus]:
        """Out of lives first (a seat that left and then lost its last life is out), then left, else playing."""
        return [
            SeatStatus.OUT if not state.alive[s] else SeatStatus.LEFT if state.leaving[s] else SeatStatus.PLAYING
            for s in range(state.n)
        ]

    # ================================================================= applying
    def apply(self, state: FodinhaState, seat: Seat, action: Action) -> list[Event]:
        st = state
        if st.phase == OVER:
            raise MatchOver("the match is over", "action/match_over")
        if isinstance(action, bool) or not isinstance(action, int):
            raise _bad(f"an action is a whole number, not {action!r}", "action/invalid")
        if action == JOIN:
            return self._join(st, seat)
        check_seat(seat, st.n)
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
        if st.phase == BIDDING:
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
            if len(st.trick) == len(st.order):
                self._resolve_trick(st, events)
            else:
                st.turn = st.nxt[seat]
            return
        st.bids[seat] = action - BID
        st.nbids += 1
        if events is not None:
            events.append({"type": "bid", "seat": seat, "bid": action - BID})
        if st.nbids < len(st.order):
            st.turn = st.order[st.nbids]
            return
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
            self._resolve_trick(st, events)

    apply_fast = _apply
    """The unchecked path is ``_apply`` itself with no events: one call less per decision in search."""

    def _resolve_trick(self, st: FodinhaState, events: list[Event] | None) -> None:
        plays = st.trick
        sete_letras = st.opts.sete_letras
        if sete_letras:
            index = trick_winner_all(plays, st.strength)
        else:
            index = trick_winner_pairs(plays, st.strength)
        value = 1 + st.acc
        leader = st.leader
        if index < 0:
            trick = Trick(leader, plays, None, value, None, st.hand_no)
            st.acc = value
            # Se Fode: the seat that opened the bids leads again; 7 Letras: the cancelled trick's leader.
            st.leader = leader if sete_letras else st.order[0]
        else:
            winner = plays[index][0]
            trick = Trick(leader, plays, winner, value, winner, st.hand_no)
            if st.acc:
                for earlier in reversed(st.tricks):
                    if earlier.winner is not None:
                        break
                    earlier.taken_by = winner
            st.won[winner] += value
            st.acc = 0
            st.last_winner = winner
            st.leader = winner
        st.tricks.append(trick)
        st.match_tricks.append(trick)
        st.trick = []
        if events is not None:
            events.append(
                {
                    "type": "trick",
                    "leader": leader,
                    "plays": [[s, truco_name(c)] for s, c in plays],
                    "winner": trick.winner,
                    "value": value,
                }
            )
        if st.hands[st.leader]:
            st.turn = st.leader
        else:
            self._end_hand(st, events)

    def _end_hand(self, st: FodinhaState, events: list[Event] | None) -> None:
        opts = st.opts
        bolo: dict[str, Any] | None = None
        if st.acc:
            if not opts.sete_letras and st.last_winner >= 0:
                taker: int | None = st.last_winner
                st.won[st.last_winner] += st.acc
            else:
                taker = None
            for earlier in reversed(st.tricks):
                if earlier.winner is not None:
                    break
                earlier.taken_by = taker
            bolo = {"seat": taker, "value": st.acc}
            if events is not None:
                events.append({"type": "bolo", "seat": taker, "value": st.acc})
            st.acc = 0
        # Score by unit (a pair adds its partners' bids and tricks).
        n = st.n
        units = st.units
        unit = st.unit
        bids = st.bids
        won = st.won
        alive = st.alive
        sete_letras = opts.sete_letras
        unit_bid = [0] * units
        unit_won = [0] * units
        in_hand = [False] * units
        in_order = [False] * n
        for s in st.order:
            in_order[s] = True
            u = unit[s]
            unit_bid[u] += bids[s]
            unit_won[u] += won[s]
            in_hand[u] = True
        new_score = st.score[:]
        busted: list[int] = []
        for u in range(units):
            if not in_hand[u]:
                continue
            if sete_letras:
                new_score[u] += 1 if unit_bid[u] != unit_won[u] else 0
                if new_score[u] >= SETE_LETRAS_LIMIT:
                    busted.append(u)
            else:
                new_score[u] -= abs(unit_bid[u] - unit_won[u])
                if new_score[u] <= 0:
                    busted.append(u)
        forfeits = [] if opts.teams or True not in st.leaving else [s for s in st.order if st.leaving[s]]
        staying = [u for u in range(units) if in_hand[u] and u not in forfeits] if busted else []
        void = bool(staying) and all(u in busted for u in staying)
        out_units: list[int] = []
        if not void:
            st.score = new_score
            out_units = busted
        if forfeits:
            out_units = sorted(set(out_units) | set(forfeits))
        for u in out_units:
            if u not in forfeits:
                st.out_key[u] = (2 * st.hand_no + 1, self._left_value(st, u))
        out_seats = [s for s in range(n) if alive[s] and unit[s] in out_units] if out_units else []
        for s in out_seats:
            alive[s] = False
        score = st.score
        if void:
            score_record: list[int | None] = [score[unit[s]] if in_order[s] else None for s in range(n)]
        else:
            score_record = [score[unit[s]] if (alive[s] or s in out_seats) else None for s in range(n)]
        bids_record: list[int | None] = [bids[s] if in_order[s] else None for s in range(n)]
        won_record: list[int | None] = [won[s] if in_order[s] else None for s in range(n)]
        st.records.append(
            HandRecord(
                number=st.hand_no,
                dealer=st.dealer,
                cards=st.size,
                vira=st.vira,
                bids=bids_record,
                tricks=st.tricks,
                won=won_record,
                score=score_record,
                out=out_seats,
                void=void,
                bolo=bolo,
                dealt=[h[:] for h in st.dealt],
            )
        )
        if events is not None:
            events.append(
                {
                    "type": "hand_end",
                    "hand": st.hand_no,
                    "bids": bids_record[:],
                    "won": won_record[:],
                    "score": score_record,
                    "out": out_seats,
                    "void": void,
                }
            )
        alive_units = {unit[s] for s in range(n) if alive[s]}
        if len(alive_units) <= 1:
            self._finish(st, events)
            return
        most = opts.fits(sum(st.alive))
        if void:
            size, climbing = min(st.size, most), st.climbing
        elif out_units and not opts.sete_letras:
            size, climbing = 1, True
        else:
            size, climbing = next_hand_size(st.size, st.climbing, most)
        st.dealer = self._next_alive(st, st.dealer)
        self._start_hand(st, size, climbing, events)

    @staticmethod
    def _left_value(st: FodinhaState, unit: int) -> int:
        """What a unit has left, oriented so that bigger is better (lives, or fewer points)."""
        return -st.score[unit] if st.opts.sete_letras else st.score[unit]

    @staticmethod
    def _next_alive(st: FodinhaState, seat: int) -> int:
        for k in range(1, st.n + 1):
            s = (seat + k) % st.n
            if st.alive[s]:
                return s
        return seat

    def _finish(self, st: FodinhaState, events: list[Event] | None) -> None:
        st.phase = OVER
        st.turn = -1
        st.hands = [[] for _ in range(st.n)]
        keys: list[tuple[int, int]] = []
        for u in range(st.units):
            key = st.out_key[u]
            keys.append(key if key is not None else (1 << 30, 0))
        for s, (hand, order) in st.left_key.items():
            if not st.opts.teams:
                keys[st.unit[s]] = (2 * hand, order)
        unit_place = [1 + sum(1 for other in keys if other > key) for key in keys]
        placements = [unit_place[st.unit[s]] for s in range(st.n)]
        for s, place in st.reserved.items():
            placements[s] = max(place, placements[s])
        st.placements = placements
        if events is not None:
            events.append({"type": "match_end", "placements": placements})

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
            alive_units = {st.unit[s] for s in range(st.n) if st.alive[s]}
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
        if st.n >= MAX_SEATS:
            raise _bad(f"the table is full ({MAX_SEATS} seats)", "action/table_full")
        if seat != st.n:
            raise _bad(f"a late player takes the next seat, {st.n}, not {seat!r}", "action/bad_seat")
        if st.phase != BIDDING or st.nbids or any(st.shown):
            raise _bad("a late player may join only at a round boundary, before any bid", "action/not_boundary")
        alive_points = sorted({st.score[s] for s in range(st.n) if st.alive[s]}, reverse=True)
        points = alive_points[1] if len(alive_points) > 1 else alive_points[0]
        st.log.append((seat, JOIN))
        st.n += 1
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
        self._start_hand(st, size, st.climbing, events)
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
        return tuple(tuple(s for s in range(state.n) if state.unit[s] == u) for u in range(state.units))

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
    def outcome(self, state: FodinhaState) -> Outcome | None:
        if state.placements is None:
            return None
        if state.opts.sete_letras:
            scores = tuple(state.score[state.unit[s]] for s in range(state.n))
        else:
            scores = tuple(max(0, state.score[state.unit[s]]) for s in range(state.n))
        return Outcome(tuple(state.placements), self.units(state), False, scores)

    # ================================================================= views
    def _sees(self, st: FodinhaState, viewer: int | None, owner: int) -> bool:
        """May ``viewer`` (None: spectator) see the hand ``owner`` holds now?"""
        if st.shown[owner] and st.size > 1:
            return True
        if viewer is None:
            return False
        if st.size == 1:
            return viewer != owner and viewer < st.n and st.alive[viewer] and viewer in st.order
        return viewer == owner

    def view(self, state: FodinhaState, seat: Seat | None) -> View:
        if seat is not None:
            check_seat(seat, state.n)
        return self._seat_view(state, seat, self._public_view(state))

    def views(self, state: FodinhaState, seats: Sequence[Seat | None]) -> list[View]:
        """Every seat's view, with what they share (all but the hands and the legal actions) built once."""
        for seat in seats:
            if seat is not None:
                check_seat(seat, state.n)
        public = self._public_view(state)
        return [self._seat_view(state, seat, public) for seat in seats]

    def _seat_view(self, st: FodinhaState, seat: Seat | None, public: dict[str, Any]) -> View:
        hands: list[list[str] | None] = []
        for owner in range(st.n):
            hands.append(names(st.hands[owner]) if st.phase != OVER and self._sees(st, seat, owner) else None)
        legal = [self.action_json(st, a) for a in self.legal_actions(st, seat)] if seat is not None else []
        return {**public, "seat": seat, "hands": hands, "legal": legal}

    def _public_view(self, st: FodinhaState) -> dict[str, Any]:
        """The part of the view every seat and spectator sees alike (``hands``, ``legal`` and ``seat`` are
        placeholders that ``_seat_view`` fills)."""
        vira = self._visible_vira(st)
        forbidden = self.forbidden_bid(st)
        seat = None
        hands = None
        legal: list[Any] = []
        return {
            "game": self.name,
            "variant": st.opts.variant,
            "options": st.opts.to_json(),
            "seat": seat,
            "seats": st.n,
            "teams": [st.unit[s] for s in range(st.n)] if st.opts.teams else None,
            "phase": st.phase,
            "hand_number": st.hand_no,
            "cards": st.size,
            "dealer": st.dealer,
            "turn": st.turn if st.turn >= 0 else None,
            "vira": vira,
            "vira_hidden": st.opts.sete_letras and vira is None and st.phase != OVER,
            "manilhas": self._manilhas(st, vira),
            "hands": hands,
            "hand_counts": [len(h) for h in st.hands],
            "bids": [b if b >= 0 else None for b in st.bids],
            "forbidden_bid": forbidden,
            "won": list(st.won),
            "trick": [[s, truco_name(c)] for s, c in st.trick],
            "leader": st.leader,
            "trick_value": 1 + st.acc,
            "tricks": [self._trick_json(t) for t in st.tricks],
            "match_tricks": self._grouped(st),
            "scores": [st.score[st.unit[s]] for s in range(st.n)],
            "alive": list(st.alive),
            "left": list(st.leaving),
            "shown": list(st.shown),
            "last_hand": self._record_json(st.records[-1]) if st.records else None,
            "legal": legal,
            "placements": st.placements,
        }

    @staticmethod
    def _manilhas(st: FodinhaState, vira: str | None) -> list[str] | None:
        if not st.opts.sete_letras:
            return list(FIXED_MANILHAS)
        if vira is None:
            return None
        rank = "4567QJKA23"[manilha_rank(st.vira)]
        return [rank + suit for suit in "chsd"]

    @staticmethod
    def _trick_json(t: Trick) -> dict[str, Any]:
        return {
            "leader": t.leader,
            "plays": [[s, truco_name(c)] for s, c in t.plays],
            "winner": t.winner,
            "value": t.value,
        }

    def _grouped(self, st: FodinhaState) -> dict[str, list[dict[str, Any]]]:
        """The match's tricks grouped under whoever took them (seed 000's audit right). Tricks of finished hands come
        from ``st.grouped_past``, built once per hand; only the hand in progress is turned into JSON each time."""
        past = len(st.match_tricks) - len(st.tricks)
        cached = st.grouped_past
        if cached is None or cached[0] != past:
            start, base = cached if cached is not None and cached[0] < past else (0, {})
            built = {key: list(entries) for key, entries in base.items()}
            for t in st.match_tricks[start:past]:
                built.setdefault(self._taker_key(t), []).append(self._hand_trick_json(t))
            cached = st.grouped_past = (past, built)
        groups = {key: list(entries) for key, entries in cached[1].items()}
        for t in st.match_tricks[past:]:
            if t.hand == st.hand_no and st.phase != OVER and t.taken_by is None and t.winner is None:
                key = "pending"
            else:
                key = self._taker_key(t)
            groups.setdefault(key, []).append(self._hand_trick_json(t))
        return groups

    @staticmethod
    def _taker_key(t: Trick) -> str:
        return "none" if t.taken_by is None else str(t.taken_by)

    def _hand_trick_json(self, t: Trick) -> dict[str, Any]:
        entry = self._trick_json(t)
        entry["hand"] = t.hand
        return entry

    def _record_json(self, r: HandRecord) -> dict[str, Any]:
        return {
            "number": r.number,
            "dealer": r.dealer,
            "cards": r.cards,
            "vira": truco_name(r.vira) if r.vira >= 0 else None,
            "bids": r.bids,
            "tricks": [self._trick_json(t) for t in r.tricks],
            "won": r.won,
            "score": r.score,
            "out": r.out,
            "void": r.void,
            "bolo": r.bolo,
        }

    def report(self, state: FodinhaState) -> dict[str, Any]:
        """Every finished hand, opened: the report also gives each seat's cards as dealt (``dealt``)."""
        hands = []
        for r in state.records:
            entry = self._record_json(r)
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
            if 0 <= seat < state.n:
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

    def history_actions(self, state: FodinhaState) -> list[dict[str, Any]]:
        out = []
        for seat, action in state.log:
            entry: dict[str, Any] = {"seat": seat}
            entry.update(self.action_json(state, action))
            out.append(entry)
        return out

    def history_setup(self, state: FodinhaState) -> dict[str, Any]:
        return {"dealer": state.first_dealer}

    # ================================================================= search support
    def bot_knowledge(self) -> BotKnowledge:
        """The easy and normal policies and the search hooks of ``bots.py``, for the generic bots."""
        return KNOWLEDGE

    def clone(self, state: FodinhaState) -> FodinhaState:
        st = state
        rng = random.Random()
        rng.setstate(st.rng.getstate())
        # Tricks of the hand in progress may still change (a bolo taken later), so they are copied.
        tricks = [Trick(t.leader, t.plays, t.winner, t.value, t.taken_by, t.hand) for t in st.tricks]
        return FodinhaState(
            opts=st.opts,
            seed=st.seed,
            rng=rng,
            n=st.n,
            unit=st.unit[:],
            units=st.units,
            score=st.score[:],
            alive=st.alive[:],
            first_dealer=st.first_dealer,
            dealer=st.dealer,
            presets=st.presets,
            hand_no=st.hand_no,
            size=st.size,
            climbing=st.climbing,
            order=st.order[:],
            nxt=st.nxt[:],
            hands=[h[:] for h in st.hands],
            dealt=[h[:] for h in st.dealt],
            vira=st.vira,
            strength=st.strength,
            phase=st.phase,
            turn=st.turn,
            bids=st.bids[:],
            nbids=st.nbids,
            leader=st.leader,
            trick=st.trick[:],
            acc=st.acc,
            last_winner=st.last_winner,
            won=st.won[:],
            tricks=tricks,
            shown=st.shown[:],
            deal_error=st.deal_error,
            records=st.records[:],
            match_tricks=st.match_tricks[: len(st.match_tricks) - len(st.tricks)] + tricks,
            log=st.log[:],
            leaving=st.leaving[:],
            left_key=dict(st.left_key),
            reserved=dict(st.reserved),
            out_key=st.out_key[:],
            placements=None if st.placements is None else st.placements[:],
            grouped_past=st.grouped_past,
        )

    def infoset_key(self, state: FodinhaState, seat: Seat) -> Hashable:
        st = state
        visible = tuple(
            tuple(sorted(c % TRUCO_DECK_SIZE for c in st.hands[o])) if self._sees(st, seat, o) else len(st.hands[o])
            for o in range(st.n)
        )
        return (
            seat,
            st.hand_no,
            st.dealer,
            tuple(st.score),
            tuple(st.alive),
            tuple(st.leaving),
            tuple(st.shown),
            self._visible_vira(st),
            visible,
            tuple(st.bids),
            tuple((t.leader, tuple((s, c % TRUCO_DECK_SIZE) for s, c in t.plays)) for t in st.tricks),
            tuple((s, c % TRUCO_DECK_SIZE) for s, c in st.trick),
        )

    def unseen_cards(self, state: FodinhaState, seat: Seat) -> list[int]:
        """Card codes whose place ``seat`` does not know (others' hidden hands, the hidden vira, its own
        forehead card, and the cards not dealt)."""
        st = state
        known: set[int] = set()
        for o in range(st.n):
            if self._sees(st, seat, o):
                known.update(st.hands[o])
        for t in st.tricks:
            known.update(c for _, c in t.plays)
        known.update(c for _, c in st.trick)
        if self._visible_vira(st) is not None:
            known.add(st.vira)
        return [c for c in range(TRUCO_DECK_SIZE * st.opts.decks) if c not in known]

    def from_view(self, view: View, seat: Seat) -> FodinhaState:
        """The hand in progress as ``seat`` sees it (``Game.from_view``): scores, bids, tricks and visible cards from
        the view; hidden hands (and a hidden vira) filled with cards nobody is seen holding, for ``resample`` to deal
        again. Past hands are not rebuilt (the bots look no further back than the scores)."""
        st = self.new_match(view["options"], 0)
        n = st.n
        if view.get("seats") != n or view.get("phase") == OVER:
            raise IllegalAction("this view is not of a match in progress", "action/invalid")
        decks = st.opts.decks
        used: dict[int, int] = {}

        def code(name: object) -> int:
            base = truco_code(name)
            copy = used.get(base, 0)
            used[base] = copy + 1
            return base + min(copy, decks - 1) * TRUCO_DECK_SIZE

        st.hand_no = int(view["hand_number"])
        st.size = int(view["cards"])
        st.dealer = int(view["dealer"])
        st.alive = [bool(a) for a in view["alive"]]
        st.leaving = [bool(x) for x in view["left"]]
        for s_ in range(n):
            st.score[st.unit[s_]] = int(view["scores"][s_])
        st.order = [s_ % n for s_ in range(st.dealer + 1, st.dealer + 1 + n) if st.alive[s_ % n]]
        st.nxt = [-1] * n
        prev = st.order[-1]
        for s_ in st.order:
            st.nxt[prev] = s_
            prev = s_
        st.phase = str(view["phase"])
        st.turn = -1 if view["turn"] is None else int(view["turn"])
        st.bids = [-1 if b is None else int(b) for b in view["bids"]]
        st.nbids = sum(1 for b in view["bids"] if b is not None)
        st.leader = int(view["leader"])
        st.acc = int(view["trick_value"]) - 1
        st.won = [int(w) for w in view["won"]]
        st.shown = [bool(x) for x in view["shown"]]
        st.tricks = [
            Trick(
                int(t["leader"]),
                [(int(p), code(c)) for p, c in t["plays"]],
                t["winner"],
                int(t["value"]),
                t["winner"],
                st.hand_no,
            )
            for t in view["tricks"]
        ]
        st.match_tricks = list(st.tricks)
        st.grouped_past = None
        st.last_winner = next((int(t.winner) for t in reversed(st.tricks) if t.winner is not None), -1)
        st.trick = [(int(p), code(c)) for p, c in view["trick"]]
        visible = view["hands"]
        hands: list[list[int]] = [[] for _ in range(n)]
        for o in range(n):
            if visible[o] is not None:
                hands[o] = [code(c) for c in visible[o]]
        if view.get("vira") is not None:
            st.vira = code(view["vira"])
        free = [c for c in range(TRUCO_DECK_SIZE * decks) if used.get(c % TRUCO_DECK_SIZE, 0) <= c // TRUCO_DECK_SIZE]
        if st.opts.sete_letras and view.get("vira") is None:
            st.vira = free.pop()
        for o in range(n):
            if visible[o] is None:
                k = int(view["hand_counts"][o])
                hands[o], free = free[:k], free[k:]
        st.hands = hands
        if st.opts.sete_letras:
            st.strength = sete_letras_strength(st.vira)
        else:
            st.vira = -1
            st.strength = SEFODE_STRENGTH_2 if decks == 2 else SEFODE_STRENGTH_1
        st.dealt = [
            [c for t in st.tricks for p, c in t.plays if p == o] + [c for p, c in st.trick if p == o] + hands[o]
            for o in range(n)
        ]
        return st

    def resample(self, state: FodinhaState, seat: Seat, rng: random.Random) -> FodinhaState:
        st = self.clone(state)
        st.rng = random.Random(rng.getrandbits(64))
        st.seed = -1  # the match seed would give every deal away
        if st.phase == OVER:
            return st
        pool = self.unseen_cards(state, seat)
        rng.shuffle(pool)
        pos = 0
        hidden = [o for o in range(st.n) if not self._sees(state, seat, o)]
        for o in hidden:
            k = len(st.hands[o])
            st.hands[o] = pool[pos : pos + k]
            pos += k
            # The record of the deal must not keep the real hidden cards either.
            st.dealt[o] = [c for t in st.tricks for s, c in t.plays if s == o] + [c for s, c in st.trick if s == o]
            st.dealt[o] += st.hands[o]
        if st.opts.sete_letras and self._visible_vira(state) is None:
            st.vira = pool[pos]
            st.strength = sete_letras_strength(st.vira)
        st.presets = {}
        return st
