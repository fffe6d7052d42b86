"""Game records: a whole game as the variant, the number of seats, the seed and the actions.

Every shuffle derives from the seed, so these few facts replay to the identical state. A
record is small, readable, and survives :func:`~shanghai_rummy.to_json`; the variant is
embedded, so a record stays playable when the presets change.

>>> import shanghai_rummy as sr
>>> state = sr.new_game(sr.get_variant("shanghai"), players=3, seed=5)
>>> for _ in range(12):
...     state = sr.apply(state, sr.legal_actions(state)[-1])
>>> game = sr.record(state)
>>> len(game.actions), game.players, game.seed
(12, 3, 5)
>>> sr.replay(game) == state
True
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator

import attrs

from ._arguments import expect, refuses_bad_arguments, wrong_type
from .actions import Action
from .engine import apply, next_deal
from .engine.validation import checked_first_state, refuses_bad_states
from .errors import IllegalMoveError, RummyError
from .state import GameState, Phase, StackedDeal
from .variants import Variant

__all__ = ["GameRecord", "record", "replay", "replay_states"]


def _actions(actions: Iterable[Action]) -> tuple[Action, ...]:
    return tuple(actions)


@attrs.frozen(kw_only=True)
class GameRecord:
    """A replayable game: ``new_game(variant, players, seed)`` (or the ``stacked`` deal)
    followed by ``actions``.

    Between deals the replay deals the next deal before the next action. ``deal_number`` is
    the deal the recorded game had reached (None: wherever the actions lead); it tells a game
    saved just after :func:`~shanghai_rummy.next_deal` from one saved just before it.

    >>> import shanghai_rummy as sr
    >>> game = sr.GameRecord(variant=sr.get_variant("rummy51"), players=2, seed=3)
    >>> sr.replay(game).deal_number, game.actions
    (1, ())
    """

    variant: Variant
    players: int
    seed: int
    actions: tuple[Action, ...] = attrs.field(default=(), converter=_actions)
    deal_number: int | None = None
    stacked: StackedDeal | None = None
    """The stacked deal the game began with (a game from :func:`~shanghai_rummy.deal_from`),
    or None for a game dealt from its seed."""


@refuses_bad_states
def record(state: GameState) -> GameRecord:
    """The record of the game that led to ``state``: its variant, seats, seed and history.

    A game begun with :func:`~shanghai_rummy.deal_from` keeps its stacked deal in the
    record (``stacked``), and replays from it.

    >>> import shanghai_rummy as sr
    >>> state = sr.new_game(sr.get_variant("shanghai"), players=4, seed=7)
    >>> sr.record(sr.draw(state, 1, sr.Source.STOCK)).actions
    (Draw(seat=1, source=<Source.STOCK: 'stock'>),)
    """
    return GameRecord(
        variant=state.variant,
        players=state.num_players,
        seed=state.seed,
        actions=state.history,
        deal_number=state.deal_number,
        stacked=state.stacked,
    )


@refuses_bad_arguments
def replay(game: GameRecord, steps: int | None = None) -> GameState:
    """Play the record from its first deal: the state after its first ``steps`` actions (all
    of them by default). Before an action that comes after a deal ended, the next deal is
    dealt. An action the rules refuse raises the same error as :func:`~shanghai_rummy.apply`,
    its message prefixed with the action's index in the record.

    >>> import shanghai_rummy as sr
    >>> bad = sr.GameRecord(
    ...     variant=sr.get_variant("shanghai"),
    ...     players=4,
    ...     seed=7,
    ...     actions=[sr.Draw(0, sr.Source.STOCK)],
    ... )
    >>> sr.replay(bad)
    Traceback (most recent call last):
    ...
    shanghai_rummy.errors.NotYourTurnError: record action #0 Draw(seat=0, ...): seat 0 cannot ...
    """
    _check_arguments(game, steps, "replay")
    return deque(replay_states(game, steps), maxlen=1)[0]  # the last state


def _check_arguments(game: GameRecord, steps: int | None, function: str) -> None:
    expect(game, GameRecord, function, "game")
    if steps is not None and type(steps) is not int:
        raise wrong_type(function, "steps", "an integer or None", steps)


def replay_states(game: GameRecord, steps: int | None = None) -> Iterator[GameState]:
    """Every state :func:`replay` passes through, in order: the first deal dealt, the state
    after each action, and each next deal dealt (for what needs each step, such as the events
    of every deal)."""
    _check_arguments(game, steps, "replay_states")
    actions = game.actions if steps is None else game.actions[: max(0, steps)]
    state = checked_first_state(game.variant, game.players, game.seed, game.stacked)
    yield state
    for index, action in enumerate(actions):
        if state.phase is Phase.DEAL_OVER:
            state = next_deal(state)
            yield state
        try:
            state = apply(state, action)
        except IllegalMoveError as error:
            raise type(error)(f"record action #{index} {action!r}: {error}") from error
        except RummyError as error:
            raise RummyError(f"record action #{index} {action!r}: {error}") from error
        yield state
    if steps is None or steps >= len(game.actions):
        target = game.deal_number
        while target is not None and state.phase is Phase.DEAL_OVER and state.deal_number < target:
            state = next_deal(state)
            yield state
