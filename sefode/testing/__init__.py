"""``sefode.testing``: the conformance suite every game must pass, as a pytest plugin (issue 26).

Installed with ``sefode`` (entry point ``pytest11``), so a game in its own distribution runs it from its own
repository::

    pip install 'sefode[testing]' -e .      # sefode, pytest and hypothesis; then your game
    pytest --sefode-game mygame              # or, in pyproject.toml: [tool.pytest.ini_options] sefode_game = ["mygame"]

With a game named (``--sefode-game``, repeatable, or the ``sefode_game`` ini setting), the plugin adds the suite
(``sefode.testing.suite``) to the collected tests, one test per check and game. A game that is not registered fails
the "plugin loaded" check with the reason (the plugin's load error, or that no installed distribution declares it),
and its other checks are skipped. Without a game named, nothing is added; a test module may still import the checks
(``from sefode.testing.suite import *``) and they run for every registered game, as the project's own
``tests/test_conformance.py`` does.

This module imports nothing of the platform when it is loaded, so it costs nothing in other test runs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

GAME_PARAMETER = "sefode_game_name"
"""The parameter every check of the suite takes: the name of the game it checks."""


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("sefode", "Se Fode game conformance (sefode.testing)")
    group.addoption(
        "--sefode-game",
        action="append",
        default=[],
        metavar="NAME",
        help="run the conformance suite for this game (repeat for several)",
    )
    parser.addini("sefode_game", "games the conformance suite checks (as --sefode-game)", type="linelist")


def named_games(config: pytest.Config) -> list[str]:
    """The games named on the command line, else in the ini file (empty: none named)."""
    given: list[str] = config.getoption("sefode_game") or []
    if not given:
        given = list(config.getini("sefode_game") or [])
    return list(dict.fromkeys(given))


def games_to_check(config: pytest.Config) -> list[str]:
    """The games named; with none named, every registered game and every one whose plugin failed to load."""
    named = named_games(config)
    if named:
        return named
    from sefode.engine import LOAD_ERRORS, game_names

    return sorted(set(game_names()) | set(LOAD_ERRORS))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if GAME_PARAMETER in metafunc.fixturenames:
        metafunc.parametrize(GAME_PARAMETER, games_to_check(metafunc.config))


def pytest_report_header(config: pytest.Config) -> list[str]:
    from sefode.testing.found import why_missing

    named = named_games(config)
    if not named:
        return []
    lines = [f"sefode conformance suite for: {', '.join(named)}"]
    lines += [f"  {reason}" for reason in map(why_missing, named) if reason]
    return lines


def _collect(node: pytest.Collector) -> list[pytest.Item]:
    items: list[pytest.Item] = []
    for child in node.collect():
        if isinstance(child, pytest.Item):
            items.append(child)
        elif isinstance(child, pytest.Collector):
            items.extend(_collect(child))
    return items


@pytest.hookimpl(tryfirst=True)  # before -k and -m deselect
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    if not named_games(config):
        return
    from sefode.testing import suite

    if any(getattr(getattr(item, "function", None), "__module__", None) == suite.__name__ for item in items):
        return  # a test module already imports the checks
    module = pytest.Module.from_parent(session, path=Path(suite.__file__))
    items.extend(_collect(module))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config) -> None:
    """A hint when a game was named and nothing ran (a ``-k`` that matches no check: pytest exits 5, saying no more)."""
    named = named_games(config)
    if named and exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
        from sefode.testing import suite

        terminalreporter.write_line(
            f"sefode.testing: no conformance check was selected for {', '.join(named)}; the checks are "
            + ", ".join(suite.__all__)
        )
