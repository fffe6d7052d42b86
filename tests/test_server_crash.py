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

from .server_process import ServerProcess
from .serving import (
    SeatClient,
    play,
    play_to_end,
    postgres_database,
    seat_clients,
    seated_table,
    sqlite_path,
)


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield sqlite_path(tmp_path)
    else:
        with postgres_database() as url:
            yield url


def _events(client: SeatClient) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = client.request("events", since=0)["result"]["events"]
    return events


def _acknowledged(clients: list[SeatClient]) -> int:
    return max(c.last_update["action_count"] for c in clients if c.last_update)


def test_sigkill_in_the_middle_of_a_deal_loses_nothing(store: str) -> None:
    server = ServerProcess(store)
    try:
        table, seats = seated_table(server.base, ["person", "greedy", "person", "random"], 21, 2)
        clients = seat_clients(server.base, table, seats)
        assert play(clients, 12) == 12
        acknowledged = _acknowledged(clients)
        before = _events(clients[0])
        assert server.kill() != 0
        with contextlib.suppress(Exception):
            for client in clients:
                client.close()
        server = ServerProcess(store, port=server.port)  # the same address: clients come back
        assert server.events("table_restored")[0]["actions"] == acknowledged
        clients = seat_clients(server.base, table, seats)
        after = _events(clients[0])
        assert after[: len(before)] == before and len(after) >= len(before)
        assert play_to_end(clients) > 0
    finally:
        server.stop()


def test_sigkill_between_the_store_write_and_the_acknowledgement(store: str) -> None:
    # the 4th write kills the server after it is stored, before it is acknowledged or pushed
    server = ServerProcess(store, env={"SHANGHAI_RUMMY_CRASH_AFTER_WRITES": "4"})
    try:
        table, seats = seated_table(server.base, ["person", "greedy", "person", "greedy"], 4)
        clients = seat_clients(server.base, table, seats)
        with pytest.raises(Exception):  # noqa: B017, PT011 - the connection dies mid-request
            play(clients, 50)
        acknowledged = _acknowledged(clients)
        assert server.process.wait(20) != 0  # it killed itself
        server = ServerProcess(store, port=server.port)
        restored = server.events("table_restored")[0]["actions"]
        assert restored > acknowledged  # the move stored but never acknowledged is kept
        clients = seat_clients(server.base, table, seats)
        assert play_to_end(clients) > 0
    finally:
        server.stop()
