"""Phase play: going down, new groups, lay-offs, joker swaps, the discard that ends the turn
and going out at once, each move beside its listing.

The listing is exact for discarding, laying off and swapping; going down is listed group by
group: every distinct single group (equal cards interchangeable, a joker's place in a run
saying what it stands for) that starts or continues a going down the rest of the hand can
finish this turn, or joins one that is met and still open
(:mod:`~shanghai_rummy.engine.going_down`); for new groups after going down, every single
group the hand can form. The list grows with the groups a hand can form, never with the ways
of combining them. A :class:`~shanghai_rummy.GoOut` is never listed: the same result is
reached by the moves it is made of.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

import attrs

from .. import event_log
from ..actions import (
    Action,
    Discard,
    End,
    GoOut,
    LayOff,
    Meld,
    PlannedLayOff,
    SwapJoker,
    shared_discards,
)
from ..cards import JOKER, Card, sort_cards
from ..collector import CollectorPaused
from ..errors import (
    GoOutError,
    IllegalMoveError,
    InvalidMeldError,
    JokerSwapError,
    LayOffError,
    RummyError,
)
from ..levels import contract_number, requirement_of
from ..melds import MeldKind, TableMeld, joker_kept_in_run
from ..memo import Memo
from ..state import (
    GameState,
    Phase,
    advance,
    appended,
    played,
    seat_state,
)
from ..variants import GoOutDiscard, NewMelds
from .going_down import (
    HALF_LAID,
    extends_going_down,
    finish_refusal,
    group_options,
    laid_shapes,
    lay_toward,
    obligation_options,
)
from .play_rules import (
    TableSource,
    can_go_down_with_jokers,
    can_meld_a_joker,
    extend_meld,
    hand_out_possible,
    joker_lay_off_barred,
    lay_off_options,
    new_group_options,
    new_melds,
    opening_possible,
    swap_barred,
    swap_in_meld,
    swap_options,
)
from .turns import (
    begin_turn,
    end_deal,
    logged,
    require_turn,
    with_hand,
    without_card,
    without_cards,
)

__all__ = [
    "SWAP_GO_DOWN_OBLIGATION",
    "apply_discard",
    "apply_playing",
    "discard",
    "go_out",
    "has_play_action",
    "lay_off",
    "meld",
    "play_actions",
    "swap_joker",
    "swap_refusal",
]


def _after_play(state: GameState, seat: int, verb: str) -> GameState:
    """Apply the going-out rule once a play has left ``seat`` with its hand."""
    hand = state.hands[seat]
    rule = state.variant.going_out_in(state.deal_number)
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
    return hand_out_possible(state.variant, contract_number(state, seat), hand, laid)


def _can_play_on(state: GameState, seat: int) -> bool:
    """Whether ``seat``, holding one card it may not discard, has a play left this turn:
    an action of :func:`play_actions` other than a discard, the listing stopped at the
    first part that has one."""
    plays = _Plays(state, seat)
    down = state.seats[seat].down
    if not down or state.turn_state.going_down:
        plays.going_down()
        if plays.actions:
            return True
    return plays.any_once_down_or_swap(down)


def meld(
    state: GameState,
    seat: int,
    groups: Sequence[Sequence[Card]],
    kinds: Sequence[MeldKind | None] = (),
) -> GameState:
    """Lay down groups: going down with the deal's contract (or opening) when not yet down,
    else new groups where ``variant.going_down.new_melds`` allows. ``kinds`` names how each
    group is read where it reads both as a set and as a run (see :class:`~shanghai_rummy.Meld`)."""
    require_turn(state, seat, Phase.PLAY, "meld")
    action = Meld(seat, groups, kinds)
    return event_log.melded(state, action, _meld(state, action))


def _meld(state: GameState, action: Meld) -> GameState:
    seat = action.seat
    require_turn(state, seat, Phase.PLAY, "meld")
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
    hand = without_cards(state.hands[seat], cards, seat)
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
        hands=with_hand(state, seat, hand),
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
        log=logged(state, action),
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
    requirement = requirement_of(state, seat)
    if down and not extends_going_down(variant, requirement):
        ids = ()
    return melds, down, ids


def _find_meld(state: GameState, meld_id: int, error: type[IllegalMoveError]) -> int:
    for index, table_meld in enumerate(state.table):
        if table_meld.id == meld_id:
            return index
    ids = ", ".join(str(table_meld.id) for table_meld in state.table) or "none"
    raise error(f"there is no meld #{meld_id} on the table (meld ids: {ids})")


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
    require_turn(state, seat, Phase.PLAY, "lay off")
    variant = state.variant
    turn_state = state.turn_state
    if not state.seats[seat].down:
        raise LayOffError("only a player who is down may lay off cards")
    if not turn_state.was_down and not variant.going_down.lay_off_same_turn:
        raise LayOffError(
            "cannot lay off on the turn you went down: only on later turns "
            "(variant.going_down.lay_off_same_turn=false)"
        )
    hand = without_cards(state.hands[seat], (card,), seat)
    index = _find_meld(state, meld_id, LayOffError)
    target = state.table[index]
    if turn_state.must_go_out is not None and target.owner != seat:
        raise LayOffError(f"{turn_state.must_go_out}: no lay-offs on other players' groups")
    barred = joker_lay_off_barred(variant, target, card, seat, turn_state.was_down, end)
    if barred is not None:
        raise LayOffError(barred)
    extended = extend_meld(variant, target, card, end)
    table = list(state.table)
    table[index] = extended
    after = advance(
        state,
        phase=Phase.PLAY,
        to_act=seat,
        hands=with_hand(state, seat, hand),
        table=tuple(table),
        turn_state=played(
            turn_state,
            laid_off_on_others=turn_state.laid_off_on_others or target.owner != seat,
            used_joker=turn_state.used_joker or card.is_joker,
            going_down=(),  # a move of another kind: the going down takes no more groups
        ),
        log=logged(state, LayOff(seat, card, meld_id, end)),
    )
    return _after_play(after, seat, "lay off")


def swap_joker(state: GameState, seat: int, card: Card, meld_id: int) -> GameState:
    """Give natural ``card`` for the joker in meld ``meld_id`` that stands for it; the joker
    joins the hand, with the obligations ``variant.joker_swap`` sets."""
    action = SwapJoker(seat, card, meld_id)
    return event_log.swapped(state, action, _swap_joker(state, seat, card, meld_id))


def _swap_joker(state: GameState, seat: int, card: Card, meld_id: int) -> GameState:
    require_turn(state, seat, Phase.PLAY, "swap a joker")
    variant = state.variant
    rules = variant.joker_swap
    facts = state.seats[seat]
    barred = swap_barred(variant, facts.down, state.turn_state.was_down)
    if barred is not None:
        raise JokerSwapError(barred)
    if not isinstance(card, Card) or card.is_joker:
        raise JokerSwapError(f"a joker is swapped for the natural card it stands for, not {card}")
    rest = without_cards(state.hands[seat], (card,), seat)
    index = _find_meld(state, meld_id, JokerSwapError)
    if joker_kept_in_run(state.table[index], variant):
        return _swap_keeping_joker(state, seat, card, index)
    hand = (*rest, JOKER)
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
        hands=with_hand(state, seat, hand),
        table=tuple(table),
        turn_state=played(
            turn_state,
            must_go_down=must_go_down,
            jokers_to_meld=jokers_to_meld,
            # a half-laid going down stays open (it must be finished); a met one takes no more
            going_down=None if not facts.down else (),
        ),
        log=logged(state, SwapJoker(seat, card, meld_id)),
    )
    never = variant.going_out_in(state.deal_number) is GoOutDiscard.NEVER
    if len(hand) == 1 and never and not _can_play_on(after, seat):
        raise JokerSwapError(
            "cannot swap your last card for a joker you could neither play nor discard: you go "
            "out only by playing every card (variant.going_out=never)"
        )
    return after


def _swap_keeping_joker(state: GameState, seat: int, card: Card, index: int) -> GameState:
    """A swap from the run ``state.table[index]`` whose joker stays in it, moved to an end
    (``joker_swap.freed_joker=to_run_end``): a lay-off in effect, by its rules (a player who
    is down, ``going_down.lay_off_same_turn``, the cut card's own groups), and going out
    where it plays the last card."""
    turn_state = state.turn_state
    target = state.table[index]
    why = "the joker stays in the run (variant.joker_swap.freed_joker=to_run_end)"
    if not state.seats[seat].down:
        raise JokerSwapError(f"only a player who is down may swap into a run where {why}")
    if not turn_state.was_down and not state.variant.going_down.lay_off_same_turn:
        raise JokerSwapError(
            f"cannot swap into a run on the turn you went down where {why}: a lay-off in "
            "effect, only on later turns (variant.going_down.lay_off_same_turn=false)"
        )
    if turn_state.must_go_out is not None and target.owner != seat:
        raise JokerSwapError(f"{turn_state.must_go_out}: no swaps into other players' runs")
    table = list(state.table)
    table[index] = swap_in_meld(state.variant, target, card)
    meld_id = target.id
    after = advance(
        state,
        phase=Phase.PLAY,
        to_act=seat,
        hands=with_hand(state, seat, without_cards(state.hands[seat], (card,), seat)),
        table=tuple(table),
        turn_state=played(
            turn_state, laid_off_on_others=turn_state.laid_off_on_others or target.owner != seat
        ),
        log=logged(state, SwapJoker(seat, card, meld_id)),
    )
    return _after_play(after, seat, "swap that card")


SWAP_GO_DOWN_OBLIGATION = (
    "you swapped a joker while not down, so you must go down this turn "
    "(variant.joker_swap.must_go_down_same_turn)"
)


def swap_refusal(
    state: GameState,
    seat: int,
    hand: tuple[Card, ...],
    table: TableSource | None = None,
) -> str | None:
    """Why a joker swap the meld allows is still refused, ``hand`` being the seat's hand
    after it (the joker in, the card out) and ``table`` the table after it (None: as it is;
    or a function giving it, called only where the answer depends on it, see
    :func:`~.play_rules.opening_possible`): the obligations ``variant.joker_swap`` would
    leave, or an obligation to go down the turn already has (taking the upcard), could not
    be met this turn. None when the swap stands. Shared by :func:`swap_joker` and
    :func:`~shanghai_rummy.legal_actions`."""
    rules = state.variant.joker_swap
    if not state.seats[seat].down:
        obligation = _swap_obligation(state)
        laid = laid_shapes(state)
        if obligation is not None and not opening_possible(
            state.variant,
            contract_number(state, seat),
            hand,
            laid,
            state.table if table is None else table,
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


def _swap_obligation(state: GameState) -> str | None:
    """The obligation to go down this turn a swap by the seat in turn, not down, leaves: the
    swap's own (``joker_swap.must_go_down_same_turn``), or one the turn already has (taking
    the upcard); None where there is none."""
    own = SWAP_GO_DOWN_OBLIGATION if state.variant.joker_swap.must_go_down_same_turn else None
    return state.turn_state.must_go_down or own


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
        laid and extends_going_down(variant, requirement_of(state, seat))
    ):
        if can_go_down_with_jokers(variant, contract_number(state, seat), hand, owed, laid):
            return True
        if not state.seats[seat].down:
            return False
    going_down_turn = not state.turn_state.was_down
    return _may_lay_new_group(state, seat) and can_meld_a_joker(
        variant, state.deal_number, hand, owed, going_down_turn
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


def discard(state: GameState, seat: int, card: Card) -> GameState:
    """Discard ``card``, ending the turn; discarding the last card goes out where the variant
    allows it."""
    action = Discard(seat, card)
    return event_log.discarded(state, action, _discard(state, action))


def _discard(state: GameState, action: Discard) -> GameState:
    seat = action.seat
    if state.phase is not Phase.PLAY or seat != state.to_act or type(seat) is not int:
        require_turn(state, seat, Phase.PLAY, "discard")  # raises, naming what is wrong
    card = action.card
    hands = list(state.hands)
    hands[seat] = hand = without_card(hands[seat], card, seat)
    turn_state = state.turn_state
    if (
        turn_state.must_go_out is not None
        or turn_state.must_go_down is not None
        or turn_state.jokers_to_meld
    ):
        _check_obligations(state, "discard", going_out=not hand)
    discard_pile = state.discard_pile + (card,)  # noqa: RUF005 - a C copy, twice as fast
    log = appended(state.log, action)
    if not hand:
        if _going_down_turn_without_out(state, seat):
            raise GoOutError(
                "cannot discard your last card: a player may not go out on the turn they go "
                "down (variant.going_down.out_same_turn=false)"
            )
        if state.variant.going_out_in(state.deal_number) is GoOutDiscard.NEVER:
            raise GoOutError(
                "cannot discard your last card: you go out only by melding or laying off "
                "every card (variant.going_out=never)"
            )
        ended = attrs.evolve(
            state, hands=tuple(hands), discard_pile=discard_pile, upcard_live=True, log=log
        )
        return end_deal(ended, seat)
    return begin_turn(
        state,
        (seat + 1) % state.num_players,
        seat,
        hands=tuple(hands),
        discard_pile=discard_pile,
        log=log,
    )


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
    require_turn(state, seat, Phase.PLAY, "go out")
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
        current = apply_playing(current, Discard(seat, action.discard))
    if current.phase not in (Phase.DEAL_OVER, Phase.GAME_OVER) or (
        current.results and current.results[-1].winner != seat
    ):
        left = len(current.hands[seat])
        raise GoOutError(f"these moves do not go out: seat {seat} would hold {left} card(s)")
    return attrs.evolve(current, log=logged(state, action))


def _planned(item: object) -> PlannedLayOff:
    if isinstance(item, PlannedLayOff):
        return item
    if isinstance(item, (tuple, list)) and 2 <= len(item) <= 3:
        return PlannedLayOff(*item)
    raise RummyError(f"a lay-off is PlannedLayOff(card, meld_id, end) or a tuple, not {item!r}")


def apply_discard(state: GameState, action: Discard) -> GameState:
    """Apply a :class:`~shanghai_rummy.Discard`, with its event."""
    return event_log.discarded(state, action, _discard(state, action))


def apply_playing(
    state: GameState, action: Discard | LayOff | Meld | SwapJoker | GoOut
) -> GameState:
    """Apply a move of phase play, with its event."""
    if isinstance(action, Discard):
        return event_log.discarded(state, action, _discard(state, action))
    if isinstance(action, LayOff):
        after = _lay_off(state, action.seat, action.card, action.meld_id, action.end)
        return event_log.laid_off(state, action, after)
    if isinstance(action, Meld):
        return event_log.melded(state, action, _meld(state, action))
    if isinstance(action, SwapJoker):
        after = _swap_joker(state, action.seat, action.card, action.meld_id)
        return event_log.swapped(state, action, after)
    return go_out(state, action.seat, action.groups, action.lay_offs, action.discard, action.kinds)


# -- the listing ---------------------------------------------------------------------------


def _accepted(state: GameState, action: Meld | LayOff | SwapJoker) -> bool:
    """Whether the engine accepts ``action`` from ``state``: its move made without recording
    its events (which refuse nothing)."""
    try:
        if isinstance(action, LayOff):
            _lay_off(state, action.seat, action.card, action.meld_id, action.end)
        elif isinstance(action, Meld):
            _meld(state, action)
        else:
            _swap_joker(state, action.seat, action.card, action.meld_id)
    except IllegalMoveError:
        return False
    return True


def _discards(seat: int, cards: tuple[Card, ...]) -> Iterable[Discard]:
    """The Discard actions of that seat for ``cards``, shared (actions are values)."""
    made = shared_discards(seat)
    if made:  # every card's
        return map(made.__getitem__, cards)
    return [Discard(seat, card) for card in cards]


_GROUP_MELDS: Memo[tuple[object, ...], Meld] = Memo("engine.playing.group_melds", 16384)
"""The Meld of one group lately listed toward a going down, by the group (with the kind it
names, where it names one), for the seat it holds (actions are values: a seat's hand keeps
most of its groups from turn to turn, and a Meld made anew costs ten lookups of one kept).
Room for more than the largest listing the limits allow (6,125 groups): a memo emptied when
full would miss every group of it. Keyed by the group itself where it names no kind, not by
a tuple made for the key: one object fewer per group for the garbage collector to walk."""


def _group_meld(seat: int, group: tuple[Card, ...], kind: MeldKind | None) -> Meld:
    """``Meld(seat, (group,))``, naming ``kind`` where it is not None, shared."""
    key = group if kind is None else (group, kind)
    action = _GROUP_MELDS.get(key)
    if action is None or action.seat != seat:
        made = Meld(seat, (group,)) if kind is None else Meld(seat, (group,), (kind,))
        action = _GROUP_MELDS.put(key, made)
    return action


_LAY_OFFS: Final[Memo[tuple[int, Card, int, End | None], LayOff]] = Memo(
    "engine.playing.lay_offs", 4096
)


def _shared_lay_off(seat: int, card: Card, meld_id: int, end: End | None) -> LayOff:
    """The LayOff of those fields, shared (actions are values), remembered in a memo: the
    listing of a seat that is down offers the same few from turn to turn."""
    key = (seat, card, meld_id, end)
    action = _LAY_OFFS.get(key)
    if action is None:
        action = _LAY_OFFS.put(key, LayOff(seat, card, meld_id, end))
    return action


class _Plays:
    """The play-phase listing of one seat: the actions kept so far, and what deciding them
    needs (the hand, the going-out rule, the obligations of the turn)."""

    __slots__ = ("actions", "distinct", "hand", "no_out", "owes_more", "rule", "seat", "state")

    def __init__(self, state: GameState, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.hand = hand = state.hands[seat]
        self.distinct = sort_cards(set(hand))
        variant = state.variant
        self.rule = variant.going_out_in(state.deal_number)
        turn_state = state.turn_state
        # going down meets an obligation to go down; the others only the engine can judge
        self.owes_more = turn_state.jokers_to_meld > 0 or turn_state.must_go_out is not None
        # the turn of going down may not end the deal (going_down.out_same_turn=false)
        self.no_out = not variant.going_down.out_same_turn and not turn_state.was_down
        self.actions: list[Action] = []

    def keep(self, action: Meld | LayOff | SwapJoker, leaves: int) -> bool:
        """Keep ``action`` (a play leaving ``leaves`` cards) if it may end in a legal turn,
        trying it in the engine where only the engine can say; whether it was kept."""
        rule = self.rule
        if (leaves == 0 and rule is GoOutDiscard.REQUIRED) or (self.no_out and leaves < 2):
            return False
        if ((leaves == 1 and rule is GoOutDiscard.NEVER) or self.owes_more) and not _accepted(
            self.state, action
        ):
            return False
        self.actions.append(action)
        return True

    def going_down(
        self, options: Sequence[tuple[tuple[Card, ...], MeldKind | None, bool]] | None = None
    ) -> None:
        """List the single groups that start, continue or join the seat's going down (of
        ``options``, where given: some of :func:`group_options`)."""
        seat, size = self.seat, len(self.hand)
        # a group of group_options that does not meet the requirement yet was judged with
        # the turn's end and obligations, by the check the engine makes of it (can_finish)
        judged = options is None
        with CollectorPaused():  # a huge hand's listing builds thousands of lasting objects
            if options is None:
                options = group_options(self.state, seat)
            for group, kind, meets in options:
                action = _group_meld(seat, group, kind)
                if judged and not meets:
                    self.actions.append(action)
                else:
                    self.keep(action, size - len(group) if meets else 2)

    def once_down(self) -> None:
        """List the lay-offs and new groups of a seat that is down, where allowed now."""
        state, seat, size = self.state, self.seat, len(self.hand)
        variant = state.variant
        was_down = state.turn_state.was_down
        if was_down or variant.going_down.lay_off_same_turn:
            # the going-down turn's joker limit, where the variant keeps it (Rummy 51)
            barring = not was_down and variant.jokers.per_group_for_the_going_down_turn
            melds = {meld.id: meld for meld in state.table} if barring else {}
            for card, meld_id, end in lay_off_options(variant, state.table, self.distinct):
                if barring and joker_lay_off_barred(
                    variant, melds[meld_id], card, seat, False, end
                ):
                    continue
                self.keep(_shared_lay_off(seat, card, meld_id, end), size - 1)
        new_rule = variant.going_down.new_melds
        if new_rule is NewMelds.SAME_TURN or (new_rule is NewMelds.LATER_TURNS and was_down):
            for group, kind in new_group_options(variant, self.hand):
                action = Meld(seat, (group,)) if kind is None else Meld(seat, (group,), (kind,))
                self.keep(action, size - len(group))

    def swaps(self, down: bool, ways: Sequence[object] = ()) -> None:
        """List the joker swaps (``ways``: no longer read; each swap is judged on its own
        by the engine's check, whose answers the solver remembers)."""
        state, seat, hand = self.state, self.seat, self.hand
        options = swap_options(state.variant, state.table, self.distinct)
        if not options:
            return
        swapping = state.variant.joker_swap
        # a swap the meld allows is refused only for the obligations it would leave (its own,
        # or the turn's obligation to go down), which depend on the hand after it: the same
        # for every meld the card could go to, except where a lone card left by going down
        # may be played on the table (going_out=never): then the table after it counts too
        may_refuse = swapping.joker_into_new_meld or (
            not down
            and (swapping.must_go_down_same_turn or state.turn_state.must_go_down is not None)
        )
        by_meld = not down and self.rule is GoOutDiscard.NEVER
        # by card, where the answer did not read the table after the swap (then it holds
        # for every meld), else by card and meld
        refused: dict[tuple[Card, int], bool] = {}
        melds = {meld.id: meld for meld in state.table}
        for card, meld_id in options:
            if joker_kept_in_run(melds[meld_id], state.variant):
                self._swap_keeping_joker(card, melds[meld_id], down)
                continue
            if may_refuse:
                answer = refused.get((card, -1))
                if answer is None:
                    answer = refused.get((card, meld_id))
                if answer is None:
                    index = hand.index(card)
                    after = (*hand[:index], *hand[index + 1 :], JOKER)
                    table = _SwappedTable(state, card, meld_id) if by_meld else None
                    answer = swap_refusal(state, seat, after, table) is not None
                    read = table is not None and table.read
                    refused[(card, meld_id if read else -1)] = answer
                if answer:
                    continue
            action = SwapJoker(seat, card, meld_id)
            if len(hand) == 1 and self.rule is GoOutDiscard.NEVER:
                # a swap keeps the hand's size: where its one card may not be discarded, the
                # engine says whether the joker could then be played
                self.keep(action, 1)
            else:
                self.actions.append(action)

    def _swap_keeping_joker(self, card: Card, meld: TableMeld, down: bool) -> None:
        """List the swap of ``card`` into the run ``meld`` whose joker stays in it, if it may
        be made: a lay-off in effect (see :func:`_swap_keeping_joker`)."""
        state = self.state
        turn_state = state.turn_state
        if not down or (not turn_state.was_down and not state.variant.going_down.lay_off_same_turn):
            return
        if turn_state.must_go_out is not None and meld.owner != self.seat:
            return
        try:
            swap_in_meld(state.variant, meld, card)
        except JokerSwapError:
            return  # no end free for the joker
        self.keep(SwapJoker(self.seat, card, meld.id), len(self.hand) - 1)

    def any_once_down_or_swap(self, down: bool) -> bool:
        """Whether the seat (``down``: it is down) has a lay-off or new group (listed first,
        where it is down) or a joker swap, the listing stopped at the first part that has
        one (or any action kept before)."""
        if down:
            self.once_down()
            if self.actions:
                return True
        state = self.state
        if swap_barred(state.variant, down, state.turn_state.was_down) is None:
            self.swaps(down)
        return bool(self.actions)

    def discards(self) -> None:
        """List the discards, if the turn may end with one now."""
        turn_state = self.state.turn_state
        size = len(self.hand)
        if turn_state.must_go_out is not None:
            allowed = size == 1 and self.rule is not GoOutDiscard.NEVER
        else:
            allowed = (
                turn_state.must_go_down is None
                and turn_state.jokers_to_meld == 0
                and (size > 1 or self.rule is not GoOutDiscard.NEVER)
                and not (size == 1 and self.no_out and self.state.seats[self.seat].down)
            )
        if allowed:
            self.actions.extend(_discards(self.seat, self.distinct))


def play_actions(state: GameState, seat: int) -> tuple[Action, ...]:
    """The actions of ``seat``, to act in phase play, in a stable order."""
    plays = _Plays(state, seat)
    down = state.seats[seat].down
    if not down or state.turn_state.going_down:
        plays.going_down()
    if down:
        plays.once_down()
    if swap_barred(state.variant, down, state.turn_state.was_down) is None:
        plays.swaps(down)
    plays.discards()
    if down and state.turn_state.going_down:
        return tuple(dict.fromkeys(plays.actions))  # a group may join it or be a new group
    return tuple(plays.actions)


class _SwappedTable:
    """The table once ``card`` is swapped for the joker of meld ``meld_id``, made when first
    asked for (a :data:`~.play_rules.TableSource`); ``read``: whether it was."""

    __slots__ = ("card", "meld_id", "read", "state")

    def __init__(self, state: GameState, card: Card, meld_id: int) -> None:
        self.state = state
        self.card = card
        self.meld_id = meld_id
        self.read = False

    def __call__(self) -> tuple[TableMeld, ...]:
        self.read = True
        state, card, meld_id = self.state, self.card, self.meld_id
        return tuple(
            swap_in_meld(state.variant, meld, card) if meld.id == meld_id else meld
            for meld in state.table
        )


def has_play_action(state: GameState, seat: int) -> bool:
    """Whether ``seat``, to act in phase play, has a legal action, found without listing
    the ways to go down (which may run to thousands of single groups where a hand holds many
    jokers): the discards first, then one search for a way to finish the going down this
    turn (for a seat not down and owing no more than its going down, the first group of such
    a way is listed; otherwise the groups are listed and judged), then the lay-offs, new
    groups and joker swaps."""
    plays = _Plays(state, seat)
    plays.discards()
    if plays.actions:
        return True
    down = state.seats[seat].down
    turn_state = state.turn_state
    if not down or turn_state.going_down:
        laid = laid_shapes(state)
        owed = turn_state.jokers_to_meld
        # a group is listed only where the rest of the hand can finish: no way, no group
        if finish_refusal(state, seat, laid, state.hands[seat], owed) is None:
            if not down and not plays.owes_more:
                return True  # the first group of that way is listed
            # the engine judges the groups of one way against the obligations, and only
            # where it refuses them all every group the hand can form
            plays.going_down(obligation_options(state, seat))
            if not plays.actions:
                plays.going_down()
            if plays.actions:
                return True
    return plays.any_once_down_or_swap(down)
