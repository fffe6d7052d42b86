"""Which contract a seat works on in a deal: the one question every rule about going down
asks first.

Every seat plays deal *n*'s contract in deal *n* (``variant.deal(n).requirement``). The
engine, the views and the bots ask here rather than reading the deal's spec themselves, so
that where a seat's contract comes from is decided in one place.

>>> import shanghai_rummy as sr
>>> from shanghai_rummy.levels import contract_number, requirement_of
>>> state = sr.new_game(sr.get_variant("shanghai"), players=4, seed=7)
>>> contract_number(state, 2), requirement_of(state, 2).describe()
(1, '2 sets of 3')
"""

from __future__ import annotations

from typing import Protocol

from .contracts import Requirement
from .variants import Variant

__all__ = ["InDeal", "contract_number", "requirement_of"]


class InDeal(Protocol):
    """What these questions read: a :class:`~shanghai_rummy.GameState` or a
    :class:`~shanghai_rummy.PlayerView`."""

    @property
    def variant(self) -> Variant: ...

    @property
    def deal_number(self) -> int: ...


def contract_number(state: InDeal, seat: int) -> int:
    """The number of the deal spec (``variant.deal(number)``) whose contract ``seat`` works
    on in the deal of ``state``: the deal number."""
    return state.deal_number


def requirement_of(state: InDeal, seat: int) -> Requirement:
    """What ``seat`` must lay to go down in the deal of ``state``."""
    return state.variant.deal(contract_number(state, seat)).requirement
