"""Every table a server holds: made in the lobby, restored from the store at start, kept in
step with other processes' writes.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from typing import Any

from .credentials import digest, new_secret
from .logs import log_event
from .rooms import Room
from .settings import PERSON, TableSettings
from .store import Store, StoredTable
from .wire import Refusal

__all__ = ["Tables"]


class Tables:
    """The tables of one server process, by id."""

    def __init__(
        self,
        store: Store,
        logger: logging.Logger,
        *,
        max_tables_per_client: int,
        on_write: Callable[[], None] = lambda: None,
    ) -> None:
        self.store = store
        self.logger = logger
        self.max_tables_per_client = max_tables_per_client
        self.on_write = on_write
        self.rooms: dict[str, Room] = {}

    async def restore(self) -> None:
        """Load every stored table and replay its game (the server starting again)."""
        for stored in await self.store.load_all():
            room = self._restore(stored)
            log_event(
                self.logger,
                "table_restored",
                table=stored.table_id,
                actions=room.stored,
                over=room.table.is_over,
            )
        self.store.listen(self._heard)

    def _restore(self, stored: StoredTable) -> Room:
        room = Room.restore(stored, store=self.store, logger=self.logger, on_write=self.on_write)
        self.rooms[stored.table_id] = room
        room.start()
        return room

    async def _heard(self, table_id: str, count: int) -> None:
        room = self.rooms.get(table_id)
        if room is None:
            stored = await self.store.load(table_id)
            if stored is not None:
                self._restore(stored)
            return
        await room.sync(count)

    async def room(self, table_id: str) -> Room:
        """The table ``table_id`` (looked up in the store when another process made it)."""
        room = self.rooms.get(table_id)
        if room is None:
            stored = await self.store.load(table_id)
            if stored is None:
                raise Refusal("unknown_table", f"no table {table_id!r}", "$.table")
            room = self._restore(stored)
        return room

    async def create(self, body: object, creator: str) -> Room:
        """A new table from a lobby request; refused past the creator's limit of open tables."""
        settings = TableSettings.read(body)
        if await self.store.count_open_tables(creator) >= self.max_tables_per_client:
            raise Refusal(
                "too_many_tables",
                f"a client may have at most {self.max_tables_per_client} open tables",
            )
        table_id = secrets.token_urlsafe(9)
        room = Room(
            table_id,
            settings,
            [None] * len(settings.seats),
            store=self.store,
            logger=self.logger,
            creator=creator,
            on_write=self.on_write,
        )
        await self.store.create_table(table_id, settings.to_json(), creator, len(settings.seats))
        self.rooms[table_id] = room
        room.start()
        log_event(
            self.logger,
            "table_created",
            table=table_id,
            variant=settings.variant.id,
            seats=list(settings.seats),
            client=creator,
        )
        return room

    async def join(self, table_id: str, seat: object) -> dict[str, Any]:
        """Give a free person's seat (the first free one when ``seat`` is None) a new
        credential: ``{"table", "seat", "credential"}``."""
        room = await self.room(table_id)
        free = [s for s in room.settings.people if room.digests[s] is None]
        if seat is None:
            if not free:
                raise Refusal("no_free_seat", "every person's seat at this table is taken")
            seat = free[0]
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(room.digests):
            raise Refusal("bad_seat", f"no seat {seat!r} at this table", "$.seat")
        if room.settings.seats[seat] != PERSON:
            raise Refusal("bad_seat", f"seat {seat} is a bot's", "$.seat")
        secret = new_secret()
        hashed = digest(secret)
        if room.digests[seat] is not None or not await self.store.claim_seat(
            table_id, seat, hashed
        ):
            raise Refusal("seat_taken", f"seat {seat} is taken", "$.seat")
        room.digests[seat] = hashed
        log_event(self.logger, "seat_joined", table=table_id, seat=seat)
        room.broadcast()
        return {"table": table_id, "seat": seat, "credential": secret}

    async def leave(self, table_id: str, seat: object, credential: object) -> None:
        """A player gives up a seat: its credential stops working and, where the table says
        so, a bot plays it from now on."""
        room = await self.room(table_id)
        checked = room.check_credential(seat, credential)
        await self.store.free_seat(table_id, checked)
        room.digests[checked] = None
        log_event(self.logger, "seat_left", table=table_id, seat=checked)
        for watcher in list(room.watchers):
            if watcher.seat == checked:
                room.watchers.discard(watcher)
                watcher.close("the seat was left")
        await room.take_over(checked, "left")
        room.broadcast()

    def stop(self) -> None:
        """Stop every table's clock."""
        for room in self.rooms.values():
            room.stop()
