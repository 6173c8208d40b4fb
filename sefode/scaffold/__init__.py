"""``sefode new-game NAME``: a working game distribution from the templates shipped in this package (``template/``).

Every file of ``template/`` whose name ends in ``.tmpl`` is copied with the ``.tmpl`` cut off, and ``{{key}}``
placeholders in its path and text are filled in (``name``, ``package``, ``dist``, ``cls``, ``title``); an unknown
placeholder is an error, so a template never ships half filled. The result passes its own tests as generated: its
rules tests and the conformance suite (``sefode.testing``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

NAME = re.compile(r"^[a-z][a-z0-9_]{1,29}$")
PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")
SUFFIX = ".tmpl"


class ScaffoldError(ValueError):
    """A name or a folder that a scaffold cannot be made with; the message says why."""


@dataclass(frozen=True)
class Names:
    name: str
    """The game's identifier (options, histories, the protocol): ``mygame``."""
    package: str
    """The Python package: ``sefode_mygame``."""
    dist: str
    """The distribution: ``sefode-mygame``."""
    cls: str
    """The ``Game`` subclass: ``Mygame``."""
    title: str
    """The title in the catalogues, to be changed: ``Mygame``."""

    @classmethod
    def of(cls, name: str) -> Names:
        if not NAME.match(name):
            raise ScaffoldError(
                "a game's name is 2 to 30 lowercase letters, digits or underscores, starting with a letter, "
                f"not {name!r}"
            )
        words = [w for w in name.split("_") if w]
        camel = "".join(w[:1].upper() + w[1:] for w in words)
        return cls(name, f"sefode_{name}", f"sefode-{name.replace('_', '-')}", camel, " ".join(words).capitalize())

    def values(self) -> dict[str, str]:
        return {"name": self.name, "package": self.package, "dist": self.dist, "cls": self.cls, "title": self.title}


def fill(text: str, values: dict[str, str], where: str) -> str:
    """``text`` with every ``{{key}}`` replaced; ScaffoldError naming ``where`` for an unknown key."""

    def one(match: re.Match[str]) -> str:
        key = match.group(1)
        if key not in values:
            raise ScaffoldError(f"{where}: unknown placeholder {{{{{key}}}}}")
        return values[key]

    return PLACEHOLDER.sub(one, text)


def _walk(folder: Traversable, prefix: str = "") -> list[tuple[str, Traversable]]:
    found: list[tuple[str, Traversable]] = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        path = f"{prefix}{entry.name}"
        if entry.is_dir():
            if entry.name != "__pycache__":
                found.extend(_walk(entry, path + "/"))
        elif entry.name.endswith(SUFFIX):
            found.append((path[: -len(SUFFIX)], entry))
    return found


def new_game(name: str, target: Path) -> list[Path]:
    """Write the scaffold of the game ``name`` into ``target`` (which must not exist, or be empty); the files made."""
    names = Names.of(name)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise ScaffoldError(f"{target} already exists and is not an empty folder")
    values = names.values()
    written: list[Path] = []
    for relative, source in _walk(resources.files(__package__) / "template"):
        path = target / fill(relative, values, relative)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(fill(source.read_text(encoding="utf-8"), values, relative), encoding="utf-8")
        written.append(path)
    return written
