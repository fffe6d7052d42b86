"""The variant's rules precomputed for the solver, and the card tables its searches share.

Cards are counted in a 64-slot list indexed ``suit * 16 + rank`` (suits in
:class:`~shanghai_rummy.Suit` order, ranks 2..14); a run's cards of one suit are a bitmask over
run positions (see :mod:`.melds`). Nothing here is public.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from ..cards import JOKER, Card, Rank, Suit, card_error, cards_error
from ..contracts import CardValues
from ..errors import RummyError
from ..limits import MAX_DECKS
from ..melds import GroupShape, MeldKind, Shape, _span_error, rank_at
from ..variants import Aces, SameSuitRuns, Variant
from ._memo import Memo, Memos

Arrangement = tuple[tuple[Card, ...], ...]
_SetPlan = tuple[tuple[tuple[int, ...], int], ...]  # sets of one rank: (copies per suit, jokers)
_Entries = list[tuple[tuple[int, ...], tuple[Card, ...]]]  # groups by flattened canonical key

_SUITS: tuple[Suit, ...] = tuple(Suit)
_SUIT_INDEX = {suit: index for index, suit in enumerate(_SUITS)}
_ACE = Rank.ACE.value
_NO_LIMIT = 1 << 30
_JOKER_CODE = 99  # after every natural card's index, as jokers sort last
_CARD_AT: list[Card] = [JOKER] * 64
for _suit_index, _suit in enumerate(_SUITS):
    for _rank in Rank:
        _CARD_AT[_suit_index * 16 + _rank.value] = Card.of(_rank, _suit)
_RANK_OF_POSITION = [rank_at(position).value for position in range(28)]
_INDEX_OF: dict[Card, int] = {card: i for i, card in enumerate(_CARD_AT) if card.rank is not None}


def _index(card: Card) -> int:
    return _INDEX_OF[card]


# --- the same-suit-runs rule ------------------------------------------------------------------


def _span_ok(start: int, length: int, variant: Variant) -> bool:
    return (
        _span_error(start, length, variant.melds.aces) is None
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
    return _JOKER_CODE if card.rank is None else _index(card)


def canonical_form(shape: Shape) -> tuple[tuple[object, ...], tuple[Card, ...]]:
    if shape.kind is MeldKind.SET:
        assert shape.rank is not None
        cards = tuple(sorted(shape.cards, key=card_code))
        return (0, shape.rank.value, tuple(map(card_code, cards))), cards
    assert shape.suit is not None
    key = (1, _SUIT_INDEX[shape.suit], shape.start, tuple(map(card_code, shape.cards)))
    return key, shape.cards


# --- the search machinery ---------------------------------------------------------------------


class _Rules:
    """The variant's fields the searches read, precomputed."""

    __slots__ = (
        "aces_bits",
        "amn",
        "clash_answers",
        "distinct",
        "imask",
        "jm",
        "limit",
        "memos",
        "position_bits",
        "run_long",
        "run_min",
        "set_big",
        "set_min",
        "span_points_memo",
        "spans",
        "starts",
        "variant",
        "wrap",
    )

    def __init__(self, variant: Variant) -> None:
        melds = variant.melds
        self.variant = variant
        self.wrap = melds.aces is Aces.WRAP
        self.run_min = melds.run_min
        self.run_long = melds.longest_run
        self.set_min = melds.set_min
        # the searches lay groups down: a set as it is laid
        largest = melds.largest_laid_set
        self.set_big = _NO_LIMIT if largest is None else largest
        self.distinct = melds.distinct_suits_when_laid
        self.amn = variant.jokers.at_most_naturals
        positions = range(2, 27) if self.wrap else range(1, 15)
        self.position_bits = [0] * 15
        for position in positions:
            self.position_bits[_RANK_OF_POSITION[position]] |= 1 << position
        self.aces_bits = self.position_bits[_ACE]
        first = range(2, 15) if self.wrap else range(1, 15)
        self.starts: dict[int, tuple[int, ...]] = {
            length: tuple(s for s in first if _span_ok(s, length, variant))
            for length in range(self.run_min, self.run_long + 1)
        }
        self.imask = {
            (start, length): ((1 << length) - 1) << start
            for length, starts in self.starts.items()
            for start in starts
        }
        by_start: dict[int, list[tuple[int, int]]] = {}
        for (start, length), interval in sorted(self.imask.items()):
            by_start.setdefault(start, []).append((length, interval))
        # each first position with its (length, interval) pairs, shortest first
        self.spans = tuple((start, tuple(pairs)) for start, pairs in by_start.items())
        # the most jokers a group of n cards may hold (at least one natural card)
        self.jm = [max(0, n // 2 if self.amn else n - 1) for n in range(64)]
        per_group = variant.jokers.going_down_per_group
        self.limit = _NO_LIMIT if per_group is None else per_group
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
        known = memo.get(values.by_rank)
        if known is None:
            known = {
                (start, length): sum(
                    values.of_rank(rank_at(p)) for p in range(start, start + length)
                )
                for start, length in self.imask
            }
            memo[values.by_rank] = known
        return known

    def set_reading(self, size: int, naturals: int) -> bool:
        """Whether one natural card (or several of one rank) with jokers reads as a set."""
        if not self.set_min <= size <= self.set_big:
            return False
        if self.distinct and naturals > 1:
            return False
        return not (self.amn and size - naturals > naturals)


MOST_COMPILED_VARIANTS = 64
"""The most variants whose compiled rules (and with them every memo) are kept at once."""

_COMPILED: Memo[int, tuple[Variant, _Rules]] = Memo(MOST_COMPILED_VARIANTS)


def rules_of(variant: Variant) -> _Rules:
    """The compiled rules of ``variant``, made once and kept (with their memos) among the
    last :data:`MOST_COMPILED_VARIANTS` variants asked about."""
    cached = _COMPILED.get(id(variant))
    if cached is not None and cached[0] is variant:
        return cached[1]
    rules = _Rules(variant)
    _COMPILED[id(variant)] = (variant, rules)
    return rules


def forget_compiled_rules() -> None:
    """Drop every variant's compiled rules and, with them, every memo of the solver."""
    _COMPILED.clear()


def count_cards(cards: Iterable[Card]) -> tuple[list[int], int]:
    counts = [0] * 64
    jokers = 0
    index_of = _INDEX_OF
    try:
        for card in cards:
            index = index_of.get(card)
            if index is not None:
                counts[index] += 1
            elif card is JOKER:
                jokers += 1
            else:
                raise card_error(card)
    except TypeError:  # not a collection, or an unhashable item in it
        raise cards_error(cards) from None
    if jokers > MOST_JOKERS or max(counts) > MOST_COPIES or sum(counts) + jokers > MOST_CARDS:
        raise too_many_copies()
    return counts, jokers


MOST_COPIES = 2 * MAX_DECKS
"""The most copies of a natural card the solver takes: twice the largest pack's."""
MOST_JOKERS = 63 - 4 * MOST_COPIES
"""The most jokers the solver takes (31): a set of every copy of a rank and every joker
then holds 63 cards, the most a group's packed size holds; far more than
:data:`~shanghai_rummy.limits.MAX_JOKERS`, for bots that ask with jokers for cards to come."""
MOST_CARDS = 255
"""The most cards the solver takes (each count is packed in a byte)."""


def too_many_copies() -> RummyError:
    """The error for cards holding more copies of a card than the solver's packed counts
    hold (far more than any pack)."""
    return RummyError(
        f"more copies of a card than the solver takes: at most {MOST_COPIES} of a natural "
        f"card ({MAX_DECKS} in the largest pack, limits.MAX_DECKS) and {MOST_JOKERS} jokers, "
        f"{MOST_CARDS} cards in all"
    )


def _run_cards(suit_index: int, start: int, length: int, joker_mask: int) -> tuple[Card, ...]:
    base = suit_index * 16
    return tuple(
        JOKER if joker_mask >> position & 1 else _CARD_AT[base + _RANK_OF_POSITION[position]]
        for position in range(start, start + length)
    )


def _run_shape(suit_index: int, start: int, length: int, joker_mask: int) -> GroupShape:
    cards = _run_cards(suit_index, start, length, joker_mask)
    return GroupShape(MeldKind.RUN, cards, suit=_SUITS[suit_index], start=start)


def _set_shape(rank: int, naturals: Sequence[int], jokers: int) -> GroupShape:
    cards = tuple(_CARD_AT[index] for index in sorted(naturals)) + (JOKER,) * jokers
    return GroupShape(MeldKind.SET, cards, rank=Rank(rank))


def position_subsets(positions: Sequence[int], most: int) -> list[int]:
    """Every set of at most ``most`` of ``positions``, as bitmasks, fewest first (the empty
    set first): the held run positions whose natural cards a joker may stand in for."""
    subsets = [0]
    for extra in range(1, min(most, len(positions)) + 1):
        for picked in combinations(positions, extra):
            subsets.append(sum(1 << position for position in picked))
    return subsets


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# --- solving a contract -----------------------------------------------------------------------
