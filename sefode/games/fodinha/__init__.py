"""Fodinha family: Se Fode (with Se Fode Junto pairs) and 7 Letras. Every rule of the family is here.

``game.py`` (the engine and its spec), ``options.py``, ``rules.py`` (with the action codes), ``state.py``;
``bots.py`` holds the family's bot heuristics and search hooks, which ``Fodinha.bot_knowledge`` hands the
bots; ``rules/`` the rules pages, ``i18n/`` the catalogues and ``client/`` the browser module.
"""

from sefode.games.fodinha.game import BID, JOIN, LEAVE, SHOW, SPEC, Fodinha
from sefode.games.fodinha.options import FodinhaOptions, parse_options
from sefode.games.fodinha.state import FodinhaState

__all__ = ["BID", "JOIN", "LEAVE", "SHOW", "SPEC", "Fodinha", "FodinhaOptions", "FodinhaState", "parse_options"]
