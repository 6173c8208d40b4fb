"""A fresh virtual environment for a game distribution, as an author's own: the game is really installed into it
(``pip install``, not editable), and its tests run there with ``pytest``.

The environment gets no pip of its own and downloads nothing: this environment's pip installs into it through
``--python``, with ``--no-index --no-deps --no-build-isolation``. Se Fode and what it needs come from this
environment through a site folder of links to this environment's site-packages, less every game distribution that is
not Se Fode itself (the sample plugin is installed here for the suite, so it would otherwise be found twice).
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

# Distributions of this environment the fresh one must not see: the games installed here besides Se Fode's own.
LEFT_OUT = ("sefode_lances", "__editable__.sefode_lances", "__editable___sefode_lances")

OUTSIDE_OPTIONS = ("-p", "no:cacheprovider", "-p", "no:xdist", "-p", "no:schemathesis")


@dataclass(frozen=True)
class Venv:
    root: Path
    python: Path
    purelib: Path

    def env(self) -> dict[str, str]:
        """The environment to run its commands with: its bin first, nothing of this one's path or bytecode cache."""
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
        return {
            **env,
            "PATH": f"{self.root / 'bin'}{os.pathsep}{env.get('PATH', '')}",
            "VIRTUAL_ENV": str(self.root),
            "PYTHONDONTWRITEBYTECODE": "1",
        }

    def run(self, *args: str | Path, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(a) for a in args], cwd=cwd, env=self.env(), capture_output=True, text=True, timeout=timeout
        )

    def install(self, project: Path) -> None:
        """``pip install`` the distribution in ``project`` (a wheel is built from it), no network, no dependencies."""
        done = subprocess.run(
            [sys.executable, "-m", "pip", "--python", str(self.python), "install", "-q", "--no-index", "--no-deps",
             "--no-build-isolation", "--disable-pip-version-check", str(project)],
            cwd=self.root, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr

    def pytest(self, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
        return self.run(self.python, "-m", "pytest", "-q", *OUTSIDE_OPTIONS, *args, cwd=cwd)

    def where(self, module: str, cwd: Path) -> Path:
        """The file the environment imports ``module`` from (run in ``cwd``, so nothing of a project's folder)."""
        done = self.run(self.python, "-c", f"import {module}; print({module}.__file__)", cwd=cwd)
        assert done.returncode == 0, done.stderr
        return Path(done.stdout.strip())


def fresh_venv(where: Path) -> Venv:
    root = where / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True, timeout=120)
    python = root / "bin" / "python"
    purelib = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()
    )  # fmt: skip
    assert purelib != Path(sysconfig.get_paths()["purelib"])
    shared = where / "shared-site"
    shared.mkdir()
    for folder in site.getsitepackages():
        for entry in Path(folder).iterdir():
            if not entry.name.startswith(LEFT_OUT) and not (shared / entry.name).exists():
                (shared / entry.name).symlink_to(entry)
    # After the environment's own site-packages, and read as a site folder (its .pth files, an editable Se Fode's too).
    (purelib / "zz_shared_site.pth").write_text(f"import site; site.addsitedir({str(shared)!r})\n", encoding="utf-8")
    return Venv(root, python, purelib)


def tracked_copy(repository: Path, folder: str, to: Path) -> Path:
    """A copy of the files git tracks under ``folder`` (an install builds in the folder it is given: never in the
    repository, and nothing untracked slips in)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", folder], cwd=repository, capture_output=True, text=True, check=True
    ).stdout.split("\0")
    for name in filter(None, listed):
        target = to / Path(name).relative_to(folder)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(repository / name, target)
    return to
