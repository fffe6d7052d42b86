"""Phase draw (and the buying it may start): drawing from the stock, taking the upcard or
the cut card, buying the upcard and passing, each move beside its listing.

Choosing the stock while the upcard is live first offers the upcard to the eligible buyers
(phase BUY); the seat gets its stock card once the offer is settled.

>>> import shanghai_rummy as sr
>>> state = sr.new_game(sr.get_variant("shanghai"), players=3, seed=2)
>>> after = sr.draw(state, 1, sr.Source.DISCARD)
>>> after.phase, len(after.hand(1)), len(state.hand(1))
(<Phase.PLAY: 'play'>, 12, 11)
>>> sr.draw(after, 1, sr.Source.STOCK)
Traceback (most recent call last):
...
shanghai_rummy.errors.WrongPhaseError: cannot draw now: the game waits for seat 1 in phase ...
"""

from __future__ import annotations

from typing import Final

import attrs

from .. import event_log
from ..actions import (
    Action,
    Buy,
    Draw,
    PassBuy,
    Source,
    shared_draw,
)
from ..errors import (
    BuyNotAllowedError,
    DrawError,
)
from ..levels import contract_number
from ..limits import MAX_PLAYERS
from ..state import (
    KEEP,
    GameState,
    History,
    Phase,
    TurnState,
    advance,
    appended,
    offer_facts,
    seat_state,
    turn_start,
)
from .play_rules import (
    hand_out_possible,
    opening_possible,
)
from .turns import (
    buyers,
    end_deal,
    logged,
    require_turn,
    take_from_stock,
    with_hand,
)

__all__ = [
    "CUT_CARD_OBLIGATION",
    "apply_draw",
    "apply_drawing",
    "buy",
    "draw",
    "drawing_actions",
    "pass_buy",
    "upcard_obligation",
]


def draw(state: GameState, seat: int, source: Source) -> GameState:
    """Draw for the turn: the top of the stock, or the upcard (``Source.DISCARD``).

    Choosing the stock while the upcard is live first offers the upcard to the eligible
    buyers (phase BUY); the seat gets its stock card once the offer is settled.
    ``Source.CUT_CARD`` takes the face-up cut card (``variant.scoring.cut_card_hand``).
    """
    action = Draw(seat, source)
    return event_log.drew(state, action, _draw(state, action))


def _draw(state: GameState, action: Draw) -> GameState:
    seat = action.seat
    if state.phase is not Phase.DRAW or seat != state.to_act or type(seat) is not int:
        require_turn(state, seat, Phase.DRAW, "draw")  # raises, naming what is wrong
    source = action.source
    if source is Source.DISCARD:
        return _take_upcard(state, seat, action)
    if source is Source.CUT_CARD:
        return _take_cut_card(state, seat, action)
    if source is not Source.STOCK:
        raise DrawError(f"not a source to draw from: {source!r}")
    turn_state = state.turn_state
    log = appended(state.log, action)
    if state.upcard_live and not turn_state.offered:
        queue = buyers(state, seat, turn_state.discarded_by)
        if queue:
            return advance(
                state,
                phase=Phase.BUY,
                to_act=queue[0],
                turn_state=_offering(turn_state, queue, draw_after_buy=True),
                log=log,
            )
    return _draw_stock(state, seat, log)


def upcard_obligation(state: GameState, seat: int) -> str | None:
    """Why taking the upcard now would oblige going down this turn, or None."""
    from_turn = state.variant.drawing.upcard_obliges_going_down_from_turn
    if from_turn is None or state.seats[seat].down or state.seats[seat].turns < from_turn:
        return None
    return (
        f"taking the upcard on turn {state.seats[seat].turns} obliges going down this turn "
        f"(variant.drawing.upcard_obliges_going_down_from_turn={from_turn})"
    )


def _take_upcard(state: GameState, seat: int, action: Draw) -> GameState:
    if not state.upcard_live:
        pile = state.discard_pile
        if pile and state.variant.jokers.dead_on_the_pile(pile[-1]):
            raise DrawError(
                f"{pile[-1]} on the discard pile is a wild card discarded, dead: draw from the "
                "stock (variant.jokers.dead_wild_discards)"
            )
        raise DrawError("there is no upcard to take: draw from the stock")
    if state.seats[seat].down and not state.variant.drawing.down_players_take_upcard:
        raise DrawError(
            "a player who is down draws from the stock only "
            "(variant.drawing.down_players_take_upcard=false)"
        )
    upcard = state.discard_pile[-1]
    hands = list(state.hands)
    hands[seat] = hand = hands[seat] + (upcard,)
    obligation = upcard_obligation(state, seat)
    if obligation is not None and not opening_possible(
        state.variant, contract_number(state, seat), hand
    ):
        raise DrawError(f"{obligation}, and this hand with {upcard} cannot go down")
    before = state.turn_state  # at the draw, the turn's other facts are still unset
    return advance(
        state,
        phase=Phase.PLAY,
        to_act=seat,
        hands=tuple(hands),
        discard_pile=state.discard_pile[:-1],
        upcard_live=False,
        turn_state=(
            turn_start(True, before.was_down, before.offered, before.discarded_by)
            if obligation is None
            else TurnState(
                drawn=True,
                was_down=before.was_down,
                must_go_down=obligation,
                offered=before.offered,
                discarded_by=before.discarded_by,
            )
        ),
        log=appended(state.log, action),
    )


CUT_CARD_OBLIGATION = (
    "taking the cut card obliges going out by hand this turn: everything laid down at once "
    "(variant.scoring.cut_card_hand)"
)


def _take_cut_card(state: GameState, seat: int, action: Draw) -> GameState:
    cut_card = state.cut_card
    if cut_card is None:
        raise DrawError("there is no cut card to take (variant.scoring.cut_card_hand)")
    if state.seats[seat].down:
        raise DrawError(f"only a player not yet down may take the cut card: {CUT_CARD_OBLIGATION}")
    hand = (*state.hands[seat], cut_card)
    if not hand_out_possible(state.variant, contract_number(state, seat), hand):
        raise DrawError(f"{CUT_CARD_OBLIGATION}, and this hand with {cut_card} cannot do it")
    return attrs.evolve(
        state,
        phase=Phase.PLAY,
        to_act=seat,
        hands=with_hand(state, seat, hand),
        stock=state.stock[:-1],
        upcard_live=False,
        cut_card=None,
        turn_state=attrs.evolve(
            state.turn_state, drawn=True, must_go_out=CUT_CARD_OBLIGATION, took_cut_card=True
        ),
        log=logged(state, action),
    )


def _draw_stock(state: GameState, seat: int, log: History | None = None) -> GameState:
    """``seat`` draws the top of the stock and plays (the deal ends if none can be had)."""
    stock = state.stock
    before = state.turn_state  # at the draw, the turn's other facts are still unset
    turn_state = turn_start(True, before.was_down, before.offered, before.discarded_by)
    if stock:  # the common case, in one step
        rest = stock[1:]
        hands = list(state.hands)
        hands[seat] += stock[:1]
        return advance(
            state,
            phase=Phase.PLAY,
            to_act=seat,
            hands=tuple(hands),
            stock=rest,
            cut_card=KEEP if rest else None,
            upcard_live=False,
            turn_state=turn_state,
            log=state.log if log is None else log,
        )
    if log is not None:
        state = attrs.evolve(state, log=log)
    drawn = take_from_stock(state, seat, 1)
    if drawn is None:
        return end_deal(state, None)
    return attrs.evolve(
        drawn, phase=Phase.PLAY, to_act=seat, upcard_live=False, turn_state=turn_state
    )


def buy(state: GameState, seat: int) -> GameState:
    """Buy the upcard offered to ``seat``: it takes the upcard and the penalty cards."""
    return event_log.answered(state, Buy(seat), _buy(state, seat))


def _buy(state: GameState, seat: int) -> GameState:
    if state.phase is not Phase.BUY and state.phase not in (Phase.DEAL_OVER, Phase.GAME_OVER):
        raise BuyNotAllowedError(_no_offer(state, seat))
    _refuse_a_barred_buyer(state, seat, "buy")
    require_turn(state, seat, Phase.BUY, "buy")
    penalty = state.variant.buying.penalty_cards
    stock = state.stock
    if len(stock) < penalty:  # pragma: no cover - buyers() checks the stock
        raise BuyNotAllowedError("the stock cannot supply the penalty cards")
    rest = stock[penalty:]
    hand = (*state.hands[seat], state.discard_pile[-1], *stock[:penalty])
    facts = state.seats[seat]
    seats = list(state.seats)
    seats[seat] = seat_state(facts.down, facts.buys + 1, facts.turns)
    bought = advance(
        state,
        phase=Phase.BUY,
        to_act=seat,
        hands=with_hand(state, seat, hand),
        stock=rest,
        cut_card=KEEP if rest else None,
        discard_pile=state.discard_pile[:-1],
        upcard_live=False,
        seats=tuple(seats),
        turn_state=state.turn_state,
        log=logged(state, Buy(seat)),
    )
    return _settle_offer(bought, bought.log)


def _refuse_a_barred_buyer(state: GameState, seat: int, verb: str) -> None:
    """Raise BuyNotAllowedError for a seat the offer of the upcard leaves out (a seat merely
    later in the queue is told whose turn it is by ``_require``)."""
    if state.phase is Phase.BUY and seat != state.to_act:
        barred = _barred_buyer(state, seat)
        if barred is not None:
            raise BuyNotAllowedError(
                f"seat {seat} cannot {verb}: the upcard is offered to seat {state.to_act}, "
                f"not to seat {seat}: {barred}"
            )


def _barred_buyer(state: GameState, seat: object) -> str | None:
    """Why ``seat`` is left out of the offer of the upcard, or None (a seat later in the
    queue, or not a seat at all)."""
    if type(seat) is not int or not 0 <= seat < state.num_players:
        return None
    rules = state.variant.buying
    if seat == state.turn:
        return "the seat in turn does not buy the upcard: taking it is its draw"
    if seat == state.turn_state.discarded_by:
        return "a player may not buy their own discard"
    facts = state.seats[seat]
    limit = rules.limit(state.deal_number)
    if facts.buys >= limit:
        return (
            f"it has made {facts.buys} of its {limit} buys in deal {state.deal_number} "
            f"(variant.buying.limits={rules.limits})"
        )
    if facts.down and not rules.down_players_may_buy:
        return "a player who is down may not buy (variant.buying.down_players_may_buy=false)"
    return None


def _no_offer(state: GameState, seat: int) -> str:
    return (
        f"seat {seat} cannot buy now: the upcard is offered for buying only after the seat in "
        f"turn passes it up (phase is {state.phase.value!r})"
    )


def pass_buy(state: GameState, seat: int) -> GameState:
    """Decline the upcard offered to ``seat``; it goes to the next eligible buyer, if any."""
    return event_log.answered(state, PassBuy(seat), _pass_buy(state, seat))


def _pass_buy(state: GameState, seat: int) -> GameState:
    if state.phase is not Phase.BUY and state.phase not in (Phase.DEAL_OVER, Phase.GAME_OVER):
        raise BuyNotAllowedError(_no_offer(state, seat))
    _refuse_a_barred_buyer(state, seat, "pass")
    require_turn(state, seat, Phase.BUY, "pass")
    queue = state.turn_state.buy_queue[1:]
    log = logged(state, PassBuy(seat))
    if queue:
        return advance(
            state,
            phase=Phase.BUY,
            to_act=queue[0],
            turn_state=_offering(
                state.turn_state, queue, draw_after_buy=state.turn_state.draw_after_buy
            ),
            log=log,
        )
    return _settle_offer(state, log)


def _offering(before: TurnState, queue: tuple[int, ...], *, draw_after_buy: bool) -> TurnState:
    """The turn's facts while the upcard is offered to ``queue``: before the seat in turn
    draws, so nothing else of the turn has happened yet."""
    return offer_facts(before.was_down, queue, draw_after_buy, before.discarded_by)


def _settle_offer(state: GameState, log: History | None) -> GameState:
    """The offer is over (the upcard bought, or passed by all): the seat in turn draws from
    the stock if it chose to, else it draws now, with the upcard still live if unbought."""
    in_turn = state.turn
    before = state.turn_state  # an offer comes before the draw: no play has happened yet
    if before.draw_after_buy:
        return _draw_stock(state, in_turn, log)
    return advance(
        state,
        phase=Phase.DRAW,
        to_act=in_turn,
        turn_state=turn_start(False, before.was_down, before.offered, before.discarded_by),
        log=log,
    )


# -- the listing ---------------------------------------------------------------------------


def _usual_draws(seat: int) -> tuple[tuple[Action, ...], tuple[Action, ...]]:
    stock = shared_draw(seat, Source.STOCK)
    return ((stock,), (stock, shared_draw(seat, Source.DISCARD)))


_DRAW_CHOICES: Final = tuple(_usual_draws(seat) for seat in range(MAX_PLAYERS))
"""Each seat's usual draw listings, shared: the stock alone, and the stock or the upcard."""


def _draws(state: GameState, seat: int) -> tuple[Action, ...]:
    down = state.seats[seat].down
    drawing = state.variant.drawing
    may_take = (
        state.upcard_live
        and (not down or drawing.down_players_take_upcard)
        and (
            drawing.upcard_obliges_going_down_from_turn is None  # (the common case, at once)
            or upcard_obligation(state, seat) is None
            or opening_possible(
                state.variant,
                contract_number(state, seat),
                (*state.hands[seat], state.discard_pile[-1]),
            )
        )
    )
    cut_card = state.cut_card
    if cut_card is None or down:
        stock_only, stock_or_take = (
            _DRAW_CHOICES[seat] if 0 <= seat < MAX_PLAYERS else _usual_draws(seat)
        )
        return stock_or_take if may_take else stock_only
    actions: list[Action] = [shared_draw(seat, Source.STOCK)]
    if hand_out_possible(
        state.variant, contract_number(state, seat), (*state.hands[seat], cut_card)
    ):
        actions.append(shared_draw(seat, Source.CUT_CARD))
    if may_take:
        actions.append(shared_draw(seat, Source.DISCARD))
    return tuple(actions)


def apply_draw(state: GameState, action: Draw) -> GameState:
    """Apply a :class:`~shanghai_rummy.Draw`, with its event."""
    return event_log.drew(state, action, _draw(state, action))


def apply_drawing(state: GameState, action: Draw | Buy | PassBuy) -> GameState:
    """Apply a move of phase draw or buy, with its event."""
    if isinstance(action, Draw):
        return event_log.drew(state, action, _draw(state, action))
    if isinstance(action, Buy):
        return event_log.answered(state, action, _buy(state, action.seat))
    return event_log.answered(state, action, _pass_buy(state, action.seat))


def drawing_actions(state: GameState, seat: int) -> tuple[Action, ...]:
    """The actions of ``seat``, to act in phase draw or buy: what :func:`draw`, :func:`buy`
    and :func:`pass_buy` accept, in a stable order."""
    if state.phase is Phase.BUY:
        return _OFFER_ANSWERS[seat] if 0 <= seat < MAX_PLAYERS else (Buy(seat), PassBuy(seat))
    return _draws(state, seat)


_OFFER_ANSWERS: Final = tuple((Buy(seat), PassBuy(seat)) for seat in range(MAX_PLAYERS))
"""Each seat's listing when offered the upcard, shared: buy it or pass."""
