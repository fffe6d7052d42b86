"""Candidate groups: every valid group a hand can form
(:func:`~shanghai_rummy.solver.possible_groups`), the sets of one rank and the runs of one
suit (remembered by what they depend on), and the groups a requirement's walk may choose
from, each as a :class:`Candidate`. Over the card counts and compiled rules of
:mod:`._variant_rules`. Nothing here is public.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from itertools import chain, combinations, product
from operator import attrgetter
from types import MappingProxyType

from ..cards import JOKER, Card, Rank
from ..contracts import Opening, Requirement
from ..melds import MeldKind
from ._card_counts import ACE, CARD_AT, JOKER_CODE, NO_LIMIT, RANK_OF_POSITION
from ._memo import MemoKind
from ._variant_rules import Arrangement, Entries, VariantRules, bit_positions

_ANY_SIZE = range(64)
_JOKER_CODES = [(JOKER_CODE,) * used for used in range(64)]  # a group's jokers, keyed
_JOKERS = [(JOKER,) * used for used in range(64)]
# by suit, the code and the card at each run position
_RUN_CODES = [[suit * 16 + rank for rank in RANK_OF_POSITION] for suit in range(4)]
_RUN_CARDS = [[CARD_AT[code] for code in codes] for codes in _RUN_CODES]


class Candidate:
    """A group some of the hand can form, read from its canonical key (flattened: see
    :func:`_every_set`, :func:`_every_run`) for the enumeration of every way."""

    __slots__ = (
        "cards",
        "group",
        "jokers",
        "key",
        "kind",
        "moved",
        "need",
        "packed",
        "points",
        "reading",
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
        span_points: Mapping[tuple[int, int], int],
        needs: Needs | None = None,
        read: tuple[Need, int] | None = None,
        jokers: int = 0,
        smaller: int = 0,
    ) -> None:
        """``needs``: the needs of the natural cards of groups read before (see
        :data:`Needs`), to read this one's from and to add it to. ``read``: where the maker
        of a contract's group (no points) knows them, its need and packed need, with its
        ``jokers`` and which groups one card smaller are valid (``smaller``, see
        ``reading``)."""
        self.key = key
        self.cards = cards
        self.moved: list[Candidate | None] | None = None  # a set moved to each rank, by rank
        self.group = group = key[0]  # 0 for a set, 1 for a run
        self.size = size = len(cards)
        if group == 0:
            self.kind = _SET
            self.suit = self.start = -1
        else:
            self.kind = _RUN
            self.suit = key[1]
            self.start = key[2]
        if read is not None:
            self.need, self.packed = read
            self.jokers = jokers
            # what fitting a slot reads of it (see HandGroups.slot_groups in ``_startable``):
            # its size, its jokers, and whether a valid group one card smaller holds as many
            # jokers (bit 0) or one fewer (bit 1)
            self.reading = size << 9 | jokers << 2 | smaller
            self.value = self.points = 0
            return
        self.reading = -1  # its maker did not read that
        if needs is None:
            self.need, self.packed = known = _need_of(key)
            self.jokers = key.count(JOKER_CODE)
        else:  # groups of the same natural cards (with other jokers) share their need
            # the natural cards' codes (no field of the head is a joker's)
            naturals = bytes(key).translate(None, _JOKER_BYTE)[3 if group else 2 :]
            self.jokers = size - len(naturals)
            shared = needs.get(naturals)
            if shared is None:
                shared = needs[naturals] = _need_of(key)
            self.need, self.packed = known = shared
        self.value = (
            0
            if rank_points is NO_POINTS or not any(rank_points)
            else sum(rank_points[index & 15] * count for index, count in known[0])
        )
        if group == 0:
            self.points = rank_points[key[1]] * size
        else:
            self.points = span_points.get((self.start, size), 0)

    @property
    def codes(self) -> tuple[int, ...]:
        """The codes of its cards in order (see :func:`card_code`), jokers as
        ``JOKER_CODE``."""
        return self.key[3:] if self.group else self.key[2:]


Need = tuple[tuple[int, int], ...]
"""What a group needs of each card slot (``Candidate.need``): a code with its copies."""
Needs = dict[bytes, tuple[Need, int]]
"""The need of a group's natural cards (``Candidate.need``) with the same packed
(``Candidate.packed``), by the cards' codes as bytes: groups of the same natural cards and
other jokers share them."""

_SET, _RUN = MeldKind.SET, MeldKind.RUN
_JOKER_BYTE = bytes([JOKER_CODE])
_ONE_COPY = [(code, 1) for code in range(64)]
"""The need of one copy of the card of each code, shared (see ``Candidate.need``)."""
_CARD_BYTE = [1 << (code << 3) for code in range(64)]
"""One copy of the card of each code, packed (see :func:`packed_counts`)."""


def _need_of(key: tuple[int, ...]) -> tuple[Need, int]:
    """What the group of ``key`` needs of each card slot, and the same packed (see
    :func:`packed_counts`)."""
    codes = key[3:] if key[0] else key[2:]
    packed = 0
    if key[0] == 0 or len(codes) > 13:  # a set, or a run that may hold an ace twice
        counts: dict[int, int] = {}
        for code in codes:
            if code != JOKER_CODE:
                counts[code] = counts.get(code, 0) + 1
        for code, count in counts.items():
            packed += _CARD_BYTE[code] * count
        return tuple(counts.items()), packed
    need = []  # a run of 13 cards or fewer: no card twice
    for code in codes:
        if code != JOKER_CODE:
            need.append(_ONE_COPY[code])
            packed += _CARD_BYTE[code]
    return tuple(need), packed


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
        held = _set_copies(counts, rank, room, rules)
        if held is None:
            continue
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
        avail = _run_positions(counts, suit, rules)
        if not avail:
            continue
        one_ace = counts[suit * 16 + ACE] == 1
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
    where ``one_ace``), with at most ``room`` jokers (see :func:`_spans_of_suit`); with
    ``stretch``, only those holding that many natural cards in a row."""
    entries: Entries = []
    for start, length, interval, have, plain, others in _spans_of_suit(
        avail, one_ace, room, rules, sizes, stretch
    ):
        if plain >= 0:
            _add_plain_runs(entries, suit, start, length, interval & ~have, have, plain)
        for jokers_at in others:
            entries.append(_run_entry(suit, start, length, jokers_at))
    return entries


_Span = tuple[int, int, int, int, int, list[int]]
"""The runs over one span (see :func:`_spans_of_suit`): its first position, its length, its
positions as a bitmask, those natural cards may fill, how many of them jokers may stand in
for with the run valid by its span alone (-1: none), and the joker positions of every other
run over it."""


def _spans_of_suit(
    avail: int, one_ace: bool, room: int, rules: VariantRules, sizes: range, stretch: int
) -> list[_Span]:
    """The runs of a suit that holds the run positions ``avail`` (one copy of the ace where
    ``one_ace``), with at most ``room`` jokers, of a length in ``sizes``, span by span (first
    position, then length, ascending): for each span short of few enough cards, the natural
    cards it holds with any of them left to jokers; with ``stretch``, only those holding that
    many natural cards in a row."""
    aces = rules.ace_positions
    apart = not rules.variant.jokers.side_by_side_in_runs  # no two jokers next to each other
    spans: list[_Span] = []
    for start, pairs in rules.spans_by_start:
        for length, interval in pairs:
            have = avail & interval
            if length >= 14 and one_ace and have & aces == aces:
                have &= ~(1 << (start + length - 1))  # one ace: at the low end
            count = have.bit_count()
            forced = length - count
            if forced > room:
                break  # longer spans miss even more
            most = min(room, rules.most_jokers[length])
            if forced > most or not have or length not in sizes:
                continue
            swaps = min(most - forced, count)  # natural cards jokers may stand in for
            # up to this many of them, the run keeps three natural cards or more, and such a
            # run meets every rule but these by its span alone
            plain = -1 if apart or stretch or length >= 14 else max(-1, min(swaps, count - 3))
            others = (
                []
                if plain == swaps
                else _other_runs(
                    interval, have, length, range(plain + 1, swaps + 1), one_ace, rules, stretch
                )
            )
            if plain >= 0 or others:
                spans.append((start, length, interval, have, plain, others))
    return spans


def _other_runs(
    interval: int,
    have: int,
    length: int,
    swaps: range,
    one_ace: bool,
    rules: VariantRules,
    stretch: int,
) -> list[int]:
    """The joker positions of each run over the positions ``interval`` (``length`` of them)
    whose natural cards are those of ``have`` but a number in ``swaps`` of them, that meets
    every rule (``one_ace``, ``stretch``: see :func:`_spans_of_suit`)."""
    aces = rules.ace_positions
    apart = not rules.variant.jokers.side_by_side_in_runs
    both_ends = length >= 14 and one_ace  # the only ace may stand at either end
    found = []
    held = bit_positions(have)
    for picked in chain.from_iterable(combinations(held, each) for each in swaps):
        natural = have & ~sum([1 << position for position in picked])
        if not natural or (stretch and not _in_a_row(natural, stretch)):
            continue
        one_rank = natural & (natural - 1) == 0 or natural == aces
        if one_rank and rules.set_reading(length, natural.bit_count()):
            continue  # one rank and jokers: it reads as a set
        jokers_at = interval & ~natural
        if not (apart and jokers_at & jokers_at >> 1):
            found.append(jokers_at)
        if both_ends and natural & aces:
            moved = jokers_at ^ aces
            if not (apart and moved & moved >> 1):
                found.append(moved)
    return found


def _add_plain_runs(
    entries: Entries, suit: int, start: int, length: int, missing: int, have: int, most: int
) -> None:
    """Add to ``entries`` each run of ``suit`` over ``length`` positions from ``start``
    with jokers at the positions ``missing`` and at up to ``most`` of the positions
    ``have`` (fewest first, each number in the order of :func:`itertools.combinations`)."""
    codes, cards = _run_entry_lists(suit, start, length, missing)
    entries.append(((1, suit, start, *codes), tuple(cards)))
    if not most:
        return
    places = [position - start for position in bit_positions(have)]
    for swaps in range(1, most + 1):
        for picked in combinations(places, swaps):
            these_codes, these_cards = codes.copy(), cards.copy()
            for at in picked:
                these_codes[at] = JOKER_CODE
                these_cards[at] = JOKER
            entries.append(((1, suit, start, *these_codes), tuple(these_cards)))


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
    codes, cards = _run_entry_lists(suit, start, length, jokers_at)
    return (1, suit, start, *codes), tuple(cards)


def _run_entry_lists(
    suit: int, start: int, length: int, jokers_at: int
) -> tuple[list[int], list[Card]]:
    """:func:`_run_entry`'s codes and cards, as lists."""
    codes = _RUN_CODES[suit][start : start + length]
    cards = _RUN_CARDS[suit][start : start + length]
    while jokers_at:  # each position of jokers_at, lowest first (see bit_positions)
        low = jokers_at & -jokers_at
        at = low.bit_length() - 1 - start
        codes[at] = JOKER_CODE
        cards[at] = JOKER
        jokers_at ^= low
    return codes, cards


CANDIDATES_OF_ONE_RANK_OR_SUIT: MemoKind[tuple[int, ...], list[Candidate]] = MemoKind(
    "candidates of one rank or suit", 1 << 12
)
"""The sets of one rank and the runs of one suit as :func:`hand_candidates` makes them, by
what they depend on (a hand changes a card at a time)."""


def hand_candidates(counts: list[int], jokers: int, rules: VariantRules) -> list[Candidate]:
    """The groups of :func:`every_group_keyed`, in the same order, as candidates of a
    contract (no points), each with its ``reading``."""
    memo = rules.memos.of(CANDIDATES_OF_ONE_RANK_OR_SUIT)
    groups: list[Candidate] = []
    for rank in range(2, 15):
        held = _set_copies(counts, rank, jokers, rules)
        if held is None:
            continue
        key = (0, rank, *held, jokers)
        part = memo.get(key)
        if part is None:
            part = memo[key] = _rank_candidates(rank, held, jokers, rules)
        groups += part
    for suit in range(4):
        avail = _run_positions(counts, suit, rules)
        if not avail:
            continue
        one_ace = counts[suit * 16 + ACE] == 1
        key = (1, suit, avail, one_ace, jokers)
        part = memo.get(key)
        if part is None:
            part = memo[key] = _suit_candidates(suit, avail, one_ace, jokers, rules)
        groups += part
    return groups


def _rank_candidates(rank: int, held: list[int], room: int, rules: VariantRules) -> list[Candidate]:
    """The sets of ``rank`` (see :func:`sets_of_rank`, of any size) as candidates of a
    contract, in canonical order."""
    entries = sets_of_rank(rank, held, room, rules, _ANY_SIZE)
    entries.sort()
    keys = {key for key, _ in entries}
    needs: dict[tuple[int, ...], tuple[Need, int]] = {}
    made = []
    for key, cards in entries:
        jokers = key.count(JOKER_CODE)
        naturals = key[: len(key) - jokers]  # jokers sort last
        shared = needs.get(naturals)
        if shared is None:
            shared = needs[naturals] = _need_of(key)
        smaller = 0  # the set less one of its distinct cards (see Candidate.reading)
        for index in range(2, len(key)):
            code = key[index]
            if (index == 2 or key[index - 1] != code) and key[:index] + key[index + 1 :] in keys:
                smaller |= 2 if code == JOKER_CODE else 1
        made.append(Candidate(key, cards, NO_POINTS, _NO_SPANS, None, shared, jokers, smaller))
    return made


def _suit_candidates(
    suit: int, avail: int, one_ace: bool, room: int, rules: VariantRules
) -> list[Candidate]:
    """The runs of ``suit`` (see :func:`runs_of_suit`, of any length) as candidates of a
    contract, in canonical order."""
    runs = _SuitRuns(suit)
    spans = _spans_of_suit(avail, one_ace, room, rules, _ANY_SIZE, 0)
    spans.sort(key=_later_first)  # a span's runs one card shorter are made before its own
    for start, length, interval, have, plain, others in spans:
        runs.over(start, length)
        if plain >= 0:
            missing = interval & ~have
            codes, cards = _run_entry_lists(suit, start, length, missing)
            places = [(position - start, 1 << position) for position in bit_positions(have)]
            swaps = chain.from_iterable(combinations(places, each) for each in range(plain + 1))
            runs.add(codes, cards, have, missing.bit_count(), swaps)
        if others:
            codes, cards = _run_entry_lists(suit, start, length, 0)
            places_of = (
                [(position - start, 1 << position) for position in bit_positions(jokers_at)]
                for jokers_at in others
            )
            runs.add(codes, cards, interval, 0, places_of)
    made = runs.made
    made.sort(key=_KEY)
    return made


_Place = tuple[int, int]
"""A place in a run left to a joker: its index among the run's cards, and its position as a
bit."""


class _SuitRuns:
    """The runs of one suit made into candidates span by span (each span's runs one card
    shorter before its own), each with which runs one card shorter are valid (see
    ``Candidate.reading``), read from the runs made before."""

    __slots__ = (
        "first",
        "last",
        "made",
        "needs",
        "seen",
        "shorter",
        "start",
        "suit",
        "this",
    )

    def __init__(self, suit: int) -> None:
        self.suit = suit
        self.made: list[Candidate] = []
        # the natural positions of the runs made so far, by first position and length
        self.seen: dict[tuple[int, int], set[int]] = {}
        self.needs: dict[int, tuple[Need, int]] = {}  # by natural positions
        self.start = self.first = self.last = 0
        self.this: set[int] = set()
        self.shorter: tuple[AbstractSet[int], AbstractSet[int]] = (self.this, self.this)

    def over(self, start: int, length: int) -> None:
        """Make the next runs over ``length`` positions from ``start``."""
        self.start = start
        self.first, self.last = 1 << start, 1 << (start + length - 1)
        seen = self.seen
        self.this = seen[start, length] = set()
        self.shorter = (
            seen.get((start + 1, length - 1), _NONE_SEEN),
            seen.get((start, length - 1), _NONE_SEEN),
        )

    def add(
        self,
        codes: list[int],
        cards: list[Card],
        natural: int,
        jokers: int,
        choices: Iterable[Sequence[_Place]],
    ) -> None:
        """Add the runs of the span with the ``codes`` and ``cards`` (``jokers`` of them,
        ``natural`` the positions of the others) but a joker at each place of a choice."""
        suit, start, made, needs, this = self.suit, self.start, self.made, self.needs, self.this
        first, last = self.first, self.last
        but_first, but_last = ~first, ~last
        less_first, less_last = self.shorter
        for choice in choices:
            these_codes, these_cards, these = codes.copy(), cards.copy(), natural
            for at, bit in choice:
                these_codes[at] = JOKER_CODE
                these_cards[at] = JOKER
                these ^= bit
            shared = needs.get(these)
            if shared is None:
                shared = needs[these] = _run_need(these_codes)
            smaller = 0
            if these & but_first in less_first:
                smaller = 1 if these & first else 2
            if these & but_last in less_last:
                smaller |= 1 if these & last else 2
            this.add(these)
            made.append(
                Candidate(
                    (1, suit, start, *these_codes),
                    tuple(these_cards),
                    NO_POINTS,
                    _NO_SPANS,
                    None,
                    shared,
                    jokers + len(choice),
                    smaller,
                )
            )


_NONE_SEEN: frozenset[int] = frozenset()


def _run_need(codes: list[int]) -> tuple[Need, int]:
    """The need of a run of ``codes`` and the same packed (see ``Candidate.need``)."""
    if len(codes) > 13:  # it may hold an ace twice
        return _need_of((1, 0, 0, *codes))
    naturals = [code for code in codes if code != JOKER_CODE]
    return tuple(map(_ONE_COPY.__getitem__, naturals)), sum(map(_CARD_BYTE.__getitem__, naturals))


def _later_first(span: _Span) -> tuple[int, int]:
    """Spans from the last first position, each first position's shortest first."""
    return -span[0], span[1]


_KEY = attrgetter("key")
_NO_SPANS: Mapping[tuple[int, int], int] = MappingProxyType({})


def _set_copies(counts: list[int], rank: int, jokers: int, rules: VariantRules) -> list[int] | None:
    """The copies of ``rank`` of each suit a set may take from ``counts`` (one at most where
    ``melds.distinct_suits_when_laid`` holds), or None where they and ``jokers`` make no set."""
    held = counts[rank::16]
    if not any(held):
        return None
    if rules.set_distinct_suits:
        held = [1 if count else 0 for count in held]
    if sum(held) + jokers < rules.set_min:
        return None  # too few cards for a set (as sets_of_rank finds)
    return held


def _run_positions(counts: list[int], suit: int, rules: VariantRules) -> int:
    """The run positions the cards of ``suit`` in ``counts`` fill, as a bitmask."""
    base = suit * 16
    avail = 0
    for rank in range(2, 15):
        if counts[base + rank]:
            avail |= rules.rank_positions[rank]
    return avail


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
