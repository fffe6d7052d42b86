"""The converter of plain values: JSON data to and from cards, enums, tuples, requirements,
variants and the other attrs classes of values, with every refusal naming the path of its
field.

:mod:`~shanghai_rummy.serialization` builds the documents' converter on it (adding game
states, actions, events, views and records); variant files load through it alone, so
loading a variant does not import the engine.

>>> from shanghai_rummy.conversion import structure, unstructure
>>> from shanghai_rummy.contracts import Contract, Requirement
>>> from shanghai_rummy.errors import VariantError
>>> unstructure(Contract(sets=(3,), runs=(4,)), Requirement)
{'kind': 'contract', 'sets': [3], 'runs': [4]}
>>> structure({"kind": "contract", "sets": ["3"], "runs": []}, Requirement, "$", VariantError)
Traceback (most recent call last):
...
shanghai_rummy.errors.VariantError: $.sets[0]: expected an integer, got a string ('3')
"""

from __future__ import annotations

import enum
import functools
import re
import typing
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final, Literal, get_args, get_origin

import attrs
import cattrs
from cattrs.errors import ClassValidationError, ForbiddenExtraKeysError, IterableValidationError
from cattrs.gen import make_dict_structure_fn

from .cards import Card, make_pack
from .contracts import Contract, Opening, Requirement
from .errors import RummyError, SerializationError
from .memo import Memo
from .variants import VARIANTS, Variant

__all__ = ["REQUIREMENT_TAGS", "structure", "structure_with", "unstructure", "value_converter"]

REQUIREMENT_TAGS: dict[type, str] = {Contract: "contract", Opening: "opening"}
"""Each requirement's ``kind`` tag."""

CARDS_BY_CODE = {card.code: card for card in make_pack(1, 1)}
_MOST_PROBLEMS = 3  # errors reported from one array (the message shows three)
CODE_OF = {card: code for code, card in CARDS_BY_CODE.items()}


# --- reporting errors with their paths --------------------------------------------------------


class FieldError(ValueError):
    """A bad value found below the object being structured: ``suffix`` extends the path."""

    def __init__(self, suffix: str, message: str) -> None:
        super().__init__(message)
        self.suffix = suffix


class ItemErrors(ValueError):
    """The errors of an array's items, each with the suffix (``"[3]"``) that extends the path."""

    def __init__(self, problems: list[tuple[str, Exception]]) -> None:
        super().__init__(f"{len(problems)} bad item(s)")
        self.problems = problems


def short(value: object) -> str:
    try:
        text = repr(value)
    except ValueError:  # an int too long to print
        return f"<{type(value).__name__}>"
    return text if len(text) <= 40 else text[:37] + "..."


def json_kind(value: object) -> str:
    """The JSON kind of a decoded value, for messages."""
    names = {
        type(None): "null",
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        str: "a string",
        list: "an array",
        dict: "an object",
    }
    name = names.get(type(value), type(value).__name__)
    return name if isinstance(value, (list, dict)) or value is None else f"{name} ({short(value)})"


_OWN_FIELD = re.compile(r"^[A-Z]\w*(?:\.([\w.\[\]]+))?: (.*)$", re.DOTALL)

# cattrs names the attribute, not the key, in its notes; GameState.log is the key "history".
_KEYS = {"log": "history", "event_log": "events"}


def error_paths(error: BaseException, path: str) -> Iterator[tuple[str, str]]:
    """Every (path, message) in a cattrs error tree."""
    if isinstance(error, IterableValidationError):
        with_index, without = error.group_exceptions()
        for inner, index_note in with_index:
            yield from error_paths(inner, f"{path}[{index_note.index!r}]")
        for inner in without:
            yield from error_paths(inner, path)
    elif isinstance(error, ClassValidationError):
        with_name, others = error.group_exceptions()
        for inner, name_note in with_name:
            yield from error_paths(inner, f"{path}.{_KEYS.get(name_note.name, name_note.name)}")
        for inner in others:
            yield from error_paths(inner, path)
    elif isinstance(error, ForbiddenExtraKeysError):
        for key in sorted(error.extra_fields):
            yield f"{path}.{key}", "unknown field"
    elif isinstance(error, ItemErrors):
        for suffix, inner in error.problems:
            yield from error_paths(inner, path + suffix)
    elif isinstance(error, FieldError):
        yield path + error.suffix, str(error)
    elif isinstance(error, KeyError):
        yield path, "required field missing"
    elif isinstance(error, RecursionError):
        yield path, "nested too deeply"
    elif isinstance(error, RummyError) and _OWN_FIELD.match(str(error)):
        # "Variant.deals[0].cards: ..." or "Contract: ..." from a class's own checks
        match = _OWN_FIELD.match(str(error))
        assert match is not None
        yield (f"{path}.{match[1]}" if match[1] else path), match[2]
    elif isinstance(error, (RummyError, TypeError, ValueError)):
        yield path, str(error)
    else:  # pragma: no cover - every hook raises one of the above
        yield path, f"{type(error).__name__}: {error}"


def failure(errors: list[tuple[str, str]], error_type: type[RummyError]) -> RummyError:
    shown = "; ".join(f"{path}: {message}" for path, message in errors[:3])
    more = len(errors) - 3
    return error_type(shown + (f" (and {more} more)" if more > 0 else ""))


# --- the converter of values ------------------------------------------------------------


def _structure_int(value: object, cls: object) -> int:
    if _is_enum(cls):  # an IntEnum such as Rank reaches the hook for int first
        member = _enum_hook(typing.cast(type[enum.Enum], cls))(value, cls)
        assert isinstance(member, int)
        return member
    if type(value) is not int:
        raise TypeError(f"expected an integer, got {json_kind(value)}")
    return value


def _structure_bool(value: object, _: object) -> bool:
    if type(value) is not bool:
        raise TypeError(f"expected true or false, got {json_kind(value)}")
    return value


def _structure_str(value: object, _: object) -> str:
    if type(value) is not str:
        raise TypeError(f"expected a string, got {json_kind(value)}")
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:  # "\ud800" in the JSON: no UTF-8 text can hold it
            raise ValueError("a lone surrogate (such as \\ud800) is not text") from None
    return value


def _structure_card(value: object, _: object) -> Card:
    if type(value) is not str:
        raise TypeError(f"expected a card code such as '8C' or 'JK', got {json_kind(value)}")
    card = CARDS_BY_CODE.get(value)
    if card is None:
        raise ValueError(
            f"unknown card code {short(value)} (a rank 2-10, J, Q, K or A and a suit C, D, H "
            "or S, or JK)"
        )
    return card


def _card_code(card: Card) -> str:
    return CODE_OF[card]


def _is_enum(cls: Any) -> bool:
    return isinstance(cls, type) and issubclass(cls, enum.Enum)


@functools.cache
def _enum_hook(cls: type[enum.Enum]) -> Callable[[object, object], enum.Enum]:
    members = {(type(member.value), member.value): member for member in cls}
    expected = ", ".join(repr(member.value) for member in cls)

    def structure(value: object, _: object) -> enum.Enum:
        member = members.get((type(value), value)) if isinstance(value, (str, int)) else None
        if member is None:
            raise ValueError(
                f"{short(value)} is not a valid {cls.__name__}: expected one of {expected}"
            )
        return member

    return structure


def _is_literal(cls: Any) -> bool:
    return get_origin(cls) is Literal


def _literal_hook(cls: Any) -> Callable[[object, object], object]:
    allowed = get_args(cls)
    expected = ", ".join(repr(value) for value in allowed)

    def structure(value: object, _: object) -> object:
        if not any(type(value) is type(option) and value == option for option in allowed):
            raise ValueError(f"expected one of {expected}, got {json_kind(value)}")
        return value

    return structure


def _is_tuple(cls: Any) -> bool:
    return get_origin(cls) is tuple


def _homogeneous(cls: Any) -> bool:
    args = get_args(cls)
    return len(args) == 2 and args[1] is Ellipsis


def _tuple_unstructure_hook(cls: Any, converter: cattrs.Converter) -> Callable[[Any], list[Any]]:
    args = get_args(cls)
    if _homogeneous(cls):
        item = converter.get_unstructure_hook(args[0])
        return lambda value: [item(element) for element in value]
    hooks = [converter.get_unstructure_hook(arg) for arg in args]
    return lambda value: [hook(element) for hook, element in zip(hooks, value, strict=True)]


def _tuple_structure_hook(cls: Any, converter: cattrs.Converter) -> Callable[[Any, Any], Any]:
    args = get_args(cls)
    size = None if _homogeneous(cls) else len(args)
    types = [args[0]] if size is None else list(args)
    hooks = [converter.get_structure_hook(item_type) for item_type in types]

    def structure(value: object, _: object) -> Any:
        if type(value) is not list:
            raise TypeError(f"expected an array, got {json_kind(value)}")
        if size is not None and len(value) != size:
            raise TypeError(f"expected an array of {size} items, got {len(value)}")
        items = []
        problems: list[tuple[str, Exception]] = []
        for index, item in enumerate(value):
            slot = 0 if size is None else index
            try:
                items.append(hooks[slot](item, types[slot]))
            except Exception as error:  # collected, each with its index in the path
                problems.append((f"[{index}]", error))
                if len(problems) == _MOST_PROBLEMS:
                    break  # enough to report: refusing costs no more than reading
        if problems:
            raise ItemErrors(problems)
        return tuple(items)

    return structure


_PRESETS: Final[Memo[None, tuple[tuple[dict[str, Any], Variant], ...]]] = Memo(
    "conversion.preset_data", 1
)  # each preset's data, made once


def preset_of(value: dict[str, Any]) -> Variant | None:
    """The preset whose data ``value`` is, exactly (a saved game embeds its variant, and
    most are presets): loading gives the preset itself, whose solver tables are already
    made, instead of an equal copy. Else None."""
    presets = _PRESETS.get(None)
    if presets is None:
        presets = _PRESETS.put(
            None,
            tuple((_VALUES.unstructure(preset, Variant), preset) for preset in VARIANTS.values()),
        )
    for data, preset in presets:
        if value == data and same_json(value, data):
            return preset
    return None


def same_json(a: object, b: object) -> bool:
    """Equal JSON values of the same types all the way down (``==`` takes 1 for true)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_json(a[key], b[key]) for key in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(map(same_json, a, b))
    return a == b


def register_union(
    converter: cattrs.Converter, union: Any, tag_key: str, tags: dict[type, str]
) -> None:
    by_tag = {tag: member for member, tag in tags.items()}
    expected = ", ".join(repr(tag) for tag in by_tag)

    def unstructure(value: Any) -> dict[str, Any]:
        tag = tags.get(type(value))
        if tag is None:
            raise SerializationError(f"not one of {expected}: {short(value)}")
        return {tag_key: tag, **converter.unstructure(value, type(value))}

    def structure(value: object, _: object) -> Any:
        if type(value) is not dict:
            raise TypeError(f"expected an object, got {json_kind(value)}")
        tag = value.get(tag_key)
        member = by_tag.get(tag) if type(tag) is str else None
        if member is None:
            found = "missing" if tag_key not in value else f"got {json_kind(tag)}"
            raise FieldError(f".{tag_key}", f"expected one of {expected}; {found}")
        body = {key: item for key, item in value.items() if key != tag_key}
        return converter.structure(body, member)

    converter.register_unstructure_hook(union, unstructure)
    converter.register_structure_hook(union, structure)


VALUE_UNIONS: tuple[tuple[object, str, dict[type, str]], ...] = (
    (Requirement, "kind", REQUIREMENT_TAGS),
)
"""The tagged unions among values: the union, its tag key, each member's tag."""

AttrsHook = Callable[[Any, cattrs.Converter], Callable[[Any, Any], Any]]
"""A structure hook factory for attrs classes."""


def attrs_structure_hook(cls: Any, converter: cattrs.Converter) -> Callable[[Any, Any], Any]:
    """The structure hook of an attrs class of values: an object with exactly its fields; a
    variant equal to a preset's data is that preset."""
    inner = make_dict_structure_fn(cls, converter, _cattrs_forbid_extra_keys=True)

    def structure(value: object, _: object) -> Any:
        if type(value) is not dict:
            raise TypeError(f"expected an object ({cls.__name__}), got {json_kind(value)}")
        if cls is Variant:
            preset = preset_of(value)
            if preset is not None:
                return preset
        return inner(value, cls)

    return structure


def value_converter(
    attrs_hook: AttrsHook = attrs_structure_hook,
    unions: Sequence[tuple[object, str, dict[type, str]]] = VALUE_UNIONS,
) -> cattrs.Converter:
    """A converter of values: strict scalars, cards by their codes, enums by their values,
    literals, tuples as arrays (each bad item named by its index), attrs classes by
    ``attrs_hook``, and each tagged union of ``unions`` (the union, its tag key, each
    member's tag)."""
    converter = cattrs.Converter(forbid_extra_keys=True)
    converter.register_structure_hook(int, _structure_int)
    converter.register_structure_hook(bool, _structure_bool)
    converter.register_structure_hook(str, _structure_str)
    converter.register_structure_hook(Card, _structure_card)
    converter.register_unstructure_hook(Card, _card_code)
    converter.register_structure_hook_factory(_is_enum, _enum_hook)
    converter.register_structure_hook_factory(_is_literal, _literal_hook)
    converter.register_unstructure_hook_factory(_is_tuple, _tuple_unstructure_hook)
    converter.register_structure_hook_factory(_is_tuple, _tuple_structure_hook)
    converter.register_structure_hook_factory(attrs.has, attrs_hook)
    for union, tag_key, tags in unions:
        register_union(converter, union, tag_key, tags)
    return converter


_VALUES = value_converter()


def unstructure(value: Any, cls: Any) -> Any:
    """``value`` of type ``cls`` as plain JSON data (no envelope)."""
    return _VALUES.unstructure(value, cls)


def structure(data: Any, cls: Any, root: str, error_type: type[RummyError]) -> Any:
    """Plain JSON data as a ``cls``; ``error_type`` naming the path from ``root`` otherwise."""
    return structure_with(_VALUES, data, cls, root, error_type)


def structure_with(
    converter: cattrs.Converter, data: Any, cls: Any, root: str, error_type: type[RummyError]
) -> Any:
    """:func:`structure` by ``converter`` (the documents' converter extends this module's)."""
    try:
        return converter.structure(data, cls)
    except Exception as error:  # the boundary: whatever goes wrong is the data's fault
        raise failure(list(error_paths(error, root)) or [(root, str(error))], error_type) from None
