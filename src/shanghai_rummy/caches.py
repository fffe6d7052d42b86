"""Forgetting every cache at once.

The library keeps a few caches to save time: the memos of :mod:`shanghai_rummy.memo` (what a
table meld accepts, each variant's size limits and the bots' relaxed variants, the shared
seat records, the JSON Schema, the presets' data) and the solver's compiled rules of each
variant, which own the solver's memos. Each is bounded,
and none changes what a function returns, so a program never needs to clear them; a
long-running one (a server that has seen many house variants) or a measurement that wants
a cold start may.

>>> import shanghai_rummy as sr
>>> from shanghai_rummy.caches import clear_caches
>>> state = sr.new_game(sr.get_variant("shanghai"), players=3, seed=1)
>>> listed = sr.legal_actions(state)
>>> clear_caches()
>>> sr.legal_actions(state) == listed
True
"""

from __future__ import annotations

from . import solver
from .memo import MEMOS

__all__ = ["clear_caches"]


def clear_caches() -> None:
    """Empty every memo (:data:`shanghai_rummy.memo.MEMOS`) and the solver's compiled rules
    with their memos (:func:`shanghai_rummy.solver.clear_caches`). Safe at any time: the next
    calls only take longer, and give the same answers."""
    for memo in MEMOS:
        memo.clear()
    solver.clear_caches()
