"""Checking a game state against every invariant of the game.

The transitions only ever build valid states; :func:`validate` is for states that come from
elsewhere: a file, a client, a hand-built test position. It raises
:class:`InvalidStateError` naming the first invariant broken and the field that breaks it.

>>> import attrs
>>> import shanghai_rummy as sr
>>> state = sr.new_game(sr.get_variant("shanghai"), players=4, seed=7)
>>> sr.validate(state)
>>> forged = attrs.evolve(state, stock=state.stock[1:])
>>> sr.validate(forged)
Traceback (most recent call last):
...
shanghai_rummy.errors.InvalidStateError: GameState (cards): card conservation: missing from ...
"""

from __future__ import annotations

import functools
import weakref
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any, Final, TypeVar, cast, get_args

import attrs

from .._arguments import SLIPS, wrong_type
from .._field_types import FieldTypes, Special, describe_type, exact_type
from ..actions import Action, Buy, Discard, Draw, PassBuy, Source
from ..cards import Card, make_pack
from ..errors import ArgumentTypeError, InvalidMeldError, InvalidStateError, RummyError
from ..events import EVENT_CLASSES, DealStarted, EventNode, chain_key
from ..levels import cards_dealt, game_ends, requirement_of
from ..limits import MAX_HISTORY_ACTIONS
from ..melds import check_group
from ..memo import IdentityMemo
from ..solver import check_laid
from ..state import GameState, History, HistoryBlock, Phase, StackedDeal
from ..variants import Progression, Restock, Variant
from .dealing import first_state, next_deal
from .going_down import extends_going_down, laid_shapes
from .phases import apply_action, has_legal_action

__all__ = [
    "checked_first_state",
    "event_chain_fits",
    "history_problems",
    "refuses_bad_states",
    "replayed",
    "validate",
]


def validate(state: GameState, *, history: bool = False) -> None:
    """Check every invariant of ``state``; raise :class:`InvalidStateError` naming the first
    one broken. In order:

    1. shape: the seat count suits the variant; one hand, seat record and total per seat;
       the dealer, the seat in turn and the deal number exist; counters are not negative;
    2. card conservation: hands, stock, discard pile and table hold exactly the variant's
       pack for this many seats, and a cut card is the bottom card of the stock;
    3. phase and seat to act: nobody acts between deals and everybody else is in turn, every
       seat holds a card while the deal is in play, the seat to draw or play is the seat in
       turn, a buyer is the first of a real offer of a live upcard, a game is over exactly
       after its last deal;
    4. the table: meld ids are unique and issued, each meld's owner is down or laying it
       toward a going down this turn (and each seat
       that is down owns a meld), and each meld is a valid group under the variant whose
       recorded kind, rank, suit and start (what its jokers stand for) are those its cards
       give;
    5. a going down begun this turn: in phase play, of melds the seat in turn laid, owed
       (``turn_state.must_go_down``) while not met, and open once met only where more groups
       may join it;
    6. buys within the variant's limit for the deal;
    7. totals equal to the sum of the finished deals' results, one score per seat;
       the event log numbered in order, its seats real, its last deal dealt this deal;
    8. a move: the seat to act has a legal action, so an obligation of the turn it cannot
       meet (``turn_state.must_go_down`` with no way to go down left, say) is refused here,
       not met later as an empty :func:`~shanghai_rummy.legal_actions`; found with one
       search for a way to finish the going down, never by listing the ways;
    9. with ``history=True`` (as :func:`~shanghai_rummy.from_json` does), in place of 8,
       the state's own history: its seed (or its stacked deal,
       :attr:`~shanghai_rummy.GameState.stacked`) and its actions, replayed, give this very
       state, so a forged state that keeps every
       invariant above (a stacked stock, a card swapped with the stock, a replaced or
       emptied history, a changed seed, a deal scored anew) is refused. It costs one
       application of each action in the history; a state that replays was reached by legal
       moves, so it has a move (8 is not searched).

    >>> import attrs
    >>> import shanghai_rummy as sr
    >>> state = sr.new_game(sr.get_variant("shanghai"), players=3, seed=1)
    >>> sr.validate(attrs.evolve(state, to_act=2))
    Traceback (most recent call last):
    ...
    shanghai_rummy.errors.InvalidStateError: GameState.to_act: phase and seat to act: in ...
    """
    if not isinstance(state, GameState):
        raise wrong_type("validate", "state", "a GameState", state)
    for check in (
        _types,
        _shape,
        _conservation,
        _phase,
        _table,
        _going_down,
        _buys,
        _totals,
        _events,
    ):
        for path, problem in check(state):
            raise InvalidStateError(path, problem)
    if history:
        # a state its own history replays to was reached by legal moves, and the engine never
        # leaves the seat to act without one, so the search for a move is not needed; a forged
        # state is refused by its replay, in time linear in the history, before any search
        for path, problem in history_problems(state):
            raise InvalidStateError(path, problem)
        return
    for path, problem in _a_move(state):
        raise InvalidStateError(path, problem)


Problems = Iterator[tuple[str, str]]


def _seat_ok(seat: object, players: int) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players


def _stored(node: object, name: str) -> object:
    """The field ``name`` of ``node`` as it is stored, whatever its type: read as an object
    so that the compiled build does not convert it to its hinted type first (it would refuse
    a list where a tuple is hinted with a TypeError, and read True as the int 1)."""
    return getattr(node, name)


def _history_types(log: object, path: str) -> Problems:
    assert isinstance(log, History)  # the hint was checked first
    length = _stored(log, "length")
    if type(length) is not int:
        yield f"{path}.length", f"expected int, got {describe_type(length)}"
        return
    if not 1 <= length <= MAX_HISTORY_ACTIONS:
        yield path, f"1 to {MAX_HISTORY_ACTIONS} actions (limits.MAX_HISTORY_ACTIONS)"
        return
    nodes = []
    node: History = log
    while True:
        nodes.append(node)
        link = _link_problem(node)
        if link is not None:
            yield path, link
            return
        if node.previous is None:
            break
        node = node.previous
    actions: list[object] = []
    for node in nodes:
        actions.append(node.action)
        if type(node) is HistoryBlock:
            actions.extend(reversed(node.before))
    for index, action in enumerate(reversed(actions)):
        if not _action_fits(action):
            kind = type(action)
            if kind in _ACTION_CLASSES:
                mistyped = _FIELD_TYPES.first_mistyped(action, kind, f"{path}[{index}]")
                if mistyped is not None:
                    yield mistyped
                    return
            yield (
                f"{path}[{index}]",
                f"expected an Action of its fields' types, got {describe_type(action)}",
            )
            return


def _action_fits(action: object) -> bool:
    # the actions of most of a history, checked directly; the others by their hints
    kind = type(action)
    if kind is Draw:
        return type(action.seat) is int and type(action.source) is Source  # type: ignore[attr-defined]
    if kind is Discard:
        return type(action.seat) is int and type(action.card) is Card  # type: ignore[attr-defined]
    if kind is Buy or kind is PassBuy:
        return type(action.seat) is int  # type: ignore[attr-defined]
    return kind in _ACTION_CLASSES and _FIELD_TYPES.fits(kind)(action)


_CHECKED_HISTORIES: Final[weakref.WeakValueDictionary[int, History]] = weakref.WeakValueDictionary()
"""Histories whose every action was found of its type, by identity: a state's history is the
one before it with an action more, so each validate of a game in play checks one new action.
Held weakly: a history is forgotten with the last state that holds it, so a server loading
many long documents keeps none of them here (a bounded memo of strong references would keep
thousands of histories, each as large as its document allows)."""


def _checked(node: History) -> bool:
    return _CHECKED_HISTORIES.get(id(node)) is node


def typed_history(log: History) -> None:
    """Remember that every action of ``log`` is of its fields' types (as the reader of a
    document makes them), so that :func:`~shanghai_rummy.validate` need not check them
    again: a history read from a long document is checked once, as it is read."""
    _CHECKED_HISTORIES[id(log)] = log


def _link_problem(node: History) -> str | None:
    """What is wrong with the link from ``node`` to the history before it (a History, or
    None, holding one action fewer), or None: each node's length counts its actions, so a
    walk of a history ends within its length."""
    before = _stored(node, "before") if type(node) is HistoryBlock else ()
    if type(before) is not tuple:
        kind = describe_type(before)
        return f"expected a tuple of the actions before action {node.length}, got {kind}"
    first = node.length - len(before)  # the number of the node's first action
    previous = node.previous
    if previous is None:
        return None if first == 1 else f"action {first} is the first one"
    if type(previous) is not History and type(previous) is not HistoryBlock:
        return f"expected the History before action {first}, got {describe_type(previous)}"
    length = _stored(previous, "length")
    if type(length) is not int or length != first - 1:
        return f"the history before action {first} does not hold {first - 1} actions"
    return None


def _history_fits(log: object) -> bool:
    assert isinstance(log, History)  # the outside was checked first
    length = _stored(log, "length")
    if type(length) is not int or not 1 <= length <= MAX_HISTORY_ACTIONS:
        return False
    node = log
    while not _checked(node):
        if not _action_fits(node.action) or _link_problem(node) is not None:
            return False
        if type(node) is HistoryBlock and not all(map(_action_fits, node.before)):
            return False
        if node.previous is None:
            break
        node = node.previous
    _CHECKED_HISTORIES[id(log)] = log
    return True


def _variant_fits(variant: object) -> bool:
    return True  # a Variant checks its own fields when it is built


def _card_type(card: object, path: str) -> Problems:
    if type(card) is not Card:
        yield path, f"expected a Card, got {describe_type(card)}"


def _variant_type(variant: object, path: str) -> Problems:
    return iter(())  # a Variant checks its own fields when it is built


_ACTION_CLASSES = frozenset(get_args(Action))
_FIELD_TYPES = FieldTypes(
    {
        Card: Special(exact_type(Card), _card_type),
        History: Special(_history_fits, _history_types),
        Variant: Special(_variant_fits, _variant_type),
    }
)


def _types(state: GameState) -> Problems:
    """Every field of the type its hint says (a state built by hand may hold anything)."""
    mistyped = _FIELD_TYPES.first_mistyped(state, GameState, "")
    if mistyped is not None:
        path, problem = mistyped
        yield path.removeprefix("."), f"types: {problem}"


def _shape(state: GameState) -> Problems:
    variant = state.variant
    players = state.num_players
    if not variant.min_players <= players <= variant.max_players:
        yield (
            "num_players",
            f"shape: {variant.id!r} is for {variant.min_players}-{variant.max_players} players, "
            f"not {players}",
        )
        return
    for name in ("hands", "seats", "totals"):
        count = len(getattr(state, name))
        if count != players:
            yield name, f"shape: {count} entries for {players} seats"
            return
    yield from _levels(state)
    yield from _hand_reach(state)
    for name in ("dealer", "turn"):
        if not _seat_ok(getattr(state, name), players):
            yield name, f"shape: no seat {getattr(state, name)!r} among seats 0 to {players - 1}"
            return
    total = variant.total_deals(players)
    if not 1 <= state.deal_number <= total:
        yield "deal_number", f"shape: a game of {total} deals has no deal {state.deal_number}"
    for name in ("restocks", "turns_this_deal"):
        if getattr(state, name) < 0:
            yield name, "shape: may not be negative"
    for seat, facts in enumerate(state.seats):
        if facts.turns < 0:
            yield f"seats[{seat}].turns", "shape: may not be negative"
    turn_state = state.turn_state
    if turn_state.jokers_to_meld < 0:
        yield "turn_state.jokers_to_meld", "shape: may not be negative"
    discarded_by = turn_state.discarded_by
    if discarded_by is not None and not _seat_ok(discarded_by, players):
        yield "turn_state.discarded_by", f"shape: no seat {discarded_by!r}"
    if state.upcard_live and not state.discard_pile:
        yield "upcard_live", "shape: a live upcard needs a discard pile"
    if state.restocks and variant.stock.restock is Restock.END_DEAL:
        yield "restocks", "shape: this variant never re-stocks (variant.stock.restock=end_deal)"
    most = variant.stock.max_restocks
    if most is not None and state.restocks > most:
        yield "restocks", f"shape: this variant re-stocks at most {most} times a deal"
    if state.log is not None:
        # the few distinct seats first: a long history names each seat thousands of times
        seats = {action.seat for action in state.log}
        if all(_seat_ok(seat, players) for seat in seats):
            return
        for index, action in enumerate(state.log):
            if not _seat_ok(action.seat, players):
                yield f"history[{index}].seat", f"shape: no seat {action.seat!r}"
                return


def _levels(state: GameState) -> Problems:
    """Each seat on a level of the variant's, and no higher than the deal number, under
    progressive contracts; no levels otherwise."""
    variant = state.variant
    if variant.progression is not Progression.PER_SEAT:
        if state.levels:
            yield "levels", "shape: only progressive contracts (progression=per_seat) have levels"
        return
    if len(state.levels) != state.num_players:
        yield "levels", f"shape: {len(state.levels)} levels for {state.num_players} seats"
        return
    top = min(len(variant.deals), state.deal_number)
    for seat, level in enumerate(state.levels):
        if not 1 <= level <= top:
            yield (
                f"levels[{seat}]",
                f"shape: level {level}, but in deal {state.deal_number} a seat is on a level "
                f"from 1 to {top} ({len(variant.deals)} levels)",
            )
            return


def _hand_reach(state: GameState) -> Problems:
    """No hand holds more than the variant lets it reach: the cards dealt, one more (drawn,
    or the starter's extra card), and each buy with its penalty cards."""
    variant = state.variant
    if not 1 <= state.deal_number <= variant.total_deals(state.num_players):
        return  # reported with the deal number
    dealt = cards_dealt(variant, state.deal_number, state.levels)
    per_buy = 1 + variant.buying.penalty_cards
    for seat, hand in enumerate(state.hands):
        most = dealt + 1 + max(0, state.seats[seat].buys) * per_buy
        if len(hand) > most:
            yield (
                f"hands[{seat}]",
                f"shape: {len(hand)} cards, but a hand reaches at most {most} in this deal "
                f"({dealt} dealt, 1 drawn, {state.seats[seat].buys} buys of {per_buy})",
            )
            return


def _places(state: GameState) -> Iterator[tuple[str, tuple[Card, ...]]]:
    for seat, hand in enumerate(state.hands):
        yield f"hands[{seat}]", hand
    for index, table_meld in enumerate(state.table):
        yield f"table[{index}].cards", table_meld.cards
    yield "discard_pile", state.discard_pile
    yield "stock", state.stock


def _conservation(state: GameState) -> Problems:
    pack_size = state.variant.pack_size(state.num_players, state.deal_number)
    pack = Counter(make_pack(pack_size.decks, pack_size.jokers))
    held: Counter[Card] = Counter()
    for _, cards in _places(state):
        held.update(cards)
    if held == pack:
        yield from _cut_card(state)
        return
    extra = _first_excess(held, pack)
    if extra is not None:
        places = list(_places(state))
        over = [path for path, cards in places if cards.count(extra) > pack[extra]]
        path = over[0] if over else next(p for p, cards in places if extra in cards)
        yield (
            path,
            f"card conservation: the game holds {held[extra]} x {extra}, the pack for "
            f"{state.num_players} seats ({pack_size.decks} decks and {pack_size.jokers} "
            f"joker{'' if pack_size.jokers == 1 else 's'}) "
            f"holds {pack[extra]}",
        )
        return
    missing = sorted((card for card in pack if held[card] < pack[card]), key=str)
    text = ", ".join(f"{pack[card] - held[card]} x {card}" for card in missing[:8])
    yield (
        "",
        f"card conservation: missing from hands, stock, discard pile and table: {text}"
        + (" ..." if len(missing) > 8 else ""),
    )


def _cut_card(state: GameState) -> Problems:
    """The face-up cut card is the bottom card of the stock (taking it takes that card)."""
    cut_card = state.cut_card
    if cut_card is None:
        return
    if state.variant.scoring.cut_card_hand is None:
        yield (
            "cut_card",
            f"card conservation: a cut card ({cut_card}) in a variant without one "
            "(variant.scoring.cut_card_hand)",
        )
    elif not state.stock or state.stock[-1] != cut_card:
        bottom = str(state.stock[-1]) if state.stock else "none: the stock is empty"
        yield (
            "cut_card",
            f"card conservation: the cut card {cut_card} is not the bottom card of the stock "
            f"({bottom})",
        )


def _first_excess(held: Counter[Card], pack: Counter[Card]) -> Card | None:
    for card in sorted(held, key=str):
        if held[card] > pack[card]:
            return card
    return None


def _phase(state: GameState) -> Problems:
    phase = state.phase
    players = state.num_players
    total = state.variant.total_deals(players)
    turn_state = state.turn_state
    name = "phase and seat to act"
    if phase in (Phase.DEAL_OVER, Phase.GAME_OVER):
        if state.to_act is not None:
            yield "to_act", f"{name}: nobody acts in phase {phase.value!r}"
        elif not state.results or state.results[-1].deal_number != state.deal_number:
            yield "results", f"{name}: deal {state.deal_number} is over but has no result"
        elif (phase is Phase.GAME_OVER) != game_ends(state):
            last = "is" if game_ends(state) else "is not"
            yield "phase", f"{name}: deal {state.deal_number} {last} the last of {total}"
        return
    if not _seat_ok(state.to_act, players):
        yield "to_act", f"{name}: in phase {phase.value!r} a seat of 0 to {players - 1} acts"
        return
    for seat, hand in enumerate(state.hands):
        if not hand:
            yield f"hands[{seat}]", f"{name}: seat {seat} holds no card, but the deal is in play"
            return
    if state.results and state.results[-1].deal_number >= state.deal_number:
        yield "results", f"{name}: deal {state.deal_number} is in play but already has a result"
        return
    if phase in (Phase.DRAW, Phase.PLAY):
        if state.to_act != state.turn:
            yield (
                "to_act",
                f"{name}: in phase {phase.value!r} the seat to act must be the seat in turn "
                f"({state.turn}), not {state.to_act}",
            )
        elif turn_state.drawn != (phase is Phase.PLAY):
            done = "has not drawn" if phase is Phase.PLAY else "has already drawn"
            yield "turn_state.drawn", f"{name}: phase {phase.value!r} but the seat {done}"
        elif turn_state.buy_queue:
            yield "turn_state.buy_queue", f"{name}: an offer to buy outside phase 'buy'"
        elif turn_state.was_down and not state.seats[state.turn].down:
            yield "turn_state.was_down", f"{name}: seat {state.turn} was down but is not"
        elif turn_state.must_go_down is not None and state.seats[state.turn].down:
            yield "turn_state.must_go_down", f"{name}: seat {state.turn} is already down"
        return
    yield from _buy_phase(state)


def _buy_phase(state: GameState) -> Problems:
    name = "phase and seat to act"
    turn_state = state.turn_state
    queue = turn_state.buy_queue
    rules = state.variant.buying
    limit = rules.limit(state.deal_number)
    if not rules.enabled:
        yield "phase", f"{name}: nobody buys in this variant (variant.buying.enabled=false)"
    elif not queue or state.to_act != queue[0]:
        yield "to_act", f"{name}: the buyer to act must be the first of the buy queue {queue}"
    elif not state.upcard_live or not turn_state.offered:
        yield "upcard_live", f"{name}: an offer to buy needs a live upcard that was offered"
    elif turn_state.drawn:
        yield "turn_state.drawn", f"{name}: the upcard is offered before the seat in turn draws"
    else:
        for index, seat in enumerate(queue):
            path = f"turn_state.buy_queue[{index}]"
            if not _seat_ok(seat, state.num_players) or seat in queue[:index]:
                yield path, f"{name}: {seat!r} is not a seat, or is offered twice"
            elif seat in (state.turn, turn_state.discarded_by):
                yield path, f"{name}: seat {seat} may not buy its own or its in-turn upcard"
            elif state.seats[seat].buys >= limit:
                yield path, f"{name}: seat {seat} has used its {limit} buys"
            elif state.seats[seat].down and not rules.down_players_may_buy:
                yield path, f"{name}: seat {seat} is down (variant.buying.down_players_may_buy)"
            else:
                continue
            return


def _table(state: GameState) -> Problems:
    seen: set[int] = set()
    owners: set[int] = set()
    name = "table melds"
    for index, table_meld in enumerate(state.table):
        path = f"table[{index}]"
        if table_meld.id in seen or not 1 <= table_meld.id < state.next_meld_id:
            yield f"{path}.id", f"{name}: id {table_meld.id} is repeated or was never issued"
            return
        seen.add(table_meld.id)
        owner = table_meld.owner
        if not _seat_ok(owner, state.num_players) or not (
            state.seats[owner].down or _half_laid_by(state, owner, table_meld.id)
        ):
            yield (
                f"{path}.owner",
                f"{name}: the owner {owner!r} is not a seat that is down (nor one going down "
                "group by group this turn)",
            )
            return
        owners.add(owner)
        try:
            shape = check_group(table_meld.cards, state.variant, kind=table_meld.kind, laid=False)
        except InvalidMeldError as error:
            yield f"{path}.cards", f"{name}: not valid under {state.variant.id!r}: {error}"
            return
        recorded = (table_meld.rank, table_meld.suit, table_meld.start)
        read = (shape.rank, shape.suit, shape.start)
        if recorded != read:
            yield (
                path,
                f"{name}: {table_meld.describe()} records rank, suit, start {recorded}, but its "
                f"cards make {read}",
            )
            return
    for seat, facts in enumerate(state.seats):
        if facts.down and seat not in owners:
            yield f"seats[{seat}].down", f"{name}: seat {seat} is down but owns no table meld"
            return


def _half_laid_by(state: GameState, seat: int, meld_id: int) -> bool:
    """Whether ``meld_id`` is a group of the going down ``seat`` is laying this turn."""
    return (
        state.phase is Phase.PLAY and seat == state.turn and meld_id in state.turn_state.going_down
    )


def _going_down(state: GameState) -> Problems:
    """A going down open this turn: in phase play, of table melds the seat in turn laid,
    with the obligation to finish it while it is half-laid, and open once met only where
    more groups may join it."""
    ids = state.turn_state.going_down
    if not ids:
        return
    name = "going down"
    path = "turn_state.going_down"
    if state.phase in (Phase.DEAL_OVER, Phase.GAME_OVER):
        return  # the going down that went out
    if state.phase is not Phase.PLAY:
        yield path, f"{name}: groups laid toward a going down outside phase 'play'"
        return
    owners = {table_meld.id: table_meld.owner for table_meld in state.table}
    for meld_id in ids:
        if owners.get(meld_id) != state.turn or ids.count(meld_id) > 1:
            yield (
                path,
                f"{name}: meld {meld_id!r} is not a table meld laid once by seat {state.turn}",
            )
            return
    variant = state.variant
    requirement = requirement_of(state, state.turn)
    if state.seats[state.turn].down:
        if not extends_going_down(variant, requirement):
            yield (
                path,
                f"{name}: met, and {requirement.describe()} takes no more groups "
                "(variant.going_down.exact_meld_count)",
            )
        return
    if state.turn_state.must_go_down is None:
        yield (
            "turn_state.must_go_down",
            f"{name}: seat {state.turn} has begun to go down, so it must finish this turn",
        )
        return
    try:
        left = check_laid(laid_shapes(state), requirement, variant)
    except RummyError as error:
        yield path, f"{name}: these groups cannot be part of one: {error}"
        return
    if None in left:
        yield (
            path,
            f"{name}: the groups laid meet {requirement.describe()}, but the seat is not down",
        )


def _buys(state: GameState) -> Problems:
    limit = state.variant.buying.limit(state.deal_number)
    for seat, facts in enumerate(state.seats):
        if not 0 <= facts.buys <= limit:
            yield (
                f"seats[{seat}].buys",
                f"buy limit: {facts.buys} buys, but deal {state.deal_number} allows 0 to {limit} "
                "(variant.buying.limits)",
            )
            return


def _totals(state: GameState) -> Problems:
    players = state.num_players
    sums = [0] * players
    previous = 0
    for index, result in enumerate(state.results):
        path = f"results[{index}]"
        if not previous < result.deal_number <= state.deal_number:
            yield f"{path}.deal_number", f"totals: deal {result.deal_number} is out of order"
            return
        previous = result.deal_number
        if [score.seat for score in result.seats] != list(range(players)):
            yield f"{path}.seats", f"totals: needs one score per seat, seats 0 to {players - 1}"
            return
        if result.winner is not None and not _seat_ok(result.winner, players):
            yield f"{path}.winner", f"totals: no seat {result.winner!r}"
            return
        for seat, points in enumerate(result.points):
            sums[seat] += points
    if list(state.totals) != sums:
        yield (
            "totals",
            f"totals: {list(state.totals)} are not the sums of the deal results ({sums})",
        )


def _a_move(state: GameState) -> Problems:
    """The seat to act has a legal action; else the obligation that leaves it none."""
    seat = state.to_act
    if seat is None or has_legal_action(state):
        return
    turn_state = state.turn_state
    owed = (
        ("must_go_down", turn_state.must_go_down),
        ("must_go_out", turn_state.must_go_out),
        ("jokers_to_meld", turn_state.jokers_to_meld),
    )
    for field, reason in owed:
        if reason:
            yield (
                f"turn_state.{field}",
                f"a move: seat {seat} has no legal action, since it cannot meet "
                f"turn_state.{field}={reason!r}",
            )
            return
    yield "to_act", f"a move: seat {seat} has no legal action"


def _events(state: GameState) -> Problems:
    """The event log: numbers rising from 0 up, seats that exist, and the deal it last
    started is this deal."""
    if event_chain_fits(state.event_log, state.num_players, state.deal_number):
        return
    yield from _event_problems(state)


_FIELD_COUNTS: Final = {cls: len(attrs.fields(cls)) - 1 for cls in EVENT_CLASSES}
"""Each event class with the number of its fields after ``number`` (a chain link holds
``(previous, number, class, *those fields)``, see :mod:`shanghai_rummy.events`)."""
_SEAT_AT: Final = {
    cls: 2 + [field.name for field in attrs.fields(cls)].index("seat")
    for cls in EVENT_CLASSES
    if "seat" in attrs.fields_dict(cls)
}
"""Where a link of each event class with a ``seat`` holds it."""
_DEAL_NUMBER_AT: Final = 2 + [field.name for field in attrs.fields(DealStarted)].index(
    "deal_number"
)
_CHECKED_CHAINS: Final[IdentityMemo[tuple[int, int | None]]] = IdentityMemo(
    "validation.checked_event_chains", 4
)
"""The heads of the last few event chains found right, by identity, each with the seat
count it was checked for and the deal its newest DealStarted starts (None: none): a state's
chain is the one before it with a link or two more, so each validate of a game in play
walks only the new links. Links are plain tuples, which cannot be held weakly, so only four
heads are kept (at most four deals' events)."""
_UNSEEN: Final[Any] = object()


def event_chain_fits(head: EventNode | None, players: int, deal_number: int) -> bool:
    """Whether the chain passes every check of :func:`_event_problems`, read from its links
    as they are, newest first, down to a head already found right; False where a link is not
    of the form the engine writes (the slow path then says what is wrong, or accepts what
    it accepted before)."""
    started: Any = _UNSEEN  # the deal the newest DealStarted starts
    node = head
    while node is not None:
        known = _CHECKED_CHAINS.get(node)
        if known is not None and known[0] == players:
            if started is _UNSEEN:
                started = known[1]
            break
        if _event_link_problem(node) is not None:
            return False
        previous, number, cls = node[0], node[1], node[2]
        if previous is None:
            if number < 0:
                return False
        elif not _links_to(previous, number):
            return False
        at = _SEAT_AT.get(cls)
        if at is not None and node[at] is not None and not _seat_ok(node[at], players):
            return False
        if started is _UNSEEN and cls is DealStarted:
            started = node[_DEAL_NUMBER_AT]
        node = previous
    if started is _UNSEEN:
        started = None
    if started is not None and started != deal_number:
        return False
    if head is not None:
        _CHECKED_CHAINS.put(head, None, (players, started))
    return True


def _malformed_link(head: object) -> tuple[str, str] | None:
    """The first link of the chain, oldest first, not of the form the engine writes (so that
    no event can be made of it), as (path, problem); None where every link is."""
    links: list[object] = []
    node = head
    while node is not None:
        links.append(node)
        if type(node) is not tuple or len(node) < 3:
            break
        node = node[0]
    for index, link in enumerate(reversed(links)):
        problem = _event_link_problem(link)
        if problem is not None:
            return f"events[{index}]", f"events: {problem}"
    return None


def _event_link_problem(link: object) -> str | None:
    if type(link) is not tuple or len(link) < 3:
        return (
            f"expected an event link (previous, number, class, fields), got {describe_type(link)}"
        )
    cls = link[2]
    count = _FIELD_COUNTS.get(cls) if isinstance(cls, type) else None
    if count is None:
        return f"expected an event, got {describe_type(cls)}"
    if len(link) != 3 + count:
        return f"expected an event, got a {cls.__name__} of {len(link) - 2} fields, not {count + 1}"
    if type(link[1]) is not int:
        return f"expected an event number, got {describe_type(link[1])}"
    return None


def _links_to(previous: object, number: int) -> bool:
    """Whether ``previous`` is a chain link of a number below ``number``."""
    return (
        type(previous) is tuple
        and len(previous) >= 3
        and type(previous[1]) is int
        and previous[1] < number
    )


def _event_problems(state: GameState) -> Problems:
    """:func:`_events` read from the event values, naming the first event that is wrong."""
    malformed = _malformed_link(state.event_log)
    if malformed is not None:
        yield malformed
        return
    events = state.events
    players = state.num_players
    previous = -1
    for index, event in enumerate(events):
        if event.number <= previous:
            yield f"events[{index}].number", f"events: {event.number} does not follow {previous}"
            return
        previous = event.number
        seat = getattr(event, "seat", None)
        if seat is not None and not _seat_ok(seat, players):
            yield f"events[{index}].seat", f"events: no seat {seat!r}"
            return
    started = [event for event in events if isinstance(event, DealStarted)]
    if started and started[-1].deal_number != state.deal_number:
        yield (
            f"events[{events.index(started[-1])}].deal_number",
            f"events: the log starts deal {started[-1].deal_number}, the state is in deal "
            f"{state.deal_number}",
        )


# -- where a state comes from ------------------------------------------------------------------
#
# Where a state comes from: its seed (or its stacked deal) and its history replayed.
#
# A game state carries what made it: the variant, the seed, the stacked deal where
# :func:`~shanghai_rummy.deal_from` began the game (:attr:`GameState.stacked`), and every
# action since. Replaying them must give the state itself; a forged state that keeps every
# invariant (a stacked stock, a card swapped with the stock, a replaced history, a changed
# seed, a deal scored anew) replays to another and is refused, naming the first field that
# differs. The cost is one application of each action of the history.
#


def checked_first_state(
    variant: Variant, players: int, seed: int, stacked: StackedDeal | None
) -> GameState:
    """The first state of a game (:func:`.dealing.first_state`), a stacked deal held to
    every invariant as :func:`~shanghai_rummy.deal_from` holds it."""
    state = first_state(variant, players, seed, stacked)
    if stacked is not None:
        validate(state)
    return state


def replayed(state: GameState) -> GameState:
    """The state the origin of ``state`` and its history give: every action applied in
    order, each next deal dealt where a deal had ended, and the deals after the last action
    up to ``state``'s. An action the rules refuse raises its error, prefixed with its index."""
    current = checked_first_state(state.variant, state.num_players, state.seed, state.stacked)
    for index, action in enumerate(state.history):
        if current.phase is Phase.DEAL_OVER:
            current = next_deal(current)
        try:
            current = apply_action(current, action)
        except RummyError as error:
            raise RummyError(f"history[{index}] {action!r}: {error}") from None
        except SLIPS as error:  # as the public apply reports it
            raise RummyError(
                f"history[{index}] {action!r}: apply: an argument of the wrong kind ({error})"
            ) from None
    while current.phase is Phase.DEAL_OVER and current.deal_number < state.deal_number:
        current = next_deal(current)
    return current


def history_problems(state: GameState) -> Iterator[tuple[str, str]]:
    """The first field of ``state`` that its replay does not reproduce, as (path, problem);
    nothing where the replay is ``state`` itself."""
    origin = "stacked deal" if state.stacked is not None else "seed"
    try:
        replay = replayed(state)
    except RummyError as error:
        yield "history", f"history: the {origin} and the history do not replay: {error}"
        return
    if replay == state:
        return
    for field in attrs.fields(GameState):
        if field.name == "event_log" and state.event_log is None:
            continue  # saved before states carried their events: the replay gives them
        key = chain_key if field.name == "event_log" else _same  # as GameState compares
        if key(getattr(replay, field.name)) != key(getattr(state, field.name)):
            name = {"log": "history", "event_log": "events"}.get(field.name, field.name)
            yield (
                name,
                f"history: the {origin} and the history replay to another {name} "
                "(a state is what its deal and its moves made it)",
            )
            return


def _same(value: object) -> object:
    return value


# -- the public functions' guard ----------------------------------------------------------------

_F = TypeVar("_F", bound=Callable[..., Any])


def refuses_bad_states(function: _F) -> _F:
    """``function`` (whose first argument is a state) raising a :class:`RummyError` for a
    state or an argument its hints do not allow: :class:`InvalidStateError` naming the
    broken invariant where ``state`` is a forged or hand-built state that fails
    :func:`validate`, else :class:`ArgumentTypeError`. Costs nothing until something goes
    wrong (the engine's own errors pass through)."""
    name = function.__name__

    @functools.wraps(function)
    def guarded(state: GameState, *args: Any, **kwargs: Any) -> Any:
        try:
            return function(state, *args, **kwargs)
        except RummyError:
            raise
        except SLIPS as error:
            raise _explained(name, state, error) from None

    return cast(_F, guarded)


def _explained(function: str, state: object, error: Exception) -> RummyError:
    if not isinstance(state, GameState):
        return wrong_type(function, "state", "a GameState", state)
    try:
        validate(state)
    except RummyError as invalid:
        return invalid
    except SLIPS:  # pragma: no cover - validate reports every slip of a state by path
        pass
    return ArgumentTypeError(f"{function}: an argument of the wrong kind ({error})")
