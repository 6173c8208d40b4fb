"""The examples in the sefode modules' docstrings run as tests (python-chess style)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

import sefode

SKIP = ("sefode.__main__", "sefode.store.migrations.")
"""Modules that must not be imported for their docstrings: ``__main__`` runs the command, and the
Alembic migration scripts only run inside Alembic."""

MUST_HAVE_EXAMPLES = [
    "sefode.cards",
    "sefode.games.fodinha.cards",
    "sefode.engine",
    "sefode.games.fodinha.rules",
    "sefode.games.fodinha.options",
]


def _module_names() -> list[str]:
    names = ["sefode"]
    for info in pkgutil.walk_packages(sefode.__path__, "sefode."):
        if not any(info.name == skip or (skip.endswith(".") and info.name.startswith(skip)) for skip in SKIP):
            names.append(info.name)
    return sorted(names)


MODULES = _module_names()


def _run(module: ModuleType) -> doctest.TestResults:
    return doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests_pass(name: str) -> None:
    module = importlib.import_module(name)
    result = _run(module)
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctest example(s) of {name} failed"


@pytest.mark.parametrize("name", MUST_HAVE_EXAMPLES)
def test_core_modules_have_doctest_examples(name: str) -> None:
    assert name in MODULES
    result = _run(importlib.import_module(name))
    assert result.attempted > 0, f"{name} has no doctest examples"
    assert result.failed == 0
