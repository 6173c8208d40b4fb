"""The hard bot in a game that hands over no search hooks (issue "A kit for outside game authors"): it searches with
the game's normal policy (rollouts, and the other seats' moves inside the tree, each decided from that seat's own
view), keeps to its budget, and plays the policy's move where the search shows nothing better."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from toygame import Lances

from sefode.bots.base import Seen
from sefode.bots.knowledge import BotKnowledge
from sefode.bots.levels import HardPlayer, PolicyRollouts, generic_hooks, policy_search
from sefode.bots.policies import GamePolicies
from sefode.bots.search import RoundCut, SearchHooks, ismcts
from sefode.engine import Action, Game, Standing
from sefode.games.fodinha import Fodinha
from sefode.games.fodinha.bots import FodinhaPolicies


class _Last(GamePolicies):
    """Plays the last legal action; counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def normal(self, state: Any, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        self.calls += 1
        return legal[-1]


class _PoliciesOnly(Fodinha):
    """Fodinha handing over its policies and no search hooks, as an outside author's game may."""

    def __init__(self, policies: GamePolicies | None = None) -> None:
        self.knowledge = BotKnowledge(policies=policies or FodinhaPolicies())

    def bot_knowledge(self) -> BotKnowledge:
        return self.knowledge


def _decision(game: Game[Any], at: int = 0) -> tuple[Any, int]:
    """The ``at``-th decision with a choice of a match played by random moves."""
    state = game.new_match({}, 5)
    rng = random.Random(0)
    while True:
        seat = min(game.awaiting(state))
        legal = game.legal_actions(state, seat)
        if len(legal) > 1:
            if at == 0:
                return state, seat
            at -= 1
        game.apply_fast(state, seat, rng.choice(legal))


def test_a_game_with_policies_and_no_hooks_is_searched_with_its_normal_policy() -> None:
    told = _PoliciesOnly()
    hooks = generic_hooks(told)
    assert isinstance(hooks, PolicyRollouts) and hooks.policies is told.knowledge.policies
    assert type(generic_hooks(Lances())) is SearchHooks  # neither: the plain search
    own = Fodinha()
    assert generic_hooks(own) is own.bot_knowledge().hooks  # a game's own hooks are kept
    assert isinstance(policy_search(own), PolicyRollouts)  # what the benchmark measures with the hooks off


def test_the_others_modelled_moves_are_decided_from_a_deal_of_their_own_view() -> None:
    game = _PoliciesOnly()
    state, seat = _decision(game, at=6)
    resampled_for: list[int] = []
    real = game.resample

    def recording(st: Any, for_seat: int, rng: random.Random) -> Any:
        resampled_for.append(for_seat)
        return real(st, for_seat, rng)

    game.resample = recording  # type: ignore[method-assign,assignment]
    hooks = policy_search(game)
    seen = Seen(game, state, seat)
    ismcts(game, seen.determinize, seat, seen.legal_actions(), hooks, random.Random(1), 1e7, 50)
    others = {s for s in resampled_for if s != seat}
    assert others, "no other seat's move was modelled from its own view"
    resampled_for.clear()
    assert isinstance(hooks, PolicyRollouts)
    hooks.fair = False
    ismcts(game, seen.determinize, seat, seen.legal_actions(), hooks, random.Random(1), 1e7, 50)
    assert {s for s in resampled_for if s != seat} == set()


def test_a_hard_decision_whose_budget_ends_before_any_simulation_plays_the_normal_move() -> None:
    policies = _Last()
    game = _PoliciesOnly(policies)
    state, seat = _decision(game)
    legal = game.legal_actions(state, seat)
    hard = HardPlayer(1, think_ms=1e-6)
    assert hard.choose(Seen(game, state, seat)) == legal[-1]
    assert sum(hard.last_visits.values()) == 0  # the one simulation it began was dropped at the deadline
    # Without the deadline's strictness the first simulation always finishes.
    hooks = policy_search(game)
    seen = Seen(game, state, seat)
    _, counts = ismcts(game, seen.determinize, seat, legal, hooks, random.Random(1), 1e-6)
    assert sum(counts.values()) == 1


def test_the_search_plays_the_policy_s_move_unless_it_found_better_with_enough_simulations() -> None:
    game = _PoliciesOnly(_Last())
    state, seat = _decision(game)
    legal = game.legal_actions(state, seat)
    hooks = policy_search(game)
    assert isinstance(hooks, PolicyRollouts)
    seen, rng = Seen(game, state, seat), random.Random(1)
    base, other = legal[-1], legal[0]
    few = {other: 2}  # fewer simulations than trust x legal actions
    assert hooks.settle(seen, legal, other, few, rng) == base
    close = {other: 40, base: 30}
    assert hooks.settle(seen, legal, other, close, rng) == base
    clear = {other: 60, base: 30}
    assert hooks.settle(seen, legal, other, clear, rng) == other
    hooks.trust = 0
    assert hooks.settle(seen, legal, other, few, rng) == other


class _Recording(PolicyRollouts):
    """The policy search, noting the round of every state a rollout decision is made in."""

    def __init__(self, game: Game[Any]) -> None:
        super().__init__(game, FodinhaPolicies())
        self.rounds: list[int] = []

    def rollout(self, state: Any, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        self.rounds.append(state.hand_no)
        return super().rollout(state, seat, legal, rng)


class _NoStanding(_PoliciesOnly):
    def standing(self, state: Any) -> Standing | None:
        return None


def test_a_game_that_says_where_it_stands_has_its_simulations_end_with_the_round() -> None:
    game = _PoliciesOnly()
    state, seat = _decision(game, at=12)  # the first bid of a three-card hand
    root = game.standing(state)
    assert root is not None
    hooks = _Recording(game)
    seen = Seen(game, state, seat)
    ismcts(game, seen.determinize, seat, seen.legal_actions(), hooks, random.Random(1), 1e7, 40)
    assert hooks.rounds and set(hooks.rounds) == {root.round}
    # Without a standing, each simulation plays on to the end of the match.
    blind = _NoStanding()
    hooks = _Recording(blind)
    ismcts(blind, Seen(blind, state, seat).determinize, seat, seen.legal_actions(), hooks, random.Random(1), 1e7, 40)
    assert max(hooks.rounds) > root.round


def test_a_round_cut_rewards_each_seat_by_its_score_s_move_against_the_others() -> None:
    game = _PoliciesOnly()
    state, _ = _decision(game)
    start = game.standing(state)
    assert start is not None
    cut = RoundCut(game, start)
    assert not cut.ended(state)
    after = game.clone(state)
    after.score[0] -= 1  # seat 0 lost a life, seat 3 two, the others none
    after.score[3] -= 2
    after.hand_no += 1
    assert cut.ended(after)
    rewards = cut.rewards(after)
    assert rewards[1] == rewards[2] == max(rewards)
    assert rewards[3] == min(rewards) == 0.0
    assert rewards[3] < rewards[0] < 0.5 < rewards[1]
    assert cut.rewards(state) == [0.5] * 4  # nobody moved: level
