"""Variants as data files: TOML or JSON, or a plain mapping.

A variant file holds the fields of :class:`~shanghai_rummy.Variant` (documented one by one in
the "Variant files" guide). Three conveniences make files short and writable in TOML, which
has no ``null``:

- ``base = "<preset id>"`` starts from a preset: the file's tables are merged into the
  preset's, key by key; arrays (``deals``, ``packs``, ...) replace the preset's whole.
- ``"none"`` stands for "no value" in any field that may be empty (``deal_count``,
  ``stock.turn_limit``, ``melds.set_max``, ...).
- ``"$schema"`` (JSON) or a first line ``#:schema URL`` (TOML) may name the
  :func:`~shanghai_rummy.variant_file_schema` for editors; the loader ignores it.
- card values may be given as ranks and rank ranges: ``{ "2" = 20, "3-9" = 5, "10-K" = 10,
  "A" = 15, "JK" = 25 }``, as well as ``{ by_rank = [...13 values...], joker = 25 }``.

Fields left out take their defaults (see :class:`~shanghai_rummy.Variant`); an unknown
field, a wrong type or a rule that cannot be played raises
:class:`~shanghai_rummy.VariantError` naming the field.

>>> import shanghai_rummy as sr
>>> house = sr.load_variant({"base": "shanghai", "id": "house", "buying": {"penalty_cards": 1}})
>>> house.buying.penalty_cards, house.buying.limits, house.deals == sr.get_variant("shanghai").deals
(1, ((1, 3), (9, 4)), True)
>>> sr.load_variant({"base": "shanghai", "melds": {"aces": "sideways"}})
Traceback (most recent call last):
...
shanghai_rummy.errors.VariantError: Variant.melds.aces: 'sideways' is not a valid Aces: ...
"""

from __future__ import annotations

import json
import os
import sys
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Union, get_args, get_origin

import attrs

from .contracts import CardValues
from .conversion import REQUIREMENT_TAGS, structure, unstructure
from .errors import VariantError
from .variants import VARIANTS, Variant

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = ["load_variant", "variant_from_dict", "variant_to_dict"]

_NONE = "none"


def variant_to_dict(variant: Variant) -> dict[str, Any]:
    """Every field of ``variant`` as plain data (what a saved game embeds).

    >>> import shanghai_rummy as sr
    >>> data = sr.variant_to_dict(sr.get_variant("rummy51"))
    >>> data["deal_count"], data["deals"][0]["requirement"]["kind"], data["melds"]["aces"]
    (None, 'opening', 'both_ends')
    >>> sr.variant_from_dict(data) == sr.get_variant("rummy51")
    True
    """
    result: dict[str, Any] = unstructure(variant, Variant)
    return result


def variant_from_dict(data: Mapping[str, Any]) -> Variant:
    """The variant in ``data``, in exactly the form :func:`variant_to_dict` writes (use
    :func:`load_variant` for the file conveniences). Missing fields take their defaults;
    :class:`~shanghai_rummy.VariantError` names a bad field.

    >>> import shanghai_rummy as sr
    >>> sr.variant_from_dict({"id": "x"})
    Traceback (most recent call last):
    ...
    shanghai_rummy.errors.VariantError: Variant.name: required field missing; ...
    """
    plain = dict(data) if isinstance(data, Mapping) else data
    variant: Variant = structure(plain, Variant, "Variant", VariantError)
    return variant


def load_variant(source: str | os.PathLike[str] | Mapping[str, Any]) -> Variant:
    r"""A variant from a ``.toml`` or ``.json`` file, or from a mapping of the same content.

    >>> import pathlib, tempfile
    >>> import shanghai_rummy as sr
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "short.toml"
    >>> _ = path.write_text('base = "shanghai"\nid = "short"\ndeal_count = 3\n')
    >>> short = sr.load_variant(path)
    >>> short.id, short.deal_count, short.total_deals(4)
    ('short', 3, 3)
    >>> sr.load_variant("nowhere.yaml")
    Traceback (most recent call last):
    ...
    shanghai_rummy.errors.VariantError: nowhere.yaml: a variant file ends in .toml or .json
    """
    if isinstance(source, Mapping):
        return _from_mapping(source, "Variant")
    if not isinstance(source, (str, os.PathLike)):
        raise VariantError(f"load_variant takes a path or a mapping, not {type(source).__name__}")
    path = Path(source)
    suffix = path.suffix.lower()
    if suffix not in (".toml", ".json"):
        raise VariantError(f"{path}: a variant file ends in .toml or .json")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise VariantError(f"{path}: cannot read the file: {error}") from None
    try:
        data = tomllib.loads(text) if suffix == ".toml" else json.loads(text)
    except (ValueError, RecursionError) as error:
        raise VariantError(f"{path}: not valid {suffix[1:].upper()}: {error}") from None
    if not isinstance(data, dict):
        raise VariantError(f"{path}: a variant file holds a table of fields")
    return _from_mapping(data, f"{path}: Variant")


def _from_mapping(source: Mapping[str, Any], root: str) -> Variant:
    data = dict(source)
    data.pop("$schema", None)  # the file names its schema for editors
    base = data.pop("base", None)
    plain = _plain(data, Variant, root)
    if base is not None:
        if not isinstance(base, str) or base not in VARIANTS:
            known = ", ".join(sorted(VARIANTS))
            raise VariantError(f"{root}.base: {base!r} is not a preset ({known})")
        plain = _merged(variant_to_dict(VARIANTS[base]), plain)
    variant: Variant = structure(plain, Variant, root, VariantError)
    return variant


def _merged(base: dict[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    result = dict(base)
    for key, value in changes.items():
        if isinstance(value, Mapping) and isinstance(result.get(key), dict):
            result[key] = _merged(result[key], value)
        else:
            result[key] = value
    return result


def _plain(value: Any, hint: Any, path: str) -> Any:
    """``value`` with the file conveniences turned into the plain form, guided by ``hint``."""
    origin = get_origin(hint)
    args = get_args(hint)
    if origin in (Union, types.UnionType):
        if value == _NONE and type(None) in args:
            return None
        members = [arg for arg in args if arg is not type(None)]
        if len(members) == 1:
            return _plain(value, members[0], path)
        if isinstance(value, Mapping) and set(members) == set(REQUIREMENT_TAGS):
            tags = {tag: member for member, tag in REQUIREMENT_TAGS.items()}
            kind = value.get("kind")
            member = tags.get(kind) if isinstance(kind, str) else None
            if member is not None:
                body = {key: item for key, item in value.items() if key != "kind"}
                return {"kind": value["kind"], **_plain(body, member, path)}
        return value
    if origin is tuple and isinstance(value, list):
        if len(args) == 2 and args[1] is Ellipsis:
            return [_plain(item, args[0], f"{path}[{i}]") for i, item in enumerate(value)]
        return value
    if hint is CardValues and isinstance(value, Mapping) and "by_rank" not in value:
        try:
            values = CardValues.from_mapping(dict(value))
        except (VariantError, AttributeError, TypeError) as error:
            raise VariantError(f"{path}: {error}") from None
        return unstructure(values, CardValues)
    if isinstance(hint, type) and attrs.has(hint) and isinstance(value, Mapping):
        hints = typing.get_type_hints(hint)
        return {
            key: _plain(item, hints[key], f"{path}.{key}") if key in hints else item
            for key, item in value.items()
        }
    return value
