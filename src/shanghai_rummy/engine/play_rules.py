"""The rule checks the moves share with :func:`~shanghai_rummy.legal_actions`: going down,
new groups, lay-offs and joker swaps on the table, read through :mod:`.melds` and
:mod:`.solver` under the variant. One source of truth for both."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import reduce
from operator import or_
from typing import Final, TypeAlias

from .. import solver
from ..actions import End
from ..cards import JOKER, Card, Rank, Suit, make_pack, sort_cards
from ..contracts import Requirement
from ..errors import JokerSwapError, LayOffError
from ..melds import (
    GroupShape,
    MeldKind,
    Shape,
    TableMeld,
    check_group,
    extend,
    joker_kept_in_run,
    joker_moved_to_end,
    joker_swapped,
    lay_off_ends,
    named_kind,
    run_readings,
    sets_may_read_as_runs,
    swap_positions,
)
from ..memo import IdentityMemo, Memo
from ..solver import check_going_down, solve
from ..variants import GoOutDiscard, SwapWho, Variant

__all__ = [
    "TableSource",
    "can_go_down_with_jokers",
    "can_meld_a_joker",
    "card_playable",
    "extend_meld",
    "going_down_melds",
    "going_down_options",
    "going_down_turn_end",
    "going_down_way",
    "hand_out_possible",
    "joker_lay_off_barred",
    "lay_off_options",
    "new_group_options",
    "new_melds",
    "obligation_way",
    "opening_possible",
    "swap_barred",
    "swap_in_meld",
    "swap_options",
    "turn_end",
]


def joker_lay_off_barred(
    variant: Variant,
    meld: TableMeld,
    card: Card,
    seat: int,
    was_down: bool,
    end: End | None = None,
) -> str | None:
    """Why laying ``card`` off on ``meld`` (at ``end``) breaks the per-group joker limit of
    the turn of going down (``variant.jokers.per_group_for_the_going_down_turn``), or None.
    On that turn (the seat was not down when it began) every group the seat owns was laid
    that turn. A card of a wild rank (``jokers.wild_ranks``) adds a joker where it stands
    for another card there."""
    rules = variant.jokers
    limit = rules.going_down_per_group
    if (
        not rules.is_wild(card)
        or was_down
        or limit is None
        or not rules.per_group_for_the_going_down_turn
        or meld.owner != seat
        or meld.jokers < limit
        or not _adds_a_joker(variant, meld, card, end)
    ):
        return None
    return (
        f"a group laid this turn holds at most {limit} joker(s) until the turn ends "
        "(variant.jokers.per_group_for_the_going_down_turn)"
    )


def _adds_a_joker(variant: Variant, meld: TableMeld, card: Card, end: End | None) -> bool:
    """Whether ``card`` laid off on ``meld`` at ``end`` stands for another card there (a
    joker always does; False where the lay-off is refused for another reason)."""
    if card.is_joker:
        return True
    try:
        return extend(meld, card, variant, end).jokers > meld.jokers
    except LayOffError:
        return False


def swap_barred(variant: Variant, down: bool, was_down: bool) -> str | None:
    """Why a seat may not swap a joker at all this turn (``down``: it is down now;
    ``was_down``: it was down when the turn began), or None."""
    rules = variant.joker_swap
    if rules.who is SwapWho.NOBODY:
        return "jokers may not be taken from the table (variant.joker_swap.who=nobody)"
    if rules.who is SwapWho.DOWN_ONLY and not down:
        return "only a player who is down may swap a joker (variant.joker_swap.who=down_only)"
    if down and not was_down and not rules.same_turn_as_going_down:
        return (
            "a joker may be swapped only on turns after the one its player went down on "
            "(variant.joker_swap.same_turn_as_going_down=false)"
        )
    return None


def going_down_melds(
    variant: Variant, deal_number: int, groups: Sequence[Sequence[Card]], seat: int, next_id: int
) -> tuple[TableMeld, ...]:
    """The table melds of a going down, or InvalidMeldError / ContractNotMetError."""
    requirement = variant.deal(deal_number).requirement
    shapes = check_going_down(groups, requirement, variant)
    return tuple(shape.on_table(next_id + offset, seat) for offset, shape in enumerate(shapes))


def new_melds(
    variant: Variant,
    groups: Sequence[Sequence[Card]],
    seat: int,
    next_id: int,
    kinds: Sequence[MeldKind | None] = (),
) -> tuple[TableMeld, ...]:
    """The table melds of new groups laid down after going down, each read as the kind named
    for it in ``kinds`` (empty: as it reads), or InvalidMeldError."""
    from ..melds import make_table_meld

    named = kinds or (None,) * len(groups)
    return tuple(
        make_table_meld(next_id + offset, seat, group, variant, kind=kind)
        for offset, (group, kind) in enumerate(zip(groups, named, strict=True))
    )


def extend_meld(variant: Variant, meld: TableMeld, card: Card, end: End | None) -> TableMeld:
    """``meld`` with ``card`` laid off on it, or LayOffError."""
    return extend(meld, card, variant, end)


def swap_in_meld(variant: Variant, meld: TableMeld, card: Card) -> TableMeld:
    """``meld`` with ``card`` in place of a joker standing for it (in a run, under
    ``joker_swap.freed_joker=to_run_end``, that joker moved to an end), or JokerSwapError."""
    if joker_kept_in_run(meld, variant):
        return joker_moved_to_end(meld, card, variant)
    return joker_swapped(meld, card, variant)


TableSource: TypeAlias = Sequence[TableMeld] | Callable[[], Sequence[TableMeld]]
"""The melds on the table, or a function giving them, called only where an answer depends on
them (see :func:`opening_possible`)."""


def opening_possible(
    variant: Variant,
    deal_number: int,
    hand: Sequence[Card],
    laid: Sequence[GroupShape] = (),
    table: TableSource = (),
) -> bool:
    """Whether ``hand`` can go down this turn and still end the turn: some way to meet the
    deal's requirement that leaves a card to discard where ``variant.going_out`` requires
    one, and leaves no lone card where discarding the last one is forbidden unless that card
    can then be played (laid off, or swapped for a joker that is laid off) on ``table`` (the
    melds on the table) or on the groups of the going down. ``laid``: the groups laid toward
    the going down so far this turn (the rest of the hand finishes it). ``table`` may be a
    function giving the melds: it is called only for that lone card, so an answer it was not
    called for holds for any table. The answers apart from the table are remembered (a
    listing and the move made from it ask the same)."""
    key = (id(variant), deal_number, tuple(hand), tuple(laid))
    known = _OPENINGS.get(key)
    if known is None or known[0] is not variant:
        answer = _opening_apart_from_table(variant, deal_number, hand, laid)
        known = _OPENINGS.put(key, (variant, answer))
    if known[1] is not None:
        return known[1]
    requirement = variant.deal(deal_number).requirement
    return _lone_card_played(variant, requirement, hand, laid, table)


_OPENINGS: Final[Memo[tuple[object, ...], tuple[Variant, bool | None]]] = Memo(
    "engine.play_rules.openings", 256
)
"""The answers of :func:`_opening_apart_from_table` lately asked, by the variant's identity
(the variant kept with the answer), the deal's number, the hand and the groups laid."""


def _opening_apart_from_table(
    variant: Variant, deal_number: int, hand: Sequence[Card], laid: Sequence[GroupShape]
) -> bool | None:
    """:func:`opening_possible`, or None where only a lone card played on the table can
    decide it (``going_out=never``, and no way leaves another number of cards)."""
    requirement = variant.deal(deal_number).requirement
    if not variant.going_down.out_same_turn:
        # at least two cards left: no lone card, and one to discard
        return going_down_way(variant, deal_number, hand, laid) is not None
    if not laid:
        found = solve(hand, requirement, variant)
        if found is None:
            return False  # no way at all: the usual answer
        if _whole_hand_goes_down(variant, deal_number, hand, found):
            return True
    else:
        if solver.complete(hand, requirement, variant, laid) is None:
            return False  # no way at all: the usual answer, remembered
        if going_down_way(variant, deal_number, hand, laid) is not None:
            return True
    if variant.going_out_in(deal_number) is not GoOutDiscard.NEVER:
        return False
    return None


def _whole_hand_goes_down(
    variant: Variant, deal_number: int, hand: Sequence[Card], found: Sequence[Sequence[Card]]
) -> bool:
    """:func:`opening_possible` with nothing laid yet, and no lone card to play; ``found``:
    the way :func:`~shanghai_rummy.solve` finds for ``hand``."""
    requirement = variant.deal(deal_number).requirement
    left = len(hand) - sum(len(group) for group in found)
    rule = variant.going_out_in(deal_number)
    if rule is GoOutDiscard.REQUIRED and left == 0:
        return any(
            solve(_without_one(hand, card), requirement, variant) is not None for card in set(hand)
        )
    if rule is GoOutDiscard.NEVER and left == 1:
        # a way leaving no card, or at least two: two searches that each give up on a
        # choice of groups leaving too many (too few) cards, not a reading of every way
        return solver.way_leaving(
            hand, requirement, variant, _none_left, most_left=0
        ) or solver.way_leaving(hand, requirement, variant, _at_least_two, least_left=2)
    return True


def going_down_way(
    variant: Variant, deal_number: int, hand: Sequence[Card], laid: Sequence[GroupShape] = ()
) -> tuple[tuple[Card, ...], ...] | None:
    """One way (canonical groups) ``hand`` can go down this turn, around the groups ``laid``
    so far, that leaves a number of cards the going-out rule lets a turn end with (see
    :func:`turn_end`); None when there is none. The solver remembers the answer."""
    requirement = variant.deal(deal_number).requirement
    leaves = going_down_turn_end(variant, deal_number)
    found = solver.complete(hand, requirement, variant, laid)
    if found is None or leaves is None or leaves(len(hand) - sum(map(len, found))):
        return found
    return solver.complete(hand, requirement, variant, laid, leaves=leaves)


def _lone_card_played(
    variant: Variant,
    requirement: Requirement,
    hand: Sequence[Card],
    laid: Sequence[GroupShape],
    source: TableSource,
) -> bool:
    """Under ``going_out=never``, where no way to go down leaves a number of cards other
    than one: whether a way leaves a card that can then be played. A card playable on
    the table (``source``) or the groups ``laid`` needs any way of every other card (exact);
    a card that could be played only on a group of the way itself is tried on the way the
    search finds that leaves one card, and on the way it finds of every card but that one."""
    if not variant.going_down.lay_off_same_turn:
        return False  # a lone card (or the joker it swaps for) is played only by a lay-off
    way = solver.complete(hand, requirement, variant, laid, leaves=_one_left, most_left=1)
    if way is None:
        return False  # no way at all (none leaves another number of cards)
    table = source() if callable(source) else source
    if card_playable(variant, _left_by(hand, way)[0], [*table, *laid, *_shapes(way, variant)]):
        return True
    on_table = set(_played_on(variant, table, laid, hand))
    for card in sort_cards(set(hand)):
        rest = list(hand)
        rest.remove(card)
        found = solver.complete(rest, requirement, variant, laid, leaves=_none_left, most_left=0)
        if found is None:
            continue
        if card in on_table or card_playable(
            variant, card, [*table, *laid, *_shapes(found, variant)]
        ):
            return True
    return False


def _left_by(hand: Sequence[Card], way: Sequence[Sequence[Card]]) -> list[Card]:
    rest = list(hand)
    for group in way:
        for card in group:
            rest.remove(card)
    return rest


def _shapes(way: Sequence[Sequence[Card]], variant: Variant) -> list[Shape]:
    return [check_group(group, variant) for group in way]


def _played_on(
    variant: Variant, table: Sequence[TableMeld], laid: Sequence[GroupShape], hand: Sequence[Card]
) -> list[Card]:
    """The distinct cards of ``hand`` that, held alone, can be played on ``table`` or on
    the groups ``laid`` (see :func:`card_playable`)."""
    fits = _table_fits(table, variant)
    held = _card_bits(hand)
    maybe = held & (fits.lay_off_bits | fits.swap_bits) if table else 0
    melds: list[Shape] = [*table, *laid]
    played = []
    for card in sort_cards(set(hand)):
        if not maybe & _BIT[card] and not any(
            lay_off_ends(group, card, variant) or swap_positions(group, card, variant)
            for group in laid
        ):
            continue
        if card_playable(variant, card, melds):
            played.append(card)
    return played


def card_playable(variant: Variant, card: Card, melds: Sequence[Shape]) -> bool:
    """Whether ``card``, held alone, can be played on one of ``melds``: laid off, or
    swapped for a joker that is then laid off on one of them."""
    if any(lay_off_ends(meld, card, variant) for meld in melds):
        return True
    if card.is_joker:
        return False
    for index, meld in enumerate(melds):
        if not swap_positions(meld, card, variant):
            continue
        if joker_kept_in_run(meld, variant):  # the card is played, the joker stays
            try:
                joker_moved_to_end(_as_table_meld(meld), card, variant)
            except JokerSwapError:
                continue
            return True
        swapped = joker_swapped(_as_table_meld(meld), card, variant)
        after = (*melds[:index], swapped, *melds[index + 1 :])
        if any(lay_off_ends(other, JOKER, variant) for other in after):
            return True
    return False


def _as_table_meld(meld: Shape) -> TableMeld:
    if isinstance(meld, TableMeld):
        return meld
    assert isinstance(meld, GroupShape)
    return meld.on_table(0, 0)


def _none_left(left: int) -> bool:
    return left == 0


def _one_left(left: int) -> bool:
    return left == 1


def _at_most_one_left(left: int) -> bool:
    return left <= 1


def hand_out_possible(
    variant: Variant, deal_number: int, hand: Sequence[Card], laid: Sequence[GroupShape] = ()
) -> bool:
    """Whether ``hand`` can go down and out at once: every card in one way of going down,
    or all but one that is then discarded, as ``variant.going_out`` allows. One search for
    a way that leaves no card, or one (a way of the hand without a card is a way of the
    hand that leaves that card). ``laid``: the groups laid toward it so far this turn."""
    requirement = variant.deal(deal_number).requirement
    rule = variant.going_out_in(deal_number)
    leaves, most = _hand_out(rule)
    found = solver.complete(hand, requirement, variant, laid, leaves=leaves, most_left=most)
    return found is not None


def obligation_way(
    variant: Variant,
    deal_number: int,
    hand: Sequence[Card],
    laid: Sequence[GroupShape],
    jokers: int,
    go_out: bool,
) -> tuple[tuple[Card, ...], ...] | None:
    """One way (canonical groups) ``hand`` can finish a going down begun with ``laid`` (or
    go down, with nothing laid) under the turn's obligation: going down and out at once
    where ``go_out`` (see :func:`hand_out_possible`), else with ``jokers`` jokers among its
    groups, the turn still able to end (see :func:`can_go_down_with_jokers`); None where
    there is none. One search, not a listing of the groups."""
    requirement = variant.deal(deal_number).requirement
    if go_out:
        leaves, most = _hand_out(variant.going_out_in(deal_number))
        return solver.complete(hand, requirement, variant, laid, leaves=leaves, most_left=most)
    ends = going_down_turn_end(variant, deal_number) or _any_number
    return solver.complete(hand, requirement, variant, laid, leaves=ends, jokers_at_least=jokers)


def _without_one(hand: Sequence[Card], card: Card) -> list[Card]:
    remaining = list(hand)
    remaining.remove(card)
    return remaining


def going_down_options(
    variant: Variant, deal_number: int, hand: Iterable[Card]
) -> tuple[tuple[tuple[Card, ...], ...], ...]:
    """Every distinct way to go down with ``hand``, in canonical form."""
    return solver.contract_options(hand, variant.deal(deal_number).requirement, variant)


def new_group_options(
    variant: Variant, hand: Iterable[Card]
) -> tuple[tuple[tuple[Card, ...], MeldKind | None], ...]:
    """Every distinct single group ``hand`` can lay down after going down, each with the kind
    a Meld must name to lay it: None, but ``MeldKind.RUN`` for the runs that the cards of a
    set of one natural card and jokers also make (both readings are listed; under
    ``jokers.wild_ranks``, of a set whose cards are wild but one at most)."""
    groups = possible_groups(hand, variant)
    options: list[tuple[tuple[Card, ...], MeldKind | None]] = [(group, None) for group in groups]
    if not sets_may_read_as_runs(variant):
        return tuple(options)
    wild = bool(variant.jokers.wild_ranks)
    for group in groups:
        if wild or sum(1 for card in group if card.rank is not None) == 1:
            for run in run_readings(check_group(group, variant), variant):
                options.append((run.cards, named_kind(run, variant)))
    return tuple(options)


def possible_groups(hand: Iterable[Card], variant: Variant) -> tuple[tuple[Card, ...], ...]:
    """Every distinct valid group (canonical form) that some of ``hand`` can make."""
    return solver.possible_groups(hand, variant)


def can_meld_a_joker(
    variant: Variant,
    deal_number: int,
    hand: Sequence[Card],
    jokers: int,
    going_down_turn: bool = False,
) -> bool:
    """Whether ``hand`` can lay down a new group holding ``jokers`` of its jokers (the
    obligation a swap leaves under ``variant.joker_swap.joker_into_new_meld``) and still end
    the turn: a card left to discard where ``variant.going_out`` requires one, and never a
    lone card that might not be playable where it forbids discarding the last card (two
    cards left on the turn of going down, ``going_down_turn``, where
    ``variant.going_down.out_same_turn`` is false)."""
    rule = variant.going_out_in(deal_number)
    at_least = 2 if going_down_turn and not variant.going_down.out_same_turn else 0
    return any(
        group.count(JOKER) >= jokers
        and len(hand) - len(group) >= at_least
        and _turn_can_end(rule, len(hand) - len(group))
        for group in possible_groups(hand, variant)
    )


def can_go_down_with_jokers(
    variant: Variant,
    deal_number: int,
    hand: Sequence[Card],
    jokers: int,
    laid: Sequence[GroupShape] = (),
) -> bool:
    """Whether ``hand`` can go down with ``jokers`` of its jokers in the groups, and still end
    the turn (the obligation a swap leaves a player not yet down under
    ``variant.joker_swap.joker_into_new_meld``); ``laid``: the groups laid toward the going
    down so far this turn. One search for a way holding the jokers (see
    :func:`~shanghai_rummy.solver.complete`), not a reading of every way."""
    requirement = variant.deal(deal_number).requirement
    ends = going_down_turn_end(variant, deal_number) or _any_number
    found = solver.complete(hand, requirement, variant, laid, leaves=ends, jokers_at_least=jokers)
    return found is not None


def turn_end(rule: GoOutDiscard) -> Callable[[int], bool] | None:
    """What the cards a going down leaves must satisfy for the turn to end under the
    going-out rule (see :func:`_turn_can_end`), or None where any number will do."""
    if rule is GoOutDiscard.REQUIRED:
        return _at_least_one
    if rule is GoOutDiscard.NEVER:
        return _not_one
    return None


def going_down_turn_end(variant: Variant, deal_number: int) -> Callable[[int], bool] | None:
    """What the cards a going down leaves must satisfy for its turn to end: at least two
    where ``variant.going_down.out_same_turn`` is false (one to discard, one to keep), else
    :func:`turn_end` of the going-out rule."""
    if not variant.going_down.out_same_turn:
        return _at_least_two
    return turn_end(variant.going_out_in(deal_number))


def _at_least_one(left: int) -> bool:
    return left >= 1


def _at_least_two(left: int) -> bool:
    return left >= 2


def _any_number(left: int) -> bool:
    return True


def _not_one(left: int) -> bool:
    return left != 1


def _hand_out(rule: GoOutDiscard) -> tuple[Callable[[int], bool], int]:
    """The cards a going down may leave to go out at once under the going-out rule, and
    the most it may leave (module functions: the solver remembers answers by them)."""
    if rule is GoOutDiscard.NEVER:
        return _none_left, 0
    if rule is GoOutDiscard.REQUIRED:
        return _one_left, 1
    return _at_most_one_left, 1


def _turn_can_end(rule: GoOutDiscard, left: int) -> bool:
    """Whether a turn that leaves ``left`` cards in hand may still end under the going-out
    rule: a card to discard where one is required, and no lone card where discarding the
    last card is forbidden (it might not be playable)."""
    return not (
        (rule is GoOutDiscard.REQUIRED and left == 0) or (rule is GoOutDiscard.NEVER and left == 1)
    )


class _MeldFits:
    """What one table meld accepts under one variant, worked out once per meld: the table
    keeps its melds from turn to turn (a lay-off or swap makes a new one), so the lists of
    legal actions read these instead of asking every card of the hand again.

    ``lay_offs``: each card that may be laid off, with the ends to name (``None`` unless it
    fits both ends of a run); ``swaps``: the natural cards that may replace one of its
    jokers. Both in card order (:func:`~shanghai_rummy.sort_cards`), and each with a mask of
    their card bits (:func:`_card_bits`) that rules out most melds at once."""

    __slots__ = ("lay_off_bits", "lay_offs", "meld", "swap_bits", "swaps", "variant")

    def __init__(self, meld: TableMeld, variant: Variant) -> None:
        self.meld = meld
        self.variant = variant
        if meld.kind is MeldKind.SET:
            rank = meld.rank
            naturals = [] if rank is None else [Card.of(rank, suit) for suit in Suit]
        else:
            suit = meld.suit
            naturals = [] if suit is None else [Card.of(rank, suit) for rank in Rank]
        lay_offs: list[tuple[Card, tuple[End | None, ...]]] = []
        for card in (*_with_wild_cards(naturals, variant), JOKER):
            ends = lay_off_ends(meld, card, variant)
            if ends:
                both = meld.kind is MeldKind.RUN and len(ends) > 1
                lay_offs.append((card, ("low", "high") if both else (None,)))
        self.lay_offs = tuple(lay_offs)
        self.lay_off_bits = _card_bits(card for card, _ in lay_offs)
        holds_joker = any(held.rank is None for held in meld.cards)
        self.swaps = (
            tuple(card for card in naturals if swap_positions(meld, card, variant))
            if holds_joker
            else ()
        )
        self.swap_bits = _card_bits(self.swaps)


def _with_wild_cards(naturals: list[Card], variant: Variant) -> Sequence[Card]:
    """``naturals`` and, under ``jokers.wild_ranks``, every card of a wild rank (which may
    be laid off as a joker), in card order."""
    wild = variant.jokers.wild_ranks
    if not wild:
        return naturals
    every = {Card.of(Rank(rank), suit) for rank in wild for suit in Suit}
    return sort_cards({*naturals, *every})


_BIT = {card: 1 << index for index, card in enumerate(sort_cards(make_pack(1, 1)))}


def _card_bits(cards: Iterable[Card]) -> int:
    """One bit per distinct card of ``cards``."""
    return reduce(or_, map(_BIT.__getitem__, cards), 0)


_FITS: Final[IdentityMemo[_MeldFits]] = IdentityMemo("engine.play_rules.meld_fits", 4096)


def _fits(table_meld: TableMeld, variant: Variant) -> _MeldFits:
    """The :class:`_MeldFits` of that meld object under that variant, remembered."""
    known = _FITS.get(table_meld, variant)
    if known is None:
        known = _FITS.put(table_meld, variant, _MeldFits(table_meld, variant))
    return known


class _TableFits:
    """The :class:`_MeldFits` of every meld of one table, with the union of their card bits:
    a hand that holds none of the cards the table accepts is answered at once."""

    __slots__ = ("lay_off_bits", "melds", "swap_bits", "table", "variant")

    def __init__(self, table: Sequence[TableMeld], variant: Variant) -> None:
        self.table = table
        self.variant = variant
        self.melds = tuple((table_meld.id, _fits(table_meld, variant)) for table_meld in table)
        self.lay_off_bits = self.swap_bits = 0
        for _, fits in self.melds:
            self.lay_off_bits |= fits.lay_off_bits
            self.swap_bits |= fits.swap_bits


_TABLES: Final[IdentityMemo[_TableFits]] = IdentityMemo("engine.play_rules.table_fits", 1024)


def _table_fits(table: Sequence[TableMeld], variant: Variant) -> _TableFits:
    """The :class:`_TableFits` of that table object (a state's ``table`` tuple, kept from
    state to state until a meld changes) under that variant, remembered."""
    known = _TABLES.get(table, variant)
    if known is None:
        known = _TABLES.put(table, variant, _TableFits(table, variant))
    return known


def lay_off_options(
    variant: Variant, table: Sequence[TableMeld], cards: Iterable[Card]
) -> list[tuple[Card, int, End | None]]:
    """Every lay-off of one of ``cards`` on a table meld, meld by meld and in card order:
    ``(card, meld id, end)``, where ``end`` is None unless the card fits both ends of a
    run."""
    table_fits = _table_fits(table, variant)
    options: list[tuple[Card, int, End | None]] = []
    held = _card_bits(cards) if table_fits.lay_off_bits else 0
    if not table_fits.lay_off_bits & held:
        return options
    for meld_id, fits in table_fits.melds:
        if fits.lay_off_bits & held:
            for card, ends in fits.lay_offs:
                if _BIT[card] & held:
                    options.extend((card, meld_id, end) for end in ends)
    return options


def swap_options(
    variant: Variant, table: Sequence[TableMeld], cards: Iterable[Card]
) -> list[tuple[Card, int]]:
    """Every ``(natural card, meld id)`` for which the meld holds a joker one of ``cards``
    may replace, meld by meld and in card order."""
    table_fits = _table_fits(table, variant)
    options: list[tuple[Card, int]] = []
    held = _card_bits(cards) if table_fits.swap_bits else 0
    if not table_fits.swap_bits & held:
        return options
    for meld_id, fits in table_fits.melds:
        if fits.swap_bits & held:
            options.extend((card, meld_id) for card in fits.swaps if _BIT[card] & held)
    return options
