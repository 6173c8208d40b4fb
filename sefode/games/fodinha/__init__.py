"""Fodinha family: Se Fode (with Se Fode Junto pairs) and 7 Letras. Every rule of the family is here."""

from sefode.games.fodinha.game import BID, JOIN, LEAVE, SHOW, Fodinha
from sefode.games.fodinha.options import FodinhaOptions, parse_options
from sefode.games.fodinha.state import FodinhaState

__all__ = ["BID", "JOIN", "LEAVE", "SHOW", "Fodinha", "FodinhaOptions", "FodinhaState", "parse_options"]
