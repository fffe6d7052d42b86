"""``shanghai-rummy serve --host H --port P``: start a server from flags and environment
variables (see :mod:`shanghai_rummy.server.config`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .app import serve
from .config import ServerConfig

__all__ = ["run"]


def run(flags: Mapping[str, Any], environ: Mapping[str, str]) -> int:
    """Serve until interrupted; :class:`~shanghai_rummy.RummyError` for a bad setting."""
    return serve(ServerConfig.from_sources(flags, environ))
