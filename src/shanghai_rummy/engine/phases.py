"""The phases as one: an action applied by the move of its phase, the listing of the seat
to act, and whether it has a legal action. Each phase's moves and listing live together, in
:mod:`.drawing` (draw, buy, pass) and :mod:`.playing` (meld, lay off, swap, discard, go out);
the public :func:`~shanghai_rummy.apply` and :func:`~shanghai_rummy.legal_actions` of the
package add the argument checks.

>>> import shanghai_rummy as sr
>>> state = sr.new_game(sr.get_variant("shanghai"), players=4, seed=7)
>>> [str(action.source) for action in sr.legal_actions(state)]
['Source.STOCK', 'Source.DISCARD']
"""

from __future__ import annotations

from typing import Final

from ..actions import Action, Buy, Discard, Draw, GoOut, LayOff, Meld, PassBuy, SwapJoker
from ..errors import RummyError
from ..memo import Memo
from ..state import GameState, Phase
from .drawing import apply_draw, apply_drawing, drawing_actions
from .playing import apply_discard, apply_playing, has_play_action, play_actions

__all__ = ["apply_action", "has_legal_action", "list_actions"]


def apply_action(state: GameState, action: Action) -> GameState:
    """Apply any :data:`~shanghai_rummy.Action` to ``state`` by the move of its phase."""
    if type(action) is Discard:  # the commonest moves first, by their very type
        return apply_discard(state, action)
    if type(action) is Draw:
        return apply_draw(state, action)
    if isinstance(action, (Draw, Buy, PassBuy)):
        return apply_drawing(state, action)
    if isinstance(action, (Discard, LayOff, Meld, SwapJoker, GoOut)):
        return apply_playing(state, action)
    raise RummyError(f"not an action: {action!r}")


def list_actions(state: GameState) -> tuple[Action, ...]:
    """The actions :func:`~shanghai_rummy.apply` accepts from the seat to act, in a stable
    order (empty when the deal or the game is over)."""
    seat = state.to_act
    if seat is None:
        return ()
    if not 0 <= seat < len(state.hands):
        raise IndexError(f"no seat {seat!r}")  # a hand-built state: explained by validate
    if state.phase is Phase.PLAY:
        known = _PLAY_LISTINGS.get(id(state))
        if known is not None and known[0] is state:
            return known[1]
        actions = play_actions(state, seat)
        _PLAY_LISTINGS.put(id(state), (state, actions))
        return actions
    if state.phase is Phase.DRAW or state.phase is Phase.BUY:
        return drawing_actions(state, seat)
    raise TypeError(f"phase {state.phase!r} is not a Phase")  # a hand-built state: explained


_PLAY_LISTINGS: Final[Memo[int, tuple[GameState, tuple[Action, ...]]]] = Memo(
    "engine.phases.play_listings", 4
)
"""The listings of the phase-play states lately listed, by the state's identity (the state
kept with its listing): a front-end or a bot lists the state it shows, and the view of the
seat to act (:func:`~shanghai_rummy.view`) lists that state again. A draw or a buy lists a
few actions, quicker found than remembered."""


def has_legal_action(state: GameState) -> bool:
    """Whether the seat to act has a legal action, found without listing the ways to go
    down (see :func:`.playing.has_play_action`). What :func:`~shanghai_rummy.validate` asks
    of every state it loads."""
    seat = state.to_act
    if seat is None:
        return False
    if state.phase is not Phase.PLAY or not 0 <= seat < len(state.hands):
        return bool(list_actions(state))  # a buy or a draw always lists a few actions at most
    return has_play_action(state, seat)
