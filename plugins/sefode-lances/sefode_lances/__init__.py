"""Lances, a test-only Se Fode plugin: its own distribution, found through the ``sefode.games`` entry point.

It has rules pages (``rules/``) and catalogues (``i18n/``) but no browser module, so the page plays it with the
generic renderer.
"""

from sefode_lances.game import Lances, LancesState

__all__ = ["Lances", "LancesState"]
