"""The Guimenon rules pages and catalogues carry the card list generated from the data, and are up to date."""

from __future__ import annotations

import json

import pytest

from sefode.games.guimenon.cardlist import BEGIN, END, PACKAGE, card_list, catalogue, page_with_list
from sefode.games.guimenon.cardset import LANGS
from sefode.games.guimenon.rules import CARDSET

STALE = "out of date: run `python -m sefode.games.guimenon.cardlist`"


@pytest.mark.parametrize("lang", LANGS)
def test_rules_page_card_list_is_generated_from_the_data(lang: str) -> None:
    text = (PACKAGE / "rules" / f"guimenon.{lang}.md").read_text(encoding="utf-8")
    assert BEGIN in text and END in text
    assert page_with_list(text, CARDSET, lang) == text, STALE
    listed = card_list(CARDSET, lang)
    for c in CARDSET.cards:
        assert c.name.get(lang) in listed and f"`{c.id}`" not in listed  # player words: names, not ids
    for loc in CARDSET.locations:
        assert loc.name.get(lang) in listed and f"`{loc.id}`" not in listed


@pytest.mark.parametrize("lang", LANGS)
def test_catalogue_is_generated_from_the_data(lang: str) -> None:
    on_disk = json.loads((PACKAGE / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert on_disk == catalogue(CARDSET, lang), STALE
    assert on_disk["game.guimenon.title"] and all(f"guimenon.card.{c.id}" in on_disk for c in CARDSET.cards)


def test_catalogues_have_the_same_keys() -> None:
    pt, en = (json.loads((PACKAGE / "i18n" / f"{lang}.json").read_text(encoding="utf-8")) for lang in LANGS)
    assert set(pt) == set(en)


def test_deck_builder_pool_is_generated_from_the_data() -> None:
    from sefode.games.guimenon.cardlist import pool_json

    on_disk = json.loads((PACKAGE / "client" / "cards.json").read_text(encoding="utf-8"))
    assert on_disk == pool_json(CARDSET), STALE
    assert len(on_disk["cards"]) == len(CARDSET.cards) and on_disk["min_deck"] == 12
