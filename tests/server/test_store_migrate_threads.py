from __future__ import annotations

import threading
from pathlib import Path

from sefode.store import Store


def test_stores_of_one_process_migrate_at_once(tmp_path: Path) -> None:
    """Alembic keeps the running migration's context in module globals: two stores of one process (two servers of
    a test, a node and its tools) migrating at the same moment mixed them up ("no such table", "already exists").
    Eight fresh databases migrate side by side here, each to the newest revision."""
    count = 8
    start = threading.Barrier(count)
    errors: list[BaseException] = []
    stores = [Store(f"sqlite:///{tmp_path / f'db{i}.sqlite3'}") for i in range(count)]

    def migrate(store: Store) -> None:
        start.wait()
        try:
            store.migrate()
        except BaseException as err:  # reported below, with the others
            errors.append(err)

    threads = [threading.Thread(target=migrate, args=(s,)) for s in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert errors == []
        for store in stores:
            with store.engine.connect() as conn:
                assert conn.exec_driver_sql("SELECT count(*) FROM actions").scalar() == 0
    finally:
        for store in stores:
            store.close()
