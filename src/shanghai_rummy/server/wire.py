"""The server's own replies and refusals, in the shapes of the JSON-lines protocol
(:mod:`shanghai_rummy.protocol`): a request ``{"id": any, "op": str, ...}`` is answered by
``{"id": same, "ok": true, "result": ...}`` or ``{"id": same, "ok": false, "error": {"code",
"message", "path"}}``. The protocol answers the table's requests itself; these are for what
only a server refuses (a credential, a limit, a lobby request). The server also pushes
``{"type": "update", ...}`` messages, which carry no ``id``.

>>> refusal(7, Refusal("not_your_seat", "seat 1 cannot act for seat 2"))["error"]["code"]
'not_your_seat'
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import (
    IllegalMoveError,
    NotationError,
    NotYourTurnError,
    RummyError,
    SerializationError,
)

__all__ = ["Refusal", "refusal", "reply"]

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
