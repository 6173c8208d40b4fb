"""Guimenon TCG (seed 003): a two-player card game of 3 Locations and 6 simultaneous secret turns.

``cards/*.toml`` hold the card set as data (``cardset`` loads and checks it, and writes the ability text); ``rules``
interprets the abilities' closed vocabulary and the steps of a turn (and holds the action codes); ``game`` is the
engine behind ``sefode.engine.Game`` (legal actions, checking and applying them), with ``dealing`` (setting up a
match, starting a turn), ``scoring`` (the reveal that ends a turn), ``views`` (what a seat sees, a turn's public
events, the report) and ``sampling`` (information sets, resampling); ``bots`` holds the easy/normal policies and the
hard search, which ``Guimenon.bot_knowledge`` hands the bots.
"""

from sefode.games.guimenon.game import CONFIRM, DISCARD, PLACE, SPEC, TAKE_BACK, Guimenon
from sefode.games.guimenon.state import GState

__all__ = ["CONFIRM", "DISCARD", "PLACE", "SPEC", "TAKE_BACK", "GState", "Guimenon"]
