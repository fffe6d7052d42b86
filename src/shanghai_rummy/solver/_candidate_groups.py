"""Candidate groups: every valid group a hand can form
(:func:`~shanghai_rummy.solver.possible_groups`), the sets of one rank and the runs of one
suit (remembered by what they depend on), and the groups a requirement's walk may choose
from, each as a :class:`Candidate`. Over the card counts and compiled rules of
:mod:`._variant_rules`. Nothing here is public.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

from ..cards import JOKER, Card, Rank
from ..contracts import Opening, Requirement
from ..melds import MeldKind
from ._card_counts import ACE, CARD_AT, JOKER_CODE, NO_LIMIT, RANK_OF_POSITION
from ._memo import MemoKind
from ._variant_rules import Arrangement, Entries, VariantRules, bit_positions, position_subsets

_ANY_SIZE = range(64)
_JOKER_CODES = [(JOKER_CODE,) * used for used in range(64)]  # a group's jokers, keyed
_JOKERS = [(JOKER,) * used for used in range(64)]
_NO_SWAP = [0]  # no natural card left to a joker
# by suit, the code and the card at each run position
_RUN_CODES = [[suit * 16 + rank for rank in RANK_OF_POSITION] for suit in range(4)]
_RUN_CARDS = [[CARD_AT[code] for code in codes] for codes in _RUN_CODES]


class Candidate:
    """A group some of the hand can form, read from its canonical key (flattened: see
    :func:`_every_set`, :func:`_every_run`) for the enumeration of every way."""

    __slots__ = (
        "cards",
        "codes",
        "group",
        "jokers",
        "key",
        "kind",
        "moved",
        "need",
        "packed",
        "points",
        "size",
        "start",
        "suit",
        "value",
    )

    def __init__(
        self,
        key: tuple[int, ...],
        cards: tuple[Card, ...],
        rank_points: Sequence[int],
        span_points: dict[tuple[int, int], int],
    ) -> None:
        self.key = key
        self.cards = cards
        self.moved: list[Candidate | None] | None = None  # a set moved to each rank, by rank
        self.group = group = key[0]  # 0 for a set, 1 for a run
        self.codes = codes = key[3:] if group else key[2:]
        # what it needs of each card slot, a byte a slot (see :func:`packed_counts`)
        packed = 0
        if group == 0 or len(key) > 16:
            need: dict[int, int] = {}
            for code in codes:
                if code != JOKER_CODE:
                    need[code] = need.get(code, 0) + 1
            self.need = needs = tuple(need.items())
            for index, count in needs:
                packed += count << (index << 3)
        else:  # a run of 13 cards or fewer: no card twice
            self.need = needs = tuple([(code, 1) for code in codes if code != JOKER_CODE])
            for index, _ in needs:
                packed += 1 << (index << 3)
        self.packed = packed
        self.size = size = len(codes)
        self.jokers = codes.count(JOKER_CODE)
        self.value = (
            0
            if rank_points is NO_POINTS or not any(rank_points)
            else sum(rank_points[index & 15] * count for index, count in needs)
        )
        if group == 0:
            self.kind = MeldKind.SET
            self.suit = self.start = -1
            self.points = rank_points[key[1]] * size
        else:
            self.kind = MeldKind.RUN
            self.suit = key[1]
            self.start = start = key[2]
            self.points = span_points.get((start, size), 0)


NO_POINTS: Sequence[int] = (0,) * 16
"""The card values by rank of a contract, which counts no points (known at once)."""


_Keyed = dict[tuple[int, ...], tuple[Card, ...]]
"""Groups by canonical key, flattened: ``(0, rank, *codes)`` for a set, ``(1, suit, start,
*codes)`` for a run, ``codes`` the cards' :func:`card_code`; they sort as the nested keys of
:func:`canonical_form` do."""


def every_group(counts: list[int], jokers: int, rules: VariantRules) -> Arrangement:
    """Every distinct valid group some of the counted cards can form, in canonical form and
    order (see :mod:`shanghai_rummy.solver`), with no going-down joker limit."""
    return tuple(cards for _, cards in every_group_keyed(counts, jokers, rules))


def every_group_keyed(
    counts: list[int], jokers: int, rules: VariantRules
) -> list[tuple[tuple[int, ...], tuple[Card, ...]]]:
    """:func:`every_group` with each group's canonical key (see ``_Keyed``)."""
    keyed: _Keyed = {}
    _every_set(counts, jokers, rules, keyed, _ANY_SIZE, NO_LIMIT)
    _every_run(counts, jokers, rules, keyed, _ANY_SIZE, NO_LIMIT)
    return [(key, keyed[key]) for key in sorted(keyed)]


def groups_of_sizes(
    counts: list[int], jokers: int, rules: VariantRules, set_sizes: range, run_sizes: range
) -> _Keyed:
    """The sets of a size in ``set_sizes`` and the runs of a size in ``run_sizes`` some of
    the counted cards can form (an empty range: none of that kind), by flattened canonical
    key (see ``_Keyed``), in no particular order."""
    keyed: _Keyed = {}
    if set_sizes:
        _every_set(counts, jokers, rules, keyed, set_sizes, NO_LIMIT)
    if run_sizes:
        _every_run(counts, jokers, rules, keyed, run_sizes, NO_LIMIT)
    return keyed


GROUPS_OF_ONE_RANK_OR_SUIT: MemoKind[tuple[object, ...], Entries] = MemoKind(
    "groups of one rank or suit", 1 << 14
)
"""The sets of one rank and the runs of one suit, by what they depend on (a hand changes a
card at a time)."""


def _every_set(
    counts: list[int], jokers: int, rules: VariantRules, keyed: _Keyed, sizes: range, cap: int
) -> None:
    """Add every set of a size in ``sizes`` with at most ``cap`` jokers to ``keyed``; the sets
    of each rank are remembered by what they depend on (a hand changes a card at a time)."""
    room = min(jokers, cap)
    memo = rules.memos.of(GROUPS_OF_ONE_RANK_OR_SUIT)
    for rank in range(2, 15):
        held = counts[rank::16]  # the copies of each suit
        if not any(held):
            continue
        if rules.set_distinct_suits:
            held = [1 if count else 0 for count in held]
        if sum(held) + room < rules.set_min:
            continue  # too few cards for a set (as sets_of_rank finds)
        key = (0, rank, *held, room, sizes)
        entries = memo.get(key)
        if entries is None:
            entries = memo[key] = sets_of_rank(rank, held, room, rules, sizes)
        keyed.update(entries)


def sets_of_rank(
    rank: int, held: list[int], room: int, rules: VariantRules, sizes: range
) -> Entries:
    """The sets of ``rank`` from ``held`` copies of each suit and at most ``room`` jokers."""
    set_min, set_big = rules.set_min, rules.largest_set
    entries: Entries = []
    if sum(held) + room < set_min:
        return entries
    smallest = max(set_min, sizes.start)
    # each suit's choices: none of its copies, one, two...
    copies = [
        [(suit * 16 + rank,) * n for n in range(count + 1)] for suit, count in enumerate(held)
    ]
    for a, b, c, d in product(*copies):
        picked = a + b + c + d
        naturals = len(picked)
        if naturals < rules.min_naturals or naturals > set_big:
            continue
        most = min(room, set_big - naturals, naturals if rules.at_most_naturals else room)
        fewest = max(0, smallest - naturals)
        if fewest > most:
            continue  # too few cards for a set: nothing to build
        cards = tuple(map(CARD_AT.__getitem__, picked))
        head = (0, rank, *picked)
        for used in range(fewest, most + 1):
            if naturals + used in sizes:
                entries.append((head + _JOKER_CODES[used], cards + _JOKERS[used]))
    return entries


def every_run_keyed(
    counts: list[int], jokers: int, rules: VariantRules, cap: int, stretch: int
) -> dict[tuple[int, ...], tuple[Card, ...]]:
    """Every run some of the counted cards can form with at most ``cap`` jokers and
    ``stretch`` natural cards in a row, by its flattened canonical key (see ``_Keyed``), in
    no particular order."""
    keyed: _Keyed = {}
    _every_run(counts, jokers, rules, keyed, _ANY_SIZE, cap, stretch)
    return keyed


def _every_run(
    counts: list[int],
    jokers: int,
    rules: VariantRules,
    keyed: _Keyed,
    sizes: range,
    cap: int,
    stretch: int = 0,
) -> None:
    """Add every run of a length in ``sizes`` with at most ``cap`` jokers to ``keyed``; the
    runs of each suit are remembered by what they depend on."""
    room = min(jokers, cap)
    memo = rules.memos.of(GROUPS_OF_ONE_RANK_OR_SUIT)
    for suit in range(4):
        base = suit * 16
        avail = 0
        for rank in range(2, 15):
            if counts[base + rank]:
                avail |= rules.rank_positions[rank]
        if not avail:
            continue
        one_ace = counts[base + ACE] == 1
        key = (1, suit, avail, one_ace, room, sizes, stretch)
        entries = memo.get(key)
        if entries is None:
            entries = memo[key] = runs_of_suit(suit, avail, one_ace, room, rules, sizes, stretch)
        keyed.update(entries)


def runs_of_suit(
    suit: int,
    avail: int,
    one_ace: bool,
    room: int,
    rules: VariantRules,
    sizes: range,
    stretch: int = 0,
) -> Entries:
    """The runs of ``suit``, which holds the run positions ``avail`` (one copy of the ace
    where ``one_ace``), with at most ``room`` jokers: for each span short of few enough
    cards, the natural cards it holds with any of them left to jokers; with ``stretch``,
    only those holding that many natural cards in a row."""
    aces = rules.ace_positions
    apart = not rules.variant.jokers.side_by_side_in_runs  # no two jokers next to each other
    entries: Entries = []
    for start, pairs in rules.spans_by_start:
        for length, interval in pairs:
            have = avail & interval
            if length >= 14 and one_ace and have & aces == aces:
                have &= ~(1 << (start + length - 1))  # one ace: at the low end
            forced = length - have.bit_count()
            if forced > room:
                break  # longer spans miss even more
            most = min(room, rules.most_jokers[length])
            if forced > most or not have or length not in sizes:
                continue
            swaps = (
                position_subsets(bit_positions(have), most - forced) if most > forced else _NO_SWAP
            )
            for swapped in swaps:
                natural = have & ~swapped
                if not natural or (stretch and not _in_a_row(natural, stretch)):
                    continue
                one_rank = natural & (natural - 1) == 0 or natural == aces
                if one_rank and rules.set_reading(length, natural.bit_count()):
                    continue  # one rank and jokers: it reads as a set
                jokers_at = interval & ~natural
                if not (apart and jokers_at & jokers_at >> 1):
                    entries.append(_run_entry(suit, start, length, jokers_at))
                if length >= 14 and one_ace and natural & aces:
                    # the only ace may stand at either end of an ace-to-ace run
                    moved = jokers_at ^ aces
                    if not (apart and moved & moved >> 1):
                        entries.append(_run_entry(suit, start, length, moved))
    return entries


def _in_a_row(positions: int, length: int) -> bool:
    """Whether the bitmask ``positions`` holds ``length`` bits in a row."""
    row = positions
    for shift in range(1, length):
        row &= positions >> shift
    return row != 0


def _run_entry(
    suit: int, start: int, length: int, jokers_at: int
) -> tuple[tuple[int, ...], tuple[Card, ...]]:
    """The flattened key and the cards of the run of ``suit`` over ``length`` positions from
    ``start``, with jokers at the positions ``jokers_at``."""
    codes = _RUN_CODES[suit][start : start + length]
    cards = _RUN_CARDS[suit][start : start + length]
    while jokers_at:  # each position of jokers_at, lowest first (see bit_positions)
        low = jokers_at & -jokers_at
        at = low.bit_length() - 1 - start
        codes[at] = JOKER_CODE
        cards[at] = JOKER
        jokers_at ^= low
    return (1, suit, start, *codes), tuple(cards)


def requirement_candidates(
    counts: list[int], jokers: int, requirement: Requirement, rules: VariantRules
) -> list[Candidate]:
    variant = rules.variant
    per_group = variant.jokers.going_down_per_group
    any_size = range(64)
    kinds: list[tuple[MeldKind, range, int]] = []
    if isinstance(requirement, Opening):
        cap = NO_LIMIT if per_group is None else per_group
        kinds = [(MeldKind.SET, any_size, cap), (MeldKind.RUN, any_size, cap)]
    else:
        for kind, slots in ((MeldKind.SET, requirement.sets), (MeldKind.RUN, requirement.runs)):
            cap = max(map(rules.slot_joker_cap, slots), default=0)
            if not variant.going_down.exact_meld_count:
                cap = NO_LIMIT if per_group is None else per_group
                kinds.append((kind, any_size, cap))
            elif slots:
                low, high = rules.slot_sizes(min(slots)), rules.slot_sizes(max(slots))
                kinds.append((kind, range(low.start, high.stop), cap))
    keyed: _Keyed = {}
    for kind, sizes, cap in kinds:
        maker = _every_set if kind is MeldKind.SET else _every_run
        maker(counts, jokers, rules, keyed, sizes, cap)
    # an opening counts points: a card's by its rank, a run's by its span (a contract: none)
    rank_points = [0] * 16
    spans: dict[tuple[int, int], int] = {}
    if isinstance(requirement, Opening):
        rank_points[2:15] = [requirement.values.of_rank(rank) for rank in Rank]
        spans = rules.span_points(requirement.values)
    return [Candidate(key, keyed[key], rank_points, spans) for key in sorted(keyed)]
