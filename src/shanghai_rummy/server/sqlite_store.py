"""The embedded store: one SQLite file, through the standard library.

Each write is one transaction, committed before the server acknowledges it; the file runs in
WAL mode, so a process killed at any moment keeps every committed write.

>>> import asyncio, tempfile, os
>>> async def demo(path):
...     store = SQLiteStore(path)
...     await store.open()
...     await store.create_table("t1", {"seed": 1}, creator="127.0.0.1", seats=2)
...     await store.append("t1", 0, ['{"a": 1}', '{"a": 2}'])
...     table = await store.load("t1")
...     await store.close()
...     return table.actions, table.digests
>>> with tempfile.TemporaryDirectory() as folder:
...     asyncio.run(demo(os.path.join(folder, "games.sqlite3")))
(('{"a": 1}', '{"a": 2}'), (None, None))
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from typing import Any

from .store import Listener, StoreConflictError, StoredTable

__all__ = ["SQLiteStore"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    table_id TEXT PRIMARY KEY,
    settings TEXT NOT NULL,
    creator TEXT NOT NULL,
    created REAL NOT NULL,
    over INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(table_id),
    seat INTEGER NOT NULL,
    digest TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(table_id),
    number INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, number)
);
"""


class SQLiteStore:
    """A :class:`~shanghai_rummy.server.store.Store` in the SQLite file at ``path``."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = None

    @property
    def db(self) -> sqlite3.Connection:
        """The open connection."""
        if self._db is None:
            raise RuntimeError("the store is not open")
        return self._db

    async def open(self) -> None:
        """Open the file (creating it) in WAL mode."""
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)

    async def close(self) -> None:
        """Close the file."""
        if self._db is not None:
            self._db.close()
            self._db = None

    async def create_table(
        self, table_id: str, settings: dict[str, Any], creator: str, seats: int
    ) -> None:
        """Keep a new table and its free seats, in one transaction."""
        with _transaction(self.db) as db:
            db.execute(
                "INSERT INTO tables (table_id, settings, creator, created) VALUES (?, ?, ?, ?)",
                (table_id, json.dumps(settings), creator, time.time()),
            )
            db.executemany(
                "INSERT INTO seats (table_id, seat) VALUES (?, ?)",
                [(table_id, seat) for seat in range(seats)],
            )

    async def claim_seat(self, table_id: str, seat: int, digest: str) -> bool:
        """Set a free seat's digest; False when it is taken."""
        cursor = self.db.execute(
            "UPDATE seats SET digest = ? WHERE table_id = ? AND seat = ? AND digest IS NULL",
            (digest, table_id, seat),
        )
        return cursor.rowcount == 1

    async def free_seat(self, table_id: str, seat: int) -> None:
        """Clear a seat's digest."""
        self.db.execute(
            "UPDATE seats SET digest = NULL WHERE table_id = ? AND seat = ?", (table_id, seat)
        )

    async def append(self, table_id: str, first: int, actions: Sequence[str]) -> None:
        """Insert the actions in one transaction (a taken number: StoreConflictError)."""
        try:
            with _transaction(self.db) as db:
                db.executemany(
                    "INSERT INTO actions (table_id, number, action) VALUES (?, ?, ?)",
                    [(table_id, first + index, action) for index, action in enumerate(actions)],
                )
        except sqlite3.IntegrityError as error:
            raise StoreConflictError(str(error)) from None

    async def actions_since(self, table_id: str, first: int) -> list[str]:
        """The actions numbered ``first`` and on."""
        rows = self.db.execute(
            "SELECT action FROM actions WHERE table_id = ? AND number >= ? ORDER BY number",
            (table_id, first),
        )
        return [action for (action,) in rows]

    async def mark_over(self, table_id: str) -> None:
        """Mark the table's game as over."""
        self.db.execute("UPDATE tables SET over = 1 WHERE table_id = ?", (table_id,))

    async def load(self, table_id: str) -> StoredTable | None:
        """One table with its seats and actions."""
        row = self.db.execute(
            "SELECT table_id, settings, creator, created, over FROM tables WHERE table_id = ?",
            (table_id,),
        ).fetchone()
        return None if row is None else self._table(row)

    async def load_all(self) -> list[StoredTable]:
        """Every table, oldest first."""
        rows = self.db.execute(
            "SELECT table_id, settings, creator, created, over FROM tables ORDER BY created"
        ).fetchall()
        return [self._table(row) for row in rows]

    def _table(self, row: tuple[Any, ...]) -> StoredTable:
        table_id, settings, creator, created, over = row
        digests = self.db.execute(
            "SELECT digest FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)
        ).fetchall()
        actions = self.db.execute(
            "SELECT action FROM actions WHERE table_id = ? ORDER BY number", (table_id,)
        ).fetchall()
        return StoredTable(
            table_id=table_id,
            settings=json.loads(settings),
            creator=creator,
            created=created,
            digests=tuple(digest for (digest,) in digests),
            actions=tuple(action for (action,) in actions),
            over=bool(over),
        )

    async def count_open_tables(self, creator: str) -> int:
        """Tables not over that ``creator`` made."""
        (count,) = self.db.execute(
            "SELECT COUNT(*) FROM tables WHERE creator = ? AND over = 0", (creator,)
        ).fetchone()
        return int(count)

    def listen(self, listener: Listener) -> None:
        """One process owns a SQLite file: no other writer to hear."""


class _transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on an error)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")
