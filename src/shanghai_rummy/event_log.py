"""Recording what each transition did, as events in the new state's log.

A move's events follow from the move and the states before and after it: the card a stock
draw added to the hand, the melds a meld added to the table, a re-stock counted by
``restocks``, a deal scored by its phase. Recording them here, in one place, keeps the moves
themselves free of it, and costs one small tuple per event (see
:mod:`shanghai_rummy.events`).
"""

from __future__ import annotations

from collections.abc import Callable

from .actions import Buy, Discard, Draw, LayOff, Meld, PassBuy, Source, SwapJoker
from .cards import Card
from .events import (
    Bought,
    DealEnded,
    DealStarted,
    Discarded,
    Drew,
    EventNode,
    GameEnded,
    LaidOff,
    Melded,
    PassedBuy,
    Restocked,
    SwappedJoker,
    TookCutCard,
    TookUpcard,
    UpcardOffered,
)
from .state import GameState, Phase

__all__ = ["answered", "deal_chain", "discarded", "drew", "laid_off", "melded", "swapped"]

_OVER = (Phase.DEAL_OVER, Phase.GAME_OVER)


def _add(chain: EventNode | None, cls: type, *fields: object) -> EventNode:
    return (chain, 0 if chain is None else chain[1] + 1, cls, *fields)


# Each function below takes the state before a move, the move, and the state the move made,
# and returns that state with the move's events (and the engine's own steps that followed
# it) added to its log. The new state was made by the move and nobody holds it yet: the log
# is set on it in place, since making the 23-field state again would cost more than the
# rest of a draw. The common cases come first and build their one tuple directly.

_set_event_log: Callable[[GameState, EventNode | None], None] = GameState.__dict__[
    "event_log"
].__set__


def drew(before: GameState, action: Draw, after: GameState) -> GameState:
    """After a :class:`~shanghai_rummy.Draw`."""
    chain = before.event_log
    if chain is not None and after.phase is Phase.PLAY:
        source = action.source
        if source is Source.DISCARD:
            upcard = before.discard_pile[-1]
            _set_event_log(after, (chain, chain[1] + 1, TookUpcard, action.seat, upcard))
            return after
        if source is Source.STOCK and after.restocks == before.restocks:
            card = after.hands[action.seat][-1]
            _set_event_log(after, (chain, chain[1] + 1, Drew, action.seat, card))
            return after
    _set_event_log(after, _drawn(before, action.seat, after, chain, action.source))
    return after


def discarded(before: GameState, action: Discard, after: GameState) -> GameState:
    """After a :class:`~shanghai_rummy.Discard`: then what begins the next turn, a
    re-stock, an offer of the discard to buyers before a down player's draw, or the end of
    the deal."""
    chain = before.event_log
    if chain is not None and after.phase is Phase.DRAW and after.restocks == before.restocks:
        _set_event_log(after, (chain, chain[1] + 1, Discarded, action.seat, action.card))
        return after
    chain = _add(chain, Discarded, action.seat, action.card)
    if after.phase in _OVER:
        chain = _ended(after, chain)
    else:
        if after.restocks != before.restocks:
            chain = _add(chain, Restocked, after.stock_size)
        if after.phase is Phase.BUY:
            queue = after.turn_state.buy_queue
            chain = _add(chain, UpcardOffered, after.turn, action.card, queue)
    _set_event_log(after, chain)
    return after


def answered(before: GameState, action: Buy | PassBuy, after: GameState) -> GameState:
    """After a :class:`~shanghai_rummy.Buy` or a :class:`~shanghai_rummy.PassBuy`: then
    the draw from the stock the seat in turn chose, once the offer is settled."""
    seat = action.seat
    chain = before.event_log
    if isinstance(action, Buy):
        held = len(before.hands[seat]) + 1
        penalty = before.variant.buying.penalty_cards
        penalty_cards = after.hands[seat][held : held + penalty]
        chain = _add(chain, Bought, seat, before.discard_pile[-1], penalty, penalty_cards)
    else:
        chain = _add(chain, PassedBuy, seat)
    if after.phase is not Phase.BUY and before.turn_state.draw_after_buy:
        chain = _drawn(before, after.turn, after, chain, Source.STOCK)
    _set_event_log(after, chain)
    return after


def melded(before: GameState, action: Meld, after: GameState) -> GameState:
    """After a :class:`~shanghai_rummy.Meld` (the melds it added to the table)."""
    melds = after.table[len(before.table) :]
    _set_event_log(after, _ended(after, _add(before.event_log, Melded, action.seat, melds)))
    return after


def laid_off(before: GameState, action: LayOff, after: GameState) -> GameState:
    """After a :class:`~shanghai_rummy.LayOff`."""
    chain = _add(before.event_log, LaidOff, action.seat, action.card, action.meld_id, action.end)
    _set_event_log(after, _ended(after, chain))
    return after


def swapped(before: GameState, action: SwapJoker, after: GameState) -> GameState:
    """After a :class:`~shanghai_rummy.SwapJoker`."""
    chain = _add(before.event_log, SwappedJoker, action.seat, action.card, action.meld_id)
    _set_event_log(after, _ended(after, chain))  # a swap whose joker stays may go out
    return after


def _drawn(
    before: GameState, seat: int, after: GameState, chain: EventNode | None, source: Source
) -> EventNode | None:
    """The events of ``seat``'s draw from ``source``, which led from ``before`` (where the
    seat was to draw) to ``after``."""
    if source is Source.DISCARD:
        return _add(chain, TookUpcard, seat, before.discard_pile[-1])
    if source is Source.CUT_CARD:
        return _add(chain, TookCutCard, seat, before.cut_card)
    if after.phase is Phase.BUY:  # the upcard is offered before the stock card comes
        return _add(chain, UpcardOffered, seat, before.discard_pile[-1], after.turn_state.buy_queue)
    if after.phase is not Phase.PLAY:  # the stock could not supply a card
        return _ended(after, chain)
    if after.restocks != before.restocks:  # shuffled into the empty stock, then one drawn
        chain = _add(chain, Restocked, after.stock_size + 1)
    return _add(chain, Drew, seat, after.hands[seat][-1])


def _ended(after: GameState, chain: EventNode | None) -> EventNode | None:
    """``chain`` with the end of the deal (and of the game), if ``after`` is past it."""
    if after.phase not in _OVER:
        return chain
    chain = _add(chain, DealEnded, after.results[-1])
    outcome = after.outcome
    if outcome is not None:
        chain = _add(chain, GameEnded, outcome)
    return chain


def deal_chain(
    previous: EventNode | None,
    deal_number: int,
    dealer: int,
    hands: tuple[tuple[Card, ...], ...],
    upcard: Card | None,
    stock: tuple[Card, ...],
    cut_card: Card | None,
) -> EventNode:
    """The log of a deal being dealt: the DealEnded events of the earlier deals (from
    ``previous``, the last deal's log), then this deal's DealStarted."""
    ended = []
    node = previous
    while node is not None:
        if node[2] is DealEnded:
            ended.append(node)
        node = node[0]
    chain: EventNode | None = None
    for old in reversed(ended):
        chain = (chain, *old[1:])
    sizes = tuple(len(hand) for hand in hands)
    return _add_numbered(
        chain,
        0 if previous is None else previous[1] + 1,
        (DealStarted, deal_number, dealer, sizes, upcard, len(stock), cut_card),
    )


def _add_numbered(chain: EventNode | None, number: int, event: tuple[object, ...]) -> EventNode:
    return (chain, number, *event)
