"""Meeting a requirement: checking a going down (:func:`check_going_down`), finding one way
to go down (:func:`solve`), listing every way (:func:`arrangements`), and every single group
a hand can form (:func:`possible_groups`).

:func:`solve` first tries quick refusals, necessary conditions read from a few card counts
that most hands unable to meet the requirement fail (proved sound in ``_quick_refusals``); a hand
that passes them is searched.

Everything here reads :class:`~shanghai_rummy.Variant` fields; nothing asks which preset runs.

**Canonical form.** Equal cards are interchangeable, so a way to go down is a multiset of
groups. :func:`canonical_groups` writes it one way: each set as its natural cards by suit
(clubs, diamonds, hearts, spades) then its jokers; each run in rank order with its jokers in
place; then the groups sorted, sets before runs, sets by rank, runs by suit then first
position, ties by their cards. :func:`solve` and :func:`arrangements` answer in this form.

>>> from shanghai_rummy import Contract, get_variant, parse_cards
>>> shanghai = get_variant("shanghai")
>>> hand = parse_cards("8C 8D 8H 4S 5S 6S JK KD")
>>> [" ".join(map(str, group)) for group in solve(hand, Contract(sets=(3,), runs=(4,)), shanghai)]
['8C 8D 8H', 'JK 4S 5S 6S']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from operator import attrgetter

from .._arguments import is_collection, refuses_bad_arguments, wrong_type
from ..cards import JOKER, Card, Rank, Suit, cards_error, refuse_text
from ..contracts import Contract, Opening, Requirement
from ..errors import ContractNotMetError, InvalidMeldError, RummyError
from ..limits import MAX_GROUP_CARDS
from ..melds import (
    GroupShape,
    MeldKind,
    Shape,
    TableMeld,
    check_group,
    group_points,
    natural_stretch,
)
from ..variants import SameSuitRuns, Variant
from ._alike_slots import contract_ways, few_contract_ways, plan_of
from ._candidate_groups import Candidate, every_group
from ._card_counts import JOKER_BYTE, JOKER_CODE, count_cards, tally_of, tally_without
from ._confirmations import Asked, Confirmations, Searches
from ._contract_search import solve_contract
from ._general_walk import every_way
from ._memo import Memo, MemoKind
from ._opening_search import OpeningSearch
from ._quick_refusals import contract_tally, opening_tally, tally_out_of_reach
from ._run_rules import jokers_apart, with_natural_run
from ._startable import (
    NO,
    UNDECIDED,
    YES,
    HandGroups,
    Placed,
    Slot,
    every_card_in_a_slot_group,
    hand_groups,
    remember,
)
from ._variant_rules import (
    Arrangement,
    VariantRules,
    forget_compiled_rules,
    match_slots,
    rules_of,
    runs_clash,
)
from ._wild_cards import PlainSolver, WildSolver, canonical_form_of

__all__ = [
    "arrangements",
    "canonical_groups",
    "check_going_down",
    "check_laid",
    "check_shapes",
    "clear_caches",
    "complete",
    "possible_groups",
    "possible_shapes",
    "remaining",
    "runs_apart",
    "solve",
    "startable_groups",
]


# --- what the solver remembers ----------------------------------------------------------------


def clear_caches() -> None:
    """Forget everything the solver remembers: the compiled rules of every variant and,
    owned by them, every memo of answers (each bounded in size; the compiled rules of at most
    64 variants are kept at once). Answers never change: a memo only saves the time of
    working one out again, and no memo decides which checks run.

    >>> from shanghai_rummy import Contract, get_variant, parse_cards
    >>> clear_caches()
    >>> solve(parse_cards("8C 8D 8H"), Contract(sets=(3,)), get_variant("shanghai"))
    ((Card.parse('8C'), Card.parse('8D'), Card.parse('8H')),)
    """
    forget_compiled_rules()


# --- checking a going down --------------------------------------------------------------------


def _per_group_check(shapes: Sequence[GroupShape], variant: Variant) -> None:
    limit = variant.jokers.going_down_per_group
    for shape in shapes:
        if limit is not None and shape.jokers > limit:
            raise InvalidMeldError(
                f"{shape}: too many jokers: {shape.jokers}, at most {limit} in a group when "
                "going down (variant.jokers.going_down_per_group)"
            )


def _same_suit_check(shapes: Sequence[GroupShape], variant: Variant) -> None:
    rule = variant.going_down.same_suit_runs
    runs = [shape for shape in shapes if shape.kind is MeldKind.RUN]
    for i, first in enumerate(runs):
        for second in runs[i + 1 :]:
            if first.suit is not second.suit:
                continue
            assert first.start is not None
            assert second.start is not None
            a, b = (first.start, len(first.cards)), (second.start, len(second.cards))
            if runs_clash(*a, *b, variant):
                why = (
                    "could form one run"
                    if rule is SameSuitRuns.NOT_JOINABLE
                    else "are not separated by at least one rank"
                )
                raise ContractNotMetError(
                    f"{first} and {second} {why} (variant.going_down.same_suit_runs={rule.value})"
                )


def runs_apart(shapes: Sequence[GroupShape], variant: Variant) -> bool:
    """Whether the runs among ``shapes`` may go down together under
    ``variant.going_down.same_suit_runs`` (runs of one suit that could form one run, or
    that are not separated by a rank, where the rule forbids them)."""
    try:
        _same_suit_check(shapes, variant)
    except ContractNotMetError:
        return False
    return True


class _Described:
    """A contract that says its description only when an error message asks for it."""

    __slots__ = ("contract",)

    def __init__(self, contract: Contract) -> None:
        self.contract = contract

    def __str__(self) -> str:
        return self.contract.describe()


def _slot_fit_error(shape: GroupShape, size: int, cap: int | None, variant: Variant) -> str | None:
    if variant.going_down.exact_sizes and len(shape.cards) != size:
        return (
            f"{shape} has {len(shape.cards)} cards, not exactly {size} "
            "(variant.going_down.exact_sizes)"
        )
    if len(shape.cards) < size:
        return f"{shape} has {len(shape.cards)} cards, fewer than {size}"
    if cap is not None and shape.jokers > cap:
        return (
            f"{shape} holds {shape.jokers} jokers, at most {cap} in a {shape.kind.value} "
            f"of {size} (variant.jokers.going_down_by_size)"
        )
    return None


def _slot_fits(shape: GroupShape, size: int, rules: VariantRules) -> bool:
    """Whether ``shape`` fills a contract slot of ``size`` (:meth:`VariantRules.slot_accepts`;
    :func:`_slot_fit_error` says why not)."""
    return rules.slot_accepts(size, len(shape.cards), shape.jokers)


_SlotSpec = tuple[MeldKind, int, int]  # kind, slots, their size
_ALIKE_SLOTS: MemoKind[int, tuple[Contract, tuple[_SlotSpec, ...] | None]] = MemoKind(
    "alike slots of a contract", 256
)


def _alike_slots(contract: Contract, variant: Variant) -> tuple[_SlotSpec, ...] | None:
    """Per kind, the slots of ``contract`` when each kind's slots share one size; else None."""
    memo = rules_of(variant).memos.of(_ALIKE_SLOTS)
    cached = memo.get(id(contract))
    if cached is not None and cached[0] is contract:
        return cached[1]
    specs: tuple[_SlotSpec, ...] | None = tuple(
        (kind, len(sizes), sizes[0])
        for kind, sizes in ((MeldKind.SET, contract.sets), (MeldKind.RUN, contract.runs))
        if sizes
    )
    if len(set(contract.sets)) > 1 or len(set(contract.runs)) > 1:
        specs = None
    memo[id(contract)] = (contract, specs)
    return specs


def _contract_met(shapes: Sequence[GroupShape], contract: Contract, variant: Variant) -> bool:
    """A quick yes of :func:`_check_contract` for alike slots (False: the full check decides):
    any group that fits one slot of its kind fits them all, so enough fitting groups do."""
    specs = _alike_slots(contract, variant)
    if specs is None:
        return False
    count = contract.group_count
    if len(shapes) != count if variant.going_down.exact_meld_count else len(shapes) < count:
        return False
    rules = rules_of(variant)
    return all(
        sum(1 for shape in shapes if shape.kind is kind and _slot_fits(shape, size, rules)) >= slots
        for kind, slots, size in specs
    )


def _check_contract(shapes: Sequence[GroupShape], contract: Contract, variant: Variant) -> None:
    if _contract_met(shapes, contract, variant):
        return
    rules = variant.going_down
    wanted = _Described(contract)
    if rules.exact_meld_count and len(shapes) != contract.group_count:
        raise ContractNotMetError(
            f"{wanted} is exactly {contract.group_count} groups, got {len(shapes)} "
            "(variant.going_down.exact_meld_count)"
        )
    if len(shapes) < contract.group_count:
        raise ContractNotMetError(
            f"{wanted} needs at least {contract.group_count} groups, got {len(shapes)}"
        )
    for kind, sizes in ((MeldKind.SET, contract.sets), (MeldKind.RUN, contract.runs)):
        laid = [i for i, shape in enumerate(shapes) if shape.kind is kind]
        if len(laid) < len(sizes):
            raise ContractNotMetError(
                f"{wanted} needs {len(sizes)} {kind.value}(s); {len(laid)} of the groups "
                f"{'is a' if len(laid) == 1 else 'are'} {kind.value}(s)"
            )
        fits: list[list[int]] = []
        for size in sizes:
            cap = variant.jokers.going_down_limit(size)
            fitting = [i for i in laid if _slot_fits(shapes[i], size, rules_of(variant))]
            if not fitting:
                reasons = "; ".join(
                    error
                    for i in laid
                    if (error := _slot_fit_error(shapes[i], size, cap, variant)) is not None
                )
                raise ContractNotMetError(f"no group is the {kind.value} of {size}: {reasons}")
            fits.append(fitting)
        if not match_slots(fits, len(shapes)):
            fitting_any = {i for fitting in fits for i in fitting}
            misfits = [i for i in laid if i not in fitting_any]
            if misfits and rules.exact_meld_count:
                size = min(sizes)
                cap = variant.jokers.going_down_limit(size)
                why = _slot_fit_error(shapes[misfits[0]], size, cap, variant)
                if why is not None:
                    raise ContractNotMetError(f"{wanted}: {why}")
            raise ContractNotMetError(
                f"the {kind.value}s laid cannot fill every {kind.value} of {wanted} "
                "at once (each group fills one)"
            )


def _check_arguments(function: str, requirement: object, variant: object) -> None:
    if type(requirement) not in (Contract, Opening):
        raise wrong_type(function, "requirement", "a Contract or an Opening", requirement)
    if type(variant) is not Variant:
        raise wrong_type(function, "variant", "a Variant", variant)


@refuses_bad_arguments
def check_going_down(
    groups: Iterable[Sequence[Card]], requirement: Requirement, variant: Variant
) -> tuple[GroupShape, ...]:
    """Check that ``groups`` (each a sequence of cards, a run in rank order) meet
    ``requirement`` under ``variant``; return their shapes in the same order, or raise
    :class:`~shanghai_rummy.InvalidMeldError` (a group is not valid) or
    :class:`~shanghai_rummy.ContractNotMetError` (the groups do not meet the requirement).

    Each group is read by :func:`~shanghai_rummy.melds.check_group`. For a
    :class:`~shanghai_rummy.Contract`, each set and run it asks for is filled by its own group
    of that kind (``variant.going_down.exact_meld_count``, ``exact_sizes``), whose jokers keep
    ``variant.jokers.going_down_limit(size)``. For an :class:`~shanghai_rummy.Opening`, the
    groups are worth at least ``min_points`` together. Runs of one suit obey
    ``variant.going_down.same_suit_runs``. A group of one natural card and jokers that is a
    valid set is read as a set, as :func:`~shanghai_rummy.melds.check_group` reads it.

    >>> from shanghai_rummy import Contract, Opening, get_variant, parse_cards
    >>> groups = [parse_cards("8C 8D JK"), parse_cards("4S 5S 6S 7S")]
    >>> [
    ...     str(shape)
    ...     for shape in check_going_down(
    ...         groups, Contract(sets=(3,), runs=(4,)), get_variant("shanghai")
    ...     )
    ... ]
    ['set 8C 8D JK', 'run 4S 5S 6S 7S']
    >>> check_going_down(groups[1:], Opening(min_points=51), get_variant("rummy51"))
    Traceback (most recent call last):
    ...
    shanghai_rummy.errors.ContractNotMetError: the groups are worth 22 points; ...
    """
    _check_arguments("check_going_down", requirement, variant)
    if not is_collection(groups):
        raise wrong_type("check_going_down", "groups", "a sequence of groups of cards", groups)
    shapes = tuple(check_group(group, variant) for group in groups)
    check_shapes(shapes, requirement, variant)
    return shapes


def check_shapes(shapes: Sequence[GroupShape], requirement: Requirement, variant: Variant) -> None:
    """:func:`check_going_down` of groups already read (by
    :func:`~shanghai_rummy.melds.check_group`): None, or the error it raises."""
    _per_group_check(shapes, variant)
    if isinstance(requirement, Opening):
        if not shapes:
            raise ContractNotMetError("an opening needs at least one group")
        points = sum(group_points(shape, requirement.values) for shape in shapes)
        if points < requirement.min_points:
            raise ContractNotMetError(
                f"the groups are worth {points} points; an opening needs at least "
                f"{requirement.min_points} (Opening.min_points)"
            )
        run = requirement.natural_run
        if run and all(natural_stretch(shape) < run for shape in shapes):
            raise ContractNotMetError(
                f"an opening needs a run of {run} natural cards in a row, with no joker "
                "among them (Opening.natural_run)"
            )
    else:
        _check_contract(shapes, requirement, variant)
    _same_suit_check(shapes, variant)


# --- canonical form ---------------------------------------------------------------------------


@refuses_bad_arguments
def canonical_groups(
    groups: Iterable[Shape | Sequence[Card]], variant: Variant
) -> tuple[tuple[Card, ...], ...]:
    """The canonical form (see the module notes) of a way to go down: shapes such as
    :func:`check_going_down` returns, or card sequences (read with
    :func:`~shanghai_rummy.melds.check_group` under ``variant``).

    >>> from shanghai_rummy import get_variant, parse_cards
    >>> groups = [parse_cards("4S 5S 6S JK"), parse_cards("JK 8H 8C")]
    >>> [" ".join(map(str, g)) for g in canonical_groups(groups, get_variant("shanghai"))]
    ['8C 8H JK', '4S 5S 6S JK']
    """
    shapes = [
        group if isinstance(group, (GroupShape, TableMeld)) else check_group(group, variant)
        for group in groups
    ]
    keyed = sorted(
        (canonical_form_of(shape, variant) for shape in shapes), key=lambda pair: pair[0]
    )
    return tuple(cards for _, cards in keyed)


# --- public entry points ----------------------------------------------------------------------


@refuses_bad_arguments
def solve(cards: Iterable[Card], requirement: Requirement, variant: Variant) -> Arrangement | None:
    """One way to meet ``requirement`` with some of ``cards``, in canonical form (see the
    module notes), that :func:`check_going_down` accepts; None when there is none. Exact: it
    never misses a way that exists. ``cards`` hold at most 8 copies of a natural card
    (twice :data:`~shanghai_rummy.limits.MAX_DECKS`), 31 jokers and 255 cards in all; more
    raise a RummyError.

    >>> from shanghai_rummy import Contract, Opening, get_variant, parse_cards
    >>> hand = parse_cards("6S 7S 8S 10D 10C 10H 2C 3D")
    >>> [" ".join(map(str, g)) for g in solve(hand, Opening(min_points=51), get_variant("rummy51"))]
    ['10C 10D 10H', '6S 7S 8S']
    >>> solve(hand, Contract(runs=(4, 4)), get_variant("shanghai")) is None
    True
    """
    _check_arguments("solve", requirement, variant)
    refuse_text(cards)
    rules = rules_of(variant)
    try:
        cards = tuple(cards)
    except TypeError:  # not a collection
        raise cards_error(cards) from None
    if variant.jokers.wild_ranks:
        return _WILD.complete(cards, requirement, variant)
    if isinstance(requirement, Opening) and requirement.natural_run:
        found = with_natural_run(cards, requirement, rules, _solve_apart)
        return None if found is None else canonical_groups(found, variant)
    return _solve_apart(cards, requirement, rules)


def _solve_apart(
    cards: tuple[Card, ...], requirement: Requirement, rules: VariantRules
) -> Arrangement | None:
    """:func:`solve` but for an opening's natural run: the searches by card counts place a
    run's jokers anywhere, so where ``jokers.side_by_side_in_runs`` is off, their answer is
    kept only if its jokers are apart, and otherwise the walk over every group is asked
    (their "no" stands: the rule only refuses more)."""
    found = _solve_counted(cards, requirement, rules)
    if found is None or rules.variant.jokers.side_by_side_in_runs or jokers_apart(found, rules):
        return found
    return _first_way(*count_cards(cards), requirement, rules)


def _solve_counted(
    cards: Iterable[Card], requirement: Requirement, rules: VariantRules
) -> Arrangement | None:
    """:func:`solve` by the searches over card counts, which know no run rule of jokers."""
    variant = rules.variant
    if isinstance(requirement, Contract):
        tally = contract_tally(cards, requirement, rules)
        if tally is None:  # the quick "no" of most hands
            return None
        shapes = solve_contract(*tally, requirement, rules)
        return None if shapes is None else canonical_groups(shapes, variant)
    if requirement.min_points <= 0 or min(requirement.values.by_rank) < 0:
        # outside what the fast search assumes: take the first of every way
        return _first_way(*count_cards(cards), requirement, rules)
    tally = opening_tally(cards, requirement, rules)
    if tally is None:  # the quick "no" of most hands
        return None
    search = OpeningSearch(rules, *tally, requirement)
    if not search.search(0):
        return None
    return canonical_groups(search.shapes(), variant)


def _first_way(
    counts: list[int], jokers: int, requirement: Requirement, rules: VariantRules
) -> Arrangement | None:
    """The first way the walk over every group finds to meet ``requirement``, or None."""
    for chosen in every_way(counts, jokers, requirement, rules, first_only=True):
        return tuple(candidate.cards for candidate in chosen)
    return None


@refuses_bad_arguments
def arrangements(
    cards: Iterable[Card], requirement: Requirement, variant: Variant
) -> tuple[Arrangement, ...]:
    """Every distinct way to meet ``requirement`` with some of ``cards``: exactly the
    canonical forms (see the module notes) of the groups :func:`check_going_down` accepts from
    sub-multisets of ``cards``, in a fixed order.

    >>> from shanghai_rummy import Contract, get_variant, parse_cards
    >>> hand = parse_cards("8C 8D 8H 8S 9C")
    >>> ways = arrangements(hand, Contract(sets=(3,)), get_variant("shanghai"))
    >>> [" ".join(map(str, group)) for (group,) in ways]
    ['8C 8D 8H', '8C 8D 8H 8S', '8C 8D 8S', '8C 8H 8S', '8D 8H 8S']
    """
    _check_arguments("arrangements", requirement, variant)
    refuse_text(cards)
    if variant.jokers.wild_ranks:
        return _WILD.arrangements(cards, requirement, variant)
    rules = rules_of(variant)
    counts, jokers = count_cards(cards)
    return _ordered_ways(counts, jokers, requirement, rules)


def _ordered_ways(
    counts: list[int], jokers: int, requirement: Requirement, rules: VariantRules
) -> tuple[Arrangement, ...]:
    """:func:`arrangements` of the counted cards."""
    found: Sequence[Sequence[Candidate]] | None = None
    if isinstance(requirement, Contract):
        found = contract_ways(counts, jokers, requirement, rules)
    if found is None:
        found = every_way(counts, jokers, requirement, rules)
    ordered = sorted(found, key=lambda chosen: tuple(map(_CODES, chosen)))  # the card codes
    return tuple(tuple(map(_CARDS, chosen)) for chosen in ordered)


_RANKS = {rank.value: rank for rank in Rank}
_SUITS = tuple(Suit)
_CODES = attrgetter("codes")
_CARDS = attrgetter("cards")


def contract_options(
    cards: Iterable[Card], requirement: Requirement, variant: Variant
) -> tuple[Arrangement, ...]:
    """:func:`arrangements`, with the quick refusals of :func:`solve` first: the hands most
    often asked about cannot meet the requirement."""
    if variant.jokers.wild_ranks:
        return _WILD.arrangements(cards, requirement, variant)
    rules = rules_of(variant)
    cards = tuple(cards)
    if isinstance(requirement, Contract) and plan_of(requirement, rules) is not None:
        tally = contract_tally(cards, requirement, rules)
        if tally is None:
            return ()
        return _ordered_ways(*tally, requirement, rules)
    if solve(cards, requirement, variant) is None:
        return ()
    return arrangements(cards, requirement, variant)


def way_leaving(
    cards: Sequence[Card],
    requirement: Requirement,
    variant: Variant,
    leaves: Callable[[int], bool],
    most_left: int | None = None,
    least_left: int = 0,
) -> bool:
    """Whether some way to meet ``requirement`` with some of ``cards`` leaves a number of
    cards that ``leaves`` accepts (none, say, to go out by hand); ``most_left`` and
    ``least_left``, where ``leaves`` accepts no more (no fewer) than that, let the search
    give up early on a choice of groups that leaves too many (too few). One search for a
    way (:func:`solve` first, then the walk over groups that stops at the first), not a
    reading of every way."""
    if variant.jokers.wild_ranks:
        return _WILD.complete(cards, requirement, variant, (), leaves, most_left) is not None
    way = solve(cards, requirement, variant)
    if way is None:
        return False
    if leaves(len(cards) - sum(map(len, way))):
        return True
    if isinstance(requirement, Contract):
        going_down = variant.going_down
        if going_down.exact_sizes and going_down.exact_meld_count:
            return False  # every way takes as many cards as the one found
        if len(cards) - least_left < sum(requirement.sets + requirement.runs):
            return False  # every way takes at least the cards its slots ask for
    rules = rules_of(variant)
    counts, jokers = count_cards(cards)
    found = every_way(
        counts,
        jokers,
        requirement,
        rules,
        first_only=True,
        leaves=leaves,
        most_left=most_left,
        least_left=least_left,
    )
    return bool(found)


def possible_shapes(cards: Iterable[Card], variant: Variant) -> tuple[GroupShape, ...]:
    """:func:`possible_groups` as the shapes :func:`~shanghai_rummy.melds.check_group` reads
    from their cards (a group of one natural card and jokers, which may read either way, is
    read as it reads it), in the same order and without repeats."""
    refuse_text(cards)
    if variant.jokers.wild_ranks:
        return _WILD.possible_shapes(cards, variant)
    return tuple(shape for _, shape in _hand_shapes(_hand_of(tuple(cards), variant), variant))


def _tally(cards: tuple[Card, ...]) -> bytes:
    """:func:`._card_counts.tally_of` of ``cards``, its refusal naming the card at fault."""
    try:
        return tally_of(cards)
    except RummyError:
        count_cards(cards)  # the error that names the card
        raise


def _hand_of(
    cards: tuple[Card, ...], variant: Variant, larger: tuple[Card, ...] = ()
) -> HandGroups:
    """The :class:`._startable.HandGroups` of ``cards``, remembered by their tally (read
    from those of ``cards`` and ``larger`` together, where they are remembered)."""
    tally = _tally(cards)
    rules = rules_of(variant)
    counts, jokers = list(tally[:64]), tally[JOKER_BYTE]
    return hand_groups(
        tally,
        counts,
        jokers,
        rules,
        tally_of((*cards, *larger)) if larger else None,
    )


def _hand_shapes(hand: HandGroups, variant: Variant) -> list[tuple[tuple[int, ...], GroupShape]]:
    """Each distinct group of ``hand`` (its key) with its shape (see :func:`possible_shapes`),
    read once per hand."""
    if hand.shapes is not None:
        return hand.shapes
    memo = hand.rules.memos.of(_GROUP_SHAPES)
    get = memo.get
    made: dict[tuple[int, ...], GroupShape] = {}
    shapes: list[tuple[tuple[int, ...], GroupShape]] = []
    seen: set[tuple[Card, ...]] = set()
    for key, group in hand.entries():
        if group in seen:
            continue
        seen.add(group)
        shape = get(key)
        if shape is None:
            shape = made[key] = _group_shape(key, group, variant)
        shapes.append((key, shape))
    remember(memo, made)
    hand.shapes = shapes
    return shapes


_GROUP_SHAPES: MemoKind[tuple[int, ...], GroupShape] = MemoKind("group shapes", 1 << 14)
"""The shape of each candidate group, by its flattened canonical key (a shape is a value)."""


def _one_natural(key: tuple[int, ...]) -> bool:
    """Whether the group of flattened canonical ``key`` holds one natural card (or none) and
    jokers: a group that may read either way, whose shape only check_group can say."""
    return len(key) - key.count(JOKER_CODE) <= (3 if key[0] == 0 else 4)


def _group_shape(key: tuple[int, ...], group: tuple[Card, ...], variant: Variant) -> GroupShape:
    """The shape :func:`~shanghai_rummy.melds.check_group` reads from ``group`` (of
    flattened canonical ``key``)."""
    if _one_natural(key):
        return check_group(group, variant)
    # the fields in order: kind, cards, rank, suit, start; set straight into the slots, as
    # the fields' values are the ones check_group reads (an equal value, built cheaper)
    shape = _NEW_SHAPE(GroupShape)
    _SET_CARDS(shape, group)
    if key[0] == 0:
        _SET_KIND(shape, MeldKind.SET)
        _SET_RANK(shape, _RANKS[key[1]])
        _SET_SUIT(shape, None)
        _SET_START(shape, None)
    else:
        _SET_KIND(shape, MeldKind.RUN)
        _SET_RANK(shape, None)
        _SET_SUIT(shape, _SUITS[key[1]])
        _SET_START(shape, key[2])
    return shape


def _slot_setter(name: str) -> Callable[[GroupShape, object], None]:
    """The setter of the slot ``name`` of a :class:`GroupShape`."""
    setter: Callable[[GroupShape, object], None] = getattr(GroupShape, name).__set__
    return setter


_NEW_SHAPE = object.__new__
_SET_KIND, _SET_CARDS, _SET_RANK, _SET_SUIT, _SET_START = map(
    _slot_setter, ("kind", "cards", "rank", "suit", "start")
)
"""The slots of a :class:`GroupShape`, set one by one (its frozen ``__init__`` sets each
through ``object.__setattr__``, by name)."""


@refuses_bad_arguments
def possible_groups(cards: Iterable[Card], variant: Variant) -> Arrangement:
    """Every distinct valid single group that some of ``cards`` can form: exactly the
    canonical forms (see the module notes) of the groups
    :func:`~shanghai_rummy.melds.check_group` accepts from sub-multisets of ``cards``, in
    canonical order (sets before runs). No going-down joker limit applies: these are the
    groups a player who is down may lay.

    >>> from shanghai_rummy import get_variant, parse_cards
    >>> groups = possible_groups(parse_cards("8C 8D JK 9C 10C"), get_variant("shanghai"))
    >>> [" ".join(map(str, group)) for group in groups]
    ['8C 8D JK', 'JK 8C 9C 10C', '8C 9C 10C JK']
    """
    if type(variant) is not Variant:
        raise wrong_type("possible_groups", "variant", "a Variant", variant)
    refuse_text(cards)
    if variant.jokers.wild_ranks:
        return _WILD.possible_groups(cards, variant)
    counts, jokers = count_cards(cards)
    return every_group(counts, jokers, rules_of(variant))


# --- completing a going down around the groups laid so far ------------------------------------

Remaining = Requirement | None
"""What a going down still asks for once some groups are laid: a smaller requirement, or
None where the groups laid meet it."""


def remaining(
    laid: Sequence[GroupShape], requirement: Requirement, variant: Variant
) -> tuple[Remaining, ...]:
    """Every distinct requirement that groups ``laid`` toward ``requirement`` leave to lay
    (None: they meet it), in a fixed order; empty when they cannot be part of any going down
    (see :func:`check_laid`, which says why). For a contract, each group laid fills one slot
    its kind, size and jokers fit (``exact_sizes``, ``going_down_limit``), or, where
    ``exact_meld_count`` does not hold, is an extra group if it fits none left; for an
    opening, the points still missing.

    >>> from shanghai_rummy import Contract, get_variant, parse_cards
    >>> from shanghai_rummy.melds import check_group
    >>> shanghai = get_variant("shanghai")
    >>> laid = [check_group(parse_cards("8C 8D 8H"), shanghai)]
    >>> [left.describe() for left in remaining(laid, Contract(sets=(3,), runs=(4,)), shanghai)]
    ['1 run of 4']
    """
    if isinstance(requirement, Opening):
        points = sum(group_points(shape, requirement.values) for shape in laid)
        run = requirement.natural_run
        if run and any(natural_stretch(shape) >= run for shape in laid):
            run = 0  # the natural run is laid
        if points >= requirement.min_points and not run:
            return (None,)
        return (_smaller(requirement, max(0, requirement.min_points - points), variant, run),)
    # a contract's answer depends on each group's kind, size and jokers only
    memo = rules_of(variant).memos.of(_LEFT_TO_LAY)
    key = (requirement, *[(shape.kind, len(shape.cards), shape.jokers) for shape in laid])
    known = memo.get(key)
    if known is None:
        known = memo[key] = _contract_left(laid, requirement, variant)
    return known


_LEFT_TO_LAY: MemoKind[tuple[object, ...], tuple[Remaining, ...]] = MemoKind(
    "what groups laid leave to lay", 1 << 14
)
"""What groups laid toward a going down leave of a contract, by the contract and what of
the groups the answer depends on (each group's kind, size and jokers)."""


def _contract_left(
    laid: Sequence[GroupShape], requirement: Contract, variant: Variant
) -> tuple[Remaining, ...]:
    """:func:`remaining` for a contract, worked out."""
    exact = variant.going_down.exact_meld_count
    if exact and len(laid) > requirement.group_count:
        return ()
    rules = rules_of(variant)
    slots = [(MeldKind.SET, size) for size in requirement.sets]
    slots += [(MeldKind.RUN, size) for size in requirement.runs]
    fits = [
        [
            index
            for index, (kind, size) in enumerate(slots)
            if kind is shape.kind and _slot_fits(shape, size, rules)
        ]
        for shape in laid
    ]
    taken = [False] * len(slots)
    found: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()

    def assign(group: int) -> None:
        if group == len(laid):
            left = [slot for slot, used in zip(slots, taken, strict=True) if not used]
            found.add(
                (
                    tuple(size for kind, size in left if kind is MeldKind.SET),
                    tuple(size for kind, size in left if kind is MeldKind.RUN),
                )
            )
            return
        placed = False
        for index in fits[group]:
            if not taken[index]:
                placed = taken[index] = True
                assign(group + 1)
                taken[index] = False
        # an extra group only where it fills no slot left: filling one leaves less to lay
        if not placed and not exact:
            assign(group + 1)

    assign(0)
    return tuple(
        _smaller(requirement, (sets, runs), variant) if sets or runs else None
        for sets, runs in sorted(found)
    )


_SMALLER: MemoKind[tuple[object, ...], tuple[Requirement, Requirement]] = MemoKind(
    "smaller requirements", 1024
)


def _smaller(
    requirement: Requirement,
    left: int | tuple[tuple[int, ...], tuple[int, ...]],
    variant: Variant,
    natural_run: int = 0,
) -> Requirement:
    """The requirement of what is ``left`` of ``requirement`` (the slots, or the points and
    the ``natural_run`` still to lay), one object for each: the solver's bounds and tables
    are kept per requirement object."""
    memo = rules_of(variant).memos.of(_SMALLER)
    key = (id(requirement), left, natural_run)
    known = memo.get(key)
    if known is not None and known[0] is requirement:
        return known[1]
    if isinstance(left, int):
        assert isinstance(requirement, Opening)
        smaller: Requirement = Opening(
            min_points=left, values=requirement.values, natural_run=natural_run
        )
    else:
        smaller = Contract(sets=left[0], runs=left[1])
    memo[key] = (requirement, smaller)
    return smaller


def check_laid(
    laid: Sequence[GroupShape], requirement: Requirement, variant: Variant
) -> tuple[Remaining, ...]:
    """:func:`remaining` of groups laid toward a going down, or the error that says why they
    cannot be part of one: :class:`~shanghai_rummy.InvalidMeldError` for a group's jokers
    (``going_down_per_group``), :class:`~shanghai_rummy.ContractNotMetError` for runs of one
    suit that may not go down together, too many groups, or a group no slot left takes."""
    _per_group_check(laid, variant)
    _same_suit_check(laid, variant)
    left = remaining(laid, requirement, variant)
    if left:
        return left
    assert isinstance(requirement, Contract)
    wanted = _Described(requirement)
    if len(laid) > requirement.group_count:
        raise ContractNotMetError(
            f"{wanted} is exactly {requirement.group_count} groups, and these would make "
            f"{len(laid)} (variant.going_down.exact_meld_count)"
        )
    reasons = []
    for shape in laid:
        sizes = requirement.sets if shape.kind is MeldKind.SET else requirement.runs
        if not sizes:
            reasons.append(f"{shape}: {wanted} asks for no {shape.kind.value}")
            continue
        limit = variant.jokers.going_down_limit
        errors = [_slot_fit_error(shape, size, limit(size), variant) for size in set(sizes)]
        if all(error is not None for error in errors):
            reasons.append(str(errors[0]))
    why = "; ".join(reasons) or "each group fills its own slot"
    raise ContractNotMetError(
        f"these groups cannot all fill slots of {wanted} at once (variant.going_down."
        f"exact_meld_count, an extra group is not allowed): {why}"
    )


def complete(
    cards: Iterable[Card],
    requirement: Requirement,
    variant: Variant,
    laid: Sequence[GroupShape] = (),
    *,
    leaves: Callable[[int], bool] | None = None,
    most_left: int | None = None,
    jokers_at_least: int = 0,
) -> Arrangement | None:
    """One way to complete a going down of ``requirement`` whose groups ``laid`` are on the
    table already, with some of ``cards`` (the rest of the hand): groups in canonical form
    that, with ``laid``, :func:`check_going_down` accepts; ``()`` where ``laid`` meets it
    already; None when no way exists. With ``leaves``, only a way that leaves a number of
    cards it accepts (``most_left``, which ``leaves`` must imply, lets the search stop
    early); with ``jokers_at_least``, only a way whose groups hold that many jokers (the
    obligation a joker swap may leave): the way found without it where it holds them, or
    holds them once some of its natural cards are given back for jokers (or jokers added at
    its ends), else one search over groups, most jokers first, that gives up on a choice as
    soon as the groups still to choose cannot hold the jokers missing; never a reading of
    every way. Exact, as :func:`solve` is.

    >>> from shanghai_rummy import Contract, get_variant, parse_cards
    >>> from shanghai_rummy.melds import check_group
    >>> shanghai = get_variant("shanghai")
    >>> laid = [check_group(parse_cards("4H 5H 6H 7H"), shanghai)]
    >>> complete(parse_cards("8H 9H 10H JH"), Contract(runs=(4, 4)), shanghai, laid) is None
    True
    >>> way = complete(parse_cards("9H 10H JH QH 2C"), Contract(runs=(4, 4)), shanghai, laid)
    >>> [" ".join(map(str, group)) for group in way]
    ['9H 10H JH QH']
    """
    refuse_text(cards)
    cards = tuple(cards)
    if variant.jokers.wild_ranks:
        return _WILD.complete(cards, requirement, variant, laid, leaves, most_left, jokers_at_least)
    # remembered by the canonical hand: equal cards are interchangeable; its tally is a
    # compact key the garbage collector need not walk, counted in C
    tally = _tally(cards)
    key = (tally, requirement, tuple(laid), leaves, most_left, jokers_at_least)
    memo = rules_of(variant).memos.of(_COMPLETIONS)
    if key in memo:
        return memo[key]
    way = _complete(cards, requirement, variant, laid, leaves, most_left, jokers_at_least)
    memo[key] = way
    return way


_COMPLETIONS: MemoKind[tuple[object, ...], Arrangement | None] = MemoKind("completions", 1 << 14)
"""The answers of :func:`complete` by the canonical hand (card counts), the requirement, the
groups laid, the turn-end rule and the jokers its groups must hold."""


def _complete(
    cards: tuple[Card, ...],
    requirement: Requirement,
    variant: Variant,
    laid: Sequence[GroupShape],
    leaves: Callable[[int], bool] | None,
    most_left: int | None,
    jokers_at_least: int,
) -> Arrangement | None:
    """:func:`complete`, worked out."""
    left = remaining(laid, requirement, variant)
    if not _laid_apart(laid, variant):
        return None
    extends = isinstance(requirement, Opening) or not variant.going_down.exact_meld_count
    for residual in left:
        if jokers_at_least:
            way = _with_jokers(cards, residual, laid, variant, leaves, jokers_at_least, extends)
        else:
            way = _completion(cards, residual, laid, variant, leaves, most_left, extends)
        if way is not None:
            return way
    return None


def _laid_apart(laid: Sequence[GroupShape], variant: Variant) -> bool:
    """Whether the groups laid keep the per-group joker limit and the same-suit-runs rule."""
    try:
        _per_group_check(laid, variant)
        _same_suit_check(laid, variant)
    except (InvalidMeldError, ContractNotMetError):
        return False
    return True


def _completion(
    cards: tuple[Card, ...],
    residual: Remaining,
    laid: Sequence[GroupShape],
    variant: Variant,
    leaves: Callable[[int], bool] | None,
    most_left: int | None,
    extends: bool,
) -> Arrangement | None:
    """:func:`complete` for one requirement left (``extends``: whether the going down may
    hold more groups than it asks): :func:`solve` first, and where its answer
    clashes with a run laid or leaves a number of cards ``leaves`` refuses, the walk over
    every group, told the runs laid, for the first way that does not."""
    if residual is None:
        if leaves is None or leaves(len(cards)):
            return ()
        return _extra_groups(cards, variant, laid, leaves, most_left) if extends else None
    found = _solved(cards, residual, variant)
    if found is None:
        return None
    runs = _laid_runs(laid, variant)
    if (not runs or not _clashes_with(found, runs, variant)) and (
        leaves is None or leaves(len(cards) - sum(map(len, found)))
    ):
        return found
    if leaves is not None and _no_way_leaves(cards, residual, variant, leaves, extends):
        return None
    return _first_walked(cards, residual, variant, leaves, most_left, runs)


def _solved(cards: tuple[Card, ...], residual: Requirement, variant: Variant) -> Arrangement | None:
    """:func:`solve` of ``cards`` and ``residual``, remembered by the cards' tally: the
    completions of a rest with and without a turn-end rule ask it the same, and so do groups
    of a hand that leave the same rest (a run's jokers at either end)."""
    memo = rules_of(variant).memos.of(_SOLVED)
    key = (_tally(cards), residual)
    if key in memo:
        return memo[key]
    found = memo[key] = solve(cards, residual, variant)
    return found


_SOLVED: MemoKind[tuple[bytes, Requirement], Arrangement | None] = MemoKind(
    "ways to meet what is left, by the rest's tally", 1 << 12
)


def _no_way_leaves(
    cards: tuple[Card, ...],
    residual: Requirement,
    variant: Variant,
    leaves: Callable[[int], bool],
    extends: bool,
) -> bool:
    """Whether no way to meet ``residual`` with some of ``cards`` can leave a number of
    cards ``leaves`` accepts, read from the numbers alone (a sound "no"; False says
    nothing): a contract's way takes at least its slots' cards, so leaves at most the rest;
    where only a way of every card would do, and the going down takes no extra groups, each
    natural card must lie in a group some slot takes."""
    if not isinstance(residual, Contract) or variant.jokers.wild_ranks:
        return False
    accepted = [left for left in range(len(cards) - residual.min_cards + 1) if leaves(left)]
    if not accepted:
        return True
    if accepted != [0] or extends:
        return False
    counts, jokers = count_cards(cards)
    rules = rules_of(variant)
    return not every_card_in_a_slot_group(counts, jokers, _slots_of(residual, rules), rules)


_ANY_GROUPS = Opening(min_points=0)
"""Groups of any kind, size and worth (each with the going-down joker limit)."""


def _extra_groups(
    cards: tuple[Card, ...],
    variant: Variant,
    laid: Sequence[GroupShape],
    leaves: Callable[[int], bool],
    most_left: int | None,
) -> Arrangement | None:
    """Where the groups ``laid`` meet the requirement but leave a number of cards
    ``leaves`` refuses, and the going down may hold more groups (an opening, a contract
    without ``exact_meld_count``): the first way of extra groups that joins them and leaves
    a number it accepts, or None."""
    return _first_walked(cards, _ANY_GROUPS, variant, leaves, most_left, _laid_runs(laid, variant))


def _first_walked(
    cards: tuple[Card, ...],
    requirement: Requirement,
    variant: Variant,
    leaves: Callable[[int], bool] | None,
    most_left: int | None,
    laid_runs: Sequence[tuple[int, int, int]],
) -> Arrangement | None:
    """The first way the walk over every group finds to meet ``requirement`` with some of
    ``cards`` that leaves a number of cards ``leaves`` accepts and clashes with none of
    ``laid_runs``, or None."""
    counts, jokers = count_cards(cards)
    ways = every_way(
        counts,
        jokers,
        requirement,
        rules_of(variant),
        first_only=True,
        leaves=leaves,
        most_left=most_left,
        laid_runs=laid_runs,
    )
    return tuple(candidate.cards for candidate in ways[0]) if ways else None


def _laid_runs(laid: Sequence[GroupShape], variant: Variant) -> tuple[tuple[int, int, int], ...]:
    """The runs laid, as (suit index, start, length), where runs of a suit may clash."""
    if variant.going_down.same_suit_runs is SameSuitRuns.ALLOWED:
        return ()
    return tuple(
        (_SUITS.index(shape.suit), shape.start, len(shape.cards))
        for shape in laid
        if shape.kind is MeldKind.RUN and shape.suit is not None and shape.start is not None
    )


def _with_jokers(
    cards: tuple[Card, ...],
    residual: Remaining,
    laid: Sequence[GroupShape],
    variant: Variant,
    leaves: Callable[[int], bool] | None,
    jokers: int,
    extends: bool,
) -> Arrangement | None:
    """:func:`complete` for one requirement left, with at least ``jokers`` jokers in the
    groups added. Where ``laid`` meets the requirement already, the jokers can go only into
    extra groups that join it, where the going down may hold more groups than it asks
    (``extends``). The way :func:`solve` finds first (none: none with them), kept where it
    holds them, or holds them once :func:`_more_jokers` gives it more; else the walk over
    groups that tries the groups with most jokers first and gives up on a choice as soon as
    the groups still to choose cannot hold the jokers missing: a search for one way, not a
    reading of every way."""
    if residual is None:
        if not extends:
            return None
        residual = _ANY_GROUPS
    if sum(1 for card in cards if card.is_joker) < jokers:
        return None
    found = solve(cards, residual, variant)
    if found is None:
        return None  # no way at all
    runs = _laid_runs(laid, variant)
    for requirement in _larger(residual, variant):
        way = found if requirement is residual else solve(cards, requirement, variant)
        if way is None or (requirement is not residual and not _valid(way, residual, variant)):
            continue
        if (not runs or not _clashes_with(way, runs, variant)) and (
            leaves is None or leaves(len(cards) - sum(map(len, way)))
        ):
            way = _more_jokers(way, cards, jokers, residual, laid, variant, leaves)
            if sum(1 for group in way for card in group if card.is_joker) >= jokers:
                return way
    counts, held = count_cards(cards)
    ways = every_way(
        counts,
        held,
        residual,
        rules_of(variant),
        first_only=True,
        leaves=leaves,
        laid_runs=runs,
        jokers_at_least=jokers,
    )
    if not ways:
        return None
    return tuple(candidate.cards for candidate in sorted(ways[0], key=_KEY))


_KEY = attrgetter("key")


def _more_jokers(
    way: Arrangement,
    cards: tuple[Card, ...],
    jokers: int,
    residual: Requirement,
    laid: Sequence[GroupShape],
    variant: Variant,
    leaves: Callable[[int], bool] | None,
) -> Arrangement:
    """``way`` with more of the jokers of ``cards`` it does not hold, one at a time while
    the going down stays valid, until its groups hold ``jokers`` jokers: in place of a
    natural card of a group (the cards left stay as many), else at an end of a group where
    the cards it then leaves are a number ``leaves`` accepts. A quick try before the
    search."""
    groups = [list(group) for group in way]
    held = sum(1 for group in groups for card in group if card.is_joker)
    spare = sum(1 for card in cards if card.is_joker) - held
    left = len(cards) - sum(map(len, groups))
    runs = _laid_runs(laid, variant)
    for group in groups:
        for place, card in enumerate(group):
            if held >= jokers or not spare:
                return canonical_groups(groups, variant)
            if card.is_joker:
                continue
            group[place] = JOKER
            if _still_valid(groups, residual, runs, variant):
                held, spare = held + 1, spare - 1
            else:
                group[place] = card
    if leaves is None or leaves(left - 1):
        for group in groups:
            for end in (len(group), 0):
                if held >= jokers or not spare or not (leaves is None or leaves(left - 1)):
                    return canonical_groups(groups, variant)
                group.insert(end, JOKER)
                if _still_valid(groups, residual, runs, variant):
                    held, spare, left = held + 1, spare - 1, left - 1
                else:
                    del group[end]
    return canonical_groups(groups, variant)


def _larger(requirement: Requirement, variant: Variant) -> tuple[Requirement, ...]:
    """``requirement``, then, for a contract whose groups may be larger than its slots
    (``going_down.exact_sizes`` off), the contracts of its slots one, two and three cards
    larger: a way to meet one of those meets it too, and its larger groups may take more
    jokers in place of natural cards (a quick try of :func:`_with_jokers`)."""
    if not isinstance(requirement, Contract) or variant.going_down.exact_sizes:
        return (requirement,)
    memo = rules_of(variant).memos.of(_LARGER)
    known = memo.get(requirement)
    if known is None:
        larger: list[Requirement] = [requirement]
        for more in (1, 2, 3):
            try:
                larger.append(
                    Contract(
                        sets=tuple(size + more for size in requirement.sets),
                        runs=tuple(size + more for size in requirement.runs),
                    )
                )
            except RummyError:  # a run longer than the ranks
                break
        known = memo[requirement] = tuple(larger)
    return known


_LARGER: MemoKind[Requirement, tuple[Requirement, ...]] = MemoKind("larger contracts", 256)


def _valid(way: Arrangement, requirement: Requirement, variant: Variant) -> bool:
    """Whether ``way`` meets ``requirement``."""
    try:
        check_going_down(way, requirement, variant)
    except RummyError:
        return False
    return True


def _still_valid(
    groups: list[list[Card]],
    residual: Requirement,
    runs: Sequence[tuple[int, int, int]],
    variant: Variant,
) -> bool:
    """Whether ``groups`` meet ``residual`` and clash with none of the runs laid."""
    way = tuple(map(tuple, groups))
    return _valid(way, residual, variant) and (not runs or not _clashes_with(way, runs, variant))


def _clashes_with(way: Arrangement, runs: Sequence[tuple[int, int, int]], variant: Variant) -> bool:
    """Whether a run of ``way`` may not go down with one of ``runs`` (suit index, start,
    length) under ``variant.going_down.same_suit_runs``."""
    for group in way:
        shape = check_group(group, variant)
        if shape.kind is not MeldKind.RUN or shape.suit is None or shape.start is None:
            continue
        suit = _SUITS.index(shape.suit)
        if any(
            s == suit and runs_clash(start, length, shape.start, len(shape.cards), variant)
            for s, start, length in runs
        ):
            return True
    return False


# --- the groups that can start (or continue) a going down -------------------------------------


@refuses_bad_arguments
def startable_groups(
    cards: Iterable[Card],
    requirement: Requirement,
    variant: Variant,
    laid: Sequence[GroupShape] = (),
    *,
    leaves: Callable[[int], bool] | None = None,
) -> dict[GroupShape, bool]:
    """Every group of ``cards`` (a shape of :func:`possible_shapes`) that can go toward a
    going down of ``requirement`` around the groups ``laid`` so far without meeting it yet,
    and that the rest of ``cards`` can then complete (:func:`complete` of the rest, with
    ``laid`` and the group, is not None): mapped to True where some completion leaves a
    number of cards ``leaves`` accepts (any number, without it), False where every one
    leaves a number it refuses. A group is left out where it breaks the going-down joker
    limit (``variant.jokers.going_down_per_group``), the same-suit-runs rule with ``laid``,
    or no slot left takes it. Exact: the same answers as :func:`complete` asked of each
    group, found for a contract in one pass over the hand's irreducible groups of each slot
    (see ``_startable``), the exact search asked only where that pass cannot tell.

    >>> from shanghai_rummy import Contract, get_variant, parse_cards
    >>> shanghai = get_variant("shanghai")
    >>> hand = parse_cards("8C 8D 8H 9C 9D 9S 9H 4S")
    >>> answers = startable_groups(hand, Contract(sets=(3, 3)), shanghai)
    >>> sorted(" ".join(map(str, shape.cards)) for shape in answers)
    ['8C 8D 8H', '9C 9D 9H', '9C 9D 9H 9S', '9C 9D 9S', '9C 9H 9S', '9D 9H 9S']
    """
    _check_arguments("startable_groups", requirement, variant)
    refuse_text(cards)
    cards = tuple(cards)
    if variant.jokers.wild_ranks:
        return _WILD.startable_groups(cards, requirement, variant, laid, leaves)
    tally = _tally(cards)
    rules = rules_of(variant)
    if not laid and type(requirement) is Contract and tally_out_of_reach(tally, requirement, rules):
        return {}  # the quick "no" of most hands: no way at all
    key = (tally, requirement, tuple(laid), leaves)
    memo = rules.memos.of(_STARTABLE)
    known = memo.get(key)
    if known is None:
        known = memo[key] = _startable_answers(cards, requirement, variant, tuple(laid), leaves)
    return known


_STARTABLE: MemoKind[tuple[object, ...], dict[GroupShape, bool]] = MemoKind(
    "groups that can start a going down", 16
)
"""The answers of :func:`startable_groups` by the hand's tally, the requirement, the groups
laid and the turn-end rule (a listing and the move made from it ask the same)."""


def _startable_answers(
    cards: tuple[Card, ...],
    requirement: Requirement,
    variant: Variant,
    laid: tuple[GroupShape, ...],
    leaves: Callable[[int], bool] | None,
) -> dict[GroupShape, bool]:
    """:func:`startable_groups`, worked out."""
    answers: dict[GroupShape, bool] = {}
    if not _laid_apart(laid, variant):
        return answers
    left = _left_by_ways(laid, requirement, variant)
    if left is _NOTHING_TO_ASK:
        return answers
    # the hand before the last group laid was most likely asked about just before
    hand = _hand_of(cards, variant, laid[-1].cards if laid else ())
    placed = _laid_runs(laid, variant)
    if isinstance(left, Contract):
        from_ways = _answers_from_ways(cards, hand, left, variant, leaves, placed)
        if from_ways is not None:
            return from_ways
    apart_rule = variant.going_down.same_suit_runs is not SameSuitRuns.ALLOWED
    # groups whose rest completes nothing, while nothing is found yet (-1: not counted)
    refused = 0 if isinstance(requirement, Contract) else -1
    # most hands asked about with nothing laid cannot go down at all: one search of the
    # whole hand says so before any group is asked about
    if (
        not laid
        and refused >= 0
        and _none_completes(hand, laid, requirement, placed, leaves, variant)
    ):
        return answers  # the whole hand cannot meet it, so no group's rest can complete it
    asked: Iterable[Asked] = _asked(hand, requirement, variant, laid, placed, leaves)
    if refused >= 0 and len(hand.candidates()) >= CONFIRM_FROM:
        return _confirmed_answers(cards, hand, list(asked), requirement, variant, laid, leaves)
    shapes = hand.rules.memos.of(_GROUP_SHAPES)
    for key, candidate, searches in asked:
        found = _group_answer(searches, candidate, placed, apart_rule)
        if found == YES:
            answers[_shape_of(key, candidate.cards, variant, shapes)] = True
        elif found != NO:
            shape = _shape_of(key, candidate.cards, variant, shapes)
            answer = _exact_answer(cards, shape.cards, requirement, variant, (*laid, shape), leaves)
            if answer is not None:
                answers[shape] = answer
        elif refused >= 0 and not answers:
            refused += 1
            if refused == _REFUSED_BEFORE_THE_WHOLE_HAND and _none_completes(
                hand, laid, requirement, placed, leaves, variant
            ):
                return answers  # no group's rest can complete it either
    return answers


def _confirmed_answers(
    cards: tuple[Card, ...],
    hand: HandGroups,
    asked: list[Asked],
    requirement: Requirement,
    variant: Variant,
    laid: tuple[GroupShape, ...],
    leaves: Callable[[int], bool] | None,
) -> dict[GroupShape, bool]:
    """:func:`_startable_answers` of a hand of many groups (a contract's), the groups
    ``asked`` confirmed or refuted many at once where they can be (see ``_confirmations``)
    and asked one by one where they cannot."""
    answers: dict[GroupShape, bool] = {}
    placed = _laid_runs(laid, variant)
    apart_rule = variant.going_down.same_suit_runs is not SameSuitRuns.ALLOWED
    tally = _tally(cards)
    rules = hand.rules
    confirmations = Confirmations(asked, hand, leaves, placed if apart_rule else None)
    refused = 0
    # the groups settled so far a byte per eight (testing a bit of the wide masks themselves
    # would copy them for each group); read again once a group asked changes them
    width = (len(asked) >> 3) + 1
    confirmed = confirmations.confirmed.to_bytes(width, "little")
    refuted = confirmations.refuted.to_bytes(width, "little")
    number = confirmations.number  # each group's bit in the masks
    shapes = rules.memos.of(_GROUP_SHAPES)
    for index, (key, candidate, searches) in enumerate(asked):
        bit = number[index]
        if confirmed[bit >> 3] >> (bit & 7) & 1:
            # a completion found fits beside it
            answers[_shape_of(key, candidate.cards, variant, shapes)] = True
            continue
        if refuted[bit >> 3] >> (bit & 7) & 1:
            found = NO  # a smaller rest holds no completion
        else:
            if _out_of_reach(tally_without(tally, candidate.cards), searches, rules):
                found = NO
            else:
                found = _group_answer(searches, candidate, placed, apart_rule)
                confirmations.take(searches)
            if found == NO:
                confirmations.refute(candidate, searches)
            confirmed = confirmations.confirmed.to_bytes(width, "little")
            refuted = confirmations.refuted.to_bytes(width, "little")
        if found == YES:
            answers[_shape_of(key, candidate.cards, variant, shapes)] = True
        elif found != NO:
            shape = _shape_of(key, candidate.cards, variant, shapes)
            answer = _exact_answer(cards, shape.cards, requirement, variant, (*laid, shape), leaves)
            if answer is not None:
                answers[shape] = answer
        elif not answers:
            refused += 1
            if refused == _REFUSED_BEFORE_THE_WHOLE_HAND and _none_completes(
                hand, laid, requirement, placed, leaves, variant
            ):
                return answers  # no group's rest can complete it either
    return answers


_NOTHING_TO_ASK = object()
"""What :func:`_left_by_ways` gives where no group can be asked about (see there)."""


def _left_by_ways(
    laid: tuple[GroupShape, ...], requirement: Requirement, variant: Variant
) -> object:
    """What :func:`_startable_answers` may read off the hand's ways: the contract still to
    lay, where it is the one thing ``laid`` leaves of ``requirement`` (the requirement
    itself with nothing laid); :data:`_NOTHING_TO_ASK` where ``exact_meld_count`` holds and
    what is left is at most one group (every group then meets it or fits no slot, and
    neither is asked about); None otherwise (an opening, several readings of what is left,
    or extra groups allowed)."""
    if not isinstance(requirement, Contract):
        return None
    if not laid:
        return requirement
    if not variant.going_down.exact_meld_count:
        return None
    lefts = remaining(laid, requirement, variant)
    if all(left is None or (isinstance(left, Contract) and left.group_count < 2) for left in lefts):
        return _NOTHING_TO_ASK
    return lefts[0] if len(lefts) == 1 else None


def _answers_from_ways(
    cards: tuple[Card, ...],
    hand: HandGroups,
    contract: Contract,
    variant: Variant,
    leaves: Callable[[int], bool] | None,
    placed: tuple[Placed, ...],
) -> dict[GroupShape, bool] | None:
    """:func:`startable_groups` of a hand, read off the few ways it has to meet ``contract``
    (what the groups laid leave, apart from their runs ``placed`` where the same-suit-runs
    rule applies), an alike-slots contract of two groups or more: a group starts (or
    continues) a going down the rest completes exactly where it is one group of a way (the
    rest of that way completes it, and any completion is, with the group, a way), and some
    completion leaves a number of cards ``leaves`` accepts where one of those ways does.
    None where the hand has too many groups or ways for that to be quicker than asking group
    by group (or the contract is of another kind)."""
    if contract.group_count < 2 or len(hand.candidates()) > WAYS_UP_TO_GROUPS:
        return None
    rules = hand.rules
    tally = _tally(cards)
    ways = few_contract_ways(list(tally[:64]), tally[JOKER_BYTE], contract, rules, _FEW_WAYS)
    if ways is None:
        return None
    if placed:
        ways = [way for way in ways if not _way_clashes(way, placed, rules)]
    if not ways:
        return {}
    # by key, whether some way holding the group leaves a number of cards the turn may end
    # with; a group of one natural card and jokers read the other way has a key of its own,
    # not among the hand's shapes (that reading is not asked), so is never looked up
    best: dict[tuple[int, ...], bool] = {}
    size = len(cards)
    for way in ways:
        fits = leaves is None or leaves(size - sum(candidate.size for candidate in way))
        for candidate in way:
            if fits or candidate.key not in best:
                best[candidate.key] = fits
    return {
        shape: best[key] for key, shape in _hand_shapes(hand, variant) if key in best
    }  # in the order of possible_shapes


def _way_clashes(
    way: tuple[Candidate, ...], placed: tuple[Placed, ...], rules: VariantRules
) -> bool:
    """Whether a run of ``way`` may not go down with one of the runs ``placed`` (suit index,
    start, length) laid before, under the same-suit-runs rule."""
    clash = rules.clash
    return any(
        candidate.kind is MeldKind.RUN
        and any(
            suit == candidate.suit and clash(start, length, candidate.start, candidate.size)
            for suit, start, length in placed
        )
        for candidate in way
    )


WAYS_UP_TO_GROUPS = 320
"""The most groups a hand may form for its answers to be read off its ways
(:func:`_answers_from_ways`): the ways of a hand of more are many, or slow to rule out."""
_FEW_WAYS = 1024
"""The most ways (and choices of each table on the way to them) read to answer
:func:`startable_groups` from them."""

CONFIRM_FROM = 128
"""From how many groups of a hand the completions found confirm groups many at once (see
``_confirmations``): below, their masks cost more than the searches they spare."""


def _out_of_reach(rest: bytes, searches: Searches, rules: VariantRules) -> bool:
    """Whether the quick refusals show that the cards of tally ``rest`` complete none of
    ``searches`` (what a group leaves to lay): a sound "no"."""
    for search in searches:
        contract = search.contract if search is not None else None
        if contract is None or not tally_out_of_reach(rest, contract, rules):
            return False
    return True


def _asked(
    hand: HandGroups,
    requirement: Requirement,
    variant: Variant,
    laid: tuple[GroupShape, ...],
    placed: tuple[Placed, ...],
    leaves: Callable[[int], bool] | None,
) -> Iterator[Asked]:
    """Each group of ``hand`` (in the order of :func:`possible_shapes`) that keeps the
    going-down joker limit and the same-suit-runs rule with ``laid``, and that leaves
    something to lay without meeting the requirement: what :func:`startable_groups` asks
    of each."""
    limit = variant.jokers.going_down_per_group
    if limit is None:
        limit = MAX_GROUP_CARDS
    # what is left to lay depends on a group's kind, size and jokers only (a contract), and
    # so do the searches that ask whether the rest completes it
    lefts: dict[tuple[int, int, int], tuple[Searches, bool]] = {}
    # what remaining reads of the groups laid (see _LEFT_TO_LAY), read once
    laid_reads = (requirement, *[(shape.kind, len(shape.cards), shape.jokers) for shape in laid])
    memo = hand.rules.memos.of(_LEFT_TO_LAY)
    shapes = hand.rules.memos.of(_GROUP_SHAPES)
    contract = isinstance(requirement, Contract)
    run = MeldKind.RUN
    # in the order of the hand's shapes, each once by its cards (see _hand_shapes), with a
    # shape made only where something here reads it: most groups of a huge hand are refused
    seen: set[tuple[Card, ...]] = set()
    for key, candidate in hand.keyed().items():
        cards = candidate.cards
        if cards in seen:
            continue
        seen.add(cards)
        if candidate.jokers > limit:
            continue
        shape: GroupShape | None = None
        if _one_natural(key):  # its kind is the one check_group reads
            shape = _shape_of(key, cards, variant, shapes)
            group_kind = shape.kind
        else:
            group_kind = candidate.kind
        if placed and group_kind is run:
            shape = shape or _shape_of(key, cards, variant, shapes)
            if not runs_apart((*laid, shape), variant):
                continue
        if contract:
            kind = (candidate.group, candidate.size, candidate.jokers)
            read = lefts.get(kind)
            if read is None:
                left = memo.get((*laid_reads, (group_kind, *kind[1:])))
                if left is None:
                    shape = shape or _shape_of(key, cards, variant, shapes)
                    left = remaining((*laid, shape), requirement, variant)
                read = lefts[kind] = _searches_of(hand, left, leaves)
        else:
            shape = shape or _shape_of(key, cards, variant, shapes)
            read = _searches_of(hand, remaining((*laid, shape), requirement, variant), leaves)
        searches, wanted = read
        if wanted:
            yield key, candidate, searches


def _shape_of(
    key: tuple[int, ...],
    cards: tuple[Card, ...],
    variant: Variant,
    memo: Memo[tuple[int, ...], GroupShape],
) -> GroupShape:
    """The shape of the group of ``cards`` (of flattened canonical ``key``), remembered in
    ``memo`` (the variant's memo of group shapes)."""
    shape = memo.get(key)
    if shape is None:
        shape = memo[key] = _group_shape(key, cards, variant)
    return shape


_REFUSED_BEFORE_THE_WHOLE_HAND = 3
"""After how many groups whose rest completes nothing (and none found) the whole hand is
asked once whether it can complete what is left (see :func:`_none_completes`): a hand that
can go down does not pay for the question."""


def _none_completes(
    hand: HandGroups,
    laid: tuple[GroupShape, ...],
    requirement: Requirement,
    placed: tuple[Placed, ...],
    leaves: Callable[[int], bool] | None,
    variant: Variant,
) -> bool:
    """Whether the one pass over the hand's irreducible groups shows that the whole hand
    cannot complete what ``laid`` leaves of ``requirement``: then no group of it can start
    (or continue) a going down the rest completes, as any such completion, with the group,
    would be one of the whole hand (a sound "no"; anything else says nothing)."""
    residuals = remaining(laid, requirement, variant) if laid else (requirement,)
    for residual in residuals:
        if not isinstance(residual, Contract):
            return False
        if hand.completes(None, _slots_of(residual, hand.rules), placed, leaves) != NO:
            return False
    return True


def _searches_of(
    hand: HandGroups, left: tuple[Remaining, ...], leaves: Callable[[int], bool] | None
) -> tuple[Searches, bool]:
    """The search of each of ``left`` in ``hand`` (see :func:`_group_answer`), and whether
    the group is asked about at all: it leaves something to lay, and does not meet it."""
    if not left or None in left:
        return (), False
    rules = hand.rules
    return tuple(
        hand.search(_slots_of(residual, rules), leaves, residual)
        if isinstance(residual, Contract)
        else None
        for residual in left
    ), True


def _group_answer(
    searches: Searches, candidate: Candidate, placed: tuple[Placed, ...], apart_rule: bool
) -> int:
    """YES where the one pass over the hand's irreducible groups finds a completion of
    what one reading of what ``candidate`` leaves asks (``searches``), NO where it shows
    none exists, else UNDECIDED (the exact search decides)."""
    if apart_rule and candidate.kind is MeldKind.RUN:
        placed = (*placed, (candidate.suit, candidate.start, candidate.size))
    undecided = False
    for search in searches:
        if search is None:
            return UNDECIDED  # an opening's points: the exact search
        answer = search.run(candidate, placed)
        if answer == YES:
            return YES
        undecided = undecided or answer != NO
    return UNDECIDED if undecided else NO


def _slots_of(contract: Contract, rules: VariantRules) -> tuple[Slot, ...]:
    """The slots of ``contract`` in a fixed order (alike slots side by side), remembered
    (a contract is a value)."""
    memo = rules.memos.of(_SLOT_ORDER)
    known = memo.get(contract)
    if known is None:
        known = memo[contract] = (
            *((MeldKind.SET, size) for size in sorted(contract.sets)),
            *((MeldKind.RUN, size) for size in sorted(contract.runs)),
        )
    return known


_SLOT_ORDER: MemoKind[Contract, tuple[Slot, ...]] = MemoKind("slots of a contract", 1024)


def _exact_answer(
    cards: tuple[Card, ...],
    group: tuple[Card, ...],
    requirement: Requirement,
    variant: Variant,
    together: tuple[GroupShape, ...],
    leaves: Callable[[int], bool] | None,
) -> bool | None:
    """:func:`startable_groups`' answer for ``group`` by :func:`complete` of the rest: None
    where the rest cannot complete the going down."""
    rest = list(cards)
    for card in group:
        rest.remove(card)
    if complete(rest, requirement, variant, together) is None:
        return None
    return (
        leaves is None or complete(rest, requirement, variant, together, leaves=leaves) is not None
    )


_WILD = WildSolver(
    PlainSolver(
        complete=complete,
        arrangements=arrangements,
        possible_groups=possible_groups,
        remaining=remaining,
        check_shapes=check_shapes,
        runs_apart=runs_apart,
    )
)
"""The entry points under ``jokers.wild_ranks`` (see ``_wild_cards``), built on these."""
