"""The JSON-lines protocol: requests to tables and their replies, as plain JSON values.

A :class:`Protocol` holds tables (:class:`~shanghai_rummy.Table`) and answers one request at
a time. It does no I/O: ``shanghai-rummy serve --stdio`` feeds it the lines of standard input
and writes its replies to standard output, and a server can feed it what a WebSocket brings.

A request is an object ``{"id": ..., "op": ..., ...}``; its reply carries the same ``id`` and
either ``"ok": true`` and a ``result``, or ``"ok": false`` and an ``error`` with a ``code``
(see :data:`ERROR_CODES`), a ``message`` and the ``path`` of the bad field in the request
(or null). A refused request changes nothing. The operations (``docs/protocol.md`` shows a
whole session):

- ``create`` {variant: preset id or variant document, seats: ["person" | "greedy" |
  "random", ...], seed?, auto_next_deal?, allow_undo?} -> {table, to_act, event_count}
- ``resume`` {record: game record document, seats, auto_next_deal?, allow_undo?} -> as
  ``create``
- ``view`` {table, seat (null: a spectator)} -> a player view document
- ``legal`` {table, seat} -> [{action, label}, ...]
- ``act`` {table, seat, action: an action's data, an action document, or the text notation}
  -> {events, to_act, event_count, is_over}
- ``events`` {table, seat, since} -> {events, event_count}
- ``next_deal`` {table}, ``undo`` {table, seat}, ``set_seat`` {table, seat, player} ->
  {events, to_act, event_count, is_over}
- ``record`` {table} -> a game record document; ``close`` {table} -> {closed}
- ``schema`` {} -> the JSON Schema of the documents

>>> from shanghai_rummy.protocol import Protocol
>>> protocol = Protocol()
>>> protocol.handle(
...     '{"id": 1, "op": "create", "variant": "shanghai", "seats": ["greedy", "person"]}'
... )
{'id': 1, 'ok': True, 'result': {'table': 't1', 'to_act': 1, 'event_count': 1}}
>>> protocol.handle({"id": 2, "op": "legal", "table": "t1", "seat": 1})["result"][1]
{'action': {'type': 'draw', 'seat': 1, 'source': 'discard'}, 'label': 'take'}
>>> protocol.handle({"id": 3, "op": "act", "table": "t1", "seat": 0, "action": "draw"})["error"]
{'code': 'not_your_turn', 'message': 'seat 0 cannot act: seat 1 is to act (draw)', 'path': '$.seat'}
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from .actions import Action
from .bots import Bot
from .errors import (
    IllegalMoveError,
    NotationError,
    NotYourTurnError,
    RummyError,
    SerializationError,
    VariantError,
    WrongPhaseError,
)
from .events import Event
from .notation import format_action
from .records import GameRecord
from .schema import json_schema
from .serialization import from_dict, structure, to_dict, unstructure
from .simulate import BOT_KINDS, make_bot
from .table import DEFAULT_BOT_MOVES, Table
from .variant_files import variant_from_dict
from .variants import Variant, get_variant

__all__ = ["ERROR_CODES", "MAX_REQUEST_CHARS", "MAX_TABLES", "Protocol"]

MAX_TABLES = 1000
"""How many tables one :class:`Protocol` holds at most (``close`` frees one)."""
MAX_REQUEST_CHARS = 1_000_000
"""The longest request text accepted."""

ERROR_CODES: dict[str, str] = {
    "bad_request": "not JSON, not an object, or a field missing, unknown or of the wrong type",
    "unknown_op": "no such operation",
    "unknown_table": "no table of that id (never made, or closed)",
    "bad_document": "a document (action, variant, record) that does not load",
    "bad_notation": "text that does not read as a move",
    "bad_variant": "a variant the library refuses",
    "not_your_turn": "the seat is not to act, or the action names another seat",
    "wrong_phase": "not a move of this phase (the deal or the game is over, say)",
    "illegal_move": "a move the rules forbid",
    "refused": "anything else the library refuses (a seat not at the table, undo not allowed)",
    "too_many_tables": f"the protocol holds {MAX_TABLES} tables already",
    "internal": "a fault in the library or a bot; the request may have been partly done",
}
"""Every error ``code`` a reply may carry, and what it means."""


class _Refusal(Exception):
    def __init__(self, code: str, message: str, path: str | None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.path = path


_PERSON = "person"


class Protocol:
    """Tables and the requests that drive them (see the module's documentation).

    ``bots`` names the players a ``create`` may seat besides ``"person"``: each makes a bot
    for a variant and a seed (default: ``"greedy"`` and ``"random"``). ``max_bot_moves`` is
    passed to every table it makes (see :class:`~shanghai_rummy.Table`): a server that stores
    the bots' moves in batches sets it lower.
    """

    def __init__(
        self,
        bots: Mapping[str, Callable[[Variant, int], Bot]] | None = None,
        *,
        max_bot_moves: int = DEFAULT_BOT_MOVES,
    ) -> None:
        self._max_bot_moves = max_bot_moves
        self._tables: dict[str, Table] = {}
        self._made = 0
        self._bots: dict[str, Callable[[Variant, int], Bot]] = (
            dict(bots) if bots is not None else {kind: _bot_maker(kind) for kind in BOT_KINDS}
        )
        self._ops: dict[str, Callable[[dict[str, Any]], Any]] = {
            "create": self._create,
            "resume": self._resume,
            "view": self._view,
            "legal": self._legal,
            "act": self._act,
            "events": self._events,
            "next_deal": self._next_deal,
            "undo": self._undo,
            "set_seat": self._set_seat,
            "record": self._record,
            "close": self._close,
            "schema": self._schema,
        }

    @property
    def tables(self) -> dict[str, Table]:
        """The open tables by id (a copy)."""
        return dict(self._tables)

    def handle(self, request: Mapping[str, object] | str | bytes) -> dict[str, Any]:
        """The reply to one request (its JSON text, or the parsed object). Never raises."""
        request_id: Any = None
        try:
            body = _parsed(request)
            request_id = body.get("id")
            op = body.get("op")
            if type(op) is not str:
                raise _Refusal("bad_request", 'a request needs an "op" string', "$.op")
            handler = self._ops.get(op)
            if handler is None:
                known = ", ".join(self._ops)
                raise _Refusal("unknown_op", f"no operation {op!r}; operations: {known}", "$.op")
            return {"id": request_id, "ok": True, "result": handler(body)}
        except _Refusal as refusal:
            return _error(request_id, refusal.code, refusal.message, refusal.path)
        except Exception as error:  # the boundary: a reply, never a crash
            code, path = _code_of(error)
            return _error(request_id, code, str(error) or type(error).__name__, path)

    # -- operations -----------------------------------------------------------------------------

    def _create(self, body: dict[str, Any]) -> dict[str, Any]:
        _fields(body, {"variant", "seats"}, {"seed", "auto_next_deal", "allow_undo"})
        variant = _variant(body["variant"])
        seed = _integer(body, "seed", 0)
        seats = self._seats(body["seats"], variant, seed)
        table = Table(
            variant,
            seats,
            seed=seed,
            auto_next_deal=_flag(body, "auto_next_deal", True),
            allow_undo=_flag(body, "allow_undo", False),
            max_bot_moves=self._max_bot_moves,
        )
        return self._opened(table)

    def _resume(self, body: dict[str, Any]) -> dict[str, Any]:
        _fields(body, {"record", "seats"}, {"auto_next_deal", "allow_undo"})
        game = _document(body["record"], GameRecord, "$.record")
        seats = self._seats(body["seats"], game.variant, game.seed)
        table = Table.from_record(
            game,
            seats,
            auto_next_deal=_flag(body, "auto_next_deal", True),
            allow_undo=_flag(body, "allow_undo", False),
            max_bot_moves=self._max_bot_moves,
        )
        return self._opened(table)

    def _opened(self, table: Table) -> dict[str, Any]:
        if len(self._tables) >= MAX_TABLES:
            raise _Refusal("too_many_tables", ERROR_CODES["too_many_tables"], None)
        self._made += 1
        name = f"t{self._made}"
        self._tables[name] = table
        return {"table": name, "to_act": table.to_act, "event_count": table.event_count}

    def _view(self, body: dict[str, Any]) -> dict[str, Any]:
        _fields(body, {"table", "seat"}, set())
        table = self._table(body)
        return to_dict(table.view(_viewer(body, table)))

    def _legal(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        _fields(body, {"table", "seat"}, set())
        table = self._table(body)
        actions = table.legal_actions(_seat(body, table))
        return [
            {"action": unstructure(action, Action), "label": format_action(action)}
            for action in actions
        ]

    def _act(self, body: dict[str, Any]) -> dict[str, Any]:
        _fields(body, {"table", "seat", "action"}, set())
        table = self._table(body)
        seat = _seat(body, table)
        return _progress(table, table.act(seat, _action(body["action"], seat)))

    def _events(self, body: dict[str, Any]) -> dict[str, Any]:
        _fields(body, {"table", "seat"}, {"since"})
        table = self._table(body)
        seat = _viewer(body, table)
        since = _integer(body, "since", 0)
        if since < 0:
            raise _Refusal("bad_request", "since is an event number >= 0", "$.since")
        events = table.events_since(seat, since)
        return {"events": _events_data(events), "event_count": table.event_count}

    def _next_deal(self, body: dict[str, Any]) -> dict[str, Any]:
        _fields(body, {"table"}, set())
        table = self._table(body)
        return _progress(table, table.next_deal())

    def _undo(self, body: dict[str, Any]) -> dict[str, Any]:
        _fields(body, {"table", "seat"}, set())
        table = self._table(body)
        table.undo(_seat(body, table))
        return _progress(table, ())

    def _set_seat(self, body: dict[str, Any]) -> dict[str, Any]:
        _fields(body, {"table", "seat", "player"}, set())
        table = self._table(body)
        seat = _seat(body, table)
        (player,) = self._seats([body["player"]], table.variant, seat, path="$.player")
        return _progress(table, table.set_seat(seat, player))

    def _record(self, body: dict[str, Any]) -> dict[str, Any]:
        _fields(body, {"table"}, set())
        return to_dict(self._table(body).record())

    def _close(self, body: dict[str, Any]) -> dict[str, Any]:
        _fields(body, {"table"}, set())
        self._table(body)
        del self._tables[body["table"]]
        return {"closed": body["table"]}

    def _schema(self, body: dict[str, Any]) -> dict[str, Any]:
        _fields(body, set(), set())
        return json_schema()

    # -- helpers that know the tables -----------------------------------------------------------

    def _table(self, body: dict[str, Any]) -> Table:
        name = body["table"]
        if type(name) is not str:
            raise _Refusal("bad_request", 'table is a table id string such as "t1"', "$.table")
        table = self._tables.get(name)
        if table is None:
            raise _Refusal("unknown_table", f"no table {name!r} (never made, or closed)", "$.table")
        return table

    def _seats(
        self, value: object, variant: Variant, seed: int, path: str = "$.seats"
    ) -> list[Bot | None]:
        if type(value) is not list:
            raise _Refusal("bad_request", "seats is an array of player names", path)
        if path == "$.seats" and not variant.min_players <= len(value) <= variant.max_players:
            raise _Refusal(
                "bad_request",
                f"{variant.id!r} is for {variant.min_players}-{variant.max_players} players, "
                f"not {len(value)}",
                path,
            )
        players: list[Bot | None] = []
        names = ", ".join([_PERSON, *self._bots])
        for index, name in enumerate(value):
            where = f"{path}[{index}]" if path == "$.seats" else path
            if name == _PERSON:
                players.append(None)
            elif type(name) is str and name in self._bots:
                players.append(self._bots[name](variant, seed * 64 + index))
            else:
                raise _Refusal("bad_request", f"no player {name!r}; players: {names}", where)
        return players


# -- reading requests ---------------------------------------------------------------------------

_RESERVED = {"id", "op"}


def _parsed(request: object) -> dict[str, Any]:
    if isinstance(request, (str, bytes, bytearray)):
        if len(request) > MAX_REQUEST_CHARS:
            raise _Refusal("bad_request", f"a request is at most {MAX_REQUEST_CHARS} chars", None)
        try:
            request = json.loads(request)
        except (ValueError, RecursionError) as error:
            raise _Refusal("bad_request", f"not JSON: {error}", None) from None
    if not isinstance(request, Mapping):
        raise _Refusal("bad_request", "a request is a JSON object", None)
    return dict(request)


def _fields(body: dict[str, Any], required: set[str], optional: set[str]) -> None:
    for name in sorted(required):
        if name not in body:
            raise _Refusal("bad_request", f"required field {name!r} missing", f"$.{name}")
    for name in sorted(map(str, body)):
        if name not in required and name not in optional and name not in _RESERVED:
            raise _Refusal("bad_request", f"unknown field {name!r}", f"$.{name}")


def _integer(body: dict[str, Any], name: str, default: int) -> int:
    value = body.get(name, default)
    if type(value) is not int:
        raise _Refusal("bad_request", f"{name} is a whole number", f"$.{name}")
    return value


def _flag(body: dict[str, Any], name: str, default: bool) -> bool:
    value = body.get(name, default)
    if type(value) is not bool:
        raise _Refusal("bad_request", f"{name} is true or false", f"$.{name}")
    return value


def _seat(body: dict[str, Any], table: Table) -> int:
    seat = body.get("seat")
    if type(seat) is not int or not 0 <= seat < table.num_players:
        raise _Refusal(
            "bad_request",
            f"no seat {seat!r}: the table has seats 0 to {table.num_players - 1}",
            "$.seat",
        )
    return seat


def _viewer(body: dict[str, Any], table: Table) -> int | None:
    """The seat of a view or of events: a seat, or null for a spectator."""
    return None if body.get("seat") is None else _seat(body, table)


def _variant(value: object) -> Variant:
    if type(value) is str:
        return get_variant(value)
    if isinstance(value, dict) and "format" in value:
        variant: Variant = _document(value, Variant, "$.variant")
        return variant
    if isinstance(value, dict):
        return variant_from_dict(value)
    raise _Refusal("bad_request", "variant is a preset id or a variant document", "$.variant")


def _document(value: object, cls: object, path: str) -> Any:
    try:
        return from_dict(value, cls)
    except SerializationError as error:
        raise _Refusal("bad_document", *_rooted(str(error), path)) from None


def _action(value: object, seat: int) -> Action | str:
    if type(value) is str:
        return value
    if isinstance(value, dict) and "format" in value:
        action: Action = _document(value, Action, "$.action")
        return action
    if isinstance(value, dict):
        try:
            loaded: Action = structure(value, Action, "$.action", SerializationError)
        except SerializationError as error:
            raise _Refusal("bad_document", str(error), _first_path(str(error))) from None
        return loaded
    raise _Refusal("bad_request", "action is an action object or its text notation", "$.action")


_PATH = re.compile(r"^(\$[\w.\[\]]*): ")


def _first_path(message: str) -> str | None:
    match = _PATH.match(message)
    return match[1] if match else None


def _rooted(message: str, root: str) -> tuple[str, str | None]:
    """A document's error message, its paths moved under ``root`` (where the document sits
    in the request), and the first path."""
    moved = re.sub(r"(^|; )\$", lambda match: match[1] + root, message)
    return moved, _first_path(moved)


# -- replies ------------------------------------------------------------------------------------


def _events_data(events: tuple[Event, ...]) -> list[Any]:
    return [unstructure(event, Event) for event in events]


def _progress(table: Table, events: tuple[Event, ...]) -> dict[str, Any]:
    return {
        "events": _events_data(events),
        "to_act": table.to_act,
        "event_count": table.event_count,
        "is_over": table.is_over,
    }


def _error(request_id: Any, code: str, message: str, path: str | None) -> dict[str, Any]:
    return {
        "id": request_id,
        "ok": False,
        "error": {"code": code, "message": message, "path": path},
    }


def _code_of(error: Exception) -> tuple[str, str | None]:
    if isinstance(error, NotYourTurnError):
        return "not_your_turn", "$.seat"
    if isinstance(error, WrongPhaseError):
        return "wrong_phase", "$.action"
    if isinstance(error, IllegalMoveError):
        return "illegal_move", "$.action"
    if isinstance(error, NotationError):
        return "bad_notation", "$.action"
    if isinstance(error, VariantError):
        return "bad_variant", "$.variant"
    if isinstance(error, SerializationError):
        return "bad_document", _first_path(str(error))
    if isinstance(error, RummyError):
        return "refused", None
    return "internal", None


def _bot_maker(kind: str) -> Callable[[Variant, int], Bot]:
    return lambda variant, seed: make_bot(kind, variant, seed)
