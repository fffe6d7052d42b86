"""The exception hierarchy: every refusal the library makes is one of these.

All of them derive from :class:`RummyError`, itself a :class:`ValueError`, so a caller
may catch the whole family with one ``except`` clause. Moves the rules forbid raise an
:class:`IllegalMoveError` subclass whose message names the rule and, where one decides it,
the :class:`~shanghai_rummy.Variant` field.

>>> import shanghai_rummy as sr
>>> issubclass(sr.CardNotInHandError, sr.IllegalMoveError)
True
>>> issubclass(sr.RummyError, ValueError)
True

Arguments of the wrong Python type (``None`` for a state, an int for a group of cards) raise
:class:`ArgumentTypeError`, which is both a :class:`RummyError` and a :class:`TypeError`: a
server that catches ``RummyError`` catches everything the library refuses, and Python code
that catches ``TypeError`` still works. No public function lets ``IndexError``,
``KeyError``, ``AttributeError``, ``MemoryError`` or a bare ``ValueError`` escape.

>>> sr.legal_actions(None)
Traceback (most recent call last):
...
shanghai_rummy.errors.ArgumentTypeError: legal_actions: state must be a GameState, got NoneType None
>>> issubclass(sr.ArgumentTypeError, TypeError), issubclass(sr.ArgumentTypeError, sr.RummyError)
(True, True)
"""

from __future__ import annotations

__all__ = [
    "ArgumentTypeError",
    "BuyNotAllowedError",
    "CardNotInHandError",
    "ContractNotMetError",
    "DrawError",
    "GoOutError",
    "IllegalMoveError",
    "InvalidMeldError",
    "InvalidStateError",
    "JokerSwapError",
    "LayOffError",
    "NotYourTurnError",
    "NotationError",
    "RummyError",
    "SerializationError",
    "VariantError",
    "WrongPhaseError",
]


class RummyError(ValueError):
    """Root of every error this library raises on purpose."""


class ArgumentTypeError(RummyError, TypeError):
    """An argument of a kind its type hint does not allow (``None`` where a state belongs,
    a number where a group of cards belongs); the message names the function and the
    argument. Also a :class:`TypeError`."""


class NotationError(RummyError):
    """Text that does not parse as a card or an action, or something given where a card (or
    card text) belongs that is not one, such as the text ``"8C"`` where a
    :class:`~shanghai_rummy.Card` belongs; the message quotes it."""


class VariantError(RummyError):
    """A :class:`~shanghai_rummy.Variant` that cannot be played; the message names the field."""


class SerializationError(RummyError):
    """A JSON document that is malformed or forged; the message names the path of the field."""


class InvalidStateError(RummyError):
    """A game state that breaks an invariant. ``path`` names the field, relative to the state
    (such as ``"seats[2].buys"``; ``""`` for the state as a whole); ``problem`` says what is
    wrong, starting with the invariant's name."""

    def __init__(self, path: str, problem: str) -> None:
        where = f"GameState.{path}" if path else "GameState (cards)"
        super().__init__(f"{where}: {problem}")
        self.path = path
        self.problem = problem


class IllegalMoveError(RummyError):
    """A move the rules forbid. The state it was tried on is unchanged."""


class NotYourTurnError(IllegalMoveError):
    """The seat that tried the move is not the seat to act."""


class WrongPhaseError(IllegalMoveError):
    """The move does not belong to the current phase (drawing, buying, playing, between deals)."""


class CardNotInHandError(IllegalMoveError):
    """The move uses a card the seat does not hold."""


class DrawError(IllegalMoveError):
    """A draw the rules forbid: no live upcard, or taking it would oblige what cannot be done."""


class InvalidMeldError(IllegalMoveError):
    """A group of cards is not a valid set or run under the variant."""


class ContractNotMetError(IllegalMoveError):
    """Groups laid down do not meet the deal's contract or the opening requirement."""


class BuyNotAllowedError(IllegalMoveError):
    """A buy or a pass that the buying rules forbid."""


class LayOffError(IllegalMoveError):
    """A card that may not be laid off there, or not now."""


class JokerSwapError(IllegalMoveError):
    """A joker swap the rules forbid: wrong card, wrong player, no joker there."""


class GoOutError(IllegalMoveError):
    """A move that breaks the going-out rule, or a turn ended with an obligation open."""
