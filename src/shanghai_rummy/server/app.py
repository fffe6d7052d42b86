"""The server as an ASGI application (Starlette), and :func:`serve`, which runs it (uvicorn).

>>> app = create_app(ServerConfig(store=":memory:"))
>>> sorted({route.path for route in app.routes})[:4]
['/', '/api/tables', '/api/tables/{table_id}', '/api/tables/{table_id}/join']
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import AsyncIterator
from importlib import resources

import uvicorn
from starlette.applications import Starlette
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from .config import ServerConfig
from .lobby import Lobby
from .logs import LOGGER_NAME, log_event, setup_logging
from .rooms import crash_hook
from .sockets import Connections, table_socket
from .store import Store
from .stores import open_store
from .tables import Tables

__all__ = ["create_app", "serve"]

STATIC = resources.files("shanghai_rummy.server") / "static"


def create_app(config: ServerConfig, store: Store | None = None) -> Starlette:
    """The application: the lobby, the health check, each table's WebSocket and the browser
    client, over ``store`` (by default the one ``config.store`` names). The store is opened,
    and every table restored, when the application starts."""
    logger = logging.getLogger(LOGGER_NAME)
    kept = store if store is not None else open_store(config.store)
    tables = Tables(
        kept,
        logger,
        max_tables_per_client=config.max_tables_per_client,
        on_write=crash_hook(config.crash_after_writes),
    )
    connections = Connections()
    lobby = Lobby(tables, config, connections, logger)
    endpoints = lobby.endpoints()

    async def socket_endpoint(websocket: WebSocket) -> None:
        await table_socket(websocket, tables, config, connections, logger)

    async def index(request: object) -> Response:
        return FileResponse(str(STATIC / "index.html"))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await kept.open()
        await tables.restore()
        log_event(logger, "store_open", store=config.store_kind, tables=len(tables.rooms))
        try:
            yield
        finally:
            tables.stop()
            await kept.close()

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/health", endpoints["health"]),
            Route("/api/tables", endpoints["list"], methods=["GET"]),
            Route("/api/tables", endpoints["create"], methods=["POST"]),
            Route("/api/tables/{table_id}", endpoints["show"], methods=["GET"]),
            Route("/api/tables/{table_id}/join", endpoints["join"], methods=["POST"]),
            Route("/api/tables/{table_id}/leave", endpoints["leave"], methods=["POST"]),
            WebSocketRoute("/ws/{table_id}", socket_endpoint),
            Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.tables = tables
    app.state.connections = connections
    return app


def listening_socket(host: str, port: int) -> socket.socket:
    """A bound, listening TCP socket (port 0: any free port), reusable at once after a crash.
    It is made with the protocol named (IPPROTO_TCP), or asyncio would leave Nagle's
    algorithm on for its connections and every second message would wait 40 ms."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(1024)
    sock.setblocking(False)
    return sock


def uvicorn_server(app: Starlette, config: ServerConfig) -> uvicorn.Server:
    """A uvicorn server for ``app`` with the server's limits and logging."""
    return uvicorn.Server(
        uvicorn.Config(
            app,
            log_config=None,
            log_level=config.log_level,
            access_log=config.log_level == "debug",
            ws="websockets-sansio",
            # the server answers a too-large message itself; the transport stops absurd ones
            ws_max_size=4 * config.max_message_bytes,
            ws_ping_interval=20.0,
            ws_ping_timeout=20.0,
            lifespan="on",
            timeout_graceful_shutdown=5,
        )
    )


def serve(config: ServerConfig) -> int:
    """Run the server until interrupted (the ``serve --port`` command); logs go to stderr as
    JSON lines, the first of which after start is ``listening`` with the port."""
    logger = setup_logging(config.log_level)
    sock = listening_socket(config.host, config.port)
    port = sock.getsockname()[1]
    server = uvicorn_server(create_app(config), config)

    async def announce() -> None:
        while not server.started:
            await asyncio.sleep(0.02)
        log_event(logger, "listening", host=config.host, port=port, store=config.store_kind)

    async def run() -> None:
        told = asyncio.get_running_loop().create_task(announce())
        await server.serve(sockets=[sock])
        told.cancel()

    asyncio.run(run())
    return 0
