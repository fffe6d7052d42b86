"""Everything the server refuses, over real sockets: each refusal is an error document, the
game is unchanged, and the refusal is logged."""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from .serving import (
    TIMEOUT,
    SeatClient,
    create_table,
    join,
    server_in_thread,
    short_variant,
    sqlite_path,
)


@pytest.fixture
def base(tmp_path: Path) -> Any:
    with server_in_thread(store=sqlite_path(tmp_path), max_tables_per_client=3) as url:
        yield url


def _table_with_person_to_act(base: str) -> tuple[str, SeatClient, dict[str, Any]]:
    table = create_table(base, variant=short_variant(1), seats=["person", "greedy"], seed=3)
    seat = join(base, table["table"], 0)
    client = SeatClient(base, table["table"], 0, seat["credential"])
    update = client.my_turn()
    return table["table"], client, update


def _refused(answer: dict[str, Any], code: str) -> dict[str, Any]:
    assert answer["ok"] is False, answer
    assert answer["error"]["code"] == code, answer
    error: dict[str, Any] = answer["error"]
    return error


def _logged(caplog: pytest.LogCaptureFixture, code: str) -> bool:
    return any(getattr(record, "code", None) == code for record in caplog.records)


def _hello(base: str, table: str, hello: dict[str, Any]) -> dict[str, Any]:
    url = base.replace("http://", "ws://") + f"/ws/{table}"
    with connect(url, open_timeout=TIMEOUT) as socket:
        try:
            socket.send(json.dumps(hello))
            answer: dict[str, Any] = json.loads(socket.recv(TIMEOUT))
        except ConnectionClosed as closed:  # closed before the answer could be read
            return {"ok": False, "error": {"code": "closed", "reason": str(closed)}}
        return answer


def test_wrong_or_missing_credential_is_refused(
    base: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    table = create_table(base, variant=short_variant(1), seats=["person", "person"], seed=3)
    join(base, table["table"], 0)
    for hello in (
        {"op": "hello", "seat": 0, "credential": "guess"},
        {"op": "hello", "seat": 0},
        {"op": "hello", "seat": 1, "credential": "x"},  # a seat nobody joined
    ):
        _refused(_hello(base, table["table"], {"id": 1, **hello}), "bad_credential")
    _refused(_hello(base, table["table"], {"id": 1, "op": "view"}), "bad_request")
    _refused(_hello(base, table["table"], {"id": 1, "op": "hello", "seat": 7}), "bad_seat")
    assert _logged(caplog, "bad_credential")


def test_the_credential_of_one_seat_does_not_open_another(base: str) -> None:
    table = create_table(base, variant=short_variant(1), seats=["person", "person"], seed=3)
    first = join(base, table["table"], 0)
    join(base, table["table"], 1)
    answer = _hello(
        base, table["table"], {"id": 1, "op": "hello", "seat": 1, "credential": first["credential"]}
    )
    _refused(answer, "bad_credential")


def test_moves_refused_leave_the_game_unchanged(
    base: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    _, client, update = _table_with_person_to_act(base)
    count = update["action_count"]
    hand = update["view"]["data"]["hand"]
    other_seat = {
        "format": "shanghai-rummy",
        "version": 1,
        "type": "action",
        "data": {"type": "draw", "seat": 1, "source": "stock"},
    }
    forged = {**other_seat, "data": {"type": "discard", "seat": 0, "card": "11H"}}
    cases = [
        ({"op": "act", "action": other_seat}, "not_your_turn", "$.seat"),
        ({"op": "act", "action": forged}, "bad_document", "$.action.data.card"),
        ({"op": "act", "action": {"type": "discard", "seat": 0}}, "bad_document", None),
        ({"op": "act", "action": "discard 11H"}, "bad_notation", "$.action"),
        ({"op": "act", "action": 42}, "bad_request", "$.action"),
        ({"op": "act"}, "bad_request", "$.action"),
        ({"op": "act", "action": "draw", "padding": 1}, "bad_request", "$.padding"),
        ({"op": "act", "action": "layoff 2C 99"}, "wrong_phase", "$.action"),  # seat 0 may buy
        ({"op": "act", "seat": 1, "action": "draw"}, "not_your_seat", "$.seat"),
        ({"op": "view", "table": "elsewhere"}, "not_your_table", "$.table"),
        ({"op": "fly"}, "unknown_op", "$.op"),
        # the protocol's operations on whole tables are not a seat's: a record names the seed
        ({"op": "record"}, "unknown_op", "$.op"),
        ({"op": "set_seat", "player": "greedy"}, "unknown_op", "$.op"),
        ({"op": "events", "since": -1}, "bad_request", "$.since"),
    ]
    for request, code, path in cases:
        error = _refused(client.request(**request), code)
        assert _logged(caplog, code)
        if path is not None:
            assert error["path"] == path, (request, error)
    client.socket.send("{not json")
    _refused(client.receive(), "bad_json")
    view = client.request("view")["result"]["data"]
    assert view["hand"] == hand
    events = client.request("events", since=0)["result"]
    assert len(events["events"]) == events["event_count"] == update["event_count"]
    assert update["action_count"] == count


def test_not_your_turn_and_spectators_cannot_act(base: str) -> None:
    table = create_table(base, variant=short_variant(1), seats=["person", "person"], seed=3)
    seats = [join(base, table["table"]) for _ in range(2)]
    clients = [SeatClient(base, table["table"], s["seat"], s["credential"]) for s in seats]
    update = clients[0].update_where(lambda u: True)
    to_act = update["view"]["data"]["to_act"]
    waiting = clients[1 - to_act]
    _refused(waiting.request("act", action="draw"), "not_your_turn")
    watcher = SeatClient(base, table["table"], None, None)
    _refused(watcher.request("act", action="draw"), "not_your_seat")
    _refused(watcher.request("legal"), "not_your_seat")
    assert watcher.request("view")["result"]["data"]["hand"] == []
    events = clients[to_act].request("events", since=0)["result"]
    assert events["event_count"] == update["event_count"]
    assert events["events"][0]["type"] == "deal_started"


def test_too_large_and_too_many_messages_are_refused(tmp_path: Path) -> None:
    with server_in_thread(
        store=sqlite_path(tmp_path), max_message_bytes=1024, messages_per_second=1.0
    ) as url:
        table = create_table(url, variant="rummy51", seats=["person", "greedy"], seed=3)
        seat = join(url, table["table"], 0)
        client = SeatClient(url, table["table"], 0, seat["credential"])
        client.send({"op": "ping", "padding": "x" * 2000})
        # a message too large is not read, so its answer has no id
        answer = client.receive()
        while answer.get("type") == "update":
            answer = client.receive()
        assert answer["id"] is None
        _refused(answer, "message_too_large")
        codes = [client.request("ping").get("error", {}).get("code") for _ in range(4)]
        assert "rate_limited" in codes
        big = httpx.post(f"{url}/api/tables", content=b"{" + b" " * 5000 + b"}", timeout=TIMEOUT)
        assert big.status_code == 413


def test_open_connections_are_limited(tmp_path: Path) -> None:
    with server_in_thread(store=sqlite_path(tmp_path), max_connections=2) as url:
        table = create_table(url, variant=short_variant(1), seats=["person", "greedy"], seed=3)
        watchers = [SeatClient(url, table["table"], None, None) for _ in range(2)]
        with connect(url.replace("http://", "ws://") + f"/ws/{table['table']}") as socket:
            _refused(json.loads(socket.recv(TIMEOUT)), "busy")  # said before any hello
        watchers[0].close()
        # the freed place can be taken again
        for _ in range(50):
            answer = _hello(url, table["table"], {"id": 1, "op": "hello"})
            if answer.get("ok"):
                break
            time.sleep(0.05)
        assert answer["ok"] is True


def test_hello_must_come_in_time(tmp_path: Path) -> None:
    with server_in_thread(store=sqlite_path(tmp_path), hello_timeout=0.2) as url:
        table = create_table(url, variant=short_variant(1), seats=["person", "greedy"], seed=3)
        with connect(url.replace("http://", "ws://") + f"/ws/{table['table']}") as socket:
            _refused(json.loads(socket.recv(TIMEOUT)), "timeout")


def test_lobby_refusals(base: str) -> None:
    post = httpx.post
    bad = [
        ({"variant": "gin", "seats": ["person"]}, "$.variant"),
        ({"variant": "shanghai", "seats": ["person", "wizard"]}, "$.seats[1]"),
        ({"variant": "shanghai", "seats": ["greedy", "greedy"]}, "$.seats"),
        ({"variant": "shanghai", "seats": ["person"]}, "$.seats"),  # too few seats
        (
            {"variant": "shanghai", "seats": ["person", "greedy"], "takeover_after": -1},
            "$.takeover_after",
        ),
        ({"variant": "shanghai", "seats": ["person", "greedy"], "colour": "red"}, "$.colour"),
        ({"variant": {"format": "shanghai-rummy"}, "seats": ["person", "greedy"]}, None),
    ]
    for body, path in bad:
        response = post(f"{base}/api/tables", json=body, timeout=TIMEOUT)
        assert response.status_code == 400, (body, response.text)
        error = response.json()["error"]
        if path is not None:
            assert error["path"] == path, (body, error)
    assert post(f"{base}/api/tables", content=b"[1,", timeout=TIMEOUT).status_code == 400
    table = create_table(base, seats=["person", "greedy"])
    join(base, table["table"], 0)
    taken = post(f"{base}/api/tables/{table['table']}/join", json={"seat": 0}, timeout=TIMEOUT)
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "seat_taken"
    full = post(f"{base}/api/tables/{table['table']}/join", json={}, timeout=TIMEOUT)
    assert full.json()["error"]["code"] == "no_free_seat"
    robot = post(f"{base}/api/tables/{table['table']}/join", json={"seat": 1}, timeout=TIMEOUT)
    assert robot.json()["error"]["code"] == "bad_seat"
    unknown = post(f"{base}/api/tables/nowhere/join", json={}, timeout=TIMEOUT)
    assert unknown.status_code == 404
    leave = post(
        f"{base}/api/tables/{table['table']}/leave",
        json={"seat": 0, "credential": "guess"},
        timeout=TIMEOUT,
    )
    assert leave.status_code == 403
    listed = httpx.get(f"{base}/api/tables", timeout=TIMEOUT).json()["tables"]
    assert all("seed" not in table and "credential" not in str(table) for table in listed)


def test_tables_per_client_are_limited(base: str) -> None:
    for _ in range(3):
        create_table(base, seats=["person", "greedy"])
    response = httpx.post(
        f"{base}/api/tables", json={"seats": ["person", "greedy"]}, timeout=TIMEOUT
    )
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "too_many_tables"


def test_health(base: str) -> None:
    health = httpx.get(f"{base}/health", timeout=TIMEOUT).json()
    assert health == {"ok": True, "tables": 0, "connections": 0, "store": "sqlite"}
