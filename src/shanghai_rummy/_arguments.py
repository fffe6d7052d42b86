"""Refusing arguments of the wrong kind at the public functions, with
:class:`~shanghai_rummy.ArgumentTypeError` naming the function and the argument."""

from __future__ import annotations

from typing import TypeVar

from ._field_types import describe_type
from .errors import ArgumentTypeError

__all__ = ["expect", "wrong_type"]

_T = TypeVar("_T")


def wrong_type(function: str, name: str, expected: str, value: object) -> ArgumentTypeError:
    """The error for argument ``name`` of ``function``, which is not ``expected``."""
    return ArgumentTypeError(f"{function}: {name} must be {expected}, got {describe_type(value)}")


def expect(value: object, cls: type[_T], function: str, name: str) -> _T:
    """``value`` if it is a ``cls``, else :func:`wrong_type`."""
    if not isinstance(value, cls):
        raise wrong_type(function, name, f"a {cls.__name__}", value)
    return value
