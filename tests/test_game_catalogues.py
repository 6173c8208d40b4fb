"""Every registered game (plugins included) names what the page shows of it in its own catalogues: its title, its
options, their choices and help, its variants, and the labels ``describe_action`` gives, in pt-BR and English, with the
same placeholders. The browser's schema-driven forms, lobby summary and generic renderer read these keys. The checks
live in the conformance suite (``sefode.testing.suite``), which an outside game runs with ``pytest --sefode-game``."""

from __future__ import annotations

from sefode.testing.suite import (
    test_a_game_names_its_spec_in_both_catalogues,
    test_action_labels_are_in_the_catalogue_with_their_params,
)

__all__ = ["test_a_game_names_its_spec_in_both_catalogues", "test_action_labels_are_in_the_catalogue_with_their_params"]
