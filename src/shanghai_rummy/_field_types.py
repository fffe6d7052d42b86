"""Checking a built value's fields against their type hints, all the way down.

``attrs`` classes do not check types: ``attrs.evolve(variant, melds=...)`` or a hand-built
state may hold a string where an enum belongs, ``None`` where a tuple belongs, or a list
(unhashable) where a tuple belongs. :func:`first_mistyped` finds the first such field, with
its path, so the class's own checks can refuse it before any rule reads it.

The check runs on every :func:`~shanghai_rummy.validate`, so it is done twice over: a
predicate compiled once per hint answers "does every field fit?" without building a path or a
message, and only when it says no does the walk below find the field and say what is wrong.
"""

from __future__ import annotations

import enum
import functools
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Literal, Union, get_args, get_origin

import attrs

__all__ = ["FieldTypes", "Special", "describe_type", "first_mistyped"]

Checker = Callable[[object, str], Iterator[tuple[str, str]]]
"""Yields (path, what was expected) for every mistyped part of a value."""

Fits = Callable[[object], bool]
"""Whether a value is of its hint's type, all the way down."""


@attrs.frozen
class Special:
    """How the values of one class are checked their own way instead of field by field:
    ``fits`` answers quickly, ``problems`` says where a value that does not fit goes wrong
    (it yields nothing where ``fits`` is true)."""

    fits: Fits
    problems: Checker


class FieldTypes:
    """The field check of attrs values, with some classes checked their own way
    (``special``); it keeps the predicate of every hint it has met (a few dozen)."""

    def __init__(self, special: Mapping[type, Special] | None = None) -> None:
        self._special: dict[type, Special] = dict(special or {})
        self._checkers = {cls: entry.problems for cls, entry in self._special.items()}
        self._compiled: dict[Any, Fits] = {}

    def first_mistyped(self, value: object, cls: type, path: str) -> tuple[str, str] | None:
        """The path of the first field of ``value`` (an instance of the attrs class
        ``cls``) whose value its hint does not allow, and the message; None when every
        field fits."""
        if self.fits(cls)(value):
            return None
        for found in self.problems(value, cls, path):
            return found
        return None  # pragma: no cover - the walk finds what the predicate refused

    def problems(self, value: object, cls: type, path: str) -> Iterator[tuple[str, str]]:
        """Every mistyped field of ``value`` (an instance of the attrs class ``cls``), walked
        field by field: (its path, what was expected). Nothing where :meth:`fits` is true."""
        return _check_fields(value, cls, path, self._checkers)

    def fits(self, hint: Any) -> Fits:
        """The predicate of ``hint``: exactly what the walk accepts, answered faster."""
        compiled = self._compiled.get(hint)
        if compiled is None:
            compiled = self._compile(hint)
        return compiled

    def _compile(self, hint: Any) -> Fits:
        origin = get_origin(hint)
        if hint is Any:
            compiled: Fits = _always
        elif origin in (Union, types.UnionType):
            compiled = self._union(hint)
        elif origin is tuple:
            compiled = self._tuple(get_args(hint))
        elif origin is Literal:
            options = get_args(hint)
            compiled = functools.partial(_is_option, options)
        elif hint in (int, bool, str) or (isinstance(hint, type) and issubclass(hint, enum.Enum)):
            compiled = functools.partial(_is_exactly, hint)
        elif isinstance(hint, type) and hint in self._special:
            compiled = self._special_class(hint, self._special[hint].fits)
        elif isinstance(hint, type) and attrs.has(hint):
            return self._attrs_class(hint)
        else:
            compiled = functools.partial(_fits_outside_of, hint)
        self._compiled[hint] = compiled
        return compiled

    def _union(self, hint: Any) -> Fits:
        members = get_args(hint)
        optional = type(None) in members
        # the walk reads a value as the first member it fits the outside of
        choices = [
            (functools.partial(_fits_outside_of, member), self.fits(member))
            for member in members
            if member is not type(None)
        ]

        def fits(value: object) -> bool:
            if value is None and optional:
                return True
            for outside, inside in choices:
                if outside(value):
                    return inside(value)
            return False

        return fits

    def _tuple(self, args: tuple[Any, ...]) -> Fits:
        if len(args) == 2 and args[1] is Ellipsis:
            item = self.fits(args[0])
            if args[0] in (int, str) or args[0] in self._exact_classes():
                exact = args[0]
                return lambda value: (
                    type(value) is tuple and all(type(entry) is exact for entry in value)
                )
            return lambda value: type(value) is tuple and all(item(entry) for entry in value)
        items = [self.fits(arg) for arg in args]
        size = len(items)
        return lambda value: (
            type(value) is tuple
            and len(value) == size
            and all(fits(entry) for fits, entry in zip(items, value, strict=True))
        )

    def _exact_classes(self) -> tuple[type, ...]:
        """The special classes whose check is their exact type (a card)."""
        return tuple(cls for cls, entry in self._special.items() if entry.fits is exact_type(cls))

    def _special_class(self, hint: type, own: Fits) -> Fits:
        return lambda value: isinstance(value, hint) and own(value)

    def _attrs_class(self, hint: type) -> Fits:
        fields: list[tuple[str, Fits]] = []

        def fits(value: object) -> bool:
            return isinstance(value, hint) and all(
                field_fits(getattr(value, name)) for name, field_fits in fields
            )

        # kept before its fields are compiled: a class may refer to itself
        self._compiled[hint] = fits
        fields.extend((name, self.fits(field_hint)) for name, field_hint in _hints(hint))
        return fits


@functools.cache
def exact_type(cls: type) -> Fits:
    """The predicate "of exactly the class ``cls``" (one per class, so that
    :class:`FieldTypes` can recognise it and check a tuple of them in one pass)."""
    return functools.partial(_is_exactly, cls)


PLAIN = FieldTypes()
"""The field check with no class checked its own way."""


def first_mistyped(value: object, cls: type, path: str) -> tuple[str, str] | None:
    """:meth:`FieldTypes.first_mistyped` of :data:`PLAIN`: the first field of ``value`` (an
    instance of the attrs class ``cls``) whose value its hint does not allow."""
    return PLAIN.first_mistyped(value, cls, path)


def _always(value: object) -> bool:
    return True


def _is_exactly(cls: type, value: object) -> bool:
    return type(value) is cls


def _is_option(options: tuple[object, ...], value: object) -> bool:
    return any(type(value) is type(option) and value == option for option in options)


def _fits_outside_of(hint: Any, value: object) -> bool:
    return _fits_outside(value, hint)


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
    value: object, cls: type, path: str, special: Mapping[type, Checker]
) -> Iterator[tuple[str, str]]:
    for name, hint in _hints(cls):
        yield from _check(getattr(value, name), hint, f"{path}.{name}", special)


def _check(
    value: object, hint: Any, path: str, special: Mapping[type, Checker]
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
