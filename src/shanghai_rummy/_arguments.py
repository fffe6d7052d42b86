"""Refusing arguments of the wrong kind at the public functions, with
:class:`~shanghai_rummy.ArgumentTypeError` naming the function and the argument."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from ._field_types import describe_type
from .errors import ArgumentTypeError, RummyError
from .limits import MAX_SEED

if TYPE_CHECKING:
    from .state import GameState

__all__ = [
    "check_seed",
    "expect",
    "is_collection",
    "refuses_bad_arguments",
    "refuses_bad_states",
    "wrong_type",
]

_T = TypeVar("_T")
_F = TypeVar("_F", bound=Callable[..., Any])

# what a function taking a GameState meets inside when the state (or another argument) is
# not what its hints say; the engine never raises these on purpose
_SLIPS = (AttributeError, IndexError, KeyError, TypeError, ValueError, RecursionError)


def wrong_type(function: str, name: str, expected: str, value: object) -> ArgumentTypeError:
    """The error for argument ``name`` of ``function``, which is not ``expected``."""
    return ArgumentTypeError(f"{function}: {name} must be {expected}, got {describe_type(value)}")


def expect(value: object, cls: type[_T], function: str, name: str) -> _T:
    """``value`` if it is a ``cls``, else :func:`wrong_type`."""
    if not isinstance(value, cls):
        raise wrong_type(function, name, f"a {cls.__name__}", value)
    return value


def refuses_bad_states(function: _F) -> _F:
    """``function`` (whose first argument is a state) raising a :class:`RummyError` for a
    state or an argument its hints do not allow: :class:`InvalidStateError` naming the
    broken invariant where ``state`` is a forged or hand-built state that fails
    :func:`~shanghai_rummy.validate`, else :class:`ArgumentTypeError`. Costs nothing until
    something goes wrong (the engine's own errors pass through)."""
    name = function.__name__

    @functools.wraps(function)
    def guarded(state: GameState, *args: Any, **kwargs: Any) -> Any:
        try:
            return function(state, *args, **kwargs)
        except RummyError:
            raise
        except _SLIPS as error:
            raise _explained(name, state, error) from None

    return cast(_F, guarded)


def _explained(function: str, state: object, error: Exception) -> RummyError:
    from .state import GameState  # the state module imports the engine's pieces
    from .validation import validate

    if not isinstance(state, GameState):
        return wrong_type(function, "state", "a GameState", state)
    try:
        validate(state)
    except RummyError as invalid:
        return invalid
    except _SLIPS:  # pragma: no cover - validate reports every slip of a state by path
        pass
    return ArgumentTypeError(f"{function}: an argument of the wrong kind ({error})")


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
        except _SLIPS as error:
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
