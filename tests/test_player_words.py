"""Player words only (issue 22): every catalogue and every rules page a player sees is free of developer words.

Read: the page's catalogues (``sefode/web/static/i18n/<lang>.json``), each registered game's catalogues (plugins
included, from the game's package as the server serves them) and each registered game's rules pages in each
language. A finding names the file and the key (or the line). Refused: card codes in the notation of
``docs/rulings.md`` ("3c", "Ts", "Ah") — a player sees "3♣", "10♠"; the words seed/semente; the rulings document and
"§"; hex hashes; command lines (``sefode …``, python, pip); JSON objects and code blocks. The technical notes live in
``docs/`` (``docs/game-formats.md``, ``docs/protocol.md``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from player_words import OLD_DOC, card_names, findings

from sefode.engine import Game, games
from sefode.server.routes.games import LANGUAGES, package_dir, render_markdown, rules_page

ROOT = Path(__file__).resolve().parents[1]
PAGE_CATALOGUES = ROOT / "sefode" / "web" / "static" / "i18n"


# --------------------------------------------------------------------------------------- the checker itself
@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Jogar 3c", ["card '3c'"]),
        ("Jogar Ts", ["card 'Ts'"]),
        ("Ah, Kd e X1", ["card 'Ah'", "card 'Kd'", "card 'X1'"]),
        ("trash 7h 7s (4c)", ["card '7h'", "card '7s'", "card '4c'"]),
        ("Jogar As", ["card 'As'"]),
        ("semente {seed}", ["seed 'semente'"]),
        ("the seed is 7", ["seed 'seed'"]),
        (f"veja {OLD_DOC} §2", [f"rulings document {OLD_DOC!r}", "rulings document '§'"]),
        ("sorteio: 4daabe91c0…", ["hash '4daabe91c0'"]),
        ("rode sefode replay arquivo.json", ["command line 'sefode'"]),
        ("formato `sefode-history/1`", ["command line 'sefode'"]),
        ("pip install x; python -m y", ["command line 'pip'", "command line 'python'"]),
        ('{"play": "Qs"}', ["card 'Qs'", "JSON '{\"play\":'"]),
        ("```json", ["JSON '```'"]),
        ("no 8s or 9s", ["card '8s'", "card '9s'"]),  # a plural of a digit is a card code too: write "eights"
    ],
)
def test_the_checker_finds_developer_words(text: str, found: list[str]) -> None:
    assert sorted(findings(text)) == sorted(found)


@pytest.mark.parametrize(
    "text",
    [
        "Jogar 3♣",
        "10♠ e K♥",
        "As cartas na mão do oponente custam 1 Lua a mais.",
        "{name} jogou {card}",
        "Mão {n}: {cards} carta(s), {dealer} deu.",
        "Se Fode, Se Fode Junto e 7 Letras",
        "Vz 0 JK 0 Q 0",
        "30s, 5 jogadores, 2 decks, 12 cartas",
        "Sorteio verificável",
        "O SHA-256 desse número",
        "Moonseed",
        "decade 2026, facade",
        "Pontuação: μ − 3σ",
        "[Se Fode rules](/rules/sefode).",
    ],
)
def test_the_checker_leaves_player_words_alone(text: str) -> None:
    assert findings(text) == []


def test_proper_names_are_left_out_before_the_check() -> None:
    assert findings("Semente Lunar: +1 Lua") == ["seed 'Semente'"]
    assert findings("Semente Lunar: +1 Lua", frozenset({"Semente Lunar"})) == []


# --------------------------------------------------------------------------------------- what players read
def _catalogue(path: Path) -> dict[str, str]:
    data: Any = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict), path
    return {str(k): str(v) for k, v in data.items()}


def _game_catalogues() -> Iterator[tuple[Game[Any], str, dict[str, str]]]:
    for game in games():
        folder = package_dir(game, "i18n")
        if folder is None:
            continue
        for lang in LANGUAGES:
            file = folder / f"{lang}.json"
            if file.is_file():
                data = json.loads(file.read_text(encoding="utf-8"))
                yield game, f"{game.name}/i18n/{lang}.json", {str(k): str(v) for k, v in data.items()}


def _card_names() -> frozenset[str]:
    """Every game's card names: proper names, left out of the check."""
    return frozenset(name for _, _, catalogue in _game_catalogues() for name in card_names(catalogue))


def _catalogues() -> list[tuple[str, dict[str, str]]]:
    page = [(f"static/i18n/{p.name}", _catalogue(p)) for p in sorted(PAGE_CATALOGUES.glob("*.json"))]
    return page + [(name, data) for _, name, data in _game_catalogues()]


def _rules_pages() -> list[tuple[str, str, str, str]]:
    """(game, page, lang, Markdown) of every rules page a player can open."""
    return [
        (game.name, page, lang, text)
        for game in games()
        for page in game.spec.rules_pages()
        for lang in LANGUAGES
        if (text := rules_page(page, lang)) is not None
    ]


def test_every_catalogue_a_player_reads_is_in_player_words() -> None:
    catalogues = _catalogues()
    assert len(catalogues) >= 2 + 2 * 4, "the page's catalogues and every built-in game's, in both languages"
    names = _card_names()
    assert "Semente Lunar" in names and "Moonseed" in names
    bad = [
        f"{file} {key}: {finding} in {value!r}"
        for file, catalogue in catalogues
        for key, value in catalogue.items()
        for finding in findings(value, names)
    ]
    assert not bad, "developer words in a catalogue:\n" + "\n".join(bad)


def test_every_rules_page_a_player_reads_is_in_player_words() -> None:
    pages = _rules_pages()
    assert {page for _, page, _, _ in pages} >= {"sefode", "7letras", "king", "trash", "guimenon"}
    names = _card_names()
    bad = [
        f"rules/{page}.{lang}.md:{n}: {finding} in {line.strip()[:100]!r}"
        for _, page, lang, text in pages
        for n, line in enumerate(text.splitlines(), 1)
        for finding in findings(line, names)
    ]
    assert not bad, "developer words in a rules page (technical notes go to docs/game-formats.md):\n" + "\n".join(bad)


def test_rules_pages_render_with_no_inline_style() -> None:
    """A table column's alignment is a class: the page's CSP refuses inline styles (each one a console error)."""
    for _, page, lang, text in _rules_pages():
        html = render_markdown(text)
        assert "style=" not in html, f"{page}.{lang}"
    html = render_markdown("| a | b |\n| :-: | --: |\n| 1 | 2 |\n")
    assert 'class="align-center"' in html and 'class="align-right"' in html and "style" not in html


def test_fodinha_pages_in_portuguese_name_the_trick_as_the_table_does() -> None:
    """The table says "vaza" for a trick and "mão" for a deal (the Fodinha catalogue); the pt-BR rules pages of the
    Fodinha family say the same, and name the book's own words (rodada, etapa) only where they say so."""
    table = next(data for game, _, data in _game_catalogues() if game.name == "fodinha" and data.get("tab.tricks"))
    assert table["tab.tricks"] == "Vazas" and "vaza" in table["event.trick"] and table["table.hand_n"] == "Mão {n}"
    pages = [(page, text) for game, page, lang, text in _rules_pages() if game == "fodinha" and lang == "pt-BR"]
    assert {page for page, _ in pages} == {"sefode", "7letras"}
    for page, text in pages:
        assert len(re.findall(r"\bvazas?\b", text, re.IGNORECASE)) > 10, page
        bad = [
            f"{page}.pt-BR.md:{n}: {line.strip()}"
            for n, line in enumerate(text.splitlines(), 1)
            if re.search(r"\b(rodadas?|etapas?)\b", line, re.IGNORECASE) and "livro" not in line
        ]
        assert not bad, "say vaza (trick) and mão (deal), as the table does:\n" + "\n".join(bad)


def test_what_the_table_says_of_a_seat_it_played_for_is_neutral() -> None:
    """The table once said "a mesa jogou por ele" of every seat, a woman's too: the pt-BR texts name no gender."""
    catalogue = _catalogue(PAGE_CATALOGUES / "pt-BR.json")
    texts = {k: v for k, v in catalogue.items() if k.startswith("event.played_for")}
    assert len(texts) == 4
    gendered = {k: v for k, v in texts.items() if re.search(r"\b(?:d?el[ea]s?|sozinh[oa])\b", v)}
    assert gendered == {}
