"""The server's settings: each from a command-line flag, else an environment variable, else
its default.

============================  ==================================  ==========================
flag                          environment variable                default
============================  ==================================  ==========================
``--host``                    ``SHANGHAI_RUMMY_HOST``             ``127.0.0.1``
``--port``                    ``SHANGHAI_RUMMY_PORT``             ``8000`` (0: any free port)
``--store``                   ``SHANGHAI_RUMMY_STORE``            ``shanghai-rummy.sqlite3``
``--log-level``               ``SHANGHAI_RUMMY_LOG_LEVEL``        ``info``
``--max-message-bytes``       ``SHANGHAI_RUMMY_MAX_MESSAGE_BYTES`` ``65536``
``--messages-per-second``     ``SHANGHAI_RUMMY_MESSAGES_PER_SECOND`` ``20`` (burst: twice that)
``--max-connections``         ``SHANGHAI_RUMMY_MAX_CONNECTIONS``  ``1000``
``--max-tables-per-client``   ``SHANGHAI_RUMMY_MAX_TABLES_PER_CLIENT`` ``5``
``--hello-timeout``           ``SHANGHAI_RUMMY_HELLO_TIMEOUT``    ``10`` seconds
============================  ==================================  ==========================

The store is a SQLite file path (or ``sqlite:PATH``) or a PostgreSQL URL
(``postgresql://user@host/db``).

>>> config = ServerConfig.from_sources({}, {"SHANGHAI_RUMMY_PORT": "9000"})
>>> config.port, config.host, config.store_kind
(9000, '127.0.0.1', 'sqlite')
>>> ServerConfig.from_sources({"port": 0}, {"SHANGHAI_RUMMY_PORT": "9000"}).port
0
>>> ServerConfig.from_sources({}, {"SHANGHAI_RUMMY_PORT": "many"})
Traceback (most recent call last):
...
shanghai_rummy.errors.RummyError: SHANGHAI_RUMMY_PORT: not a whole number: 'many'
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from typing import Any, Literal

import attrs

from ..errors import RummyError

__all__ = ["LOG_LEVELS", "ServerConfig", "add_arguments"]

LOG_LEVELS = ("debug", "info", "warning", "error")
"""The values of ``--log-level``."""

ENV_PREFIX = "SHANGHAI_RUMMY_"


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"not a whole number: {text!r}") from None


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"not a number: {text!r}") from None


def _level(text: str) -> str:
    if text.lower() not in LOG_LEVELS:
        raise ValueError(f"not a log level: {text!r} (one of {', '.join(LOG_LEVELS)})")
    return text.lower()


def _text(text: str) -> str:
    return text


# name, reader, lowest value (None: any), help
_SETTINGS: tuple[tuple[str, Callable[[str], Any], float | None, str], ...] = (
    ("host", _text, None, "address to listen on (default 127.0.0.1)"),
    ("port", _whole, 0, "port to listen on (default 8000; 0 picks a free one)"),
    ("store", _text, None, "SQLite file or postgresql:// URL (default shanghai-rummy.sqlite3)"),
    ("log_level", _level, None, "debug, info, warning or error (default info)"),
    ("max_message_bytes", _whole, 256, "largest WebSocket message accepted (default 65536)"),
    ("messages_per_second", _number, 0.1, "messages per second per connection (default 20)"),
    ("max_connections", _whole, 1, "open WebSocket connections at most (default 1000)"),
    ("max_tables_per_client", _whole, 1, "open tables one client address may create (default 5)"),
    ("hello_timeout", _number, 0.1, "seconds a new connection has to say hello (default 10)"),
)


@attrs.frozen(kw_only=True)
class ServerConfig:
    """Everything a server is started with (see the module's table)."""

    host: str = "127.0.0.1"
    port: int = 8000
    store: str = "shanghai-rummy.sqlite3"
    log_level: str = "info"
    max_message_bytes: int = 65536
    messages_per_second: float = 20.0
    max_connections: int = 1000
    max_tables_per_client: int = 5
    hello_timeout: float = 10.0
    crash_after_writes: int | None = None
    """For crash tests only (``SHANGHAI_RUMMY_CRASH_AFTER_WRITES``): the process kills itself
    (SIGKILL) right after its Nth store write, before acknowledging or broadcasting it."""

    @property
    def store_kind(self) -> Literal["sqlite", "postgresql"]:
        """Which store :attr:`store` names."""
        if self.store.startswith(("postgresql://", "postgres://")):
            return "postgresql"
        return "sqlite"

    @property
    def burst(self) -> int:
        """Messages a connection may send at once before the rate applies."""
        return max(1, round(2 * self.messages_per_second))

    @classmethod
    def from_sources(cls, flags: Mapping[str, Any], environ: Mapping[str, str]) -> ServerConfig:
        """The settings from parsed flags (None or absent: not given) over environment
        variables over the defaults; :class:`~shanghai_rummy.RummyError` names a bad one."""
        values: dict[str, Any] = {}
        for name, reader, lowest, _help in _SETTINGS:
            variable = ENV_PREFIX + name.upper()
            value = flags.get(name)
            where = "--" + name.replace("_", "-")
            if value is None and variable in environ:
                where = variable
                try:
                    value = reader(environ[variable])
                except ValueError as error:
                    raise RummyError(f"{variable}: {error}") from None
            if value is None:
                continue
            if lowest is not None and value < lowest:
                raise RummyError(f"{where}: must be at least {lowest:g}, got {value}")
            values[name] = value
        crash = environ.get(ENV_PREFIX + "CRASH_AFTER_WRITES")
        if crash:
            values["crash_after_writes"] = _whole(crash)
        return cls(**values)


def _flag_type(reader: Callable[[str], Any]) -> Callable[[str], Any]:
    def read(text: str) -> Any:
        try:
            return reader(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return read


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the server's flags to ``parser`` (each defaults to None: not given)."""
    for name, reader, _lowest, help_text in _SETTINGS:
        parser.add_argument(
            "--" + name.replace("_", "-"), type=_flag_type(reader), default=None, help=help_text
        )
