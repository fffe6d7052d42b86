"""The game state: one frozen value per moment of a game.

A :class:`GameState` is never changed; every transition returns a new one, so keeping an old
state is an undo, and exploring two moves from one state is free branching.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final

import attrs

from .actions import Action
from .cards import Card
from .events import Event, EventNode, chain_events, chain_from_key, chain_key
from .levels import completed
from .limits import MAX_PLAYERS
from .melds import TableMeld
from .memo import Memo
from .pictures import as_html, state_svg
from .scoring import DealResult, Outcome
from .variants import Variant

__all__ = [
    "GameState",
    "History",
    "HistoryBlock",
    "Phase",
    "SeatState",
    "StackedDeal",
    "TurnState",
]


class Phase(enum.Enum):
    """What the game waits for."""

    DRAW = "draw"
    """The seat to act draws from the stock or takes the upcard."""
    BUY = "buy"
    """The seat to act is offered the upcard to buy (:func:`~shanghai_rummy.buy`/``pass_buy``)."""
    PLAY = "play"
    """The seat whose turn it is melds, lays off, swaps jokers, and ends the turn with a discard."""
    DEAL_OVER = "deal_over"
    """The deal is scored; :func:`~shanghai_rummy.next_deal` deals the next one."""
    GAME_OVER = "game_over"
    """The last deal is scored; :attr:`GameState.outcome` says who won."""


@attrs.frozen
class SeatState:
    """Per-seat facts of the current deal: whether the seat is down (has gone down or opened),
    how many buys it has made, and how many turns it has started."""

    down: bool = False
    buys: int = 0
    turns: int = 0


@attrs.frozen
class TurnState:
    """Facts of the turn in progress.

    ``drawn``: the seat has its card for the turn; ``was_down``: it was down when the turn
    began; ``must_go_down``: it must go down before discarding (and why); ``jokers_to_meld``:
    jokers taken by swaps that must go into a new group this turn; ``laid_off_on_others``,
    ``used_joker``: for one-turn-out bonuses; ``buy_queue``: seats still to be offered the
    upcard, in order; ``draw_after_buy``: the seat in turn chose the stock and draws once the
    offer is settled; ``offered``: the upcard has been offered for buying this turn;
    ``discarded_by``: the seat whose discard is the upcard (None for a deal's first upcard);
    ``must_go_out``: the seat must go out this turn (and why); ``took_cut_card``: it took the
    cut card this turn; ``going_down``: the ids of the table melds the seat has laid toward
    its going down this turn, in order, while that going down is open: half-laid (the seat
    is not down yet, and ``must_go_down`` says it must finish), or met where more groups may
    still join it (an opening, or a contract without ``exact_meld_count``) until a move of
    another kind.
    """

    drawn: bool = False
    was_down: bool = False
    must_go_down: str | None = None
    jokers_to_meld: int = 0
    laid_off_on_others: bool = False
    used_joker: bool = False
    buy_queue: tuple[int, ...] = ()
    draw_after_buy: bool = False
    offered: bool = False
    discarded_by: int | None = None
    must_go_out: str | None = None
    took_cut_card: bool = False
    going_down: tuple[int, ...] = ()


_TURN_STARTS: Final = {
    (drawn, was_down, offered, discarded_by): TurnState(
        drawn=drawn, was_down=was_down, offered=offered, discarded_by=discarded_by
    )
    for drawn in (False, True)
    for was_down in (False, True)
    for offered in (False, True)
    for discarded_by in (None, *range(MAX_PLAYERS))
}
"""The facts of every turn before any play (no buy queue), made once: every turn begins
with one of these few."""


def turn_start(drawn: bool, was_down: bool, offered: bool, discarded_by: int | None) -> TurnState:
    """The facts of a turn before any play (no buy queue): shared values (see
    :data:`_TURN_STARTS`)."""
    facts = _TURN_STARTS.get((drawn, was_down, offered, discarded_by))
    if facts is None:  # a seat beyond limits.MAX_PLAYERS
        return TurnState(drawn=drawn, was_down=was_down, offered=offered, discarded_by=discarded_by)
    return facts


_OFFERS: Final[Memo[tuple[bool, tuple[int, ...], bool, int | None], TurnState]] = Memo(
    "state.offer_facts", 4096
)


def offer_facts(
    was_down: bool, buy_queue: tuple[int, ...], draw_after_buy: bool, discarded_by: int | None
) -> TurnState:
    """The facts of a turn while the upcard is offered to ``buy_queue`` (before the seat in
    turn draws, so nothing else of the turn has happened): shared values, remembered in a
    memo."""
    key = (was_down, buy_queue, draw_after_buy, discarded_by)
    facts = _OFFERS.get(key)
    if facts is None:
        facts = _OFFERS.put(
            key,
            TurnState(
                was_down=was_down,
                buy_queue=buy_queue,
                draw_after_buy=draw_after_buy,
                offered=True,
                discarded_by=discarded_by,
            ),
        )
    return facts


_SEAT_STATES: Final[Memo[tuple[bool, int, int], SeatState]] = Memo("state.seat_state", 4096)


def seat_state(down: bool, buys: int, turns: int) -> SeatState:
    """The :class:`SeatState` of those facts, shared (a value, remembered in a memo)."""
    key = (down, buys, turns)
    facts = _SEAT_STATES.get(key)
    if facts is None:
        facts = _SEAT_STATES.put(key, SeatState(down, buys, turns))
    return facts


@attrs.frozen(eq=False, repr=False)
class History:
    """A persistent list of the applied actions: appending shares the earlier ones.

    A node is the history :attr:`previous` and one more :attr:`action`: play appends one
    node per action. A history read from a document is one :class:`HistoryBlock`, a node
    holding all its actions, so that reading 59,610 actions makes one node, not 59,610.
    Iteration, ``len``, equality and hashing go by the actions alone, however they are
    split into nodes, and walk the list without recursion, so a history of any length
    compares by its actions.

    >>> import shanghai_rummy as sr
    >>> from shanghai_rummy.state import history_of
    >>> block = history_of([sr.Buy(1), sr.PassBuy(2)])
    >>> appended = sr.History(block, sr.Buy(3), 3)
    >>> list(appended) == [sr.Buy(1), sr.PassBuy(2), sr.Buy(3)], len(appended)
    (True, 3)
    >>> appended.actions_after(1)
    (PassBuy(seat=2), Buy(seat=3))
    """

    previous: History | None
    """The history before this node's actions (None: they are the first)."""
    action: Action
    """The last action of the history."""
    length: int
    """How many actions the history holds, this node's included."""

    def __iter__(self) -> Iterator[Action]:
        actions: list[Action] = []
        node: History | None = self
        while node is not None:
            actions.append(node.action)
            if type(node) is HistoryBlock:
                actions.extend(reversed(node.before))
            node = node.previous
        return reversed(actions)

    def __len__(self) -> int:
        return self.length

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, History):
            return NotImplemented
        if self is other:
            return True
        return self.length == other.length and tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"<History of {self.length} actions, last {self.action!r}>"

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled (and deep-copied) as its actions, made one node again: node by node, a
        # long history nests past the recursion limit
        return (history_of, (tuple(self),))

    def actions_after(self, count: int) -> tuple[Action, ...]:
        """The actions after the first ``count``, oldest first, reading back only as far as
        them (a server storing a game's new actions)."""
        found: list[Action] = []
        node: History | None = self
        while node is not None and node.length > count:
            found.append(node.action)
            if type(node) is HistoryBlock:
                first = node.length - len(node.before)  # the number of before[0]
                found.extend(reversed(node.before[max(0, count + 1 - first) :]))
            node = node.previous
        return tuple(reversed(found))


@attrs.frozen(eq=False, repr=False)
class HistoryBlock(History):
    """A node of a :class:`History` holding a block of actions: the history
    :attr:`~History.previous`, then the actions :attr:`before`, then
    :attr:`~History.action` (what :func:`~shanghai_rummy.from_json` reads a history as:
    one node, however long). A history is the same list of actions whatever its nodes."""

    before: tuple[Action, ...]
    """The actions between :attr:`~History.previous` and :attr:`~History.action`, oldest
    first."""


_set_previous, _set_action, _set_length = (
    History.__dict__[name].__set__ for name in ("previous", "action", "length")
)


def appended(log: History | None, action: Action) -> History:
    """``log`` and one more ``action``: ``History(log, action, length)``, built through the
    slots (History has no validator or converter to run) at about half the cost; every
    move makes one."""
    node = object.__new__(History)
    _set_previous(node, log)
    _set_action(node, action)
    _set_length(node, 1 if log is None else log.length + 1)
    return node


def history_of(actions: Sequence[Action]) -> History | None:
    """The :class:`History` of ``actions``, in order, as one node (None for no actions)."""
    if not actions:
        return None
    if len(actions) == 1:
        return History(None, actions[0], 1)
    return HistoryBlock(None, actions[-1], len(actions), tuple(actions[:-1]))


@attrs.frozen
class StackedDeal:
    """The deal a game began with where :func:`~shanghai_rummy.deal_from` stacked it rather
    than the seed dealing it: what :func:`~shanghai_rummy.validate` replays the state's
    history from (``history=True``), as it replays a dealt game from its seed."""

    deal_number: int
    """The deal stacked (later deals are dealt from the seed)."""
    dealer: int
    """The seat that dealt it."""
    hands: tuple[tuple[Card, ...], ...]
    """Every seat's hand as dealt, by seat."""
    upcard: Card | None
    """The card turned up to start the discard pile, if any."""
    stock: tuple[Card, ...]
    """The whole stock as dealt, ``stock[0]`` the first card drawn."""
    levels: tuple[int, ...] = ()
    """Each seat's level in the deal, under progressive contracts (see
    :attr:`GameState.levels`); empty otherwise."""


@attrs.frozen
class GameState:
    """Everything about a game at one moment. Build one with :func:`~shanghai_rummy.new_game`
    or :func:`~shanghai_rummy.deal_from`; change it only through the transitions.

    >>> import shanghai_rummy as sr
    >>> state = sr.new_game(sr.get_variant("shanghai"), players=4, seed=7)
    >>> state.phase, state.to_act, len(state.hand(1)), state.stock_size
    (<Phase.DRAW: 'draw'>, 1, 11, 61)
    """

    variant: Variant
    """The rules this game is played by."""
    seed: int
    """The game's seed: every shuffle (each deal, each re-stock) derives its own from it."""
    num_players: int
    """How many seats play, numbered ``0`` to ``num_players - 1``."""
    deal_number: int
    """The deal in progress (or just scored), from 1."""
    dealer: int
    """The seat that dealt this deal; the seat on its left plays first."""
    phase: Phase
    """What the game waits for."""
    to_act: int | None
    """The seat whose decision is pending; None when the deal or the game is over."""
    turn: int
    """The seat whose turn it is (in the buy phase, ``to_act`` is the seat offered the upcard)."""
    hands: tuple[tuple[Card, ...], ...]
    """Every seat's hand, by seat; :meth:`hand` reads one."""
    stock: tuple[Card, ...]
    """The face-down stock, ``stock[0]`` the next card drawn."""
    discard_pile: tuple[Card, ...]
    """Every card discarded this deal and not taken, the last one on top (dead cards too)."""
    upcard_live: bool
    """Whether the top discard may still be taken or bought (:attr:`upcard` is then that card);
    False once it is dead: passed up by the seat that could take it, or when no card has been
    turned (Rummy 51's first turn)."""
    table: tuple[TableMeld, ...]
    """The melds on the table, in the order they were laid; each has an id, an owner and its
    cards in order."""
    seats: tuple[SeatState, ...]
    """Per-seat facts of the deal (down, buys made, turns started), by seat."""
    turn_state: TurnState
    """Facts of the turn in progress (drawn yet, obligations, the buy queue...)."""
    next_meld_id: int
    """The id the next meld laid on the table gets; ids start at 1 each deal and are never
    reused within it."""
    restocks: int
    """How many times the stock has been rebuilt from the discard pile this deal (each
    re-stock's shuffle is derived from the seed, the deal number and this count)."""
    turns_this_deal: int
    """How many turns have begun this deal, all seats together."""
    totals: tuple[int, ...]
    """Cumulative points per seat, every finished deal included; the lowest wins."""
    results: tuple[DealResult, ...]
    """The scored deals so far, in order."""
    log: History | None = None
    """The actions applied since the game began, oldest first, as a shared :class:`History`
    (None before the first); :attr:`history` gives them as a tuple. A document holds them as
    ``history``: each draw, discard, buy or pass in its short form (the seat and the text
    notation: ``"2 draw"``, ``"0 discard 10H"``), any other action as an object."""
    cut_card: Card | None = None
    """The face-up card at the bottom of the stock that a seat may take to go out by hand,
    where the variant has one (``scoring.cut_card_hand``); None otherwise, and once it is taken,
    drawn or shuffled away by a re-stock."""
    event_log: EventNode | None = attrs.field(default=None, eq=chain_key, repr=False)
    """The deal's events as the engine records them: a chain of small tuples, read as event
    values through :attr:`events` (and :func:`~shanghai_rummy.view`, for one seat)."""
    stacked: StackedDeal | None = None
    """Where the game began: None for a game dealt from :attr:`seed` by
    :func:`~shanghai_rummy.new_game`; the stacked deal for one begun by
    :func:`~shanghai_rummy.deal_from`. With the seed and the history it replays to this very
    state, which :func:`~shanghai_rummy.from_json` checks (see
    :func:`~shanghai_rummy.validate`, ``history=True``)."""
    levels: tuple[int, ...] = ()
    """Under progressive contracts (``variant.progression=per_seat``): the level each seat is
    on in this deal, by seat, from 1: the number of the deal spec (``variant.deal(level)``)
    whose contract it works on; a seat moves up one after a deal in which it went down (see
    :mod:`shanghai_rummy.levels`). Empty otherwise: every seat plays the contract of deal
    :attr:`deal_number`."""

    def __getstate__(self) -> dict[str, Any]:
        # pickled (and deep-copied) with the event chain as a flat tuple of its links: link
        # by link, a long deal's chain nests past the recursion limit
        fields = {field.name: getattr(self, field.name) for field in attrs.fields(GameState)}
        fields["event_log"] = chain_key(self.event_log)
        return fields

    def __setstate__(self, fields: dict[str, Any]) -> None:
        for name, value in fields.items():
            object.__setattr__(self, name, value)
        object.__setattr__(self, "event_log", chain_from_key(fields.get("event_log", ())))

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards seat ``seat`` holds."""
        return self.hands[seat]

    def is_down(self, seat: int) -> bool:
        """Whether the seat has gone down (Shanghai) or opened (Rummy 51) this deal."""
        return self.seats[seat].down

    def buys_used(self, seat: int) -> int:
        """How many times the seat has bought this deal."""
        return self.seats[seat].buys

    @property
    def upcard(self) -> Card | None:
        """The live top discard that may still be taken or bought, else None."""
        return self.discard_pile[-1] if self.upcard_live else None

    @property
    def stock_size(self) -> int:
        """How many cards the stock holds."""
        return len(self.stock)

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action applied since the game began, in order: a tuple built on each read,
        so it costs time linear in the game's length. A loop that reads how long the game
        is at every step reads :attr:`history_length` instead."""
        return () if self.log is None else tuple(self.log)

    @property
    def history_length(self) -> int:
        """How many actions have been applied since the game began: ``len(state.history)``
        without building the tuple (constant time).

        >>> import shanghai_rummy as sr
        >>> state = sr.new_game(sr.get_variant("shanghai"), players=3, seed=1)
        >>> state.history_length, sr.apply(state, sr.legal_actions(state)[0]).history_length
        (0, 1)
        """
        return 0 if self.log is None else self.log.length

    @property
    def events(self) -> tuple[Event, ...]:
        """The public events of the current deal, oldest first, with the hidden cards in
        them (a stock draw's card, a buy's penalty cards), after the results of the earlier
        deals (their :class:`~shanghai_rummy.DealEnded` events). :func:`~shanghai_rummy.view`
        gives them as one seat may see them."""
        return chain_events(self.event_log)

    @property
    def is_over(self) -> bool:
        """True once the last deal is scored."""
        return self.phase is Phase.GAME_OVER

    @property
    def outcome(self) -> Outcome | None:
        """Who won, once the game is over; None before."""
        if self.phase is not Phase.GAME_OVER:
            return None
        return Outcome.from_totals(self.totals, completed(self))

    def table_meld(self, meld_id: int) -> TableMeld | None:
        """The table meld with that id, or None."""
        for table_meld in self.table:
            if table_meld.id == meld_id:
                return table_meld
        return None

    def _repr_svg_(self) -> str:
        """The state as an SVG picture, every hand face up (Jupyter shows it): see
        :mod:`shanghai_rummy.pictures`."""
        return state_svg(self)

    def _repr_html_(self) -> str:
        """The state's picture for an HTML front-end."""
        return as_html(state_svg(self))

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """The repr, for pretty-printers (IPython, hypothesis) that would otherwise walk
        every field, the event log's chain of tuples (one level per event) included."""
        printer.text(repr(self))


class _Keep(enum.Enum):
    KEEP = "keep"


KEEP: Final = _Keep.KEEP
"""Says "leave this field as it is" to :func:`advance` and :func:`played` where None is a
value."""


def played(
    facts: TurnState,
    *,
    must_go_down: str | _Keep | None = KEEP,
    jokers_to_meld: int | None = None,
    laid_off_on_others: bool | None = None,
    used_joker: bool | None = None,
    going_down: tuple[int, ...] | None = None,
) -> TurnState:
    """``facts`` after a play within the turn (a meld, a lay-off, a joker swap): the facts a
    play changes are given (None or :data:`KEEP` keeps one), the rest are kept.

    Equal to ``attrs.evolve(facts, ...)`` with the same changes: ``facts`` itself where they
    change nothing (a value: most lay-offs after the first), else built positionally (less
    than half the cost); every play makes one.
    """
    must = facts.must_go_down if must_go_down is KEEP else must_go_down
    jokers = facts.jokers_to_meld if jokers_to_meld is None else jokers_to_meld
    on_others = facts.laid_off_on_others if laid_off_on_others is None else laid_off_on_others
    joker_used = facts.used_joker if used_joker is None else used_joker
    laid = facts.going_down if going_down is None else going_down
    if (
        must == facts.must_go_down
        and jokers == facts.jokers_to_meld
        and on_others == facts.laid_off_on_others
        and joker_used == facts.used_joker
        and laid == facts.going_down
    ):
        return facts
    return TurnState(
        facts.drawn,
        facts.was_down,
        must,
        jokers,
        on_others,
        joker_used,
        facts.buy_queue,
        facts.draw_after_buy,
        facts.offered,
        facts.discarded_by,
        facts.must_go_out,
        facts.took_cut_card,
        laid,
    )


def _slot_setters(cls: type) -> tuple[Callable[[Any, Any], None], ...]:
    """The setters of the slots of the attrs class ``cls``, in the order of its fields."""
    return tuple(cls.__dict__[field.name].__set__ for field in attrs.fields(cls))


(
    _set_variant,
    _set_seed,
    _set_num_players,
    _set_deal_number,
    _set_dealer,
    _set_phase,
    _set_to_act,
    _set_turn,
    _set_hands,
    _set_stock,
    _set_discard_pile,
    _set_upcard_live,
    _set_table,
    _set_seats,
    _set_turn_state,
    _set_next_meld_id,
    _set_restocks,
    _set_turns_this_deal,
    _set_totals,
    _set_results,
    _set_log,
    _set_cut_card,
    _set_event_log,
    _set_stacked,
    _set_levels,
) = _slot_setters(GameState)
_new_object = object.__new__


def advance(
    state: GameState,
    *,
    phase: Phase,
    to_act: int,
    turn_state: TurnState,
    log: History | None,
    turn: int | None = None,
    hands: tuple[tuple[Card, ...], ...] | None = None,
    stock: tuple[Card, ...] | None = None,
    discard_pile: tuple[Card, ...] | None = None,
    upcard_live: bool | None = None,
    seats: tuple[SeatState, ...] | None = None,
    turns_this_deal: int | None = None,
    cut_card: Card | _Keep | None = KEEP,
    table: tuple[TableMeld, ...] | None = None,
    next_meld_id: int | None = None,
) -> GameState:
    """``state`` after a move within a deal: the fields a turn changes are given (None or
    :data:`KEEP` keeps a field), the rest are kept.

    Equal to ``attrs.evolve(state, ...)`` with the same changes, but built field by field
    through the slots (GameState has no validator or converter to run), which costs about
    a third of building it through ``__init__`` on this 25-field class; every draw and
    discard makes one.
    """
    new = _new_object(GameState)
    _set_variant(new, state.variant)
    _set_seed(new, state.seed)
    _set_num_players(new, state.num_players)
    _set_deal_number(new, state.deal_number)
    _set_dealer(new, state.dealer)
    _set_phase(new, phase)
    _set_to_act(new, to_act)
    _set_turn(new, state.turn if turn is None else turn)
    _set_hands(new, state.hands if hands is None else hands)
    _set_stock(new, state.stock if stock is None else stock)
    _set_discard_pile(new, state.discard_pile if discard_pile is None else discard_pile)
    _set_upcard_live(new, state.upcard_live if upcard_live is None else upcard_live)
    _set_table(new, state.table if table is None else table)
    _set_seats(new, state.seats if seats is None else seats)
    _set_turn_state(new, turn_state)
    _set_next_meld_id(new, state.next_meld_id if next_meld_id is None else next_meld_id)
    _set_restocks(new, state.restocks)
    _set_turns_this_deal(new, state.turns_this_deal if turns_this_deal is None else turns_this_deal)
    _set_totals(new, state.totals)
    _set_results(new, state.results)
    _set_log(new, log)
    _set_cut_card(new, state.cut_card if cut_card is KEEP else cut_card)
    _set_event_log(new, state.event_log)
    _set_stacked(new, state.stacked)
    _set_levels(new, state.levels)
    return new
