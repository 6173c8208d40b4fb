"""Guimenon TCG (seed 003): a two-player card game of 3 Locations and 6 simultaneous secret turns.

``cards/*.toml`` hold the card set as data (``cardset`` loads and checks it, and writes the ability
text); ``rules`` interprets the abilities' closed vocabulary and the steps of a turn; ``game`` is the
engine behind ``sefode.engine.Game``; ``bots`` registers the easy/normal policies and the hard search.
"""

from sefode.games.guimenon import bots as _bots  # noqa: F401  (registers the bots' knowledge)
from sefode.games.guimenon.game import CONFIRM, DISCARD, PLACE, SPEC, TAKE_BACK, Guimenon
from sefode.games.guimenon.state import GState

__all__ = ["CONFIRM", "DISCARD", "PLACE", "SPEC", "TAKE_BACK", "GState", "Guimenon"]
