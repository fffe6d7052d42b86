"""What one seat may see: a :class:`PlayerView` of a game state.

A server sends each client the view of its own seat. The view holds everything public (the
table, the face-up pile, hand sizes, scores, whose turn it is) and the seat's own hand, and
never another seat's cards or the order of the stock: two states that differ only in those
give equal views.

>>> import shanghai_rummy as sr
>>> state = sr.new_game(sr.get_variant("shanghai"), players=4, seed=7)
>>> seen = sr.view(state, 1)
>>> seen.hand == state.hand(1), seen.hand_sizes, seen.stock_size
(True, (11, 11, 11, 11), 61)
>>> seen.requirement.describe(), seen.to_act, seen.legal_actions[0]
('2 sets of 3', 1, Draw(seat=1, source=<Source.STOCK: 'stock'>))
>>> sr.view(state, 2).legal_actions  # seat 2 is not to act
()
"""

from __future__ import annotations

from operator import attrgetter

import attrs

from .actions import Action
from .cards import Card
from .contracts import Requirement
from .engine import legal_actions
from .engine.going_down import still_to_lay
from .engine.validation import refuses_bad_states
from .errors import RummyError
from .events import SeenEvents
from .levels import requirement_of
from .melds import TableMeld
from .notation import format_action
from .pictures import as_html, view_svg
from .scoring import DealResult
from .state import GameState, Phase

__all__ = ["PlayerView", "view"]


@attrs.frozen(kw_only=True)
class PlayerView:
    """The game as seat ``seat`` sees it (``seat`` None: a spectator, who holds no hand).

    - ``variant_id``, ``num_players``, ``deal_number``, ``deal_count`` (deals in the game),
      ``dealer``, ``phase``, ``to_act`` (None between deals), ``turn`` (whose turn it is;
      during buying, ``to_act`` is the seat offered the upcard).
    - ``requirement``: what going down asks the seat for in this deal (a contract or an
      opening; a spectator's view: the seat in turn's).
    - ``levels``: under progressive contracts, the level each seat is on in this deal, by
      seat (see :attr:`~shanghai_rummy.GameState.levels`); empty otherwise.
    - ``hand``: the seat's own cards, in the state's order.
    - per seat, indexed by seat: ``hand_sizes``, ``down`` (has gone down / opened),
      ``buys_used`` and ``buys_left`` (this deal, by the variant's limit), ``totals``.
    - ``table``: the melds on the table; ``upcard``: the live top discard, or None;
      ``discard_pile``: the face-up pile, last = top; ``stock_size``.
    - ``results``: the results of the finished deals (cards left in hands are shown once a
      deal is over, as at the table).
    - ``legal_actions``: what the seat may do now, when it is to act; else empty.
    - ``going_down``: the ids of the table melds the seat in turn has laid toward its going
      down this turn while that going down is open (see :class:`~shanghai_rummy.TurnState`);
      ``still_to_lay``: what it must still lay to be down when that going down is half-laid
      (the requirement left, in words), else None. Both public: every seat sees the groups laid.
    - ``legal_actions``: what the seat may do now, when it is to act; else empty; ``labels``
      names each in the text notation.
    - ``events``: what happened in this deal, as the seat may see it (another seat's stock
      draw without its card, another seat's buy without its penalty cards), after the
      results of the earlier deals; see :mod:`shanghai_rummy.events`.

    >>> import shanghai_rummy as sr
    >>> state = sr.new_game(sr.get_variant("rummy51"), players=3, seed=1)
    >>> seen = sr.view(state, 1)
    >>> seen.phase, seen.upcard, seen.buys_left, len(seen.legal_actions) > 0
    (<Phase.PLAY: 'play'>, None, (0, 0, 0), True)
    """

    seat: int | None
    variant_id: str
    num_players: int
    deal_number: int
    deal_count: int
    dealer: int
    phase: Phase
    to_act: int | None
    turn: int
    requirement: Requirement
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    down: tuple[bool, ...]
    buys_used: tuple[int, ...]
    buys_left: tuple[int, ...]
    totals: tuple[int, ...]
    table: tuple[TableMeld, ...]
    upcard: Card | None
    discard_pile: tuple[Card, ...]
    stock_size: int
    results: tuple[DealResult, ...]
    legal_actions: tuple[Action, ...]
    going_down: tuple[int, ...] = ()
    still_to_lay: str | None = None
    events: SeenEvents = attrs.field(factory=SeenEvents)
    levels: tuple[int, ...] = ()

    @property
    def labels(self) -> tuple[str, ...]:
        """Each legal action in the text notation (:func:`~shanghai_rummy.format_action`),
        for a menu of choices: ``labels[i]`` names ``legal_actions[i]``."""
        return tuple(format_action(action) for action in self.legal_actions)

    @property
    def is_my_turn(self) -> bool:
        """True when the seat has a decision to make (its turn, or an offer to buy)."""
        return self.to_act == self.seat

    def _repr_svg_(self) -> str:
        """The view as an SVG picture (Jupyter shows it): see :mod:`shanghai_rummy.pictures`."""
        return view_svg(self)

    def _repr_html_(self) -> str:
        """The view's picture for an HTML front-end."""
        return as_html(view_svg(self))


_DOWN = attrgetter("down")
_BUYS = attrgetter("buys")


def _still_to_lay(state: GameState) -> str | None:
    if not state.turn_state.going_down:
        return None
    left = still_to_lay(state)
    return None if left is None else left.describe()


@refuses_bad_states
def view(state: GameState, seat: int | None) -> PlayerView:
    """What ``seat`` may see of ``state``: its own hand and the public facts, with its legal
    actions when it is to act; ``seat`` None is a spectator's view (no hand, no actions).
    :class:`~shanghai_rummy.RummyError` for a seat not in the game.

    >>> import shanghai_rummy as sr
    >>> state = sr.new_game(sr.get_variant("shanghai"), players=3, seed=2)
    >>> sr.view(state, 0).hand == state.hand(0), sr.view(state, 0).deal_count
    (True, 10)
    >>> sr.view(state, 3)
    Traceback (most recent call last):
    ...
    shanghai_rummy.errors.RummyError: no seat 3: the game has seats 0 to 2
    """
    if seat is not None and (type(seat) is not int or not 0 <= seat < state.num_players):
        raise RummyError(f"no seat {seat!r}: the game has seats 0 to {state.num_players - 1}")
    variant = state.variant
    limit = variant.buying.limit(state.deal_number)
    over = state.phase in (Phase.DEAL_OVER, Phase.GAME_OVER)
    seats = state.seats
    buys = tuple(map(_BUYS, seats))
    return PlayerView(
        seat=seat,
        variant_id=variant.id,
        num_players=state.num_players,
        deal_number=state.deal_number,
        deal_count=variant.total_deals(state.num_players),
        dealer=state.dealer,
        phase=state.phase,
        to_act=state.to_act,
        turn=state.turn,
        requirement=requirement_of(state, state.turn if seat is None else seat),
        hand=() if seat is None else state.hands[seat],
        hand_sizes=tuple(map(len, state.hands)),
        down=tuple(map(_DOWN, seats)),
        buys_used=buys,
        buys_left=tuple(limit - used if used < limit else 0 for used in buys),
        totals=state.totals,
        table=state.table,
        upcard=state.upcard,
        discard_pile=state.discard_pile,
        stock_size=state.stock_size,
        results=state.results,
        legal_actions=legal_actions(state) if state.to_act == seat and not over else (),
        going_down=state.turn_state.going_down,
        still_to_lay=_still_to_lay(state),
        events=SeenEvents.of_chain(state.event_log, seat),
        levels=state.levels,
    )
