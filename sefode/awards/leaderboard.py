"""Leaderboard ordering and pagination (seed 002, docs/rulings.md §1). Pure logic: no I/O.

The medal table orders players by gold, then silver, then bronze (trophies shown beside them); the trophy
table orders them by trophies. Equal counts share a rank (competition ranking); within a shared rank rows are
listed by name, then by id, so pages are stable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

DEFAULT_PAGE_SIZE = 20
MAX_PAGE_SIZE = 100


class Board(StrEnum):
    MEDALS = "medals"
    TROPHIES = "trophies"


@dataclass(frozen=True, slots=True)
class Tally:
    player: str
    name: str
    gold: int = 0
    silver: int = 0
    bronze: int = 0
    trophies: int = 0


@dataclass(frozen=True, slots=True)
class RankedRow:
    rank: int
    tally: Tally


@dataclass(frozen=True, slots=True)
class Page:
    board: Board
    page: int
    """1-based."""
    pages: int
    per_page: int
    total: int
    rows: tuple[RankedRow, ...]


def _score(t: Tally, board: Board) -> tuple[int, ...]:
    if board is Board.MEDALS:
        return (t.gold, t.silver, t.bronze)
    return (t.trophies,)


def _tiebreak(t: Tally, board: Board) -> tuple[int, ...]:
    """Display order within a shared rank: on the trophy table, medals break nothing but order the listing."""
    if board is Board.MEDALS:
        return (-t.trophies,)
    return (-t.gold, -t.silver, -t.bronze)


def rank(tallies: Sequence[Tally], board: Board = Board.MEDALS) -> list[RankedRow]:
    """Every player with something on this board (a medal, or a trophy), best first, ranks shared on ties."""
    shown = [t for t in tallies if any(_score(t, board))]
    ordered = sorted(
        shown, key=lambda t: (tuple(-x for x in _score(t, board)), _tiebreak(t, board), t.name.casefold(), t.player)
    )
    rows: list[RankedRow] = []
    for i, t in enumerate(ordered):
        if rows and _score(rows[-1].tally, board) == _score(t, board):
            rows.append(RankedRow(rank=rows[-1].rank, tally=t))
        else:
            rows.append(RankedRow(rank=i + 1, tally=t))
    return rows


def clamp_page_size(per_page: int) -> int:
    return max(1, min(MAX_PAGE_SIZE, per_page))


def page_count(total: int, per_page: int) -> int:
    return max(1, -(-total // clamp_page_size(per_page)))


def paginate(
    rows: Sequence[RankedRow], page: int, per_page: int = DEFAULT_PAGE_SIZE, board: Board = Board.MEDALS
) -> Page:
    """Page ``page`` (1-based; clamped into range) of ``per_page`` rows."""
    size = clamp_page_size(per_page)
    pages = page_count(len(rows), size)
    current = max(1, min(pages, page))
    start = (current - 1) * size
    return Page(
        board=board, page=current, pages=pages, per_page=size, total=len(rows), rows=tuple(rows[start : start + size])
    )


def page_of(rows: Sequence[RankedRow], player: str, per_page: int = DEFAULT_PAGE_SIZE) -> int | None:
    """ "Show me": the 1-based page holding ``player``'s row, or None if they are not on the board."""
    size = clamp_page_size(per_page)
    for i, row in enumerate(rows):
        if row.tally.player == player:
            return i // size + 1
    return None


def leaderboard_page(
    tallies: Sequence[Tally],
    board: Board = Board.MEDALS,
    page: int = 1,
    per_page: int = DEFAULT_PAGE_SIZE,
    me: str | None = None,
) -> tuple[Page, int | None]:
    """The page asked for, or with ``me`` the page holding that player's row (if they are on the board).
    Also returns the 1-based position of ``me`` in the whole board, or None."""
    rows = rank(tallies, board)
    position: int | None = None
    if me is not None:
        found = page_of(rows, me, per_page)
        if found is not None:
            page = found
            position = next(i + 1 for i, r in enumerate(rows) if r.tally.player == me)
    return paginate(rows, page, per_page, board), position
