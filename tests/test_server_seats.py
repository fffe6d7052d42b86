"""Seats over real sockets: reconnecting with the credential, a bot taking over a seat that
timed out or was left, and handing it back."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette")

import httpx

from .serving import (
    TIMEOUT,
    SeatClient,
    join,
    play,
    play_to_end,
    seat_clients,
    seated_table,
    server_in_thread,
    sqlite_path,
)


def test_reconnect_with_the_credential_gets_the_events_missed(tmp_path: Path) -> None:
    with server_in_thread(store=sqlite_path(tmp_path)) as base:
        table, seats = seated_table(base, ["person", "greedy", "person"], 5)
        clients = seat_clients(base, table, seats)
        assert play(clients, 3) == 3
        seen = clients[0].update_where(lambda u: True)
        clients[0].close()
        # the game goes on without seat 0's connection, until seat 0 is to act
        played = play([clients[1]], 10)
        latest = clients[1].last_update
        assert latest is not None
        again = SeatClient(base, table, 0, seats[0]["credential"], since=seen["event_count"])
        assert again.hello["ok"] is True
        update = again.update_where(lambda u: True)
        missed = [event["number"] for event in update["events"]]
        assert missed == list(range(seen["event_count"], update["event_count"]))
        assert update["action_count"] >= latest["action_count"]
        assert played > 0 or update["view"]["data"]["to_act"] == 0
        # and plays on to the end
        assert play_to_end([again, clients[1]]) > 0


def test_a_bot_takes_over_a_timed_out_seat_and_hands_it_back(tmp_path: Path) -> None:
    with server_in_thread(store=sqlite_path(tmp_path)) as base:
        table, seats = seated_table(base, ["person", "greedy", "person"], 5, takeover_after=1.0)
        sleeper, player = seat_clients(base, table, seats)
        # seat 0 never moves: after 1 s a bot plays it
        taken = player.update_where(lambda u: u["seats"][0]["bot_playing"])
        assert taken["seats"][0]["kind"] == "person"
        before = taken["action_count"]
        sleeper.close()
        # back with the credential: the bot stops
        back = SeatClient(base, table, 0, seats[0]["credential"])
        update = back.update_where(lambda u: not u["seats"][0]["bot_playing"])
        assert update["action_count"] >= before
        # seat 0 is to act again some time: now nobody plays it for the player (within the
        # takeover time), the moves wait for seat 0
        mine = back.update_where(lambda u: u["over"] or u["view"]["data"]["to_act"] == 0)
        if not mine["over"]:
            count = mine["event_count"]
            answer = back.request("act", action=mine["legal"][0]["action"])
            assert answer["ok"] and answer["result"]["event_count"] > count


def test_a_seat_left_is_played_by_a_bot_and_its_credential_stops(tmp_path: Path) -> None:
    with server_in_thread(store=sqlite_path(tmp_path)) as base:
        table, seats = seated_table(base, ["person", "greedy", "person"], 8, takeover_after=60)
        player = SeatClient(base, table, seats[1]["seat"], seats[1]["credential"])
        left = httpx.post(
            f"{base}/api/tables/{table}/leave",
            json={"seat": 0, "credential": seats[0]["credential"]},
            timeout=TIMEOUT,
        )
        assert left.status_code == 200
        update = player.update_where(lambda u: u["seats"][0]["bot_playing"])
        assert update["seats"][0]["taken"] is False
        old = SeatClient.__new__(SeatClient)
        try:
            SeatClient.__init__(old, base, table, 0, seats[0]["credential"])
            assert old.hello["error"]["code"] == "bad_credential"
        finally:
            old.close()
        # a new player may take the free seat, and takes it back from the bot
        again = join(base, table, 0)
        back = SeatClient(base, table, 0, again["credential"])
        assert back.update_where(lambda u: not u["seats"][0]["bot_playing"])
        assert play_to_end([back, player]) >= 0
