"""Fodinha options: every invalid combination is rejected up front, with a message that says why."""

from __future__ import annotations

from typing import Any

import pytest

from sefode.engine import InvalidOptions
from sefode.games.fodinha import Fodinha, FodinhaOptions, parse_options

GAME = Fodinha()

INVALID: list[tuple[str, Any, list[str]]] = [
    # (rule, options, words the message must contain)
    ("options_not_an_object", [("players", 4)], ["options must be a JSON object"]),
    ("options_not_an_object_string", "sefode", ["options must be a JSON object"]),
    ("unknown_key", {"players": 4, "colour": "red"}, ["unknown option", "colour"]),
    ("unknown_keys_all_named", {"jokers": True, "colour": "red"}, ["colour", "jokers"]),
    ("unknown_variant", {"variant": "truco"}, ["variant must be one of", "sefode", "7letras", "truco"]),
    ("variant_not_a_string", {"variant": 1}, ["variant must be one of"]),
    ("players_below_2", {"players": 1}, ["2 to 8 players", "1"]),
    ("players_zero", {"players": 0}, ["2 to 8 players"]),
    ("players_negative", {"players": -3}, ["2 to 8 players"]),
    ("players_above_8", {"players": 9}, ["2 to 8 players", "9"]),
    ("players_above_8_7letras", {"variant": "7letras", "players": 9}, ["2 to 8 players"]),
    ("players_as_string", {"players": "4"}, ["'players'", "whole number"]),
    ("players_as_float", {"players": 4.0}, ["'players'", "whole number"]),
    ("players_as_bool", {"players": True}, ["'players'", "whole number", "True"]),
    ("players_null", {"players": None}, ["'players'", "whole number"]),
    ("decks_3", {"decks": 3}, ["1 or 2 decks", "3"]),
    ("decks_0", {"decks": 0}, ["1 or 2 decks"]),
    ("decks_as_bool", {"decks": True}, ["'decks'", "whole number"]),
    ("decks_as_string", {"decks": "2"}, ["'decks'", "whole number"]),
    ("decks_2_in_7letras", {"variant": "7letras", "decks": 2}, ["7 Letras", "one deck", "'decks'"]),
    ("decks_3_in_7letras", {"variant": "7letras", "decks": 3}, ["7 Letras", "one deck"]),
    ("teams_odd_players_3", {"players": 3, "teams": True}, ["pairs", "4, 6 or 8 players", "3"]),
    ("teams_odd_players_5", {"players": 5, "teams": True}, ["4, 6 or 8 players"]),
    ("teams_odd_players_7", {"players": 7, "teams": True}, ["4, 6 or 8 players"]),
    ("teams_two_players", {"players": 2, "teams": True}, ["4, 6 or 8 players"]),
    ("teams_in_7letras", {"variant": "7letras", "players": 4, "teams": True}, ["7 Letras", "team"]),
    ("teams_as_int", {"players": 4, "teams": 1}, ["'teams'", "true or false"]),
    ("teams_as_string", {"players": 4, "teams": "yes"}, ["'teams'", "true or false"]),
    ("lives_in_7letras", {"variant": "7letras", "lives": 5}, ["7 Letras", "'lives'"]),
    ("lives_zero", {"lives": 0}, ["lives must be from 1 to 99", "0"]),
    ("lives_negative", {"lives": -2}, ["lives must be from 1 to 99"]),
    ("lives_too_many", {"lives": 100}, ["lives must be from 1 to 99", "100"]),
    ("lives_as_bool", {"lives": True}, ["'lives'", "whole number"]),
    ("lives_as_float", {"lives": 2.5}, ["'lives'", "whole number"]),
    ("max_cards_zero", {"players": 4, "max_cards": 0}, ["max_cards must be from 1 to 10", "0"]),
    ("max_cards_above_fit_1_deck", {"players": 4, "max_cards": 11}, ["max_cards must be from 1 to 10", "4 players"]),
    ("max_cards_above_fit_2_decks", {"players": 8, "decks": 2, "max_cards": 11}, ["from 1 to 10"]),
    ("max_cards_above_fit_7letras", {"variant": "7letras", "players": 4, "max_cards": 10}, ["from 1 to 9"]),
    ("max_cards_above_fit_2_players", {"players": 2, "max_cards": 21}, ["from 1 to 20"]),
    ("max_cards_negative", {"max_cards": -1}, ["max_cards must be from 1"]),
    ("max_cards_as_bool", {"max_cards": True}, ["'max_cards'", "whole number"]),
    ("max_cards_as_string", {"max_cards": "5"}, ["'max_cards'", "whole number"]),
]


@pytest.mark.parametrize(("rule", "options", "words"), INVALID, ids=[case[0] for case in INVALID])
def test_invalid_options_are_rejected_with_a_message_that_says_why(rule: str, options: Any, words: list[str]) -> None:
    with pytest.raises(InvalidOptions) as err:
        parse_options(options)
    message = str(err.value)
    for word in words:
        assert word in message, f"{rule}: {message!r} does not say {word!r}"
    assert err.value.code == "options/invalid"


@pytest.mark.parametrize(("rule", "options", "words"), INVALID, ids=[case[0] for case in INVALID])
def test_new_match_rejects_invalid_options_up_front(rule: str, options: Any, words: list[str]) -> None:
    with pytest.raises(InvalidOptions) as err:
        GAME.new_match(options, 1)
    assert words[0] in str(err.value)


VALID: list[tuple[dict[str, Any], FodinhaOptions]] = [
    ({}, FodinhaOptions("sefode", 4, 1, False, 5, None)),
    ({"variant": "sefode", "players": 2}, FodinhaOptions("sefode", 2, 1, False, 5, None)),
    ({"players": 8, "decks": 2, "teams": True, "lives": 3}, FodinhaOptions("sefode", 8, 2, True, 3, None)),
    ({"players": 6, "teams": True}, FodinhaOptions("sefode", 6, 1, True, 5, None)),
    ({"players": 4, "max_cards": 10}, FodinhaOptions("sefode", 4, 1, False, 5, 10)),
    ({"players": 4, "max_cards": 1}, FodinhaOptions("sefode", 4, 1, False, 5, 1)),
    ({"variant": "7letras", "players": 8}, FodinhaOptions("7letras", 8, 1, False, 5, None)),
    # The normalised form (as histories export it) is accepted again: explicit defaults, lives null.
    ({"variant": "7letras", "players": 3, "decks": 1, "teams": False, "lives": None}, FodinhaOptions("7letras", 3)),
    ({"variant": "7letras", "players": 4, "max_cards": 9}, FodinhaOptions("7letras", 4, 1, False, 5, 9)),
    ({"lives": 99}, FodinhaOptions("sefode", 4, 1, False, 99, None)),
]


@pytest.mark.parametrize(("options", "expected"), VALID)
def test_valid_options_are_accepted_and_normalised(options: dict[str, Any], expected: FodinhaOptions) -> None:
    parsed = parse_options(options)
    assert parsed == expected
    # The normalised JSON form round-trips.
    assert parse_options(parsed.to_json()) == parsed
    assert GAME.options(GAME.new_match(options, 3)) == parsed.to_json()


def test_pairs_pool_is_twice_the_lives() -> None:
    assert parse_options({"players": 4, "teams": True, "lives": 4}).pool == 8
    assert parse_options({"players": 4, "lives": 4}).pool == 4
    assert parse_options({"variant": "7letras"}).pool == 0


def test_bad_seed_is_rejected() -> None:
    for seed in (None, "1", 1.5, True):
        with pytest.raises(InvalidOptions) as err:
            GAME.new_match({}, seed)  # type: ignore[arg-type]
        assert "seed must be a whole number" in str(err.value)
