"""``shanghai-rummy serve [--host H] [--port P] ...``: the game server (the ``[server]``
extra). Every flag also reads an environment variable (see
:mod:`shanghai_rummy.server.config`); the server itself lives in :mod:`shanghai_rummy.server`.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from ..server.config import add_arguments
from .common import UsageError

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> None:
    """Add ``serve`` and the server's flags to the command's subparsers."""
    serve = commands.add_parser(
        "serve", help="run the game server: HTTP lobby and WebSockets (the [server] extra)"
    )
    add_arguments(serve)
    serve.add_argument(
        "--stdio",
        action="store_true",
        help="serve the JSON-lines protocol on standard input and output instead (no extra "
        "needed): one request a line, one reply a line",
    )


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted (a bad setting: RummyError; no [server] extra: UsageError);
    with ``--stdio``, answer the protocol's requests on standard input until it ends."""
    options = dict(vars(args))
    if options.pop("stdio", False):
        from .stdio import serve_stdio

        return serve_stdio(sys.stdin, sys.stdout)
    try:
        from ..server.command import run as serve
    except ImportError as error:
        raise UsageError(
            f"the server needs the [server] extra ({error.name} is missing): "
            "pip install 'shanghai-rummy[server]'"
        ) from None
    return serve(options, os.environ)
