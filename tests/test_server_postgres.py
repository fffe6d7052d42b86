"""Two server processes on one PostgreSQL database: a client on each, at the same table,
sees the other's moves (LISTEN/NOTIFY carries them from process to process)."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from .serving import (
    SeatClient,
    ServerProcess,
    create_table,
    join,
    play_to_end,
    postgres_database,
    short_variant,
)


def test_two_processes_one_database_one_table() -> None:
    with postgres_database() as url:
        first, second = ServerProcess(url), ServerProcess(url)
        try:
            table = create_table(
                first.base,
                variant=short_variant(2),
                seats=["person", "greedy", "person", "random"],
                seed=33,
            )["table"]
            here = join(first.base, table, 0)
            there = join(second.base, table, 2)  # the second process finds it in the store
            assert there["seat"] == 2
            clients = [
                SeatClient(first.base, table, 0, here["credential"]),
                SeatClient(second.base, table, 2, there["credential"]),
            ]
            moves = play_to_end(clients)
            assert moves > 20
            # each client saw every move, the other process's included
            for client in clients:
                client.update_where(lambda u: u["over"])
                numbers = [event["number"] for event in client.events]
                assert numbers == list(range(len(numbers)))
                assert {event["seat"] for event in client.events} == {0, 1, 2, 3}
            assert len(clients[0].events) == len(clients[1].events)
        finally:
            first.stop()
            second.stop()
