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
* ``candidates`` -- the actions the tree considers at a decision (default: every legal action).

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
from typing import Any

from sefode.engine import Action, Game


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
) -> tuple[Action, dict[Action, int]]:
    """Search from one seat's information set; return the chosen action and the root visit counts.

    ``determinize(rng)`` gives a full state consistent with what ``seat`` knows. With ``root_stats``, it is filled
    with each root action's statistics for ``seat``: ``visits``, ``value`` (its mean reward) and the mean of each of
    the game's ``measures`` (the move analysis reads these).
    """
    clock = time.perf_counter
    deadline = clock() + think_ms / 1000.0
    root = Node()
    legal_set = set(legal)
    iterations = 0
    use_default_rewards = type(hooks).rewards is SearchHooks.rewards
    # Hooks compare a simulation with where it started; any determinization shows them the same public
    # facts (scores, hand number), so one serves as the reference for every iteration.
    start = determinize(rng)
    weighted = type(hooks).plausibility is not SearchHooks.plausibility
    prunes = type(hooks).candidates is not SearchHooks.candidates
    # The guard against endless play: no simulation goes past the game's longest match (``Game.max_decisions``). A
    # simulation cut there is valued by the game's ``rewards`` when it has them, else as even for every seat.
    remaining = max(1, game.max_decisions(game.options(start)) - len(game.history_actions(start)))
    max_depth = min(max_depth, remaining)
    while True:
        if max_iterations is not None and iterations >= max_iterations:
            break
        if iterations > 0 and clock() >= deadline:
            break
        iterations += 1
        state = _sample(determinize, seat, hooks, rng, weighted)
        node = root
        path: list[tuple[Node, int]] = []
        joint_path: list[tuple[Node, list[tuple[int, Action]]]] = []
        depth = 0
        expanded = False
        root_action: Action | None = None
        # Selection and expansion.
        while depth < max_depth and not hooks.horizon(start, state):
            waiting = game.awaiting(state)
            if not waiting:
                break
            if len(waiting) > 1:
                # A simultaneous node: every awaited seat chooses from its own statistics, none seeing the
                # others' secret choices (decoupled UCT); the joint choice leads to the child.
                if node.seat_stats is None:
                    node.seat_stats = {}
                choices: list[tuple[int, Action]] = []
                for s_ in sorted(waiting):
                    acts = game.legal_actions(state, s_)
                    if node is root and s_ == seat:
                        acts = [a for a in acts if a in legal_set] or acts
                    if not acts:
                        continue
                    action, fresh = _decoupled_choice(node.seat_stats.setdefault(s_, {}), acts, rng, exploration)
                    expanded = expanded or fresh
                    if node is root and s_ == seat:
                        root_action = action
                    choices.append((s_, action))
                if not choices:
                    break
                for s_, action in choices:
                    if s_ in game.awaiting(state):
                        game.apply_fast(state, s_, action)
                key = tuple(choices)
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = Node()
                joint_path.append((node, choices))
                path.append((child, -1))
                node = child
                depth += 1
                if expanded:
                    break
                continue
            actor = min(waiting)
            actions = game.legal_actions(state, actor)
            if node is root:
                actions = [a for a in actions if a in legal_set] or actions
            if prunes:
                actions = list(hooks.candidates(state, actor, actions)) or actions
            untried = [a for a in actions if a not in node.children]
            for a in actions:
                child = node.children.get(a)
                if child is not None:
                    child.avail += 1
            if untried:
                action = untried[rng.randrange(len(untried))]
                child = Node()
                child.avail = 1
                node.children[action] = child
                expanded = True
            else:
                best = -math.inf
                action = actions[0]
                for a in actions:
                    child = node.children[a]
                    mean = child.total[actor] / child.visits if child.total is not None and child.visits else 0.0
                    score = mean + exploration * math.sqrt(math.log(max(1, child.avail)) / child.visits)
                    if score > best:
                        best, action = score, a
                child = node.children[action]
            if node is root and actor == seat:
                root_action = action
            game.apply_fast(state, actor, action)
            path.append((child, actor))
            node = child
            depth += 1
            if expanded:
                break
        # Rollout, up to the guard.
        while depth < remaining and not hooks.horizon(start, state):
            waiting = game.awaiting(state)
            if not waiting:
                break
            actor = min(waiting)
            game.apply_fast(state, actor, hooks.rollout(state, actor, game.legal_actions(state, actor), rng))
            depth += 1
        values = placement_rewards(game, state) if use_default_rewards else hooks.rewards(start, state)
        if root_stats is not None and root_action is not None:
            figures = root_stats.setdefault(root_action, {"visits": 0.0, "value": 0.0})
            figures["visits"] += 1
            figures["value"] += values[seat]
            for name, figure in hooks.measures(start, state, seat).items():
                figures[name] = figures.get(name, 0.0) + figure
        # Backpropagation.
        for sim_node, choices in joint_path:
            assert sim_node.seat_stats is not None
            for s_, action in choices:
                entry = sim_node.seat_stats[s_][action]
                entry[0] += 1
                entry[1] += values[s_]
        for child, _ in path:
            child.visits += 1
            if child.total is None:
                child.total = list(values)
            else:
                total = child.total
                for i, v in enumerate(values):
                    total[i] += v
        root.visits += 1
    if root_stats is not None:
        for figures in root_stats.values():
            for name in figures:
                if name != "visits":
                    figures[name] /= figures["visits"]
    if root.seat_stats is not None and seat in root.seat_stats:
        counts = {a: int(e[0]) for a, e in root.seat_stats[seat].items() if a in legal_set}
    else:
        counts = {a: c.visits for a, c in root.children.items() if isinstance(a, int) and a in legal_set}
    if not counts:
        return legal[0], {}
    best_action = max(sorted(counts), key=lambda a: counts[a])
    return best_action, counts
