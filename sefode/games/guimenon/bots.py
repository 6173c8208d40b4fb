"""Guimenon knowledge for the bots: the easy and normal policies and the hard search (``Guimenon.bot_knowledge``).

Every decision reads a *determinized* state (``Seen.determinize``, i.e. ``Guimenon.resample``): the other
seat's hand and deck were dealt again from what this seat has seen, and its unconfirmed plays were
taken back, so no bot can see them even by mistake.

* **easy** plays random legal turns: random cards at random revealed Locations, then confirms.
* **normal** plans its whole secret turn greedily. Each candidate placement is tried by simulating the
  reveal with the real engine (so every ability, synergy and Location ability counts), and the board
  that results is scored by the chance of winning 2 of the 3 Locations (each Location's Star margin
  through a logistic curve whose width grows with the turns left). It keeps adding the placement that
  raises that chance most, per Moon spent, while one does. Its last turn (turn 6, :func:`last_turn_plan`) is
  weighed instead against modelled replies of the other seat (its likely plays from its hand and Moon, in this
  determinization and fresh ones), scoring the finished match as win, draw or loss with ties broken on the Star
  margin: Moon is worth nothing afterwards, so it never confirms with nothing placed while a card improves that.
* **hard** searches the simultaneous turn: it builds candidate plans for its whole turn (the normal
  plan, noisy variants, single placements, passing), then, over many determinizations of the other
  seat's hidden cards, meets each plan with the other seat's own normal plan in that determinization
  and plays the rest of the match out with a fast rollout policy; the plan with the most wins is
  played, one action at a time. Its budget is ``think_ms`` (``GuimenonHooks.think_ms``).

This module does not import the game (``game.py`` imports it): the policies and the search play through the
game object they are made for (``bot_knowledge(game)``), whose ``apply_fast`` and ``resample`` they call.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Any

from sefode.bots.knowledge import BotKnowledge, hooks_for
from sefode.bots.policies import GamePolicies
from sefode.bots.search import SearchHooks
from sefode.engine import Action, Game
from sefode.games.guimenon import rules
from sefode.games.guimenon.rules import CARDS, CONFIRM, DISCARD, PLACE, TAKE_BACK
from sefode.games.guimenon.state import LOCATIONS, TURNS, GState

Plan = list[tuple[int, int]]
"""Placements (card index, Location) in order."""


# ------------------------------------------------------------------------------------------- evaluation
def win_chance(st: GState, seat: int) -> float:
    """How likely ``seat`` is to win from this board: 2 of 3 Locations, each by a logistic of its margin."""
    if st.over:
        w = rules.winner(st)
        return 0.5 if w is None else 1.0 if w == seat else 0.0
    left = TURNS - st.turn + 1
    width = 1.2 + 1.6 * left
    p = []
    for li in range(LOCATIONS):
        if li >= st.revealed:
            p.append(0.5)
            continue
        d = rules.location_stars(st, li, seat) - rules.location_stars(st, li, 1 - seat)
        p.append(1.0 / (1.0 + math.exp(-d / width)))
    a, b, c = p
    return a * b + a * c + b * c - 2 * a * b * c


def _strip(st: GState, seat: int) -> None:
    """Take back ``seat``'s unconfirmed plays (in a copy) and let it decide again."""
    for card, _ in st.pending[seat]:
        st.moon[seat] += rules.cost(st, seat, card)
        st.hand[seat].append(card)
    st.pending[seat] = []
    st.confirmed[seat] = False


def _place(game: Game[GState], st: GState, seat: int, plan: Plan) -> bool:
    """Apply ``plan`` on top of what ``seat`` already placed; False if some step is no longer legal."""
    for card, li in plan:
        if card not in st.hand[seat] or rules.cost(st, seat, card) > st.moon[seat] or li >= st.revealed:
            return False
        if len(st.board[li][seat]) + sum(1 for _, at in st.pending[seat] if at == li) >= 4:
            return False
        game.apply_fast(st, seat, PLACE + 3 * card + li)
    return True


def _settle_discards(game: Game[GState], st: GState, seat: int) -> None:
    while st.owed[seat] and st.hand[seat]:
        game.apply_fast(st, seat, DISCARD + min(st.hand[seat], key=lambda c: keep_value(st, seat, c)))


def resolve_turn(game: Game[GState], st: GState, seat: int, plan: Plan, other_plan: Plan | None) -> GState:
    """A copy in which ``seat`` adds ``plan``, the other seat plays ``other_plan`` (None: nothing new), and
    the turn is revealed and resolved."""
    sim = st.clone()
    sim.recording = False
    sim.records = []
    other = 1 - seat
    _place(game, sim, seat, plan)
    if other_plan is not None:
        _strip(sim, other)
        _settle_discards(game, sim, other)
        _place(game, sim, other, other_plan)
    for s in (seat, other):
        if not sim.confirmed[s] and not sim.over:
            _settle_discards(game, sim, s)
            game.apply_fast(sim, s, CONFIRM)
    return sim


def keep_value(st: GState, seat: int, card: int) -> float:
    """How much a card in hand is worth keeping (the lowest is discarded first)."""
    cd = CARDS[card]
    late = st.turn >= 4
    return cd.stars + (1.5 if cd.ability is not None else 0.0) + (0.5 * cd.cost if late else -0.3 * cd.cost)


def _candidates(st: GState, seat: int) -> list[tuple[int, int]]:
    moon = st.moon[seat]
    out = []
    for card in st.hand[seat]:
        if rules.cost(st, seat, card) > moon:
            continue
        for li in range(st.revealed):
            if len(st.board[li][seat]) + sum(1 for _, at in st.pending[seat] if at == li) < 4:
                out.append((card, li))
    return out


def greedy_plan(
    game: Game[GState], st: GState, seat: int, rng: random.Random, noise: float = 0.0, opponent: Plan | None = None
) -> Plan:
    """The normal bot's turn: add the placement that raises the win chance most per Moon, while one does."""
    work = st.clone()
    work.recording = False
    work.records = []
    plan: Plan = []
    base = win_chance(resolve_turn(game, work, seat, [], opponent), seat)
    while True:
        best, best_gain, best_value = None, 1e-3, base
        for card, li in _candidates(work, seat):
            value = win_chance(resolve_turn(game, work, seat, [(card, li)], opponent), seat)
            price = max(1, rules.cost(work, seat, card))
            gain = (value - base) / math.sqrt(price) + (rng.gauss(0.0, noise) if noise else 0.0)
            if gain > best_gain:
                best, best_gain, best_value = (card, li), gain, value
        if best is None:
            return plan
        _place(game, work, seat, [best])
        plan.append(best)
        base = best_value


def next_step(st: GState, seat: int, plan: Plan) -> Action:
    """The action that moves ``seat``'s current placements toward ``plan`` (confirm once they match)."""
    if st.owed[seat]:
        return DISCARD + min(st.hand[seat], key=lambda c: keep_value(st, seat, c))
    pending = st.pending[seat]
    wanted = list(plan)
    for card, li in pending:
        if (card, li) in wanted:
            wanted.remove((card, li))
        else:
            return TAKE_BACK + card
    for card, li in wanted:
        return PLACE + 3 * card + li
    return CONFIRM


# ------------------------------------------------------------------------------------------- the last turn
LAST_TURN_REPLIES = 6
"""How many modelled replies of the other seat the normal bot weighs its last turn against."""
MARGIN_WEIGHT = 1e-3
"""The Star margin's weight in a finished match's value: small enough that it only breaks ties between results."""


def final_value(st: GState, seat: int) -> float:
    """A finished match for ``seat``: 1 a win, 0.5 a draw, 0 a loss, plus a tie-break on the total Star margin."""
    w = rules.winner(st)
    result = 0.5 if w is None else 1.0 if w == seat else 0.0
    margin = sum(rules.location_stars(st, li, seat) - rules.location_stars(st, li, 1 - seat) for li in range(LOCATIONS))
    return result + MARGIN_WEIGHT * math.tanh(margin / 10.0)


def last_turn_plan(game: Game[GState], st: GState, seat: int, rng: random.Random) -> Plan:
    """The normal bot's turn 6: each placement is weighed against modelled replies of the other seat (from its hand
    size and Moon: this determinization and fresh ones), by the finished match's result with ties broken on the Star
    margin. It keeps adding the placement that raises the expected value most (Moon is worth nothing after this
    turn), so it never confirms with nothing placed while an affordable card improves the expected result."""
    work = st.clone()
    work.recording = False
    work.records = []
    other = 1 - seat
    worlds = [work] + [game.resample(work, seat, rng) for _ in range(LAST_TURN_REPLIES - 1)]
    replies = [likely_reply(game, w, other, rng) for w in worlds]

    def value(extra: Plan) -> float:
        return sum(
            final_value(resolve_turn(game, w, seat, plan_so_far + extra, reply), seat)
            for w, reply in zip(worlds, replies, strict=True)
        ) / len(worlds)

    plan_so_far: Plan = []
    base = value([])
    while True:
        best, best_value = None, base + 1e-9
        for card, li in _candidates(_with(game, work, seat, plan_so_far), seat):
            v = value([(card, li)])
            if v > best_value:
                best, best_value = (card, li), v
        if best is None:
            return plan_so_far
        plan_so_far.append(best)
        base = best_value


def _with(game: Game[GState], st: GState, seat: int, plan: Plan) -> GState:
    sim = st.clone()
    sim.recording = False
    sim.records = []
    _place(game, sim, seat, plan)
    return sim


def likely_reply(game: Game[GState], world: GState, other: int, rng: random.Random) -> Plan:
    """What ``other`` likely plays this turn in ``world``, from its hand and Moon alone (it cannot see our plays):
    its strongest affordable cards first, each where a Location is closest to being won (the rollout policy)."""
    sim = world.clone()
    sim.recording = False
    sim.records = []
    _strip(sim, other)
    _settle_discards(game, sim, other)
    hand = sorted(
        sim.hand[other], key=lambda c: -(CARDS[c].stars + (1.0 if CARDS[c].ability else 0.0) + rng.random() * 2.0)
    )
    plan: Plan = []
    for card in hand:
        if rules.cost(sim, other, card) > sim.moon[other]:
            continue
        best, best_key = -1, 1e9
        for li in range(sim.revealed):
            if len(sim.board[li][other]) + sum(1 for _, at in sim.pending[other] if at == li) >= 4:
                continue
            d = rules.location_stars(sim, li, other) - rules.location_stars(sim, li, 1 - other)
            key = abs(d + 1.5) + rng.random() * 3.0
            if key < best_key:
                best, best_key = li, key
        if best >= 0:
            game.apply_fast(sim, other, PLACE + 3 * card + best)
            plan.append((card, best))
    return plan


# ------------------------------------------------------------------------------------------- rollouts
def rollout_turn(game: Game[GState], st: GState, seat: int, rng: random.Random) -> None:
    """A fast sensible turn: strongest cards first, each at the revealed Location closest to being won."""
    _settle_discards(game, st, seat)
    hand = sorted(
        st.hand[seat], key=lambda c: -(CARDS[c].stars + (1.0 if CARDS[c].ability else 0.0) + rng.random() * 2.0)
    )
    for card in hand:
        if rules.cost(st, seat, card) > st.moon[seat]:
            continue
        best, best_key = -1, 1e9
        for li in range(st.revealed):
            if len(st.board[li][seat]) + sum(1 for _, at in st.pending[seat] if at == li) >= 4:
                continue
            d = rules.location_stars(st, li, seat) - rules.location_stars(st, li, 1 - seat)
            key = abs(d + 1.5) + rng.random() * 3.0
            if key < best_key:
                best, best_key = li, key
        if best >= 0:
            game.apply_fast(st, seat, PLACE + 3 * card + best)
    game.apply_fast(st, seat, CONFIRM)


def rollout(game: Game[GState], st: GState, rng: random.Random) -> GState:
    while not st.over:
        for s in (0, 1):
            if not st.confirmed[s] and not st.over:
                rollout_turn(game, st, s, rng)
    return st


def random_turn_action(st: GState, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
    """One action of a random legal turn (never a take-back; confirms now and then)."""
    if st.owed[seat]:
        return rng.choice([a for a in legal if a >= DISCARD])
    places = [a for a in legal if PLACE <= a < TAKE_BACK]
    if not places or rng.random() < 0.35:
        return CONFIRM
    return rng.choice(places)


# ------------------------------------------------------------------------------------------- policies
class GuimenonPolicies(GamePolicies):
    def __init__(self, game: Game[GState]) -> None:
        self.game = game

    def easy(self, state: Any, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        return random_turn_action(state, seat, legal, rng)

    def normal(self, state: Any, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        st: GState = state
        if st.owed[seat]:
            return next_step(st, seat, [])
        if st.turn == TURNS:
            plan = [(c, li) for c, li in st.pending[seat]] + last_turn_plan(self.game, st, seat, rng)
        else:
            plan = [(c, li) for c, li in st.pending[seat]] + greedy_plan(self.game, st, seat, rng)
        action = next_step(st, seat, plan)
        return action if action in legal else CONFIRM


def search_plan(
    game: Game[GState], st: GState, seat: int, rng: random.Random, think_ms: float, max_samples: int | None = None
) -> Plan:
    """The hard bot's turn (see the module docstring)."""
    deadline = time.perf_counter() + 0.85 * think_ms / 1000.0  # leave room for the last sample
    root = st.clone()
    root.recording = False
    root.records = []
    _strip(root, seat)
    start = time.perf_counter()
    candidates: list[Plan] = [greedy_plan(game, root, seat, rng), []]
    for noise in (0.02, 0.05, 0.05, 0.1):
        if time.perf_counter() - start > 0.25 * think_ms / 1000.0:
            break  # keep most of the budget for the search itself
        candidates.append(greedy_plan(game, root, seat, rng, noise))
    for card, li in _candidates(root, seat):
        candidates.append([(card, li)])
    unique: list[Plan] = []
    for plan in candidates:
        if plan not in unique:
            unique.append(plan)
    # Keep the most promising by the one-turn estimate, then search those.
    unique.sort(key=lambda p: -win_chance(resolve_turn(game, root, seat, p, None), seat))
    plans = unique[:8]
    if len(plans) == 1:
        return plans[0]
    wins = [0.0] * len(plans)
    played = [0] * len(plans)
    samples = 0
    other = 1 - seat
    while time.perf_counter() < deadline and (max_samples is None or samples < max_samples):
        samples += 1
        world = game.resample(root, seat, rng)
        view_of_other = world.clone()
        _strip(view_of_other, seat)  # the other seat decides without seeing our plays
        answer = greedy_plan(game, view_of_other, other, rng, 0.03)
        for i, plan in enumerate(plans):
            sim = resolve_turn(game, world, seat, plan, answer)
            rollout(game, sim, rng)
            w = rules.winner(sim)
            wins[i] += 0.5 if w is None else 1.0 if w == seat else 0.0
            played[i] += 1
            if time.perf_counter() >= deadline and i + 1 < len(plans):
                break
    best = max(range(len(plans)), key=lambda i: (wins[i] / played[i] if played[i] else -1.0, -i))
    return plans[best]


class GuimenonHooks(SearchHooks):
    """The hard bot's search lives in ``shortcut``: the generic tree search does not yet know simultaneous
    turns. The plan of a turn is made once and then played one action at a time."""

    think_ms = 200.0
    max_samples: int | None = None

    def __init__(self, game: Game[GState]) -> None:
        self.game = game
        self._plans: dict[tuple[int, int, tuple[int, ...], int], Plan] = {}

    def rewards(self, root: Any, state: Any) -> list[float]:
        w = rules.winner(state) if state.over else None
        return [0.5, 0.5] if w is None else [1.0 if s == w else 0.0 for s in (0, 1)]

    def rollout(self, state: Any, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        return random_turn_action(state, seat, legal, rng)

    def shortcut(self, state: Any, seat: int, legal: Sequence[Action]) -> Action | None:
        st: GState = state
        if st.owed[seat]:
            return next_step(st, seat, [])
        board = tuple(u.uid for loc in st.board for side in loc for u in side)
        key = (seat, st.turn, tuple(sorted(st.hand[seat] + [c for c, _ in st.pending[seat]])), hash(board))
        plan = self._plans.get(key)
        if plan is None or any(p not in plan for p in st.pending[seat]):
            rng = random.Random(hash(key) & 0xFFFFFFFF)
            plan = search_plan(self.game, st, seat, rng, self.think_ms, self.max_samples)
            if len(self._plans) > 64:
                self._plans.clear()
            self._plans[key] = plan
        action = next_step(st, seat, plan)
        return action if action in legal else CONFIRM


def bot_knowledge(game: Game[GState]) -> BotKnowledge:
    """What the generic bots know of Guimenon, playing through ``game`` (``Guimenon.bot_knowledge`` keeps it)."""
    return BotKnowledge(policies=GuimenonPolicies(game), hooks=GuimenonHooks(game))


def hooks_of(game: Game[Any]) -> GuimenonHooks:
    """The hard bot's hooks that ``game`` (a Guimenon) hands the bots: to bound its search (``think_ms``,
    ``max_samples``) in tests and benchmarks."""
    hooks = hooks_for(game)
    if not isinstance(hooks, GuimenonHooks):
        raise TypeError(f"{game.name} hands the bots no Guimenon search hooks")
    return hooks
