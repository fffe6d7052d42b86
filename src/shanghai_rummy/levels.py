"""Which contract a seat works on in a deal: the one question every rule about going down
asks first, and the progress of progressive contracts.

Every seat plays deal *n*'s contract in deal *n* (``variant.deal(n).requirement``), unless
the variant's :attr:`~shanghai_rummy.Variant.progression` is
:attr:`~shanghai_rummy.Progression.PER_SEAT` (progressive contracts, as in Phase 10): then
the variant's deals are levels, :attr:`~shanghai_rummy.GameState.levels` says the level each
seat is on, and a seat moves to the next level after a deal in which it went down. The
engine, the views and the bots ask here rather than reading the deal's spec themselves.

>>> import shanghai_rummy as sr
>>> from shanghai_rummy.levels import contract_number, requirement_of
>>> state = sr.new_game(sr.get_variant("shanghai"), players=4, seed=7)
>>> contract_number(state, 2), requirement_of(state, 2).describe(), state.levels
(1, '2 sets of 3', ())
>>> import attrs
>>> climbing = attrs.evolve(sr.get_variant("shanghai"), progression=sr.Progression.PER_SEAT)
>>> hands = sr.parse_cards("8C 9C 10C")
>>> state = sr.deal_from(
...     climbing, hands=[[card] for card in hands], deal_number=4, levels=[1, 4, 2]
... )
>>> [requirement_of(state, seat).describe() for seat in range(3)]
['2 sets of 3', '3 sets of 3', '1 set of 3 + 1 run of 4']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from .contracts import Requirement
from .variants import Progression, Variant

__all__ = [
    "InDeal",
    "cards_dealt",
    "completed",
    "contract_number",
    "first_levels",
    "game_ends",
    "level_name",
    "next_levels",
    "requirement_of",
]


class InDeal(Protocol):
    """What these questions read: a :class:`~shanghai_rummy.GameState` or a
    :class:`~shanghai_rummy.PlayerView` (the deal number, and each seat's level)."""

    @property
    def deal_number(self) -> int: ...

    @property
    def levels(self) -> tuple[int, ...]: ...


class InGame(InDeal, Protocol):
    """A :class:`~shanghai_rummy.GameState`: also its variant, seats and whether each is
    down."""

    @property
    def variant(self) -> Variant: ...

    @property
    def num_players(self) -> int: ...

    def is_down(self, seat: int) -> bool: ...


def contract_number(state: InDeal, seat: int) -> int:
    """The number of the deal spec (``variant.deal(number)``) whose contract ``seat`` works
    on in the deal of ``state``: the seat's level under progressive contracts, else the deal
    number."""
    return state.levels[seat] if state.levels else state.deal_number


def level_name(state: InDeal, seat: int) -> str:
    """The seat's level in words for a screen (``"level 3"``); empty where the variant has
    no progressive contracts."""
    return f"level {state.levels[seat]}" if state.levels else ""


def requirement_of(state: InGame, seat: int) -> Requirement:
    """What ``seat`` must lay to go down in the deal of ``state``."""
    return state.variant.deal(contract_number(state, seat)).requirement


def first_levels(variant: Variant, players: int) -> tuple[int, ...]:
    """The levels of a game's first deal: every seat on level 1 under progressive contracts;
    empty (every seat plays the deal's contract) otherwise."""
    return (1,) * players if variant.progression is Progression.PER_SEAT else ()


def cards_dealt(variant: Variant, deal_number: int, levels: Sequence[int]) -> int:
    """How many cards each seat is dealt: the deal's own ``cards``, or under progressive
    contracts those of the highest level any seat is on."""
    if not levels:
        return variant.deal(deal_number).cards
    return max(variant.deal(level).cards for level in levels)


def completed(state: InGame) -> tuple[int, ...]:
    """How many levels each seat has completed, the deal of ``state`` counted once the seat
    has gone down in it (empty where the variant has no progressive contracts).

    >>> import attrs, shanghai_rummy as sr
    >>> climbing = attrs.evolve(sr.get_variant("shanghai"), progression=sr.Progression.PER_SEAT)
    >>> hands = [sr.parse_cards("8C"), sr.parse_cards("9C")]
    >>> completed(sr.deal_from(climbing, hands=hands, deal_number=3, levels=[3, 1]))
    (2, 0)
    """
    return tuple(level - 1 + state.is_down(seat) for seat, level in enumerate(state.levels))


def next_levels(state: InGame) -> tuple[int, ...]:
    """The levels of the deal after the one of ``state``: each seat that went down in it
    moves up a level."""
    return tuple(done + 1 for done in completed(state))


def game_ends(state: InGame) -> bool:
    """Whether the game ends with the deal of ``state``: it is the game's last deal
    (``deal_count``), or under progressive contracts a seat has completed the last level."""
    if state.deal_number >= state.variant.total_deals(state.num_players):
        return True
    return any(done >= len(state.variant.deals) for done in completed(state))
