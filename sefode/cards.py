"""Cards, ranks, suits and decks shared by games, in the notation of docs/rulings.md §0.1.

A card is written rank then suit letter: ``4c``, ``7h``, ``Td``; jokers are ``X1`` and ``X2``.
Suits: ``c`` clubs (paus), ``h`` hearts (copas), ``s`` spades (espadas), ``d`` diamonds (ouros).

The 52-card deck (with its two jokers) is here; the 40-card truco deck, which only the Fodinha family plays, and its
order are Fodinha's own (``sefode.games.fodinha.cards``).

>>> standard_code("Td"), standard_name(standard_code("X1"))
(39, 'X1')
"""

from __future__ import annotations

SUITS = "chsd"
"""Suit letters, in index order: clubs, hearts, spades, diamonds."""

STANDARD_RANKS = "A23456789TJQK"
"""Ranks of the 52-card deck (aces are low or high per game)."""

JOKERS = ("X1", "X2")


class CardError(ValueError):
    """A card name that is not a card of the deck in use."""


_STANDARD_NAMES: list[str] = [r + s for r in STANDARD_RANKS for s in SUITS] + list(JOKERS)
_STANDARD_CODES: dict[str, int] = {name: i for i, name in enumerate(_STANDARD_NAMES)}


def standard_code(name: object) -> int:
    """Code of a 52-card deck card (0..51) or joker (52, 53)."""
    if not isinstance(name, str) or name not in _STANDARD_CODES:
        raise CardError(f"{name!r} is not a card of the 52-card deck (e.g. 'Td', 'Ah', 'X1')")
    return _STANDARD_CODES[name]


def standard_name(code: int) -> str:
    return _STANDARD_NAMES[code]
