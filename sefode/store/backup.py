"""``sefode backup FILE`` and ``sefode restore FILE`` (docs/operating.md, "Backups").

A backup is a consistent snapshot taken while the server runs:

- SQLite: the online backup API (``sqlite3.Connection.backup``) copies the database page by page from one read
  transaction, so writes the server makes meanwhile are either all in it or not at all; the file it writes is itself
  a SQLite database.
- PostgreSQL: ``pg_dump --format=custom`` (one snapshot of the whole database), restored with ``pg_restore``.

A restore goes only into an empty database (no table at all): it never merges into, or overwrites, one in use.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import sqlalchemy as sa

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_MAGIC = b"PGDMP"


class BackupError(Exception):
    """What went wrong, in one line for the command line."""


def shown(url: str) -> str:
    """The URL without its password, for messages."""
    return sa.make_url(url).render_as_string(hide_password=True)


def _sqlite_path(url: str) -> Path:
    database = sa.make_url(url).database
    if not database or database == ":memory:":
        raise BackupError(f"{shown(url)} is not a SQLite database file")
    return Path(database)


def _is_sqlite(url: str) -> bool:
    return sa.make_url(url).get_backend_name() == "sqlite"


def _is_postgres(url: str) -> bool:
    return sa.make_url(url).get_backend_name() == "postgresql"


def _pg_env(url: str) -> dict[str, str]:
    """libpq's environment for ``url``: the password goes in ``PGPASSWORD``, never on a command line."""
    parsed = sa.make_url(url)
    env = dict(os.environ)
    fields = {
        "PGHOST": parsed.host,
        "PGPORT": str(parsed.port) if parsed.port else None,
        "PGUSER": parsed.username,
        "PGPASSWORD": parsed.password if isinstance(parsed.password, str) else None,
        "PGDATABASE": parsed.database,
    }
    for key, value in fields.items():
        if value:
            env[key] = value
    options = parsed.query.get("options")
    if options:
        env["PGOPTIONS"] = options if isinstance(options, str) else " ".join(options)
    host = parsed.query.get("host")
    if isinstance(host, str) and host:
        env["PGHOST"] = host
    return env


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} is not installed (Debian: apt-get install postgresql-client)")
    return found


def _run(args: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        raise BackupError(f"{Path(args[0]).name} failed: {lines[-1] if lines else f'exit {done.returncode}'}")


def backup(url: str, target: Path) -> None:
    """Write a snapshot of the database at ``url`` to ``target`` (a new file)."""
    if target.exists():
        raise BackupError(f"{target} already exists; name a new file")
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    # Readable by its owner alone from the start: a backup holds password hashes, session hashes and chat.
    os.close(os.open(partial, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    try:
        if _is_sqlite(url):
            source_path = _sqlite_path(url)
            if not source_path.is_file():
                raise BackupError(f"there is no database at {source_path}")
            with sqlite3.connect(f"file:{source_path}?mode=ro", uri=True) as source:
                copy = sqlite3.connect(partial)
                try:
                    source.backup(copy)
                    copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
                finally:
                    copy.close()
        elif _is_postgres(url):
            dump_args = ["--format=custom", "--no-owner", "--no-privileges", f"--file={partial}"]
            _run([_tool("pg_dump"), *dump_args], _pg_env(url))
        else:
            raise BackupError(f"cannot back up {shown(url)}: only SQLite and PostgreSQL")
        partial.replace(target)
    finally:
        partial.unlink(missing_ok=True)


def _tables(url: str) -> list[str]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            names: list[str] = sa.inspect(conn).get_table_names()
            return names
    finally:
        engine.dispose()


def restore(url: str, source: Path) -> None:
    """Restore the backup ``source`` into the empty database at ``url``."""
    try:
        with source.open("rb") as file:
            head = file.read(len(SQLITE_MAGIC))
    except OSError as err:
        raise BackupError(f"cannot read {source}: {err.strerror or err}") from None
    kind = "sqlite" if head.startswith(SQLITE_MAGIC) else "postgresql" if head.startswith(PG_MAGIC) else None
    if kind is None:
        raise BackupError(f"{source} is not a backup made by sefode backup")
    if _is_sqlite(url) != (kind == "sqlite") or _is_postgres(url) != (kind == "postgresql"):
        raise BackupError(f"{source} is a {kind} backup; restore it into a {kind} database, not {shown(url)}")
    if kind == "sqlite":
        _restore_sqlite(url, source)
        return
    tables = _tables(url)
    if tables:
        raise BackupError(_not_empty(url, tables))
    env = _pg_env(url)
    restore_args = ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction"]
    _run([_tool("pg_restore"), *restore_args, "--dbname", env.get("PGDATABASE", ""), str(source)], env)


def _restore_sqlite(url: str, source: Path) -> None:
    target = _sqlite_path(url)
    if target.exists() and target.stat().st_size > 0:
        tables = _tables(url)
        if tables:
            raise BackupError(_not_empty(url, tables))
    target.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(f"file:{source}?mode=ro", uri=True) as backup_db:
        into = sqlite3.connect(target)
        try:
            backup_db.backup(into)
        finally:
            into.close()


def _not_empty(url: str, tables: list[Any]) -> str:
    return f"{shown(url)} is not empty ({len(tables)} tables); restore only into an empty database"
