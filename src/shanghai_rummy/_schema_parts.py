"""What the two JSON Schemas share: plain-text descriptions and the documented bounds of a
variant's fields (from :mod:`shanghai_rummy.limits`), by class and field name."""

from __future__ import annotations

import ast
import inspect
import itertools
import re
import textwrap
from typing import Any

from . import limits

__all__ = ["VARIANT_BOUNDS", "bounded", "field_descriptions", "summary"]

PLAYERS = {"minimum": 2, "maximum": limits.MAX_PLAYERS}
CARD_VALUE = {"minimum": -limits.MAX_CARD_VALUE, "maximum": limits.MAX_CARD_VALUE}
_GROUP = {"minimum": limits.MIN_GROUP_CARDS, "maximum": limits.MAX_GROUP_CARDS}
_POINTS = {"minimum": -limits.MAX_POINTS, "maximum": limits.MAX_POINTS}
_TEXT = {"maxLength": limits.MAX_TEXT_LENGTH}

VARIANT_BOUNDS: dict[tuple[str, str], dict[str, Any]] = {
    ("Variant", "id"): {**_TEXT, "minLength": 1},
    ("Variant", "name"): _TEXT,
    ("Variant", "source"): _TEXT,
    ("Variant", "min_players"): PLAYERS,
    ("Variant", "max_players"): PLAYERS,
    ("Variant", "packs"): {"minItems": 1, "maxItems": limits.MAX_PLAYERS},
    ("Variant", "deal_count"): {"minimum": 1, "maximum": limits.MAX_DEALS},
    ("Variant", "deals"): {"minItems": 1, "maxItems": limits.MAX_DEALS},
    ("PackSize", "min_players"): PLAYERS,
    ("PackSize", "max_players"): PLAYERS,
    ("PackSize", "decks"): {"minimum": 1, "maximum": limits.MAX_DECKS},
    ("PackSize", "jokers"): {"minimum": 0, "maximum": limits.MAX_JOKERS},
    ("DealSpec", "cards"): {"minimum": 1, "maximum": limits.MAX_CARDS_DEALT},
    ("Contract", "sets"): {"maxItems": limits.MAX_CONTRACT_GROUPS, "items": _GROUP},
    ("Contract", "runs"): {"maxItems": limits.MAX_CONTRACT_GROUPS, "items": _GROUP},
    ("Opening", "min_points"): _POINTS,
    ("Opening", "natural_run"): {"minimum": 0, "maximum": 14, "not": {"const": 1}},
    ("MeldRules", "set_min"): _GROUP,
    ("MeldRules", "set_max"): _GROUP,
    ("MeldRules", "run_min"): _GROUP,
    ("MeldRules", "run_max"): _GROUP,
    ("JokerRules", "going_down_by_size"): {"maxItems": limits.MAX_GROUP_CARDS},
    ("JokerRules", "going_down_per_group"): {"minimum": 0, "maximum": limits.MAX_GROUP_CARDS},
    ("BuyRules", "penalty_cards"): {"minimum": 0, "maximum": limits.MAX_PENALTY_CARDS},
    ("BuyRules", "limits"): {"maxItems": limits.MAX_DEALS},
    ("StockRules", "turn_limit"): {"minimum": 1, "maximum": limits.MAX_TURN_LIMIT},
    ("StockRules", "max_restocks"): {"minimum": 0, "maximum": limits.MAX_TURN_LIMIT},
    ("Scoring", "going_out"): _POINTS,
    ("Scoring", "one_turn_out"): _POINTS,
    ("Scoring", "one_turn_out_without_jokers"): _POINTS,
    ("Scoring", "never_down_penalty"): _POINTS,
    ("Scoring", "cut_card_hand"): _POINTS,
    ("Scoring", "others_multiplier_after_one_turn_out"): {
        "minimum": 1,
        "maximum": limits.MAX_MULTIPLIER,
    },
}
"""The bounds of a variant's fields that the loader checks one field at a time (it checks
more: how the fields fit together)."""


def bounded(schema: dict[str, Any], bounds: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with ``bounds`` put where they apply: on the value (on the value alternative
    of a field that may also be null or ``"none"``); a bound ``items`` is merged into the
    schema of the items."""
    if "anyOf" in schema:
        first, *rest = schema["anyOf"]
        return {**schema, "anyOf": [bounded(first, bounds), *rest]}
    result = {**schema, **bounds}
    if "items" in bounds and isinstance(schema.get("items"), dict):
        result["items"] = bounded(schema["items"], bounds["items"])
    return result


def _plain(text: str) -> str:
    """reST text as plain text on one line: roles and literal markup dropped, None as null."""
    text = re.sub(r":[a-z]+:`~?(?:[\w.]+\.)?([^`]+)`", r"\1", text)
    text = re.sub(r"\bNone\b", "null", text.replace("``", ""))  # as a JSON reader writes it
    return " ".join(text.split())


def field_descriptions(cls: type) -> dict[str, str]:
    """Each field's description, as plain text: the first paragraph of its attribute
    docstring (the string after the field in the class body), else its item in the list of
    the class docstring (a line "- ``name``: what it is")."""
    found: dict[str, str] = {}
    for match in re.finditer(
        r"^- ``(\w+)``: (.*?)(?=^- ``|^$|\Z)", inspect.cleandoc(cls.__doc__ or ""), re.M | re.S
    ):
        found[match[1]] = _plain(match[2])
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError, SyntaxError):  # no source (a frozen build): the lists only
        return found
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    for field, after in itertools.pairwise(body):
        if (
            isinstance(field, ast.AnnAssign)
            and isinstance(field.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            found[field.target.id] = _plain(after.value.value.strip().split("\n\n")[0])
    return found


def summary(cls: type) -> str:
    """The first paragraph of a class's docstring, on one line, as plain text (no reST roles,
    no literal markup; None written as JSON's null)."""
    doc = (cls.__doc__ or "").strip().split("\n\n")[0]
    return _plain(doc)
