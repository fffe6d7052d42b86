"""Wild ranks in the solver (``JokerRules.wild_ranks``, deuces wild): a card of a wild rank
stands as itself where it fits as itself, and for another card (as a joker) anywhere else.

The searches over card counts know jokers only. Under wild ranks every entry point of the
solver asks them about the hand once for each *split* of its wild cards: for each wild card
held, how many of its copies stand for other cards (made jokers) and how many stay natural
cards, which the searches then place only as themselves. The searches run on the variant
without wild ranks (:func:`plain_variant`); each joker of an answer is then given one of the
cards the split made jokers (the hand's own jokers first), and the answer is read again
under the variant itself, as :func:`~shanghai_rummy.solver.check_going_down` reads it.

Why that is exact. A way the wild variant accepts gives the split of its wild cards that
stand for another card: with each of those a joker, its groups are groups of the plain
variant with the same shapes and joker counts (that is how ``melds.check_group`` reads a
wild group), so the searches accept them in that split. The other way round, a way the
searches find in a split is read under the wild variant with every wild card standing as
itself where it fits as itself: that only turns jokers into natural cards, which no joker
limit, natural minimum or run rule of jokers refuses; but it may read a group another way
(a set of a wild rank whose card of a suit it already holds, under ``set_distinct_suits``;
a group whose every natural card is wild), so every answer is read again. Where the answer
a search finds in a split does not read right with any giving of its jokers, every way of
that split is listed and tried (rare: only those house rules together).

One group escapes the splits, only where sets laid hold distinct suits: a run of wild cards
and jokers only in which one card stands as itself, such as ``2D 2D JK JK`` (2D-3D-4D-5D,
no set: two diamonds). In its split it is one natural card and jokers, which the searches
read as a set, never as that run (every wild card of the set's rank natural, the wild
variant reads no set of it only because two of them share a suit; without distinct suits a
set of one natural card and jokers is valid wherever one with more natural cards is). Those
runs are listed apart (:func:`lone_runs`: 3 or 4 cards, the most a set of distinct suits
holds), and a way holding one is found by laying it and asking again about the rest.

A wild card held is counted by its rank and suit like any card; a split is a count per
distinct wild card, at most ``decks`` + 1 choices for each of them, tried with the most
stand-ins first (the split that most often finds a way). Nothing here is public.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence

import attrs

from ..cards import JOKER, Card, sort_cards
from ..contracts import Opening, Requirement
from ..errors import RummyError
from ..melds import GroupShape, MeldKind, Shape, check_group
from ..variants import SameSuitRuns, Variant
from ._card_counts import tally_of
from ._memo import MemoKind
from ._variant_rules import Arrangement, canonical_form, card_code, rules_of

__all__ = ["PlainSolver", "WildSolver", "canonical_form_of", "holds_wild_cards", "plain_variant"]

Leaves = Callable[[int], bool] | None
Remaining = Requirement | None


@attrs.frozen
class PlainSolver:
    """The solver's entry points, asked with the variant without wild ranks."""

    complete: Callable[..., Arrangement | None]  # solver.complete, keywords and all
    arrangements: Callable[[Iterable[Card], Requirement, Variant], tuple[Arrangement, ...]]
    possible_groups: Callable[[Iterable[Card], Variant], Arrangement]
    remaining: Callable[[Sequence[GroupShape], Requirement, Variant], tuple[Remaining, ...]]
    check_shapes: Callable[[Sequence[GroupShape], Requirement, Variant], None]
    runs_apart: Callable[[Sequence[GroupShape], Variant], bool]


_PLAIN: MemoKind[int, Variant] = MemoKind("the variant without its wild ranks", 1)


def plain_variant(variant: Variant) -> Variant:
    """``variant`` without its wild ranks (one object per variant, kept by its rules)."""
    memo = rules_of(variant).memos.of(_PLAIN)
    known = memo.get(0)
    if known is None:
        jokers = attrs.evolve(variant.jokers, wild_ranks=(), dead_wild_discards=False)
        known = memo[0] = attrs.evolve(variant, jokers=jokers)
    return known


def holds_wild_cards(cards: Iterable[Card], variant: Variant) -> bool:
    """Whether ``cards`` hold a card of one of the variant's wild ranks (not a joker)."""
    wild = variant.jokers.wild_ranks
    return any(card.rank is not None and card.rank in wild for card in cards)


def splits(cards: tuple[Card, ...], variant: Variant) -> Iterator[tuple[list[Card], list[Card]]]:
    """Each split of the wild cards of ``cards`` (see the module notes): the hand as the
    searches see it (the stand-ins made jokers) and the cards its jokers are (the hand's
    jokers first, then the stand-ins in card order); the most stand-ins first."""
    wild = variant.jokers.wild_ranks
    held = Counter(card for card in cards if card.rank is not None and card.rank in wild)
    others = [card for card in cards if card.rank is None or card.rank not in wild]
    jokers = [card for card in others if card.rank is None]
    kinds = sort_cards(held)
    for standing in itertools.product(*(range(held[kind], -1, -1) for kind in kinds)):
        stand_ins = [
            kind for kind, count in zip(kinds, standing, strict=True) for _ in range(count)
        ]
        naturals = [
            kind
            for kind, count in zip(kinds, standing, strict=True)
            for _ in range(held[kind] - count)
        ]
        yield [*others, *naturals, *[JOKER] * len(stand_ins)], [*jokers, *stand_ins]


def givings(way: Arrangement, pool: Sequence[Card], variant: Variant) -> Iterator[Arrangement]:
    """Each distinct way of giving the jokers of ``way`` (a way of the searches) cards of
    ``pool``, group by group, keeping only groups the wild variant reads as valid (a group
    of the searches given no wild card is: it reads as it did); the pool's order first (its
    jokers before its stand-ins)."""
    left = Counter(pool)
    kinds = list(dict.fromkeys(pool))

    def give(index: int, done: tuple[tuple[Card, ...], ...]) -> Iterator[Arrangement]:
        if index == len(way):
            yield done
            return
        group = way[index]
        for cards in _given_group(group, 0, (), left, kinds):
            if holds_wild_cards(cards, variant):
                try:
                    check_group(cards, variant)
                except RummyError:
                    continue
            yield from give(index + 1, (*done, cards))

    yield from give(0, ())


def _given_group(
    group: tuple[Card, ...],
    index: int,
    done: tuple[Card, ...],
    left: Counter[Card],
    kinds: list[Card],
) -> Iterator[tuple[Card, ...]]:
    """Each way of giving the jokers of ``group`` (from ``index`` on) cards ``left``,
    which it takes while it yields and puts back after."""
    while index < len(group) and group[index].rank is not None:
        done = (*done, group[index])
        index += 1
    if index == len(group):
        yield done
        return
    for kind in kinds:
        if left[kind]:
            left[kind] -= 1
            yield from _given_group(group, index + 1, (*done, kind), left, kinds)
            left[kind] += 1


_ANY_GROUPS = Opening(min_points=0)
"""Groups of any kind, size and worth: the extra groups a going down may hold."""

_COMPLETIONS: MemoKind[tuple[object, ...], Arrangement | None] = MemoKind(
    "completions with wild cards", 1 << 12
)
_GROUPS: MemoKind[bytes, Arrangement] = MemoKind("possible groups with wild cards", 1 << 10)
_STARTABLE: MemoKind[tuple[object, ...], dict[GroupShape, bool]] = MemoKind(
    "groups that can start a going down, with wild cards", 16
)


@attrs.frozen
class WildSolver:
    """The solver's entry points under wild ranks, built on the ``plain`` ones."""

    plain: PlainSolver

    def complete(
        self,
        cards: Iterable[Card],
        requirement: Requirement,
        variant: Variant,
        laid: Sequence[GroupShape] = (),
        leaves: Leaves = None,
        most_left: int | None = None,
        jokers_at_least: int = 0,
    ) -> Arrangement | None:
        """``solver.complete`` (and ``solve``, with nothing laid) under wild ranks: the
        hand's own jokers count toward ``jokers_at_least``, a wild card does not (only a
        joker is ever taken from the table)."""
        cards = tuple(cards)
        key = (tally_of(cards), requirement, tuple(laid), leaves, most_left, jokers_at_least)
        memo = rules_of(variant).memos.of(_COMPLETIONS)
        if key in memo:
            return memo[key]
        found = memo[key] = self._complete(
            cards, requirement, variant, tuple(laid), leaves, most_left, jokers_at_least
        )
        return found

    def _complete(
        self,
        cards: tuple[Card, ...],
        requirement: Requirement,
        variant: Variant,
        laid: tuple[GroupShape, ...],
        leaves: Leaves,
        most_left: int | None,
        jokers: int,
    ) -> Arrangement | None:
        plain = plain_variant(variant)
        searched = self.plain.complete
        if not holds_wild_cards(cards, variant):
            return searched(
                cards,
                requirement,
                plain,
                laid,
                leaves=leaves,
                most_left=most_left,
                jokers_at_least=jokers,
            )
        judge = _Judge(self.plain, requirement, variant, laid, len(cards), leaves, jokers)
        for hand, pool in splits(cards, variant):
            way = searched(
                hand,
                requirement,
                plain,
                laid,
                leaves=leaves,
                most_left=most_left,
                jokers_at_least=jokers,
            )
            if way is None:
                continue
            found = judge.first((way,), pool)
            if found is None:  # rare: try every way of this split
                found = judge.first(self._every_way(hand, requirement, plain, laid), pool)
            if found is not None:
                return found
        for group, shape in lone_runs(cards, variant):
            inner = self.complete(
                _without(cards, group),
                requirement,
                variant,
                (*laid, shape),
                leaves,
                most_left,
                max(0, jokers - group.count(JOKER)),
            )
            if inner is not None:
                return _in_order((group, *inner), variant)
        return None

    def _every_way(
        self,
        hand: list[Card],
        requirement: Requirement,
        plain: Variant,
        laid: tuple[GroupShape, ...],
    ) -> Iterator[Arrangement]:
        """Every way of the searches to complete a going down begun with ``laid``."""
        extends = isinstance(requirement, Opening) or not plain.going_down.exact_meld_count
        for residual in self.plain.remaining(laid, requirement, plain):
            if residual is None:
                yield ()
                if extends:
                    yield from self.plain.arrangements(hand, _ANY_GROUPS, plain)
            else:
                yield from self.plain.arrangements(hand, residual, plain)

    def arrangements(
        self, cards: Iterable[Card], requirement: Requirement, variant: Variant
    ) -> tuple[Arrangement, ...]:
        """``solver.arrangements`` under wild ranks: every way of every split, with every
        giving of its jokers that reads right, in canonical form, each once."""
        cards = tuple(cards)
        if not holds_wild_cards(cards, variant):
            return self.plain.arrangements(cards, requirement, plain_variant(variant))
        found = self._every_wild_way(cards, requirement, variant, ())
        return tuple(found[key] for key in sorted(found))

    def _every_wild_way(
        self,
        cards: tuple[Card, ...],
        requirement: Requirement,
        variant: Variant,
        laid: tuple[GroupShape, ...],
    ) -> dict[tuple[tuple[int, ...], ...], Arrangement]:
        """Every way (by its card codes) to complete a going down begun with ``laid``:
        every way of every split with every giving of its jokers that reads right, and
        every way that holds a run of :func:`lone_runs` (that run laid, the rest asked
        again)."""
        plain = plain_variant(variant)
        judge = _Judge(self.plain, requirement, variant, laid, len(cards), None, 0)
        found: dict[tuple[tuple[int, ...], ...], Arrangement] = {}
        for hand, pool in splits(cards, variant):
            ways = (
                self._every_way(hand, requirement, plain, laid)
                if laid
                else self.plain.arrangements(hand, requirement, plain)
            )
            for way in ways:
                for given in givings(way, pool, variant):
                    canonical = judge.canonical(given)
                    if canonical is not None:
                        found[_way_codes(canonical)] = canonical
        for group, shape in lone_runs(cards, variant):
            rest = _without(cards, group)
            for way in self._every_wild_way(rest, requirement, variant, (*laid, shape)).values():
                whole = _in_order((group, *way), variant)
                found[_way_codes(whole)] = whole
        return found

    def possible_groups(self, cards: Iterable[Card], variant: Variant) -> Arrangement:
        """``solver.possible_groups`` under wild ranks: every group of every split, with
        every giving of its jokers that the wild variant reads as valid, in canonical form
        and order."""
        cards = tuple(cards)
        plain = plain_variant(variant)
        if not holds_wild_cards(cards, variant):
            return self.plain.possible_groups(cards, plain)
        key = tally_of(cards)
        memo = rules_of(variant).memos.of(_GROUPS)
        known = memo.get(key)
        if known is None:
            known = memo[key] = self._possible_groups(cards, variant, plain)
        return known

    def _possible_groups(
        self, cards: tuple[Card, ...], variant: Variant, plain: Variant
    ) -> Arrangement:
        found: dict[tuple[Card, ...], tuple[object, ...]] = {}
        seen: set[tuple[tuple[Card, ...], tuple[Card, ...]]] = set()
        read: set[tuple[Card, ...]] = set()  # the groups given already read
        for hand, pool in splits(cards, variant):
            jokers = tuple(pool)
            for group in self.plain.possible_groups(hand, plain):
                if (group, jokers) in seen:
                    continue  # the same group given the same cards: asked in another split
                seen.add((group, jokers))
                for (given,) in givings((group,), pool, variant):
                    if given in read:
                        continue  # another group of the searches given the same cards
                    read.add(given)
                    form = canonical_form_of(check_group(given, variant), variant)
                    canonical = form[1]
                    if canonical in found:
                        continue
                    # read again in canonical form, as check_going_down reads an answer
                    found[canonical] = (
                        form[0]
                        if canonical == given
                        else canonical_form_of(check_group(canonical, variant), variant)[0]
                    )
        for group, shape in lone_runs(cards, variant):  # which no split offers
            if group not in found:
                found[group] = canonical_form_of(shape, variant)[0]
        return tuple(sorted(found, key=found.__getitem__))

    def possible_shapes(self, cards: Iterable[Card], variant: Variant) -> tuple[GroupShape, ...]:
        """``solver.possible_shapes`` under wild ranks."""
        return tuple(check_group(group, variant) for group in self.possible_groups(cards, variant))

    def startable_groups(
        self,
        cards: Iterable[Card],
        requirement: Requirement,
        variant: Variant,
        laid: Sequence[GroupShape],
        leaves: Leaves,
    ) -> dict[GroupShape, bool]:
        """``solver.startable_groups`` under wild ranks, by its definition: each group of
        the hand asked of :meth:`complete` with the rest of the hand."""
        cards = tuple(cards)
        key = (tally_of(cards), requirement, tuple(laid), leaves)
        memo = rules_of(variant).memos.of(_STARTABLE)
        known = memo.get(key)
        if known is None:
            known = memo[key] = self._startable(cards, requirement, variant, tuple(laid), leaves)
        return known

    def _startable(
        self,
        cards: tuple[Card, ...],
        requirement: Requirement,
        variant: Variant,
        laid: tuple[GroupShape, ...],
        leaves: Leaves,
    ) -> dict[GroupShape, bool]:
        answers: dict[GroupShape, bool] = {}
        limit = variant.jokers.going_down_per_group
        apart = variant.going_down.same_suit_runs is not SameSuitRuns.ALLOWED
        if limit is not None and any(shape.jokers > limit for shape in laid):
            return answers
        if apart and not self.plain.runs_apart(laid, variant):
            return answers
        for shape in self.possible_shapes(cards, variant):
            if limit is not None and shape.jokers > limit:
                continue
            together = (*laid, shape)
            if apart and not self.plain.runs_apart(together, variant):
                continue
            left = self.plain.remaining(together, requirement, variant)
            if not left or None in left:
                continue
            rest = list(cards)
            for card in shape.cards:
                rest.remove(card)
            if self.complete(rest, requirement, variant, together) is None:
                continue
            answers[shape] = (
                leaves is None
                or self.complete(rest, requirement, variant, together, leaves) is not None
            )
        return answers


_LONE_RUNS: MemoKind[bytes, tuple[tuple[tuple[Card, ...], GroupShape], ...]] = MemoKind(
    "runs of wild cards with one standing as itself", 1 << 10
)


def lone_runs(
    cards: Iterable[Card], variant: Variant
) -> tuple[tuple[tuple[Card, ...], GroupShape], ...]:
    """The groups the searches never offer in any split (see the module notes), each with
    its shape, in canonical form and order: the runs of wild cards and jokers only in
    which one card stands as itself, whose cards with that card natural and the others
    jokers the variant without wild ranks reads as a set (one natural card and jokers).
    There the wild variant reads no set of them only because two of its wild cards of one
    rank are of one suit, so only where sets laid hold distinct suits; () elsewhere."""
    if not variant.melds.distinct_suits_when_laid:
        return ()
    pool = sort_cards(card for card in cards if variant.jokers.is_wild(card))
    naturals = [card for card in pool if card.rank is not None]
    if not naturals or len(pool) < 3:
        return ()
    key = tally_of(pool)
    memo = rules_of(variant).memos.of(_LONE_RUNS)
    known = memo.get(key)
    if known is None:
        known = memo[key] = _lone_runs(pool, naturals[0], variant)
    return known


def _lone_runs(
    pool: Sequence[Card], natural: Card, variant: Variant
) -> tuple[tuple[tuple[Card, ...], GroupShape], ...]:
    plain = plain_variant(variant)
    found: dict[tuple[Card, ...], GroupShape] = {}
    for size in range(3, min(4, len(pool)) + 1):  # a set of distinct suits holds 4 at most
        try:
            check_group((natural, *[JOKER] * (size - 1)), plain, kind=MeldKind.SET)
        except RummyError:
            continue  # one natural card and jokers make no set of this size
        for cards in set(itertools.combinations(pool, size)):
            for order in set(itertools.permutations(cards)):
                try:
                    shape = check_group(order, variant)
                except RummyError:
                    continue
                if shape.kind is MeldKind.RUN and shape.naturals == 1:
                    canonical = _canonical_cards(order, variant)
                    found[canonical] = check_group(canonical, variant)
    return tuple(sorted(found.items(), key=lambda item: canonical_form_of(item[1], variant)[0]))


def _without(cards: Sequence[Card], group: Sequence[Card]) -> tuple[Card, ...]:
    """``cards`` less the cards of ``group`` (which they hold)."""
    rest = list(cards)
    for card in group:
        rest.remove(card)
    return tuple(rest)


def _in_order(way: Arrangement, variant: Variant) -> Arrangement:
    """The groups of ``way`` (each in canonical form) in canonical order."""
    forms = (canonical_form_of(check_group(group, variant), variant) for group in way)
    return tuple(cards for _, cards in sorted(forms, key=_first))


def _way_codes(way: Arrangement) -> tuple[tuple[int, ...], ...]:
    return tuple(map(_codes, way))


def _canonical_cards(group: tuple[Card, ...], variant: Variant) -> tuple[Card, ...]:
    """The cards of ``group`` in canonical form (as read in the order given); the way
    given is read again in that form, as ``check_going_down`` reads an answer."""
    return canonical_form_of(check_group(group, variant), variant)[1]


def canonical_form_of(
    shape: Shape, variant: Variant
) -> tuple[tuple[object, ...], tuple[Card, ...]]:
    """``canonical_form`` of ``shape`` under ``variant``: under wild ranks a set whose cards
    are all wild begins with a card of its rank, so that its cards read again as that set
    (the first of them that reads as a set fixes the rank: ``2C 3D 3H 2H``, deuces and
    threes wild, is a set of deuces, ``3D 2C 2H 3H`` a set of threes)."""
    key, cards = canonical_form(shape)
    if shape.kind is not MeldKind.SET or not variant.jokers.wild_ranks:
        return key, cards
    held = [card for card in cards if card.rank is not None]
    if not held or held[0].rank is shape.rank or not all(map(variant.jokers.is_wild, held)):
        return key, cards
    first = next(i for i, card in enumerate(cards) if card.rank is shape.rank)
    cards = (cards[first], *cards[:first], *cards[first + 1 :])
    return (*key[:2], _codes(cards)), cards


def _codes(group: tuple[Card, ...]) -> tuple[int, ...]:
    return tuple(map(card_code, group))


def _first(pair: tuple[tuple[object, ...], tuple[Card, ...]]) -> tuple[object, ...]:
    return pair[0]


@attrs.frozen
class _Judge:
    """Reads a way given its cards as the wild variant reads it: valid groups that, with
    the groups ``laid``, meet ``requirement``, leave a number of cards ``leaves`` accepts
    and hold at least ``jokers`` of the hand's own jokers."""

    plain: PlainSolver
    requirement: Requirement
    variant: Variant
    laid: tuple[GroupShape, ...]
    size: int
    leaves: Leaves
    jokers: int

    def canonical(self, way: Arrangement) -> Arrangement | None:
        """``way`` in canonical form where it reads right, else None."""
        try:
            canonical = [_canonical_cards(group, self.variant) for group in way]
            shapes = tuple(check_group(group, self.variant) for group in canonical)
            self.plain.check_shapes((*self.laid, *shapes), self.requirement, self.variant)
        except RummyError:
            return None
        if self.leaves is not None and not self.leaves(self.size - sum(map(len, way))):
            return None
        if self.jokers and sum(group.count(JOKER) for group in way) < self.jokers:
            return None
        forms = (canonical_form_of(shape, self.variant) for shape in shapes)
        return tuple(cards for _, cards in sorted(forms, key=_first))

    def first(self, ways: Iterable[Arrangement], pool: Sequence[Card]) -> Arrangement | None:
        """The first of ``ways`` (of the searches) that reads right with some giving of its
        jokers, in canonical form; None where none does."""
        for way in ways:
            for given in givings(way, pool, self.variant):
                found = self.canonical(given)
                if found is not None:
                    return found
        return None
