"""Every legal action for the seat to act.

The list is exact for drawing, buying, passing, discarding, laying off and swapping; going
down is listed group by group: every distinct single group (equal cards interchangeable, a
joker's place in a run saying what it stands for) that starts or continues a going down the
rest of the hand can finish this turn, or joins one that is met and still open
(:mod:`~shanghai_rummy.engine.going_down`); for new groups after going down, every single group the
hand can form. The list grows with the groups a hand can form, never with the ways of
combining them.
A :class:`~shanghai_rummy.GoOut` is never listed: the same result is reached by the moves it
is made of.

>>> import shanghai_rummy as sr
>>> state = sr.new_game(sr.get_variant("shanghai"), players=4, seed=7)
>>> [str(action.source) for action in sr.legal_actions(state)]
['Source.STOCK', 'Source.DISCARD']
"""

from __future__ import annotations

from collections.abc import Sequence

from .._arguments import expect, refuses_bad_states
from ..actions import (
    Action,
    Buy,
    Discard,
    LayOff,
    Meld,
    PassBuy,
    Source,
    SwapJoker,
    shared_discards,
    shared_draw,
)
from ..cards import JOKER, Card, sort_cards
from ..errors import IllegalMoveError
from ..melds import TableMeld
from ..state import GameState, Phase
from ..variants import GoOutDiscard, NewMelds
from . import moves
from .going_down import finish_refusal, group_options, laid_shapes
from .moves import swap_refusal, upcard_obligation
from .play_rules import (
    hand_out_possible,
    joker_lay_off_barred,
    lay_off_options,
    new_group_options,
    opening_possible,
    swap_barred,
    swap_in_meld,
    swap_options,
)

__all__ = ["has_legal_action", "legal_actions"]


@refuses_bad_states
def legal_actions(state: GameState) -> tuple[Action, ...]:
    """The actions :func:`~shanghai_rummy.apply` accepts from the seat to act, in a stable
    order (empty when the deal or the game is over)."""
    if type(state) is not GameState:
        expect(state, GameState, "legal_actions", "state")
    last_state, last_actions = _last
    if last_state is state:
        return last_actions
    actions = _listed(state)
    _remember(state, actions)
    return actions


_last: tuple[GameState | None, tuple[Action, ...]] = (None, ())


def _remember(state: GameState, actions: tuple[Action, ...]) -> None:
    """Keep the last listing: a program that asks twice about one state (a view, then a
    bot's own check) gets it for free. One pair, replaced whole, so threads see a
    consistent one."""
    global _last
    _last = (state, actions)


def _listed(state: GameState) -> tuple[Action, ...]:
    seat = state.to_act
    if seat is None:
        return ()
    if not 0 <= seat < len(state.hands):
        raise IndexError(f"no seat {seat!r}")  # a hand-built state: explained by validate
    if state.phase is Phase.BUY:
        return (Buy(seat), PassBuy(seat))
    if state.phase is Phase.DRAW:
        return _draws(state, seat)
    if state.phase is Phase.PLAY:
        return _plays(state, seat)
    raise TypeError(f"phase {state.phase!r} is not a Phase")  # a hand-built state: explained


_DRAW_CHOICES: dict[int, tuple[tuple[Action, ...], tuple[Action, ...]]] = {}


def _draw_choices(seat: int) -> tuple[tuple[Action, ...], tuple[Action, ...]]:
    """The seat's usual draw listings, shared: the stock alone, and the stock or the upcard."""
    choices = _DRAW_CHOICES.get(seat)
    if choices is None:
        stock = shared_draw(seat, Source.STOCK)
        choices = _DRAW_CHOICES[seat] = ((stock,), (stock, shared_draw(seat, Source.DISCARD)))
    return choices


def _draws(state: GameState, seat: int) -> tuple[Action, ...]:
    down = state.seats[seat].down
    may_take = (
        state.upcard_live
        and (not down or state.variant.drawing.down_players_take_upcard)
        and (
            upcard_obligation(state, seat) is None
            or opening_possible(
                state.variant, state.deal_number, (*state.hands[seat], state.discard_pile[-1])
            )
        )
    )
    cut_card = state.cut_card
    if cut_card is None or down:
        stock_only, stock_or_take = _draw_choices(seat)
        return stock_or_take if may_take else stock_only
    actions: list[Action] = [shared_draw(seat, Source.STOCK)]
    if hand_out_possible(state.variant, state.deal_number, (*state.hands[seat], cut_card)):
        actions.append(shared_draw(seat, Source.CUT_CARD))
    if may_take:
        actions.append(shared_draw(seat, Source.DISCARD))
    return tuple(actions)


def _distinct(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    return sort_cards(set(cards))


def _discards(seat: int, cards: tuple[Card, ...]) -> list[Discard]:
    """The Discard actions of that seat for ``cards``, shared (actions are values)."""
    made = shared_discards(seat)
    actions = []
    for card in cards:
        action = made.get(card)
        if action is None:
            action = made[card] = Discard(seat, card)
        actions.append(action)
    return actions


class _Plays:
    """The play-phase listing of one seat: the actions kept so far, and what deciding them
    needs (the hand, the going-out rule, the obligations of the turn)."""

    __slots__ = ("actions", "distinct", "hand", "no_out", "owes_more", "rule", "seat", "state")

    def __init__(self, state: GameState, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.hand = state.hands[seat]
        self.distinct = _distinct(self.hand)
        self.rule = state.variant.going_out
        turn_state = state.turn_state
        # going down meets an obligation to go down; the others only the engine can judge
        self.owes_more = turn_state.jokers_to_meld > 0 or turn_state.must_go_out is not None
        # the turn of going down may not end the deal (going_down.out_same_turn=false)
        self.no_out = not state.variant.going_down.out_same_turn and not turn_state.was_down
        self.actions: list[Action] = []

    def keep(self, action: Action, leaves: int) -> bool:
        """Keep ``action`` (a play leaving ``leaves`` cards) if it may end in a legal turn,
        trying it in the engine where only the engine can say; whether it was kept."""
        rule = self.rule
        if (leaves == 0 and rule is GoOutDiscard.REQUIRED) or (self.no_out and leaves < 2):
            return False
        if (leaves == 1 and rule is GoOutDiscard.NEVER) or self.owes_more:
            try:
                moves.apply(self.state, action)
            except IllegalMoveError:
                return False
        self.actions.append(action)
        return True

    def going_down(self) -> None:
        """List the single groups that start, continue or join the seat's going down."""
        seat, size = self.seat, len(self.hand)
        for group, kind, meets in group_options(self.state, seat):
            # a group that does not meet the requirement yet was judged with the turn's end
            action = Meld(seat, (group,)) if kind is None else Meld(seat, (group,), (kind,))
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
                if barring and joker_lay_off_barred(variant, melds[meld_id], card, seat, False):
                    continue
                self.keep(LayOff(seat, card, meld_id, end), size - 1)
        new_rule = variant.going_down.new_melds
        if new_rule is NewMelds.SAME_TURN or (new_rule is NewMelds.LATER_TURNS and was_down):
            for group, kind in new_group_options(variant, self.hand):
                action = Meld(seat, (group,)) if kind is None else Meld(seat, (group,), (kind,))
                self.keep(action, size - len(group))

    def swaps(self, down: bool, ways: Sequence[object] = ()) -> None:
        """List the joker swaps (``ways``: no longer read; each swap is judged on its own
        by the engine's check, whose answers the solver remembers)."""
        state, seat, hand = self.state, self.seat, self.hand
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
        refused: dict[tuple[Card, int], bool] = {}
        for card, meld_id in swap_options(state.variant, state.table, self.distinct):
            if may_refuse:
                key = (card, meld_id if by_meld else -1)
                if key not in refused:
                    index = hand.index(card)
                    after = (*hand[:index], *hand[index + 1 :], JOKER)
                    table = _swapped_table(state, card, meld_id) if by_meld else None
                    refused[key] = swap_refusal(state, seat, after, table) is not None
                if refused[key]:
                    continue
            action = SwapJoker(seat, card, meld_id)
            if len(hand) == 1 and self.rule is GoOutDiscard.NEVER:
                # a swap keeps the hand's size: where its one card may not be discarded, the
                # engine says whether the joker could then be played
                self.keep(action, 1)
            else:
                self.actions.append(action)

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


def _plays(state: GameState, seat: int) -> tuple[Action, ...]:
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


def _swapped_table(state: GameState, card: Card, meld_id: int) -> tuple[TableMeld, ...]:
    """The table once ``card`` is swapped for the joker of meld ``meld_id``."""
    return tuple(
        swap_in_meld(state.variant, meld, card) if meld.id == meld_id else meld
        for meld in state.table
    )


def has_legal_action(state: GameState) -> bool:
    """Whether the seat to act has a legal action, found without listing the ways to go
    down (which may run to thousands of single groups where a hand holds many jokers): the
    discards first, then one search for a way to finish the going down this turn (for a
    seat not down and owing no more than its going down, the first group of such a way is
    listed; otherwise the groups are listed and judged), then the lay-offs, new groups and
    joker swaps.
    What :func:`~shanghai_rummy.validate` asks of every state it loads."""
    seat = state.to_act
    if seat is None:
        return False
    if state.phase is not Phase.PLAY or not 0 <= seat < len(state.hands):
        return bool(_listed(state))  # a buy or a draw always lists a few actions at most
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
            plays.going_down()  # the engine judges each group against the obligations
            if plays.actions:
                return True
    if down:
        plays.once_down()
        if plays.actions:
            return True
    if swap_barred(state.variant, down, state.turn_state.was_down) is None:
        plays.swaps(down, [])
    return bool(plays.actions)
