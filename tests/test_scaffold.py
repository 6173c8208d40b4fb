"""``sefode new-game NAME`` (issue 26): the scaffold is a working distribution that passes its own tests as generated,
its rules tests and the conformance suite (``sefode.testing``), installed (``pip install``, not editable) in a fresh
virtual environment and run there with ``pytest``, from outside the repository."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from outside_env import fresh_venv

from sefode.cli import main
from sefode.scaffold import Names, ScaffoldError, fill, new_game
from sefode.testing import suite


@pytest.mark.slow
def test_a_scaffold_installs_and_passes_its_own_tests_and_the_conformance_suite(tmp_path: Path) -> None:
    project = tmp_path / "sefode-pedras"
    assert main(["new-game", "pedras", "--dir", str(project)]) == 0
    files = {p.relative_to(project).as_posix() for p in project.rglob("*") if p.is_file()}
    assert {
        "pyproject.toml", "README.md", "src/sefode_pedras/__init__.py", "src/sefode_pedras/game.py",
        "src/sefode_pedras/py.typed", "src/sefode_pedras/rules/pedras.pt-BR.md", "src/sefode_pedras/rules/pedras.en.md",
        "src/sefode_pedras/i18n/pt-BR.json", "src/sefode_pedras/i18n/en.json", "src/sefode_pedras/client/index.js",
        "tests/test_conformance.py", "tests/test_rules.py",
    } == files  # fmt: skip
    config = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["project"]["entry-points"]["sefode.games"] == {"pedras": "sefode_pedras:Pedras"}
    package = project / "src" / "sefode_pedras"
    patterns = config["tool"]["setuptools"]["package-data"]["sefode_pedras"]
    data = {p for pattern in patterns for p in package.glob(pattern)}
    resources = {p for p in package.rglob("*") if p.is_file() and p.suffix != ".py"}
    assert resources <= data, resources - data  # a non-editable install carries every resource file
    assert config["tool"]["pytest"]["ini_options"]["sefode_game"] == ["pedras"]
    assert config["tool"]["mypy"]["strict"] is True and "lint" in config["tool"]["ruff"]
    assert "{{" not in "".join((project / name).read_text(encoding="utf-8") for name in files)

    lint = subprocess.run([sys.executable, "-m", "ruff", "check", "."], cwd=project, capture_output=True, text=True)
    assert lint.returncode == 0, lint.stdout

    venv = fresh_venv(tmp_path)
    venv.install(project)
    # The tests see the installed package alone: without src/, its rules pages, catalogues and client module come from
    # what the install carried.
    (project / "src").rename(tmp_path / "src-not-installed")
    assert venv.where("sefode_pedras", tmp_path).is_relative_to(venv.purelib)
    proc = venv.pytest(project)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    passed = re.search(r"(\d+) passed", proc.stdout)
    assert passed is not None and int(passed.group(1)) == len(suite.__all__) + 3, proc.stdout
    games = venv.run(venv.python, "-m", "sefode", "games", cwd=tmp_path)
    assert games.returncode == 0 and "pedras: 2-4 seats" in games.stdout, games.stdout + games.stderr
    assert "lances" not in games.stdout  # the test environment's other games are not in it


def test_names_derive_the_package_the_distribution_and_the_class() -> None:
    names = Names.of("sete_pedras")
    assert (names.package, names.dist, names.cls, names.title) == (
        "sefode_sete_pedras", "sefode-sete-pedras", "SetePedras", "Sete pedras"
    )  # fmt: skip
    with pytest.raises(ScaffoldError, match="unknown placeholder"):
        fill("{{nome}}", names.values(), "x.tmpl")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["Bad-Name"], "lowercase letters"),
        (["fodinha"], "already installed"),
    ],
)
def test_new_game_refuses_a_bad_name_in_one_line(
    args: list[str], words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new-game", *args, "--dir", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
    assert not (tmp_path / "x").exists()


def test_new_game_never_writes_into_a_folder_that_holds_files(tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("keep", encoding="utf-8")
    with pytest.raises(ScaffoldError, match="not an empty folder"):
        new_game("pedras", tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["mine.txt"]


def test_the_scaffold_names_every_view_key_for_players_and_declares_a_view_schema(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The generic renderer shows the scaffold's view as it is generated: every key it shows has a player's label in
    both catalogues (no "Hand sizes" on a Portuguese page), and its view schema marks the turn as a seat and the rounds
    won as the scores, keys the view has."""
    import importlib
    import json

    new_game("pedras_vista", tmp_path / "game")
    src = tmp_path / "game" / "src"
    monkeypatch.syspath_prepend(str(src))
    module = importlib.import_module("sefode_pedras_vista.game")
    game = module.PedrasVista()
    view = game.view(game.new_match({}, seed=3), 0)
    schema = game.spec.view_schema
    assert schema is not None and schema.seats == ("turn",) and schema.scores == "won"
    assert {*schema.seats, schema.scores} <= set(view)
    for lang in ("pt-BR", "en"):
        catalogue = json.loads((src / "sefode_pedras_vista" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        assert [k for k in view if k != "seat" and f"view.{k}" not in catalogue] == [], lang
