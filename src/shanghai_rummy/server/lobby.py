"""The HTTP side: the lobby (make, list, join and leave tables), the health check and the
browser client's files.

=======================================  ======================================================
``GET /health``                          ``{"ok": true, "tables", "connections", "store"}``
``GET /api/tables``                      ``{"tables": [summary, ...]}`` (open tables first)
``POST /api/tables``                     make a table: ``{"variant": id or document,
                                         "seats": ["person", "greedy", ...], "seed",
                                         "takeover_after", "takeover_bot", "name",
                                         "spectators"}`` -> 201 and its summary
``GET /api/tables/{id}``                 one table's summary
``POST /api/tables/{id}/join``           ``{"seat": n}`` (or ``{}``: the first free seat) ->
                                         ``{"table", "seat", "credential"}``
``POST /api/tables/{id}/leave``          ``{"seat": n, "credential": secret}``
``WS /ws/{id}``                          the table's WebSocket (see ``sockets``)
=======================================  ======================================================

Refusals are ``{"ok": false, "error": {"code", "message", "path"}}`` with a 4xx status.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from .config import ServerConfig
from .logs import log_event
from .sockets import Connections
from .tables import Tables
from .wire import Refusal

__all__ = ["Lobby"]

_STATUS = {
    "unknown_table": 404,
    "seat_taken": 409,
    "no_free_seat": 409,
    "too_many_tables": 429,
    "bad_credential": 403,
    "body_too_large": 413,
}


def _refused(refused: Refusal) -> JSONResponse:
    return JSONResponse(
        {
            "ok": False,
            "error": {"code": refused.code, "message": refused.message, "path": refused.path},
        },
        status_code=_STATUS.get(refused.code, 400),
    )


class Lobby:
    """The HTTP endpoints, over one process's tables."""

    def __init__(
        self,
        tables: Tables,
        config: ServerConfig,
        connections: Connections,
        logger: logging.Logger,
    ) -> None:
        self.tables = tables
        self.config = config
        self.connections = connections
        self.logger = logger

    async def _body(self, request: Request) -> Any:
        declared = request.headers.get("content-length")
        limit = self.config.max_message_bytes
        if declared is not None and declared.isdigit() and int(declared) > limit:
            raise Refusal("body_too_large", f"a request body holds at most {limit} bytes")
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > limit:
                raise Refusal("body_too_large", f"a request body holds at most {limit} bytes")
        if not body.strip():
            return {}
        try:
            return json.loads(body)
        except ValueError as error:
            raise Refusal("bad_json", f"not JSON: {error}") from None

    def _handle(
        self, work: Callable[[Request], Awaitable[Response]]
    ) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            try:
                return await work(request)
            except Refusal as refused:
                log_event(
                    self.logger,
                    "lobby_refused",
                    logging.WARNING,
                    path=request.url.path,
                    code=refused.code,
                    reason=refused.message[:200],
                    client=request.client.host if request.client else "?",
                )
                return _refused(refused)

        return endpoint

    def endpoints(self) -> dict[str, Callable[[Request], Awaitable[Response]]]:
        """The endpoints by name: health, list, create, show, join, leave."""
        return {
            name: self._handle(work)
            for name, work in (
                ("health", self.health),
                ("list", self.list_tables),
                ("create", self.create),
                ("show", self.show),
                ("join", self.join),
                ("leave", self.leave),
            )
        }

    async def health(self, request: Request) -> Response:
        """The server is up and its store answers."""
        return JSONResponse(
            {
                "ok": True,
                "tables": len(self.tables.rooms),
                "connections": self.connections.open,
                "store": self.config.store_kind,
            }
        )

    async def list_tables(self, request: Request) -> Response:
        """Every table, those still playing first."""
        rooms = sorted(self.tables.rooms.values(), key=lambda room: room.table.is_over)
        return JSONResponse({"tables": [room.summary() for room in rooms]})

    async def create(self, request: Request) -> Response:
        """Make a table."""
        client = request.client.host if request.client else "?"
        room = await self.tables.create(await self._body(request), client)
        return JSONResponse(room.summary(), status_code=201)

    async def show(self, request: Request) -> Response:
        """One table's summary."""
        room = await self.tables.room(request.path_params["table_id"])
        return JSONResponse(room.summary())

    async def join(self, request: Request) -> Response:
        """Take a seat: its credential comes back once, and only here."""
        body = await self._body(request)
        if not isinstance(body, dict):
            raise Refusal("bad_request", "the body must be a JSON object", "$")
        joined = await self.tables.join(request.path_params["table_id"], body.get("seat"))
        return JSONResponse(joined, headers={"Cache-Control": "no-store"})

    async def leave(self, request: Request) -> Response:
        """Give a seat up."""
        body = await self._body(request)
        if not isinstance(body, dict):
            raise Refusal("bad_request", "the body must be a JSON object", "$")
        await self.tables.leave(
            request.path_params["table_id"], body.get("seat"), body.get("credential")
        )
        return JSONResponse({"ok": True})
