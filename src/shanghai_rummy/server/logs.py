"""Structured logs: one JSON object per line, with the time, the level, the event's name and
its fields.

>>> import io, json, logging
>>> stream = io.StringIO()
>>> logger = setup_logging("info", stream)
>>> log_event(logger, "action_refused", table="t1", seat=2, code="not_your_turn")
>>> line = json.loads(stream.getvalue())
>>> line["level"], line["event"], line["table"], line["seat"]
('info', 'action_refused', 't1', 2)
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any, TextIO

__all__ = ["LOGGER_NAME", "JsonLines", "log_event", "setup_logging"]

LOGGER_NAME = "shanghai_rummy.server"

_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}


class JsonLines(logging.Formatter):
    """Formats a record as one JSON line: ``time`` (UTC, ISO 8601), ``level``, ``event``
    (the message) and every extra field the record carries."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as JSON text."""
        line: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "event": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                line[key] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


def setup_logging(level: str, stream: TextIO | None = None) -> logging.Logger:
    """Send the server's logs and uvicorn's as JSON lines to ``stream`` (stderr by default)
    at ``level`` and above; returns the server's logger."""
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(JsonLines())
    for name in (LOGGER_NAME, "uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(level.upper())
        logger.propagate = False
    return logging.getLogger(LOGGER_NAME)


def log_event(logger: logging.Logger, event: str, level: int = logging.INFO, **fields: Any) -> None:
    """Log ``event`` with ``fields`` as the line's own keys."""
    logger.log(level, event, extra=fields)
