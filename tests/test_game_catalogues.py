"""Every registered game (plugins included) names what the page shows of it in its own catalogues: its title, its
options, their choices and help, its variants, and the labels ``describe_action`` gives, in pt-BR and English, with the
same placeholders. The browser's schema-driven forms, lobby summary and generic renderer read these keys."""

from __future__ import annotations

import json
import random
import re
from importlib import resources
from typing import Any

import pytest

from sefode.engine import Game, games


def _catalogue(game: Game[Any], lang: str) -> dict[str, str] | None:
    try:
        path = resources.files(game.spec.package) / "i18n" / f"{lang}.json"
    except ModuleNotFoundError:
        return None
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return {str(k): str(v) for k, v in data.items()}


def _spec_keys(game: Game[Any]) -> set[str]:
    spec = game.spec
    keys = {spec.title}
    for option in spec.options:
        keys.add(option.label)
        keys.update(option.choice_labels)
        if option.help:
            keys.add(option.help)
    keys.update(v.title for v in spec.variants)
    return keys


GAMES = sorted(games(), key=lambda g: g.name)


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_a_game_names_its_spec_in_both_catalogues(game: Game[Any]) -> None:
    pt, en = _catalogue(game, "pt-BR"), _catalogue(game, "en")
    assert pt is not None and en is not None, f"{game.name} has no i18n/pt-BR.json and i18n/en.json"
    assert set(pt) == set(en)
    for key, text in pt.items():
        assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", en[key])), key
    assert game.spec.title == f"game.{game.name}.title"
    missing = sorted(_spec_keys(game) - set(pt))
    assert missing == []


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_action_labels_are_in_the_catalogue_with_their_params(game: Game[Any]) -> None:
    """Random playouts: every label of every legal action (what the generic client's buttons show) has its key in
    the game's catalogue (or is the generic label), and the text's placeholders are the label's params."""
    pt = _catalogue(game, "pt-BR") or {}
    rng = random.Random(5)
    seen: set[str] = set()
    for seed in range(4):
        state = game.new_match(game.validate_options({}), seed)
        for _ in range(300):
            awaiting = sorted(game.awaiting(state))
            if not awaiting:
                break
            seat = rng.choice(awaiting)
            actions = game.legal_actions(state, seat)
            for action in actions:
                label = game.describe_action(state, seat, action)
                assert set(label) == {"key", "params", "text"}
                assert isinstance(label["text"], str) and label["text"]
                key = label["key"]
                seen.add(key)
                if key == "action.generic":
                    continue
                assert key in pt, f"{game.name}: label key {key} is not in its catalogue"
                assert set(re.findall(r"\{(\w+)\}", pt[key])) <= set(label["params"]), key
            game.apply(state, seat, rng.choice(actions))
    assert seen
