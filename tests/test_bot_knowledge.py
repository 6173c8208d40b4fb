"""A game hands the generic bots its knowledge through the engine interface (``Game.bot_knowledge``): importing a game
fills no table anywhere, and what the bots know of a game comes from the game object they play (issue 21)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

import pytest
from toygame import Lances

from sefode.bots.base import Seen
from sefode.bots.knowledge import DEFAULT_KNOWLEDGE, BotKnowledge, hooks_for, knowledge_of, policies_for
from sefode.bots.levels import EasyPlayer, HardPlayer, NormalPlayer
from sefode.bots.policies import GamePolicies
from sefode.bots.search import SearchHooks
from sefode.engine import Action, Game, games
from sefode.games.fodinha import Fodinha

BUILT_IN = ("fodinha", "guimenon", "king", "trash")

# Run in a fresh interpreter: every module of sefode.bots is imported first, then every game (through the entry
# points, as the platform finds them); no module-level container of the bots may have changed in between.
_SNAPSHOT = r"""
import importlib, json, pkgutil
import sefode.bots

def containers():
    out = {}
    for info in pkgutil.walk_packages(sefode.bots.__path__, "sefode.bots."):
        module = importlib.import_module(info.name)
        for key, value in vars(module).items():
            if isinstance(value, (dict, list, set)):
                out[f"{info.name}.{key}"] = repr(sorted(map(repr, value)))
    return out

before = containers()
import sefode.engine
names = sefode.engine.game_names()
after = containers()
print(json.dumps({"before": before, "after": after, "games": names, "errors": sefode.engine.LOAD_ERRORS}))
"""


def test_importing_every_game_fills_nothing_in_the_bots_package() -> None:
    done = subprocess.run([sys.executable, "-c", _SNAPSHOT], capture_output=True, text=True, timeout=120, check=True)
    found = json.loads(done.stdout)
    assert not found["errors"]
    assert set(BUILT_IN) <= set(found["games"])
    assert found["after"] == found["before"]


def test_the_bots_package_has_no_registry_left() -> None:
    import sefode.bots.policies
    import sefode.bots.search

    for module in (sefode.bots.policies, sefode.bots.search):
        names = set(vars(module))
        assert not names & {"register_policies", "register_hooks", "_POLICIES", "_HOOKS"}, module.__name__


@pytest.mark.parametrize("name", BUILT_IN)
def test_every_built_in_game_hands_its_own_knowledge_from_its_game_object(name: str) -> None:
    game = next(g for g in games() if g.name == name)
    knowledge = game.bot_knowledge()
    assert isinstance(knowledge, BotKnowledge)
    assert game.bot_knowledge() is knowledge, "the same object at every decision"
    package = type(game).__module__.rsplit(".", 1)[0]
    for part in (knowledge.policies, knowledge.hooks):
        assert type(part).__module__ == f"{package}.bots", "the game's own bots.py, not the defaults"
    assert knowledge_of(game) is knowledge
    assert policies_for(game) is knowledge.policies and hooks_for(game) is knowledge.hooks


def test_every_registered_game_s_knowledge_is_what_its_game_object_says() -> None:
    for game in games():  # the test-only plugin too, which tells the bots nothing
        knowledge = game.bot_knowledge()
        assert knowledge_of(game) is (DEFAULT_KNOWLEDGE if knowledge is None else knowledge)


class _Marked(GamePolicies):
    """Plays the last legal action and counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def easy(self, state: Any, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        self.calls += 1
        return legal[-1]

    def normal(self, state: Any, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        self.calls += 1
        return legal[-1]


class _Short(SearchHooks):
    def shortcut(self, state: Any, seat: int, legal: Sequence[Action]) -> Action | None:
        return legal[-1]


class _Told(Fodinha):
    """Fodinha under its own name, with knowledge of its own: the bots must use this object's, not Fodinha's."""

    def __init__(self) -> None:
        self.knowledge = BotKnowledge(policies=_Marked(), hooks=_Short())

    def bot_knowledge(self) -> BotKnowledge:
        return self.knowledge


def _decision(game: Game[Any]) -> tuple[Any, int, list[Action]]:
    state = game.new_match({}, 5)
    rng = random.Random(0)
    while True:  # the first decision with a choice
        seat = min(game.awaiting(state))
        legal = game.legal_actions(state, seat)
        if len(legal) > 1:
            return state, seat, legal
        game.apply_fast(state, seat, rng.choice(legal))


def test_the_levels_ask_the_game_object_they_play_not_its_name() -> None:
    game = _Told()
    assert game.name == "fodinha"
    state, seat, legal = _decision(game)
    marked = game.knowledge.policies
    assert isinstance(marked, _Marked)
    assert EasyPlayer(1).choose(Seen(game, state, seat)) == legal[-1]
    assert NormalPlayer(1).choose(Seen(game, state, seat)) == legal[-1]
    assert marked.calls == 2
    assert HardPlayer(1, max_iterations=5).choose(Seen(game, state, seat)) == legal[-1]


def test_a_game_that_tells_nothing_gets_the_defaults() -> None:
    game = Lances()  # the test-only game of simultaneous turns: no bots.py
    assert game.bot_knowledge() is None
    assert knowledge_of(game) is DEFAULT_KNOWLEDGE
    assert type(policies_for(game)) is GamePolicies and type(hooks_for(game)) is SearchHooks
    state, seat, legal = _decision(game)
    assert EasyPlayer(1).choose(Seen(game, state, seat)) in legal
