"""One Man's Trash (seed 004, docs/rulings.md §3): a shedding game of Trash Piles for 2 to 6 players.

``game.py`` (the engine and its spec: legal actions, checks and applying them), ``rules.py`` (cards, adjacency, action
codes), ``state.py``, ``dealing.py`` (setting up, a history's deal), ``scoring.py`` (the end and the placements),
``notation.py`` (actions as JSON and labels), ``views.py`` (what a seat sees, the report), ``sampling.py`` (copies,
information sets, resampling);
``bots.py`` holds the bots' heuristics and search hooks, which ``Trash.bot_knowledge`` hands the bots;
``rules/`` the rules pages, ``i18n/`` the catalogues and ``client/`` the browser module.
"""

from sefode.games.trash.game import SPEC, Trash
from sefode.games.trash.state import TrashOptions, TrashState

__all__ = ["SPEC", "Trash", "TrashOptions", "TrashState"]
