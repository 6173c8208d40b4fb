"""The small pure rules of the Fodinha family: card strength, melada, hand sizes, placements.

Strength is an integer per card code (see ``sefode.games.fodinha.cards``); a higher number beats a lower one and
equal numbers melt (cancel). Common cards are ranked 3 2 A K J Q 7 6 5 4 whatever the suit.
"""

from __future__ import annotations

from collections.abc import Sequence

from sefode.games.fodinha.cards import SUITS, TRUCO_DECK_SIZE, TRUCO_RANKS, truco_code, truco_rank, truco_suit

BID = 100
"""``BID + n`` bids n tricks (the action codes live here, where the game and its bots both read them)."""
SHOW = 200
"""Show one's hand (the platform's ``{"show": true}``)."""
LEAVE = 201
"""Leave the match (``{"leave": true}``)."""
JOIN = 202
"""Take a seat that was left (``{"join": true}``)."""

FIXED_MANILHAS = ("4c", "7h", "As", "7d")
"""Se Fode's fixed manilhas, strong to weak; they beat every common card."""

_MANILHA_BASE = 100


def sefode_strength(decks: int) -> list[int]:
    """Strength of every card code for Se Fode (fixed manilhas; copies of a card are equal)."""
    table = [truco_rank(code) for code in range(TRUCO_DECK_SIZE * decks)]
    for order, name in enumerate(reversed(FIXED_MANILHAS)):
        first = truco_code(name)
        for copy in range(decks):
            table[first + copy * TRUCO_DECK_SIZE] = _MANILHA_BASE + order
    return table


SEFODE_STRENGTH_1 = sefode_strength(1)
SEFODE_STRENGTH_2 = sefode_strength(2)


def manilha_rank(vira: int) -> int:
    """7 Letras: the manilha rank is the one just above the vira's, wrapping 3 -> 4."""
    return (truco_rank(vira) + 1) % len(TRUCO_RANKS)


def sete_letras_strength(vira: int) -> list[int]:
    """Strength of every card code for 7 Letras given the vira; manilhas rank c > h > s > d."""
    manilha = manilha_rank(vira)
    table = []
    for code in range(TRUCO_DECK_SIZE):
        if truco_rank(code) == manilha:
            table.append(_MANILHA_BASE + (len(SUITS) - 1 - truco_suit(code)))
        else:
            table.append(truco_rank(code))
    return table


def trick_winner_pairs(plays: Sequence[tuple[int, int]], strength: Sequence[int]) -> int:
    """Se Fode melada: equal strengths cancel in pairs in the order played, an odd last one survives.

    Returns the index in ``plays`` of the winning play, or -1 when every card was cancelled.
    """
    values: list[int] = []
    for _, card in plays:  # a loop, not a comprehension: this runs at every trick of a search
        values.append(strength[card])
    top = max(values)
    if values.count(top) == 1:  # the strongest card has no equal: it wins
        return values.index(top)
    unpaired: dict[int, int] = {}
    for index, value in enumerate(values):
        if value in unpaired:
            del unpaired[value]
        else:
            unpaired[value] = index
    if not unpaired:
        return -1
    return unpaired[max(unpaired)]


def trick_winner_all(plays: Sequence[tuple[int, int]], strength: Sequence[int]) -> int:
    """7 Letras melada: every card whose strength appears more than once is cancelled."""
    seen: dict[int, int] = {}
    for index, (_, card) in enumerate(plays):
        s = strength[card]
        seen[s] = -1 if s in seen else index
    best = -1
    best_strength = -1
    for s, index in seen.items():
        if index >= 0 and s > best_strength:
            best, best_strength = index, s
    return best


def next_hand_size(size: int, climbing: bool, most: int) -> tuple[int, bool]:
    """The hand-size cycle: climb to ``most``, go down to 1, climb again; peak and 1 not repeated.

    If the next size does not fit (fewer cards now fit), take the largest that fits and go down.

    >>> [s for s, _ in _walk(1, 4, 8)]
    [2, 3, 4, 3, 2, 1, 2, 3]
    """
    if most <= 1:
        return 1, True
    if climbing:
        if size + 1 <= most:
            size += 1
        else:
            # At the peak go down (the peak is not repeated); above it, the largest that fits.
            size, climbing = (most - 1 if size == most else most), False
    else:
        size -= 1
        if size < 1:
            size, climbing = 2, True
        size = min(size, most)
    if size <= 1:
        size, climbing = 1, True
    return size, climbing


def _walk(size: int, most: int, steps: int) -> list[tuple[int, bool]]:
    out = []
    climbing = True
    for _ in range(steps):
        size, climbing = next_hand_size(size, climbing, most)
        out.append((size, climbing))
    return out
