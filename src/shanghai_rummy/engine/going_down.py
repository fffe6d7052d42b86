"""Going down group by group: the groups a seat lays toward its going down in one turn,
what they still leave to lay, whether the rest of the hand can finish it this turn, and
the single groups it may lay next. One source of truth for :func:`~shanghai_rummy.meld`
and :func:`~shanghai_rummy.legal_actions`.

A seat not yet down may lay one group of the deal's requirement (or several) at a time.
A :class:`~shanghai_rummy.Meld` that does not meet the requirement yet is accepted when the
rest of the hand can still complete it this turn, under the turn's obligations and the
going-out rule; until it is met the seat may only lay further groups toward it (or swap a
joker where that leaves the completion possible), never discard, so a turn is never left
half-laid. Once met the seat is down, exactly as a going down in one meld makes it; where
a going down may hold more groups than the requirement asks (an opening, a contract without
``exact_meld_count``), the groups laid before any move of another kind are one going down.

>>> import shanghai_rummy as sr
>>> hand = sr.parse_cards("8C 8D 8H 9C 9D 9H 2C 3D 4H 5S 6C")
>>> state = sr.deal_from(sr.get_variant("shanghai"), hands=[sr.parse_cards("KS"), hand])
>>> state = sr.draw(state, 1, sr.Source.STOCK)
>>> [sr.format_action(a) for a in sr.legal_actions(state) if isinstance(a, sr.Meld)]
['meld 8C 8D 8H', 'meld 9C 9D 9H']
>>> begun = sr.meld(state, 1, [sr.parse_cards("8C 8D 8H")])
>>> begun.is_down(1), sr.view(begun, 1).still_to_lay
(False, '1 set of 3')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from ..cards import JOKER, Card
from ..contracts import Contract, Opening, Requirement
from ..errors import ContractNotMetError, InvalidMeldError
from ..levels import contract_number, requirement_of
from ..melds import (
    GroupShape,
    MeldKind,
    TableMeld,
    check_group,
    named_kind,
    run_readings,
    sets_may_read_as_runs,
)
from ..memo import IdentityMemo, Memo
from ..solver import (
    check_going_down,
    check_laid,
    check_shapes,
    complete,
    possible_shapes,
    remaining,
    runs_apart,
    solve,
    startable_groups,
)
from ..state import GameState
from ..variants import GoOutDiscard, SameSuitRuns, Variant
from .play_rules import (
    TableSource,
    can_go_down_with_jokers,
    going_down_turn_end,
    going_down_way,
    hand_out_possible,
    obligation_way,
    opening_possible,
)

__all__ = [
    "HALF_LAID",
    "can_finish",
    "extends_going_down",
    "finish_refusal",
    "group_options",
    "laid_shapes",
    "lay_toward",
    "listed_group",
    "obligation_options",
    "read_groups",
    "still_to_lay",
]

HALF_LAID = (
    "you have begun to go down this turn: the rest of the going down must be laid before "
    "the turn ends"
)
"""The obligation a going down begun but not met leaves (``TurnState.must_go_down``)."""


def laid_shapes(state: GameState) -> tuple[GroupShape, ...]:
    """The groups laid toward the open going down of the seat in turn, in order."""
    ids = state.turn_state.going_down
    if not ids:
        return ()
    by_id = {table_meld.id: table_meld for table_meld in state.table}
    return tuple(by_id[meld_id].shape for meld_id in ids if meld_id in by_id)


def still_to_lay(state: GameState) -> Requirement | None:
    """What the seat in turn must still lay to be down, when its going down is half-laid
    (the first of :func:`~shanghai_rummy.solver.remaining`); None otherwise."""
    laid = laid_shapes(state)
    if not laid or state.seats[state.turn].down:
        return None
    requirement = requirement_of(state, state.turn)
    for left in check_laid(laid, requirement, state.variant):
        if left is not None:
            return left
    return None  # pragma: no cover - a half-laid going down has something left to lay


def extends_going_down(variant: Variant, requirement: Requirement) -> bool:
    """Whether a going down, once met, may take more groups that turn: an opening, or a
    contract without ``exact_meld_count``."""
    return isinstance(requirement, Opening) or not variant.going_down.exact_meld_count


def can_finish(
    state: GameState, laid: Sequence[GroupShape], hand: Sequence[Card], owed: int
) -> bool:
    """Whether a going down begun with ``laid`` can be finished this turn by ``hand`` (the
    cards left) and the turn still end, ``owed`` jokers taken by swaps still to go into it:
    :func:`finish_refusal` is None. Exact: a lone card left where ``going_out=never`` counts
    as played where it can be laid off (or swapped for a joker laid off) on the table."""
    variant = state.variant
    deal_number = contract_number(state, state.turn)
    if state.turn_state.must_go_out is not None:
        return hand_out_possible(variant, deal_number, hand, laid)
    if owed:
        return can_go_down_with_jokers(variant, deal_number, hand, owed, laid)
    return opening_possible(variant, deal_number, hand, laid, state.table)


def finish_refusal(
    state: GameState, seat: int, laid: Sequence[GroupShape], hand: Sequence[Card], owed: int
) -> str | None:
    """Why a going down begun with ``laid`` could not be finished this turn by ``hand`` (the
    cards left), ``owed`` jokers taken by swaps still to go into it; None when it can."""
    if can_finish(state, laid, hand, owed):
        return None
    variant = state.variant
    requirement = requirement_of(state, seat)
    must_go_out = state.turn_state.must_go_out
    if must_go_out is not None:
        return f"{must_go_out}, and the rest of the hand cannot go down and out with them"
    if owed:
        return (
            f"{owed} joker(s) taken by a swap must go into the going down "
            "(variant.joker_swap.joker_into_new_meld), and the rest of the hand cannot"
        )
    if complete(hand, requirement, variant, laid) is None:
        left = " or ".join(
            residual.describe() for residual in check_laid(laid, requirement, variant) if residual
        )
        return f"the rest of the hand cannot make what is still to lay ({left})"
    if not variant.going_down.out_same_turn:
        return (
            "the rest of the hand could finish it only by leaving fewer than two cards, and "
            "the turn of going down must end with a discard that leaves one "
            "(variant.going_down.out_same_turn=false)"
        )
    if variant.going_out_in(state.deal_number) is GoOutDiscard.REQUIRED:
        return (
            "the rest of the hand could finish it only by laying every card, leaving none to "
            "discard (variant.going_out=required)"
        )
    return (
        "the rest of the hand could finish it only by leaving one card, which may not be "
        "discarded (variant.going_out=never) and could not be played on the table"
    )


def lay_toward(
    state: GameState,
    seat: int,
    groups: Sequence[Sequence[Card]],
    hand: tuple[Card, ...],
    owed: int,
    kinds: Sequence[MeldKind | None] = (),
) -> tuple[tuple[GroupShape, ...], bool] | None:
    """Check ``groups`` laid by ``seat`` toward its going down (not yet down, or down with
    the going down still open), ``hand`` the cards it keeps, ``owed`` the swapped jokers
    still owed after them, ``kinds`` how each group is read (empty: as
    :func:`~shanghai_rummy.check_group` reads it): the groups' shapes and whether the going
    down is then met. None where the seat is down and they cannot join the going down (they
    may be new groups); InvalidMeldError / ContractNotMetError where they are refused."""
    listed = listed_group(state, seat, groups, kinds)
    if listed is not None:  # a group the kept listing of this hand lists
        return (listed[0],), listed[1]
    variant = state.variant
    requirement = requirement_of(state, seat)
    laid = laid_shapes(state)
    down = state.seats[seat].down
    if not laid and not down:
        try:
            if not kinds:
                return check_going_down(groups, requirement, variant), True
            named = read_groups(groups, variant, kinds)
            check_shapes(named, requirement, variant)
            return named, True
        except ContractNotMetError as error:
            why_not = str(error)
        return _begun(state, seat, groups, hand, owed, (), why_not, kinds)
    shapes = read_groups(groups, variant, kinds)
    together = (*laid, *shapes)
    try:
        check_shapes(together, requirement, variant)
        return shapes, True
    except InvalidMeldError:
        if down:
            return None
        raise
    except ContractNotMetError as error:
        if down:
            return None
        why_not = str(error)
    return _begun(state, seat, groups, hand, owed, laid, why_not, kinds)


def read_groups(
    groups: Sequence[Sequence[Card]], variant: Variant, kinds: Sequence[MeldKind | None] = ()
) -> tuple[GroupShape, ...]:
    """Each group read by :func:`~shanghai_rummy.check_group` as the kind named for it in
    ``kinds`` (empty, or None for a group: as it reads it), or InvalidMeldError."""
    named = kinds or (None,) * len(groups)
    return tuple(
        check_group(group, variant, kind=kind) for group, kind in zip(groups, named, strict=True)
    )


def _begun(
    state: GameState,
    seat: int,
    groups: Sequence[Sequence[Card]],
    hand: tuple[Card, ...],
    owed: int,
    laid: tuple[GroupShape, ...],
    why_not: str,
    kinds: Sequence[MeldKind | None],
) -> tuple[tuple[GroupShape, ...], bool]:
    """Groups that do not meet the requirement yet (``why_not``), accepted as part of the
    going down where the rest of the hand can finish it this turn."""
    variant = state.variant
    requirement = requirement_of(state, seat)
    shapes = read_groups(groups, variant, kinds)
    together = (*laid, *shapes)
    check_laid(together, requirement, variant)
    if _listed(state, seat, requirement, laid, shapes, hand, owed):
        return shapes, False
    refusal = finish_refusal(state, seat, together, hand, owed)
    if refusal is not None:
        verb = "continue" if laid else "start"
        raise ContractNotMetError(
            f"{' + '.join(map(str, shapes))} cannot {verb} a going down: it does not go down "
            f"yet ({why_not}), and {refusal}"
        )
    return shapes, False


def _listed(
    state: GameState,
    seat: int,
    requirement: Requirement,
    laid: tuple[GroupShape, ...],
    shapes: tuple[GroupShape, ...],
    hand: tuple[Card, ...],
    owed: int,
) -> bool:
    """Whether the one group of ``shapes`` is among those the solver found the rest of the
    hand completes, leaving a number of cards the turn may end with (the answers the
    listing of this state asked for, remembered): then it may start or continue the going
    down (see :func:`_contract_options`)."""
    turn_state = state.turn_state
    if (
        len(shapes) != 1
        or owed
        or turn_state.must_go_out is not None
        or turn_state.jokers_to_meld
        or not isinstance(requirement, Contract)
    ):
        return False
    variant = state.variant
    leaves = going_down_turn_end(variant, contract_number(state, seat))
    held = (*hand, *shapes[0].cards)
    return startable_groups(held, requirement, variant, laid, leaves=leaves).get(shapes[0]) is True


_MOST_WITNESSES = 8
_MOST_OWING_WITNESSES = 256
"""The most ways kept to settle groups against (owing swapped jokers, a way settles only
groups of as many jokers or more, so more are kept, the latest)."""


def group_options(
    state: GameState, seat: int
) -> list[tuple[tuple[Card, ...], MeldKind | None, bool]]:
    """Every distinct single group (canonical form) that ``seat`` may lay toward its going
    down now, each with the kind a Meld must name to lay it (None but for the run reading of
    a group that also reads as a set, :func:`~shanghai_rummy.melds.named_kind`) and whether
    it meets the requirement: those that start or continue a going down the rest of the hand
    can finish this turn, or join an open one that is met. Both readings of a group of one
    natural card and jokers are listed. The turn-end rules of a group that meets the
    requirement are left to the caller (the engine says, as for any play).

    Each group is first tried against the ways found so far to finish the going down (the
    group one of a way's groups, in place of one, or beside them): most are settled so, and
    only the rest ask the solver whether the rest of the hand can finish, whose answer (a
    way, remembered by the solver) joins the ways tried."""
    variant = state.variant
    deal_number = contract_number(state, seat)
    requirement = requirement_of(state, seat)
    hand = state.hands[seat]
    laid = laid_shapes(state)
    down = state.seats[seat].down
    turn_state = state.turn_state
    owed = turn_state.jokers_to_meld
    if turn_state.must_go_out is None and not down:
        if owed:  # owing swapped jokers: the listing is kept per hand
            return list(_owing_listing(state, seat, requirement, laid).options)
        kept = _plain_listing(state, seat, requirement, laid)
        if kept is not None:
            return kept
    plain = turn_state.must_go_out is None and not owed and not down
    # no group can start a going down the hand as a whole cannot make
    if (
        not laid
        and not down
        and not _can_start(variant, deal_number, hand, requirement, state.table)
    ):
        return []
    counts = _CardCounts(hand)
    extends = extends_going_down(variant, requirement)
    witnesses = _Witnesses(_MOST_WITNESSES)
    if plain:
        way = going_down_way(variant, deal_number, hand, laid)
        if way is not None:
            witnesses.add([check_group(group, variant) for group in way], counts, extends)
    options: list[tuple[GroupShape, MeldKind | None, bool]] = []
    leaves = going_down_turn_end(variant, deal_number)
    # whether a turn may end with so many cards left, by their number
    ends = None if leaves is None else [leaves(left) for left in range(len(hand) + 1)]
    # what is left to lay depends on a group's kind, size and jokers only (a contract)
    lefts = _Lefts(laid, requirement, variant)
    # one natural card with jokers makes a group only where jokers may outnumber naturals
    two_ways = sets_may_read_as_runs(variant)
    shapes = possible_shapes(hand, variant)
    for shape in _both_readings(shapes, variant) if two_ways else shapes:
        together = (*laid, shape)
        jokers = shape.jokers
        if not _may_join(shape, jokers, laid, variant):
            continue
        kind = named_kind(shape, variant) if two_ways else None
        read = (shape.kind, len(shape.cards), jokers)
        left = lefts.of((read,), (shape,))
        if not left or (down and None not in left):
            continue
        if None in left:
            options.append((shape, kind, True))
            continue
        if plain and witnesses.settle(shape, read, lefts, counts, ends):
            options.append((shape, kind, False))
            continue
        rest = _less(hand, shape.cards)
        if plain:
            way = going_down_way(variant, deal_number, rest, together)
            if way is not None:
                if len(witnesses.ways) < _MOST_WITNESSES:
                    witnesses.add([shape, *(check_group(g, variant) for g in way)], counts, extends)
                options.append((shape, kind, False))
                continue
        if can_finish(state, together, rest, max(0, owed - jokers)):
            options.append((shape, kind, False))
    listing = _Listing(variant, options, None)
    if plain:  # the move made from this listing reads it (listed_group)
        _LISTED_STATES.put(state, None, (seat, listing))
    return list(listing.options)


class _OwingListing:
    """The groups a hand owing jokers taken by swaps may lay toward its going down
    (:func:`_owing_options`), kept for the hand (see :func:`_owing_listing`), with the
    variant and the table it read (None where it read none)."""

    __slots__ = ("options", "table", "variant")

    def __init__(
        self,
        variant: Variant,
        options: list[tuple[tuple[Card, ...], MeldKind | None, bool]],
        table: tuple[TableMeld, ...] | None,
    ) -> None:
        self.variant = variant
        self.options = options
        self.table = table


_OWING_LISTINGS: Memo[tuple[object, ...], _OwingListing] = Memo(
    "going-down groups of a hand owing swapped jokers", 16
)
"""The :class:`_OwingListing` of each hand lately listed, by the variant's identity, the
requirement, the deal's number, the hand, the groups laid so far this turn and the jokers
owed (every later listing of the same hand and turn asks the same)."""


def _owing_listing(
    state: GameState, seat: int, requirement: Requirement, laid: tuple[GroupShape, ...]
) -> _OwingListing:
    """The :class:`_OwingListing` of ``seat``'s hand in ``state`` (see
    :func:`_owing_options`), kept per hand."""
    owed = state.turn_state.jokers_to_meld
    hand = state.hands[seat]
    key = (id(state.variant), requirement, contract_number(state, seat), hand, laid, owed)
    known = _OWING_LISTINGS.get(key)
    if (
        known is None
        or known.variant is not state.variant
        or (
            known.table is not None
            and known.table is not state.table
            and known.table != state.table
        )
    ):
        table = _TableReads(state.table)
        options = _owing_options(state, seat, requirement, laid, table)
        known = _OWING_LISTINGS.put(
            key, _OwingListing(state.variant, options, state.table if table.read else None)
        )
    return known


class _TableReads:
    """The melds on the table, as a :data:`~.play_rules.TableSource` that says whether an
    answer read them (``read``)."""

    __slots__ = ("read", "table")

    def __init__(self, table: tuple[TableMeld, ...]) -> None:
        self.table = table
        self.read = False

    def __call__(self) -> tuple[TableMeld, ...]:
        self.read = True
        return self.table


def _owing_options(
    state: GameState,
    seat: int,
    requirement: Requirement,
    laid: tuple[GroupShape, ...],
    table: _TableReads,
) -> list[tuple[tuple[Card, ...], MeldKind | None, bool]]:
    """:func:`group_options` of a seat not down (or with its going down open) that owes
    jokers taken by swaps (``turn_state.jokers_to_meld``) and need not go out: a group's rest
    must complete the going down at all (for a contract, the solver answers for every group
    at once), and with the jokers still owed; the ways found holding them settle most
    groups. ``table`` is read only where a lone card left might be played on it."""
    variant = state.variant
    deal_number = contract_number(state, seat)
    hand = state.hands[seat]
    owed = state.turn_state.jokers_to_meld
    if not laid and not _can_start(variant, deal_number, hand, requirement, table):
        return []
    counts = _CardCounts(hand)
    extends = extends_going_down(variant, requirement)
    leaves = going_down_turn_end(variant, deal_number)
    answers: dict[GroupShape, bool] | None = None
    if isinstance(requirement, Contract):
        answers = startable_groups(hand, requirement, variant, laid, leaves=leaves)
    witnesses = _Witnesses(_MOST_OWING_WITNESSES)
    # a group and a completion of its rest holding the jokers still owed make a way of the
    # whole hand holding them all: where there is none, only the jokers it holds itself
    # (and a lone card played on the table) can let a group start
    way = obligation_way(variant, deal_number, hand, laid, owed, False)
    if way is not None:
        witnesses.add([check_group(group, variant) for group in way], counts, extends)
    # in the listing's order (None: a group not listed)
    options: list[tuple[tuple[Card, ...], MeldKind | None, bool] | None] = []
    # whether a turn may end with so many cards left, by their number
    ends = None if leaves is None else [leaves(left) for left in range(len(hand) + 1)]
    # what is left to lay depends on a group's kind, size and jokers only (a contract)
    lefts = _Lefts(laid, requirement, variant)
    # one natural card with jokers makes a group only where jokers may outnumber naturals
    two_ways = sets_may_read_as_runs(variant)
    # a group the rest cannot complete is listed only where it completes the going down
    # itself, and with fewer groups than the contract's (each fills one slot) none does
    passes = answers is not None and len(laid) + 1 < _group_count(requirement)
    readings, count = _readings(hand, variant, answers, not passes, two_ways)
    # the groups whose rest must hold jokers still owed, settled once the others are
    asked: list[_Asked] = []
    for index, (shape, answer) in enumerate(readings):
        known = answers if index < count else None  # a second reading was not asked
        if passes and known is not None and answer is None:
            continue
        jokers = _jokers(shape, variant)
        if not _may_join(shape, jokers, laid, variant):
            continue
        kind = named_kind(shape, variant) if two_ways else None
        read = (shape.kind, len(shape.cards), jokers)
        left = lefts.of((read,), (shape,))
        if not left:
            continue
        if None in left:
            options.append((shape.cards, kind, True))
            continue
        still_owed = owed - jokers if jokers < owed else 0
        # the rest cannot complete it at all; or, jokers still owed, only leaving cards the
        # turn cannot end with (none owed, a lone card may still go on the table)
        if known is not None and (answer is None or (still_owed and not answer)):
            continue
        if not still_owed:
            # the rest completes it leaving cards the turn may end with (the solver said so),
            # or may leave a lone card played on the table
            if (
                answer
                or witnesses.settle(shape, read, lefts, counts, ends)
                or opening_possible(
                    variant, deal_number, _less(hand, shape.cards), (*laid, shape), table
                )
            ):
                options.append((shape.cards, kind, False))
            continue
        if way is None:
            continue  # no way of the whole hand holds the jokers owed
        asked.append((len(options), shape, kind, read, still_owed))
        options.append(None)
    # the longest groups first: the rest of each is searched soonest, and the ways found
    # (a long group and short ones) settle most of the others
    asked.sort(key=_longest_first)
    for position, shape, kind, read, still_owed in asked:
        if witnesses.settle(shape, read, lefts, counts, ends, still_owed):
            options[position] = (shape.cards, kind, False)
            continue
        found = obligation_way(
            variant, deal_number, _less(hand, shape.cards), (*laid, shape), still_owed, False
        )
        if found is not None:
            witnesses.add([shape, *(check_group(g, variant) for g in found)], counts, extends)
            options[position] = (shape.cards, kind, False)
    return [option for option in options if option is not None]


_Asked = tuple[int, GroupShape, MeldKind | None, "_Read", int]
"""A group whose rest must hold jokers still owed (:func:`_owing_options`): its place in the
listing, its shape, the kind a Meld names, its read, and the jokers still owed."""


def _jokers(shape: GroupShape, variant: Variant) -> int:
    """``shape.jokers``: without wild ranks every card of a valid group but a joker stands
    as itself, so its jokers are counted without reading each card's place."""
    return shape.jokers if variant.jokers.wild_ranks else shape.cards.count(JOKER)


def _longest_first(asked: _Asked) -> int:
    return -len(asked[1].cards)


def _plain_listing(
    state: GameState, seat: int, requirement: Requirement, laid: tuple[GroupShape, ...]
) -> list[tuple[tuple[Card, ...], MeldKind | None, bool]] | None:
    """:func:`group_options` of a seat not down with no obligation, where it is known
    without working it out here: a contract's listing (remembered by the hand), or the
    opening's listing kept for this very state; None for an opening not listed yet."""
    if isinstance(requirement, Contract):
        return list(_listing(state, seat, requirement, laid).options)
    listed = _LISTED_STATES.get(state)
    if listed is not None and listed[0] == seat:
        return list(listed[1].options)
    return None


def _group_count(requirement: Requirement) -> int:
    """How many groups a contract asks for (an opening: one will do)."""
    return requirement.group_count if isinstance(requirement, Contract) else 1


def _may_join(
    shape: GroupShape, jokers: int, laid: tuple[GroupShape, ...], variant: Variant
) -> bool:
    """Whether ``shape`` (holding ``jokers``) may be laid after the groups ``laid`` toward a
    going down: within the going-down joker limit, and apart from them by the same-suit-runs
    rule."""
    limit = variant.jokers.going_down_per_group
    if limit is not None and jokers > limit:
        return False
    if not laid or shape.kind is not MeldKind.RUN:
        return True
    apart = variant.going_down.same_suit_runs is SameSuitRuns.ALLOWED
    return apart or runs_apart((*laid, shape), variant)


def _can_start(
    variant: Variant,
    deal_number: int,
    hand: tuple[Card, ...],
    requirement: Requirement,
    table: TableSource,
) -> bool:
    """Whether ``hand`` as a whole can make a going down at all (a way to meet the
    requirement, and the opening's rules at ``table``)."""
    if solve(hand, requirement, variant) is None:
        return False
    return opening_possible(variant, deal_number, hand, (), table)


class _Listing:
    """The groups a hand may lay toward a contract's going down (:func:`group_options` of a
    seat not down that owes nothing), each with its shape, kept for the hand (see
    :func:`_listing`): ``by_group`` finds a group's shape and whether it meets the contract
    by its cards and the kind a Meld names (None for none), for the move made from the
    listing. ``table``: the table the listing read (None where it read none)."""

    __slots__ = ("by_group", "meeting", "options", "table", "variant")

    def __init__(
        self,
        variant: Variant,
        options: list[tuple[GroupShape, MeldKind | None, bool]],
        table: tuple[TableMeld, ...] | None,
    ) -> None:
        self.variant = variant
        self.options = [(shape.cards, kind, meets) for shape, kind, meets in options]
        self.by_group: dict[tuple[object, ...], GroupShape] = {
            _group_key(shape.cards, kind): shape for shape, kind, _ in options
        }
        self.meeting = {_group_key(shape.cards, kind) for shape, kind, meets in options if meets}
        self.table = table

    def find(
        self, group: tuple[Card, ...], kind: MeldKind | None
    ) -> tuple[GroupShape, bool] | None:
        """The shape of ``group`` (read as ``kind`` names) and whether it meets the
        requirement, where it is listed; None otherwise."""
        key = _group_key(group, kind)
        shape = self.by_group.get(key)
        return None if shape is None else (shape, key in self.meeting)


def _group_key(group: tuple[Card, ...], kind: MeldKind | None) -> tuple[object, ...]:
    """How a :class:`_Listing` finds a group: by its cards where a Meld names no kind (most),
    else by its cards and kind (a huge hand's listing keeps thousands, and each tuple made
    for a key would be one more object for the garbage collector to walk)."""
    return group if kind is None else (group, kind)


_LISTINGS: Memo[tuple[object, ...], _Listing] = Memo("going-down groups of a hand", 64)
"""The :class:`_Listing` of each hand lately listed, by the variant's identity, the
contract, the deal's number, the hand and the groups laid so far this turn (the listing of
a state and the move made from it, and every later listing of the same hand and turn, ask
the same question)."""


def _listing_key(
    state: GameState, seat: int, requirement: Contract, laid: tuple[GroupShape, ...]
) -> tuple[object, ...]:
    return (id(state.variant), requirement, contract_number(state, seat), state.hands[seat], laid)


_LISTED_STATES: IdentityMemo[tuple[int, _Listing]] = IdentityMemo(
    "going-down groups of a state", 64
)
"""The seat and the :class:`_Listing` of each state lately listed, by the state's identity:
the move made from a listing finds it without reading the hand again."""


def _known_listing(
    state: GameState, seat: int, requirement: Contract, laid: tuple[GroupShape, ...]
) -> _Listing | None:
    """The kept :class:`_Listing` of ``seat``'s hand in ``state``, if it is kept and holds
    for this state (same variant, and the same table where it read the table)."""
    return _holding(_LISTINGS.get(_listing_key(state, seat, requirement, laid)), state)


def _holding(known: _Listing | None, state: GameState) -> _Listing | None:
    """``known``, where it holds for ``state`` (same variant, and the same table where it
    read the table); None otherwise."""
    if known is None or known.variant is not state.variant:
        return None
    if known.table is not None and known.table is not state.table and known.table != state.table:
        return None
    return known


def _listing(
    state: GameState, seat: int, requirement: Contract, laid: tuple[GroupShape, ...]
) -> _Listing:
    """The :class:`_Listing` of ``seat``'s hand in ``state`` (see :func:`_contract_options`),
    kept per hand, and for the state."""
    key = _listing_key(state, seat, requirement, laid)
    known = _holding(_LISTINGS.get(key), state)
    if known is None:
        options, read_table = _contract_options(state, seat, requirement, laid)
        known = _LISTINGS.put(
            key, _Listing(state.variant, options, state.table if read_table else None)
        )
    _LISTED_STATES.put(state, None, (seat, known))
    return known


def listed_group(
    state: GameState, seat: int, groups: Sequence[Sequence[Card]], kinds: Sequence[MeldKind | None]
) -> tuple[GroupShape, bool] | None:
    """The shape of the one group of ``groups`` (read as ``kinds`` names) and whether it
    meets the requirement, where a listing of ``seat``'s hand in ``state`` was kept
    (:func:`group_options`) and lists it; None otherwise (the move is checked in full)."""
    turn_state = state.turn_state
    if (
        len(groups) != 1
        or len(kinds) > 1
        or turn_state.must_go_out is not None
        or turn_state.jokers_to_meld
        or state.seats[seat].down
    ):
        return None
    listed = _LISTED_STATES.get(state)
    if listed is not None and listed[0] == seat:  # this very state was listed
        known: _Listing | None = listed[1]
    else:
        requirement = requirement_of(state, seat)
        if not isinstance(requirement, Contract):
            return None
        known = _known_listing(state, seat, requirement, laid_shapes(state))
    if known is None:
        return None
    return known.find(tuple(groups[0]), kinds[0] if kinds else None)


def _contract_options(
    state: GameState, seat: int, requirement: Contract, laid: tuple[GroupShape, ...]
) -> tuple[list[tuple[GroupShape, MeldKind | None, bool]], bool]:
    """:func:`group_options` of a seat not yet down (or with its going down open) that owes
    nothing this turn, toward a contract, each group as its shape, and whether the answer
    read the table (only where the going-out rule may let a lone card be played on it): the
    solver answers for every group of the hand at once
    (:func:`~shanghai_rummy.solver.startable_groups`) whether the rest completes it."""
    variant = state.variant
    deal_number = contract_number(state, seat)
    hand = state.hands[seat]
    leaves = going_down_turn_end(variant, deal_number)
    # opening_possible and can_finish read the table only for a lone card left (never)
    read_table = False
    answers = startable_groups(hand, requirement, variant, laid, leaves=leaves)
    if not laid and True not in answers.values():
        # no group can start a going down the hand as a whole cannot make (and a group
        # that meets the contract alone is one of several only where it has one group)
        if not answers and requirement.group_count > 1:
            return [], False
        read_table = True
        if not opening_possible(variant, deal_number, hand, (), state.table):
            return [], True
    limit = variant.jokers.going_down_per_group
    rules_apart = variant.going_down.same_suit_runs is not SameSuitRuns.ALLOWED
    # one natural card with jokers makes a group only where jokers may outnumber naturals
    two_ways = sets_may_read_as_runs(variant)
    options: list[tuple[GroupShape, MeldKind | None, bool]] = []
    # what is left to lay depends on a group's kind, size and jokers only (a contract)
    lefts: dict[tuple[MeldKind, int, int], tuple[Requirement | None, ...]] = {}
    # a group the rest cannot complete is listed only where it completes the going down
    # itself, and with fewer groups than the contract's (each fills one slot) none does
    completes = len(laid) + 1 >= requirement.group_count
    readings, count = _readings(hand, variant, answers, completes, two_ways)
    for index, (shape, answer) in enumerate(readings):
        group = shape.cards
        if answer is None and not completes and index < count:
            continue
        kind = named_kind(shape, variant) if two_ways else None
        if answer is True:  # it starts or continues a going down the rest completes
            options.append((shape, kind, False))
            continue
        if limit is not None and shape.jokers > limit:
            continue
        together = (*laid, shape)
        if rules_apart and shape.kind is MeldKind.RUN and not runs_apart(together, variant):
            continue
        read = (shape.kind, len(group), shape.jokers)
        left = lefts.get(read)
        if left is None:
            left = lefts[read] = remaining(together, requirement, variant)
        if not left:
            continue
        if None in left:
            options.append((shape, kind, True))
            continue
        if index < count:
            finishes = answer is not None
            if finishes:
                read_table = True
                finishes = can_finish(state, together, _less(hand, group), 0)
        else:  # the run reading of a set of one natural card and jokers
            rest = _less(hand, group)
            finishes = going_down_way(variant, deal_number, rest, together) is not None
            if not finishes:
                read_table = True
                finishes = can_finish(state, together, rest, 0)
        if finishes:
            options.append((shape, kind, False))
    return options, read_table


def obligation_options(
    state: GameState, seat: int
) -> list[tuple[tuple[Card, ...], MeldKind | None, bool]]:
    """The groups of one way ``seat`` (not down, or with its going down open) can finish its
    going down under the turn's obligation (a swapped joker owed, or going out), as
    :func:`group_options` gives them: each is one of its options, found by one search
    instead of judging every group the hand can form; empty where the search finds none."""
    turn_state = state.turn_state
    variant = state.variant
    requirement = requirement_of(state, seat)
    laid = laid_shapes(state)
    way = obligation_way(
        variant,
        contract_number(state, seat),
        state.hands[seat],
        laid,
        turn_state.jokers_to_meld,
        turn_state.must_go_out is not None,
    )
    if not way:
        return []
    two_ways = sets_may_read_as_runs(variant)
    options = []
    for group in way:
        shape = check_group(group, variant)
        kind = named_kind(shape, variant) if two_ways else None
        meets = None in remaining((*laid, shape), requirement, variant)
        options.append((shape.cards, kind, meets))
    return options


def _readings(
    hand: tuple[Card, ...],
    variant: Variant,
    answers: dict[GroupShape, bool] | None,
    every: bool,
    two_ways: bool,
) -> tuple[Iterable[tuple[GroupShape, bool | None]], int]:
    """The groups a going-down listing reads, each with the solver's answer for it (None:
    not answered, or not asked), and how many come first that the solver was asked about:
    every group of ``hand`` (and the second readings after them, where ``two_ways``)
    where ``every`` is set or there are no ``answers``, else only those answered, in the
    same order (a huge hand's refused groups are then never looked up)."""
    if answers is not None and not every and not two_ways:
        return answers.items(), len(answers)
    shapes = possible_shapes(hand, variant)
    count = len(shapes)
    listed = _both_readings(shapes, variant) if two_ways else shapes
    if answers is None:
        return ((shape, None) for shape in listed), count
    return (
        (shape, answers.get(shape) if index < count else None) for index, shape in enumerate(listed)
    ), count


def _both_readings(shapes: Sequence[GroupShape], variant: Variant) -> list[GroupShape]:
    """``shapes``, then the runs that the cards of its sets of one natural card and jokers
    also make (:func:`~shanghai_rummy.melds.run_readings`) and it does not hold already."""
    listed = list(shapes)
    seen = {(shape.kind, shape.cards) for shape in shapes}
    for shape in shapes:
        for run in run_readings(shape, variant):
            if (run.kind, run.cards) not in seen:
                seen.add((run.kind, run.cards))
                listed.append(run)
    return listed


class _CardCounts:
    """The card counts of a hand packed in one integer, 16 bits a distinct card, so that
    whether some cards fit in the hand is one subtraction: a field that borrows clears its
    guard bit."""

    __slots__ = ("guard", "limit", "offsets", "ones", "total")

    def __init__(self, hand: Sequence[Card]) -> None:
        self.total = len(hand)
        held = Counter(hand)
        self.offsets = {card: index << 4 for index, card in enumerate(held)}
        self.guard = sum(0x8000 << offset for offset in self.offsets.values())
        self.limit = self.guard | sum(count << self.offsets[card] for card, count in held.items())
        self.ones = {card: 1 << offset for card, offset in self.offsets.items()}  # one copy

    def of(self, cards: Sequence[Card]) -> int:
        """``cards`` (some of the hand's) packed."""
        return sum(map(self.ones.__getitem__, cards))

    def holds(self, packed: int) -> bool:
        """Whether the cards ``packed`` (see :meth:`of`) fit in the hand."""
        return (self.limit - packed) & self.guard == self.guard


_Read = tuple[MeldKind, int, int]
"""All a contract's :func:`~shanghai_rummy.solver.remaining` reads of a group: its kind, its
size and its jokers."""


class _Lefts:
    """What the groups ``laid`` and some more leave of the requirement
    (:func:`~shanghai_rummy.solver.remaining`): for a contract (``by_read``) asked once per
    read of the groups added, for an opening (whose points depend on the cards) every time."""

    __slots__ = ("by_read", "known", "laid", "requirement", "variant")

    def __init__(
        self, laid: tuple[GroupShape, ...], requirement: Requirement, variant: Variant
    ) -> None:
        self.laid = laid
        self.requirement = requirement
        self.variant = variant
        self.by_read = isinstance(requirement, Contract)
        self.known: dict[tuple[_Read, ...], tuple[Requirement | None, ...]] = {}

    def of(
        self, reads: tuple[_Read, ...], added: tuple[GroupShape, ...]
    ) -> tuple[Requirement | None, ...]:
        """What ``laid`` and ``added`` (read as ``reads``) leave to lay."""
        if not self.by_read:
            return remaining((*self.laid, *added), self.requirement, self.variant)
        left = self.known.get(reads)
        if left is None:
            left = remaining((*self.laid, *added), self.requirement, self.variant)
            self.known[reads] = left
        return left


class _Rest:
    """The groups of a way besides the one a group is tried in place of (or all of them,
    where the going down may hold more), read once: their cards packed, their jokers, size
    and reads, for each read of a group tried with them whether they meet a contract, and for
    each span of one (kind, suit, start, size) whether its runs and theirs are apart."""

    __slots__ = ("apart", "jokers", "meets", "packed", "reads", "shapes", "size")

    def __init__(self, shapes: tuple[GroupShape, ...], counts: _CardCounts) -> None:
        self.shapes = shapes
        self.apart: dict[tuple[object, ...], bool] = {}
        self.packed = sum(counts.of(group.cards) for group in shapes)
        self.reads = tuple((group.kind, len(group.cards), group.jokers) for group in shapes)
        self.jokers = sum(read[2] for read in self.reads)
        self.size = sum(read[1] for read in self.reads)
        self.meets: dict[_Read, bool] = {}


class _Witness:
    """A way to finish the going down (the groups it adds), read once for every group tried
    against it: for each group it may give up (or none, where the going down may hold more
    groups), the others (:class:`_Rest`)."""

    __slots__ = ("jokers", "rests", "shapes")

    def __init__(self, shapes: Sequence[GroupShape], counts: _CardCounts, extends: bool) -> None:
        ways = tuple(shapes)
        self.jokers = sum(shape.jokers for shape in ways)
        self.shapes = ways
        self.rests = [
            _Rest(tuple(group for index, group in enumerate(ways) if index != skipped), counts)
            for skipped in (*range(len(ways)), *((None,) if extends else ()))
        ]


class _Witnesses:
    """The ways kept to settle groups against (at most ``most``, the oldest dropped), each
    group of every way kept so far with the most jokers such a way holds, and the
    :class:`_Rest` values that settled the groups last settled by one, the latest first
    (tried first: the groups come in order, and alike in turn)."""

    __slots__ = ("in_ways", "latest", "most", "rests", "ways")

    def __init__(self, most: int) -> None:
        self.most = most
        self.ways: list[_Witness] = []
        self.rests: list[_Rest] = []  # those of every way kept, in turn
        self.in_ways: dict[GroupShape, int] = {}
        self.latest: list[_Rest] = []

    def add(self, shapes: Sequence[GroupShape], counts: _CardCounts, extends: bool) -> None:
        """Keep the way of ``shapes``, dropping the oldest where ``most`` are kept."""
        witness = _Witness(shapes, counts, extends)
        if len(self.ways) == self.most:
            # the groups come in order, and alike in turn
            del self.rests[: len(self.ways.pop(0).rests)]
        self.ways.append(witness)
        self.rests.extend(witness.rests)
        in_ways = self.in_ways
        for shape in witness.shapes:
            in_ways[shape] = max(in_ways.get(shape, -1), witness.jokers)

    def settle(
        self,
        shape: GroupShape,
        read: _Read,
        lefts: _Lefts,
        counts: _CardCounts,
        ends: Sequence[bool] | None,
        owed: int = 0,
    ) -> bool:
        """Whether ``shape`` (read as ``read``), with the groups laid (``lefts.laid``) and
        those of one of the ways kept (all but one of them, or all), is a going down of the
        hand (``counts``) that still ends the turn (``ends``: whether a turn may end with so
        many cards left, by their number; None: with any), the groups besides ``shape``
        holding at least ``owed`` jokers: then the rest of the hand can finish a going down
        begun with ``shape``. Any such way will do: the answer does not depend on the order
        the ways are tried in."""
        # the cards left once shape is laid, packed: a rest fits where none of it borrows
        free, guard = counts.limit - counts.of(shape.cards), counts.guard
        size = counts.total - read[1]
        latest = self.latest
        # in place of one of a way's groups; or beside them, where a going down may hold more
        for index, rest in enumerate(latest):
            if (
                rest.jokers >= owed
                and (free - rest.packed) & guard == guard
                and (ends is None or ends[size - rest.size])
                and _joins(rest, shape, read, lefts)
            ):
                if index:
                    del latest[index]
                    latest.insert(0, rest)
                return True
        if self.in_ways.get(shape, -1) - read[2] >= owed:
            return True  # one of the groups of a way
        for rest in self.rests:
            if (
                rest.jokers >= owed
                and (free - rest.packed) & guard == guard
                and (ends is None or ends[size - rest.size])
                and _joins(rest, shape, read, lefts)
            ):
                if rest not in latest:
                    if len(latest) == _MOST_LATEST:
                        latest.pop()
                    latest.insert(0, rest)
                return True
        return False


_MOST_LATEST = 128
"""How many of the ways' rests that settled groups last are tried first (most of those
owing swapped jokers are settled by the rests of the few ways found for the longest)."""


def _joins(rest: _Rest, shape: GroupShape, read: _Read, lefts: _Lefts) -> bool:
    """Whether ``shape`` (read as ``read``) with ``rest`` and the groups laid
    (``lefts.laid``) meets the requirement, its runs apart."""
    meets = rest.meets.get(read) if lefts.by_read else None
    if meets is None:
        meets = None in lefts.of((read, *rest.reads), (shape, *rest.shapes))
        if lefts.by_read:
            rest.meets[read] = meets
    if not meets:
        return False
    # whether the runs are apart reads a group's kind, suit, start and size only
    span = (shape.kind, shape.suit, shape.start, read[1])
    apart = rest.apart.get(span)
    if apart is None:
        apart = rest.apart[span] = runs_apart((*lefts.laid, shape, *rest.shapes), lefts.variant)
    return apart


def _meets(shapes: Sequence[GroupShape], requirement: Requirement, variant: Variant) -> bool:
    try:
        check_shapes(shapes, requirement, variant)
    except (InvalidMeldError, ContractNotMetError):
        return False
    return True


def _less(hand: tuple[Card, ...], group: Sequence[Card]) -> tuple[Card, ...]:
    rest = list(hand)
    for card in group:
        rest.remove(card)
    return tuple(rest)
