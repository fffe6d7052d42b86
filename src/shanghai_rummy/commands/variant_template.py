"""A variant written out as a file to edit: TOML (with comments) or JSON, each naming the
variant file schema, and read back by :func:`~shanghai_rummy.load_variant` as the same variant.

No TOML writer is a dependency of the package: the few shapes a variant document has (tables
of scalars, arrays of tables, arrays of pairs) are written here.
"""

from __future__ import annotations

import json
from typing import Any

from ..contracts import CardValues
from ..variant_file_schema import SCHEMA_ID
from ..variant_files import variant_to_dict
from ..variants import Variant

__all__ = ["json_text", "toml_text"]

_CODES = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def value_ranges(values: CardValues) -> dict[str, int]:
    """Card values with runs of equal ranks joined: ``{"2": 20, "3-9": 5, ..., "JK": 25}``."""
    parts: dict[str, int] = {}
    start = 0
    for index in range(1, len(_CODES) + 1):
        if index == len(_CODES) or values.by_rank[index] != values.by_rank[start]:
            end = index - 1
            span = _CODES[start] if end == start else f"{_CODES[start]}-{_CODES[end]}"
            parts[span] = values.by_rank[start]
            start = index
    parts["JK"] = values.joker
    return parts


def _document(variant: Variant) -> dict[str, Any]:
    """The variant's fields, card values written by rank range."""
    document = variant_to_dict(variant)
    document["scoring"]["values"] = value_ranges(variant.scoring.values)
    for deal, spec in zip(document["deals"], variant.deals, strict=True):
        values = getattr(spec.requirement, "values", None)
        if isinstance(values, CardValues):
            deal["requirement"]["values"] = value_ranges(values)
    return document


def json_text(variant: Variant) -> str:
    """The variant as a JSON variant file."""
    return json.dumps({"$schema": SCHEMA_ID, **_document(variant)}, indent=2, ensure_ascii=False)


def _scalar(value: Any) -> str:
    if value is None:
        return '"none"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, str)):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_scalar(item) for item in value) + "]"
    if isinstance(value, dict):
        items = ", ".join(f"{_key(key)} = {_scalar(item)}" for key, item in value.items())
        return "{ " + items + " }"
    raise TypeError(f"no TOML for {value!r}")  # pragma: no cover - a new field type


def _key(key: str) -> str:
    bare = key.replace("_", "").replace("-", "").isalnum() and key.isascii()
    return key if bare and not key[0].isdigit() else json.dumps(key)


def toml_text(variant: Variant) -> str:
    """The variant as a TOML variant file, every field written out, with a header saying how
    to use it."""
    document = _document(variant)
    lines = [
        f"#:schema {SCHEMA_ID}",
        f"# The variant {variant.id!r} as a file to edit. Change its id and name, then play it:",
        "#   shanghai-rummy simulate --variant FILE.toml  (also play --variant, variants FILE)",
        '# "none" means no value. Every field is described in the docs, "Variant fields and',
        '# files". Fields left out take their defaults; with `base = "<preset id>"` the file',
        "# need only hold what differs from that preset.",
        "",
    ]
    tables = {key: value for key, value in document.items() if isinstance(value, dict)}
    arrays = {
        key: value
        for key, value in document.items()
        if isinstance(value, list) and value and all(isinstance(item, dict) for item in value)
    }
    for key, value in document.items():
        if key not in tables and key not in arrays:
            lines.append(f"{_key(key)} = {_scalar(value)}")
    for key, items in arrays.items():
        for item in items:
            lines.append("")
            lines.append(f"[[{_key(key)}]]")
            inner = {field: value for field, value in item.items() if isinstance(value, dict)}
            lines.extend(
                f"{_key(field)} = {_scalar(value)}"
                for field, value in item.items()
                if field not in inner
            )
            for field, value in inner.items():  # a table of the array's last item
                lines.append(f"[{_key(key)}.{_key(field)}]")
                lines.extend(f"{_key(name)} = {_scalar(part)}" for name, part in value.items())
    for key, table in tables.items():
        lines.append("")
        lines.append(f"[{_key(key)}]")
        lines.extend(f"{_key(field)} = {_scalar(value)}" for field, value in table.items())
    return "\n".join(lines) + "\n"
