"""The pure rules of King (seed 001, docs/rulings.md §2): cards, contracts, scoring, forced plays, placements.

Cards are integers ``suit * 13 + rank`` with suits in the order of docs/rulings.md §0.1 (``c h s d``) and ranks ace high
(``2 3 4 5 6 7 8 9 T J Q K A``, rank 0 = ``2`` .. 12 = ``A``). A set of cards (a hand, the cards a seat
cannot hold) is a 52-bit mask, bit ``code`` for card ``code``, so that "the hearts in this hand" is one
``&``.

What a seat may play is a *chain* of card sets, strictest first (:func:`play_chain`): the seat plays
from the first set it holds a card of, or anything when it holds none. The same chain says what a play
reveals: a seat that played from a later set held no card of the earlier ones (:func:`revealed`).

>>> card_code("Ah"), card_name(card_code("Td")), card_name(0)
(25, 'Td', '2c')
>>> CONTRACTS[CONTRACT_INDEX["salada"]].total
-800
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

SUITS = "chsd"
"""Suit letters in index order: clubs (paus), hearts (copas), spades (espadas), diamonds (ouros)."""
RANKS = "23456789TJQKA"
"""Ranks weak to strong: ace high."""
CLUBS, HEARTS, SPADES, DIAMONDS = range(4)
JACK, QUEEN, KING_RANK, ACE = 9, 10, 11, 12

DECK_SIZE = 52
HAND_SIZE = 13
SEATS = 4
HANDS_PER_MATCH = 12
CONTRACT = 100
"""``CONTRACT + k`` chooses contract ``k`` (:data:`CONTRACTS`); card plays are the card codes ``0 .. 51``."""
TRUMP = 200
"""``TRUMP + s`` names suit ``s`` as trump in a Trunfo hand."""
ALL = (1 << DECK_SIZE) - 1


class KingCardError(ValueError):
    """A card name that is not a card of the 52-card deck."""


_NAMES = [RANKS[code % 13] + SUITS[code // 13] for code in range(DECK_SIZE)]
_CODES = {name: code for code, name in enumerate(_NAMES)}


def card_code(name: object) -> int:
    """The code of a card in the notation of docs/rulings.md §0.1 (``2c``, ``Td``, ``Ah``); KingCardError otherwise."""
    if not isinstance(name, str) or name not in _CODES:
        raise KingCardError(
            f"{name!r} is not a card of the 52-card deck: write a rank of {' '.join(RANKS)} "
            f"followed by a suit of {' '.join(SUITS)}, e.g. 'Qs' or 'Td'"
        )
    return _CODES[name]


def card_name(code: int) -> str:
    return _NAMES[code]


def suit_of(code: int) -> int:
    return code // 13


def rank_of(code: int) -> int:
    return code % 13


def bit(code: int) -> int:
    return 1 << code


BITS = tuple(1 << code for code in range(DECK_SIZE))
"""``BITS[code]``: the mask of that one card."""


def mask_of(codes: Iterable[int]) -> int:
    return functools.reduce(operator.or_, map(BITS.__getitem__, codes), 0)


SUIT_MASK = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
HEART_MASK = SUIT_MASK[HEARTS]
NON_HEARTS = ALL & ~HEART_MASK
KING_OF_HEARTS = HEARTS * 13 + KING_RANK
KH_MASK = 1 << KING_OF_HEARTS
JK_MASK = mask_of(s * 13 + r for s in range(4) for r in (JACK, KING_RANK))
"""Jacks and kings: the men (homens)."""
Q_MASK = mask_of(s * 13 + QUEEN for s in range(4))
"""Queens: the women (mulheres)."""
SALADA_MASK = JK_MASK | Q_MASK | HEART_MASK
"""Every card Salada punishes."""

LOWER = tuple(((1 << (code % 13)) - 1) << (13 * (code // 13)) for code in range(DECK_SIZE))
"""Per card: the cards of its suit ranked below it."""
HIGHER = tuple(SUIT_MASK[code // 13] & ~LOWER[code] & ~(1 << code) for code in range(DECK_SIZE))
"""Per card: the cards of its suit ranked above it."""


def _suit_lists(base: int) -> tuple[tuple[int, ...], ...]:
    """Per 13-bit mask of one suit, its card codes ascending (``base``: the suit's first code). Each entry is its
    lowest card before the entry of the mask without it, so the table is made in one pass (a process start pays
    for it: every server, worker and command)."""
    table: list[tuple[int, ...]] = [()] * (1 << 13)
    for m in range(1, 1 << 13):
        table[m] = (base + (m & -m).bit_length() - 1, *table[m & (m - 1)])
    return tuple(table)


# The cards of a mask as a sorted list, 13 bits (one suit) at a time: ``CARDS_IN_SUIT[s][(mask >> 13 * s) & 8191]``.
CARDS_IN_SUIT: tuple[tuple[tuple[int, ...], ...], ...] = tuple(_suit_lists(13 * s) for s in range(4))
CLUBS_IN, HEARTS_IN, SPADES_IN, DIAMONDS_IN = CARDS_IN_SUIT


def cards_of(mask: int) -> list[int]:
    """The card codes in ``mask``, ascending (clubs, hearts, spades, diamonds; low to high in each)."""
    return [
        *CLUBS_IN[mask & 8191],
        *HEARTS_IN[mask >> 13 & 8191],
        *SPADES_IN[mask >> 26 & 8191],
        *DIAMONDS_IN[mask >> 39],  # a card mask has no bit above the diamonds
    ]


def names_of(mask: int) -> list[str]:
    return [_NAMES[c] for c in cards_of(mask)]


# ------------------------------------------------------------------------------------------ contracts
VAZAS, HOMENS, MULHERES, COPAS, DUAS_ULTIMAS, KING, SALADA, TRUNFO, BOLOLA = range(9)


@dataclass(frozen=True, slots=True)
class Contract:
    index: int
    name: str
    """The JSON name (``{"contract": "vazas"}``) and the i18n key's last part (``king.contract.vazas``)."""
    total: int
    """Points the whole hand gives out: negative for the negative contracts."""
    negative: bool
    hearts_lead: bool
    """Hearts may not be led until a heart has been played or the leader holds only hearts."""
    follow_forced: int
    """Cards that must go under a higher card of the suit led already in the trick (while following)."""
    void_forced: tuple[int, ...]
    """What a seat void in the suit led must discard, strictest first (a chain; empty: anything)."""
    ends_when: int
    """The hand ends early once every one of these cards has been taken (0: all 13 tricks)."""
    points: str
    """The point table in words, for logs and the rules page (the catalogue has the translations)."""


CONTRACTS: tuple[Contract, ...] = (
    Contract(VAZAS, "vazas", -650, True, False, 0, (), 0, "-50 per trick"),
    Contract(HOMENS, "homens", -480, True, False, JK_MASK, (JK_MASK,), JK_MASK, "-60 per jack or king"),
    Contract(MULHERES, "mulheres", -400, True, False, Q_MASK, (Q_MASK,), Q_MASK, "-100 per queen"),
    Contract(COPAS, "copas", -390, True, True, 0, (HEART_MASK,), HEART_MASK, "-30 per heart"),
    Contract(DUAS_ULTIMAS, "duas_ultimas", -360, True, False, 0, (), 0, "-120 the 12th trick, -240 the 13th"),
    Contract(KING, "king", -320, True, True, 0, (KH_MASK, HEART_MASK), KH_MASK, "-320 the king of hearts"),
    Contract(
        SALADA,
        "salada",
        -800,
        True,
        True,
        JK_MASK | Q_MASK,
        (SALADA_MASK,),
        0,
        "-15 per trick, -20 per jack or king, -30 per queen, -10 per heart, -40 the 12th trick, -60 the 13th, "
        "-95 the king of hearts",
    ),
    Contract(TRUNFO, "trunfo", 650, False, False, 0, (), 0, "+50 per trick"),
    Contract(
        BOLOLA,
        "bolola",
        800,
        False,
        True,
        0,
        (),
        0,
        "+15 per trick, +20 per jack or king, +30 per queen, +10 per heart, +40 the 12th trick, +60 the 13th, "
        "+95 the king of hearts",
    ),
)
CONTRACT_INDEX = {c.name: c.index for c in CONTRACTS}
POOL = (VAZAS, HOMENS, MULHERES, COPAS, DUAS_ULTIMAS, KING, SALADA, BOLOLA)
"""The contracts played once each per match (7 negatives and Bolola); Trunfo is played 4 times."""
POOL_PER_SEAT = 2
"""Each seat chooses 3 times: exactly one Trunfo and two pool contracts."""
FIXED_ORDER = (VAZAS, HOMENS, MULHERES, COPAS, DUAS_ULTIMAS, KING, SALADA, TRUNFO, TRUNFO, TRUNFO, TRUNFO, BOLOLA)
"""The room option ``order: "fixed"``: every hand's contract, hand 1 first."""


def _salada_points(cards: int, trick_index: int) -> int:
    points = 15
    points += 20 * (cards & JK_MASK).bit_count()
    points += 30 * (cards & Q_MASK).bit_count()
    points += 10 * (cards & HEART_MASK).bit_count()
    if trick_index == HAND_SIZE - 2:
        points += 40
    elif trick_index == HAND_SIZE - 1:
        points += 60
    if cards & KH_MASK:
        points += 95
    return points


def trick_points(contract: int, cards: int, trick_index: int) -> int:
    """What the winner of a trick scores: ``cards`` is the trick's mask, ``trick_index`` 0 for the first.

    Salada counts every penalty of a card at once (the K of hearts: -95, -10 as a heart, -20 as a king);
    Bolola is Salada with positive points.

    >>> trick_points(SALADA, KH_MASK, 0)
    -140
    >>> trick_points(DUAS_ULTIMAS, 0, 12), trick_points(TRUNFO, 0, 3)
    (-240, 50)
    """
    return TRICK_POINTS[contract](cards, trick_index)


def _vazas_points(cards: int, trick_index: int) -> int:
    return -50


def _homens_points(cards: int, trick_index: int) -> int:
    return -60 * (cards & JK_MASK).bit_count()


def _mulheres_points(cards: int, trick_index: int) -> int:
    return -100 * (cards & Q_MASK).bit_count()


def _copas_points(cards: int, trick_index: int) -> int:
    return -30 * (cards & HEART_MASK).bit_count()


def _duas_ultimas_points(cards: int, trick_index: int) -> int:
    return -120 if trick_index == HAND_SIZE - 2 else -240 if trick_index == HAND_SIZE - 1 else 0


def _king_points(cards: int, trick_index: int) -> int:
    return -320 if cards & KH_MASK else 0


def _negative_salada_points(cards: int, trick_index: int) -> int:
    return -_salada_points(cards, trick_index)


def _trunfo_points(cards: int, trick_index: int) -> int:
    return 50


TRICK_POINTS: tuple[Callable[[int, int], int], ...] = (
    _vazas_points,
    _homens_points,
    _mulheres_points,
    _copas_points,
    _duas_ultimas_points,
    _king_points,
    _negative_salada_points,
    _trunfo_points,
    _salada_points,  # Bolola
)
"""Per contract (by index): ``trick_points`` of that contract, as a function of the trick's cards and index."""


# ------------------------------------------------------------------------------------------ what may be played
def play_chain(contract: int, trump: int, led: int, top_led: int, top_trump: int, broken: bool) -> tuple[int, ...]:
    """The chain of card sets a seat must play from, strictest first (see the module docstring).

    ``led`` is the suit led (-1 when the seat leads), ``top_led`` the highest card of that suit in the
    trick, ``top_trump`` the highest trump in it (-1: none), ``broken`` whether a heart (a trump, in
    Trunfo) has been played in this hand. The engine looks the chains up in the tables below, made from this
    function once (:data:`LEAD_CHAINS`, :data:`FOLLOW_CHAINS`, :data:`TRUNFO_FOLLOW_CHAINS`).
    """
    c = CONTRACTS[contract]
    if led < 0:  # leading
        if contract == TRUNFO:
            return () if broken else (ALL & ~SUIT_MASK[trump],)
        return (NON_HEARTS,) if c.hearts_lead and not broken else ()
    suit = SUIT_MASK[led]
    if contract == TRUNFO:
        trumps = SUIT_MASK[trump]
        higher = HIGHER[top_trump] if top_trump >= 0 else trumps
        if led == trump:
            return (higher, trumps)
        return (suit, higher, trumps)
    first = (c.follow_forced & LOWER[top_led], suit) if c.follow_forced else (suit,)
    return first + c.void_forced


_TRUMPS = (0, 1, 2, 3, -1)
"""The trump index of the chain tables: suits 0..3, then -1 (no trump) last, where a -1 index finds it."""

LEAD_CHAINS: tuple[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], ...] = tuple(
    tuple(
        (play_chain(contract, trump, -1, -1, -1, False), play_chain(contract, trump, -1, -1, -1, True))
        for trump in _TRUMPS
    )
    for contract in range(len(CONTRACTS))
)
"""``LEAD_CHAINS[contract][trump][broken]``: the chain of the seat that leads (``trump`` -1: no trump)."""

FOLLOW_CHAINS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    () if contract == TRUNFO else tuple(play_chain(contract, -1, top // 13, top, -1, False) for top in range(DECK_SIZE))
    for contract in range(len(CONTRACTS))
)
"""``FOLLOW_CHAINS[contract][top_led]``: the chain of a seat that follows in a contract without trump (the suit led is
the top card's; whether hearts are broken changes nothing once a card is led). Empty for Trunfo."""

TRUNFO_FOLLOW_CHAINS: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(play_chain(TRUNFO, trump, led, -1, top_trump, False) for top_trump in (*range(DECK_SIZE), -1))
        for led in range(4)
    )
    for trump in range(4)
)
"""``TRUNFO_FOLLOW_CHAINS[trump][led][top_trump]``: the chain of a seat that follows in Trunfo (``top_trump`` -1, no
trump in the trick yet, is the last entry; the top card led changes nothing)."""


def legal_mask(hand: int, chain: Sequence[int]) -> int:
    """The cards of ``hand`` that may be played under ``chain``."""
    for allowed in chain:
        m = hand & allowed
        if m:
            return m
    return hand


def revealed(card: int, chain: Sequence[int]) -> int:
    """The cards a seat showed it did not hold by playing ``card`` under ``chain``."""
    shown = 0
    b = 1 << card
    for allowed in chain:
        if allowed & b:
            return shown
        shown |= allowed
    return shown


def trick_winner(plays: Sequence[tuple[int, int]], trump: int) -> int:
    """Index of the winning play: the highest trump (``trump`` >= 0), else the highest card of the suit led."""
    led = plays[0][1] // 13
    best = 0
    best_key = -1
    for i, (_, card) in enumerate(plays):
        s = card // 13
        key = card % 13 + (100 if s == trump else 50 if s == led else 0)
        if key > best_key:
            best, best_key = i, key
    return best


def placements(totals: Sequence[int]) -> list[int]:
    """Highest total first; equal totals share the place (1 2 2 4)."""
    return [1 + sum(1 for other in totals if other > t) for t in totals]
