"""A server's table (``Room``) over a real store, without sockets: a move the store cannot
take is undone and never pushed; another process's moves are played here (incrementally where
this table's bots chose the same, else by resuming the table from the store); a move stored
first elsewhere is refused as a conflict and the table brought up to date."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

import shanghai_rummy as sr
from shanghai_rummy.server.rooms import Room
from shanghai_rummy.server.settings import TableSettings
from shanghai_rummy.server.sqlite_store import SQLiteStore

from .serving import short_variant

LOGGER = logging.getLogger("tests.server_rooms")


class FlakyStore(SQLiteStore):
    """A SQLite store whose writes fail while ``failing`` is set."""

    failing = False

    async def append(self, table_id: str, first: int, actions: Sequence[str]) -> None:
        if self.failing:
            raise OSError("the disk is gone")
        await super().append(table_id, first, actions)


class Collector:
    """A connection that keeps what it is pushed."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.seen = 0
        self.messages: list[dict[str, Any]] = []

    def push(self, message: dict[str, Any]) -> None:
        self.messages.append(message)

    def close(self, reason: str) -> None:
        pass


async def _room(store: SQLiteStore, seats: list[str], seed: int, made: bool = False) -> Room:
    settings = TableSettings.read({"variant": short_variant(1), "seats": seats, "seed": seed})
    if not made:
        await store.create_table("t", settings.to_json(), "me", len(seats))
    stored = await store.load("t")
    assert stored is not None
    room = Room.restore(stored, store=store, logger=LOGGER, on_write=lambda: None)
    await room.request(Collector(None), {"op": "view"}, lambda _: None)  # stores the bots' moves
    assert room.settled
    return room


async def _act(room: Room, watcher: Collector, action: str) -> dict[str, Any]:
    replies: list[dict[str, Any]] = []
    await room.request(watcher, {"id": 1, "op": "act", "action": action}, replies.append)
    (reply,) = replies
    return reply


def _first_move(room: Room, seat: int) -> str:
    return room.table.view(seat).labels[0]


def test_a_move_the_store_cannot_take_is_undone_and_never_pushed(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = FlakyStore(str(tmp_path / "games.sqlite3"))
        await store.open()
        room = await _room(store, ["person", "greedy", "greedy"], 4)
        watcher = Collector(0)
        room.attach(watcher)
        before = room.update(Collector(0))
        store.failing = True
        move = _first_move(room, 0)
        reply = await _act(room, watcher, move)
        assert reply["ok"] is False and reply["error"]["code"] == "store_unavailable"
        assert room.update(Collector(0)) == before  # undone: the table is as stored
        assert all(m["action_count"] == before["action_count"] for m in watcher.messages)
        store.failing = False
        assert (await _act(room, watcher, move))["ok"] is True
        assert room.settled and room.stored > before["action_count"]
        assert watcher.messages[-1]["action_count"] == room.stored
        await store.close()

    asyncio.run(scenario())


@pytest.mark.parametrize("bot", ["greedy", "random"])
def test_another_process_moves_are_played_here(tmp_path: Path, bot: str) -> None:
    async def scenario() -> None:
        path = str(tmp_path / "games.sqlite3")
        here, there = SQLiteStore(path), SQLiteStore(path)
        await here.open()
        await there.open()
        seats = ["person", bot, "person"]
        first = await _room(here, seats, 9)
        second = await _room(there, seats, 9, made=True)
        watcher = Collector(2)
        second.attach(watcher)
        for _ in range(6):
            seat = first.table.to_act
            assert seat is not None
            assert (await _act(first, Collector(seat), _first_move(first, seat)))["ok"]
            await second.sync(first.stored)
            assert second.stored == first.stored
            assert second.table.record() == first.table.record()
            assert watcher.messages[-1]["event_count"] == first.table.event_count
        # a move sent to the second, stale table after the first stored one: a conflict
        seat = first.table.to_act
        assert seat is not None
        move = _first_move(first, seat)
        assert (await _act(first, Collector(seat), move))["ok"]
        refused = await _act(second, Collector(seat), move)
        assert refused["error"]["code"] == "conflict"
        assert second.table.record() == first.table.record()
        await here.close()
        await there.close()

    asyncio.run(scenario())


def test_every_update_shows_what_the_protocol_answers() -> None:
    """Through a two-deal game: each seat's and a spectator's update hold the protocol's
    ``view`` and ``legal`` answers, and the events are the protocol's ``events`` answer."""

    async def scenario() -> None:
        settings = TableSettings.read(
            {"variant": short_variant(2), "seats": ["person", "random", "person"], "seed": 6}
        )
        store = SQLiteStore(":memory:")
        await store.open()
        await store.create_table("t", settings.to_json(), "me", 3)
        room = Room("t", settings, [None] * 3, store=store, logger=LOGGER, creator="me")
        watchers = [Collector(seat) for seat in (0, 1, 2, None)]
        told: dict[int | None, list[Any]] = {watcher.seat: [] for watcher in watchers}
        for _ in range(400):
            for watcher in watchers:
                update = room.update(watcher)
                told[watcher.seat].extend(update["events"])
                ask = {"table": room.protocol_table, "seat": watcher.seat}
                view = room.protocol.handle({"op": "view", **ask})["result"]
                assert update["view"] == view
                if watcher.seat is not None:
                    legal = room.protocol.handle({"op": "legal", **ask})["result"]
                    assert update["legal"] == legal
                events = room.protocol.handle({"op": "events", "since": 0, **ask})["result"]
                assert told[watcher.seat] == events["events"]
            seat = room.table.to_act
            if seat is None:
                break
            move = sr.format_action(sr.GreedyBot().choose(room.table.view(seat)))
            assert (await _act(room, watchers[seat], move))["ok"]
        assert room.table.is_over and room.settled
        await store.close()

    asyncio.run(scenario())
