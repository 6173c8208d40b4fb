"""Fixtures for the accounts tests: a freshly migrated store on SQLite and on PostgreSQL (a new schema each time).

PostgreSQL must be reachable at ``SEFODE_TEST_PG`` (default ``postgresql://postgres@127.0.0.1:5432/test``, trust
auth): the tests fail, loudly, when it is not.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from db_template import fresh_sqlite

from sefode.store import Store

PG_URL = os.environ.get("SEFODE_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


def _pg_schema() -> Iterator[str]:
    schema = f"acc_{secrets.token_hex(6)}"
    try:
        admin = psycopg.connect(PG_URL, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as err:
        pytest.fail(f"PostgreSQL is required for the accounts tests and is not reachable at {PG_URL}: {err}")
    with admin:
        admin.execute(f'CREATE SCHEMA "{schema}"')
        try:
            yield schema
        finally:
            admin.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """A migrated store (every Alembic revision, the server's and ours) on each database."""
    if request.param == "sqlite":
        st = Store(f"sqlite:///{fresh_sqlite(tmp_path / 'accounts.sqlite3')}")
        st.migrate()  # finds the copy at the newest revision
        try:
            yield st
        finally:
            st.close()
        return
    for schema in _pg_schema():
        sep = "&" if "?" in PG_URL else "?"
        st = Store(f"{PG_URL}{sep}options=-csearch_path%3D{schema}")
        st.migrate()
        try:
            yield st
        finally:
            st.close()
