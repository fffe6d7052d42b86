"""The messages of the WebSocket protocol: requests read, replies and refusals written.

The shapes are those of the JSON-lines protocol (``serve --stdio``): a request
``{"id": any, "op": str, ...}`` is answered by ``{"id": same, "ok": true, "result": ...}`` or
``{"id": same, "ok": false, "error": {"code", "message", "path"}}``. The server also pushes
``{"type": "update", ...}`` messages, which carry no ``id``.

>>> import shanghai_rummy as sr
>>> read_action("discard 11H", seat=0)
Traceback (most recent call last):
...
shanghai_rummy.server.wire.Refusal: bad_notation: 'discard 11H': not a card: '11H' ...
>>> error = read_action(
...     {
...         "format": "shanghai-rummy",
...         "version": 1,
...         "type": "action",
...         "data": {"type": "discard", "seat": 0, "card": "11H"},
...     },
...     seat=0,
... )
Traceback (most recent call last):
...
shanghai_rummy.server.wire.Refusal: bad_document: $.data.card: unknown card code '11H' ...
>>> refusal(7, Refusal("not_your_seat", "seat 1 cannot act for seat 2"))["error"]["code"]
'not_your_seat'
"""

from __future__ import annotations

import re
from typing import Any

from ..actions import Action
from ..errors import (
    IllegalMoveError,
    NotationError,
    NotYourTurnError,
    RummyError,
    SerializationError,
)
from ..notation import parse_action
from ..serialization import from_dict

__all__ = ["Refusal", "read_action", "refusal", "reply"]

_PATH = re.compile(r"^(\$[^:\s]*):")


class Refusal(Exception):
    """A request the server refuses: ``code`` (a short name), ``message`` (for people) and
    the ``path`` of the bad field, where one is to blame."""

    def __init__(self, code: str, message: str, path: str | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.path = path
        self.request_id: object = None
        """The id of the request refused, where it could be read."""

    @classmethod
    def of(cls, error: RummyError) -> Refusal:
        """The refusal of an error the rules engine raised."""
        message = str(error)
        if isinstance(error, NotYourTurnError):
            return cls("not_your_turn", message)
        if isinstance(error, IllegalMoveError):
            return cls("illegal_move", message)
        if isinstance(error, NotationError):
            return cls("bad_notation", message)
        if isinstance(error, SerializationError):
            found = _PATH.match(message)
            return cls("bad_document", message, found.group(1) if found else None)
        return cls("refused", message)


def read_action(sent: object, seat: int) -> Action:
    """The action a seat sent: a document or its text notation. A document for another seat
    is refused (``not_your_seat``), as is anything that is not an action."""
    try:
        if isinstance(sent, str):
            return parse_action(sent, seat)
        if isinstance(sent, dict):
            action: Action = from_dict(sent, Action)
        else:
            raise Refusal(
                "bad_request", "'action' must be an action document or its text", "$.action"
            )
    except RummyError as error:
        raise Refusal.of(error) from None
    if action.seat != seat:
        raise Refusal(
            "not_your_seat",
            f"this connection plays seat {seat}: it cannot act for seat {action.seat}",
            "$.action.data.seat",
        )
    return action


def reply(request_id: object, result: Any) -> dict[str, Any]:
    """A request's answer."""
    return {"id": request_id, "ok": True, "result": result}


def refusal(request_id: object, refused: Refusal) -> dict[str, Any]:
    """A request's refusal as an error document."""
    return {
        "id": request_id,
        "ok": False,
        "error": {"code": refused.code, "message": refused.message, "path": refused.path},
    }
