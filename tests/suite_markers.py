"""A pytest plugin of the suite's own (loaded with ``-p suite_markers``, pyproject.toml): the markers the whole suite
shares (docs/testing.md), given by where a test lives and what it uses, so that a quick subset is one ``-m`` away:
``scripts/test.sh -m "not browser"``. (Not a ``conftest.py``: ``tests/accounts/conftest.py`` is already the module
``conftest`` to mypy.)

- ``browser``: drives Debian's chromium through Playwright (``tests/browser/``);
- ``cluster``: starts several ``sefode serve --redis`` nodes behind nginx (``tests/server/test_cluster*.py``);
- ``postgres``: talks to the test PostgreSQL (a fresh schema per test);
- ``slow``: over about 5 s on its own on the 2-core machine (marked by hand, see docs/testing.md).
"""

from __future__ import annotations

import inspect
from functools import cache
from typing import Any

import pytest


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    """Load the conformance suite's plugin (``sefode.testing``, which ``tests/test_conformance.py`` uses) under its
    entry point's name, before the entry points load: so it is there even in an environment installed before the
    entry point existed, and never twice."""
    if pluginmanager.get_plugin("sefode") is None:
        import sefode.testing

        pluginmanager.register(sefode.testing, "sefode")


@cache
def _uses_postgres(function: Any) -> bool:
    try:
        source = inspect.getsource(function)
    except (OSError, TypeError):
        return False
    return "postgres_url" in source or "PG_ADMIN_URL" in source


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        path = item.path.as_posix()
        if "/tests/browser/" in path:
            item.add_marker(pytest.mark.browser)
        if item.path.name.startswith("test_cluster"):
            item.add_marker(pytest.mark.cluster)
            item.add_marker(pytest.mark.postgres)
        elif "postgres" in item.nodeid.lower() or _uses_postgres(getattr(item, "function", None)):
            item.add_marker(pytest.mark.postgres)
