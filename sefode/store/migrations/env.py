"""Alembic environment: the store passes its open connection in ``config.attributes``."""

from __future__ import annotations

from alembic import context

from sefode.store.tables import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only the store runs migrations
    raise RuntimeError("sefode migrations are run by sefode.store.Store.migrate()")
context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
