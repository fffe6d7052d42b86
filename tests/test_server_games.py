"""The game server over real sockets on loopback: whole games, people and bots, each seat
told the table's events as it may see them."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("websockets")

import httpx

import shanghai_rummy as sr

from .serving import (
    SeatClient,
    play_to_end,
    seat_clients,
    seated_table,
    server_in_thread,
    short_variant,
    sqlite_path,
)


def test_whole_game_two_people_two_bots(tmp_path: Path) -> None:
    store = sqlite_path(tmp_path)
    with server_in_thread(store=store) as base:
        table, seats = seated_table(base, ["person", "greedy", "person", "random"], 11, deals=3)
        assert [seat["seat"] for seat in seats] == [0, 2]
        clients = seat_clients(base, table, seats)
        watcher = SeatClient(base, table, None, None)
        moves = play_to_end(clients)
        assert moves > 20
        final = clients[0].update_where(lambda u: u["over"])
        view = final["view"]["data"]
        assert view["phase"] == "game_over" and len(view["results"]) == 3
        seen = watcher.update_where(lambda u: u["over"])
        assert seen["view"]["data"]["hand"] == [] and seen["legal"] == []
        assert seen["view"]["data"]["seat"] is None
        summary = httpx.get(f"{base}/api/tables/{table}").json()
        assert summary["over"] is True
        # every client was told every event once, numbered from 0, as its seat may see it
        for client in [*clients, watcher]:
            client.update_where(lambda u: u["over"])
            numbers = [event["number"] for event in client.events]
            assert numbers == list(range(final["event_count"]))
            asked = client.request("events", since=0)["result"]
            assert asked == {"events": client.events, "event_count": final["event_count"]}
        stock_draws = [e for e in clients[0].events if e["type"] == "drew"]
        mine = [e["card"] for e in stock_draws if e["seat"] == 0]
        theirs = [e["card"] for e in stock_draws if e["seat"] != 0]
        assert mine and all(mine) and theirs and not any(theirs)
        assert not any(e["card"] for e in watcher.events if e["type"] == "drew")
        for client in [*clients, watcher]:
            client.close()
    # the store holds the game: its actions, replayed, are the game that was played
    rows = sqlite3.connect(store).execute("SELECT action FROM actions ORDER BY number").fetchall()
    record = sr.GameRecord(
        variant=sr.from_dict(short_variant(3), sr.Variant),
        players=4,
        seed=11,
        actions=[sr.from_json(text, sr.Action) for (text,) in rows],
    )
    assert sr.replay(record).phase is sr.Phase.GAME_OVER
    assert final["action_count"] == len(rows)


def test_an_update_is_what_the_protocol_answers(tmp_path: Path) -> None:
    with server_in_thread(store=sqlite_path(tmp_path)) as base:
        table, seats = seated_table(base, ["person", "greedy", "greedy"], 4)
        (client,) = seat_clients(base, table, seats)
        update = client.my_turn()
        assert client.request("legal")["result"] == update["legal"]
        assert client.request("view")["result"] == update["view"]
        [take] = [entry for entry in update["legal"] if entry["label"] in ("take", "pass")]
        answer = client.request("act", action=take["label"])
        assert answer["ok"] and set(answer["result"]) == {
            "events",
            "to_act",
            "event_count",
            "is_over",
        }
        after = client.update_where(lambda u: u["event_count"] >= answer["result"]["event_count"])
        assert after["events"] == answer["result"]["events"]
        client.close()
