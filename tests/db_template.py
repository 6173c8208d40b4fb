"""A migrated SQLite database made once per test process and copied for each test that needs a fresh one.

Bringing an empty SQLite file to the newest revision runs every Alembic migration, a third of a second to a second of
CPU on the 2-core machine, and hundreds of tests start a server or a store on a fresh file. A copy of a file migrated
once is the same database (the same migrations made it) in a millisecond; the server's own migration at start then
finds it at the head and does nothing. Migrating an empty database is still tested wherever a test brings its own
file or PostgreSQL schema (the wheel test, the command-line tests, the cluster and every PostgreSQL case).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from pathlib import Path

from sefode.store import Store

_lock = threading.Lock()
_template: Path | None = None


def _migrated_template() -> Path:
    global _template
    with _lock:
        if _template is None:
            folder = Path(tempfile.mkdtemp(prefix="sefode-template-"))
            path = folder / "template.sqlite3"
            store = Store(f"sqlite:///{path}")
            try:
                store.migrate()
            finally:
                store.close()
            _template = path
        return _template


def fresh_sqlite(path: Path) -> Path:
    """Put a migrated database at ``path`` unless a file is already there (a test's restart keeps its data)."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.copy")
        shutil.copyfile(_migrated_template(), tmp)
        tmp.replace(path)
    return path


def fresh_sqlite_url(url: str) -> str:
    """``url`` itself, after putting a migrated database at its file when it names a SQLite file that is not there."""
    prefix = "sqlite:///"
    if url.startswith(prefix) and "?" not in url and url != prefix + ":memory:":
        fresh_sqlite(Path(url[len(prefix) :]))
    return url
