"""The game server over real sockets on loopback: whole games, people and bots."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("websockets")

import httpx

import shanghai_rummy as sr

from .serving import (
    SeatClient,
    create_table,
    join,
    play_to_end,
    server_in_thread,
    short_variant,
    sqlite_path,
)


def test_whole_game_two_people_two_bots(tmp_path: Path) -> None:
    store = sqlite_path(tmp_path)
    with server_in_thread(store=store) as base:
        table = create_table(
            base, variant=short_variant(3), seats=["person", "greedy", "person", "random"], seed=11
        )
        assert table["free_seats"] == [0, 2]
        seats = [join(base, table["table"]) for _ in range(2)]
        assert [seat["seat"] for seat in seats] == [0, 2]
        clients = [SeatClient(base, table["table"], s["seat"], s["credential"]) for s in seats]
        watcher = SeatClient(base, table["table"], None, None)
        moves = play_to_end(clients)
        assert moves > 20
        final = clients[0].update_where(lambda u: u["over"])
        view = final["view"]["data"]
        assert view["phase"] == "game_over" and len(view["results"]) == 3
        seen = watcher.update_where(lambda u: u["over"])
        assert seen["view"]["data"]["hand"] == [] and seen["legal"] == []
        summary = httpx.get(f"{base}/api/tables/{table['table']}").json()
        assert summary["over"] is True
        for client in [*clients, watcher]:
            client.close()
    # the store holds the game: replayed, it is the game that was played
    import sqlite3

    rows = sqlite3.connect(store).execute("SELECT action FROM actions ORDER BY number").fetchall()
    record = sr.GameRecord(
        variant=sr.from_dict(short_variant(3), sr.Variant),
        players=4,
        seed=11,
        actions=[sr.from_json(text, sr.Action) for (text,) in rows],
    )
    assert sr.replay(record).phase is sr.Phase.GAME_OVER
    assert len(clients[0].events) == len(rows)
