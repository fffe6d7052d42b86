"""What a server keeps: each table's settings, its seats' credential digests and every
accepted action, in order. The actions are the game (it replays from its seed), so a server
started again resumes every table exactly.

Two stores implement :class:`Store`: :class:`~shanghai_rummy.server.sqlite_store.SQLiteStore`
(one file, the standard library's sqlite3) and
:class:`~shanghai_rummy.server.postgres_store.PostgresStore` (several server processes on one
database; each process hears the others' writes through LISTEN/NOTIFY);
:func:`~shanghai_rummy.server.stores.open_store` opens the one a URL names.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

import attrs

__all__ = ["Listener", "Store", "StoreConflictError", "StoredTable"]

Listener = Callable[[str, int], Awaitable[None]]
"""Called with a table's id and its stored action count when another process wrote to it."""


class StoreConflictError(Exception):
    """Another writer stored actions at these numbers first: reload the table and retry."""


@attrs.frozen(kw_only=True)
class StoredTable:
    """One table as stored: ``settings`` (a JSON object: the variant document, the seats, the
    seed, the table's options), who created it, the digests of its seats' credentials (None
    for a free seat) and its actions (each an action document's JSON text)."""

    table_id: str
    settings: dict[str, Any]
    creator: str
    created: float
    digests: tuple[str | None, ...]
    actions: tuple[str, ...]
    over: bool


class Store(Protocol):
    """The operations a server needs of its store (all of them coroutines)."""

    async def open(self) -> None:
        """Connect and create the tables the store needs, if missing."""

    async def close(self) -> None:
        """Disconnect (a store may be opened again)."""

    async def create_table(
        self, table_id: str, settings: dict[str, Any], creator: str, seats: int
    ) -> None:
        """Keep a new table with ``seats`` free seats."""

    async def claim_seat(self, table_id: str, seat: int, digest: str) -> bool:
        """Give a free seat the credential ``digest``: False when it is already taken."""

    async def free_seat(self, table_id: str, seat: int) -> None:
        """Forget a seat's credential (its player left)."""

    async def append(self, table_id: str, first: int, actions: Sequence[str]) -> None:
        """Store ``actions`` as the table's actions number ``first``, ``first + 1``...,
        atomically; :class:`StoreConflictError` when one of those numbers is taken."""

    async def actions_since(self, table_id: str, first: int) -> list[str]:
        """The table's actions from number ``first`` on."""

    async def mark_over(self, table_id: str) -> None:
        """Note that the table's game has ended."""

    async def load(self, table_id: str) -> StoredTable | None:
        """One table, or None."""

    async def load_all(self) -> list[StoredTable]:
        """Every table, oldest first."""

    async def count_open_tables(self, creator: str) -> int:
        """How many tables not yet over ``creator`` has created."""

    def listen(self, listener: Listener) -> None:
        """Call ``listener`` when another process stores actions (a store of one process
        never calls it)."""
