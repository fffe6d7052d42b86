"""The engine: dealing, the moves, the turn cycle and the listing of legal moves.

Every move is a pure function from a state to a new state; :func:`apply` dispatches an
:data:`~shanghai_rummy.Action` to its move and :func:`legal_actions` lists the actions it
accepts. The engine does no I/O and knows no wire format, bot or screen.
"""

from __future__ import annotations

from .dealing import deal_from, new_game
from .legal import has_legal_action, legal_actions
from .moves import (
    apply,
    buy,
    discard,
    draw,
    go_out,
    lay_off,
    meld,
    next_deal,
    pass_buy,
    score,
    swap_joker,
)

__all__ = [
    "apply",
    "buy",
    "deal_from",
    "discard",
    "draw",
    "go_out",
    "has_legal_action",
    "lay_off",
    "legal_actions",
    "meld",
    "new_game",
    "next_deal",
    "pass_buy",
    "score",
    "swap_joker",
]
