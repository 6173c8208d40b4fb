"""Persistence: SQLAlchemy Core tables, Alembic migrations applied at start-up."""

from sefode.store.db import Store, default_database_url, normalise_url

__all__ = ["Store", "default_database_url", "normalise_url"]
