"""King (seed 001, docs/rulings.md §2): twelve hands of contracts for four players.

``game.py`` (the engine and its spec: choosing, checking and applying actions), ``rules.py`` (cards, contracts,
action codes, scoring, forced plays), ``state.py``, ``dealing.py`` (the deals, a history's presets), ``scoring.py``
(tricks, the end of a hand and of the match), ``views.py`` (what a seat sees, why a card is refused, the report),
``sampling.py`` (copies, information sets, resampling); ``bots.py`` holds the bots' heuristics and search hooks,
which ``King.bot_knowledge`` hands the bots; ``rules/`` the rules pages, ``i18n/`` the catalogues and ``client/``
the browser module.
"""

from sefode.games.king.game import CONTRACT, SPEC, TRUMP, King
from sefode.games.king.state import KingState, Phase

__all__ = ["CONTRACT", "SPEC", "TRUMP", "King", "KingState", "Phase"]
