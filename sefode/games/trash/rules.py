"""One Man's Trash (seed 004): cards, ranks, adjacency and the action codes. Pure functions, no state.

Cards are the codes of ``sefode.cards``: ``rank_index * 4 + suit_index`` for the 52 cards (ranks in
``A23456789TJQK`` order, suits in ``chsd`` order) and 52, 53 for the jokers ``X1``, ``X2``.

Which cards are the Trash Collectors depends on the match (seed ¶ requirements): the jokers, or, without
jokers, the two aces left in the deck. A Collector has no rank. Adjacency (seed ¶ trashvalid,
¶ trashwraparound): with jokers, ranks A..K in a circle of 13 (A and K adjacent); without, the aces are
out of the ranks and 2..K make a circle of 12 (K and 2 adjacent).

Actions are small integers:

* ``DRAW`` (0): pick up from the Draw Pile;
* ``COLLECT + p`` (1..64): collect Trash Pile ``p`` with a Collector from the hand;
* ``LITTER + card`` (100..153): a new Trash Pile with that card;
* ``TRASH + (p * 13 + rank) * 16 + suits`` and ``SWAP + ...``: the cards of ``rank`` whose suits are the
  bits of ``suits`` (bit i = suit ``chsd[i]``), trashed on / swapped with the top of pile ``p``.

>>> decode(trash_action(2, 6, 0b0101))
('trash', 2, 6, 5)
>>> [card_name(c) for c in cards_of(6, 0b0101)]
['7c', '7s']
"""

from __future__ import annotations

from sefode.cards import JOKERS, STANDARD_RANKS, SUITS, standard_name

DECK_SIZE = 54
JOKER_CODES = (52, 53)
ACE_CODES = (0, 1, 2, 3)
RANKS = STANDARD_RANKS
TURN_LIMIT = 100
"""docs/rulings.md §3.5: a match that reaches 100 turns per player without a winner ends with no winner."""
START_HAND = 3
START_PILES = 3

DRAW = 0
COLLECT = 1
LITTER = 100
TRASH = 1000
SWAP = 20000
MAX_PILES = 64
"""More piles than the deck could ever make (each litter takes a card from a hand)."""

__all__ = [
    "ACE_CODES",
    "COLLECT",
    "DECK_SIZE",
    "DRAW",
    "JOKERS",
    "JOKER_CODES",
    "LITTER",
    "MAX_PILES",
    "RANKS",
    "SWAP",
    "TRASH",
    "TURN_LIMIT",
]


def card_name(code: int) -> str:
    return standard_name(code)


def card_names(codes: list[int] | tuple[int, ...]) -> list[str]:
    return [card_name(c) for c in codes]


def rank_of(code: int) -> int:
    """Rank index 0 (A) .. 12 (K) of a non-joker card."""
    return code >> 2


def suit_of(code: int) -> int:
    return code & 3


def cards_of(rank: int, suits: int) -> list[int]:
    """The codes of the cards of ``rank`` whose suits are the bits of ``suits``, in suit order."""
    return [rank * 4 + s for s in range(4) if suits >> s & 1]


def popcount(mask: int) -> int:
    return bin(mask).count("1")


def trash_action(pile: int, rank: int, suits: int) -> int:
    return TRASH + (pile * 13 + rank) * 16 + suits


def swap_action(pile: int, rank: int, suits: int) -> int:
    return SWAP + (pile * 13 + rank) * 16 + suits


def decode(action: int) -> tuple[str, int, int, int]:
    """``(kind, pile, rank, suits)``; for litter ``pile`` is -1 and ``rank`` is the card code."""
    if action == DRAW:
        return ("draw", -1, -1, 0)
    if COLLECT <= action < COLLECT + MAX_PILES:
        return ("collect", action - COLLECT, -1, 0)
    if LITTER <= action < LITTER + DECK_SIZE:
        return ("litter", -1, action - LITTER, 0)
    for kind, base in (("trash", TRASH), ("swap", SWAP)):
        if base <= action < base + MAX_PILES * 13 * 16:
            rest = action - base
            suits = rest & 15
            pile, rank = divmod(rest >> 4, 13)
            if not suits:
                return ("invalid", -1, -1, 0)
            return (kind, pile, rank, suits)
    return ("invalid", -1, -1, 0)


def adjacency(jokers: bool) -> tuple[frozenset[int], ...]:
    """For each rank index, the ranks no more than one away from it (itself included), with wrap-around.

    >>> sorted(adjacency(True)[0]), sorted(adjacency(True)[12])
    ([0, 1, 12], [0, 11, 12])
    >>> sorted(adjacency(False)[1]), sorted(adjacency(False)[12])
    ([1, 2, 12], [1, 11, 12])
    """
    if jokers:
        circle = list(range(13))
    else:
        circle = list(range(1, 13))  # 2..K; the aces are Collectors or out of the game
    m = len(circle)
    table: list[frozenset[int]] = [frozenset() for _ in range(13)]
    for i, r in enumerate(circle):
        table[r] = frozenset({circle[(i - 1) % m], r, circle[(i + 1) % m]})
    return tuple(table)


def fits_table(jokers: bool, collectors: frozenset[int]) -> tuple[tuple[bool, ...], ...]:
    """``table[top][card]``: may ``card`` be trashed on a pile whose top card is ``top``?

    Any card but a Collector fits on a Collector (¶ trashwild); a Collector fits nowhere as a trash
    (¶ trashplaycollector); other cards fit when their ranks are no more than one apart (¶ trashvalid).
    """
    adj = adjacency(jokers)
    rows: list[tuple[bool, ...]] = []
    for top in range(DECK_SIZE):
        row: list[bool] = []
        for card in range(DECK_SIZE):
            if card in collectors or card in JOKER_CODES:
                row.append(False)
            elif top in collectors:
                row.append(True)
            elif top in JOKER_CODES:
                row.append(False)
            else:
                row.append(rank_of(card) in adj[rank_of(top)])
        rows.append(tuple(row))
    return tuple(rows)


def deck(jokers: bool, collectors: frozenset[int]) -> list[int]:
    """The codes of the match's deck: 54 cards with jokers, else the 48 non-aces and the two Collector aces."""
    if jokers:
        return list(range(DECK_SIZE))
    return sorted(collectors) + list(range(4, 52))


def suit_letter(code: int) -> str:
    return SUITS[suit_of(code)]
