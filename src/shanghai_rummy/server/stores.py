"""Opening the store a ``--store`` URL names: PostgreSQL for ``postgresql://`` URLs (its
driver imported only then), else an SQLite file."""

from __future__ import annotations

from .store import Store

__all__ = ["open_store"]


def open_store(url: str) -> Store:
    """The store a ``--store`` value names (not yet opened)."""
    if url.startswith(("postgresql://", "postgres://")):
        from .postgres_store import PostgresStore

        return PostgresStore(url)
    from .sqlite_store import SQLiteStore

    return SQLiteStore(url.removeprefix("sqlite:"))
