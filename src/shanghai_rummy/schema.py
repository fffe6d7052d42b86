"""The JSON Schema (draft 2020-12) of the documents :func:`~shanghai_rummy.to_json` writes.

The schema is generated from the same attrs classes and type hints the converter follows, so
it cannot drift from the documents: front-ends in other languages can validate what they
receive with it and generate their types from it. The repository ships it as
``schema/shanghai-rummy.schema.json`` (also inside the wheel, as
``shanghai_rummy/shanghai-rummy.schema.json``), and ``shanghai-rummy schema`` prints it.

How it is built, for validators and code generators:

- Each class is a definition under ``$defs`` (``GameState``, ``Variant``, ``Card``,
  ``Discard``, ``Drew``, ...), each document type an envelope definition
  (``GameStateDocument``, ``ActionDocument``, ...), with a plain-text ``description``.
- The unions are discriminated: the top level by the envelope's ``type``, ``Action`` and
  ``Event`` by their ``type``, ``Requirement`` by its ``kind``. Each is an ``enum`` of the
  tags and an ``if``/``then`` per tag, so a validator checks only the member the tag names and
  reports a bad field at its own path: a ``Discard`` with the card ``"11H"`` gives one error
  at ``/data/card`` (and one for each ``if``/``then`` above it).
- Fields that have a default may be left out (``LayOff.end``, ``GoOut.lay_offs``, ...); no
  other field is allowed.
- Bounds come from :mod:`shanghai_rummy.limits`: seats, counts, list lengths, non-empty
  groups, and one entry per seat where a state or a view has ``num_players`` of them.

The loader checks more than any schema can (card conservation, legal melds, a variant whose
fields fit together); the schema refuses nothing :func:`~shanghai_rummy.from_json` accepts.

>>> import shanghai_rummy as sr
>>> schema = sr.json_schema()
>>> schema["$schema"]
'https://json-schema.org/draft/2020-12/schema'
>>> schema["$defs"]["Draw"]["properties"]["type"], schema["$defs"]["Source"]["enum"][:2]
({'const': 'draw'}, ['stock', 'discard'])
>>> schema["$defs"]["Card"]["enum"][:3], len(schema["$defs"]["Card"]["enum"])
(['2C', '3C', '4C'], 53)
>>> schema["$defs"]["LayOff"]["required"]
['type', 'seat', 'card', 'meld_id']
"""

from __future__ import annotations

import copy
import enum
import types
import typing
from typing import Any, Final, Literal, Union, get_args, get_origin

import attrs

from . import limits
from ._schema_parts import (
    bounded,
    field_descriptions,
    summary,
)
from .cards import Card, make_pack
from .document_bounds import field_bounds
from .events import SeenEvents
from .memo import Memo
from .serialization import DOCUMENTS, FORMAT, SHORT_FORM_PATTERN, TAGGED_UNIONS, VERSION

__all__ = ["SCHEMA_FILE", "json_schema"]

SCHEMA_FILE = "shanghai-rummy.schema.json"
"""The name of the schema's file: ``schema/`` in the repository, the package in the wheel."""

_DIALECT = "https://json-schema.org/draft/2020-12/schema"


# The fields of a state or a view that hold one entry per seat, and those that name a seat:
# checked against its num_players.
_PER_SEAT_FIELDS = {
    "GameState": (("hands", "seats", "totals"), ("dealer", "to_act", "turn")),
    "PlayerView": (
        ("hand_sizes", "down", "buys_used", "buys_left", "totals"),
        ("seat", "dealer", "to_act", "turn"),
    ),
}


def _seat_count_rules(cls_name: str, properties: dict[str, Any]) -> list[dict[str, Any]]:
    """For each seat count: the lists that need one entry per seat and the seats that must be
    among them, checked by an ``if``/``then`` on ``num_players``."""
    lists, seats = _PER_SEAT_FIELDS[cls_name]
    rules = []
    for players in range(2, limits.MAX_PLAYERS + 1):
        then: dict[str, Any] = {
            name: {"type": "array", "minItems": players, "maxItems": players} for name in lists
        }
        for name in seats:
            seat = {"type": "integer", "maximum": players - 1}
            then[name] = (
                {"anyOf": [seat, {"type": "null"}]} if "anyOf" in properties[name] else seat
            )
        rules.append(
            {
                "if": {"properties": {"num_players": {"const": players}}},
                "then": {"properties": then},
            }
        )
    return rules


class _Builder:
    """Walks the document types and collects one definition per class."""

    def __init__(self) -> None:
        self.defs: dict[str, Any] = {}
        self.tags: dict[type, tuple[str, str]] = {}
        self.unions: dict[object, tuple[str, str, dict[type, str]]] = {}
        for union, name, tag_key, tags in TAGGED_UNIONS:
            self.unions[union] = (name, tag_key, tags)
            for member, tag in tags.items():
                self.tags[member] = (tag_key, tag)

    def ref(self, name: str) -> dict[str, Any]:
        return {"$ref": f"#/$defs/{name}"}

    def of(self, hint: Any) -> dict[str, Any]:
        if hint is bool:
            return {"type": "boolean"}
        if hint is int:
            return {"type": "integer"}
        if hint is str:
            return {"type": "string"}
        if hint is Card:
            return self.card()
        if hint is SeenEvents:
            return {"type": "array", "items": self.union_named("Event")}
        if hint in self.unions:
            return self.union(hint)
        origin = get_origin(hint)
        if origin is Literal:
            return {"type": "string", "enum": list(get_args(hint))}
        if origin in (Union, types.UnionType):
            return self.optional(hint)
        if origin is tuple:
            return self.array(hint)
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            return self.enum(hint)
        if isinstance(hint, type) and attrs.has(hint):
            return self.attrs_class(hint)
        raise TypeError(f"no JSON Schema for {hint!r}")  # pragma: no cover - all types covered

    def card(self) -> dict[str, Any]:
        if "Card" not in self.defs:
            codes = sorted({card.code for card in make_pack(1, 1)}, key=_card_order)
            self.defs["Card"] = {
                "description": "A card code: rank 2-10, J, Q, K or A, then suit C, D, H or S; "
                "or JK for the joker.",
                "type": "string",
                "enum": codes,
            }
        return self.ref("Card")

    def union(self, hint: Any) -> dict[str, Any]:
        name, tag_key, tags = self.unions[hint]
        if name not in self.defs:
            self.defs[name] = {}  # reserved against recursion
            members = {tags[member]: self.of(member) for member in get_args(hint)}
            self.defs[name] = _discriminated(
                f"One of the {name} kinds, told apart by its {tag_key!r}: "
                + ", ".join(members)
                + ".",
                tag_key,
                members,
            )
        return self.ref(name)

    def optional(self, hint: Any) -> dict[str, Any]:
        members = [arg for arg in get_args(hint) if arg is not type(None)]
        if len(members) != len(get_args(hint)) - 1 or len(members) != 1:
            raise TypeError(f"no JSON Schema for {hint!r}")  # pragma: no cover
        return {"anyOf": [self.of(members[0]), {"type": "null"}]}

    def array(self, hint: Any) -> dict[str, Any]:
        args = get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": self.of(args[0])}
        return {
            "type": "array",
            "prefixItems": [self.of(arg) for arg in args],
            "items": False,
            "minItems": len(args),
            "maxItems": len(args),
        }

    def enum(self, cls: type[enum.Enum]) -> dict[str, Any]:
        if cls.__name__ not in self.defs:
            values = [member.value for member in cls]
            kind = "integer" if all(type(value) is int for value in values) else "string"
            self.defs[cls.__name__] = {"description": summary(cls), "type": kind, "enum": values}
        return self.ref(cls.__name__)

    def attrs_class(self, cls: type) -> dict[str, Any]:
        name = cls.__name__
        if name in self.defs:
            return self.ref(name)
        self.defs[name] = {}  # reserved against recursion
        hints = typing.get_type_hints(cls)
        descriptions = field_descriptions(cls)
        properties: dict[str, Any] = {}
        required: list[str] = []
        if cls in self.tags:
            tag_key, tag = self.tags[cls]
            properties[tag_key] = {"const": tag}
            required.append(tag_key)
        for field in attrs.fields(cls):
            key = {"log": "history", "event_log": "events"}.get(field.name, field.name)
            if field.name == "log":  # GameState's history: the actions, oldest first
                schema = {"type": "array", "items": self.history_item()}
            elif field.name == "event_log":  # GameState's events: the deal's, oldest first
                schema = {"type": "array", "items": self.union_named("Event")}
            else:
                schema = self.of(hints[field.name])
            bounds = field_bounds(name, key)
            if bounds:
                schema = bounded(schema, bounds)
            if field.name in descriptions:
                schema = {"description": descriptions[field.name], **schema}
            properties[key] = schema
            if field.default is attrs.NOTHING:
                required.append(key)
            if field.name == "legal_actions":  # PlayerView: their labels, for menus
                properties["labels"] = {
                    "description": "The legal actions in the text notation, in the same "
                    "order: labels for a menu (optional when reading).",
                    "type": "array",
                    "items": {"type": "string", "minLength": 1},
                }
        definition: dict[str, Any] = {
            "description": summary(cls),
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": False,
        }
        if name in _PER_SEAT_FIELDS:
            definition["allOf"] = _seat_count_rules(name, properties)
        self.defs[name] = definition
        return self.ref(name)

    def history_item(self) -> dict[str, Any]:
        """A history's item: an action, or the short form of a draw, discard, buy or pass."""
        if "HistoryItem" not in self.defs:
            self.defs["ShortForm"] = {
                "description": "A draw, discard, buy or pass in its short form: the seat, a "
                "space, and the action as the text notation writes it ('2 draw', '2 take', "
                "'2 draw cut card', '2 buy', '2 pass', '2 discard 10H').",
                "type": "string",
                "pattern": SHORT_FORM_PATTERN,
            }
            self.defs["HistoryItem"] = {
                "description": "An action of a game's history: a draw, discard, buy or pass "
                "in its short form (what to_json writes), or any action as an object.",
                "if": {"type": "string"},
                "then": self.ref("ShortForm"),
                "else": self.union_named("Action"),
            }
        return self.ref("HistoryItem")

    def union_named(self, wanted: str) -> dict[str, Any]:
        for union, name, _, _ in TAGGED_UNIONS:
            if name == wanted:
                return self.of(union)
        raise AssertionError(f"no {wanted} union")  # pragma: no cover

    def document(self, name: str, cls: object) -> dict[str, Any]:
        return {
            "description": f"A {name} document: the envelope and its data.",
            "type": "object",
            "properties": {
                "format": {"const": FORMAT},
                "version": {"const": VERSION},
                "type": {"const": name},
                "data": self.of(cls),
            },
            "required": ["format", "version", "type", "data"],
            "additionalProperties": False,
        }


def _discriminated(
    description: str, tag_key: str, members: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    """An object whose ``tag_key`` is one of ``members``' tags, checked against the member that
    tag names (and only that one)."""
    return {
        "description": description,
        "type": "object",
        "properties": {tag_key: {"type": "string", "enum": list(members)}},
        "required": [tag_key],
        "allOf": [
            {
                "if": {"properties": {tag_key: {"const": tag}}, "required": [tag_key]},
                "then": member,
            }
            for tag, member in members.items()
        ],
    }


def _card_order(code: str) -> tuple[int, int]:
    if code == "JK":
        return (9, 0)
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    return ("CDHS".index(code[-1]), ranks.index(code[:-1]))


def _build() -> dict[str, Any]:
    builder = _Builder()
    documents = {}
    for name, cls in DOCUMENTS:
        title = "".join(part.title() for part in name.split("_")) + "Document"
        documents[title] = (name, builder.document(name, cls))
    top = _discriminated(
        "A saved game, an action, a player's view, a variant, a deal result, a game record, "
        "an event or a game's outcome, in a versioned envelope: "
        f'{{"format": "{FORMAT}", "version": {VERSION}, "type": ..., "data": ...}}.',
        "type",
        {name: builder.ref(title) for title, (name, _) in documents.items()},
    )
    return {
        "$schema": _DIALECT,
        "$id": f"urn:{FORMAT}:schema:{VERSION}",
        "title": f"{FORMAT} documents, version {VERSION}",
        **top,
        "$defs": {
            **{title: schema for title, (_, schema) in documents.items()},
            **dict(sorted(builder.defs.items())),
        },
    }


_SCHEMA: Final[Memo[None, dict[str, Any]]] = Memo("schema.json_schema", 1)


def json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of every document :func:`~shanghai_rummy.to_json`
    writes; a fresh copy on each call. The same as the file ``schema/shanghai-rummy.schema.json``
    and the output of ``shanghai-rummy schema``.

    >>> import json
    >>> import shanghai_rummy as sr
    >>> schema = sr.json_schema()
    >>> sorted(schema["$defs"]["GameRecordDocument"]["properties"])
    ['data', 'format', 'type', 'version']
    >>> schema["$defs"]["Requirement"]["properties"]
    {'kind': {'type': 'string', 'enum': ['contract', 'opening']}}
    >>> turn_limit = schema["$defs"]["StockRules"]["properties"]["turn_limit"]
    >>> turn_limit["minimum"], turn_limit["maximum"], turn_limit["description"][:40]
    (1, 1000, 'after this many turns a deal ends with n')
    >>> len(json.dumps(schema)) > 1000
    True
    """
    schema = _SCHEMA.get(None)
    if schema is None:
        schema = _SCHEMA.put(None, _build())
    return copy.deepcopy(schema)
