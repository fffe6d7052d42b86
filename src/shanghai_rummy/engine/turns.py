"""The turn cycle shared by dealing and the moves: starting a turn, offering the upcard for
buying, drawing from the stock (re-stocking when it runs out), and ending a deal; and the
steps every move shares (whose turn it is, the hand less the cards played, the history)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence

import attrs

from ..actions import Action
from ..cards import Card
from ..errors import CardNotInHandError, NotYourTurnError, WrongPhaseError
from ..levels import game_ends
from ..scoring import score_deal
from ..state import (
    GameState,
    History,
    Phase,
    advance,
    appended,
    offer_facts,
    seat_state,
    turn_start,
)
from ..variants import BuyPriority, Restock

__all__ = [
    "begin_turn",
    "buyers",
    "end_deal",
    "logged",
    "require_turn",
    "take_from_stock",
    "with_hand",
    "without_card",
    "without_cards",
]


def _restocked(state: GameState) -> GameState | None:
    """The discard pile but its top card, shuffled into the stock; None if nothing to shuffle
    or the variant does not re-stock (again)."""
    rules = state.variant.stock
    if rules.restock is not Restock.RESHUFFLE_PILE or len(state.discard_pile) < 2:
        return None
    if rules.max_restocks is not None and state.restocks >= rules.max_restocks:
        return None
    restocks = state.restocks + 1
    fresh = list(state.discard_pile[:-1])
    random.Random(f"{state.seed}/{state.deal_number}/{restocks}").shuffle(fresh)
    return attrs.evolve(
        state,
        stock=state.stock + tuple(fresh),
        discard_pile=state.discard_pile[-1:],
        restocks=restocks,
        cut_card=None,
    )


def buyers(
    state: GameState, in_turn: int, discarded_by: int | None, *, just_discarded: bool = False
) -> tuple[int, ...]:
    """The seats the upcard is offered to, in priority order (empty when nobody may buy).
    ``just_discarded``: the upcard is the discard that ``state`` does not show yet."""
    rules = state.variant.buying
    live = just_discarded or state.upcard_live
    if not rules.enabled or not live or len(state.stock) < rules.penalty_cards:
        return ()
    limit = rules.limit(state.deal_number)
    players = state.num_players
    first = state.dealer + 1 if rules.priority is BuyPriority.DEALER_LEFT else in_turn + 1
    down_may_buy = rules.down_players_may_buy
    seats = state.seats
    order = []
    for offset in range(players):
        seat = (first + offset) % players
        facts = seats[seat]
        if (
            facts.buys < limit
            and (down_may_buy or not facts.down)
            and seat != in_turn
            and seat != discarded_by
        ):
            order.append(seat)
    return tuple(order)


def begin_turn(
    state: GameState,
    seat: int,
    discarded_by: int | None,
    *,
    first: bool = False,
    hands: tuple[tuple[Card, ...], ...] | None = None,
    discard_pile: tuple[Card, ...] | None = None,
    log: History | None = None,
) -> GameState:
    """Start ``seat``'s turn: the turn limit, re-stocking, the starter's extra card, and the
    offer to buyers that comes before a down player's draw.

    ``hands``, ``discard_pile`` and ``log``, when given, are the changes of the discard that
    ended the previous turn (the discard makes the upcard live): they are applied in the same
    step, so a discard builds one new state."""
    variant = state.variant
    turns = state.turns_this_deal + 1
    past_limit = turns > variant.stock.turn_limit
    if discard_pile is not None and (past_limit or not state.stock):
        state = attrs.evolve(
            state,
            hands=state.hands if hands is None else hands,
            discard_pile=discard_pile,
            upcard_live=not variant.jokers.dead_on_the_pile(discard_pile[-1]),
            log=state.log if log is None else log,
        )
        discard_pile = None
    if past_limit:
        return end_deal(state, None)
    if not state.stock:
        refilled = _restocked(state)
        if refilled is None:
            return end_deal(state, None)
        state = refilled
    seats = list(state.seats)
    facts = seats[seat]
    down = facts.down
    seats[seat] = seat_state(down, facts.buys, facts.turns + 1)
    live = None if discard_pile is None else not variant.jokers.dead_on_the_pile(discard_pile[-1])
    phase = Phase.DRAW
    to_act = seat
    if first and variant.drawing.starter_extra_card:
        phase = Phase.PLAY
        turn_state = turn_start(True, down, False, discarded_by)
    elif (
        down
        and not variant.buying.down_player_may_block
        and (queue := buyers(state, seat, discarded_by, just_discarded=bool(live)))
    ):
        phase = Phase.BUY
        to_act = queue[0]
        turn_state = offer_facts(True, queue, False, discarded_by)
    else:
        turn_state = turn_start(False, down, False, discarded_by)
    return advance(
        state,
        phase=phase,
        to_act=to_act,
        turn=seat,
        seats=tuple(seats),
        turn_state=turn_state,
        turns_this_deal=turns,
        hands=hands,
        discard_pile=discard_pile,
        upcard_live=live,
        log=state.log if log is None else log,
    )


def take_from_stock(state: GameState, seat: int, count: int) -> GameState | None:
    """``count`` cards from the top of the stock into ``seat``'s hand, re-stocking if
    needed; None when the stock cannot supply them."""
    if len(state.stock) < count:
        refilled = _restocked(state)
        if refilled is None or len(refilled.stock) < count:
            return None
        state = refilled
    hands = list(state.hands)
    hands[seat] = hands[seat] + state.stock[:count]
    stock = state.stock[count:]
    cut_card = state.cut_card if stock else None
    return attrs.evolve(state, hands=tuple(hands), stock=stock, cut_card=cut_card)


def end_deal(state: GameState, winner: int | None) -> GameState:
    """Score the deal and move to DEAL_OVER, or GAME_OVER after the last deal."""
    variant = state.variant
    turn_state = state.turn_state
    one_turn_out = (
        winner is not None
        and not turn_state.was_down
        and (
            variant.scoring.one_turn_out_allows_lay_off_on_others
            or not turn_state.laid_off_on_others
        )
    )
    result = score_deal(
        variant.scoring,
        state.deal_number,
        state.hands,
        [facts.down for facts in state.seats],
        winner,
        one_turn_out=one_turn_out,
        used_joker=turn_state.used_joker,
        took_cut_card=turn_state.took_cut_card,
    )
    totals = tuple(
        total + points for total, points in zip(state.totals, result.points, strict=True)
    )
    last = game_ends(state)
    return attrs.evolve(
        state,
        phase=Phase.GAME_OVER if last else Phase.DEAL_OVER,
        to_act=None,
        totals=totals,
        results=(*state.results, result),
    )


def logged(state: GameState, action: Action) -> History:
    return appended(state.log, action)


def require_turn(state: GameState, seat: int, phase: Phase, verb: str) -> None:
    if state.phase is not phase:
        if state.phase in (Phase.DEAL_OVER, Phase.GAME_OVER):
            raise WrongPhaseError(
                f"cannot {verb}: the {'game' if state.phase is Phase.GAME_OVER else 'deal'} is over"
            )
        raise WrongPhaseError(
            f"cannot {verb} now: the game waits for seat {state.to_act} in phase "
            f"{state.phase.value!r}, and {verb} belongs to phase {phase.value!r}"
        )
    if seat != state.to_act or type(seat) is not int:
        raise NotYourTurnError(
            f"seat {seat!r} cannot {verb}: seat {state.to_act} is to act ({state.phase.value})"
        )


def without_cards(hand: tuple[Card, ...], cards: Iterable[Card], seat: int) -> tuple[Card, ...]:
    """``hand`` less ``cards`` (as a multiset); CardNotInHandError if it lacks any."""
    remaining = list(hand)
    for card in cards:
        if not isinstance(card, Card):
            raise CardNotInHandError(f"not a card: {card!r}")
        try:
            remaining.remove(card)
        except ValueError:
            held = Counter(hand)[card]
            wanted = (
                sum(1 for other in cards if other == card) if isinstance(cards, Sequence) else 1
            )
            raise CardNotInHandError(
                f"seat {seat} does not hold {card}"
                + (f" {wanted} times (holds {held})" if held else "")
            ) from None
    return tuple(remaining)


def without_card(hand: tuple[Card, ...], card: Card, seat: int) -> tuple[Card, ...]:
    """``hand`` less one ``card``; CardNotInHandError if it holds none (the common case of
    :func:`without_cards`, without building a list)."""
    try:
        index = hand.index(card)
    except ValueError:
        return without_cards(hand, (card,), seat)  # raises, naming the card
    return hand[:index] + hand[index + 1 :]


def with_hand(state: GameState, seat: int, hand: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    hands = list(state.hands)
    hands[seat] = hand
    return tuple(hands)
