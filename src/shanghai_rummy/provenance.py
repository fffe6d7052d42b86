"""Where a state comes from: its seed (or its stacked deal) and its history replayed.

A game state carries what made it: the variant, the seed, the stacked deal where
:func:`~shanghai_rummy.deal_from` began the game (:attr:`GameState.stacked`), and every
action since. Replaying them must give the state itself; a forged state that keeps every
invariant (a stacked stock, a card swapped with the stock, a replaced history, a changed
seed, a deal scored anew) replays to another and is refused, naming the first field that
differs. The cost is one application of each action of the history.

>>> import attrs
>>> import shanghai_rummy as sr
>>> state = sr.new_game(sr.get_variant("shanghai"), players=3, seed=4)
>>> sr.validate(state, history=True)
>>> stacked = attrs.evolve(state, stock=tuple(sorted(state.stock, key=str)))
>>> sr.validate(stacked, history=True)
Traceback (most recent call last):
...
shanghai_rummy.errors.InvalidStateError: GameState.stock: history: the seed and the history ...
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from .engine import apply, next_deal
from .engine.dealing import first_state
from .errors import RummyError
from .events import chain_key
from .state import GameState, Phase

__all__ = ["history_problems", "replayed"]


def replayed(state: GameState) -> GameState:
    """The state the origin of ``state`` and its history give: every action applied in
    order, each next deal dealt where a deal had ended, and the deals after the last action
    up to ``state``'s. An action the rules refuse raises its error, prefixed with its index."""
    current = first_state(state.variant, state.num_players, state.seed, state.stacked)
    for index, action in enumerate(state.history):
        if current.phase is Phase.DEAL_OVER:
            current = next_deal(current)
        try:
            current = apply(current, action)
        except RummyError as error:
            raise RummyError(f"history[{index}] {action!r}: {error}") from None
    while current.phase is Phase.DEAL_OVER and current.deal_number < state.deal_number:
        current = next_deal(current)
    return current


def history_problems(state: GameState) -> Iterator[tuple[str, str]]:
    """The first field of ``state`` that its replay does not reproduce, as (path, problem);
    nothing where the replay is ``state`` itself."""
    origin = "stacked deal" if state.stacked is not None else "seed"
    try:
        replay = replayed(state)
    except RummyError as error:
        yield "history", f"history: the {origin} and the history do not replay: {error}"
        return
    if replay == state:
        return
    for field in attrs.fields(GameState):
        if field.name == "event_log" and state.event_log is None:
            continue  # saved before states carried their events: the replay gives them
        key = chain_key if field.name == "event_log" else _same  # as GameState compares
        if key(getattr(replay, field.name)) != key(getattr(state, field.name)):
            name = {"log": "history", "event_log": "events"}.get(field.name, field.name)
            yield (
                name,
                f"history: the {origin} and the history replay to another {name} "
                "(a state is what its deal and its moves made it)",
            )
            return


def _same(value: object) -> object:
    return value
