"""Issue 22's per-game polish, in the catalogues of King, One Man's Trash, Guimenon and Fodinha: plurals in words (a
``.one`` and an ``.other`` text, never "carta(s)"), and the new texts (counter labels, pile taps, score headers, how a
match was won) in both languages with the same placeholders."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parents[1] / "sefode" / "games"
POLISHED = ("king", "trash", "guimenon")
PLURALS = (*POLISHED, "fodinha")
"""Games whose catalogues say plurals in words (Fodinha's: the deal's line in the log and a replay's hand title)."""


def _catalogue(game: str, lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((GAMES / game / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("lang", ["pt-BR", "en"])
@pytest.mark.parametrize("game", PLURALS)
def test_no_plural_in_brackets(game: str, lang: str) -> None:
    texts = _catalogue(game, lang)
    bracketed = {k: v for k, v in texts.items() if re.search(r"\w\((s|es|ns)\)", v)}
    assert bracketed == {}


@pytest.mark.parametrize("lang", ["pt-BR", "en"])
@pytest.mark.parametrize("game", PLURALS)
def test_plural_texts_come_in_pairs(game: str, lang: str) -> None:
    texts = _catalogue(game, lang)
    for key in texts:
        if key.endswith(".one"):
            assert key[: -len(".one")] + ".other" in texts, key
        if key.endswith(".other"):
            assert key[: -len(".other")] + ".one" in texts, key


NEW_KEYS = {
    "king": [
        "king.taken.label",
        "king.points_short",
        "king.end.how",
        "king.end.how_tie",
        "king.end.sheet",
        "king.cards_in_hand",
    ],
    "trash": [
        "trash.pile_size.one",
        "trash.pile_size.other",
        "trash.under.one",
        "trash.under.other",
        "trash.tap.trash",
        "trash.tap.swap",
        "trash.tap.collect",
        "trash.score.player",
        "trash.score.cards",
        "trash.score.status",
        "trash.score.turns",
        "trash.score.in",
        "trash.end.four",
    ],
    "fodinha": [
        "event.deal.one",
        "event.deal.other",
        "replay.hand_title.one",
        "replay.hand_title.other",
    ],
    "guimenon": [
        "guimenon.must_discard.one",
        "guimenon.must_discard.other",
        "guimenon.end.board",
        "guimenon.end.locations",
        "guimenon.end.stars",
        "guimenon.end.draw",
    ],
}


@pytest.mark.parametrize("game", PLURALS)
def test_the_polish_texts_exist_in_both_languages_with_the_same_placeholders(game: str) -> None:
    pt, en = _catalogue(game, "pt-BR"), _catalogue(game, "en")
    for key in NEW_KEYS[game]:
        assert pt.get(key) and en.get(key), key
        assert set(re.findall(r"\{(\w+)\}", pt[key])) == set(re.findall(r"\{(\w+)\}", en[key])), key
