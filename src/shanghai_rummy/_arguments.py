"""Refusing arguments of the wrong kind at the public functions, with
:class:`~shanghai_rummy.ArgumentTypeError` naming the function and the argument."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any, TypeVar, cast

from ._field_types import describe_type
from .errors import ArgumentTypeError, RummyError
from .limits import MAX_SEED

__all__ = [
    "SLIPS",
    "check_seed",
    "expect",
    "is_collection",
    "refuses_bad_arguments",
    "wrong_type",
]

_T = TypeVar("_T")
_F = TypeVar("_F", bound=Callable[..., Any])

# what a public function meets inside when the state (or another argument) is
# not what its hints say; the engine never raises these on purpose
SLIPS = (AttributeError, IndexError, KeyError, TypeError, ValueError, RecursionError)


def wrong_type(function: str, name: str, expected: str, value: object) -> ArgumentTypeError:
    """The error for argument ``name`` of ``function``, which is not ``expected``."""
    return ArgumentTypeError(f"{function}: {name} must be {expected}, got {describe_type(value)}")


def expect(value: object, cls: type[_T], function: str, name: str) -> _T:
    """``value`` if it is a ``cls``, else :func:`wrong_type`."""
    if not isinstance(value, cls):
        raise wrong_type(function, name, f"a {cls.__name__}", value)
    return value


def refuses_bad_arguments(function: _F) -> _F:
    """``function`` raising :class:`ArgumentTypeError` where an argument its hints do not
    allow trips it up inside (its own errors, all :class:`RummyError`, pass through)."""
    name = function.__name__

    @functools.wraps(function)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except RummyError:
            raise
        except SLIPS as error:
            raise ArgumentTypeError(f"{name}: an argument of the wrong kind ({error})") from None

    return cast(_F, guarded)


def check_seed(seed: object, function: str) -> int:
    """``seed`` if it is an integer from 0 to :data:`~shanghai_rummy.limits.MAX_SEED`."""
    if type(seed) is not int:
        raise wrong_type(function, "seed", "an integer", seed)
    if not 0 <= seed <= MAX_SEED:
        raise RummyError(
            f"{function}: seed must be an integer from 0 to 2**64 - 1 (limits.MAX_SEED), "
            f"got one of {seed.bit_length()} bits{' (negative)' if seed < 0 else ''}"
        )
    return seed


def is_collection(value: object) -> bool:
    """Iterable and not text (whose characters would be read as items)."""
    return isinstance(value, Iterable) and not isinstance(value, (str, bytes, bytearray))
