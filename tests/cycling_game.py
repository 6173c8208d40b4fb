"""A test-only game whose play can cycle for ever (issue 26), for the guard against endless matches.

Seats name suits in turn; a seat that names the suit the previous seat named wins. With ``endless`` (the default) a
seat may never name the previous seat's suit, so no way of playing ends: every bot level would play for ever without
the platform's guard. The game declares its longest match (``longest`` decisions, ``Game.max_decisions``).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping
from dataclasses import dataclass

from sefode.engine import (
    JSON,
    Action,
    Event,
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
from sefode.match import MatchGame, MatchState, Phase

SUITS = "cdhs"


@dataclass
class CycleState(MatchState):
    turn: int = 0
    last: int | None = None
    winner: int | None = None


class Cycle(MatchGame[CycleState]):
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
        values = self.validate_options(dict(options))
        players = int(values["players"])
        return CycleState(seed=seed, rng=random.Random(seed), options=values, seats=players, phase=Phase.PLAYING)

    def awaiting(self, state: CycleState) -> frozenset[Seat]:
        return frozenset() if state.over else frozenset({state.turn})

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
            state.phase = Phase.OVER
        state.last = action
        state.log.append((seat, action))
        state.turn = (state.turn + 1) % state.seats

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
        return Outcome(tuple(1 if s == state.winner else 2 for s in range(state.seats)))

    def view(self, state: CycleState, seat: Seat | None) -> View:
        return {"turn": state.turn, "last": None if state.last is None else SUITS[state.last], "n": len(state.log)}

    def report(self, state: CycleState) -> dict[str, JSON]:
        return {"named": [SUITS[a] for _, a in state.log], "winner": state.winner}

    def history_setup(self, state: CycleState) -> dict[str, JSON]:
        return {}

    def clone(self, state: CycleState) -> CycleState:
        return CycleState(
            seed=state.seed,
            rng=state.copy_rng(),
            options=state.options,
            seats=state.seats,
            phase=state.phase,
            log=state.log[:],
            turn=state.turn,
            last=state.last,
            winner=state.winner,
        )

    def infoset_key(self, state: CycleState, seat: Seat) -> Hashable:
        return (state.turn, state.last, len(state.log), state.winner)

    def resample(self, state: CycleState, seat: Seat, rng: random.Random) -> CycleState:
        return self.clone(state)
