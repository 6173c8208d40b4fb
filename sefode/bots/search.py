"""Information-set Monte Carlo tree search over determinizations, written against ``sefode.engine.Game`` alone.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): every iteration deals the cards the
searching seat cannot see again (``Seen.determinize``), walks one shared tree whose nodes are
sequences of actions, choosing among the actions legal *in this determinization* by UCB1 with
availability counts, adds one node, finishes the simulation with a rollout policy and backs up a
reward per seat (each seat maximises its own). The answer is the most visited action at the root.

What a game may add, through the :class:`SearchHooks` of its knowledge for the bots (``Game.bot_knowledge``):

* ``horizon`` -- where a simulation stops (default: the end of the match);
* ``rewards`` -- one reward per seat at the horizon (default: from the placements);
* ``rollout`` -- the rollout policy (default: uniformly random legal actions);
* ``shortcut`` -- an exact answer for decisions that need no search (default: none);
* ``candidates`` -- the actions the tree considers at a decision (default: every legal action);
* ``others_move`` -- a model of the other seats' moves inside the tree (default: none, they are searched by UCB1).

A game that hands over policies and no hooks is searched with its normal policy in the rollouts and as the model of
the other seats (``sefode.bots.levels.PolicyRollouts``). A game whose hooks set neither ``horizon`` nor ``rewards``
but that says where it stands (``Game.standing``: its round and each seat's score) has each simulation end where the
round ends, valued by how each seat's score moved against the others' (:class:`RoundCut`), so a budget buys many
short simulations rather than a few whole matches.

No simulation goes past the game's longest match (``Game.max_decisions``, the guard against endless play): one cut
there is valued by ``rewards`` (or, without them, as even for every seat).

Bids are searched like any other action, so a bid is chosen by Monte Carlo evaluation of how the hand
then goes. The search respects a time budget (``think_ms``) and, for reproducible tests, a cap on the
number of iterations.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sefode.engine import Action, Game, Standing


class SearchHooks:
    """Game-specific advice for the generic search. The defaults work for any game."""

    def horizon(self, root: Any, state: Any) -> bool:
        """True when a simulation that started at ``root`` should stop at ``state``."""
        return False

    def rewards(self, root: Any, state: Any) -> list[float]:
        """One reward per seat at the horizon (or at the end of the match), higher is better."""
        raise NotImplementedError

    def rollout(self, state: Any, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        return rng.choice(list(legal))

    def shortcut(self, state: Any, seat: int, legal: Sequence[Action]) -> Action | None:
        """An answer that needs no search, from a determinized state; None to search."""
        return None

    def measures(self, root: Any, state: Any, seat: int) -> dict[str, float]:
        """Figures of the game's own to average per option in a move analysis (``sefode analyse``), at the horizon
        of a simulation that started at ``root``: the chance to make a bid, say (each a value from 0 to 1 or a count).
        The default: none (the analysis shows the search's value alone)."""
        return {}

    def headline(self, state: Any, seat: int) -> bool:
        """Is ``seat``'s decision at ``state`` the one that shapes its hand (a bid, a contract)? The solo coach always
        names such a decision after the hand (``sefode.analysis.highlights``); the others only when they are marked
        mistakes. The default: no decision is."""
        return False

    def candidates(self, state: Any, seat: int, legal: Sequence[Action]) -> Sequence[Action]:
        """The actions the tree considers at a decision of ``seat`` (a non-empty subset of ``legal``): a game
        may leave out actions that are equivalent to others (suits that do not matter) or that its heuristics
        rule out. The default, every legal action."""
        return legal

    def others_move(self, state: Any, seat: int, legal: Sequence[Action], rng: random.Random) -> Action | None:
        """The move of ``seat``, a seat other than the searching one, at a sequential decision inside the tree: a
        model of how it plays (the game's normal policy, say), or None to search its decision by UCB1 as the
        searching seat's own. The default: None."""
        return None

    def plausibility(self, state: Any, seat: int) -> float:
        """How likely (0..1) the others' past decisions are in this determinization, for ``seat``'s
        search: what their bids and plays reveal. The default, 1, treats every deal as equally likely."""
        return 1.0


def placement_rewards(game: Game[Any], state: Any) -> list[float]:
    """Rewards from the placements of a finished match: 1 for first .. 0 for last."""
    outcome = game.outcome(state)
    n = game.seats(state)
    if outcome is None:
        return [0.5] * n
    return [(n - p) / max(1, n - 1) for p in outcome.placements]


class RoundCut:
    """The horizon and the rewards of a search in a game that says where it stands (``Game.standing``) and has no
    hooks of its own for them: a simulation ends once the round it started in has ended (or the match has), and each
    seat's reward is how its score moved since the root, against the mean of every seat's move. The rewards are
    scaled into 0..1 by the widest such spread this search has met so far (0.5: level with the others)."""

    __slots__ = ("base", "game", "round", "scale")

    def __init__(self, game: Game[Any], root: Standing) -> None:
        self.game = game
        self.round = root.round
        self.base = root.scores
        self.scale = 0.0

    def ended(self, state: Any) -> bool:
        standing = self.game.standing(state)
        return standing is None or standing.round != self.round

    def rewards(self, state: Any) -> list[float]:
        standing = self.game.standing(state)
        scores = standing.scores if standing is not None else self.base
        base = self.base
        moved = [score - (base[s] if s < len(base) else 0.0) for s, score in enumerate(scores)]
        mean = sum(moved) / len(moved)
        spread = [m - mean for m in moved]
        self.scale = max(self.scale, max(abs(x) for x in spread))
        if self.scale == 0.0:
            return [0.5] * len(spread)
        return [0.5 + 0.5 * x / self.scale for x in spread]


class Node:
    __slots__ = ("avail", "children", "seat_stats", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[object, Node] = {}
        """Keyed by the action, or at a simultaneous node by the joint choice ``((seat, action), ...)``."""
        self.visits = 0
        self.avail = 0
        self.total: list[float] | None = None
        self.seat_stats: dict[int, dict[Action, list[float]]] | None = None
        """At a simultaneous node: per awaited seat, per action, ``[visits, total reward, availability]``."""


def _decoupled_choice(
    stats: dict[Action, list[float]], actions: Sequence[Action], rng: random.Random, exploration: float
) -> tuple[Action, bool]:
    """One seat's choice at a simultaneous node from its own statistics alone (decoupled UCT): the others'
    choices at that node are not known to it. Returns the action and whether it was untried."""
    for a in actions:
        entry = stats.get(a)
        if entry is not None:
            entry[2] += 1
    untried = [a for a in actions if a not in stats]
    if untried:
        action = untried[rng.randrange(len(untried))]
        stats[action] = [0.0, 0.0, 1.0]
        return action, True
    best = -math.inf
    action = actions[0]
    for a in actions:
        visits, total, avail = stats[a]
        mean = total / visits if visits else 0.0
        score = mean + exploration * math.sqrt(math.log(max(1.0, avail)) / max(1.0, visits))
        if score > best:
            best, action = score, a
    return action, False


def _sample(determinize: Any, seat: int, hooks: SearchHooks, rng: random.Random, weighted: bool, tries: int = 6) -> Any:
    """A determinization, drawn by rejection in proportion to ``hooks.plausibility`` (at most ``tries``
    draws; the most plausible of them if none is accepted)."""
    state = determinize(rng)
    if not weighted:
        return state
    best, best_weight = state, -1.0
    for attempt in range(tries):
        if attempt:
            state = determinize(rng)
        weight = hooks.plausibility(state, seat)
        if rng.random() < weight:
            return state
        if weight > best_weight:
            best, best_weight = state, weight
    return best


@dataclass(slots=True)
class _Walk:
    """One iteration's way down the tree: the nodes it passed (with the seat that acted, -1 after a joint choice),
    the joint choices made at simultaneous nodes, how deep it went and the searching seat's action at the root."""

    path: list[tuple[Node, int]] = field(default_factory=list)
    joint_path: list[tuple[Node, list[tuple[int, Action]]]] = field(default_factory=list)
    depth: int = 0
    root_action: Action | None = None


@dataclass(slots=True)
class _Search:
    """What every iteration of one ``ismcts`` call shares: the tree, the searching seat and the game's advice."""

    game: Game[Any]
    seat: int
    legal_set: set[Action]
    hooks: SearchHooks
    rng: random.Random
    exploration: float
    start: Any
    """The reference determinization the hooks compare a simulation with."""
    max_depth: int
    remaining: int
    """Decisions left before the guard against endless play (``Game.max_decisions``)."""
    prunes: bool
    models: bool
    """The hooks model the other seats' moves (``SearchHooks.others_move``)."""
    cut: RoundCut | None = None
    """Where simulations end and how they are valued, from the game's standing (None: the hooks say)."""
    root: Node = field(default_factory=Node)

    def stops(self, state: Any) -> bool:
        """Has a simulation reached its horizon (the hooks', or the end of the round with a ``cut``)?"""
        return self.cut.ended(state) if self.cut is not None else self.hooks.horizon(self.start, state)

    def descend(self, state: Any) -> _Walk:
        """Selection and expansion: walk the tree by UCB1 (decoupled at simultaneous nodes), applying the actions to
        ``state``, until a node is added, the horizon is reached or the match ends."""
        game = self.game
        walk = _Walk()
        node = self.root
        while walk.depth < self.max_depth and not self.stops(state):
            waiting = game.awaiting(state)
            if not waiting:
                break
            if len(waiting) > 1:
                step = self.joint_step(state, node, waiting, walk)
                if step is None:
                    break
                node, expanded = step
            else:
                node, expanded = self.single_step(state, node, min(waiting), walk)
            walk.depth += 1
            if expanded:
                break
        return walk

    def joint_step(self, state: Any, node: Node, waiting: frozenset[int], walk: _Walk) -> tuple[Node, bool] | None:
        """A simultaneous node: every awaited seat chooses from its own statistics, none seeing the others' secret
        choices (decoupled UCT); the joint choice leads to the child. None when no awaited seat has a choice."""
        game, seat = self.game, self.seat
        if node.seat_stats is None:
            node.seat_stats = {}
        expanded = False
        choices: list[tuple[int, Action]] = []
        for s_ in sorted(waiting):
            acts = game.legal_actions(state, s_)
            if node is self.root and s_ == seat:
                acts = [a for a in acts if a in self.legal_set] or acts
            if not acts:
                continue
            action, fresh = _decoupled_choice(node.seat_stats.setdefault(s_, {}), acts, self.rng, self.exploration)
            expanded = expanded or fresh
            if node is self.root and s_ == seat:
                walk.root_action = action
            choices.append((s_, action))
        if not choices:
            return None
        for s_, action in choices:
            if s_ in game.awaiting(state):
                game.apply_fast(state, s_, action)
        key = tuple(choices)
        child = node.children.get(key)
        if child is None:
            child = node.children[key] = Node()
        walk.joint_path.append((node, choices))
        walk.path.append((child, -1))
        return child, expanded

    def single_step(self, state: Any, node: Node, actor: int, walk: _Walk) -> tuple[Node, bool]:
        """A sequential node: try an untried action (availability counted), else the best by UCB1."""
        game = self.game
        actions = game.legal_actions(state, actor)
        if self.models and actor != self.seat:
            modelled = self.hooks.others_move(state, actor, actions, self.rng)
            if modelled is not None:
                return self.modelled_step(state, node, actor, modelled, walk)
        if node is self.root:
            actions = [a for a in actions if a in self.legal_set] or actions
        if self.prunes:
            actions = list(self.hooks.candidates(state, actor, actions)) or actions
        untried = [a for a in actions if a not in node.children]
        for a in actions:
            child = node.children.get(a)
            if child is not None:
                child.avail += 1
        expanded = False
        if untried:
            action = untried[self.rng.randrange(len(untried))]
            child = Node()
            child.avail = 1
            node.children[action] = child
            expanded = True
        else:
            action = self.ucb_best(node, actor, actions)
            child = node.children[action]
        if node is self.root and actor == self.seat:
            walk.root_action = action
        game.apply_fast(state, actor, action)
        walk.path.append((child, actor))
        return child, expanded

    def modelled_step(self, state: Any, node: Node, actor: int, action: Action, walk: _Walk) -> tuple[Node, bool]:
        """Another seat's move, chosen by the hooks' model of it: the tree follows it without searching it (and a
        node reached this way is not counted as the one this iteration adds)."""
        child = node.children.get(action)
        if child is None:
            child = node.children[action] = Node()
        child.avail += 1
        self.game.apply_fast(state, actor, action)
        walk.path.append((child, actor))
        return child, False

    def ucb_best(self, node: Node, actor: int, actions: Sequence[Action]) -> Action:
        best = -math.inf
        action = actions[0]
        for a in actions:
            child = node.children[a]
            mean = child.total[actor] / child.visits if child.total is not None and child.visits else 0.0
            score = mean + self.exploration * math.sqrt(math.log(max(1, child.avail)) / child.visits)
            if score > best:
                best, action = score, a
        return action

    def rollout(self, state: Any, depth: int, deadline: float | None = None) -> bool:
        """Finish the simulation with the rollout policy, up to the horizon or the guard. With a ``deadline``, give
        up once it has passed and return False: the simulation is left unfinished."""
        game, hooks = self.game, self.hooks
        while depth < self.remaining and not self.stops(state):
            waiting = game.awaiting(state)
            if not waiting:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                return False
            actor = min(waiting)
            game.apply_fast(state, actor, hooks.rollout(state, actor, game.legal_actions(state, actor), self.rng))
            depth += 1
        return True

    def backpropagate(self, walk: _Walk, values: list[float]) -> None:
        for sim_node, choices in walk.joint_path:
            assert sim_node.seat_stats is not None
            for s_, action in choices:
                entry = sim_node.seat_stats[s_][action]
                entry[0] += 1
                entry[1] += values[s_]
        for child, _ in walk.path:
            child.visits += 1
            if child.total is None:
                child.total = list(values)
            else:
                total = child.total
                for i, v in enumerate(values):
                    total[i] += v
        self.root.visits += 1

    def root_counts(self) -> dict[Action, int]:
        """Visits of each of the searching seat's legal actions at the root."""
        root, seat = self.root, self.seat
        if root.seat_stats is not None and seat in root.seat_stats:
            return {a: int(e[0]) for a, e in root.seat_stats[seat].items() if a in self.legal_set}
        return {a: c.visits for a, c in root.children.items() if isinstance(a, int) and a in self.legal_set}


def _record_root(
    root_stats: dict[Action, dict[str, float]],
    action: Action,
    values: list[float],
    measures: dict[str, float],
    seat: int,
) -> None:
    """Add one simulation's reward and measures to the statistics of the root action it began with."""
    figures = root_stats.setdefault(action, {"visits": 0.0, "value": 0.0})
    figures["visits"] += 1
    figures["value"] += values[seat]
    for name, figure in measures.items():
        figures[name] = figures.get(name, 0.0) + figure


def _average_root(root_stats: dict[Action, dict[str, float]]) -> None:
    for figures in root_stats.values():
        for name in figures:
            if name != "visits":
                figures[name] /= figures["visits"]


def ismcts(
    game: Game[Any],
    determinize: Any,
    seat: int,
    legal: Sequence[Action],
    hooks: SearchHooks,
    rng: random.Random,
    think_ms: float,
    max_iterations: int | None = None,
    exploration: float = 0.7,
    max_depth: int = 1 << 30,
    root_stats: dict[Action, dict[str, float]] | None = None,
    strict: bool = False,
) -> tuple[Action, dict[Action, int]]:
    """Search from one seat's information set; return the chosen action and the root visit counts.

    ``strict``: a simulation still running when the budget ends is dropped, the first one too (without it the first
    always finishes, so that every call has one); with none finished, every count is 0 and the caller decides
    otherwise (the hard bot plays the game's normal policy).

    ``determinize(rng)`` gives a full state consistent with what ``seat`` knows. With ``root_stats``, it is filled
    with each root action's statistics for ``seat``: ``visits``, ``value`` (its mean reward) and the mean of each of
    the game's ``measures`` (the move analysis reads these).
    """
    clock = time.perf_counter
    deadline = clock() + think_ms / 1000.0
    iterations = 0
    use_default_rewards = type(hooks).rewards is SearchHooks.rewards
    own_horizon = type(hooks).horizon is not SearchHooks.horizon
    # Hooks compare a simulation with where it started; any determinization shows them the same public
    # facts (scores, hand number), so one serves as the reference for every iteration.
    start = determinize(rng)
    weighted = type(hooks).plausibility is not SearchHooks.plausibility
    # The guard against endless play: no simulation goes past the game's longest match (``Game.max_decisions``). A
    # simulation cut there is valued by the game's ``rewards`` when it has them, else as even for every seat.
    remaining = max(1, game.max_decisions(game.options(start)) - len(game.history_actions(start)))
    standing = None if own_horizon or not use_default_rewards else game.standing(start)
    cut = None if standing is None else RoundCut(game, standing)
    search = _Search(
        game=game,
        seat=seat,
        legal_set=set(legal),
        hooks=hooks,
        rng=rng,
        exploration=exploration,
        start=start,
        max_depth=min(max_depth, remaining),
        remaining=remaining,
        prunes=type(hooks).candidates is not SearchHooks.candidates,
        models=type(hooks).others_move is not SearchHooks.others_move,
        cut=cut,
    )
    while True:
        if max_iterations is not None and iterations >= max_iterations:
            break
        if iterations > 0 and clock() >= deadline:
            break
        iterations += 1
        state = _sample(determinize, seat, hooks, rng, weighted)
        walk = search.descend(state)
        if not search.rollout(state, walk.depth, deadline if strict else None):
            break
        if cut is not None:
            values = cut.rewards(state)
        elif use_default_rewards:
            values = placement_rewards(game, state)
        else:
            values = hooks.rewards(start, state)
        if root_stats is not None and walk.root_action is not None:
            _record_root(root_stats, walk.root_action, values, hooks.measures(start, state, seat), seat)
        search.backpropagate(walk, values)
    if root_stats is not None:
        _average_root(root_stats)
    counts = search.root_counts()
    if not counts:
        return legal[0], {}
    best_action = max(sorted(counts), key=lambda a: counts[a])
    return best_action, counts
