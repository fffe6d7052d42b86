"""The groups that can start (or continue) a going down, :func:`startable_groups`: against a
brute-force reference on random small hands in every preset and the house variants of the
solver's brute-force tests, with and without groups laid before, under each turn-end rule;
and the engine's listing built on it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from itertools import combinations_with_replacement

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import shanghai_rummy as sr
from shanghai_rummy import solver
from shanghai_rummy.melds import GroupShape, check_group
from shanghai_rummy.solver import (
    check_shapes,
    complete,
    possible_shapes,
    remaining,
    runs_apart,
    startable_groups,
)
from shanghai_rummy.solver._alike_slots import contract_ways, few_contract_ways
from shanghai_rummy.solver._candidate_groups import Candidate
from shanghai_rummy.solver._card_counts import count_cards
from shanghai_rummy.solver._variant_rules import rules_of

from .test_solver import VARIANTS, brute_groups, small_cases

SHANGHAI = sr.get_variant("shanghai")

TURN_ENDS: dict[str, Callable[[int], bool] | None] = {
    "any": None,
    "not one": lambda left: left != 1,
    "at least one": lambda left: left >= 1,
    "at least two": lambda left: left >= 2,
}


def _meets(shapes: list[GroupShape], requirement: sr.Requirement, variant: sr.Variant) -> bool:
    try:
        check_shapes(shapes, requirement, variant)
    except (sr.ContractNotMetError, sr.InvalidMeldError):
        return False
    return True


def _less(hand: tuple[sr.Card, ...], group: tuple[sr.Card, ...]) -> tuple[sr.Card, ...]:
    rest = list(hand)
    for card in group:
        rest.remove(card)
    return tuple(rest)


def brute_startable(
    hand: tuple[sr.Card, ...],
    requirement: sr.Requirement,
    variant: sr.Variant,
    laid: tuple[GroupShape, ...],
    leaves: Callable[[int], bool] | None,
) -> dict[tuple[sr.Card, ...], bool]:
    """Each valid group of ``hand`` that does not meet ``requirement`` with ``laid`` but
    that, with ``laid`` and groups of the rest of ``hand``, meets it (check_shapes, every
    multiset of the rest's groups tried): True where one of those completions leaves a
    number of cards ``leaves`` accepts."""
    exact = isinstance(requirement, sr.Contract) and variant.going_down.exact_meld_count
    found: dict[tuple[sr.Card, ...], bool] = {}
    for group in brute_groups(hand, variant):
        shape = check_group(group, variant)
        together = [*laid, shape]
        if _meets(together, requirement, variant):
            continue
        rest = _less(hand, group)
        candidates = brute_groups(rest, variant)
        have = Counter(rest)
        most = len(rest) // min(variant.melds.set_min, variant.melds.run_min)
        sizes = (
            [requirement.group_count - len(together)]
            if exact and isinstance(requirement, sr.Contract)
            else range(1, most + 1)
        )
        for size in sizes:
            if size < 1:
                continue
            for combo in combinations_with_replacement(candidates, size):
                used = Counter(card for chosen in combo for card in chosen)
                if used - have:
                    continue
                shapes = [*together, *(check_group(chosen, variant) for chosen in combo)]
                if not _meets(shapes, requirement, variant):
                    continue
                ends = leaves is None or leaves(len(rest) - sum(used.values()))
                found[group] = found.get(group, False) or ends
    return found


@st.composite
def laid_cases(
    draw: st.DrawFn,
) -> tuple[str, sr.Requirement, tuple[sr.Card, ...], tuple[GroupShape, ...]]:
    """A small case of the solver's brute-force tests, with maybe one group of the hand
    laid first (one that starts a going down, or one that cannot)."""
    name, requirement, hand = draw(small_cases())
    variant = VARIANTS[name]
    laid: tuple[GroupShape, ...] = ()
    if draw(st.booleans()):
        groups = brute_groups(hand, variant)
        if groups:
            group = draw(st.sampled_from(groups))
            shape = check_group(group, variant)
            if not _meets([shape], requirement, variant):
                laid = (shape,)
                hand = _less(hand, group)
    return name, requirement, hand, laid


@settings(max_examples=250, deadline=None)
@given(laid_cases(), st.sampled_from(sorted(TURN_ENDS)))
def test_startable_groups_match_brute_force(
    case: tuple[str, sr.Requirement, tuple[sr.Card, ...], tuple[GroupShape, ...]], turn_end: str
) -> None:
    name, requirement, hand, laid = case
    variant = VARIANTS[name]
    leaves = TURN_ENDS[turn_end]
    expected = brute_startable(hand, requirement, variant, laid, leaves)
    if laid:  # the hand before the group laid asked first: its groups are read from that hand's
        startable_groups((*hand, *laid[0].cards), requirement, variant, leaves=leaves)
    found = startable_groups(hand, requirement, variant, laid, leaves=leaves)
    assert {shape.cards: answer for shape, answer in found.items()} == expected
    for shape in found:
        assert check_group(shape.cards, variant) == shape


@settings(max_examples=150, deadline=None)
@given(laid_cases(), st.sampled_from(sorted(TURN_ENDS)))
def test_startable_groups_confirming_many_at_once_match_brute_force(
    case: tuple[str, sr.Requirement, tuple[sr.Card, ...], tuple[GroupShape, ...]], turn_end: str
) -> None:
    """The brute-force agreement with the witnesses' masks (``_confirmations``) used on
    every hand, however few its groups."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(solver, "CONFIRM_FROM", 0)
        patch.setattr(solver, "WAYS_UP_TO_GROUPS", -1)
        solver.clear_caches()
        test_startable_groups_match_brute_force.hypothesis.inner_test(case, turn_end)  # type: ignore[attr-defined]


@settings(max_examples=150, deadline=None)
@given(laid_cases(), st.sampled_from(sorted(TURN_ENDS)))
def test_startable_groups_asked_group_by_group_match_brute_force(
    case: tuple[str, sr.Requirement, tuple[sr.Card, ...], tuple[GroupShape, ...]], turn_end: str
) -> None:
    """The brute-force agreement with the answers never read off the hand's ways (each
    group asked on its own, as for a hand of many groups)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(solver, "WAYS_UP_TO_GROUPS", -1)
        solver.clear_caches()
        test_startable_groups_match_brute_force.hypothesis.inner_test(case, turn_end)  # type: ignore[attr-defined]


def per_group_reference(
    hand: tuple[sr.Card, ...],
    requirement: sr.Requirement,
    variant: sr.Variant,
    laid: tuple[GroupShape, ...],
    leaves: Callable[[int], bool] | None,
) -> list[tuple[GroupShape, bool]]:
    """What startable_groups' docstring promises, read group by group with complete: each
    shape of possible_shapes (in order) within the going-down joker limit, apart from the
    runs laid and leaving something to lay, whose rest completes the going down; True where
    a completion leaves a number of cards ``leaves`` accepts."""
    found = []
    limit = variant.jokers.going_down_per_group
    for shape in possible_shapes(hand, variant):
        together = (*laid, shape)
        if (limit is not None and shape.jokers > limit) or not runs_apart(together, variant):
            continue
        left = remaining(together, requirement, variant)
        if not left or None in left:
            continue
        rest = _less(hand, shape.cards)
        if complete(rest, requirement, variant, together) is None:
            continue
        ends = leaves is None or complete(rest, requirement, variant, together, leaves=leaves)
        found.append((shape, ends is not None))
    return found


LARGER_CONTRACTS = [
    sr.Contract(runs=(4, 4)),
    sr.Contract(runs=(3, 3, 3)),
    sr.Contract(sets=(3,), runs=(4,)),
    sr.Contract(sets=(3, 3)),
    sr.Contract(sets=(3,), runs=(3, 3)),
    sr.Contract(sets=(3, 3, 3)),
    sr.Contract(runs=(5,)),
]


@st.composite
def joker_hands(
    draw: st.DrawFn,
) -> tuple[str, sr.Contract, tuple[sr.Card, ...], tuple[GroupShape, ...]]:
    """A hand of 8 to 14 cards over a few ranks and suits with up to 5 jokers (many groups
    and many ways), in a variant of the brute-force tests, maybe with a group laid."""
    name = draw(st.sampled_from(sorted(set(VARIANTS) - {"rummy51"})))
    variant = VARIANTS[name]
    contract = draw(
        st.sampled_from(
            [
                c
                for c in LARGER_CONTRACTS
                if all(size >= variant.melds.run_min for size in c.runs)
                and all(size >= variant.melds.set_min for size in c.sets)
            ]
        )
    )
    low = draw(st.sampled_from([0, 5, 8]))
    window = [list(sr.Rank)[(low + i) % 13] for i in range(7)]
    suits = draw(st.lists(st.sampled_from(list(sr.Suit)), min_size=1, max_size=3, unique=True))
    jokers = draw(st.integers(0, 5))
    naturals = draw(
        st.lists(
            st.tuples(st.sampled_from(window), st.sampled_from(suits)),
            min_size=8 - jokers,
            max_size=14 - jokers,
        )
    )
    counted = Counter(sr.Card.of(rank, suit) for rank, suit in naturals)
    hand = tuple(card for card, n in counted.items() for _ in range(min(n, 2)))
    hand += (sr.JOKER,) * jokers
    laid: tuple[GroupShape, ...] = ()
    if draw(st.booleans()):
        shapes = [s for s in possible_shapes(hand, variant) if len(s.cards) <= 5]
        if shapes:
            shape = draw(st.sampled_from(shapes))
            if not _meets([shape], contract, variant) and remaining((shape,), contract, variant):
                laid = (shape,)
                hand = _less(hand, shape.cards)
    return name, contract, hand, laid


@settings(max_examples=120, deadline=None)
@given(joker_hands(), st.sampled_from(sorted(TURN_ENDS)), st.booleans())
def test_startable_groups_of_hands_with_many_jokers_match_complete_per_group(
    case: tuple[str, sr.Contract, tuple[sr.Card, ...], tuple[GroupShape, ...]],
    turn_end: str,
    confirming: bool,
) -> None:
    """The same answers in the same order as complete asked of each group, on hands of
    many groups and jokers, with the witnesses' masks (``_confirmations``) on every hand or
    on none."""
    name, contract, hand, laid = case
    variant = VARIANTS[name]
    leaves = TURN_ENDS[turn_end]
    expected = per_group_reference(hand, contract, variant, laid, leaves)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(solver, "CONFIRM_FROM", 0 if confirming else 1 << 30)
        patch.setattr(solver, "WAYS_UP_TO_GROUPS", -1 if confirming else 1 << 30)
        solver.clear_caches()
        found = startable_groups(hand, contract, variant, laid, leaves=leaves)
    assert list(found.items()) == expected


def test_startable_groups_of_a_hand_with_a_joker_one_run_needs() -> None:
    """The run of 4 can take the joker only if the set does not: each set with the joker is
    left out, the natural set and the run are listed."""
    hand = sr.parse_cards("8C 8D 8H JK 4S 5S 7S")
    contract = sr.Contract(sets=(3,), runs=(4,))
    found = startable_groups(hand, contract, SHANGHAI)
    assert sorted(" ".join(map(str, shape.cards)) for shape in found) == [
        "4S 5S JK 7S",
        "8C 8D 8H",
    ]


def test_startable_groups_tell_a_completion_that_leaves_one_card_where_none_may() -> None:
    hand = sr.parse_cards("8C 8D 8H 9C 9D 9H 2S")
    found = startable_groups(hand, sr.Contract(sets=(3, 3)), SHANGHAI, leaves=lambda n: n != 1)
    assert {" ".join(map(str, shape.cards)): answer for shape, answer in found.items()} == {
        "8C 8D 8H": False,
        "9C 9D 9H": False,
    }


def test_startable_groups_keep_runs_of_one_suit_apart() -> None:
    """Runs of a suit that could join may not go down together (shanghai's rule): the
    first run of hearts starts a going down only with the run of spades after it."""
    hand = sr.parse_cards("4H 5H 6H 7H 8H 9H 10H JH 4S 5S 6S 7S")
    found = startable_groups(hand, sr.Contract(runs=(4, 4)), SHANGHAI)
    hearts = [shape for shape in found if shape.suit is sr.Suit.HEARTS]
    assert hearts and all(found[shape] for shape in found)
    separate = attrs.evolve(
        SHANGHAI,
        going_down=attrs.evolve(SHANGHAI.going_down, same_suit_runs=sr.SameSuitRuns.ALLOWED),
    )
    assert len(startable_groups(hand, sr.Contract(runs=(4, 4)), separate)) >= len(found)


def test_startable_groups_refuse_the_wrong_arguments() -> None:
    with pytest.raises(sr.ArgumentTypeError, match="requirement"):
        startable_groups(sr.parse_cards("8C"), object(), SHANGHAI)  # type: ignore[arg-type]


@settings(max_examples=120, deadline=None)
@given(joker_hands(), st.sampled_from([1, 4, 32, 256]))
def test_few_contract_ways_are_every_way_or_none_within_the_bound(
    case: tuple[str, sr.Contract, tuple[sr.Card, ...], tuple[GroupShape, ...]], most: int
) -> None:
    """The bounded enumeration the answers are read from gives every way, or None where a
    table on the way (or the ways) outgrows the bound: never a part of them."""
    name, contract, hand, _ = case
    rules = rules_of(VARIANTS[name])
    counts, jokers = count_cards(hand)
    every = contract_ways(list(counts), jokers, contract, rules)
    solver.clear_caches()  # the tables built unbounded are not read by the bounded call
    few = few_contract_ways(list(counts), jokers, contract, rules, most)
    if every is None or len(every) > most:
        assert few is None
    elif few is not None:
        assert sorted(map(_codes, few)) == sorted(map(_codes, every))


def _codes(way: tuple[Candidate, ...]) -> tuple[tuple[int, ...], ...]:
    return tuple(candidate.key for candidate in way)


def test_few_contract_ways_give_up_on_the_largest_hand() -> None:
    """The largest hand the maxima allow (6 jokers, 18 naturals in two suits, two runs of
    5) has thousands of ways: the bounded enumeration gives up within its bound."""
    variant = sr.get_variant("shanghai-wiki")
    hand = sr.parse_cards(
        "JK JK JK JK JK JK 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 3S 4S 5S 6S 7S 8S 9S"
    )
    counts, jokers = count_cards(hand)
    contract = sr.Contract(runs=(5, 5))
    rules = rules_of(variant)
    assert few_contract_ways(list(counts), jokers, contract, rules, 256) is None
    assert len(contract_ways(list(counts), jokers, contract, rules) or ()) > 256


WAYS_VARIANTS = {
    **{name: VARIANTS[name] for name in ("shanghai", "wiki", "camping", "separated", "allowed")},
    "jokers apart": attrs.evolve(
        SHANGHAI, id="ja", jokers=sr.JokerRules(side_by_side_in_runs=False, at_most_naturals=False)
    ),
    "one joker a group": attrs.evolve(
        SHANGHAI, id="oj", jokers=sr.JokerRules(going_down_per_group=1)
    ),
    "by size": attrs.evolve(
        SHANGHAI,
        id="bs",
        jokers=sr.JokerRules(
            going_down_by_size=tuple((size, (size - 1) // 2) for size in range(3, 15)),
            at_most_naturals=False,
        ),
        going_down=sr.GoingDownRules(exact_sizes=True),
    ),
    "two naturals": attrs.evolve(
        SHANGHAI, id="tn", jokers=sr.JokerRules(min_naturals=2, at_most_naturals=False)
    ),
    "distinct suits": attrs.evolve(SHANGHAI, id="ds", melds=sr.MeldRules(set_distinct_suits=True)),
}
WAYS_CONTRACTS = [
    sr.Contract(sets=(3, 3)),
    sr.Contract(sets=(3,), runs=(4,)),
    sr.Contract(runs=(4, 4)),
    sr.Contract(sets=(3, 3, 3)),
    sr.Contract(sets=(3, 3), runs=(4,)),
    sr.Contract(runs=(4, 4, 4)),
]


@st.composite
def dense_hands(draw: st.DrawFn) -> tuple[sr.Card, ...]:
    """9 to 16 cards over 7 ranks in one to three suits, at most two copies of a card (two
    decks) and up to four jokers: hands with ways to go down, often many."""
    low = draw(st.sampled_from([0, 4, 7]))
    ranks = [list(sr.Rank)[(low + i) % 13] for i in range(7)]
    suits = draw(st.lists(st.sampled_from(list(sr.Suit)), min_size=1, max_size=3, unique=True))
    cards = [sr.Card(rank, suit) for rank in ranks for suit in suits] * 2
    chosen = draw(
        st.lists(st.sampled_from(range(len(cards))), min_size=9, max_size=16, unique=True)
    )
    jokers = draw(st.integers(0, 4))
    return (*(cards[index] for index in chosen[: 16 - jokers]), *(sr.JOKER,) * jokers)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(sorted(WAYS_VARIANTS)),
    st.sampled_from(WAYS_CONTRACTS),
    dense_hands(),
    st.sampled_from(sorted(TURN_ENDS)),
)
def test_startable_groups_read_off_the_ways_match_those_asked_group_by_group(
    name: str, contract: sr.Contract, hand: tuple[sr.Card, ...], turn_end: str
) -> None:
    """The answers read off a hand's ways are the answers of the search per group, in the
    same order, under the joker rules the ways must keep (jokers apart, limits per group and
    per size, two naturals) and on hands of up to two decks' copies."""
    variant = WAYS_VARIANTS[name]
    leaves = TURN_ENDS[turn_end]
    found = _both_ways(hand, contract, variant, (), leaves)
    for shape in list(found)[:1] + list(found)[-1:]:  # one group laid first, then the rest
        _both_ways(_less(hand, shape.cards), contract, variant, (shape,), leaves)


def _both_ways(
    hand: tuple[sr.Card, ...],
    contract: sr.Contract,
    variant: sr.Variant,
    laid: tuple[GroupShape, ...],
    leaves: Callable[[int], bool] | None,
) -> dict[GroupShape, bool]:
    """startable_groups read off the ways where it may be, asserted equal to the answers
    asked group by group."""
    solver.clear_caches()
    found = startable_groups(hand, contract, variant, laid, leaves=leaves)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(solver, "WAYS_UP_TO_GROUPS", -1)
        solver.clear_caches()
        asked = startable_groups(hand, contract, variant, laid, leaves=leaves)
    assert list(found.items()) == list(asked.items())
    return found
