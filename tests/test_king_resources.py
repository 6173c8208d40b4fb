"""King's resources: rules pages in pt-BR and English, catalogues with every key the engine and the spec name."""

from __future__ import annotations

import json
from importlib.resources import files

from sefode.games.king.game import REASONS, SPEC, King
from sefode.games.king.rules import CONTRACTS, SUITS

PACKAGE = files("sefode.games.king")


def _catalogue(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads(PACKAGE.joinpath("i18n", f"{lang}.json").read_text(encoding="utf-8"))
    return data


def test_rules_pages_exist_in_portuguese_and_english_and_give_the_point_table() -> None:
    assert SPEC.rules_pages() == ["king"]
    for lang, words in (
        ("pt-BR", ["Vazas", "−650", "Rei de Copas", "−95", "Trunfo", "+800"]),
        ("en", ["Vazas", "−650", "king of hearts", "−95", "Trunfo", "+800"]),
    ):
        page = PACKAGE.joinpath("rules", f"king.{lang}.md").read_text(encoding="utf-8")
        for word in words:
            assert word in page, (lang, word)
        for contract in CONTRACTS:
            label = contract.name.replace("_", " ").title().replace("Ultimas", "Últimas")
            assert label in page, (lang, label)


def test_catalogues_have_the_same_keys_and_every_key_the_game_uses() -> None:
    pt, en = _catalogue("pt-BR"), _catalogue("en")
    assert set(pt) == set(en)
    needed = {SPEC.title}
    for option in SPEC.options:
        needed |= {option.label, *option.choice_labels}
        if option.help:
            needed.add(option.help)
    needed |= {f"king.contract.{c.name}" for c in CONTRACTS} | {f"king.points.{c.name}" for c in CONTRACTS}
    needed |= {f"king.reason.{r}" for r in REASONS} | {f"king.suit.{s}" for s in SUITS}
    game = King()
    state = game.new_match({}, 1)
    for action in [0, 51, *range(100, 109), *range(200, 204)]:
        needed.add(game.describe_action(state, 0, action)["key"])
    assert needed <= set(pt), sorted(needed - set(pt))
    assert pt["king.reason.follow_suit"] == "Você precisa seguir o naipe."
