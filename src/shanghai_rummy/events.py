"""What happened: the public events of a game, each as one seat may see it.

Every accepted move, and each step the engine takes by itself (dealing, re-stocking, ending a
deal or the game), adds events to the state: frozen values a front-end can show or animate
("seat 2 took the 10D", "seat 3 bought", "seat 1 laid 8C off on #3") and a bot can learn
from (which known cards went into whose hand). Each event has a ``number``: its place in the
game, counted from 0 at the first deal.

An event holds what every seat may know, except two facts only one seat sees: the card a
seat draws from the stock (:class:`Drew`) and the penalty cards of a buy (:class:`Bought`).
:func:`seen_by` hides them from the other seats; :attr:`~shanghai_rummy.PlayerView.events`
is the list as the view's seat may see it, so two states that differ only in hidden cards
give equal views.

>>> import shanghai_rummy as sr
>>> state = sr.new_game(sr.get_variant("shanghai"), players=3, seed=2)
>>> state = sr.draw(state, 1, sr.Source.STOCK)  # the upcard is offered first
>>> state = sr.pass_buy(sr.pass_buy(state, 2), 0)
>>> [type(event).__name__ for event in state.events]
['DealStarted', 'UpcardOffered', 'PassedBuy', 'PassedBuy', 'Drew']
>>> drew = state.events[-1]
>>> drew.seat, drew.card == state.hand(1)[-1], sr.view(state, 2).events[-1]
(1, True, Drew(number=4, seat=1, card=None))
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TypeAlias, overload

import attrs

from .actions import End
from .cards import Card
from .melds import TableMeld
from .scoring import DealResult, Outcome

__all__ = [
    "Bought",
    "DealEnded",
    "DealStarted",
    "Discarded",
    "Drew",
    "Event",
    "GameEnded",
    "LaidOff",
    "Melded",
    "PassedBuy",
    "Restocked",
    "SeenEvents",
    "SwappedJoker",
    "TookCutCard",
    "TookUpcard",
    "UpcardOffered",
    "seen_by",
]


@attrs.frozen
class DealStarted:
    """A deal was dealt: its ``deal_number``, the ``dealer``, every seat's ``hand_sizes``,
    the ``upcard`` turned (None where the variant turns none), the ``stock_size``, and the
    face-up ``cut_card`` at the bottom of the stock where the variant has one."""

    number: int
    deal_number: int
    dealer: int
    hand_sizes: tuple[int, ...]
    upcard: Card | None
    stock_size: int
    cut_card: Card | None = None


@attrs.frozen
class Drew:
    """``seat`` drew from the stock: ``card`` is the card drawn in the drawer's own view,
    None in everyone else's."""

    number: int
    seat: int
    card: Card | None


@attrs.frozen
class TookUpcard:
    """``seat`` took the upcard ``card`` for its draw."""

    number: int
    seat: int
    card: Card


@attrs.frozen
class TookCutCard:
    """``seat`` took the face-up cut card ``card`` (it must go out by hand this turn)."""

    number: int
    seat: int
    card: Card


@attrs.frozen
class UpcardOffered:
    """The upcard ``card`` is offered for buying, to ``buyers`` in that order, before
    ``seat`` (the seat in turn) draws from the stock."""

    number: int
    seat: int
    card: Card
    buyers: tuple[int, ...]


@attrs.frozen
class Bought:
    """``seat`` bought the upcard ``card`` and took ``penalty_cards`` cards from the stock
    with it: ``penalty`` lists them in the buyer's own view, and is empty in everyone
    else's."""

    number: int
    seat: int
    card: Card
    penalty_cards: int
    penalty: tuple[Card, ...]


@attrs.frozen
class PassedBuy:
    """``seat`` declined the upcard offered to it."""

    number: int
    seat: int


@attrs.frozen
class Melded:
    """``seat`` laid ``melds`` on the table (going down, or new groups once down), as they
    lie there, with their ids."""

    number: int
    seat: int
    melds: tuple[TableMeld, ...]


@attrs.frozen
class LaidOff:
    """``seat`` laid ``card`` off on table meld ``meld_id`` (at ``end`` of a run, where it
    was asked)."""

    number: int
    seat: int
    card: Card
    meld_id: int
    end: End | None = None


@attrs.frozen
class SwappedJoker:
    """``seat`` gave ``card`` for the joker in table meld ``meld_id`` and took the joker (or,
    from a run under ``joker_swap.freed_joker=to_run_end``, the joker moved to an end of it)."""

    number: int
    seat: int
    card: Card
    meld_id: int


@attrs.frozen
class Discarded:
    """``seat`` discarded ``card``, ending its turn (or going out)."""

    number: int
    seat: int
    card: Card


@attrs.frozen
class Restocked:
    """The stock ran out: the discard pile but its top card, ``cards`` cards, was shuffled
    into a new stock."""

    number: int
    cards: int


@attrs.frozen
class DealEnded:
    """The deal ended and was scored: its ``result`` (the cards left in each hand are shown,
    as at the table)."""

    number: int
    result: DealResult


@attrs.frozen
class GameEnded:
    """The last deal was scored: the game's ``outcome``."""

    number: int
    outcome: Outcome


Event: TypeAlias = (
    DealStarted
    | Drew
    | TookUpcard
    | TookCutCard
    | UpcardOffered
    | Bought
    | PassedBuy
    | Melded
    | LaidOff
    | SwappedJoker
    | Discarded
    | Restocked
    | DealEnded
    | GameEnded
)
"""Any event (a union of the event classes)."""

EVENT_CLASSES: tuple[type, ...] = (
    DealStarted,
    Drew,
    TookUpcard,
    TookCutCard,
    UpcardOffered,
    Bought,
    PassedBuy,
    Melded,
    LaidOff,
    SwappedJoker,
    Discarded,
    Restocked,
    DealEnded,
    GameEnded,
)
"""Every event class, in the order of :data:`Event`."""


def seen_by(event: Event, seat: int | None) -> Event:
    """``event`` as ``seat`` may see it (None: a spectator, who holds no hand): another
    seat's stock draw without its card, another seat's buy without its penalty cards; any
    other event as it is.

    >>> import shanghai_rummy as sr
    >>> drew = sr.Drew(number=5, seat=1, card=sr.Card.parse("9C"))
    >>> sr.seen_by(drew, 1) is drew, sr.seen_by(drew, 0), sr.seen_by(drew, None).card
    (True, Drew(number=5, seat=1, card=None), None)
    """
    if type(event) is Drew and event.seat != seat and event.card is not None:
        return Drew(event.number, event.seat, None)
    if type(event) is Bought and event.seat != seat and event.penalty:
        return Bought(event.number, event.seat, event.card, event.penalty_cards, ())
    return event


# -- the log a state keeps ---------------------------------------------------------------------
#
# A state records its events as a chain of plain tuples, ``(previous, number, event class,
# *fields after number)``: a move adds one tuple (a few tens of nanoseconds), and the typed
# values are made only when someone reads them. The chain of a deal starts after the
# DealEnded events of the earlier deals, so it stays the size of one deal.

EventNode: TypeAlias = tuple[Any, ...]
"""One link of a state's event chain (see the comment above)."""


def chain_events(chain: EventNode | None, *, after: int = -1) -> tuple[Event, ...]:
    """The events of a chain numbered after ``after``, oldest first, as they are (hidden
    cards included)."""
    return tuple(node[2](node[1], *node[3:]) for node in _oldest_first(chain, after))


def chain_events_seen(chain: EventNode | None, seat: int | None) -> tuple[Event, ...]:
    """The events of a chain, oldest first, as ``seat`` may see them (see :func:`seen_by`)."""
    events: list[Event] = []
    for node in _oldest_first(chain):
        cls = node[2]
        if cls is Drew and node[3] != seat:
            events.append(Drew(node[1], node[3], None))
        elif cls is Bought and node[3] != seat:
            events.append(Bought(node[1], node[3], node[4], node[5], ()))
        else:
            events.append(cls(node[1], *node[3:]))
    return tuple(events)


def _oldest_first(chain: EventNode | None, after: int = -1) -> list[EventNode]:
    nodes = []
    while chain is not None and chain[1] > after:
        nodes.append(chain)
        chain = chain[0]
    nodes.reverse()
    return nodes


def chain_key(chain: EventNode | None) -> tuple[tuple[Any, ...], ...]:
    """What a chain holds, without its links: states compare and hash their logs by it (a
    chain compared as nested tuples would recurse once per event)."""
    links = []
    while chain is not None:
        links.append(chain[1:])
        chain = chain[0]
    return tuple(links)


def chain_from_key(key: Iterable[tuple[Any, ...]]) -> EventNode | None:
    """The chain whose :func:`chain_key` is ``key`` (its links' contents, newest first)."""
    chain: EventNode | None = None
    for link in reversed(tuple(key)):
        chain = (chain, *link)
    return chain


def chain_of(events: Iterable[Event]) -> EventNode | None:
    """The chain that holds ``events`` (for loading a saved state)."""
    chain: EventNode | None = None
    for event in events:
        values = tuple(getattr(event, field.name) for field in attrs.fields(type(event)))
        chain = (chain, values[0], type(event), *values[1:])
    return chain


def chain_numbers(chain: EventNode | None) -> Iterator[int]:
    """The numbers of a chain's events, newest first."""
    while chain is not None:
        yield chain[1]
        chain = chain[0]


class SeenEvents(Sequence[Event]):
    """The events one seat may see, oldest first: an immutable sequence, made into event
    values only when it is read (a bot that never looks at them pays nothing). Equal to
    another ``SeenEvents`` or a tuple of the same events.

    >>> import shanghai_rummy as sr
    >>> state = sr.new_game(sr.get_variant("rummy51"), players=2, seed=1)
    >>> seen = sr.view(state, 0).events
    >>> len(seen), seen[0].deal_number, seen == state.events
    (1, 1, True)
    """

    __slots__ = ("_chain", "_events", "_seat")

    def __init__(self, events: Iterable[Event] = ()) -> None:
        self._events: tuple[Event, ...] | None = tuple(events)
        self._chain: EventNode | None = None
        self._seat: int | None = None

    @classmethod
    def of_chain(cls, chain: EventNode | None, seat: int | None) -> SeenEvents:
        """The events of a state's chain as ``seat`` may see them, read when first used."""
        seen = cls()
        seen._events = None
        seen._chain = chain
        seen._seat = seat
        return seen

    def _values(self) -> tuple[Event, ...]:
        if self._events is None:
            self._events = chain_events_seen(self._chain, self._seat)
            self._chain = None
        return self._events

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled (and deep-copied) as its events: the chain it may still hold nests once per
        # link, past the recursion limit in a long deal
        return (SeenEvents, (self._values(),))

    def __len__(self) -> int:
        if self._events is None and self._chain is None:
            return 0
        return len(self._values())

    @overload
    def __getitem__(self, index: int) -> Event: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Event, ...]: ...
    def __getitem__(self, index: int | slice) -> Event | tuple[Event, ...]:
        return self._values()[index]

    def __iter__(self) -> Iterator[Event]:
        return iter(self._values())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SeenEvents):
            return self._values() == other._values()
        if isinstance(other, tuple):
            return self._values() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return f"SeenEvents({list(self._values())!r})"
