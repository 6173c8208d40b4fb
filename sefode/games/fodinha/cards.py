"""The truco deck (40 cards), which the Fodinha family plays, in the notation of docs/rulings.md §0.1.

Inside the engine a truco card is a small integer code, fast to compare and to copy::

    code = copy * 40 + rank_index * 4 + suit_index

``rank_index`` follows ``TRUCO_RANKS`` (4 weakest .. 3 strongest) and ``suit_index`` follows ``SUITS``
(``sefode.cards``). With two decks each copy is a card of its own (codes 0..39 and 40..79) but both copies print
the same.

>>> truco_code("4c"), truco_code("3d"), truco_name(truco_code("Ks"))
(0, 39, 'Ks')
>>> truco_name(40)
'4c'
"""

from __future__ import annotations

from collections.abc import Iterable

from sefode.cards import SUITS, CardError

__all__ = [
    "SUITS", "TRUCO_DECK_SIZE", "TRUCO_RANKS", "CardError", "names", "truco_code", "truco_deck", "truco_name",
    "truco_rank", "truco_suit",
]  # fmt: skip

TRUCO_RANKS = "4567QJKA23"
"""Truco ranks in index order, which is also the common strength order, weak to strong."""

TRUCO_DECK_SIZE = 40


_TRUCO_NAMES: list[str] = [r + s for r in TRUCO_RANKS for s in SUITS]
_TRUCO_CODES: dict[str, int] = {name: i for i, name in enumerate(_TRUCO_NAMES)}


def truco_name(code: int) -> str:
    """The printed name of a truco card code (any copy)."""
    return _TRUCO_NAMES[code % TRUCO_DECK_SIZE]


def truco_code(name: object) -> int:
    """The code of the first copy of a truco card; raises CardError for anything else."""
    if not isinstance(name, str):
        raise CardError(f"a card must be a string such as '4c', not {name!r}")
    code = _TRUCO_CODES.get(name)
    if code is None:
        raise CardError(
            f"{name!r} is not a truco card: use a rank of {' '.join(TRUCO_RANKS)} "
            f"followed by a suit of {' '.join(SUITS)}, e.g. '4c' or '7h'"
        )
    return code


def truco_rank(code: int) -> int:
    """Rank index (0 = '4' .. 9 = '3')."""
    return (code % TRUCO_DECK_SIZE) >> 2


def truco_suit(code: int) -> int:
    """Suit index into SUITS."""
    return code & 3


def truco_deck(decks: int = 1) -> list[int]:
    """All codes of ``decks`` truco decks, in a fixed order."""
    return list(range(TRUCO_DECK_SIZE * decks))


def names(codes: Iterable[int]) -> list[str]:
    return [_TRUCO_NAMES[c % TRUCO_DECK_SIZE] for c in codes]
