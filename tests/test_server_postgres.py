"""Two server processes on one PostgreSQL database: a client on each, at the same table,
sees the other's moves (LISTEN/NOTIFY carries them from process to process)."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from .server_process import ServerProcess
from .serving import (
    SeatClient,
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
                assert {event.get("seat") for event in client.events} >= {0, 1, 2, 3}
            assert len(clients[0].events) == len(clients[1].events)
        finally:
            first.stop()
            second.stop()


def test_two_servers_in_one_process_share_a_table_and_refuse_a_double_write() -> None:
    """The same through servers in this process (so the coverage sees the PostgreSQL store),
    and two stores writing the same action numbers: the second is refused as a conflict."""
    import asyncio

    from shanghai_rummy.server.postgres_store import PostgresStore
    from shanghai_rummy.server.store import StoreConflictError

    from .serving import server_in_thread

    with postgres_database() as url:
        with server_in_thread(store=url) as first, server_in_thread(store=url) as second:
            table = create_table(
                first,
                variant=short_variant(1),
                seats=["person", "greedy", "person"],
                seed=2,
            )["table"]
            here, there = join(first, table, 0), join(second, table, 2)
            clients = [
                SeatClient(first, table, 0, here["credential"]),
                SeatClient(second, table, 2, there["credential"]),
            ]
            assert play_to_end(clients) > 5

        async def double_write() -> None:
            one, two = PostgresStore(url), PostgresStore(url)
            await one.open()
            await two.open()
            try:
                await one.create_table("t", {"seed": 1}, "me", 2)
                await one.append("t", 0, ["a"])
                with pytest.raises(StoreConflictError):
                    await two.append("t", 0, ["b"])
                assert await two.actions_since("t", 0) == ["a"]
                assert await two.claim_seat("t", 1, "digest")
                assert not await one.claim_seat("t", 1, "other")
                await one.free_seat("t", 1)
                stored = await two.load("t")
                assert stored is not None and stored.digests == (None, None)
                assert await two.count_open_tables("me") == 1
                await one.mark_over("t")
                assert await two.count_open_tables("me") == 0
                assert await two.load("missing") is None
            finally:
                await one.close()
                await two.close()

        asyncio.run(double_write())
