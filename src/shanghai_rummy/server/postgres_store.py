"""The shared store: PostgreSQL through psycopg 3, for several server processes on one
database.

Every append is one transaction that also sends ``NOTIFY shanghai_rummy, 'TABLE:COUNT'``;
each process LISTENs on a connection of its own and, hearing of a table it holds, reads the
new actions and pushes them to its clients. Two processes that store actions at the same
numbers conflict on the primary key: the second one reloads the table and its move is
refused (it can be sent again).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg.errors import UniqueViolation

from .store import Listener, StoreConflictError, StoredTable

__all__ = ["CHANNEL", "PostgresStore"]

CHANNEL = "shanghai_rummy"
"""The NOTIFY channel."""

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS sr_tables (
        table_id TEXT PRIMARY KEY,
        settings TEXT NOT NULL,
        creator TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        over BOOLEAN NOT NULL DEFAULT FALSE
    )""",
    """CREATE TABLE IF NOT EXISTS sr_seats (
        table_id TEXT NOT NULL REFERENCES sr_tables(table_id),
        seat INTEGER NOT NULL,
        digest TEXT,
        PRIMARY KEY (table_id, seat)
    )""",
    """CREATE TABLE IF NOT EXISTS sr_actions (
        table_id TEXT NOT NULL REFERENCES sr_tables(table_id),
        number INTEGER NOT NULL,
        action TEXT NOT NULL,
        PRIMARY KEY (table_id, number)
    )""",
)


class PostgresStore:
    """A :class:`~shanghai_rummy.server.store.Store` in the PostgreSQL database at ``url``."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._db: psycopg.AsyncConnection[Any] | None = None
        self._lock = asyncio.Lock()
        self._listeners: list[Listener] = []
        self._listen_task: asyncio.Task[None] | None = None

    @property
    def db(self) -> psycopg.AsyncConnection[Any]:
        """The open connection for reads and writes."""
        if self._db is None:
            raise RuntimeError("the store is not open")
        return self._db

    async def open(self) -> None:
        """Connect, create the tables if missing, and start listening."""
        self._db = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        # two processes starting at once must not both create the tables
        async with self._lock, self.db.transaction():
            await self.db.execute("SELECT pg_advisory_xact_lock(52652)")
            for statement in _SCHEMA:
                await self.db.execute(statement)
        self._listen_task = asyncio.get_running_loop().create_task(self._hear())

    async def close(self) -> None:
        """Stop listening and disconnect."""
        if self._listen_task is not None:
            self._listen_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listen_task
            self._listen_task = None
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def _hear(self) -> None:
        async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as listening:
            await listening.execute(f"LISTEN {CHANNEL}")
            async for notice in listening.notifies():
                table_id, _, count = notice.payload.rpartition(":")
                if notice.pid == self.db.info.backend_pid:
                    continue  # our own write
                for listener in self._listeners:
                    await listener(table_id, int(count))

    async def create_table(
        self, table_id: str, settings: dict[str, Any], creator: str, seats: int
    ) -> None:
        """Keep a new table and its free seats, in one transaction."""
        async with self._lock, self.db.transaction():
            await self.db.execute(
                "INSERT INTO sr_tables (table_id, settings, creator, created) "
                "VALUES (%s, %s, %s, %s)",
                (table_id, json.dumps(settings), creator, time.time()),
            )
            async with self.db.cursor() as cursor:
                await cursor.executemany(
                    "INSERT INTO sr_seats (table_id, seat) VALUES (%s, %s)",
                    [(table_id, seat) for seat in range(seats)],
                )

    async def claim_seat(self, table_id: str, seat: int, digest: str) -> bool:
        """Set a free seat's digest; False when it is taken."""
        async with self._lock:
            cursor = await self.db.execute(
                "UPDATE sr_seats SET digest = %s "
                "WHERE table_id = %s AND seat = %s AND digest IS NULL",
                (digest, table_id, seat),
            )
            return cursor.rowcount == 1

    async def free_seat(self, table_id: str, seat: int) -> None:
        """Clear a seat's digest."""
        async with self._lock:
            await self.db.execute(
                "UPDATE sr_seats SET digest = NULL WHERE table_id = %s AND seat = %s",
                (table_id, seat),
            )

    async def append(self, table_id: str, first: int, actions: Sequence[str]) -> None:
        """Insert the actions and notify, in one transaction."""
        try:
            async with self._lock, self.db.transaction():
                async with self.db.cursor() as cursor:
                    await cursor.executemany(
                        "INSERT INTO sr_actions (table_id, number, action) VALUES (%s, %s, %s)",
                        [(table_id, first + index, text) for index, text in enumerate(actions)],
                    )
                await self.db.execute(
                    "SELECT pg_notify(%s, %s)", (CHANNEL, f"{table_id}:{first + len(actions)}")
                )
        except UniqueViolation as error:
            raise StoreConflictError(str(error)) from None

    async def actions_since(self, table_id: str, first: int) -> list[str]:
        """The actions numbered ``first`` and on."""
        async with self._lock:
            cursor = await self.db.execute(
                "SELECT action FROM sr_actions WHERE table_id = %s AND number >= %s "
                "ORDER BY number",
                (table_id, first),
            )
            return [row[0] for row in await cursor.fetchall()]

    async def mark_over(self, table_id: str) -> None:
        """Mark the table's game as over."""
        async with self._lock:
            await self.db.execute(
                "UPDATE sr_tables SET over = TRUE WHERE table_id = %s", (table_id,)
            )

    async def load(self, table_id: str) -> StoredTable | None:
        """One table with its seats and actions."""
        async with self._lock:
            cursor = await self.db.execute(
                "SELECT table_id, settings, creator, created, over FROM sr_tables "
                "WHERE table_id = %s",
                (table_id,),
            )
            row = await cursor.fetchone()
            return None if row is None else await self._table(row)

    async def load_all(self) -> list[StoredTable]:
        """Every table, oldest first."""
        async with self._lock:
            cursor = await self.db.execute(
                "SELECT table_id, settings, creator, created, over FROM sr_tables ORDER BY created"
            )
            return [await self._table(row) for row in await cursor.fetchall()]

    async def _table(self, row: Sequence[Any]) -> StoredTable:
        table_id, settings, creator, created, over = row
        seats = await self.db.execute(
            "SELECT digest FROM sr_seats WHERE table_id = %s ORDER BY seat", (table_id,)
        )
        actions = await self.db.execute(
            "SELECT action FROM sr_actions WHERE table_id = %s ORDER BY number", (table_id,)
        )
        return StoredTable(
            table_id=table_id,
            settings=json.loads(settings),
            creator=creator,
            created=created,
            digests=tuple(digest for (digest,) in await seats.fetchall()),
            actions=tuple(action for (action,) in await actions.fetchall()),
            over=bool(over),
        )

    async def count_open_tables(self, creator: str) -> int:
        """Tables not over that ``creator`` made."""
        async with self._lock:
            cursor = await self.db.execute(
                "SELECT COUNT(*) FROM sr_tables WHERE creator = %s AND NOT over", (creator,)
            )
            row = await cursor.fetchone()
            return 0 if row is None else int(row[0])

    def listen(self, listener: Listener) -> None:
        """Call ``listener`` for every other process's append."""
        self._listeners.append(listener)
