"""Moves as values. Every move a seat can make is one frozen Action; :func:`~shanghai_rummy.apply`
dispatches it to the transition of the same name, and a game's history is the tuple of the
actions applied.

>>> from shanghai_rummy import Draw, Source, Discard, Card
>>> Draw(seat=1, source=Source.STOCK)
Draw(seat=1, source=<Source.STOCK: 'stock'>)
>>> Discard(seat=0, card=Card.parse("KH")).card
Card.parse('KH')
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Final, Literal, TypeAlias

import attrs

from ._arguments import is_collection, wrong_type
from .cards import Card, make_pack
from .limits import MAX_PLAYERS
from .melds import MeldKind

__all__ = [
    "Action",
    "Buy",
    "Discard",
    "Draw",
    "End",
    "GoOut",
    "LayOff",
    "Meld",
    "PassBuy",
    "PlannedLayOff",
    "Source",
    "SwapJoker",
]

End = Literal["low", "high"]
"""Which end of a run a card is laid off on, where both could take it."""


class Source(enum.Enum):
    """Where a drawn card comes from."""

    STOCK = "stock"
    DISCARD = "discard"
    CUT_CARD = "cut_card"
    """The face-up cut card at the bottom of the stock, where ``variant.scoring.cut_card_hand``
    is set: taking it obliges going out "by hand" that turn."""

    # Members are singletons compared by identity: an identity hash agrees with equality and
    # is computed in C (Enum's own hashes the name in Python); actions are dictionary keys.
    __hash__ = object.__hash__


def _groups(groups: Iterable[Iterable[Card]]) -> tuple[tuple[Card, ...], ...]:
    if type(groups) is tuple and all(type(group) is tuple for group in groups):
        return groups  # already a value: legal_actions lists many of these
    if not is_collection(groups):
        raise wrong_type("Meld/GoOut", "groups", "a sequence of groups of cards", groups)
    made = []
    for group in groups:
        if not is_collection(group):
            raise wrong_type("Meld/GoOut", "each group", "a sequence of cards", group)
        made.append(tuple(group))
    return tuple(made)


def _kinds(kinds: Iterable[MeldKind | None]) -> tuple[MeldKind | None, ...]:
    if type(kinds) is tuple and not kinds:
        return kinds
    if not is_collection(kinds):
        raise wrong_type("Meld/GoOut", "kinds", "a sequence of MeldKind or None", kinds)
    made = tuple(kinds)
    for kind in made:
        if kind is not None and type(kind) is not MeldKind:
            raise wrong_type("Meld/GoOut", "each kind", "a MeldKind or None", kind)
    # naming no kind at all is the same move as not naming any
    return made if any(kind is not None for kind in made) else ()


@attrs.frozen
class Draw:
    """Draw the top card of the stock, or take the upcard."""

    seat: int
    source: Source


@attrs.frozen
class Buy:
    """Buy the upcard out of turn (it comes with the variant's penalty cards)."""

    seat: int


@attrs.frozen
class PassBuy:
    """Decline the upcard when it is offered for buying."""

    seat: int


@attrs.frozen(repr=False)
class Meld:
    """Lay down groups: going down (the contract or the opening) or, where the variant allows,
    new groups after going down. A run is given in rank order, so a joker's position says
    which card it stands for. An empty group is refused, never skipped, even among others:
    it is most likely a slip, and the error names it (``meld: group 2 of 3 is empty``).

    ``kinds`` names how groups are read, one entry per group (``None``: as
    :func:`~shanghai_rummy.check_group` reads it), or is empty: only a group that reads both
    as a set and as a run (one natural card and jokers, such as ``JK JK 9C`` where
    ``variant.jokers.at_most_naturals`` is off) needs it, to be laid as the run.

    >>> from shanghai_rummy import MeldKind, parse_cards
    >>> Meld(0, [parse_cards("JK JK 9C")], [MeldKind.RUN]).kinds
    (<MeldKind.RUN: 'run'>,)
    >>> Meld(0, [parse_cards("JK JK 9C")], [None]) == Meld(0, [parse_cards("JK JK 9C")])
    True
    """

    seat: int
    groups: tuple[tuple[Card, ...], ...] = attrs.field(converter=_groups)
    kinds: tuple[MeldKind | None, ...] = attrs.field(default=(), converter=_kinds)

    def __repr__(self) -> str:
        kinds = f", kinds={self.kinds!r}" if self.kinds else ""  # most name none
        return f"Meld(seat={self.seat!r}, groups={self.groups!r}{kinds})"


@attrs.frozen
class LayOff:
    """Lay one card off on a table meld; ``end`` says which end of a run where both fit."""

    seat: int
    card: Card
    meld_id: int
    end: End | None = None


@attrs.frozen
class SwapJoker:
    """Give ``card`` for the joker in meld ``meld_id`` that stands for it."""

    seat: int
    card: Card
    meld_id: int


@attrs.frozen
class Discard:
    """Discard a card, ending the turn (or going out, where the variant allows)."""

    seat: int
    card: Card


@attrs.frozen
class PlannedLayOff:
    """One lay-off inside a :class:`GoOut`."""

    card: Card
    meld_id: int
    end: End | None = None


def _lay_offs(items: Iterable[PlannedLayOff]) -> tuple[PlannedLayOff, ...]:
    if not is_collection(items):
        raise wrong_type("GoOut", "lay_offs", "a sequence of PlannedLayOff", items)
    return tuple(items)


@attrs.frozen
class GoOut:
    """Go out in one atomic move: lay down ``groups``, then the ``lay_offs`` in order (melds
    laid down by this move get the next meld ids, in order), then ``discard`` if given.
    Either the whole move applies and ends the deal, or nothing changes. ``kinds``: how the
    groups are read, as for :class:`Meld`."""

    seat: int
    groups: tuple[tuple[Card, ...], ...] = attrs.field(default=(), converter=_groups)
    lay_offs: tuple[PlannedLayOff, ...] = attrs.field(default=(), converter=_lay_offs)
    discard: Card | None = None
    kinds: tuple[MeldKind | None, ...] = attrs.field(default=(), converter=_kinds)


Action: TypeAlias = Draw | Buy | PassBuy | Meld | LayOff | SwapJoker | Discard | GoOut
"""Any move."""


# --- shared action objects: actions are values, so the common ones are made once, at import ---

_DRAWS: Final = {
    (seat, source): Draw(seat, source) for seat in range(MAX_PLAYERS) for source in Source
}
_DISCARDS: Final = tuple(
    {card: Discard(seat, card) for card in make_pack(1, 1)} for seat in range(MAX_PLAYERS)
)
_NO_DISCARDS: Final[Mapping[Card, Discard]] = MappingProxyType({})


def shared_draw(seat: int, source: Source) -> Draw:
    """The Draw of that seat and source, one object for every listing and loaded history
    (a new one for a seat beyond :data:`~shanghai_rummy.limits.MAX_PLAYERS`)."""
    action = _DRAWS.get((seat, source))
    return Draw(seat, source) if action is None else action


def shared_discards(seat: int) -> Mapping[Card, Discard]:
    """The seat's Discard action of every card, one object each (none for a seat beyond
    :data:`~shanghai_rummy.limits.MAX_PLAYERS`)."""
    return _DISCARDS[seat] if 0 <= seat < MAX_PLAYERS else _NO_DISCARDS


def shared_discard(seat: int, card: Card) -> Discard:
    """The Discard of that seat and card, one object (see :func:`shared_discards`)."""
    action = shared_discards(seat).get(card)
    return Discard(seat, card) if action is None else action
