"""The games. Each lives in its own package and implements ``sefode.engine.Game``."""

from __future__ import annotations

from typing import Any

from sefode.engine import Game


def builtin_games() -> list[Game[Any]]:
    from sefode.games.fodinha import Fodinha
    from sefode.games.trash import Trash

    return [Fodinha(), Trash()]
