"""The moves: pure functions from a state to a new state.

Each transition checks the move against the rules and the variant, and either returns the
new state or raises an :class:`~shanghai_rummy.IllegalMoveError` subclass whose message names
the rule; the state it was given is never changed.

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

from collections import Counter
from collections.abc import Iterable, Sequence

import attrs

from .. import event_log
from .._arguments import refuses_bad_states
from ..actions import (
    Action,
    Buy,
    Discard,
    Draw,
    End,
    GoOut,
    LayOff,
    Meld,
    PassBuy,
    PlannedLayOff,
    Source,
    SwapJoker,
)
from ..cards import JOKER, Card
from ..errors import (
    BuyNotAllowedError,
    CardNotInHandError,
    DrawError,
    GoOutError,
    IllegalMoveError,
    InvalidMeldError,
    JokerSwapError,
    LayOffError,
    NotYourTurnError,
    RummyError,
    WrongPhaseError,
)
from ..melds import MeldKind, TableMeld
from ..scoring import DealResult
from ..state import (
    KEEP,
    GameState,
    History,
    Phase,
    TurnState,
    advance,
    played,
    seat_state,
    turn_start,
)
from ..variants import GoOutDiscard, NewMelds
from .dealing import next_deal_state
from .going_down import HALF_LAID, extends_going_down, laid_shapes, lay_toward
from .play_rules import (
    can_go_down_with_jokers,
    can_meld_a_joker,
    extend_meld,
    hand_out_possible,
    joker_lay_off_barred,
    new_melds,
    opening_possible,
    swap_barred,
    swap_in_meld,
)
from .turns import begin_turn, buyers, end_deal, take_from_stock

__all__ = [
    "apply",
    "buy",
    "discard",
    "draw",
    "go_out",
    "lay_off",
    "meld",
    "next_deal",
    "pass_buy",
    "score",
    "swap_joker",
]


def _logged(state: GameState, action: Action) -> History:
    length = 1 if state.log is None else state.log.length + 1
    return History(state.log, action, length)


def _require(state: GameState, seat: int, phase: Phase, verb: str) -> None:
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


def _without(hand: tuple[Card, ...], cards: Iterable[Card], seat: int) -> tuple[Card, ...]:
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


def _without_one(hand: tuple[Card, ...], card: Card, seat: int) -> tuple[Card, ...]:
    """``hand`` less one ``card``; CardNotInHandError if it holds none (the common case of
    :func:`_without`, without building a list)."""
    try:
        index = hand.index(card)
    except ValueError:
        return _without(hand, (card,), seat)  # raises, naming the card
    return hand[:index] + hand[index + 1 :]


def _with_hand(state: GameState, seat: int, hand: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    hands = list(state.hands)
    hands[seat] = hand
    return tuple(hands)


# -- drawing and buying ---------------------------------------------------------------------


@refuses_bad_states
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
    _require(state, seat, Phase.DRAW, "draw")
    source = action.source
    if source is Source.DISCARD:
        return _take_upcard(state, seat, action)
    if source is Source.CUT_CARD:
        return _take_cut_card(state, seat, action)
    if source is not Source.STOCK:
        raise DrawError(f"not a source to draw from: {source!r}")
    turn_state = state.turn_state
    log = _logged(state, action)
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
        raise DrawError("there is no upcard to take: draw from the stock")
    if state.seats[seat].down and not state.variant.drawing.down_players_take_upcard:
        raise DrawError(
            "a player who is down draws from the stock only "
            "(variant.drawing.down_players_take_upcard=false)"
        )
    upcard = state.discard_pile[-1]
    hand = state.hands[seat] + (upcard,)
    obligation = upcard_obligation(state, seat)
    if obligation is not None and not opening_possible(state.variant, state.deal_number, hand):
        raise DrawError(f"{obligation}, and this hand with {upcard} cannot go down")
    before = state.turn_state  # at the draw, the turn's other facts are still unset
    return advance(
        state,
        phase=Phase.PLAY,
        to_act=seat,
        hands=_with_hand(state, seat, hand),
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
        log=_logged(state, action),
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
    if not hand_out_possible(state.variant, state.deal_number, hand):
        raise DrawError(f"{CUT_CARD_OBLIGATION}, and this hand with {cut_card} cannot do it")
    return attrs.evolve(
        state,
        phase=Phase.PLAY,
        to_act=seat,
        hands=_with_hand(state, seat, hand),
        stock=state.stock[:-1],
        upcard_live=False,
        cut_card=None,
        turn_state=attrs.evolve(
            state.turn_state, drawn=True, must_go_out=CUT_CARD_OBLIGATION, took_cut_card=True
        ),
        log=_logged(state, action),
    )


def _draw_stock(state: GameState, seat: int, log: History | None = None) -> GameState:
    """``seat`` draws the top of the stock and plays (the deal ends if none can be had)."""
    stock = state.stock
    before = state.turn_state  # at the draw, the turn's other facts are still unset
    turn_state = turn_start(True, before.was_down, before.offered, before.discarded_by)
    if stock:  # the common case, in one step
        rest = stock[1:]
        return advance(
            state,
            phase=Phase.PLAY,
            to_act=seat,
            hands=_with_hand(state, seat, state.hands[seat] + stock[:1]),
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


@refuses_bad_states
def buy(state: GameState, seat: int) -> GameState:
    """Buy the upcard offered to ``seat``: it takes the upcard and the penalty cards."""
    return event_log.answered(state, Buy(seat), _buy(state, seat))


def _buy(state: GameState, seat: int) -> GameState:
    if state.phase is not Phase.BUY and state.phase not in (Phase.DEAL_OVER, Phase.GAME_OVER):
        raise BuyNotAllowedError(_no_offer(state, seat))
    _refuse_a_barred_buyer(state, seat, "buy")
    _require(state, seat, Phase.BUY, "buy")
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
        hands=_with_hand(state, seat, hand),
        stock=rest,
        cut_card=KEEP if rest else None,
        discard_pile=state.discard_pile[:-1],
        upcard_live=False,
        seats=tuple(seats),
        turn_state=state.turn_state,
        log=_logged(state, Buy(seat)),
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


@refuses_bad_states
def pass_buy(state: GameState, seat: int) -> GameState:
    """Decline the upcard offered to ``seat``; it goes to the next eligible buyer, if any."""
    return event_log.answered(state, PassBuy(seat), _pass_buy(state, seat))


def _pass_buy(state: GameState, seat: int) -> GameState:
    if state.phase is not Phase.BUY and state.phase not in (Phase.DEAL_OVER, Phase.GAME_OVER):
        raise BuyNotAllowedError(_no_offer(state, seat))
    _refuse_a_barred_buyer(state, seat, "pass")
    _require(state, seat, Phase.BUY, "pass")
    queue = state.turn_state.buy_queue[1:]
    log = _logged(state, PassBuy(seat))
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
    return TurnState(
        was_down=before.was_down,
        buy_queue=queue,
        draw_after_buy=draw_after_buy,
        offered=True,
        discarded_by=before.discarded_by,
    )


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


# -- playing --------------------------------------------------------------------------------


def _after_play(state: GameState, seat: int, verb: str) -> GameState:
    """Apply the going-out rule once a play has left ``seat`` with its hand."""
    hand = state.hands[seat]
    rule = state.variant.going_out
    if len(hand) < 2 and _going_down_turn_without_out(state, seat):
        raise GoOutError(
            f"cannot {verb} that: a player may not go out on the turn they go down, so this "
            "turn must end with a discard that leaves a card in hand "
            "(variant.going_down.out_same_turn=false)"
        )
    if not hand:
        if rule is GoOutDiscard.REQUIRED:
            raise GoOutError(
                f"cannot {verb} your last card: you go out only by discarding it "
                "(variant.going_out=required)"
            )
        _check_obligations(state, "go out", going_out=True)
        return end_deal(state, seat)
    must_go_out = state.turn_state.must_go_out
    half_laid = not state.seats[seat].down  # a going down begun: its checks were made
    if (
        must_go_out is not None
        and not half_laid
        and len(hand) > (1 if rule is not GoOutDiscard.NEVER else 0)
        and not _goes_out_joining(state, seat, hand)
    ):
        raise GoOutError(f"cannot {verb} that: {must_go_out}, but cards would be left over")
    owed = state.turn_state.jokers_to_meld
    if owed and not half_laid and not _joker_obligation_feasible(state, seat, hand, owed):
        raise JokerSwapError(
            f"cannot {verb} that: the joker taken by a swap must still go into a new group "
            "this turn (variant.joker_swap.joker_into_new_meld), and this would leave no way to"
        )
    if len(hand) == 1 and rule is GoOutDiscard.NEVER and not _can_play_on(state, seat):
        raise GoOutError(
            f"cannot {verb} down to one card you can neither play nor discard: you go out only "
            "by playing every card (variant.going_out=never); keep two and discard one"
        )
    return state


def _going_down_turn_without_out(state: GameState, seat: int) -> bool:
    """Whether ``seat`` is down and went down this turn, where the variant forbids going out
    on that turn (``variant.going_down.out_same_turn``)."""
    return (
        not state.variant.going_down.out_same_turn
        and state.seats[seat].down
        and not state.turn_state.was_down
    )


def _goes_out_joining(state: GameState, seat: int, hand: tuple[Card, ...]) -> bool:
    """Whether ``hand`` can still go out by groups joining the seat's going down, met and
    still open this turn (an opening, a contract without ``exact_meld_count``)."""
    if not state.turn_state.going_down:
        return False
    laid = laid_shapes(state)
    return hand_out_possible(state.variant, state.deal_number, hand, laid)


def _can_play_on(state: GameState, seat: int) -> bool:
    """Whether ``seat``, holding one card it may not discard, has a play left this turn."""
    from .legal import legal_actions

    return any(not isinstance(action, Discard) for action in legal_actions(state))


@refuses_bad_states
def meld(
    state: GameState,
    seat: int,
    groups: Sequence[Sequence[Card]],
    kinds: Sequence[MeldKind | None] = (),
) -> GameState:
    """Lay down groups: going down with the deal's contract (or opening) when not yet down,
    else new groups where ``variant.going_down.new_melds`` allows. ``kinds`` names how each
    group is read where it reads both as a set and as a run (see :class:`~shanghai_rummy.Meld`)."""
    _require(state, seat, Phase.PLAY, "meld")
    action = Meld(seat, groups, kinds)
    return event_log.melded(state, action, _meld(state, action))


def _meld(state: GameState, action: Meld) -> GameState:
    seat = action.seat
    _require(state, seat, Phase.PLAY, "meld")
    groups = action.groups
    if not groups:
        raise InvalidMeldError("meld needs at least one group of cards")
    for index, group in enumerate(groups, start=1):
        if not group:  # refused, not skipped: an empty group is most likely a slip
            raise InvalidMeldError(
                f"meld: group {index} of {len(groups)} is empty: every group needs its cards"
            )
    kinds = action.kinds
    if kinds and len(kinds) != len(groups):
        raise InvalidMeldError(
            f"meld: {len(groups)} group(s) but {len(kinds)} kind(s): name one kind per group "
            "(None where it reads one way only), or none"
        )
    cards = [card for group in groups for card in group]
    hand = _without(state.hands[seat], cards, seat)
    variant = state.variant
    facts = state.seats[seat]
    turn_state = state.turn_state
    toward = None
    if not facts.down or turn_state.going_down:
        toward = _toward_going_down(state, seat, groups, hand, kinds)
    going_down: tuple[int, ...] = ()
    down = True
    if toward is not None:
        melds, down, going_down = toward
    else:
        rule = variant.going_down.new_melds
        if rule is NewMelds.NEVER:
            raise InvalidMeldError(
                "a player who is down may not lay down new groups "
                "(variant.going_down.new_melds=never)"
            )
        if rule is NewMelds.LATER_TURNS and not turn_state.was_down:
            raise InvalidMeldError(
                "new groups may be laid down only on a later turn than going down "
                "(variant.going_down.new_melds=later_turns)"
            )
        melds = new_melds(variant, groups, seat, state.next_meld_id, kinds)
    jokers = cards.count(JOKER)
    seats = list(state.seats)
    seats[seat] = seat_state(down, facts.buys, facts.turns)
    after = advance(
        state,
        phase=Phase.PLAY,
        to_act=seat,
        hands=_with_hand(state, seat, hand),
        table=state.table + melds,
        next_meld_id=state.next_meld_id + len(melds),
        seats=tuple(seats),
        turn_state=played(
            turn_state,
            must_go_down=None if down else turn_state.must_go_down or HALF_LAID,
            jokers_to_meld=max(0, turn_state.jokers_to_meld - jokers),
            used_joker=turn_state.used_joker or jokers > 0,
            going_down=going_down,
        ),
        log=_logged(state, action),
    )
    return _after_play(after, seat, "meld")


def _toward_going_down(
    state: GameState,
    seat: int,
    groups: Sequence[Sequence[Card]],
    hand: tuple[Card, ...],
    kinds: Sequence[MeldKind | None],
) -> tuple[tuple[TableMeld, ...], bool, tuple[int, ...]] | None:
    """The melds of ``groups`` laid toward the seat's going down, whether it is then down,
    and the ids of the going down still open; None where the seat is down and they do not
    join its going down."""
    variant = state.variant
    turn_state = state.turn_state
    jokers = sum(1 for group in groups for card in group if card.is_joker)
    owed = max(0, turn_state.jokers_to_meld - jokers)
    laid = lay_toward(state, seat, groups, hand, owed, kinds)
    if laid is None:
        return None
    shapes, down = laid
    next_id = state.next_meld_id
    melds = tuple(shape.on_table(next_id + offset, seat) for offset, shape in enumerate(shapes))
    ids = turn_state.going_down + tuple(table_meld.id for table_meld in melds)
    requirement = variant.deal(state.deal_number).requirement
    if down and not extends_going_down(variant, requirement):
        ids = ()
    return melds, down, ids


def _find_meld(state: GameState, meld_id: int, error: type[IllegalMoveError]) -> int:
    for index, table_meld in enumerate(state.table):
        if table_meld.id == meld_id:
            return index
    ids = ", ".join(str(table_meld.id) for table_meld in state.table) or "none"
    raise error(f"there is no meld #{meld_id} on the table (meld ids: {ids})")


@refuses_bad_states
def lay_off(
    state: GameState, seat: int, card: Card, meld_id: int, end: End | None = None
) -> GameState:
    """Lay ``card`` off on table meld ``meld_id`` (any player's); ``end`` picks the end of a
    run where both would take it."""
    action = LayOff(seat, card, meld_id, end)
    return event_log.laid_off(state, action, _lay_off(state, seat, card, meld_id, end))


def _lay_off(
    state: GameState, seat: int, card: Card, meld_id: int, end: End | None = None
) -> GameState:
    _require(state, seat, Phase.PLAY, "lay off")
    variant = state.variant
    turn_state = state.turn_state
    if not state.seats[seat].down:
        raise LayOffError("only a player who is down may lay off cards")
    if not turn_state.was_down and not variant.going_down.lay_off_same_turn:
        raise LayOffError(
            "cannot lay off on the turn you went down: only on later turns "
            "(variant.going_down.lay_off_same_turn=false)"
        )
    hand = _without(state.hands[seat], (card,), seat)
    index = _find_meld(state, meld_id, LayOffError)
    target = state.table[index]
    if turn_state.must_go_out is not None and target.owner != seat:
        raise LayOffError(f"{turn_state.must_go_out}: no lay-offs on other players' groups")
    barred = joker_lay_off_barred(variant, target, card, seat, turn_state.was_down)
    if barred is not None:
        raise LayOffError(barred)
    extended = extend_meld(variant, target, card, end)
    table = list(state.table)
    table[index] = extended
    after = advance(
        state,
        phase=Phase.PLAY,
        to_act=seat,
        hands=_with_hand(state, seat, hand),
        table=tuple(table),
        turn_state=played(
            turn_state,
            laid_off_on_others=turn_state.laid_off_on_others or target.owner != seat,
            used_joker=turn_state.used_joker or card.is_joker,
            going_down=(),  # a move of another kind: the going down takes no more groups
        ),
        log=_logged(state, LayOff(seat, card, meld_id, end)),
    )
    return _after_play(after, seat, "lay off")


@refuses_bad_states
def swap_joker(state: GameState, seat: int, card: Card, meld_id: int) -> GameState:
    """Give natural ``card`` for the joker in meld ``meld_id`` that stands for it; the joker
    joins the hand, with the obligations ``variant.joker_swap`` sets."""
    action = SwapJoker(seat, card, meld_id)
    return event_log.swapped(state, action, _swap_joker(state, seat, card, meld_id))


def _swap_joker(state: GameState, seat: int, card: Card, meld_id: int) -> GameState:
    _require(state, seat, Phase.PLAY, "swap a joker")
    variant = state.variant
    rules = variant.joker_swap
    facts = state.seats[seat]
    barred = swap_barred(variant, facts.down, state.turn_state.was_down)
    if barred is not None:
        raise JokerSwapError(barred)
    if not isinstance(card, Card) or card.is_joker:
        raise JokerSwapError(f"a joker is swapped for the natural card it stands for, not {card}")
    hand = (*_without(state.hands[seat], (card,), seat), JOKER)
    index = _find_meld(state, meld_id, JokerSwapError)
    swapped = swap_in_meld(variant, state.table[index], card)
    table = list(state.table)
    table[index] = swapped
    refusal = swap_refusal(state, seat, hand, tuple(table))
    if refusal is not None:
        raise JokerSwapError(refusal)
    turn_state = state.turn_state
    must_go_down = turn_state.must_go_down
    if not facts.down and rules.must_go_down_same_turn:
        must_go_down = SWAP_GO_DOWN_OBLIGATION
    jokers_to_meld = turn_state.jokers_to_meld + (1 if rules.joker_into_new_meld else 0)
    after = advance(
        state,
        phase=Phase.PLAY,
        to_act=seat,
        hands=_with_hand(state, seat, hand),
        table=tuple(table),
        turn_state=played(
            turn_state,
            must_go_down=must_go_down,
            jokers_to_meld=jokers_to_meld,
            # a half-laid going down stays open (it must be finished); a met one takes no more
            going_down=None if not facts.down else (),
        ),
        log=_logged(state, SwapJoker(seat, card, meld_id)),
    )
    if len(hand) == 1 and variant.going_out is GoOutDiscard.NEVER and not _can_play_on(after, seat):
        raise JokerSwapError(
            "cannot swap your last card for a joker you could neither play nor discard: you go "
            "out only by playing every card (variant.going_out=never)"
        )
    return after


SWAP_GO_DOWN_OBLIGATION = (
    "you swapped a joker while not down, so you must go down this turn "
    "(variant.joker_swap.must_go_down_same_turn)"
)


def swap_refusal(
    state: GameState,
    seat: int,
    hand: tuple[Card, ...],
    table: tuple[TableMeld, ...] | None = None,
) -> str | None:
    """Why a joker swap the meld allows is still refused, ``hand`` being the seat's hand
    after it (the joker in, the card out) and ``table`` the table after it (None: as it is):
    the obligations ``variant.joker_swap`` would leave, or an obligation to go down the turn
    already has (taking the upcard), could not be met this turn. None when the swap stands.
    Shared by :func:`swap_joker` and :func:`~shanghai_rummy.legal_actions`."""
    rules = state.variant.joker_swap
    if not state.seats[seat].down:
        # the swap's own obligation, or one the turn already has (taking the upcard)
        obligation = SWAP_GO_DOWN_OBLIGATION if rules.must_go_down_same_turn else None
        obligation = state.turn_state.must_go_down or obligation
        laid = laid_shapes(state)
        if obligation is not None and not opening_possible(
            state.variant, state.deal_number, hand, laid, state.table if table is None else table
        ):
            finish = "finish going down" if laid else "go down"
            return f"{obligation}, and this hand with the joker cannot {finish}: swap refused"
    if rules.joker_into_new_meld:
        reason = (
            "the joker must go into a new group this turn (variant.joker_swap.joker_into_new_meld)"
        )
        if not _may_lay_new_group(state, seat):
            return f"{reason}, and you may not lay down a new group this turn"
        owed = state.turn_state.jokers_to_meld + 1
        if not _joker_obligation_feasible(state, seat, hand, owed):
            return f"{reason}, and this hand cannot make a group with it"
    return None


def _joker_obligation_feasible(
    state: GameState, seat: int, hand: tuple[Card, ...], owed: int
) -> bool:
    """Whether ``seat`` can still lay ``owed`` swapped jokers in new groups this turn: in its
    going down while not down, or in groups joining a going down met this turn that may
    still take more (an opening, a contract without ``exact_meld_count``), or as new groups
    once down (where allowed this turn)."""
    variant = state.variant
    laid = laid_shapes(state)
    if not state.seats[seat].down or (
        laid and extends_going_down(variant, variant.deal(state.deal_number).requirement)
    ):
        if can_go_down_with_jokers(variant, state.deal_number, hand, owed, laid):
            return True
        if not state.seats[seat].down:
            return False
    going_down_turn = not state.turn_state.was_down
    return _may_lay_new_group(state, seat) and can_meld_a_joker(
        variant, hand, owed, going_down_turn
    )


def _may_lay_new_group(state: GameState, seat: int) -> bool:
    if not state.seats[seat].down:
        return True
    rule = state.variant.going_down.new_melds
    return rule is NewMelds.SAME_TURN or (
        rule is NewMelds.LATER_TURNS and state.turn_state.was_down
    )


def _check_obligations(state: GameState, verb: str, *, going_out: bool = False) -> None:
    turn_state = state.turn_state
    if turn_state.must_go_out is not None and not going_out:
        raise GoOutError(f"cannot {verb} without going out: {turn_state.must_go_out}")
    if turn_state.must_go_down is not None:
        raise GoOutError(f"cannot {verb} yet: {turn_state.must_go_down}")
    if turn_state.jokers_to_meld:
        raise GoOutError(
            f"cannot {verb} yet: {turn_state.jokers_to_meld} joker(s) taken by a swap must go "
            "into a new group this turn (variant.joker_swap.joker_into_new_meld)"
        )


@refuses_bad_states
def discard(state: GameState, seat: int, card: Card) -> GameState:
    """Discard ``card``, ending the turn; discarding the last card goes out where the variant
    allows it."""
    action = Discard(seat, card)
    return event_log.discarded(state, action, _discard(state, action))


def _discard(state: GameState, action: Discard) -> GameState:
    seat = action.seat
    _require(state, seat, Phase.PLAY, "discard")
    card = action.card
    hand = _without_one(state.hands[seat], card, seat)
    turn_state = state.turn_state
    if (
        turn_state.must_go_out is not None
        or turn_state.must_go_down is not None
        or turn_state.jokers_to_meld
    ):
        _check_obligations(state, "discard", going_out=not hand)
    hands = _with_hand(state, seat, hand)
    discard_pile = state.discard_pile + (card,)  # noqa: RUF005 - a C copy, twice as fast
    log = _logged(state, action)
    if not hand:
        if _going_down_turn_without_out(state, seat):
            raise GoOutError(
                "cannot discard your last card: a player may not go out on the turn they go "
                "down (variant.going_down.out_same_turn=false)"
            )
        if state.variant.going_out is GoOutDiscard.NEVER:
            raise GoOutError(
                "cannot discard your last card: you go out only by melding or laying off "
                "every card (variant.going_out=never)"
            )
        ended = attrs.evolve(
            state, hands=hands, discard_pile=discard_pile, upcard_live=True, log=log
        )
        return end_deal(ended, seat)
    return begin_turn(
        state,
        (seat + 1) % state.num_players,
        seat,
        hands=hands,
        discard_pile=discard_pile,
        log=log,
    )


@refuses_bad_states
def go_out(
    state: GameState,
    seat: int,
    groups: Sequence[Sequence[Card]] = (),
    lay_offs: Iterable[object] = (),
    discard: Card | None = None,
    kinds: Sequence[MeldKind | None] = (),
) -> GameState:
    """Go out in one atomic move: ``groups`` laid down (going down, or new groups), then the
    ``lay_offs`` (``PlannedLayOff`` values or ``(card, meld_id[, end])`` tuples; melds laid by
    this move get the next ids in order), then the ``discard``. Either the deal ends with
    ``seat`` out, or GoOutError and nothing changes."""
    action = GoOut(seat, groups, tuple(_planned(item) for item in lay_offs), discard, kinds)
    _require(state, seat, Phase.PLAY, "go out")
    current = state
    if action.groups:
        current = meld(current, seat, action.groups, action.kinds)
    for planned in action.lay_offs:
        if current.phase is not Phase.PLAY:
            raise GoOutError("the hand was empty before every lay-off was made")
        current = lay_off(current, seat, planned.card, planned.meld_id, planned.end)
    if action.discard is not None:
        if current.phase is not Phase.PLAY:
            raise GoOutError("the hand was empty before the discard")
        current = apply(current, Discard(seat, action.discard))
    if current.phase not in (Phase.DEAL_OVER, Phase.GAME_OVER) or (
        current.results and current.results[-1].winner != seat
    ):
        left = len(current.hands[seat])
        raise GoOutError(f"these moves do not go out: seat {seat} would hold {left} card(s)")
    return attrs.evolve(current, log=_logged(state, action))


def _planned(item: object) -> PlannedLayOff:
    if isinstance(item, PlannedLayOff):
        return item
    if isinstance(item, (tuple, list)) and 2 <= len(item) <= 3:
        return PlannedLayOff(*item)
    raise RummyError(f"a lay-off is PlannedLayOff(card, meld_id, end) or a tuple, not {item!r}")


# -- between deals --------------------------------------------------------------------------


@refuses_bad_states
def score(state: GameState) -> DealResult:
    """The result of the deal that just ended: points per seat and why. Totals include it."""
    if state.phase not in (Phase.DEAL_OVER, Phase.GAME_OVER) or not state.results:
        raise WrongPhaseError(f"no deal to score: the deal is still in phase {state.phase.value!r}")
    return state.results[-1]


@refuses_bad_states
def next_deal(state: GameState) -> GameState:
    """Deal the next deal (the dealer moves one seat left, the next contract applies)."""
    if state.phase is Phase.GAME_OVER:
        raise WrongPhaseError("the game is over: there is no next deal")
    if state.phase is not Phase.DEAL_OVER:
        raise WrongPhaseError(
            f"the deal is still in progress (phase {state.phase.value!r}): finish it first"
        )
    return next_deal_state(state)


@refuses_bad_states
def apply(state: GameState, action: Action) -> GameState:
    """Apply any :data:`~shanghai_rummy.Action` to ``state``."""
    if isinstance(action, Draw):
        return event_log.drew(state, action, _draw(state, action))
    if isinstance(action, Discard):
        return event_log.discarded(state, action, _discard(state, action))
    if isinstance(action, LayOff):
        after = _lay_off(state, action.seat, action.card, action.meld_id, action.end)
        return event_log.laid_off(state, action, after)
    if isinstance(action, Meld):
        return event_log.melded(state, action, _meld(state, action))
    if isinstance(action, Buy):
        return event_log.answered(state, action, _buy(state, action.seat))
    if isinstance(action, PassBuy):
        return event_log.answered(state, action, _pass_buy(state, action.seat))
    if isinstance(action, SwapJoker):
        after = _swap_joker(state, action.seat, action.card, action.meld_id)
        return event_log.swapped(state, action, after)
    if isinstance(action, GoOut):
        return go_out(
            state, action.seat, action.groups, action.lay_offs, action.discard, action.kinds
        )
    raise RummyError(f"not an action: {action!r}")
