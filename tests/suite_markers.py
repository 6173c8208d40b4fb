"""A pytest plugin of the suite's own (loaded with ``-p suite_markers``, pyproject.toml): the markers the whole suite
shares (docs/testing.md), given by where a test lives and what it uses, so that a quick subset is one ``-m`` away:
``scripts/test.sh -m "not browser"``. (Not a ``conftest.py``: ``tests/accounts/conftest.py`` is already the module
``conftest`` to mypy.)

- ``browser``: drives Debian's Chromium headless shell through Playwright (``tests/browser/``);
- ``cluster``: starts several ``sefode serve --redis`` nodes behind nginx (``tests/server/test_cluster*.py``);
- ``postgres``: talks to the test PostgreSQL (a fresh schema per test);
- ``slow``: over about 5 s on its own on the 2-core machine (marked by hand, see docs/testing.md);
- ``production_hashing``: keeps argon2-cffi's own cost parameters for password hashes, which every other test run in
  this process trades for small ones (``quick_argon2``).

It also keeps the errors of stray WebSocket clients' keep-alive threads unformatted (``pytest_configure``).
"""

from __future__ import annotations

import inspect
import logging
from functools import cache
from typing import Any

import pytest
from argon2 import PasswordHasher

from sefode.accounts import passwords

QUICK_HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
QUICK_DUMMY_HASH = QUICK_HASHER.hash("sefode: no such user")


def pytest_configure(config: pytest.Config) -> None:
    """No traceback formatted in a stray client thread. A ``websockets`` sync client's keep-alive thread logs an
    error with its traceback when the server it talks to has gone (a test's server stopped while a client it opened
    was still open). CPython 3.11 parses source lines with ``ast`` to format a traceback (the carets under the failing
    expression), and its conversion of a parsed tree keeps its recursion count in state every thread shares (CPython
    issue 106905): such a traceback, formatted while a test ran ``ast.parse``, failed that test with "SystemError: AST
    constructor recursion depth mismatch (before=147, after=67)", the second depth the keep-alive thread's. Those
    errors are no test's to read."""
    logging.getLogger("websockets.client").setLevel(logging.CRITICAL)


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
            # One worker runs the cluster tests one after another (``--dist loadgroup`` in scripts/test.sh): each
            # starts three server processes and nginx, and two or three rigs at once on two cores slowed every one of
            # them (and the tests beside them) two to three times.
            item.add_marker(pytest.mark.xdist_group("cluster"))
        elif "postgres" in item.nodeid.lower() or _uses_postgres(getattr(item, "function", None)):
            item.add_marker(pytest.mark.postgres)
    # The cluster tests first: one worker runs them all (a few minutes, see above), and a long unit handed out last
    # would keep the run waiting on it alone. The rest keep their order (a stable sort).
    items.sort(key=lambda item: item.get_closest_marker("cluster") is None)


@pytest.fixture(autouse=True)
def quick_argon2(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Real argon2id hashing with small cost parameters for servers and stores in the test process, so that the
    suite's many registrations and logins stay quick: a check with the production parameters (64 MiB, three passes,
    four lanes) costs a fifth of a second of CPU or more, and twenty of them made one test take 20 s. Tests marked
    ``production_hashing`` keep the production hasher; servers started as processes of their own (browser tests,
    the cluster, the login flood) always use it."""
    if request.node.get_closest_marker("production_hashing") is None:
        monkeypatch.setattr(passwords, "_HASHER", QUICK_HASHER)
        monkeypatch.setattr(passwords, "_DUMMY_HASH", QUICK_DUMMY_HASH)
