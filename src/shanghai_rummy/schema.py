"""The JSON Schema (draft 2020-12) of the documents :func:`~shanghai_rummy.to_json` writes.

The schema is generated from the same attrs classes and type hints the converter follows, so
it cannot drift from the documents: front-ends in other languages can generate their types
from it. Each class is a definition under ``$defs`` (``GameState``, ``Variant``, ``Card``,
``Action``, ...), and each document type an envelope definition (``GameStateDocument``, ...).

>>> import shanghai_rummy as sr
>>> schema = sr.json_schema()
>>> schema["$schema"]
'https://json-schema.org/draft/2020-12/schema'
>>> schema["$defs"]["Draw"]["properties"]["type"], schema["$defs"]["Source"]["enum"][:2]
({'const': 'draw'}, ['stock', 'discard'])
>>> schema["$defs"]["Card"]["enum"][:3], len(schema["$defs"]["Card"]["enum"])
(['2C', '3C', '4C'], 53)
"""

from __future__ import annotations

import copy
import enum
import types
import typing
from typing import Any, Literal, Union, get_args, get_origin

import attrs

from .cards import Card, make_pack
from .events import SeenEvents
from .serialization import DOCUMENTS, FORMAT, TAGGED_UNIONS, VERSION

__all__ = ["json_schema"]

_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _summary(cls: type) -> str:
    """The first paragraph of a class's docstring, on one line."""
    doc = (cls.__doc__ or "").strip().split("\n\n")[0]
    return " ".join(doc.split())


class _Builder:
    """Walks the document types and collects one definition per class."""

    def __init__(self) -> None:
        self.defs: dict[str, Any] = {}
        self.tags: dict[type, tuple[str, str]] = {}
        self.unions: dict[object, str] = {}
        for union, name, tag_key, tags in TAGGED_UNIONS:
            self.unions[union] = name
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
            return {"enum": list(get_args(hint))}
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
        name = self.unions[hint]
        if name not in self.defs:
            self.defs[name] = {}
            members = [self.of(member) for member in get_args(hint)]
            self.defs[name] = {"oneOf": members}
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
            self.defs[cls.__name__] = {
                "description": _summary(cls),
                "enum": [member.value for member in cls],
            }
        return self.ref(cls.__name__)

    def attrs_class(self, cls: type) -> dict[str, Any]:
        name = cls.__name__
        if name in self.defs:
            return self.ref(name)
        self.defs[name] = {}  # reserved against recursion
        hints = typing.get_type_hints(cls)
        properties: dict[str, Any] = {}
        if cls in self.tags:
            tag_key, tag = self.tags[cls]
            properties[tag_key] = {"const": tag}
        for field in attrs.fields(cls):
            if field.name == "log":  # GameState's history: the actions, oldest first
                properties["history"] = {"type": "array", "items": self.union_of_actions()}
            elif field.name == "event_log":  # GameState's events: the deal's, oldest first
                properties["events"] = {"type": "array", "items": self.union_named("Event")}
            else:
                properties[field.name] = self.of(hints[field.name])
            if field.name == "legal_actions":  # PlayerView: their labels, for menus
                properties["labels"] = {"type": "array", "items": {"type": "string"}}
        self.defs[name] = {
            "description": _summary(cls),
            "type": "object",
            "properties": properties,
            "required": [key for key in properties if key != "labels"],
            "additionalProperties": False,
        }
        return self.ref(name)

    def union_of_actions(self) -> dict[str, Any]:
        return self.union_named("Action")

    def union_named(self, wanted: str) -> dict[str, Any]:
        for union, name, _, _ in TAGGED_UNIONS:
            if name == wanted:
                return self.of(union)
        raise AssertionError(f"no {wanted} union")  # pragma: no cover

    def document(self, name: str, cls: object) -> dict[str, Any]:
        return {
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
        documents[title] = builder.document(name, cls)
    return {
        "$schema": _DIALECT,
        "$id": f"urn:{FORMAT}:schema:{VERSION}",
        "title": f"{FORMAT} documents, version {VERSION}",
        "description": "A saved game, an action, a player's view, a variant, a deal result or "
        "a game record, in a versioned envelope.",
        "oneOf": [builder.ref(title) for title in documents],
        "$defs": {**documents, **dict(sorted(builder.defs.items()))},
    }


_SCHEMA: dict[str, Any] | None = None


def json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of every document :func:`~shanghai_rummy.to_json`
    writes; a fresh copy on each call. Every property is required and no others are allowed,
    as in the documents written.

    >>> import json
    >>> import shanghai_rummy as sr
    >>> schema = sr.json_schema()
    >>> sorted(schema["$defs"]["GameRecordDocument"]["properties"])
    ['data', 'format', 'type', 'version']
    >>> schema["$defs"]["Requirement"]
    {'oneOf': [{'$ref': '#/$defs/Contract'}, {'$ref': '#/$defs/Opening'}]}
    >>> len(json.dumps(schema)) > 1000
    True
    """
    global _SCHEMA
    if _SCHEMA is None:
        _SCHEMA = _build()
    return copy.deepcopy(_SCHEMA)
