"""The game server (the ``[server]`` extra): an HTTP lobby and a WebSocket per seat over the
rules engine, with seat credentials, a store that survives a crash (SQLite, or PostgreSQL for
several processes) and a browser client at ``/``.

Start it with ``shanghai-rummy serve --port 8000``, or build the ASGI application with
:func:`shanghai_rummy.server.app.create_app` to run it under another ASGI server. This
package's ``__init__`` imports no optional dependency: the command line reads its settings
from here.
"""

from __future__ import annotations

from .config import LOG_LEVELS, ServerConfig, add_arguments

__all__ = ["LOG_LEVELS", "ServerConfig", "add_arguments"]
