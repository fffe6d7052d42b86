"""The variant's rules precomputed for the solver, and the card tables its searches share.

Cards are counted in a 64-slot list indexed ``suit * 16 + rank`` (suits in
:class:`~shanghai_rummy.Suit` order, ranks 2..14); a run's cards of one suit are a bitmask over
run positions (see :mod:`.melds`). Nothing here is public.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations

from ..cards import JOKER, Card, Rank
from ..contracts import CardValues
from ..melds import GroupShape, MeldKind, Shape, span_error
from ..variants import Aces, SameSuitRuns, Variant
from ._card_counts import (
    ACE,
    CARD_AT,
    INDEX_OF,
    JOKER_CODE,
    NO_LIMIT,
    RANK_OF_POSITION,
    SUIT_INDEX,
    SUITS,
)
from ._memo import Memo, Memos

Arrangement = tuple[tuple[Card, ...], ...]
SetPlan = tuple[tuple[tuple[int, ...], int], ...]  # sets of one rank: (copies per suit, jokers)
Entries = list[tuple[tuple[int, ...], tuple[Card, ...]]]  # groups by flattened canonical key

# --- the same-suit-runs rule ------------------------------------------------------------------


def _span_ok(start: int, length: int, variant: Variant) -> bool:
    return (
        span_error(start, length, variant.melds.aces) is None
        and length <= variant.melds.longest_run
    )


def _joinable(a_start: int, a_len: int, b_start: int, b_len: int, variant: Variant) -> bool:
    if variant.melds.aces is Aces.WRAP:
        touching = (a_start + a_len - b_start) % 13 == 0 or (b_start + b_len - a_start) % 13 == 0
        return touching and a_len + b_len <= variant.melds.longest_run
    if a_start + a_len == b_start:
        return _span_ok(a_start, a_len + b_len, variant)
    if b_start + b_len == a_start:
        return _span_ok(b_start, a_len + b_len, variant)
    return False


def _separated(a_start: int, a_len: int, b_start: int, b_len: int, variant: Variant) -> bool:
    if variant.melds.aces is Aces.WRAP:
        near: set[int] = set()
        for position in range(b_start, b_start + b_len):
            near.update(((position - 3) % 13, (position - 2) % 13, (position - 1) % 13))
        return all((position - 2) % 13 not in near for position in range(a_start, a_start + a_len))
    return a_start + a_len < b_start or b_start + b_len < a_start


def runs_clash(a_start: int, a_len: int, b_start: int, b_len: int, variant: Variant) -> bool:
    """Whether two runs of one suit may not be laid down together."""
    rule = variant.going_down.same_suit_runs
    if rule is SameSuitRuns.NOT_JOINABLE:
        return _joinable(a_start, a_len, b_start, b_len, variant)
    if rule is SameSuitRuns.SEPARATED:
        return not _separated(a_start, a_len, b_start, b_len, variant)
    return False


def match_slots(fits: list[list[int]], groups: int) -> bool:
    """Whether every slot gets its own group (``fits[slot]`` lists the groups that fit)."""
    owner = [-1] * groups

    def place(slot: int, seen: list[bool]) -> bool:
        for group in fits[slot]:
            if not seen[group]:
                seen[group] = True
                if owner[group] < 0 or place(owner[group], seen):
                    owner[group] = slot
                    return True
        return False

    return all(place(slot, [False] * groups) for slot in range(len(fits)))


# --- canonical form ---------------------------------------------------------------------------


def card_code(card: Card) -> int:
    return JOKER_CODE if card.rank is None else INDEX_OF[card]


def canonical_form(shape: Shape) -> tuple[tuple[object, ...], tuple[Card, ...]]:
    if shape.kind is MeldKind.SET:
        assert shape.rank is not None
        cards = tuple(sorted(shape.cards, key=card_code))
        return (0, shape.rank.value, tuple(map(card_code, cards))), cards
    assert shape.suit is not None
    key = (1, SUIT_INDEX[shape.suit], shape.start, tuple(map(card_code, shape.cards)))
    return key, shape.cards


# --- the search machinery ---------------------------------------------------------------------


class VariantRules:
    """The variant's fields the searches read, precomputed."""

    __slots__ = (
        "ace_positions",
        "aces_wrap",
        "at_most_naturals",
        "clash_answers",
        "exact_sizes",
        "largest_set",
        "longest_run",
        "memos",
        "min_naturals",
        "most_jokers",
        "per_group_limit",
        "rank_positions",
        "run_min",
        "run_starts",
        "set_distinct_suits",
        "set_min",
        "slot_caps",
        "span_mask",
        "span_points_memo",
        "spans_by_start",
        "variant",
    )

    def __init__(self, variant: Variant) -> None:
        melds = variant.melds
        self.variant = variant
        self.aces_wrap = melds.aces is Aces.WRAP
        self.run_min = melds.run_min
        self.longest_run = melds.longest_run
        self.set_min = melds.set_min
        # the searches lay groups down: a set as it is laid
        largest = melds.largest_laid_set
        self.largest_set = NO_LIMIT if largest is None else largest
        self.set_distinct_suits = melds.distinct_suits_when_laid
        self.at_most_naturals = variant.jokers.at_most_naturals
        positions = range(2, 27) if self.aces_wrap else range(1, 15)
        self.rank_positions = [0] * 15
        for position in positions:
            self.rank_positions[RANK_OF_POSITION[position]] |= 1 << position
        self.ace_positions = self.rank_positions[ACE]
        first = range(2, 15) if self.aces_wrap else range(1, 15)
        self.run_starts: dict[int, tuple[int, ...]] = {
            length: tuple(s for s in first if _span_ok(s, length, variant))
            for length in range(self.run_min, self.longest_run + 1)
        }
        self.span_mask = {
            (start, length): ((1 << length) - 1) << start
            for length, starts in self.run_starts.items()
            for start in starts
        }
        by_start: dict[int, list[tuple[int, int]]] = {}
        for (start, length), interval in sorted(self.span_mask.items()):
            by_start.setdefault(start, []).append((length, interval))
        # each first position with its (length, interval) pairs, shortest first
        self.spans_by_start = tuple((start, tuple(pairs)) for start, pairs in by_start.items())
        # the most jokers a group of n cards may hold (at least one natural card)
        self.min_naturals = variant.jokers.min_naturals
        self.most_jokers = [
            max(0, min(n // 2 if self.at_most_naturals else n, n - self.min_naturals))
            for n in range(64)
        ]
        per_group = variant.jokers.going_down_per_group
        self.per_group_limit = NO_LIMIT if per_group is None else per_group
        # what a contract slot of each size takes (see slot_accepts)
        self.exact_sizes = variant.going_down.exact_sizes
        self.slot_caps = [self._joker_limit(size) for size in range(64)]
        # the answers of the searches, by kind (each declared by the module that reads it)
        self.memos = Memos()
        self.clash_answers: Memo[tuple[int, int, int, int], bool] = Memo(1 << 12)
        self.span_points_memo: Memo[tuple[int, ...], dict[tuple[int, int], int]] = Memo(64)

    def clash(self, a_start: int, a_len: int, b_start: int, b_len: int) -> bool:
        """:func:`runs_clash` under this variant, remembered (few spans exist)."""
        memo = self.clash_answers
        key = (a_start, a_len, b_start, b_len)
        known = memo.get(key)
        if known is None:
            known = memo[key] = runs_clash(a_start, a_len, b_start, b_len, self.variant)
        return known

    def span_points(self, values: CardValues) -> dict[tuple[int, int], int]:
        """The value of a run over each span, jokers counted as the cards they stand for."""
        memo = self.span_points_memo
        key = (*values.by_rank, -1 if values.ace_low is None else values.ace_low)
        known = memo.get(key)
        if known is None:
            known = {
                (start, length): sum(values.at_position(p) for p in range(start, start + length))
                for start, length in self.span_mask
            }
            memo[key] = known
        return known

    def _joker_limit(self, size: int) -> int:
        limit = self.variant.jokers.going_down_limit(size)
        return NO_LIMIT if limit is None else limit

    def slot_joker_cap(self, size: int) -> int:
        """The most jokers the group of a contract slot of ``size`` may hold
        (``variant.jokers.going_down_limit``; :data:`NO_LIMIT` where it sets none)."""
        return self.slot_caps[size] if size < 64 else self._joker_limit(size)

    def slot_sizes(self, size: int) -> range:
        """The sizes of group a contract slot of ``size`` takes: exactly ``size`` where
        ``variant.going_down.exact_sizes`` holds, else ``size`` or more."""
        return range(size, (size if self.exact_sizes else 63) + 1)

    def slot_accepts(self, size: int, cards: int, jokers: int) -> bool:
        """What a contract slot accepts, written once: whether the slot of ``size`` takes a
        group of its kind of ``cards`` cards, ``jokers`` of them jokers (its size, see
        :meth:`slot_sizes`, and its jokers, see :meth:`slot_joker_cap`)."""
        if cards != size if self.exact_sizes else cards < size:
            return False
        return jokers <= self.slot_joker_cap(size)

    def natural_positions(self, held: int, aces: int, start: int, length: int) -> int:
        """The positions of the run over ``length`` positions from ``start`` that natural
        cards of a suit fill, the suit holding the run positions ``held`` and ``aces`` copies
        of its ace: a single ace fills one end of an ace-to-ace run (the low one here)."""
        mask = held & self.span_mask[start, length]
        both = self.ace_positions
        if length >= 14 and mask & both == both and aces < 2:
            mask &= ~(1 << (start + length - 1))
        return mask

    def run_fillings(
        self, have: int, swaps: Iterable[int], length: int
    ) -> Iterator[tuple[int, int]]:
        """For each choice in ``swaps`` of the held positions ``have`` left to jokers, the
        positions natural cards fill and the jokers used, in a run of ``length``; skipped: a
        run of jokers only, and one natural card with jokers that reads as a set."""
        for swapped in swaps:
            natural = have & ~swapped
            used = length - natural.bit_count()
            if used == length or (used + 1 == length and self.set_reading(length, 1)):
                continue
            yield natural, used

    def clashes_with(
        self, placed: Iterable[tuple[int, int, int, int]], suit: int, start: int, length: int
    ) -> bool:
        """Whether a run of ``suit`` over ``length`` positions from ``start`` may not go down
        with one of the runs ``placed`` (suit, start, length, joker positions)."""
        return any(
            other == suit and runs_clash(start, length, first, size, self.variant)
            for other, first, size, _ in placed
        )

    def fewest_naturals(self, size: int, jokers: int, cap: int) -> int:
        """The fewest natural cards a group filling a slot of ``size`` holds, with ``jokers``
        jokers at hand and at most ``cap`` in one group (a longer group needs no fewer: see
        :mod:`._quick_refusals`)."""
        return max(1, size - min(jokers, cap, self.most_jokers[size]))

    def set_reading(self, size: int, naturals: int) -> bool:
        """Whether one natural card (or several of one rank) with jokers reads as a set."""
        if not self.set_min <= size <= self.largest_set:
            return False
        if (self.set_distinct_suits and naturals > 1) or naturals < self.min_naturals:
            return False
        return not (self.at_most_naturals and size - naturals > naturals)


MOST_COMPILED_VARIANTS = 64
"""The most variants whose compiled rules (and with them every memo) are kept at once."""

_COMPILED: Memo[int, tuple[Variant, VariantRules]] = Memo(MOST_COMPILED_VARIANTS)


def rules_of(variant: Variant) -> VariantRules:
    """The compiled rules of ``variant``, made once and kept (with their memos) among the
    last :data:`MOST_COMPILED_VARIANTS` variants asked about."""
    cached = _COMPILED.get(id(variant))
    if cached is not None and cached[0] is variant:
        return cached[1]
    rules = VariantRules(variant)
    _COMPILED[id(variant)] = (variant, rules)
    return rules


def forget_compiled_rules() -> None:
    """Drop every variant's compiled rules and, with them, every memo of the solver."""
    _COMPILED.clear()


def _run_cards(suit_index: int, start: int, length: int, joker_mask: int) -> tuple[Card, ...]:
    base = suit_index * 16
    return tuple(
        JOKER if joker_mask >> position & 1 else CARD_AT[base + RANK_OF_POSITION[position]]
        for position in range(start, start + length)
    )


def run_shape(suit_index: int, start: int, length: int, joker_mask: int) -> GroupShape:
    cards = _run_cards(suit_index, start, length, joker_mask)
    return GroupShape(MeldKind.RUN, cards, suit=SUITS[suit_index], start=start)


def set_shape(rank: int, naturals: Sequence[int], jokers: int) -> GroupShape:
    cards = tuple(CARD_AT[index] for index in sorted(naturals)) + (JOKER,) * jokers
    return GroupShape(MeldKind.SET, cards, rank=Rank(rank))


def position_subsets(positions: Sequence[int], most: int) -> list[int]:
    """Every set of at most ``most`` of ``positions``, as bitmasks, fewest first (the empty
    set first): the held run positions whose natural cards a joker may stand in for."""
    subsets = [0]
    for extra in range(1, min(most, len(positions)) + 1):
        for picked in combinations(positions, extra):
            subsets.append(sum(1 << position for position in picked))
    return subsets


def bit_positions(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# --- solving a contract -----------------------------------------------------------------------
