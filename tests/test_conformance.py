"""The conformance suite for every registered game, plugins included (issue 8 §6): the checks live in the installed
package (``sefode.testing.suite``, the pytest plugin ``sefode.testing``), so an outside game runs the same ones with
``pytest --sefode-game NAME``. Here each check runs for every registered game and every game whose plugin failed to
load (the "plugin loaded" check then fails, naming the error)."""

from __future__ import annotations

from sefode.testing.suite import (
    test_a_seat_that_is_not_awaited_is_refused_and_nothing_changes,
    test_a_state_rebuilt_from_a_seats_view_gives_it_the_same_decisions,
    test_actions_from_outside_are_refused_with_a_stable_code_and_change_nothing,
    test_clones_are_independent_and_resample_keeps_what_the_seat_has_seen,
    test_every_bot_level_ends_its_match,
    test_folding_the_updates_gives_every_seat_its_full_state_and_nothing_more,
    test_no_crash_no_stall_and_a_valid_outcome,
    test_no_view_or_event_tells_a_seat_what_it_cannot_see,
    test_same_options_seed_and_actions_give_the_same_match,
    test_the_exported_history_replays_to_the_same_report,
    test_the_game_loaded_and_declares_a_complete_spec,
    test_the_report_and_the_events_keep_the_platforms_conventions,
    test_the_standing_is_public_has_a_score_per_seat_and_its_round_never_goes_back,
    test_the_state_message_says_if_the_match_is_over_and_each_seats_standing,
    test_the_view_schema_names_keys_the_view_has,
    test_views_of_many_seats_equal_each_seats_view,
)

__all__ = [
    "test_a_seat_that_is_not_awaited_is_refused_and_nothing_changes",
    "test_a_state_rebuilt_from_a_seats_view_gives_it_the_same_decisions",
    "test_actions_from_outside_are_refused_with_a_stable_code_and_change_nothing",
    "test_clones_are_independent_and_resample_keeps_what_the_seat_has_seen",
    "test_every_bot_level_ends_its_match",
    "test_folding_the_updates_gives_every_seat_its_full_state_and_nothing_more",
    "test_no_crash_no_stall_and_a_valid_outcome",
    "test_no_view_or_event_tells_a_seat_what_it_cannot_see",
    "test_same_options_seed_and_actions_give_the_same_match",
    "test_the_exported_history_replays_to_the_same_report",
    "test_the_game_loaded_and_declares_a_complete_spec",
    "test_the_report_and_the_events_keep_the_platforms_conventions",
    "test_the_standing_is_public_has_a_score_per_seat_and_its_round_never_goes_back",
    "test_the_state_message_says_if_the_match_is_over_and_each_seats_standing",
    "test_the_view_schema_names_keys_the_view_has",
    "test_views_of_many_seats_equal_each_seats_view",
]
