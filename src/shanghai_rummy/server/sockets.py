"""The WebSocket of a table: one connection per seat or spectator.

A connection first says hello, naming its seat and giving the seat's credential (or no seat,
to watch). It is then pushed an update on every change and may send the requests of the
JSON-lines protocol (:mod:`shanghai_rummy.protocol`) that concern its own seat: ``act``,
``view``, ``legal`` and ``events``, without ``table`` and ``seat`` (the connection's are
filled in; naming another is refused). They are answered by the table's protocol, as
``serve --stdio`` answers them. The server adds ``take_back`` (a bot that took the seat
over stops) and ``ping``. Every refusal is an error document; what the connection may not do
changes nothing and is logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from .config import ServerConfig
from .limits import RateLimit
from .logs import log_event
from .rooms import Room
from .tables import Tables
from .wire import Refusal, refusal, reply

__all__ = [
    "PROTOCOL_OPS",
    "QUEUE_LENGTH",
    "SERVER_OPS",
    "Connections",
    "SocketWatcher",
    "table_socket",
]

QUEUE_LENGTH = 512
"""Messages queued for a client at most; a client that reads slower is disconnected."""

CLOSE_POLICY = 1008
CLOSE_BUSY = 1013


class Connections:
    """How many WebSockets are open (the server's limit counts them)."""

    def __init__(self) -> None:
        self.open = 0


class SocketWatcher:
    """A table's connection over a WebSocket, with its own queue and writer."""

    def __init__(self, websocket: WebSocket, seat: int | None) -> None:
        self.websocket = websocket
        self.seat = seat
        self.seen = 0
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(QUEUE_LENGTH)
        self.closing: str | None = None

    def push(self, message: dict[str, Any]) -> None:
        """Queue a message; a full queue closes the connection."""
        if self.closing is not None:
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.close("too slow: the client does not read its messages")

    def close(self, reason: str) -> None:
        """Close after the queued messages."""
        if self.closing is None:
            self.closing = reason
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)

    async def write(self) -> None:
        """Send the queued messages until closed."""
        while True:
            message = await self.queue.get()
            if message is None:
                with contextlib.suppress(Exception):
                    await self.websocket.close(CLOSE_POLICY, self.closing or "")
                return
            await self.websocket.send_text(json.dumps(message))


async def table_socket(
    websocket: WebSocket,
    tables: Tables,
    config: ServerConfig,
    connections: Connections,
    logger: logging.Logger,
) -> None:
    """Serve one WebSocket of the table in the path."""
    client = websocket.client.host if websocket.client else "?"
    table_id = str(websocket.path_params.get("table_id", ""))
    await websocket.accept()
    if connections.open >= config.max_connections:
        log_event(logger, "connection_refused", logging.WARNING, client=client, code="busy")
        await _refuse_and_close(
            websocket, Refusal("busy", "the server has too many open connections")
        )
        return
    connections.open += 1
    try:
        await _serve(websocket, table_id, client, tables, config, logger)
    finally:
        connections.open -= 1


async def _refuse_and_close(websocket: WebSocket, refused: Refusal) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(json.dumps(refusal(refused.request_id, refused)))
        code = CLOSE_BUSY if refused.code == "busy" else CLOSE_POLICY
        await websocket.close(code, refused.message[:120])


async def _hello(
    websocket: WebSocket, table_id: str, tables: Tables, config: ServerConfig
) -> tuple[Room, int | None, object, int]:
    text = await asyncio.wait_for(websocket.receive_text(), config.hello_timeout)
    if len(text.encode("utf-8", "surrogatepass")) > config.max_message_bytes:
        raise Refusal(
            "message_too_large", f"messages hold at most {config.max_message_bytes} bytes"
        )
    request = _parse(text)
    request_id = request.get("id")
    try:
        if request.get("op") != "hello":
            raise Refusal("bad_request", "the first message must be a hello", "$.op")
        room = await tables.room(table_id)
        seat = request.get("seat")
        if seat is None:
            if not room.settings.spectators:
                raise Refusal("no_spectators", "this table has no spectators", "$.seat")
        else:
            seat = room.check_credential(seat, request.get("credential"))
        since = request.get("since", 0)
        if isinstance(since, bool) or not isinstance(since, int) or since < 0:
            raise Refusal("bad_request", "'since' must be an event number", "$.since")
    except Refusal as refused:
        refused.request_id = request_id
        raise
    return room, seat, request_id, since


def _parse(text: str) -> dict[str, Any]:
    try:
        request = json.loads(text)
    except ValueError as error:
        raise Refusal("bad_json", f"not JSON: {error}") from None
    if not isinstance(request, dict):
        raise Refusal("bad_request", "a request is a JSON object", "$")
    return request


async def _serve(
    websocket: WebSocket,
    table_id: str,
    client: str,
    tables: Tables,
    config: ServerConfig,
    logger: logging.Logger,
) -> None:
    try:
        room, seat, hello_id, since = await _hello(websocket, table_id, tables, config)
    except (Refusal, TimeoutError, asyncio.TimeoutError) as error:
        refused = error if isinstance(error, Refusal) else Refusal("timeout", "no hello in time")
        log_event(
            logger,
            "hello_refused",
            logging.WARNING,
            table=table_id,
            client=client,
            code=refused.code,
            reason=refused.message,
        )
        await _refuse_and_close(websocket, refused)
        return
    except WebSocketDisconnect:
        return
    watcher = SocketWatcher(websocket, seat)
    watcher.seen = since
    writer = asyncio.get_running_loop().create_task(watcher.write())
    log_event(logger, "connected", table=table_id, seat=seat, client=client)
    watcher.push(reply(hello_id, {"table": table_id, "seat": seat}))
    if seat is not None:
        await room.hand_back(seat)
    room.attach(watcher)
    limit = RateLimit(config.messages_per_second, config.burst)
    try:
        while watcher.closing is None:
            text = await websocket.receive_text()
            await _request(text, watcher, room, limit, config, logger, client)
    except WebSocketDisconnect:
        pass
    finally:
        room.detach(watcher)
        watcher.close("bye")
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 2.0)
        writer.cancel()
        log_event(logger, "disconnected", table=table_id, seat=seat, client=client)


async def _request(
    text: str,
    watcher: SocketWatcher,
    room: Room,
    limit: RateLimit,
    config: ServerConfig,
    logger: logging.Logger,
    client: str,
) -> None:
    request_id: object = None

    def answer(message: dict[str, Any]) -> None:
        watcher.push(message)
        if message.get("ok") is False:
            error = message["error"]
            log_event(
                logger,
                "request_refused",
                logging.WARNING,
                table=room.table_id,
                seat=watcher.seat,
                client=client,
                code=error["code"],
                reason=str(error["message"])[:200],
            )
            if error["code"] in _SHOW_AGAIN:
                room.push_update(watcher)

    try:
        allowed = limit.allow()
        if len(text.encode("utf-8", "surrogatepass")) > config.max_message_bytes:
            raise Refusal(
                "message_too_large", f"messages hold at most {config.max_message_bytes} bytes"
            )
        request = _parse(text)
        request_id = request.get("id")
        if not allowed:
            raise Refusal(
                "rate_limited", f"at most {config.messages_per_second:g} messages per second"
            )
        await _answer(request, watcher, room, answer)
    except Refusal as refused:
        answer(refusal(request_id, refused))


_SHOW_AGAIN = frozenset({"not_your_turn", "wrong_phase", "illegal_move", "conflict"})
"""Refusals after which the connection is pushed its update again (its view was stale)."""

PROTOCOL_OPS = ("view", "legal", "act", "events")
"""The protocol's operations a connection may send (the table's and seat's own)."""
SERVER_OPS = ("hello", "take_back", "ping")
"""The server's own: ``hello`` (first, once), ``take_back`` and ``ping``."""


async def _answer(
    request: dict[str, Any],
    watcher: SocketWatcher,
    room: Room,
    answer: Callable[[dict[str, Any]], None],
) -> None:
    op = request.get("op")
    seat = watcher.seat
    if "table" in request and request["table"] != room.table_id:
        raise Refusal("not_your_table", "this connection is to another table", "$.table")
    if "seat" in request and request["seat"] != seat:
        raise Refusal(
            "not_your_seat",
            f"this connection is seat {seat}'s: it cannot speak for another",
            "$.seat",
        )
    if seat is None and op in ("act", "legal", "take_back"):
        raise Refusal("not_your_seat", "a spectator has no seat to act for", "$.op")
    fields = {key: value for key, value in request.items() if key not in ("table", "seat")}
    if op == "ping":
        answer(reply(request.get("id"), "pong"))
    elif op == "take_back" and seat is not None:
        await room.hand_back(seat)
        answer(reply(request.get("id"), {"bot_playing": False}))
    elif op in PROTOCOL_OPS:
        await room.request(watcher, fields, answer)
    else:
        raise Refusal(
            "unknown_op",
            f"unknown op {op!r}: a connection sends {', '.join(PROTOCOL_OPS + SERVER_OPS[1:])}",
            "$.op",
        )
