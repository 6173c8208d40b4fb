"""What every match state holds, and the engine methods that follow from it.

A game's state subclasses :class:`MatchState` (its seed, seeded generator, options, seat count, action log and phase)
and its rules subclass :class:`MatchGame`, which then provides ``options``, ``match_seed``, ``seats``, ``is_over``
and ``history_actions``; ``clone`` copies the generator with :meth:`MatchState.copy_rng`. Games that keep none of
this may still implement :class:`sefode.engine.Game` directly.

The phase convention: a game's phases are a ``StrEnum`` with an ``OVER = "over"`` member (:class:`Phase` when the
game needs no other than playing and over), and a match is over exactly when its phase is ``OVER``: every game
answers "is it over?" through :attr:`MatchState.over`.
"""

from __future__ import annotations

import _random
import math
import random
from collections.abc import MutableSequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from sefode.engine import JSON, Action, Game, Seat

OVER = "over"
"""The value of every phase enum's ``OVER`` member."""


class Phase(StrEnum):
    """The phases of a game that has no other than these two."""

    PLAYING = "playing"
    OVER = OVER


@dataclass(slots=True, kw_only=True)
class MatchState:
    """The part of a match state the platform's methods read. Subclasses are dataclasses too (with ``slots=True`` for
    the quickest field access, as the built-in games); these fields are keyword-only, so a subclass's own fields may
    come in any order."""

    seed: int
    """Every chance event of the match comes from it (through ``rng``); secret until the match is over."""
    rng: random.Random
    """The match's only source of chance, ``random.Random(seed)`` at the start."""
    options: dict[str, JSON]
    """The normalised options (every default filled in), as ``Game.validate_options`` gave them. Never changed, so
    copies share it; ``Game.options`` hands out a copy."""
    seats: int
    """How many seats the match has now (a late player may add one)."""
    phase: str
    """A member of the game's phase enum (a ``StrEnum``), whose ``OVER`` member ends the match."""
    log: list[tuple[Seat, Action]] = field(default_factory=list)
    """``(seat, action)`` of every decision applied, in order: the hand history's actions (``action_json`` of each)."""

    @property
    def over(self) -> bool:
        """Is the match over? (Its phase is the game's ``OVER``.)"""
        return self.phase == OVER

    def copy_rng(self) -> random.Random:
        """A generator in the same state as ``rng``, for ``clone``: the copy draws what this state would draw next.

        It is made without seeding (``random.Random()`` would read the system's entropy first, a system call that cost
        more than the rest of a clone): ``setstate`` gives it the whole state."""
        rng = random.Random.__new__(random.Random)
        rng.setstate(self.rng.getstate())
        return rng


def seeded_random(seed: int) -> random.Random:
    """``random.Random(seed)`` for a whole-number ``seed``, in the same state, made cheaper: the C generator is seeded
    directly, without ``Random.__init__`` and ``Random.seed`` (Python code that only checks the seed's type before
    seeding it the same way). Held equal to ``random.Random(seed)`` by ``tests/test_match_base.py``."""
    rng = random.Random.__new__(random.Random)
    _random.Random.seed(rng, seed)
    rng.gauss_next = None  # type: ignore[attr-defined]  # what Random.seed also sets (typeshed does not declare it)
    return rng


def randbelow(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n`` at least 1, drawing the same bits (its ``_randbelow`` written out). Held equal to
    ``randrange`` by ``tests/test_match_base.py``."""
    getrandbits = rng.getrandbits
    bits = n.bit_length()
    r = getrandbits(bits)
    while r >= n:
        r = getrandbits(bits)
    return r


def sample_range(rng: random.Random, n: int, k: int) -> list[int]:
    """``k`` distinct numbers of ``range(n)``: exactly what ``rng.sample(range(n), k)`` returns, drawing the same bits
    from ``rng`` (so a seed deals what it always dealt), at half the cost. CPython's ``sample`` is Python code that
    calls ``_randbelow`` once per draw; this is its algorithm (a pool for small ``n``, a set of picks for large)
    with that call written out. ``tests/test_match_base.py`` holds it equal to ``random.Random.sample``."""
    getrandbits = rng.getrandbits
    result: list[int] = []
    pick = result.append
    if n <= (_SETSIZE[k] if k < len(_SETSIZE) else _setsize(k)):
        if n < len(_POOLS):
            pool = _POOLS[n][:]
            steps = _POOL_STEPS[n][:k]
        else:
            pool = list(range(n))
            steps = _pool_steps(n)[:k]
        for m, bits, last in steps:  # m numbers left in the pool, the last at index ``last``
            j = getrandbits(bits)  # _randbelow(m): the bits of m, drawn again while m or above
            while j >= m:
                j = getrandbits(bits)
            pick(pool[j])
            pool[j] = pool[last]
    else:
        picked: set[int] = set()
        bits = n.bit_length()
        for _ in range(k):
            j = getrandbits(bits)
            while j >= n or j in picked:
                j = getrandbits(bits)
            picked.add(j)
            pick(j)
    return result


def _setsize(k: int) -> int:
    """CPython's ``sample`` takes from a pool when the population is at most this, else keeps a set of picks."""
    return 21 + (4 ** math.ceil(math.log(k * 3, 4)) if k > 5 else 0)


_SETSIZE = [_setsize(k) for k in range(128)]


def _pool_steps(n: int) -> tuple[tuple[int, int, int], ...]:
    """The draws of ``sample_range``'s pool from ``n`` numbers: for each count ``m`` left (``n`` down to 1), ``m``, its
    bit length (what ``_randbelow(m)`` draws) and ``m - 1``, worked out once per ``n``."""
    return tuple((m, m.bit_length(), m - 1) for m in range(n, 0, -1))


_POOLS = [list(range(n)) for n in range(81)]
"""``_POOLS[n]``: a pool's numbers before the first draw, copied per call (up to two truco decks, 80 cards)."""
_POOL_STEPS = [_pool_steps(n) for n in range(81)]


def shuffle(rng: random.Random, items: MutableSequence[Any]) -> None:
    """Shuffle ``items`` in place: exactly what ``rng.shuffle(items)`` does, drawing the same bits, at half the cost
    (CPython's ``shuffle`` calls the Python ``_randbelow`` once per item; here it is written out). Held equal to
    ``random.Random.shuffle`` by ``tests/test_match_base.py``."""
    getrandbits = rng.getrandbits
    n = len(items)
    for i, bits in _SHUFFLE_STEPS[n] if n < len(_SHUFFLE_STEPS) else _shuffle_steps(n):
        j = getrandbits(bits)  # _randbelow(i + 1): the bits of i + 1, drawn again while above i
        while j > i:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]


def _shuffle_steps(n: int) -> tuple[tuple[int, int], ...]:
    """The steps of ``shuffle`` on ``n`` items: each position ``i`` from the last down to 1, with the bit length of
    ``i + 1`` (what ``_randbelow(i + 1)`` draws), worked out once per length."""
    return tuple((i, (i + 1).bit_length()) for i in range(n - 1, 0, -1))


_SHUFFLE_STEPS = [_shuffle_steps(n) for n in range(64)]


M = TypeVar("M", bound=MatchState)


class MatchGame(Game[M]):
    """A :class:`sefode.engine.Game` whose state is a :class:`MatchState`: what follows from the base fields is
    written here once."""

    def options(self, state: M) -> dict[str, JSON]:
        return dict(state.options)

    def match_seed(self, state: M) -> int:
        return state.seed

    def seats(self, state: M) -> int:
        return state.seats

    def is_over(self, state: M) -> bool:
        return state.over

    def history_actions(self, state: M) -> list[dict[str, JSON]]:
        """Each logged decision as ``{"seat": s, **action_json(state, action)}``."""
        action_json = self.action_json
        return [{"seat": seat, **action_json(state, action)} for seat, action in state.log]
