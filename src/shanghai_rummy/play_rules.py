"""The rule checks the moves share with :func:`~shanghai_rummy.legal_actions`: going down,
new groups, lay-offs and joker swaps on the table, read through :mod:`.melds` and
:mod:`.solver` under the variant. One source of truth for both."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from . import solver
from .actions import End
from .cards import Card
from .melds import MeldKind, TableMeld, extend, lay_off_ends, swap_joker, swap_positions
from .solver import arrangements, check_going_down, solve
from .variants import GoOutDiscard, Variant

__all__ = [
    "can_go_down_with_jokers",
    "can_meld_a_joker",
    "extend_meld",
    "going_down_melds",
    "going_down_options",
    "hand_out_possible",
    "lay_off_options",
    "new_group_options",
    "new_melds",
    "opening_possible",
    "swap_in_meld",
    "swap_options",
]


def going_down_melds(
    variant: Variant, deal_number: int, groups: Sequence[Sequence[Card]], seat: int, next_id: int
) -> tuple[TableMeld, ...]:
    """The table melds of a going down, or InvalidMeldError / ContractNotMetError."""
    requirement = variant.deal(deal_number).requirement
    shapes = check_going_down(groups, requirement, variant)
    return tuple(shape.on_table(next_id + offset, seat) for offset, shape in enumerate(shapes))


def new_melds(
    variant: Variant, groups: Sequence[Sequence[Card]], seat: int, next_id: int
) -> tuple[TableMeld, ...]:
    """The table melds of new groups laid down after going down, or InvalidMeldError."""
    from .melds import make_table_meld

    return tuple(
        make_table_meld(next_id + offset, seat, group, variant)
        for offset, group in enumerate(groups)
    )


def extend_meld(variant: Variant, meld: TableMeld, card: Card, end: End | None) -> TableMeld:
    """``meld`` with ``card`` laid off on it, or LayOffError."""
    return extend(meld, card, variant, end)


def swap_in_meld(variant: Variant, meld: TableMeld, card: Card) -> TableMeld:
    """``meld`` with ``card`` in place of a joker standing for it, or JokerSwapError."""
    return swap_joker(meld, card, variant)


def opening_possible(variant: Variant, deal_number: int, hand: Sequence[Card]) -> bool:
    """Whether ``hand`` can go down this turn and still end the turn: some way to meet the
    deal's requirement that leaves a card to discard where ``variant.going_out`` requires
    one, and does not leave a lone card where it forbids discarding the last one."""
    requirement = variant.deal(deal_number).requirement
    found = solve(hand, requirement, variant)
    if found is None:
        return False
    left = len(hand) - sum(len(group) for group in found)
    rule = variant.going_out
    if rule is GoOutDiscard.REQUIRED and left == 0:
        return any(
            solve(_without_one(hand, card), requirement, variant) is not None for card in set(hand)
        )
    if rule is GoOutDiscard.NEVER and left == 1:
        return any(
            len(hand) - sum(len(group) for group in way) != 1
            for way in arrangements(hand, requirement, variant)
        )
    return True


def hand_out_possible(variant: Variant, deal_number: int, hand: Sequence[Card]) -> bool:
    """Whether ``hand`` can go down and out at once: every card in one way of going down,
    or all but one that is then discarded, as ``variant.going_out`` allows."""
    requirement = variant.deal(deal_number).requirement

    def covered(cards: Sequence[Card]) -> bool:
        if solve(cards, requirement, variant) is None:
            return False
        return any(
            sum(len(group) for group in way) == len(cards)
            for way in arrangements(cards, requirement, variant)
        )

    rule = variant.going_out
    if rule is not GoOutDiscard.REQUIRED and covered(hand):
        return True
    if rule is GoOutDiscard.NEVER:
        return False
    return any(covered(_without_one(hand, card)) for card in set(hand))


def _without_one(hand: Sequence[Card], card: Card) -> list[Card]:
    remaining = list(hand)
    remaining.remove(card)
    return remaining


def going_down_options(
    variant: Variant, deal_number: int, hand: Iterable[Card]
) -> tuple[tuple[tuple[Card, ...], ...], ...]:
    """Every distinct way to go down with ``hand``, in canonical form."""
    requirement = variant.deal(deal_number).requirement
    cards = tuple(hand)
    if solve(cards, requirement, variant) is None:  # the fast answer for most hands
        return ()
    return arrangements(cards, requirement, variant)


def new_group_options(variant: Variant, hand: Iterable[Card]) -> tuple[tuple[Card, ...], ...]:
    """Every distinct single group ``hand`` can lay down after going down."""
    return possible_groups(hand, variant)


def possible_groups(hand: Iterable[Card], variant: Variant) -> tuple[tuple[Card, ...], ...]:
    """Every distinct valid group (canonical form) that some of ``hand`` can make."""
    return solver.possible_groups(hand, variant)


def can_meld_a_joker(variant: Variant, hand: Sequence[Card], jokers: int) -> bool:
    """Whether ``hand`` can lay down a new group holding ``jokers`` of its jokers (the
    obligation a swap leaves under ``variant.joker_swap.joker_into_new_meld``) and still end
    the turn: a card left to discard where ``variant.going_out`` requires one, and never a
    lone card that might not be playable where it forbids discarding the last card."""
    rule = variant.going_out
    for group in possible_groups(hand, variant):
        left = len(hand) - len(group)
        if sum(1 for card in group if card.is_joker) < jokers:
            continue
        if (rule is GoOutDiscard.REQUIRED and left == 0) or (
            rule is GoOutDiscard.NEVER and left == 1
        ):
            continue
        return True
    return False


def can_go_down_with_jokers(
    variant: Variant, deal_number: int, hand: Sequence[Card], jokers: int
) -> bool:
    """Whether ``hand`` can go down with ``jokers`` of its jokers in the groups, and still end
    the turn (the obligation a swap leaves a player not yet down under
    ``variant.joker_swap.joker_into_new_meld``)."""
    requirement = variant.deal(deal_number).requirement
    if solve(hand, requirement, variant) is None:
        return False
    rule = variant.going_out
    for way in arrangements(hand, requirement, variant):
        left = len(hand) - sum(len(group) for group in way)
        if sum(1 for group in way for card in group if card.is_joker) < jokers:
            continue
        if (rule is GoOutDiscard.REQUIRED and left == 0) or (
            rule is GoOutDiscard.NEVER and left == 1
        ):
            continue
        return True
    return False


def lay_off_options(
    variant: Variant, table: Sequence[TableMeld], cards: Iterable[Card]
) -> list[tuple[Card, int, End | None]]:
    """Every lay-off of one of ``cards`` on a table meld: ``(card, meld id, end)``, where
    ``end`` is None unless the card fits both ends of a run."""
    options: list[tuple[Card, int, End | None]] = []
    distinct = tuple(cards)
    for table_meld in table:
        is_set = table_meld.kind is MeldKind.SET
        for card in distinct:
            # a natural card goes only on a set of its rank or a run of its suit
            if card.rank is not None and (
                card.rank is not table_meld.rank if is_set else card.suit is not table_meld.suit
            ):
                continue
            ends = lay_off_ends(table_meld, card, variant)
            if not ends:
                continue
            if is_set or len(ends) == 1:
                options.append((card, table_meld.id, None))
            else:
                options.extend((card, table_meld.id, end) for end in ("low", "high"))
    return options


def swap_options(
    variant: Variant, table: Sequence[TableMeld], cards: Iterable[Card]
) -> list[tuple[Card, int]]:
    """Every ``(natural card, meld id)`` for which the meld holds a joker the card may
    replace."""
    distinct = tuple(card for card in cards if card.rank is not None)
    options: list[tuple[Card, int]] = []
    for table_meld in table:
        if all(held.rank is not None for held in table_meld.cards):
            continue  # no joker to take
        is_set = table_meld.kind is MeldKind.SET
        for card in distinct:
            # only a card of a set's rank or of a run's suit may replace one of its jokers
            if card.rank is not table_meld.rank if is_set else card.suit is not table_meld.suit:
                continue
            if swap_positions(table_meld, card, variant):
                options.append((card, table_meld.id))
    return options
