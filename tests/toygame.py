"""The test-only sealed-bid game, now its own distribution (``plugins/sefode-lances``): re-exported here."""

from sefode_lances.game import Lances, LancesState

__all__ = ["Lances", "LancesState"]
