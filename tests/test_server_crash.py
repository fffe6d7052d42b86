"""Nothing lost: a server killed with SIGKILL (in the middle of a deal, and between a store
write and its acknowledgement) and started again on the same store resumes every table
exactly; its clients reconnect with their credentials and the game goes on to the end."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from .serving import (
    SeatClient,
    ServerProcess,
    create_table,
    join,
    play,
    play_to_end,
    postgres_database,
    short_variant,
    sqlite_path,
)


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield sqlite_path(tmp_path)
    else:
        with postgres_database() as url:
            yield url


def _seat_clients(base: str, table: str, seats: list[dict[str, Any]]) -> list[SeatClient]:
    return [SeatClient(base, table, s["seat"], s["credential"]) for s in seats]


def _events(client: SeatClient) -> list[str]:
    return [event["text"] for event in client.request("events", since=0)["result"]]


def test_sigkill_in_the_middle_of_a_deal_loses_nothing(store: str) -> None:
    server = ServerProcess(store)
    try:
        table = create_table(
            server.base,
            variant=short_variant(2),
            seats=["person", "greedy", "person", "random"],
            seed=21,
        )["table"]
        seats = [join(server.base, table) for _ in range(2)]
        clients = _seat_clients(server.base, table, seats)
        assert play(clients, 12) == 12
        acknowledged = max(c.last_update["action_count"] for c in clients if c.last_update)
        before = _events(clients[0])
        assert server.kill() != 0
        with contextlib.suppress(Exception):
            for client in clients:
                client.close()
        server = ServerProcess(store, port=server.port)  # the same address: clients come back
        assert server.events("table_restored")[0]["actions"] == acknowledged
        clients = _seat_clients(server.base, table, seats)
        after = _events(clients[0])
        assert after[: len(before)] == before and len(after) >= acknowledged
        assert play_to_end(clients) > 0
    finally:
        server.stop()


def test_sigkill_between_the_store_write_and_the_acknowledgement(store: str) -> None:
    # the 4th write kills the server after it is stored, before it is acknowledged or pushed
    server = ServerProcess(store, env={"SHANGHAI_RUMMY_CRASH_AFTER_WRITES": "4"})
    try:
        table = create_table(
            server.base,
            variant=short_variant(1),
            seats=["person", "greedy", "person", "greedy"],
            seed=4,
        )["table"]
        seats = [join(server.base, table) for _ in range(2)]
        clients = _seat_clients(server.base, table, seats)
        with pytest.raises(Exception):  # noqa: B017, PT011 - the connection dies mid-request
            play(clients, 50)
        acknowledged = max(c.last_update["action_count"] for c in clients if c.last_update)
        assert server.process.wait(20) != 0  # it killed itself
        server = ServerProcess(store, port=server.port)
        restored = server.events("table_restored")[0]["actions"]
        assert restored > acknowledged  # the move stored but never acknowledged is kept
        clients = _seat_clients(server.base, table, seats)
        assert play_to_end(clients) > 0
    finally:
        server.stop()
