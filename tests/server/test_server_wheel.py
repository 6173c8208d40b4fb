"""Issue 28, a real package: a wheel built from the repository installs into a fresh virtual environment and serves
the whole page, the rules, the games' client modules and catalogues, and runs its migrations, with nothing of the
repository on the path.

The fresh environment gets the wheel alone (``--no-deps``); its dependencies come from the test's own environment
through a path file, so that the test downloads nothing. Which ``sefode`` it runs is checked: the wheel's.
"""

from __future__ import annotations

import re
import shutil
import site
import sqlite3
import subprocess
import sys
import zipfile
from pathlib import Path

import httpx
import pytest
from ports import free_port
from server_helpers import WAIT_S, spawn_server, wait_ready

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def _run(*args: str | Path, cwd: Path) -> str:
    done = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, built once from a copy of the files git tracks (so nothing untracked, and no build/ folder left
    from an earlier build, can slip into it; nothing is written into the repository)."""
    source = tmp_path_factory.mktemp("source")
    for name in _run("git", "ls-files", "-z", "pyproject.toml", "README.md", "sefode", cwd=ROOT).split("\0"):
        if name:
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    out = tmp_path_factory.mktemp("wheel")
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", out, source, cwd=out)
    (built,) = out.glob("sefode-*.whl")
    return built


def test_the_wheel_holds_every_file_of_the_package(wheel: Path) -> None:
    """Every file under sefode/ that the repository tracks is in the wheel (the package's data too: the page's static
    files and catalogues, rules pages, game client modules, card data, migrations), but the folder's README."""
    names = set(zipfile.ZipFile(wheel).namelist())
    tracked = _run("git", "ls-files", "sefode", cwd=ROOT).split()
    missing = sorted(n for n in tracked if n not in names and not n.endswith("README.md"))
    assert not missing, missing
    assert "sefode/store/migrations/env.py" in names


def test_the_wheel_installs_in_a_fresh_venv_and_serves_the_page_rules_and_game_modules(
    wheel: Path, tmp_path: Path
) -> None:
    venv = tmp_path / "venv"
    # Without a pip of its own (installing one takes longer than the rest of the test): the test's pip installs into
    # it through --python.
    _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp_path)
    python = venv / "bin" / "python"
    purelib = _run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=tmp_path).strip()
    # The dependencies, from this environment (after the venv's own site-packages, so the wheel's sefode comes first).
    (Path(purelib) / "zz_test_dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n", encoding="utf-8")
    _run(
        sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", "-q", wheel, cwd=tmp_path
    )
    where = _run(python, "-c", "import sefode; print(sefode.__file__)", cwd=tmp_path).strip()
    assert where.startswith(purelib), where

    database = tmp_path / "data" / "sefode.sqlite3"
    database.parent.mkdir()
    port = free_port()
    log = tmp_path / "serve.log"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "DATABASE_URL": f"sqlite:///{database}"}
    proc, ready = spawn_server(
        [str(venv / "bin" / "sefode"), "serve", "--host", "127.0.0.1", "--port", str(port)], env, log
    )
    try:
        wait_ready(proc, ready, log)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=WAIT_S) as http:
            page = http.get("/")
            assert page.status_code == 200 and "text/html" in page.headers["content-type"]
            assets = re.findall(r'(?:src|href)="(/static/[^"]+)"', page.text)
            assert assets, page.text[:500]
            for asset in assets:
                assert http.get(asset).status_code == 200, asset
            assert http.get("/static/i18n/pt-BR.json").status_code == 200

            games = {g["name"] for g in http.get("/api/games").json()["games"]}
            assert {"fodinha", "guimenon", "king", "trash"} <= games
            for game in ("fodinha", "king"):
                module = http.get(f"/games/{game}/client/index.js")
                assert module.status_code == 200 and "javascript" in module.headers["content-type"], game
                assert http.get(f"/games/{game}/i18n/en.json").status_code == 200, game

            rules = http.get("/api/rules/sefode", params={"lang": "en"})
            assert rules.status_code == 200, rules.text
            assert http.get("/rules/sefode").status_code == 200

            # The migrations ran: a guest session is stored.
            assert http.post("/api/session", json={"name": "Ana"}).status_code == 200
    finally:
        proc.terminate()
        proc.wait(WAIT_S)
    with sqlite3.connect(database) as conn:
        assert conn.execute("SELECT count(*) FROM players").fetchone() == (1,)
        assert conn.execute("SELECT version_num FROM alembic_version").fetchone() is not None
