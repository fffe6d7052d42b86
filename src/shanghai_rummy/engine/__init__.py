"""The engine: dealing, the moves, the turn cycle and the listing of legal moves.

Every move is a pure function from a state to a new state: it checks the move against the
rules and the variant, and either returns the new state or raises an
:class:`~shanghai_rummy.IllegalMoveError` subclass whose message names the rule; the state
it was given is never changed. :func:`apply` dispatches an :data:`~shanghai_rummy.Action` to
its move and :func:`legal_actions` lists the actions it accepts. The engine does no I/O and
knows no wire format, bot or screen.

Inside, each phase's moves and listing live together: :mod:`.drawing` (draw, buy, pass) and
:mod:`.playing` (meld, lay off, swap a joker, discard, go out), over the rule checks they
share (:mod:`.play_rules`, :mod:`.going_down`), the turn cycle (:mod:`.turns`) and the deals
(:mod:`.dealing`); :mod:`.phases` joins the phases, :mod:`.validation` checks a state
against every invariant. The public functions here add the argument checks
(:func:`~.validation.refuses_bad_states`) to the moves of those modules.

>>> import shanghai_rummy as sr
>>> state = sr.new_game(sr.get_variant("shanghai"), players=4, seed=7)
>>> [str(action.source) for action in sr.legal_actions(state)]
['Source.STOCK', 'Source.DISCARD']
"""

from __future__ import annotations

from collections.abc import Sequence

from .._arguments import expect, refuses_bad_arguments
from ..actions import Action
from ..cards import Card
from ..state import GameState
from ..variants import Variant
from . import dealing, drawing, phases, playing
from .dealing import new_game, stacked_deal
from .validation import refuses_bad_states, validate

__all__ = [
    "apply",
    "buy",
    "deal_from",
    "discard",
    "draw",
    "go_out",
    "lay_off",
    "legal_actions",
    "meld",
    "new_game",
    "next_deal",
    "pass_buy",
    "score",
    "swap_joker",
]


@refuses_bad_states
def apply(state: GameState, action: Action) -> GameState:
    """Apply any :data:`~shanghai_rummy.Action` to ``state``."""
    return phases.apply_action(state, action)


@refuses_bad_states
def legal_actions(state: GameState) -> tuple[Action, ...]:
    """The actions :func:`~shanghai_rummy.apply` accepts from the seat to act, in a stable
    order (empty when the deal or the game is over).

    The list is exact for drawing, buying, passing, discarding, laying off and swapping;
    going down is listed group by group: every distinct single group that starts or
    continues a going down the rest of the hand can finish this turn, or joins one that is
    met and still open; for new groups after going down, every single group the hand can
    form. A :class:`~shanghai_rummy.GoOut` is never listed: the same result is reached by
    the moves it is made of."""
    if type(state) is not GameState:
        expect(state, GameState, "legal_actions", "state")
    return phases.list_actions(state)


@refuses_bad_arguments
def deal_from(
    variant: Variant,
    hands: Sequence[Sequence[Card]],
    upcard: Card | None = None,
    stock_top: Sequence[Card] = (),
    seed: int = 0,
    deal_number: int = 1,
    dealer: int = 0,
    levels: Sequence[int] | None = None,
) -> GameState:
    """A stacked deal for tests, puzzles and tutorials.

    ``hands[p]`` is seat p's hand; ``upcard`` starts the discard pile; ``stock_top[0]`` is the
    next card drawn, and the rest of the pack fills the stock below in seeded order. The deal
    starts as a dealt one would: the dealer's left acts first. ``levels``: under progressive
    contracts (``variant.progression=per_seat``), the level each seat is on (None: level 1).

    >>> import shanghai_rummy as sr
    >>> state = sr.deal_from(
    ...     sr.get_variant("shanghai"),
    ...     hands=[sr.parse_cards("8C 8D"), sr.parse_cards("9H")],
    ...     upcard=sr.Card.parse("8S"),
    ...     stock_top=sr.parse_cards("JK"),
    ... )
    >>> state.to_act, state.upcard, state.stock[0], state.stock_size
    (1, Card.parse('8S'), Card.parse('JK'), 102)
    """
    state = stacked_deal(variant, hands, upcard, stock_top, seed, deal_number, dealer, levels)
    # a stacked deal is held to every invariant a loaded state is (a hand beyond the
    # variant's reach, say, is refused here rather than when the state is saved and loaded)
    validate(state)
    return state


draw = refuses_bad_states(drawing.draw)
buy = refuses_bad_states(drawing.buy)
pass_buy = refuses_bad_states(drawing.pass_buy)
meld = refuses_bad_states(playing.meld)
lay_off = refuses_bad_states(playing.lay_off)
swap_joker = refuses_bad_states(playing.swap_joker)
discard = refuses_bad_states(playing.discard)
go_out = refuses_bad_states(playing.go_out)
score = refuses_bad_states(dealing.score)
next_deal = refuses_bad_states(dealing.next_deal)
