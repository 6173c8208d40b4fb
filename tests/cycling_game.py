"""A test-only game whose play can cycle for ever (issue 26), for the guard against endless matches.

Seats name suits in turn; a seat that names the suit the previous seat named wins. With ``endless`` (the default) a
seat may never name the previous seat's suit, so no way of playing ends: every bot level would play for ever without
the platform's guard. The game declares its longest match (``longest`` decisions, ``Game.max_decisions``).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sefode.engine import (
    JSON,
    Action,
    Event,
    Game,
    GameSpec,
    IllegalAction,
    Information,
    NotYourTurn,
    OptionKind,
    OptionSpec,
    Outcome,
    Seat,
    View,
)

SUITS = "cdhs"


@dataclass
class CycleState:
    options: dict[str, Any]
    seed: int
    turn: int = 0
    last: int | None = None
    actions: list[tuple[int, int]] = field(default_factory=list)
    winner: int | None = None


class Cycle(Game[CycleState]):
    name = "cycle"
    spec = GameSpec(
        name="cycle",
        title="game.cycle.title",
        package="cycling_game",
        min_seats=2,
        max_seats=4,
        options=(
            OptionSpec("players", OptionKind.INT, 2, "option.players", minimum=2, maximum=4),
            OptionSpec("endless", OptionKind.BOOL, True, "option.endless"),
            OptionSpec("longest", OptionKind.INT, 40, "option.longest", minimum=1, maximum=100_000),
        ),
        information=Information.PERFECT,
    )

    def max_decisions(self, options: Mapping[str, JSON]) -> int:
        return int(options["longest"])

    def new_match(self, options: Mapping[str, JSON], seed: int, setup: Mapping[str, JSON] | None = None) -> CycleState:
        return CycleState(self.validate_options(dict(options)), seed)

    def options(self, state: CycleState) -> dict[str, JSON]:
        return dict(state.options)

    def match_seed(self, state: CycleState) -> int:
        return state.seed

    def seats(self, state: CycleState) -> int:
        return int(state.options["players"])

    def awaiting(self, state: CycleState) -> frozenset[Seat]:
        return frozenset() if state.winner is not None else frozenset({state.turn})

    def legal_actions(self, state: CycleState, seat: Seat) -> list[Action]:
        if seat not in self.awaiting(state):
            return []
        if state.options["endless"]:
            return [s for s in range(4) if s != state.last]
        return list(range(4))

    def apply(self, state: CycleState, seat: Seat, action: Action) -> list[Event]:
        if seat not in self.awaiting(state):
            raise NotYourTurn(f"it is not seat {seat}'s turn")
        if action not in self.legal_actions(state, seat):
            raise IllegalAction(f"seat {seat} may not name {SUITS[action] if 0 <= action < 4 else action}")
        self.apply_fast(state, seat, action)
        return [{"type": "named", "seat": seat, "suit": SUITS[action]}]

    def apply_fast(self, state: CycleState, seat: Seat, action: Action) -> None:
        if action == state.last:
            state.winner = seat
        state.last = action
        state.actions.append((seat, action))
        state.turn = (state.turn + 1) % self.seats(state)

    def parse_action(self, state: CycleState, seat: Seat, message: Mapping[str, JSON]) -> Action:
        suit = message.get("name")
        if not isinstance(suit, str) or suit not in SUITS or len(suit) != 1:
            raise IllegalAction('an action is {"name": "c"} with a suit c, d, h or s', "action/invalid")
        return SUITS.index(suit)

    def action_json(self, state: CycleState, action: Action) -> dict[str, JSON]:
        return {"name": SUITS[action]}

    def outcome(self, state: CycleState) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome(tuple(1 if s == state.winner else 2 for s in range(self.seats(state))))

    def view(self, state: CycleState, seat: Seat | None) -> View:
        return {"turn": state.turn, "last": None if state.last is None else SUITS[state.last], "n": len(state.actions)}

    def report(self, state: CycleState) -> dict[str, JSON]:
        return {"named": [SUITS[a] for _, a in state.actions], "winner": state.winner}

    def history_actions(self, state: CycleState) -> list[dict[str, JSON]]:
        return [{"seat": s, "name": SUITS[a]} for s, a in state.actions]

    def history_setup(self, state: CycleState) -> dict[str, JSON]:
        return {}

    def clone(self, state: CycleState) -> CycleState:
        return CycleState(dict(state.options), state.seed, state.turn, state.last, list(state.actions), state.winner)

    def infoset_key(self, state: CycleState, seat: Seat) -> Hashable:
        return (state.turn, state.last, len(state.actions), state.winner)

    def resample(self, state: CycleState, seat: Seat, rng: random.Random) -> CycleState:
        return self.clone(state)
