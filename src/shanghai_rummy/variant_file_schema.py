"""The JSON Schema (draft 2020-12) of variant files, for editors that complete and check them.

A variant file (TOML or JSON, read by :func:`~shanghai_rummy.load_variant`) has conveniences a
saved game's document does not: ``base`` names a preset to start from (and then every field is
optional), ``"none"`` stands for no value, and card values may be written by rank and rank
range (``"3-9" = 5``). This schema describes exactly that format, generated from the
:class:`~shanghai_rummy.Variant` classes and their defaults, so it cannot drift from them.

The schema checks the shape of a file (names, types, choices, and the documented maxima of
:mod:`shanghai_rummy.limits`); whether the rules can be
played together (a pack for every seat count, a stock left after dealing, ...) only
:func:`~shanghai_rummy.load_variant` can say.

Point an editor at the file ``schema/variant-file.schema.json`` of the repository, or at the
output of ``shanghai-rummy variants --schema``: in TOML with taplo (and VS Code's "Even Better
TOML") by a first line ``#:schema ./variant-file.schema.json``, in JSON with a ``"$schema"`` key.

>>> import shanghai_rummy as sr
>>> schema = sr.variant_file_schema()
>>> schema["properties"]["base"]["enum"]
['rummy51', 'shanghai', 'shanghai-camping', 'shanghai-wiki']
>>> schema["properties"]["melds"]["properties"]["aces"]["enum"]
['high', 'low', 'high_or_low', 'both_ends', 'wrap']
"""

from __future__ import annotations

import enum
import types
import typing
from typing import Any, Union, get_args, get_origin

import attrs

from ._schema_parts import CARD_VALUE, VARIANT_BOUNDS, bounded, field_descriptions, summary
from .contracts import CardValues, Contract, Opening
from .conversion import REQUIREMENT_TAGS, unstructure
from .variants import VARIANTS, Variant

__all__ = ["SCHEMA_ID", "variant_file_schema"]

SCHEMA_ID = (
    "https://raw.githubusercontent.com/shanghai-rummy/shanghai-rummy/main/"
    "schema/variant-file.schema.json"
)
"""Where the repository publishes the schema (its ``$id``)."""

_RANK = "(?:[2-9]|10|[JQKAjqka])"
_VALUE_KEY = (
    f"^\\s*(?:{_RANK}(?:-{_RANK})?|[Jj][Kk]|[Jj][Oo][Kk][Ee][Rr]|\\*|[Aa]\\s+[Ll][Oo][Ww])\\s*$"
)
_NONE = {"const": "none", "description": "no value (TOML has no null)"}

_VALUE = {"type": "integer", **CARD_VALUE}


def _card_values() -> dict[str, Any]:
    by_rank = {
        "type": "object",
        "properties": {
            "by_rank": {
                "type": "array",
                "items": _VALUE,
                "minItems": 13,
                "maxItems": 13,
                "description": "the values of 2, 3, ..., K, A in that order",
            },
            "joker": _VALUE,
            "ace_low": {
                "anyOf": [_VALUE, _NONE, {"type": "null"}],
                "description": "an ace's value below the 2 in a run (none: its value)",
            },
        },
        "required": ["by_rank", "joker"],
        "additionalProperties": False,
    }
    by_name = {
        "type": "object",
        "propertyNames": {"pattern": _VALUE_KEY},
        "additionalProperties": _VALUE,
        "description": 'ranks and rank ranges with "JK", each rank exactly once, and '
        'optionally "A low" (an ace\'s value below the 2 in a run): '
        '{ "2" = 20, "3-9" = 5, "10-K" = 10, "A" = 15, "JK" = 25 }',
    }
    return {"description": summary(CardValues), "anyOf": [by_rank, by_name]}


def _of(hint: Any) -> dict[str, Any]:
    """The schema of a value of type ``hint``, as a file writes it."""
    origin, args = get_origin(hint), get_args(hint)
    if hint is bool:
        return {"type": "boolean"}
    if hint is int:
        return {"type": "integer"}
    if hint is str:
        return {"type": "string"}
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return {"type": "string", "enum": [member.value for member in hint]}
    if hint is CardValues:
        return _card_values()
    if origin in (Union, types.UnionType):
        members = [arg for arg in args if arg is not type(None)]
        if set(members) == {Contract, Opening}:
            return {"oneOf": [_object(member, REQUIREMENT_TAGS[member]) for member in members]}
        (member,) = members
        return {"anyOf": [_of(member), _NONE, {"type": "null"}]}
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = args[0]
            if isinstance(item, type) and attrs.has(item):
                return {"type": "array", "items": _object(item, None)}
            return {"type": "array", "items": _of(item)}
        items = [_of(arg) for arg in args]
        return {
            "type": "array",
            "prefixItems": items,
            "items": False,
            "minItems": len(items),
            "maxItems": len(items),
        }
    if isinstance(hint, type) and attrs.has(hint):
        return _object(hint, None, whole=False)
    raise TypeError(f"no schema for {hint!r}")  # pragma: no cover - a new field type


def _object(cls: type, kind: str | None, *, whole: bool = True) -> dict[str, Any]:
    """An attrs class as a table: its fields with their defaults. Where a file writes the
    value ``whole`` (the items of packs and deals, a requirement), the fields without a default
    are required; a rules table (melds, buying, ...) is merged into the base, field by field."""
    hints = typing.get_type_hints(cls)
    descriptions = field_descriptions(cls)
    properties: dict[str, Any] = {}
    required: list[str] = []
    if kind is not None:
        properties["kind"] = {"const": kind}
        required.append("kind")
    for field in attrs.fields(cls):
        schema = _of(hints[field.name])
        bounds = VARIANT_BOUNDS.get((cls.__name__, field.name))
        if bounds is not None:
            schema = bounded(schema, bounds)
        if field.default is attrs.NOTHING:
            required.append(field.name)
        elif not attrs.has(hints[field.name]):
            default = field.default
            factory = getattr(default, "factory", None)  # an attrs.Factory: its value
            if factory is not None:
                default = factory()
            schema["default"] = unstructure(default, hints[field.name])
        if field.name in descriptions and "description" not in schema:
            schema = {"description": descriptions[field.name], **schema}
        properties[field.name] = schema
    result: dict[str, Any] = {
        "type": "object",
        "description": summary(cls),
        "properties": properties,
        "additionalProperties": False,
    }
    if required and whole:
        result["required"] = required
    return result


def variant_file_schema() -> dict[str, Any]:
    """The JSON Schema of a variant file (TOML or JSON), as a JSON-ready dict."""
    top = _object(Variant, None)
    required = top.pop("required")
    properties = top["properties"]
    top["properties"] = {
        "$schema": {"type": "string", "description": "the schema of this file (JSON files)"},
        "base": {
            "type": "string",
            "enum": sorted(VARIANTS),
            "description": "a preset to start from: the file's tables are merged into the "
            "preset's key by key, its arrays replace the preset's whole, and every field "
            "becomes optional",
        },
        **properties,
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "shanghai-rummy variant file",
        "description": "The rules of a Shanghai Rummy, contract rummy or Rummy 51 variant, "
        "read by shanghai_rummy.load_variant (TOML or JSON). " + summary(Variant),
        **top,
        "if": {"not": {"required": ["base"]}},
        "then": {"required": required},
    }
