"""Checking a built value's fields against their type hints, all the way down.

``attrs`` classes do not check types: ``attrs.evolve(variant, melds=...)`` or a hand-built
state may hold a string where an enum belongs, ``None`` where a tuple belongs, or a list
(unhashable) where a tuple belongs. :func:`first_mistyped` finds the first such field, with
its path, so the class's own checks can refuse it before any rule reads it.
"""

from __future__ import annotations

import enum
import functools
import types
import typing
from collections.abc import Callable, Iterator
from typing import Any, Literal, Union, get_args, get_origin

import attrs

__all__ = ["describe_type", "first_mistyped"]

Checker = Callable[[object, str], Iterator[tuple[str, str]]]
"""Yields (path, what was expected) for every mistyped part of a value."""


def first_mistyped(
    value: object, cls: type, path: str, special: dict[type, Checker] | None = None
) -> tuple[str, str] | None:
    """The path of the first field of ``value`` (an instance of the attrs class ``cls``)
    whose value its hint does not allow, and the message; None when every field fits.
    ``special`` checks the values of some classes its own way (instead of field by field)."""
    for found in _check_fields(value, cls, path, special or {}):
        return found
    return None


def describe_type(value: object) -> str:
    """A short description of ``value`` for a message: its type, and the value if short."""
    try:
        text = repr(value)
    except ValueError:  # an integer too long to print
        text = "..."
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{type(value).__name__} {text}"


@functools.cache
def _hints(cls: type) -> tuple[tuple[str, Any], ...]:
    hints = typing.get_type_hints(cls)
    return tuple((field.name, hints[field.name]) for field in attrs.fields(cls))


def _check_fields(
    value: object, cls: type, path: str, special: dict[type, Checker]
) -> Iterator[tuple[str, str]]:
    for name, hint in _hints(cls):
        yield from _check(getattr(value, name), hint, f"{path}.{name}", special)


def _check(
    value: object, hint: Any, path: str, special: dict[type, Checker]
) -> Iterator[tuple[str, str]]:
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        members = get_args(hint)
        if value is None and type(None) in members:
            return
        fitting = [m for m in members if m is not type(None) and _fits_outside(value, m)]
        if not fitting:
            yield path, f"expected {_name(hint)}, got {describe_type(value)}"
            return
        yield from _check(value, fitting[0], path, special)
        return
    if origin is tuple:
        if type(value) is not tuple:
            yield path, f"expected a tuple ({_name(hint)}), got {describe_type(value)}"
            return
        args = get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            for index, item in enumerate(value):
                yield from _check(item, args[0], f"{path}[{index}]", special)
        elif len(args) != len(value):
            yield path, f"expected {len(args)} items, got {len(value)}"
        else:
            for index, (item, item_hint) in enumerate(zip(value, args, strict=True)):
                yield from _check(item, item_hint, f"{path}[{index}]", special)
        return
    if origin is Literal:
        if not any(type(value) is type(option) and value == option for option in get_args(hint)):
            yield path, f"expected one of {get_args(hint)!r}, got {describe_type(value)}"
        return
    if not _fits_outside(value, hint):
        yield path, f"expected {_name(hint)}, got {describe_type(value)}"
        return
    if isinstance(hint, type) and hint in special:
        yield from special[hint](value, path)
    elif isinstance(hint, type) and attrs.has(hint):
        yield from _check_fields(value, hint, path, special)


def _fits_outside(value: object, hint: Any) -> bool:
    """Whether ``value`` is of the kind ``hint`` names, not looking inside it."""
    if hint is Any:
        return True
    origin = get_origin(hint)
    if origin is tuple:
        return type(value) is tuple
    if origin is Literal:
        return any(type(value) is type(option) and value == option for option in get_args(hint))
    if hint is int:
        return type(value) is int
    if hint is bool:
        return type(value) is bool
    if hint is str:
        return type(value) is str
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return type(value) is hint
    return isinstance(hint, type) and isinstance(value, hint)


def _name(hint: Any) -> str:
    if isinstance(hint, type):
        return hint.__name__
    return str(hint).replace("typing.", "").replace("shanghai_rummy.", "")
