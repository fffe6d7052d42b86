"""A table: one game held for a front-end or a server, with people and bots in its seats.

The engine's states are values and its moves pure functions; a :class:`Table` is the one
mutable thing a front-end needs around them. It holds the current state, knows which seats
are bots, checks that a move comes from the seat to act, plays the bots' moves until a
person must decide, deals the next deal (or waits, as set), and numbers the game's events
so that each seat can ask for those it has not seen yet. It does no I/O: a server wraps it
(see :mod:`shanghai_rummy.protocol`).

>>> import shanghai_rummy as sr
>>> table = sr.Table("shanghai", [None, sr.GreedyBot(), sr.GreedyBot()], seed=4)
>>> table.to_act, table.num_players  # the bots have played up to seat 0's first decision
(0, 3)
>>> [sr.format_action(action) for action in table.legal_actions(0)]  # offered the upcard
['buy', 'pass']
>>> events = table.act(0, "pass")  # seat 1 draws, discards, seat 2 plays its turn
>>> [type(event).__name__ for event in events]
['PassedBuy', 'Drew', 'Discarded', 'TookUpcard', 'Discarded']
>>> events[1].card, table.to_act  # seat 0 does not see seat 1's stock card
(None, 0)
>>> table.act(1, "draw")
Traceback (most recent call last):
...
shanghai_rummy.errors.NotYourTurnError: seat 1 cannot act: seat 0 is to act (draw)
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from .actions import Action
from .bots import Bot
from .engine import apply, legal_actions, new_game, next_deal
from .errors import NotYourTurnError, RummyError, WrongPhaseError
from .events import Event, chain_events, seen_by
from .notation import parse_action
from .records import GameRecord, record, replay_states
from .state import GameState, Phase
from .variants import Variant, get_variant
from .views import PlayerView, view

__all__ = ["Table"]

DEFAULT_BOT_MOVES = 100_000
"""How many bot moves one call of :meth:`Table.act` (or any call that lets bots play) makes
at most before it returns, the bots still to act (:meth:`Table.play_bots` goes on)."""


class Table:
    """One game: ``seats`` lists each seat's player, None for a person (who acts through
    :meth:`act`) or a :class:`~shanghai_rummy.Bot`. ``variant`` is a
    :class:`~shanghai_rummy.Variant` or a preset id; ``seed`` deals the game.

    ``auto_next_deal``: deal the next deal as soon as one ends (else wait for
    :meth:`next_deal`). ``allow_undo``: a person may take back their last decision with
    :meth:`undo` (for practice tables: an undone stock draw has shown its card).
    ``max_bot_moves``: the most bot moves one call plays before returning. ``state``: start
    from this state of the variant instead of a new game (a saved state, or a stacked deal);
    its events are those its log holds.

    >>> import shanghai_rummy as sr
    >>> bots = sr.Table("rummy51", [sr.GreedyBot(), sr.GreedyBot()], seed=3)
    >>> bots.is_over, bots.state.outcome is not None  # nobody to wait for: played out
    (True, True)
    """

    def __init__(
        self,
        variant: Variant | str,
        seats: Sequence[Bot | None],
        *,
        seed: int = 0,
        auto_next_deal: bool = True,
        allow_undo: bool = False,
        max_bot_moves: int = DEFAULT_BOT_MOVES,
        state: GameState | None = None,
    ) -> None:
        self._setup(variant, seats, seed, auto_next_deal, allow_undo, max_bot_moves, state, None)

    def _setup(
        self,
        variant: Variant | str,
        seats: Sequence[Bot | None],
        seed: int,
        auto_next_deal: bool,
        allow_undo: bool,
        max_bot_moves: int,
        state: GameState | None,
        events: list[Event] | None,
    ) -> None:
        self._variant = get_variant(variant) if isinstance(variant, str) else variant
        if not isinstance(seats, (list, tuple)):
            raise RummyError(f"seats must be a sequence of bots or None, got {seats!r}")
        for index, player in enumerate(seats):
            _check_player(index, player)
        self._seats: list[Bot | None] = list(seats)
        self._auto_next_deal = bool(auto_next_deal)
        self._allow_undo = bool(allow_undo)
        if type(max_bot_moves) is not int or max_bot_moves < 0:
            raise RummyError(f"max_bot_moves must be a whole number >= 0, got {max_bot_moves!r}")
        self._max_bot_moves = max_bot_moves
        if state is None:
            state = new_game(self._variant, players=len(self._seats), seed=seed)
        elif state.num_players != len(self._seats):
            raise RummyError(f"the state has {state.num_players} seats, not {len(self._seats)}")
        self._state = state
        self._events: list[Event] = list(state.events) if events is None else events
        self._undo: list[tuple[int, GameState, int]] = []
        self._play_bots()

    # -- what there is to see -------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The current state (the whole truth: every hand; never send it to a client)."""
        return self._state

    @property
    def variant(self) -> Variant:
        """The variant played."""
        return self._variant

    @property
    def num_players(self) -> int:
        """How many seats the table has."""
        return len(self._seats)

    @property
    def seats(self) -> tuple[Bot | None, ...]:
        """Each seat's player: a bot, or None for a person."""
        return tuple(self._seats)

    @property
    def is_over(self) -> bool:
        """True once the game's last deal is scored."""
        return self._state.is_over

    @property
    def to_act(self) -> int | None:
        """The seat whose decision is pending, or None between deals and after the game."""
        return self._state.to_act

    @property
    def event_count(self) -> int:
        """The next event's number (how many events the game has had)."""
        return self._events[-1].number + 1 if self._events else 0

    def view(self, seat: int | None) -> PlayerView:
        """What ``seat`` may see (None: a spectator, who sees no hand)."""
        return view(self._state, seat)

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """The moves ``seat`` may make now; empty when it is not to act."""
        self._check_seat(seat)
        if self._state.to_act != seat:
            return ()
        return legal_actions(self._state)

    def events_since(self, seat: int | None, number: int) -> tuple[Event, ...]:
        """The events numbered ``number`` and up, as ``seat`` may see them (None: a
        spectator). After :meth:`undo` the count falls back: a number past
        :attr:`event_count` gives nothing."""
        if seat is not None:
            self._check_seat(seat)
        if type(number) is not int or number < 0:
            raise RummyError(f"an event number is a whole number >= 0, got {number!r}")
        start = bisect.bisect_left(self._events, number, key=_number)
        return tuple(seen_by(event, seat) for event in self._events[start:])

    def record(self) -> GameRecord:
        """The game's record, to save it and resume it with :meth:`from_record`."""
        return record(self._state)

    # -- what changes it ------------------------------------------------------------------------

    def act(self, seat: int, action: Action | str) -> tuple[Event, ...]:
        """``seat`` makes ``action`` (an :data:`~shanghai_rummy.Action` or its text
        notation, see :func:`~shanghai_rummy.parse_action`); then the bots play until a
        person must act, the deal ends (where the table waits for :meth:`next_deal`) or the
        game is over. Returns the new events, as ``seat`` may see them.

        :class:`~shanghai_rummy.NotYourTurnError` when another seat is to act or the action
        names another seat, :class:`~shanghai_rummy.NotationError` for text that is not a
        move, and the engine's :class:`~shanghai_rummy.IllegalMoveError` for a move the
        rules refuse; on any of them nothing changes.
        """
        self._check_seat(seat)
        state = self._state
        if state.to_act != seat:
            if state.phase in (Phase.DEAL_OVER, Phase.GAME_OVER):
                over = "game" if state.is_over else "deal"
                raise WrongPhaseError(f"seat {seat} cannot act: the {over} is over")
            raise NotYourTurnError(
                f"seat {seat} cannot act: seat {state.to_act} is to act ({state.phase.value})"
            )
        if isinstance(action, str):
            action = parse_action(action, seat)
        elif getattr(action, "seat", None) != seat:
            raise NotYourTurnError(
                f"the action is seat {getattr(action, 'seat', None)!r}'s, sent by seat {seat}"
            )
        before = self.event_count
        after = apply(state, action)
        if self._allow_undo:
            self._undo.append((seat, state, before))
        self._state = after
        self._collect()
        self._play_bots()
        return self.events_since(seat, before)

    def play_bots(self) -> tuple[Event, ...]:
        """Let the bots play (where a call stopped at ``max_bot_moves``); the new events,
        as a spectator sees them."""
        before = self.event_count
        self._play_bots()
        return self.events_since(None, before)

    def next_deal(self) -> tuple[Event, ...]:
        """Deal the next deal, once one is over (where ``auto_next_deal`` is off), and let
        the bots play; the new events, as a spectator sees them."""
        before = self.event_count
        self._state = next_deal(self._state)  # WrongPhaseError unless a deal is over
        self._collect()
        self._play_bots()
        return self.events_since(None, before)

    def undo(self, seat: int) -> None:
        """Take back ``seat``'s last decision, and the bots' moves after it, where the table
        allows undo. Refused when undo is off, when the seat has no decision to take back,
        or when another person has decided since."""
        self._check_seat(seat)
        if not self._allow_undo:
            raise RummyError("this table does not allow undo (allow_undo=False)")
        if not any(decider == seat for decider, _, _ in self._undo):
            raise RummyError(f"seat {seat} has no decision to take back")
        decider, state, count = self._undo[-1]
        if decider != seat:
            raise RummyError(f"seat {decider} has decided since seat {seat}'s last decision")
        self._undo.pop()
        self._state = state
        del self._events[bisect.bisect_left(self._events, count, key=_number) :]

    def set_seat(self, seat: int, player: Bot | None) -> tuple[Event, ...]:
        """Give ``seat`` to a bot, or back to a person (None); a bot whose turn it is plays
        at once. The new events, as a spectator sees them."""
        self._check_seat(seat)
        _check_player(seat, player)
        self._seats[seat] = player
        return self.play_bots()

    @classmethod
    def from_record(
        cls,
        game: GameRecord,
        seats: Sequence[Bot | None],
        *,
        auto_next_deal: bool = True,
        allow_undo: bool = False,
        max_bot_moves: int = DEFAULT_BOT_MOVES,
    ) -> Table:
        """A table resuming a saved game: the record is played again (every event of the
        game numbered as it was), then the bots play if one is to act."""
        if len(seats) != game.players:
            raise RummyError(f"the record has {game.players} seats, not {len(seats)}")
        events: list[Event] = []
        state = None
        for state in replay_states(game):
            events.extend(_events_after(state, events[-1].number if events else -1))
        table = cls.__new__(cls)
        table._setup(
            game.variant,
            seats,
            game.seed,
            auto_next_deal,
            allow_undo,
            max_bot_moves,
            state,
            events,
        )
        return table

    # -- inside ---------------------------------------------------------------------------------

    def _check_seat(self, seat: object) -> None:
        if type(seat) is not int or not 0 <= seat < len(self._seats):
            raise RummyError(f"no seat {seat!r}: the table has seats 0 to {len(self._seats) - 1}")

    def _collect(self) -> None:
        """Add the state's events the table has not numbered yet."""
        known = self._events[-1].number if self._events else -1
        self._events.extend(_events_after(self._state, known))

    def _play_bots(self) -> None:
        for _ in range(self._max_bot_moves):
            state = self._state
            if state.phase is Phase.DEAL_OVER and self._auto_next_deal:
                self._state = next_deal(state)
            elif state.to_act is None:
                return
            else:
                bot = self._seats[state.to_act]
                if bot is None:
                    return
                self._state = apply(state, bot.choose(view(state, state.to_act)))
            self._collect()


def _events_after(state: GameState, known: int) -> tuple[Event, ...]:
    """The events of ``state`` numbered after ``known``, with their hidden cards."""
    return chain_events(state.event_log, after=known)


def _number(event: Event) -> int:
    return event.number


def _check_player(seat: int, player: object) -> None:
    if player is not None and not isinstance(player, Bot):
        raise RummyError(f"seat {seat}: a player is None (a person) or a bot, not {player!r}")
