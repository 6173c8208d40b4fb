"""One Man's Trash (seed 004, docs/rulings.md §3): a shedding game of Trash Piles for 2 to 6 players.

``game.py`` (the engine and its spec), ``rules.py`` (cards, adjacency, action codes), ``state.py``;
``bots.py`` holds the bots' heuristics and search hooks, which ``Trash.bot_knowledge`` hands the bots;
``rules/`` the rules pages, ``i18n/`` the catalogues and ``client/`` the browser module.
"""

from sefode.games.trash.game import SPEC, Trash
from sefode.games.trash.state import TrashOptions, TrashState

__all__ = ["SPEC", "Trash", "TrashOptions", "TrashState"]
