"""Helpers for the server's tests: a real server on 127.0.0.1 (port 0) in a thread of the
test process or in a subprocess (:mod:`tests.server_process`), and real HTTP and WebSocket
clients."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

import shanghai_rummy as sr
from shanghai_rummy.server.app import create_app, listening_socket, uvicorn_server
from shanghai_rummy.server.config import ServerConfig

from .server_process import TIMEOUT, fresh_database


def short_variant(deals: int = 2, preset: str = "shanghai") -> dict[str, Any]:
    """A variant document of a preset cut to its first ``deals`` deals."""
    import attrs

    return sr.to_dict(attrs.evolve(sr.get_variant(preset), deal_count=deals))


@contextlib.contextmanager
def server_in_thread(**settings: Any) -> Iterator[str]:
    """A server in a thread of this process; yields its base URL."""
    settings.setdefault("messages_per_second", 1000.0)
    config = ServerConfig(host="127.0.0.1", port=0, **settings)
    # the server's thread and the clients' share the GIL: hand it over sooner than every 5 ms
    switch = sys.getswitchinterval()
    sys.setswitchinterval(0.0002)
    sock = listening_socket("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server = uvicorn_server(create_app(config), config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + TIMEOUT
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(TIMEOUT)
        sock.close()
        sys.setswitchinterval(switch)


def create_table(base: str, **body: Any) -> dict[str, Any]:
    """Make a table through the lobby; its summary."""
    response = httpx.post(f"{base}/api/tables", json=body, timeout=TIMEOUT)
    assert response.status_code == 201, response.text
    result: dict[str, Any] = response.json()
    return result


def join(base: str, table: str, seat: int | None = None) -> dict[str, Any]:
    """Take a seat; ``{"table", "seat", "credential"}``."""
    response = httpx.post(
        f"{base}/api/tables/{table}/join",
        json={} if seat is None else {"seat": seat},
        timeout=TIMEOUT,
    )
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def seated_table(
    base: str, seats: list[str], seed: int, deals: int = 1, **settings: Any
) -> tuple[str, list[dict[str, Any]]]:
    """Make a table of ``seats`` (a variant cut to ``deals`` deals) and join every person's
    seat: the table's id and each joined seat's ``{"table", "seat", "credential"}``."""
    table = create_table(base, variant=short_variant(deals), seats=seats, seed=seed, **settings)
    return table["table"], [join(base, table["table"]) for _ in table["free_seats"]]


def seat_clients(base: str, table: str, seats: list[dict[str, Any]]) -> list[SeatClient]:
    """A connected client for each joined seat."""
    return [SeatClient(base, table, seat["seat"], seat["credential"]) for seat in seats]


class SeatClient:
    """A WebSocket client of one seat (or a spectator), reading the server's messages."""

    def __init__(
        self, base: str, table: str, seat: int | None, credential: str | None, since: int = 0
    ) -> None:
        self.url = base.replace("http://", "ws://") + f"/ws/{table}"
        self.table = table
        self.seat = seat
        self._stack = contextlib.ExitStack()
        self.socket: ClientConnection = self._stack.enter_context(
            connect(self.url, open_timeout=TIMEOUT)
        )
        self.next_id = 0
        self.last_update: dict[str, Any] | None = None
        self.events: list[dict[str, Any]] = []
        self.hello = self.request("hello", seat=seat, credential=credential, since=since)

    def send(self, message: dict[str, Any]) -> int:
        """Send a request; its id."""
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, **message}))
        return self.next_id

    def receive(self) -> dict[str, Any]:
        """The next message (updates are remembered as they pass)."""
        message: dict[str, Any] = json.loads(self.socket.recv(TIMEOUT))
        if message.get("type") == "update":
            self.last_update = message
            self.events.extend(message["events"])
        return message

    def reply(self, request_id: int) -> dict[str, Any]:
        """Read on until the answer to ``request_id``."""
        while True:
            message = self.receive()
            if message.get("id") == request_id and "ok" in message:
                return message

    def request(self, op: str, **fields: Any) -> dict[str, Any]:
        """Send a request and wait for its answer."""
        return self.reply(self.send({"op": op, **fields}))

    def update_where(self, wanted: Any) -> dict[str, Any]:
        """Read on until an update for which ``wanted(update)`` is true (the last one seen
        counts)."""
        if self.last_update is not None and wanted(self.last_update):
            return self.last_update
        while True:
            message = self.receive()
            if message.get("type") == "update" and wanted(message):
                return message

    def my_turn(self) -> dict[str, Any]:
        """Wait until this seat is to act or the game is over; the update."""
        return self.update_where(lambda u: u["over"] or (u["legal"] and _current(u)))

    def close(self) -> None:
        """Close the connection."""
        self._stack.close()


def _current(update: dict[str, Any]) -> bool:
    return bool(update["view"]["data"]["to_act"] == update["seat"])


def choose(update: dict[str, Any]) -> dict[str, Any]:
    """A person's move: what the greedy bot would play on this view, as a document."""
    seen = sr.from_dict(update["view"], sr.PlayerView)
    return sr.to_dict(sr.GreedyBot().choose(seen))


def play_to_end(clients: list[SeatClient], most_moves: int = 5000) -> int:
    """Let the seats' clients play until the game is over; the moves they sent."""
    sent = play(clients, most_moves)
    if not _latest(clients)["over"]:
        raise AssertionError("the game did not end")
    return sent


def _latest(clients: list[SeatClient]) -> dict[str, Any]:
    return max(
        (c.last_update for c in clients if c.last_update is not None),
        key=lambda u: u["action_count"],
    )


def play(clients: list[SeatClient], moves: int) -> int:
    """Let the seats' clients make ``moves`` moves (fewer if the game ends); the moves sent.
    Each round, the freshest update says whose turn it is; that seat's client reads up to it
    and moves."""
    by_seat = {client.seat: client for client in clients}
    for client in clients:
        client.update_where(lambda u: True)
    sent = 0
    while sent < moves:
        latest = _latest(clients)
        if latest["over"]:
            return sent
        count = latest["action_count"]
        to_act = latest["view"]["data"]["to_act"]
        client = by_seat.get(to_act)
        if client is None and not latest["seats"][to_act]["bot_playing"]:
            return sent  # a person none of these clients plays is to move
        if client is None:  # a bot is to move (it took a seat over): wait for news
            clients[0].update_where(lambda u, count=count: u["action_count"] > count)
            continue
        update = client.update_where(lambda u, count=count: u["action_count"] >= count)
        if update["action_count"] > count or not update["legal"]:
            continue
        answer = client.request("act", action=choose(update))
        assert answer["ok"], answer
        done = answer["result"]["event_count"]
        client.update_where(lambda u, done=done: u["event_count"] >= done)
        sent += 1
    return sent


def wait_until(check: Any, timeout: float = TIMEOUT) -> None:
    """Poll ``check()`` until true."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.02)


def sqlite_path(folder: Path) -> str:
    """A store file in ``folder``."""
    return str(folder / "games.sqlite3")


POSTGRES_URL_VARIABLE = "SHANGHAI_RUMMY_TEST_POSTGRES_URL"
"""A PostgreSQL server for the tests (a URL of a database the tests may create others from)."""

REQUIRE_VARIABLE = "SHANGHAI_RUMMY_TEST_REQUIRE_SERVICES"
"""Set (as CI does): a missing PostgreSQL or Chromium fails the tests instead of skipping."""


def missing(what: str) -> None:
    """Skip a test for want of ``what``, or fail it where the services are required."""
    if os.environ.get(REQUIRE_VARIABLE):
        pytest.fail(f"{what} is required ({REQUIRE_VARIABLE} is set) but missing")
    pytest.skip(f"{what} is not available")


@contextlib.contextmanager
def postgres_database() -> Iterator[str]:
    """A new, empty database on the tests' PostgreSQL server; yields its URL, drops it after."""
    base = os.environ.get(POSTGRES_URL_VARIABLE)
    if not base:
        missing(f"PostgreSQL (set {POSTGRES_URL_VARIABLE})")
    with fresh_database(str(base)) as url:
        yield url
