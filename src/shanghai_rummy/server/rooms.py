"""A table held by a server: its game, its seats' credentials, the connections watching it,
the bots playing in it, and the order in which a move is stored, acknowledged and pushed.

A move is applied, then every bot seat after it is played, then all the new actions are
stored in one write; only then is the move acknowledged and each connection pushed its own
view and the events it has not seen. A move the store refuses (another process stored one
first) is undone in memory. Nothing here does network I/O: a connection is anything with
:meth:`Watcher.push`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import Callable
from typing import Any, Protocol

from ..actions import Action
from ..bots import Bot
from ..errors import RummyError
from ..serialization import from_json, to_json
from .credentials import matches
from .games import Game
from .logs import log_event
from .settings import PERSON, TableSettings
from .store import Store, StoreConflictError, StoredTable
from .wire import Refusal

__all__ = ["BOT_STEPS_PER_WRITE", "Room", "Watcher", "crash_hook"]

BOT_STEPS_PER_WRITE = 200
"""Bot moves played between two writes (and two yields to other tables) when only bots act."""


class Watcher(Protocol):
    """A connection to a table: a seat's (``seat`` a number) or a spectator's (None)."""

    seat: int | None
    seen: int
    """The number of events it has been sent."""

    def push(self, message: dict[str, Any]) -> None:
        """Queue a message for the client (never waits)."""

    def close(self, reason: str) -> None:
        """Close the connection after the messages queued."""


class Room:
    """One table: see the module's description."""

    def __init__(
        self,
        table_id: str,
        settings: TableSettings,
        game: Game,
        digests: list[str | None],
        *,
        store: Store,
        logger: logging.Logger,
        creator: str,
        on_write: Callable[[], None] = lambda: None,
    ) -> None:
        self.table_id = table_id
        self.settings = settings
        self.game = game
        self.digests = digests
        self.creator = creator
        self.store = store
        self.logger = logger
        self.on_write = on_write
        self.stored = game.action_count
        self.bots: dict[int, Bot] = {
            seat: settings.bot(seat) for seat, kind in enumerate(settings.seats) if kind != PERSON
        }
        self.taken_over: set[int] = set()
        self.watchers: set[Watcher] = set()
        self.lock = asyncio.Lock()
        self._timer: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    @classmethod
    def restore(
        cls,
        stored: StoredTable,
        *,
        store: Store,
        logger: logging.Logger,
        on_write: Callable[[], None],
    ) -> Room:
        """A table as the store keeps it: its game replayed from the stored actions."""
        settings = TableSettings.read(stored.settings)
        actions = [from_json(text, Action) for text in stored.actions]
        game = Game.resume(settings.variant, len(settings.seats), settings.seed, actions)
        return cls(
            stored.table_id,
            settings,
            game,
            list(stored.digests),
            store=store,
            logger=logger,
            creator=stored.creator,
            on_write=on_write,
        )

    # -- seats -------------------------------------------------------------------------------

    def check_credential(self, seat: object, credential: object) -> int:
        """The seat a hello names, when its credential matches; else a :class:`Refusal`."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.digests):
            raise Refusal("bad_seat", f"no seat {seat!r} at this table", "$.seat")
        if self.settings.seats[seat] != PERSON:
            raise Refusal("bad_seat", f"seat {seat} is a bot's", "$.seat")
        if not matches(self.digests[seat], credential):
            raise Refusal("bad_credential", f"wrong or missing credential for seat {seat}")
        return seat

    def seats_summary(self) -> list[dict[str, Any]]:
        """Each seat: its kind, whether a player holds it, is connected, or a bot plays it."""
        connected = {watcher.seat for watcher in self.watchers}
        return [
            {
                "seat": seat,
                "kind": kind,
                "taken": kind == PERSON and self.digests[seat] is not None,
                "connected": seat in connected,
                "bot_playing": seat in self.taken_over,
            }
            for seat, kind in enumerate(self.settings.seats)
        ]

    def summary(self) -> dict[str, Any]:
        """The table as the lobby lists it (never its seed)."""
        state = self.game.state
        return {
            "table": self.table_id,
            "name": self.settings.name,
            "variant": self.settings.variant.id,
            "seats": self.seats_summary(),
            "free_seats": [seat for seat in self.settings.people if self.digests[seat] is None],
            "deal_number": state.deal_number,
            "to_act": self.game.to_act,
            "over": self.game.is_over,
            "takeover_after": self.settings.takeover_after,
            "spectators": self.settings.spectators,
        }

    # -- pushing ----------------------------------------------------------------------------

    def update(self, watcher: Watcher) -> dict[str, Any]:
        """The update a connection is due: its view, legal actions and unseen events."""
        events = self.game.events_since(watcher.seat, watcher.seen)
        watcher.seen = self.game.event_count
        seen, legal = self.game.seat_documents(watcher.seat)
        return {
            "type": "update",
            "table": self.table_id,
            "seat": watcher.seat,
            "view": seen,
            "legal": legal,
            "events": events,
            "event_count": self.game.event_count,
            "action_count": self.game.action_count,
            "seats": self.seats_summary(),
            "over": self.game.is_over,
        }

    def broadcast(self) -> None:
        """Push every connection its update."""
        for watcher in list(self.watchers):
            watcher.push(self.update(watcher))

    def attach(self, watcher: Watcher) -> None:
        """A connection starts watching (it is pushed its update at once)."""
        self.watchers.add(watcher)
        self.broadcast()

    def detach(self, watcher: Watcher) -> None:
        """A connection went away."""
        self.watchers.discard(watcher)
        if watcher.seat is not None:
            log_event(self.logger, "seat_disconnected", table=self.table_id, seat=watcher.seat)
        self.broadcast()

    # -- moves -------------------------------------------------------------------------------

    async def act(
        self, seat: int, action: Action, acknowledge: Callable[[int], None] = lambda _: None
    ) -> int:
        """Play a person's move, then the bots' moves after it; store them all; then call
        ``acknowledge`` with the action count, and push every connection its update. A
        :class:`Refusal` leaves the game as it was."""
        async with self.lock:
            if seat in self.taken_over:
                self._hand_back(seat)
            try:
                self.game.act(seat, action)
            except RummyError as error:
                raise Refusal.of(error) from None
            await self._play_bots_and_store()
            acknowledge(self.stored)
        self.broadcast()
        self._arm_timer()
        return self.stored

    async def _play_bots_and_store(self) -> None:
        """Play bot seats until a person is to act, storing every so many moves."""
        while True:
            steps = 0
            while steps < BOT_STEPS_PER_WRITE and self.game.to_act in self.bots:
                seat = self.game.to_act
                self.game.play_bot(seat, self.bots[seat])
                steps += 1
            await self._store()
            if self.game.to_act not in self.bots:
                return
            self.broadcast()
            await asyncio.sleep(0)

    async def _store(self) -> None:
        """Write the actions not yet stored (before anyone hears of them)."""
        new = self.game.actions[self.stored :]
        if not new:
            return
        try:
            await self.store.append(self.table_id, self.stored, [to_json(a) for a in new])
        except StoreConflictError:
            await self._reload()
            raise Refusal(
                "conflict",
                "another server process stored a move at this table first; your view is "
                "brought up to date: send your move again if it is still legal",
            ) from None
        except Exception:
            self.game = Game.resume(
                self.settings.variant,
                len(self.settings.seats),
                self.settings.seed,
                self.game.actions[: self.stored],
            )
            log_event(self.logger, "store_failed", logging.ERROR, table=self.table_id)
            raise Refusal("store_unavailable", "the move could not be stored: try again") from None
        self.stored = self.game.action_count
        self.on_write()
        if self.game.is_over:
            await self.store.mark_over(self.table_id)
            log_event(self.logger, "game_over", table=self.table_id)

    async def _reload(self) -> None:
        """Replace the game with the store's."""
        stored = await self.store.actions_since(self.table_id, 0)
        actions = [from_json(text, Action) for text in stored]
        self.game = Game.resume(
            self.settings.variant, len(self.settings.seats), self.settings.seed, actions
        )
        self.stored = self.game.action_count

    async def sync(self, count: int) -> None:
        """Another process stored actions up to ``count``: play them here and push them."""
        async with self.lock:
            if count <= self.stored:
                return
            for text in await self.store.actions_since(self.table_id, self.stored):
                action = from_json(text, Action)
                self.game.act(action.seat, action)
            self.stored = self.game.action_count
            if self.game.to_act in self.taken_over:
                with contextlib.suppress(Refusal):
                    await self._play_bots_and_store()
        self.broadcast()
        self._arm_timer()

    # -- bots taking over and handing back -------------------------------------------------

    def _arm_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        seat = self.game.to_act
        limit = self.settings.takeover_after
        if limit is None or seat is None or seat in self.bots:
            return
        count = self.game.action_count
        self._timer = asyncio.get_running_loop().call_later(
            limit, lambda: self._spawn(self._timed_out(seat, count))
        )

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _timed_out(self, seat: int, count: int) -> None:
        if self.game.to_act == seat and self.game.action_count == count:
            await self.take_over(seat, "timeout")

    async def take_over(self, seat: int, reason: str) -> None:
        """Let the table's takeover bot play a person's seat (it left, or took too long)."""
        if self.settings.takeover_after is None or seat in self.bots:
            return
        async with self.lock:
            self.bots[seat] = self.settings.bot(seat)
            self.taken_over.add(seat)
            log_event(self.logger, "seat_taken_over", table=self.table_id, seat=seat, reason=reason)
            with contextlib.suppress(Refusal):
                await self._play_bots_and_store()
        self.broadcast()
        self._arm_timer()

    def _hand_back(self, seat: int) -> None:
        if seat in self.taken_over:
            self.taken_over.discard(seat)
            del self.bots[seat]
            log_event(self.logger, "seat_handed_back", table=self.table_id, seat=seat)

    def hand_back(self, seat: int) -> None:
        """The seat's player is back: the bot stops playing it."""
        was = seat in self.taken_over
        self._hand_back(seat)
        if was:
            self.broadcast()
            self._arm_timer()

    def start(self) -> None:
        """Start the takeover clock (a table just made or restored); bots due to move, move."""
        if self.game.to_act in self.bots:
            self._spawn(self._resume_bots())
        self._arm_timer()

    async def _resume_bots(self) -> None:
        async with self.lock:
            with contextlib.suppress(Refusal):
                await self._play_bots_and_store()
        self.broadcast()
        self._arm_timer()

    def stop(self) -> None:
        """Cancel the clock and pending work (the server is stopping)."""
        if self._timer is not None:
            self._timer.cancel()
        for task in list(self._tasks):
            task.cancel()


def crash_hook(after_writes: int | None) -> Callable[[], None]:
    """For crash tests: a callback that kills the process with SIGKILL at its Nth call (each
    store write calls it, after the write and before the acknowledgement or any push)."""
    if after_writes is None:
        return lambda: None
    count = [0]

    def on_write() -> None:
        count[0] += 1
        if count[0] >= after_writes:
            os.kill(os.getpid(), signal.SIGKILL)

    return on_write
