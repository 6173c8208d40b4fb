"""``sefode.testing`` from outside the repository (issue 26): the conformance suite installed with the package runs
for a game with ``pytest --sefode-game NAME`` from a folder of the author's own, and says why a game is not found."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from outside_env import fresh_venv, tracked_copy
from test_cli import broken_plugin

from sefode.testing import suite

OUTSIDE_OPTIONS = ("-p", "no:cacheprovider", "-p", "no:xdist", "-p", "no:schemathesis")
ROOT = Path(__file__).resolve().parents[1]


def outside_pytest(cwd: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """pytest in a folder outside the repository, with the plugins this environment has for its own suite left out
    (an author's environment has neither; schemathesis alone takes a second of CPU to load)."""
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", *OUTSIDE_OPTIONS, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**(env or os.environ), "PYTHONDONTWRITEBYTECODE": "1"},
        timeout=600,
    )


@pytest.mark.slow
def test_the_sample_plugin_installed_in_a_fresh_venv_passes_the_suite_from_outside_the_repository(
    tmp_path: Path,
) -> None:
    venv = fresh_venv(tmp_path)
    venv.install(tracked_copy(ROOT, "plugins/sefode-lances", tmp_path / "sefode-lances"))
    assert venv.where("sefode_lances", tmp_path).is_relative_to(venv.purelib)
    work = tmp_path / "work"
    work.mkdir()
    proc = venv.pytest(work, "--sefode-game", "lances", "-rA")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    passed = re.search(r"(\d+) passed in", proc.stdout)  # from_view, which Lances lacks, is checked as absent
    assert passed is not None and int(passed.group(1)) == len(suite.__all__), proc.stdout
    for check in ("test_the_game_loaded_and_declares_a_complete_spec", "test_every_bot_level_ends_its_match",
                  "test_a_game_names_its_spec_in_both_catalogues"):  # fmt: skip
        assert f"{check}[lances]" in proc.stdout


def test_a_game_that_is_not_registered_fails_the_loaded_check_saying_why(tmp_path: Path) -> None:
    proc = outside_pytest(tmp_path, "--sefode-game", "nosuch")
    assert proc.returncode == 1
    assert "1 failed" in proc.stdout and f"{len(suite.__all__) - 1} skipped" in proc.stdout
    assert "no game 'nosuch' is registered" in proc.stdout and "entry-point group 'sefode.games'" in proc.stdout


def test_a_game_whose_plugin_failed_to_load_fails_naming_the_load_error(tmp_path: Path) -> None:
    env = broken_plugin(tmp_path / "site")
    work = tmp_path / "work"
    work.mkdir()
    proc = outside_pytest(work, "--sefode-game", "broken", "-k", "loaded", env=env)
    assert proc.returncode == 1
    assert "the game 'broken' is installed but its plugin failed to load: ModuleNotFoundError" in proc.stdout


def test_the_ini_setting_names_the_game_too(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.pytest.ini_options]\nsefode_game = ["lances"]\n', encoding="utf-8")
    proc = outside_pytest(tmp_path, "-k", "loaded or views_of_many")
    assert proc.returncode == 0, proc.stdout
    assert "2 passed" in proc.stdout


def test_a_filter_that_selects_no_check_says_which_checks_there_are(tmp_path: Path) -> None:
    proc = outside_pytest(tmp_path, "--sefode-game", "lances", "-k", "no_such_check")
    assert proc.returncode == 5
    assert "no conformance check was selected for lances" in proc.stdout
    assert "test_every_bot_level_ends_its_match" in proc.stdout


def test_a_view_schema_naming_a_key_the_view_lacks_fails_the_suite() -> None:
    import dataclasses

    from sefode.engine import ViewSchema, get_game

    game = get_game("lances")
    assert suite.view_schema_problems(game) == []  # the sample plugin's own schema holds
    wrong = dataclasses.replace(game.spec, view_schema=ViewSchema(seats=("dealer",), scores="round"))
    broken = type("Broken", (type(game),), {"spec": wrong})()
    problems = suite.view_schema_problems(broken)
    assert any("'dealer'" in p for p in problems), problems
    assert any("scores 'round'" in p for p in problems), problems
