"""Options of the Fodinha family, validated up front with a message that says why."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sefode.engine import InvalidOptions

SEFODE = "sefode"
SETE_LETRAS = "7letras"
VARIANTS = (SEFODE, SETE_LETRAS)
SETE_LETRAS_LIMIT = 7
"""Points at which a 7 Letras player is out (the seven letters F-O-D-A-S-S-E)."""

_KEYS = ("variant", "players", "decks", "teams", "lives", "max_cards")
_ALLOWED = frozenset((*_KEYS, "game"))


@dataclass(frozen=True, slots=True)
class FodinhaOptions:
    variant: str = SEFODE
    players: int = 4
    decks: int = 1
    teams: bool = False
    lives: int = 5
    """Lives per player (Se Fode); a pair's pool is twice this. 7 Letras counts points instead."""
    max_cards: int | None = None
    """Largest hand; None means the most that fits for the players still in."""
    sete_letras: bool = field(init=False, repr=False, compare=False)
    """Is this 7 Letras? (``variant == "7letras"``, kept as a field: the rules ask it at every trick and hand.)"""

    def __post_init__(self) -> None:
        object.__setattr__(self, "sete_letras", self.variant == SETE_LETRAS)

    @property
    def pool(self) -> int:
        """Starting score of a unit: lives (doubled for a pair) or 0 points."""
        if self.sete_letras:
            return 0
        return self.lives * (2 if self.teams else 1)

    def fits(self, alive: int) -> int:
        """The most cards per hand for ``alive`` players (7 Letras keeps one card for the vira)."""
        most = (40 * self.decks) // alive if not self.sete_letras else 39 // alive
        if self.max_cards is not None:
            most = min(most, self.max_cards)
        return max(most, 1)

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "players": self.players,
            "decks": self.decks,
            "teams": self.teams,
            "lives": None if self.sete_letras else self.lives,
            "max_cards": self.max_cards,
        }


def _whole(raw: Mapping[str, Any], key: str, default: int) -> int:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidOptions(f"option {key!r} must be a whole number, not {value!r}")
    return value


def parse_options(raw: Mapping[str, Any]) -> FodinhaOptions:
    """Validate raw options (from a room, a history or the CLI).

    >>> parse_options({"variant": "7letras", "players": 3}).fits(3)
    13
    >>> parse_options({"variant": "7letras", "decks": 2})
    Traceback (most recent call last):
    ...
    sefode.engine.InvalidOptions: 7 Letras is played with one deck; option 'decks' must be 1
    """
    if type(raw) is not dict and not isinstance(raw, Mapping):  # a plain dict skips the ABC's slower check
        raise InvalidOptions(f"options must be a JSON object, not {type(raw).__name__}")
    if not _ALLOWED.issuperset(raw):
        unknown = sorted(str(k) for k in raw if k not in _ALLOWED)
        raise InvalidOptions(f"unknown option(s) {', '.join(unknown)}; Fodinha takes {', '.join(_KEYS)}")
    variant = raw.get("variant", SEFODE)
    if variant not in VARIANTS:
        raise InvalidOptions(f"variant must be one of {', '.join(VARIANTS)}, not {variant!r}")
    players = _whole(raw, "players", 4)
    if not 2 <= players <= 8:
        raise InvalidOptions(f"a table seats 2 to 8 players, not {players}")
    decks = _whole(raw, "decks", 1)
    teams = raw.get("teams", False)
    if not isinstance(teams, bool):
        raise InvalidOptions(f"option 'teams' must be true or false, not {teams!r}")
    lives_given = raw.get("lives") is not None
    lives = _whole(raw, "lives", 5) if lives_given else 5
    max_cards_raw = raw.get("max_cards")
    max_cards = None if max_cards_raw is None else _whole(raw, "max_cards", 0)

    if variant == SETE_LETRAS:
        if decks != 1:
            raise InvalidOptions("7 Letras is played with one deck; option 'decks' must be 1")
        if teams:
            raise InvalidOptions("7 Letras has no team mode; pairs ('teams') are a Se Fode option")
        if lives_given:
            raise InvalidOptions("7 Letras counts points up to the seven letters; it takes no 'lives' option")
    else:
        if decks not in (1, 2):
            raise InvalidOptions(f"Se Fode is played with 1 or 2 decks, not {decks}")
        if teams and players not in (4, 6, 8):
            raise InvalidOptions(f"Se Fode Junto (pairs) needs 4, 6 or 8 players, not {players}")
        if not 1 <= lives <= 99:
            raise InvalidOptions(f"lives must be from 1 to 99, not {lives}")
    options = FodinhaOptions(variant, players, decks, teams, lives, None)
    if max_cards is not None:
        most = options.fits(players)
        if not 1 <= max_cards <= most:
            raise InvalidOptions(
                f"max_cards must be from 1 to {most} (the most that fits for {players} players), not {max_cards}"
            )
        options = FodinhaOptions(variant, players, decks, teams, lives, max_cards)
    return options
