"""Every kind of player, by name: ``random``, the three levels, and ``cmd:<command line>`` (a program).

The catalogue is a plain table: nothing registers itself when imported.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from sefode.bots.base import Player, RandomPlayer
from sefode.bots.levels import EasyPlayer, HardPlayer, NormalPlayer
from sefode.bots.program import ProgramPlayer

PlayerFactory = Callable[[int, float], Player]
KINDS: Mapping[str, PlayerFactory] = {
    "random": RandomPlayer,
    "easy": EasyPlayer,
    "normal": NormalPlayer,
    "hard": HardPlayer,
}
PROGRAM_PREFIX = "cmd:"


def player_kinds() -> list[str]:
    return sorted(KINDS)


def is_player_kind(kind: str) -> bool:
    """A named kind, or ``cmd:<command line>`` (a program, ``sefode.bots.program``)."""
    return (kind.startswith(PROGRAM_PREFIX) and bool(kind[len(PROGRAM_PREFIX) :].strip())) or kind in KINDS


def make_player(kind: str, seed: int, think_ms: float = 200.0) -> Player:
    if kind.startswith(PROGRAM_PREFIX):
        return ProgramPlayer(kind[len(PROGRAM_PREFIX) :], seed, think_ms)
    if kind not in KINDS:
        raise ValueError(f"unknown player kind {kind!r}; known: {', '.join(sorted(KINDS))}")
    return KINDS[kind](seed, think_ms)
