"""Listing for :mod:`shanghai_rummy.solver`: every valid group a hand can form
(:func:`~shanghai_rummy.solver.possible_groups`) and every way to meet a requirement
(:func:`~shanghai_rummy.solver.arrangements`), over the card counts and precomputed rules of
:mod:`._variant_rules`. Nothing here is public.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import product
from operator import attrgetter

from ..cards import JOKER, Card, Rank
from ..contracts import Contract, Opening, Requirement
from ..melds import MeldKind
from ..variants import SameSuitRuns
from ._contract_search import solve_contract
from ._memo import MemoKind
from ._variant_rules import (
    _ACE,
    _CARD_AT,
    _JOKER_CODE,
    _NO_LIMIT,
    _RANK_OF_POSITION,
    Arrangement,
    _bits,
    _Entries,
    _Rules,
    count_cards,
    match_slots,
    position_subsets,
    runs_clash,
)

_ANY_SIZE = range(64)
_JOKER_CODES = [(_JOKER_CODE,) * used for used in range(64)]  # a group's jokers, keyed
_JOKERS = [(JOKER,) * used for used in range(64)]
_NO_SWAP = [0]  # no natural card left to a joker
# by suit, the code and the card at each run position
_RUN_CODES = [[suit * 16 + rank for rank in _RANK_OF_POSITION] for suit in range(4)]
_RUN_CARDS = [[_CARD_AT[code] for code in codes] for codes in _RUN_CODES]


class _Candidate:
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
        self.moved: list[_Candidate | None] | None = None  # a set moved to each rank, by rank
        self.group = key[0]  # 0 for a set, 1 for a run
        self.codes = codes = key[2:] if key[0] == 0 else key[3:]
        need: dict[int, int] = {}
        for code in codes:
            if code != _JOKER_CODE:
                need[code] = need.get(code, 0) + 1
        self.need = tuple(need.items())
        # what it needs of each card slot, a byte a slot (see :func:`_packed_counts`)
        self.packed = sum(count << (index << 3) for index, count in self.need)
        self.size = len(codes)
        self.jokers = codes.count(_JOKER_CODE)
        self.value = (
            sum(rank_points[index & 15] * count for index, count in self.need)
            if any(rank_points)
            else 0
        )
        if key[0] == 0:
            self.kind = MeldKind.SET
            self.suit = self.start = -1
            self.points = rank_points[key[1]] * self.size
        else:
            self.kind = MeldKind.RUN
            self.suit, self.start = key[1], key[2]
            self.points = span_points.get((self.start, self.size), 0)


def _packed_counts(counts: list[int]) -> tuple[int, int]:
    """The guard bits and the counts packed into one integer, a byte a card slot whose top
    bit is a guard: taking packed needs (see ``_Candidate.packed``) away from the counts
    clears the guard of exactly the slots they run short of, and never borrows from the next
    byte (a slot's count and needs stay below 128)."""
    guard = int.from_bytes(b"\x80" * len(counts), "little")
    return guard, int.from_bytes(bytes(counts), "little") | guard


_Keyed = dict[tuple[int, ...], tuple[Card, ...]]
"""Groups by canonical key, flattened: ``(0, rank, *codes)`` for a set, ``(1, suit, start,
*codes)`` for a run, ``codes`` the cards' :func:`card_code`; they sort as the nested keys of
:func:`canonical_form` do."""


def every_group(counts: list[int], jokers: int, rules: _Rules) -> Arrangement:
    """Every distinct valid group some of the counted cards can form, in canonical form and
    order (see :mod:`shanghai_rummy.solver`), with no going-down joker limit."""
    return tuple(cards for _, cards in every_group_keyed(counts, jokers, rules))


def every_group_keyed(
    counts: list[int], jokers: int, rules: _Rules
) -> list[tuple[tuple[int, ...], tuple[Card, ...]]]:
    """:func:`every_group` with each group's canonical key (see ``_Keyed``)."""
    keyed: _Keyed = {}
    _every_set(counts, jokers, rules, keyed, _ANY_SIZE, _NO_LIMIT)
    _every_run(counts, jokers, rules, keyed, _ANY_SIZE, _NO_LIMIT)
    return [(key, keyed[key]) for key in sorted(keyed)]


GROUPS_OF_ONE_RANK_OR_SUIT: MemoKind[tuple[object, ...], _Entries] = MemoKind(
    "groups of one rank or suit", 1 << 14
)
"""The sets of one rank and the runs of one suit, by what they depend on (a hand changes a
card at a time)."""


def _every_set(
    counts: list[int], jokers: int, rules: _Rules, keyed: _Keyed, sizes: range, cap: int
) -> None:
    """Add every set of a size in ``sizes`` with at most ``cap`` jokers to ``keyed``; the sets
    of each rank are remembered by what they depend on (a hand changes a card at a time)."""
    room = min(jokers, cap)
    memo = rules.memos.of(GROUPS_OF_ONE_RANK_OR_SUIT)
    for rank in range(2, 15):
        held = counts[rank::16]  # the copies of each suit
        if not any(held):
            continue
        if rules.distinct:
            held = [1 if count else 0 for count in held]
        key = (0, rank, *held, room, sizes)
        entries = memo.get(key)
        if entries is None:
            entries = memo[key] = _sets_of_rank(rank, held, room, rules, sizes)
        keyed.update(entries)


def _sets_of_rank(rank: int, held: list[int], room: int, rules: _Rules, sizes: range) -> _Entries:
    """The sets of ``rank`` from ``held`` copies of each suit and at most ``room`` jokers."""
    set_min, set_big = rules.set_min, rules.set_big
    entries: _Entries = []
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
        if not naturals or naturals > set_big:
            continue
        most = min(room, set_big - naturals, naturals if rules.amn else room)
        fewest = max(0, smallest - naturals)
        if fewest > most:
            continue  # too few cards for a set: nothing to build
        cards = tuple(map(_CARD_AT.__getitem__, picked))
        head = (0, rank, *picked)
        for used in range(fewest, most + 1):
            if naturals + used in sizes:
                entries.append((head + _JOKER_CODES[used], cards + _JOKERS[used]))
    return entries


def _every_run(
    counts: list[int], jokers: int, rules: _Rules, keyed: _Keyed, sizes: range, cap: int
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
                avail |= rules.position_bits[rank]
        if not avail:
            continue
        one_ace = counts[base + _ACE] == 1
        key = (1, suit, avail, one_ace, room, sizes)
        entries = memo.get(key)
        if entries is None:
            entries = memo[key] = _runs_of_suit(suit, avail, one_ace, room, rules, sizes)
        keyed.update(entries)


def _runs_of_suit(
    suit: int, avail: int, one_ace: bool, room: int, rules: _Rules, sizes: range
) -> _Entries:
    """The runs of ``suit``, which holds the run positions ``avail`` (one copy of the ace
    where ``one_ace``), with at most ``room`` jokers: for each span short of few enough
    cards, the natural cards it holds with any of them left to jokers."""
    aces = rules.aces_bits
    entries: _Entries = []
    for start, pairs in rules.spans:
        for length, interval in pairs:
            have = avail & interval
            if length >= 14 and one_ace and have & aces == aces:
                have &= ~(1 << (start + length - 1))  # one ace: at the low end
            forced = length - have.bit_count()
            if forced > room:
                break  # longer spans miss even more
            most = min(room, rules.jm[length])
            if forced > most or not have or length not in sizes:
                continue
            swaps = position_subsets(_bits(have), most - forced) if most > forced else _NO_SWAP
            for swapped in swaps:
                natural = have & ~swapped
                if not natural:
                    continue
                one_rank = natural & (natural - 1) == 0 or natural == aces
                if one_rank and rules.set_reading(length, natural.bit_count()):
                    continue  # one rank and jokers: it reads as a set
                jokers_at = interval & ~natural
                entries.append(_run_entry(suit, start, length, jokers_at))
                if length >= 14 and one_ace and natural & aces:
                    # the only ace may stand at either end of an ace-to-ace run
                    entries.append(_run_entry(suit, start, length, jokers_at ^ aces))
    return entries


def _run_entry(
    suit: int, start: int, length: int, jokers_at: int
) -> tuple[tuple[int, ...], tuple[Card, ...]]:
    """The flattened key and the cards of the run of ``suit`` over ``length`` positions from
    ``start``, with jokers at the positions ``jokers_at``."""
    codes = _RUN_CODES[suit][start : start + length]
    cards = _RUN_CARDS[suit][start : start + length]
    for position in _bits(jokers_at):
        codes[position - start] = _JOKER_CODE
        cards[position - start] = JOKER
    return (1, suit, start, *codes), tuple(cards)


def _candidates(
    counts: list[int], jokers: int, requirement: Requirement, rules: _Rules
) -> list[_Candidate]:
    variant = rules.variant
    per_group = variant.jokers.going_down_per_group
    any_size = range(64)
    kinds: list[tuple[MeldKind, range, int]] = []
    if isinstance(requirement, Opening):
        cap = _NO_LIMIT if per_group is None else per_group
        kinds = [(MeldKind.SET, any_size, cap), (MeldKind.RUN, any_size, cap)]
    else:
        for kind, slots in ((MeldKind.SET, requirement.sets), (MeldKind.RUN, requirement.runs)):
            caps = [variant.jokers.going_down_limit(size) for size in slots]
            cap = max((_NO_LIMIT if c is None else c for c in caps), default=0)
            if not variant.going_down.exact_meld_count:
                cap = _NO_LIMIT if per_group is None else per_group
                kinds.append((kind, any_size, cap))
            elif slots:
                low = min(slots)
                high = max(slots) if variant.going_down.exact_sizes else 63
                kinds.append((kind, range(low, high + 1), cap))
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
    return [_Candidate(key, keyed[key], rank_points, spans) for key in sorted(keyed)]


def _accepts(
    chosen: list[_Candidate], requirement: Requirement, rules: _Rules, points: int
) -> bool:
    """Whether ``chosen`` (whose runs never clash: :func:`every_way` keeps them apart) meets
    ``requirement``."""
    if isinstance(requirement, Opening):
        return points >= requirement.min_points
    for kind, sizes in ((MeldKind.SET, requirement.sets), (MeldKind.RUN, requirement.runs)):
        laid = [i for i, c in enumerate(chosen) if c.kind is kind]
        fits = [[i for i in laid if _slot_takes(size, chosen[i], rules)] for size in sizes]
        if not match_slots(fits, len(chosen)):
            return False
    return True


_KEY = attrgetter("key")

# A contract's walk asks whether the cards its sets leave can still make the contract's
# runs (see ``every_way``) only after this many choices of sets: most walks are over sooner
# than the questions would pay for, and a walk over many sets (dozens to choose from in a
# long hand) is pruned to those that leave the runs possible. A count, not a clock, so that
# every walk is the same from run to run. Measured on random house contracts, 500 to 2,000
# serve alike.
_SETS_BEFORE_RUNS_CHECK = 2000


def _slot_takes(size: int, candidate: _Candidate, rules: _Rules) -> bool:
    """Whether a contract slot of ``size`` may hold ``candidate`` (of the slot's kind): its
    size (``exact_sizes``) and the going-down joker limit."""
    variant = rules.variant
    if candidate.size != size if variant.going_down.exact_sizes else candidate.size < size:
        return False
    limit = variant.jokers.going_down_limit(size)
    return limit is None or candidate.jokers <= limit


def _fits_a_slot(candidate: _Candidate, contract: Contract, rules: _Rules) -> bool:
    """Whether ``candidate`` may be the group of some slot of ``contract``."""
    sizes = contract.sets if candidate.kind is MeldKind.SET else contract.runs
    return any(_slot_takes(size, candidate, rules) for size in sizes)


def every_way(
    counts: list[int],
    jokers: int,
    requirement: Requirement,
    rules: _Rules,
    *,
    first_only: bool = False,
    leaves: Callable[[int], bool] | None = None,
    most_left: int | None = None,
    laid_runs: Sequence[tuple[int, int, int]] = (),
) -> list[list[_Candidate]]:
    """Every accepted multiset of candidate groups, each in canonical order (or the first);
    with ``leaves``, only those leaving a number of cards (jokers too) it accepts, and with
    ``most_left`` (which ``leaves`` must imply), the walk gives up on a choice as soon as
    more cards than that are held that no candidate still to be tried takes.

    Pruning rules keep the walk to choices that can still be accepted: a run that clashes
    with a run already chosen (``variant.going_down.same_suit_runs``) is never added, as no
    larger choice would be accepted; a contract's walk chooses no more groups of a kind than
    the contract asks for of it (each needs its own), and no run before every set it asks
    for (the candidates hold the sets first, so no set could follow); and a long walk over a
    contract's sets stops at sets whose cards left cannot make its runs
    (``_SETS_BEFORE_RUNS_CHECK``). Where ``exact_meld_count`` does not hold, every way is a
    way of exactly the contract's groups (its core) and extra groups from the cards it
    leaves: the walk finds the cores, and each core grows by every multiset of extra groups.
    Walking every multiset of groups instead would try, for a hand of twenty cards, millions
    that hold no core. Where the first way is enough and ``most_left`` bounds the cards left
    (going out by hand), the cards a core leaves are covered lowest card first instead (see
    ``cover``), which remembers what it could not cover, and the whole hand is asked so
    first.

    ``laid_runs`` (suit index, start, length): runs laid already this turn, that no run of a
    way may clash with (a going down completed around the groups laid so far)."""
    variant = rules.variant
    candidates = _candidates(counts, jokers, requirement, rules)
    most = [64, 64]  # groups of each kind (set, run)
    sets_needed = 0  # the sets a contract's groups hold, chosen before any run
    target = best = 0  # an opening with values >= 0: the points still within reach
    extras = False  # whether each core grows by extra groups
    if isinstance(requirement, Opening):
        low, high = 1, 64
        if min(requirement.values.by_rank) >= 0:
            target = requirement.min_points
            best = max(requirement.values.by_rank)
    else:
        low = high = requirement.group_count
        most = [len(requirement.sets), len(requirement.runs)]
        sets_needed = most[0]
        extras = not variant.going_down.exact_meld_count
    # where extra groups are allowed the candidates hold groups of any size; a core, and a
    # way of exactly the contract's groups, holds only groups some slot can take
    core = [
        candidate
        for candidate in candidates
        if isinstance(requirement, Opening) or _fits_a_slot(candidate, requirement, rules)
    ]
    # ``core`` is in canonical order, the sets first: where its runs start
    runs_from = len(core)
    if sets_needed:
        runs_from = next((place for place, group in enumerate(core) if group.group), runs_from)
    value = [0] * 16  # by rank, the index of a card's slot & 15
    if target:
        assert isinstance(requirement, Opening)
        value[2:15] = [requirement.values.of_rank(rank) for rank in Rank]
    clashes = variant.going_down.same_suit_runs is not SameSuitRuns.ALLOWED
    out: list[list[_Candidate]] = []
    grown: dict[tuple[tuple[int, ...], ...], list[_Candidate]] = {}  # by the groups' keys
    chosen: list[_Candidate] = []
    left = [jokers, sum(value[index & 15] * count for index, count in enumerate(counts))]
    laid = [0, 0]

    def clash(candidate: _Candidate) -> bool:
        return candidate.kind is MeldKind.RUN and (
            any(
                other.kind is MeldKind.RUN
                and other.suit == candidate.suit
                and runs_clash(other.start, other.size, candidate.start, candidate.size, variant)
                for other in chosen
            )
            or any(
                suit == candidate.suit
                and runs_clash(start, size, candidate.start, candidate.size, variant)
                for suit, start, size in laid_runs
            )
        )

    # the counts again, packed into one integer: whether a candidate's cards are held is
    # then one subtraction (the walk's hottest test)
    guard, packed = _packed_counts(counts)
    free = [packed]

    def fits(candidate: _Candidate) -> bool:
        """Whether ``candidate`` can join the groups chosen as an extra group."""
        return not (
            candidate.jokers > left[0]
            or (free[0] - candidate.packed) & guard != guard
            or (clashes and clash(candidate))
        )

    def take(candidate: _Candidate) -> None:
        for index, need in candidate.need:
            counts[index] -= need
        free[0] -= candidate.packed
        left[0] -= candidate.jokers
        left[1] -= candidate.value
        laid[candidate.group] += 1
        chosen.append(candidate)

    def give(candidate: _Candidate) -> None:
        chosen.pop()
        laid[candidate.group] -= 1
        left[1] += candidate.value
        left[0] += candidate.jokers
        free[0] += candidate.packed
        for index, need in candidate.need:
            counts[index] += need

    held = [index for index, count in enumerate(counts) if count]

    def kept() -> bool:
        """Whether the groups chosen leave a number of cards ``leaves`` accepts."""
        return leaves is None or leaves(left[0] + sum(counts[index] for index in held))

    # the last candidate that takes each card (a joker: -1): of all, by its place in
    # ``candidates``, and of those a core may hold, by its place in ``core``
    last_any: dict[int, int] = {}
    last_core: dict[int, int] = {}
    if most_left is not None:
        for last, placed in ((last_any, candidates), (last_core, core)):
            for place, candidate in enumerate(placed):
                for index, _ in candidate.need:
                    last[index] = place
                if candidate.jokers:
                    last[-1] = place

    def stranded(first: int, last: dict[int, int]) -> bool:
        """Whether more than ``most_left`` cards are held that no candidate from ``first``
        on takes (the walk only goes forward), so every way from here leaves them."""
        assert most_left is not None
        cards = left[0] if last.get(-1, -1) < first else 0
        for index in held:
            if counts[index] and last.get(index, -1) < first:
                cards += counts[index]
        return cards > most_left

    def grow(first: int) -> bool:
        """Record the core chosen with every multiset of extra groups from ``first`` on;
        True once one is recorded, where the first is enough."""
        if most_left is not None and stranded(first, last_any):
            return False
        if kept():
            way = sorted(chosen, key=_KEY)  # the order of ``candidates``
            key = tuple(candidate.key for candidate in way)
            if key not in grown:
                grown[key] = way
                if first_only:
                    return True
        for number in range(first, len(candidates)):
            candidate = candidates[number]
            if fits(candidate):
                take(candidate)
                stop = grow(number)
                give(candidate)
                if stop:
                    return True
        return False

    # going out by hand, where extra groups are allowed: the candidates by their lowest card
    # (``cover`` places the lowest card left, every card below it is placed), then by the
    # natural cards they take (held or not, one test for them all)
    covering = extras and first_only and most_left is not None
    takers: dict[int, dict[int, list[_Candidate]]] = {}
    if covering:
        for candidate in candidates:
            lowest = min(index for index, _ in candidate.need)
            takers.setdefault(lowest, {}).setdefault(candidate.packed, []).append(candidate)
    uncovered: set[tuple[object, ...]] = set()

    def cover(aside: int) -> bool:
        """Whether extra groups can take the cards left but for some (``aside`` of them set
        aside so far) that the way may leave; records the first such way.

        For going out by hand, where one way is enough and at most ``most_left`` cards may
        be left. Growing each choice of the contract's groups by every multiset of extra
        groups tries, where no way exists, multiset after multiset that leaves the same card
        unplaced. This places the lowest card left first (set aside, or in a group whose
        lowest card it is), so each choice differs in what it covers, and remembers the
        cards left that could not be covered (with, where runs of a suit may clash, the runs
        chosen): many choices of the contract's groups leave the same cards. It is first
        asked of the whole hand: where no groups can cover it, no choice is tried."""
        assert most_left is not None
        situation: tuple[object, ...] = (free[0], left[0], aside)
        if clashes:  # the runs chosen decide which runs may still be added
            runs = frozenset(candidate.key for candidate in chosen if candidate.group)
            situation = (*situation, runs)
        if situation in uncovered:
            return False
        lowest = next((index for index in held if counts[index]), None)
        if lowest is None:
            if leaves is None or leaves(aside + left[0]):
                way = sorted(chosen, key=_KEY)  # the order of ``candidates``
                grown[tuple(candidate.key for candidate in way)] = way
                return True
        else:
            if aside < most_left:
                counts[lowest] -= 1
                free[0] -= 1 << (lowest << 3)
                found = cover(aside + 1)
                free[0] += 1 << (lowest << 3)
                counts[lowest] += 1
                if found:
                    return True
            for packed, alike in takers.get(lowest, {}).items():
                if (free[0] - packed) & guard != guard:
                    continue  # the cards these groups take are not all held
                for candidate in alike:
                    if candidate.jokers > left[0] or (clashes and clash(candidate)):
                        continue
                    take(candidate)
                    found = cover(aside)
                    give(candidate)
                    if found:
                        return True
        uncovered.add(situation)
        return False

    # a contract of sets and runs: its runs alone, the answers for the cards left, and the
    # cards and jokers of some runs found (what holds them can make the runs)
    runs_alone = (
        Contract(runs=requirement.runs)
        if isinstance(requirement, Contract) and requirement.sets and requirement.runs
        else None
    )
    runs_possible: dict[tuple[int, int], bool] = {}
    runs_found: list[tuple[int, int]] = []
    steps = [0]  # choices of sets walked

    def runs_left_possible(runs: Contract) -> bool:
        """Whether the cards left (natural and jokers) can make ``runs``: by the runs found
        before where they still fit, else by the suit-by-suit search (:mod:`._contract_search`)."""
        for need, jokers_used in runs_found:
            if jokers_used <= left[0] and (free[0] - need) & guard == guard:
                return True
        situation = (free[0], left[0])
        known = runs_possible.get(situation)
        if known is None:
            shapes = solve_contract(list(counts), left[0], runs, rules)
            known = runs_possible[situation] = shapes is not None
            if shapes is not None and len(runs_found) < 8:
                used, jokers_used = count_cards(card for shape in shapes for card in shape.cards)
                runs_found.append((int.from_bytes(bytes(used), "little"), jokers_used))
        return known

    def walk(first: int, points: int) -> bool:
        """Choose the groups of ``core`` from place ``first`` on (the walk's hot loop: the
        choice is made and undone inline)."""
        if runs_alone is not None and laid[0] and not laid[1]:
            steps[0] += 1
            if steps[0] > _SETS_BEFORE_RUNS_CHECK and not runs_left_possible(runs_alone):
                return False  # sets chosen, and the cards they leave make no runs
        if len(chosen) >= low and _accepts(chosen, requirement, rules, points):
            if covering:
                if cover(0):
                    return True
            elif extras:
                if grow(0):
                    return True
            elif kept():
                out.append(list(chosen))
                if first_only:
                    return True
        if len(chosen) == high:
            return False
        if most_left is not None and not extras and stranded(first, last_core):
            return False  # with extra groups, those may take what no core takes
        if target and points + left[1] + left[0] * best < target:
            return False  # more groups add at most the cards left (a joker: the best card)
        # no run before every set the contract asks for: no set could follow it
        for place in range(first, len(core) if laid[0] >= sets_needed else runs_from):
            candidate = core[place]
            group = candidate.group
            if (
                candidate.jokers > left[0]
                or laid[group] == most[group]
                or (free[0] - candidate.packed) & guard != guard
                or (clashes and clash(candidate))
            ):
                continue
            for index, need in candidate.need:
                counts[index] -= need
            free[0] -= candidate.packed
            left[0] -= candidate.jokers
            left[1] -= candidate.value
            laid[group] += 1
            chosen.append(candidate)
            stop = walk(place, points + candidate.points)
            chosen.pop()
            laid[group] -= 1
            left[1] += candidate.value
            left[0] += candidate.jokers
            free[0] += candidate.packed
            for index, need in candidate.need:
                counts[index] += need
            if stop:
                return True
        return False

    if covering:
        # every way's groups, the contract's and the extra, cover the hand: where no groups
        # can, no choice of the contract's groups need be tried
        if not cover(0):
            return []
        grown.clear()  # the groups that covered it need not hold the contract's
    walk(0, 0)
    return list(grown.values()) if extras else out
