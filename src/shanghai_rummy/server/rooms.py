"""A table held by a server: its game (a :class:`~shanghai_rummy.Table` inside a
:class:`~shanghai_rummy.protocol.Protocol`), its seats' credentials, the connections watching
it, and the order in which a move is stored, acknowledged and pushed.

A connection's request goes to the table's protocol with the connection's table and seat
filled in, so it is answered exactly as ``serve --stdio`` would answer it. A move the
protocol accepts, and every bot move the table plays after it, is stored in one write (a long
run of bot moves, in writes of :data:`BOT_STEPS_PER_WRITE`); only then is the move's reply
sent and each connection pushed its own view and the events it has not seen. Nothing is
pushed while the table holds a move the store has not: a move the store refuses (another
process stored one first, or the store is down) is undone by building the table again from
what the store holds. Nothing here does network I/O: a connection is anything with
:meth:`Watcher.push`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, Protocol

import attrs

from ..actions import Action
from ..errors import RummyError
from ..events import Event, SeenEvents
from ..notation import format_action
from ..protocol import Protocol as TablesProtocol
from ..records import GameRecord
from ..serialization import from_json, to_dict, to_json, unstructure
from ..state import Phase
from ..table import Table
from ..views import PlayerView
from .credentials import matches
from .logs import log_event
from .settings import PERSON, TableSettings
from .store import Store, StoreConflictError, StoredTable
from .wire import Refusal, refusal

__all__ = ["BOT_STEPS_PER_WRITE", "Room", "Watcher", "crash_hook"]

BOT_STEPS_PER_WRITE = 200
"""Bot moves the table plays between two writes (and two yields to other tables) when only
bots act."""

Reply = Callable[[dict[str, Any]], None]


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
    """One table: see the module's description. ``actions`` are the table's stored actions
    (none for a new table); the game is replayed from them."""

    def __init__(
        self,
        table_id: str,
        settings: TableSettings,
        digests: list[str | None],
        *,
        store: Store,
        logger: logging.Logger,
        creator: str,
        actions: Sequence[Action] = (),
        on_write: Callable[[], None] = lambda: None,
    ) -> None:
        self.table_id = table_id
        self.settings = settings
        self.digests = digests
        self.creator = creator
        self.store = store
        self.logger = logger
        self.on_write = on_write
        self.taken_over: set[int] = set()
        """People's seats a bot plays for now (their player left or took too long)."""
        self.watchers: set[Watcher] = set()
        self.lock = asyncio.Lock()
        self.protocol = TablesProtocol(max_bot_moves=BOT_STEPS_PER_WRITE)
        self._name = ""
        self.table = self._open(actions)
        self.stored = len(actions)
        """How many of the table's actions the store holds."""
        self._timer: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._event_data: dict[int | None, dict[int, Any]] = {}

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
        return cls(
            stored.table_id,
            TableSettings.read(stored.settings),
            list(stored.digests),
            store=store,
            logger=logger,
            creator=stored.creator,
            actions=[from_json(text, Action) for text in stored.actions],
            on_write=on_write,
        )

    # -- the game ---------------------------------------------------------------------------

    def _open(self, actions: Sequence[Action]) -> Table:
        """(Re)build the table from ``actions`` with the protocol's ``resume``: the game is
        its record (variant, seats, seed, actions), so it resumes exactly."""
        if self._name:
            self.protocol.handle({"op": "close", "table": self._name})
        game = GameRecord(
            variant=self.settings.variant,
            players=len(self.settings.seats),
            seed=self.settings.seed,
            actions=actions,
        )
        players = [
            self.settings.takeover_bot if seat in self.taken_over else kind
            for seat, kind in enumerate(self.settings.seats)
        ]
        answer = self._handle({"op": "resume", "record": to_dict(game), "seats": players})
        self._name = answer["result"]["table"]
        self.table = self.protocol.tables[self._name]
        return self.table

    def _handle(self, request: dict[str, Any]) -> dict[str, Any]:
        """A request of the server's own, which the protocol must accept."""
        answer = self.protocol.handle(request)
        if not answer["ok"]:
            error = answer["error"]
            raise RuntimeError(f"table {self.table_id}: {request['op']}: {error['message']}")
        return answer

    @property
    def protocol_table(self) -> str:
        """The id of the table in :attr:`protocol` (it changes when the table is built
        again; clients never see it)."""
        return self._name

    @property
    def action_count(self) -> int:
        """How many actions the table's game has had (the stored ones and any not yet)."""
        log = self.table.state.log
        return 0 if log is None else len(log)

    def _actions_from(self, first: int) -> list[Action]:
        """The game's actions from number ``first`` on (read from the newest back)."""
        log = self.table.state.log
        return [] if log is None else list(log.actions_after(first))

    @property
    def settled(self) -> bool:
        """True when the store holds every action of the table (only then is it shown)."""
        return self.action_count == self.stored

    def _bots_due(self) -> bool:
        """A bot is to act (or the next deal to be dealt) where the table stopped playing
        them after :data:`BOT_STEPS_PER_WRITE` moves."""
        state = self.table.state
        if state.phase is Phase.DEAL_OVER:
            return True
        seat = state.to_act
        return seat is not None and self.table.seats[seat] is not None

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
        return {
            "table": self.table_id,
            "name": self.settings.name,
            "variant": self.settings.variant.id,
            "seats": self.seats_summary(),
            "free_seats": [seat for seat in self.settings.people if self.digests[seat] is None],
            "deal_number": self.table.state.deal_number,
            "to_act": self.table.to_act,
            "over": self.table.is_over,
            "takeover_after": self.settings.takeover_after,
            "spectators": self.settings.spectators,
        }

    # -- pushing ----------------------------------------------------------------------------

    def update(self, watcher: Watcher) -> dict[str, Any]:
        """The update a connection is due: its view, its legal actions (as the protocol's
        ``legal`` gives them) and the events it has not been sent (as its ``events``)."""
        table = self.table
        events = table.events_since(watcher.seat, watcher.seen)
        watcher.seen = table.event_count
        seen = table.view(watcher.seat)
        view_document, memo = self._view_document(seen)
        return {
            "type": "update",
            "table": self.table_id,
            "seat": watcher.seat,
            "view": view_document,
            "legal": [
                {"action": unstructure(action, Action), "label": format_action(action)}
                for action in seen.legal_actions
            ],
            "events": [memo.get(event.number) or unstructure(event, Event) for event in events],
            "event_count": table.event_count,
            "action_count": self.stored,
            "seats": self.seats_summary(),
            "over": table.is_over,
        }

    def _view_document(self, seen: PlayerView) -> tuple[dict[str, Any], dict[int, Any]]:
        """``to_dict(seen)``, and its events' data by number. A view holds the deal's
        events, so each event's data is kept per viewer from one update to the next (only
        those still in the view) rather than made again for every update."""
        document = to_dict(attrs.evolve(seen, events=SeenEvents()))
        known = self._event_data.get(seen.seat, {})
        kept: dict[int, Any] = {}
        for event in seen.events:
            data = known.get(event.number)
            kept[event.number] = unstructure(event, Event) if data is None else data
        self._event_data[seen.seat] = kept
        document["data"]["events"] = list(kept.values())
        return document, kept

    def push_update(self, watcher: Watcher) -> None:
        """Push one connection its update (not while a move waits for the store)."""
        if self.settled:
            watcher.push(self.update(watcher))

    def broadcast(self) -> None:
        """Push every connection its update (not while a move waits for the store)."""
        for watcher in list(self.watchers):
            self.push_update(watcher)

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

    # -- requests and moves -----------------------------------------------------------------

    async def request(self, watcher: Watcher, request: dict[str, Any], reply: Reply) -> None:
        """Answer a protocol request of ``watcher`` (``view``, ``legal``, ``act``,
        ``events``), its table and seat filled in from the connection. A move accepted is
        stored, with the bots' moves after it, before ``reply`` gets its answer; then every
        connection is pushed its update. A refused request changes nothing."""
        changed = False
        async with self.lock:
            try:
                await self._settle()  # anything an earlier failure left unstored, first
                if request.get("op") == "act" and watcher.seat in self.taken_over:
                    self._hand_back(watcher.seat)
                    changed = True
                before = self.action_count
                answer = self.protocol.handle(
                    {**request, "table": self._name, "seat": watcher.seat}
                )
                if self.action_count != before:
                    changed = True
                    await self._settle()
            except Refusal as refused:
                answer = refusal(request.get("id"), refused)
            reply(answer)
        if changed:
            self.broadcast()
            self._arm_timer()

    async def _settle(self) -> None:
        """Store the table's new actions; while bots are still due, push what is stored,
        let other tables run, play the next bots' moves and store them."""
        while True:
            await self._store()
            if self.table.is_over or not self._bots_due():
                return
            self.broadcast()
            await asyncio.sleep(0)
            self.table.play_bots()

    async def _store(self) -> None:
        """Write the actions not yet stored (before anyone hears of them)."""
        new = self._actions_from(self.stored)
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
            self._open(self._actions_from(0)[: self.stored])
            log_event(self.logger, "store_failed", logging.ERROR, table=self.table_id)
            raise Refusal("store_unavailable", "the move could not be stored: try again") from None
        self.stored += len(new)
        self.on_write()
        if self.table.is_over:
            await self.store.mark_over(self.table_id)
            log_event(self.logger, "game_over", table=self.table_id)

    async def _reload(self) -> None:
        """Build the table again from the store's actions."""
        stored = await self.store.actions_since(self.table_id, 0)
        self._open([from_json(text, Action) for text in stored])
        self.stored = len(stored)

    def _catch_up(self, actions: Sequence[Action]) -> bool:
        """Play another process's stored ``actions`` (numbered from :attr:`stored`) here;
        False where this table's own bots played otherwise (it must be built again)."""
        for offset, action in enumerate(actions):
            number = self.stored + offset
            if number < self.action_count:
                if self._actions_from(number)[0] != action:
                    return False
                continue
            try:
                self.table.act(action.seat, action)
            except RummyError:
                return False
        return True

    async def sync(self, count: int) -> None:
        """Another process stored actions up to ``count``: play them here and push them."""
        async with self.lock:
            if count <= self.stored:
                return
            texts = await self.store.actions_since(self.table_id, self.stored)
            actions = [from_json(text, Action) for text in texts]
            if self._catch_up(actions):
                self.stored += len(actions)
            else:
                await self._reload()
            with contextlib.suppress(Refusal):
                await self._settle()
        self.broadcast()
        self._arm_timer()

    # -- bots taking over and handing back -------------------------------------------------

    def _arm_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        seat = self.table.to_act
        limit = self.settings.takeover_after
        if limit is None or seat is None or self.table.seats[seat] is not None:
            return
        count = self.action_count
        self._timer = asyncio.get_running_loop().call_later(
            limit, lambda: self._spawn(self._timed_out(seat, count))
        )

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _timed_out(self, seat: int, count: int) -> None:
        if self.table.to_act == seat and self.action_count == count:
            await self.take_over(seat, "timeout")

    async def take_over(self, seat: int, reason: str) -> None:
        """Let the table's takeover bot play a person's seat (it left, or took too long):
        the protocol's ``set_seat``."""
        if self.settings.takeover_after is None or seat in self.taken_over:
            return
        async with self.lock:
            self.taken_over.add(seat)
            self._handle(
                {
                    "op": "set_seat",
                    "table": self._name,
                    "seat": seat,
                    "player": self.settings.takeover_bot,
                }
            )
            log_event(self.logger, "seat_taken_over", table=self.table_id, seat=seat, reason=reason)
            with contextlib.suppress(Refusal):
                await self._settle()
        self.broadcast()
        self._arm_timer()

    def _hand_back(self, seat: int) -> None:
        if seat in self.taken_over:
            self.taken_over.discard(seat)
            self._handle({"op": "set_seat", "table": self._name, "seat": seat, "player": PERSON})
            log_event(self.logger, "seat_handed_back", table=self.table_id, seat=seat)

    async def hand_back(self, seat: int) -> None:
        """The seat's player is back: the bot stops playing it."""
        if seat not in self.taken_over:
            return
        async with self.lock:
            self._hand_back(seat)
        self.broadcast()
        self._arm_timer()

    def start(self) -> None:
        """Start the takeover clock (a table just made or restored); moves the table's bots
        played as it was built are stored, and bots due to move, move."""
        if not self.settled or self._bots_due():
            self._spawn(self._resume_bots())
        self._arm_timer()

    async def _resume_bots(self) -> None:
        async with self.lock:
            with contextlib.suppress(Refusal):
                await self._settle()
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
