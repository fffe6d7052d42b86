"""The depth-first search behind :mod:`shanghai_rummy.solver` for one way to meet a
contract (:mod:`._general_walk` and :mod:`._alike_slots` list every way), over
the tables of :mod:`._variant_rules`. Nothing here is public.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter

from ..contracts import Contract
from ..melds import GroupShape
from ..variants import SameSuitRuns
from ._card_counts import ACE, NO_LIMIT, RANK_OF_POSITION
from ._memo import MemoKind
from ._quick_refusals import SetCosts
from ._variant_rules import (
    VariantRules,
    bit_positions,
    position_subsets,
    run_shape,
    set_shape,
)

_PlacedRun = tuple[int, int, int, int]  # suit, start, length, joker mask
_RunSpec = tuple[int, int, int]  # size, most jokers, longest length
_Span = tuple[int, int, int, int]  # suit, start, length, positions
# by choice of runs (a code of _RunKinds): the fewest jokers and the runs placed, or None
_SuitTable = list[tuple[int, list[_PlacedRun]] | None]


class _RunKinds:
    """A runs-only contract's runs as kinds (the distinct specs, largest first) and how many
    of each it asks for. A choice of some of them, ``c[k]`` runs of kind ``k``, is coded as
    one number, a digit a kind (digit ``k`` counts up to ``need[k]``), so that the tables of
    :meth:`_ContractSearch.search_runs_by_suit` are lists; with one kind the code is simply
    the number of runs."""

    __slots__ = ("add", "cards", "full", "grown", "kinds", "specs", "supersets")

    def __init__(self, specs: tuple[_RunSpec, ...]) -> None:
        self.specs = specs
        self.kinds = sorted(set(specs), reverse=True)
        need = [specs.count(kind) for kind in self.kinds]
        strides = []
        codes = 1
        for count in need:
            strides.append(codes)
            codes *= count + 1
        self.full = codes - 1
        digits = [
            [code // stride % (count + 1) for stride, count in zip(strides, need, strict=True)]
            for code in range(codes)
        ]
        # the cards each choice holds at least, natural or jokers
        self.cards = [
            sum(digit * size for digit, (size, _, _) in zip(row, self.kinds, strict=True))
            for row in digits
        ]
        # add[a][b]: the choice a and b make together, or -1 where it asks for too many runs
        self.add = [
            [
                a + b if all(x + y <= n for x, y, n in zip(row_a, row_b, need, strict=True)) else -1
                for b, row_b in enumerate(digits)
            ]
            for a, row_a in enumerate(digits)
        ]
        # grown[c][k]: the choice c with one more run of kind k, or -1
        self.grown = [
            [
                code + stride if digit < count else -1
                for digit, stride, count in zip(row, strides, need, strict=True)
            ]
            for code, row in enumerate(digits)
        ]
        # the choices that c grows into by one run or more
        self.supersets = [
            [
                other
                for other, row_other in enumerate(digits)
                if other != code and all(x >= y for x, y in zip(row_other, row, strict=True))
            ]
            for code, row in enumerate(digits)
        ]

    def fitting(self, cards: int) -> list[bool]:
        """Which choices ``cards`` cards (natural or jokers) could hold."""
        return [held <= cards for held in self.cards]

    def can_grow(self, code: int, fits: list[bool]) -> bool:
        """Whether some choice that ``fits`` holds one run more than ``code``."""
        return any(bigger >= 0 and fits[bigger] for bigger in self.grown[code])


RUN_KINDS: MemoKind[tuple[_RunSpec, ...], _RunKinds] = MemoKind("run kinds", 256)
"""A runs contract's run kinds, by its run specs."""
SUIT_RUN_TABLES: MemoKind[tuple[object, ...], tuple[int, _SuitTable | None]] = MemoKind(
    "per-suit tables of runs", 1 << 14
)
"""The finished per-suit tables of runs of :meth:`_ContractSearch._suit_table`, with the
jokers they were made for."""
SUIT_RUN_CANDIDATES: MemoKind[tuple[int, ...], tuple[_Span, ...]] = MemoKind(
    "run candidates of a suit", 1 << 13
)
"""The spans a run of one spec could take in one suit (see
:meth:`_ContractSearch._run_candidates`), by the spec, the jokers, the suit's held positions
and its aces: a hand changes a card at a time, so most suits' spans are asked again."""


SHAPES: MemoKind[tuple[object, ...], GroupShape] = MemoKind("shapes of groups found", 1 << 12)
"""The groups :meth:`_ContractSearch.shapes` gives, by a set's rank, natural cards and jokers
or a run's suit, start, length and joker positions (one tuple is never the other: a set's
second item is a tuple, a run's an int)."""

_MISSING = itemgetter(4)  # of a span in _suit_table
SPAN_RANKS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(RANK_OF_POSITION[p] for p in range(start, start + length))
        for length in range(len(RANK_OF_POSITION) - start + 1)
    )
    for start in range(len(RANK_OF_POSITION))
)
"""The ranks of a run over ``length`` positions from ``start``, in order:
``SPAN_RANKS[start][length]``."""


def _run_kinds(specs: tuple[_RunSpec, ...], rules: VariantRules) -> _RunKinds:
    memo = rules.memos.of(RUN_KINDS)
    kinds = memo.get(specs)
    if kinds is None:
        kinds = memo[specs] = _RunKinds(specs)
    return kinds


class _ContractPlan:
    """What the search reads of one contract under one variant's rules, the same for every
    hand: the run and set specs (largest first) and the figures drawn from them."""

    __slots__ = (
        "distinct_runs",
        "greedy_sets",
        "kinds",
        "limits",
        "per_run",
        "run_specs",
        "runs_apart",
        "set_cards",
        "set_costs",
        "set_nmin",
        "set_specs",
        "spans",
    )

    def __init__(self, rules: VariantRules, contract: Contract) -> None:
        cap = rules.slot_joker_cap
        exact = rules.variant.going_down.exact_sizes
        self.run_specs: list[_RunSpec] = [
            (size, cap(size), size if exact else rules.longest_run)
            for size in sorted(contract.runs, reverse=True)
        ]
        self.distinct_runs = list(dict.fromkeys(self.run_specs))
        self.set_specs = [(size, cap(size)) for size in sorted(contract.sets, reverse=True)]
        self.set_cards = sum(contract.sets)
        self.set_nmin = min(
            (rules.fewest_naturals(size, NO_LIMIT, limit) for size, limit in self.set_specs),
            default=0,
        )
        self.greedy_sets = not rules.set_distinct_suits and len(set(self.set_specs)) == 1
        # the jokers the sets take at least, where greedy_sets (see _sets_possible)
        self.set_costs: SetCosts | None = None
        if self.greedy_sets:
            set_size, limit = self.set_specs[0]
            least = set_size - min(limit, rules.most_jokers[set_size])
            self.set_costs = SetCosts(set_size, least, len(self.set_specs))
        self.per_run = 2 if rules.longest_run >= 14 else 1
        # whether runs of one suit may clash (see _ContractSearch._placed)
        self.runs_apart = rules.variant.going_down.same_suit_runs is not SameSuitRuns.ALLOWED
        self.kinds = _run_kinds(tuple(self.run_specs), rules)
        # by run kind and length, the most jokers one run may hold (for search_runs_by_suit)
        self.limits = [
            [_run_limit(rules, cap, length) for length in range(rules.longest_run + 1)]
            for _, cap, _ in self.kinds.kinds
        ]
        # by length, each first position a run may take with its positions
        self.spans = {
            length: tuple((start, rules.span_mask[start, length]) for start in starts)
            for length, starts in rules.run_starts.items()
        }


def _worth(
    supersets: Sequence[int],
    fits: list[bool],
    best: list[tuple[int, list[tuple[int, int, int]]] | None],
) -> int:
    """The most jokers a suit's runs may still spend and improve a choice of ``best`` that
    grows from the runs chosen (``supersets``, those that ``fits``): NO_LIMIT while one of
    them has no entry yet."""
    most = 0
    for bigger in supersets:
        if fits[bigger]:
            entry = best[bigger]
            if entry is None:
                return NO_LIMIT
            most = max(most, entry[0])
    return most


def _run_limit(rules: VariantRules, cap: int, length: int) -> int:
    """The most jokers one run of a spec with that ``cap`` may hold at that length."""
    most = min(cap, rules.most_jokers[length])
    if most == length - 1 and rules.set_reading(length, 1):
        most -= 1  # one natural card with jokers would read as a set
    return most


CONTRACT_PLANS: MemoKind[int, tuple[Contract, _ContractPlan]] = MemoKind("contract plans", 256)
"""What the search reads of each contract, by the contract's identity."""


def _plan_of(contract: Contract, rules: VariantRules) -> _ContractPlan:
    return rules.memos.built_for(CONTRACT_PLANS, contract, _ContractPlan, rules)


class _ContractSearch:
    """Depth-first search for one way to meet a contract: runs first (few, specific), then
    sets from what is left (:meth:`search_runs`); runs alone suit by suit
    (:meth:`search_runs_by_suit`); or sets first, then runs suit by suit
    (:meth:`search_sets_then_runs`, see :func:`solve_contract`). Groups are exactly their
    contract size, except runs, which may be longer (a longer run can be the only way to
    keep jokers <= natural cards)."""

    def __init__(self, rules: VariantRules, counts: list[int], jokers: int, contract: Contract):
        self.rules = rules
        self.counts = counts
        self.jokers = jokers
        self.rank_count = rank_count = [0] * 15
        self.avail = avail = [0] * 4
        positions = rules.rank_positions
        for index, count in enumerate(counts):
            if count:
                rank = index & 15
                rank_count[rank] += count
                avail[index >> 4] |= positions[rank]
        plan = _plan_of(contract, rules)
        self.run_specs = plan.run_specs
        self.set_specs = plan.set_specs
        self.set_cards = plan.set_cards
        self.set_nmin = plan.set_nmin
        self.greedy_sets = plan.greedy_sets
        self.set_costs = plan.set_costs
        self.per_run = plan.per_run
        self.runs_apart = plan.runs_apart
        self.runs: list[tuple[int, int, int, int]] = []  # suit, start, length, joker mask
        self.limits = plan.limits
        self.plan = plan
        self.sets: list[tuple[int, list[int], int]] = []  # rank, natural indices, jokers
        self.failed: dict[tuple[object, ...], int] = {}  # see search_runs
        self.budget = -1  # the steps search_runs may take before it gives up (-1: no limit)
        # the whole hand, which the spans runs could take are worked out for (spans_of)
        self.whole_avail = tuple(avail)
        self.whole_aces = (counts[ACE], counts[16 + ACE], counts[32 + ACE], counts[48 + ACE])
        self.whole_jokers = jokers
        # by spec, the spans of each suit, as they are asked for
        self.suit_spans: dict[_RunSpec, list[tuple[_Span, ...] | None]] = {}
        self.distinct_runs = plan.distinct_runs
        self.candidates: list[list[_Span]] = []  # by run slot, for search_runs
        if self.set_specs:
            lists = {spec: self._run_candidates(spec) for spec in plan.distinct_runs}
            self.candidates = [lists[spec] for spec in self.run_specs]
        self.kinds = plan.kinds

    def every_run_has_spans(self) -> bool:
        """Whether a run of each of the contract's specs has some span with the whole hand."""
        spans_of = self.spans_of
        return all(any(spans_of(spec, suit) for suit in range(4)) for spec in self.distinct_runs)

    def _natural_mask(self, suit: int, start: int, length: int) -> int:
        aces = self.counts[suit * 16 + ACE]
        return self.rules.natural_positions(self.avail[suit], aces, start, length)

    def _run_candidates(self, spec: _RunSpec) -> list[_Span]:
        """Every (suit, start, length, positions) a run of ``spec`` could take with the
        whole hand."""
        found: list[_Span] = []
        for suit in range(4):
            found.extend(self.spans_of(spec, suit))
        return found

    def spans_of(self, spec: _RunSpec, suit: int) -> tuple[_Span, ...]:
        """:meth:`_run_candidates` in one suit, worked out once asked for."""
        by_suit = self.suit_spans.get(spec)
        if by_suit is None:
            by_suit = self.suit_spans[spec] = [None, None, None, None]
        spans = by_suit[suit]
        if spans is None:
            size, cap, longest = spec
            held = self.whole_avail[suit]
            aces = self.whole_aces[suit] if longest >= 14 else 0
            key = (size, cap, longest, self.whole_jokers, held, aces, suit)
            memo = self.rules.memos.of(SUIT_RUN_CANDIDATES)
            spans = memo.get(key)
            if spans is None:
                spans = memo[key] = tuple(self._suit_candidates(suit, spec, held, aces))
            by_suit[suit] = spans
        return spans

    def _suit_candidates(self, suit: int, spec: _RunSpec, avail: int, aces: int) -> list[_Span]:
        """:meth:`spans_of`, for a suit holding the run positions ``avail`` and ``aces``
        copies of its ace, and the whole hand's jokers."""
        size, cap, longest = spec
        rules = self.rules
        jokers = self.whole_jokers
        by_length = self.plan.spans
        found = []
        present = avail.bit_count()
        for length in range(size, longest + 1):
            if length - present > jokers:
                break  # longer spans miss even more cards
            most = min(jokers, cap, rules.most_jokers[length])
            if length - present > most:
                continue
            least = length - most  # natural cards
            spans = by_length.get(length, ())
            if length < 14:
                found += [
                    (suit, start, length, interval)
                    for start, interval in spans
                    if (avail & interval).bit_count() >= least
                ]
                continue
            for start, interval in spans:
                have = rules.natural_positions(avail, aces, start, length)
                if have.bit_count() >= least:
                    found.append((suit, start, length, interval))
        return found

    def _take_run(self, suit: int, mask: int) -> None:
        base = suit * 16
        counts, rank_count = self.counts, self.rank_count
        while mask:
            low = mask & -mask
            mask ^= low
            rank = RANK_OF_POSITION[low.bit_length() - 1]
            index = base + rank
            counts[index] -= 1
            rank_count[rank] -= 1
            if not counts[index]:
                self.avail[suit] &= ~self.rules.rank_positions[rank]

    def _give_run(self, suit: int, mask: int) -> None:
        base = suit * 16
        counts, rank_count = self.counts, self.rank_count
        positions = self.rules.rank_positions
        held = self.avail[suit]
        while mask:
            low = mask & -mask
            mask ^= low
            rank = RANK_OF_POSITION[low.bit_length() - 1]
            counts[base + rank] += 1
            rank_count[rank] += 1
            held |= positions[rank]
        self.avail[suit] = held

    def _useful(self, suit: int, mask: int, later_runs: int) -> list[int]:
        """Positions of ``mask`` whose natural card a later group might need more than this
        run does (only those are worth replacing by a joker here): a later run of the suit
        may need the copy, or the sets may run short of the rank, counting the cards of it
        that later runs of any suit may take (where sets need distinct suits, short of the
        card itself, which each set takes once at most)."""
        useful = []
        later = self.per_run * later_runs  # the cards of one rank the later runs may take
        for position in bit_positions(mask):
            rank = RANK_OF_POSITION[position]
            left = self.counts[suit * 16 + rank] - 1
            if left < later:
                useful.append(position)
            elif self.set_specs:
                rank_left = self.rank_count[rank] - 1
                if self.rules.set_distinct_suits:  # each set takes one copy of the card at most
                    short = left - later < len(self.set_specs)
                else:
                    short = rank_left - later < self.set_cards
                if short and rank_left + self.per_run * len(self.run_specs) >= self.set_nmin:
                    useful.append(position)
        return useful

    def search_runs(self, slot: int, first: int) -> bool:
        """Place the runs from ``slot`` on (from candidate ``first`` on, where the slot before
        is alike), then the sets. Different runs can leave the same cards (and the same runs
        to clash with), so a search that failed from here is remembered: it fails again from
        the same first candidate or a later one."""
        self.budget -= 1
        if not self.budget:
            raise _OverBudget
        if slot == len(self.run_specs):
            return self._sets_after_runs()
        if slot and self.greedy_sets and self.set_specs and not self._sets_possible():
            return False  # more runs only take cards and jokers the sets would need
        _, cap, _ = spec = self.run_specs[slot]
        if not (slot and self.run_specs[slot - 1] == spec):
            first = 0
        key = (slot, self.jokers, *self.counts, *self._placed())
        failed = self.failed.get(key)
        if failed is not None and failed <= first:
            return False
        if self._runs_from(slot, first, cap, spec):
            return True
        self.failed[key] = first
        return False

    def _sets_after_runs(self) -> bool:
        key = (-1, self.jokers, *self.counts)
        if key in self.failed:
            return False
        if self.search_sets():
            return True
        self.failed[key] = 0
        return False

    def _placed(self) -> tuple[tuple[int, int, int], ...]:
        """The runs placed so far, where later runs may clash with them."""
        if not self.runs_apart:
            return ()
        return tuple(sorted((suit, start, length) for suit, start, length, _ in self.runs))

    def _runs_from(self, slot: int, first: int, cap: int, spec: tuple[int, int, int]) -> bool:
        rules = self.rules
        later_runs = len(self.run_specs) - slot - 1
        candidates = self.candidates[slot]
        avail, most_jokers = self.avail, rules.most_jokers
        placed = self.runs if self.runs_apart else None  # the runs a new one may clash with
        # the last run before sets read exactly by their cheapest jokers: a run whose every
        # filling leaves them short is passed over at once (where no step budget counts
        # the fillings tried)
        cut = not later_runs and self.budget < 0 and self.greedy_sets and bool(self.set_specs)
        for number in range(first, len(candidates)):
            suit, start, length, interval = candidates[number]
            if length >= 14:
                have = self._natural_mask(suit, start, length)
            else:
                have = avail[suit] & interval
            forced = length - have.bit_count()
            most = min(self.jokers, cap, most_jokers[length])
            if forced > most:
                continue
            if placed and rules.clashes_with(placed, suit, start, length):
                continue
            spare = most - forced
            useful = self._useful(suit, have, later_runs) if spare else []
            if cut and self._sets_out_of_reach(suit, have, useful, self.jokers - forced):
                continue
            choices = position_subsets(useful, spare) if spare else [0]
            for natural, used in rules.run_fillings(have, choices, length):
                self._take_run(suit, natural)
                self.jokers -= used
                self.runs.append((suit, start, length, interval & ~natural))
                if self.search_runs(slot + 1, number):
                    return True
                self.runs.pop()
                self.jokers += used
                self._give_run(suit, natural)
        return False

    def search_runs_by_suit(self) -> bool:
        """Only runs. Runs of different suits share nothing but the jokers, so for each suit
        find the fewest jokers that make each choice of the contract's runs in it (one, two,
        ... runs, and where the runs differ, which of them), then share the jokers out.

        Within a suit only the spans are chosen: the jokers a set of spans needs is fixed
        (cards asked for beyond the copies held); which run holds each joker is settled by
        :func:`_assign_jokers` against each run's own limit. Searching run by run instead
        would also choose which natural cards jokers replace, which explodes with many
        jokers."""
        kinds = self.kinds
        full, add = kinds.full, kinds.add
        total = self.jokers
        reach: dict[int, tuple[int, list[_PlacedRun]]] = {0: (0, [])}
        for suit in range(4):
            # enough[c]: the runs c of this suit for at most that many jokers finish the search
            enough = [
                total - reach[full - code][0] if full - code in reach else -1
                for code in range(full + 1)
            ]
            table = self._suit_table(suit, total, enough)
            if table is None:
                continue
            grown: dict[int, tuple[int, list[_PlacedRun]]] = {}
            for made, (used, runs) in reach.items():
                sums = add[made]
                for more, entry in enumerate(table):
                    if entry is None or sums[more] < 0 or used + entry[0] > total:
                        continue
                    code = sums[more]
                    known = grown.get(code)
                    if known is None or known[0] > used + entry[0]:
                        grown[code] = (used + entry[0], runs + entry[1])
            reach = grown
            if full in reach:
                break
        if full not in reach:
            return False
        self.runs = reach[full][1]
        return True

    def _suit_table(self, suit: int, total: int, enough: list[int]) -> _SuitTable | None:
        """For each choice ``c`` of the contract's runs (a code of :class:`_RunKinds`), the
        fewest jokers (at most ``total``) that make those runs of ``suit``, with the runs
        placed, or None where they cannot be made; None when the suit makes no run. The
        search stops early once runs ``c`` for at most ``enough[c]`` jokers are found (the
        other suits make the rest): the table then holds the runs found so far, not always
        the fewest jokers.

        A finished table depends only on the suit's cards (and, after sets, the whole
        hand's positions and aces of the suit, which give its spans), the run specs and the
        jokers allowed, and a hand changes a card at a time (and a bot asks about one hand
        with more or fewer wild cards), so finished tables are remembered. One worked out
        for more jokers answers for fewer: the spans needing more jokers sort last and only
        make choices beyond ``total``, so within it each choice has the same fewest jokers
        and the same runs (the first found for them), and the caller skips those beyond it.

        A remembered table answers only where the search would not stop early: the way
        must not depend on what was asked before. The search meets ``enough[c]`` exactly
        where the fewest jokers for some ``c`` are at most ``enough[c]`` (see
        :func:`_stops_early`), and then it searches again (its table can hold other runs
        than the finished one)."""
        base = suit * 16
        kinds = self.kinds
        key = (
            suit,
            kinds.specs,
            self.whole_avail[suit],
            self.whole_aces[suit],
            *self.counts[base : base + 15],
        )
        memo = self.rules.memos.of(SUIT_RUN_TABLES)
        known = memo.get(key)
        if known is not None and known[0] >= total:
            remembered = known[1]
            if remembered is None or not _stops_early(remembered, enough):
                return remembered
        rules = self.rules
        held = self.avail[suit]
        # each span with the cards it misses (fewest first, below: good tables come early
        # and prune the rest)
        mine = []
        for kind, spec in enumerate(kinds.kinds):
            for _, start, length, interval in self.spans_of(spec, suit):
                if length >= 14:
                    missing = length - self._natural_mask(suit, start, length).bit_count()
                else:
                    missing = length - (held & interval).bit_count()
                mine.append((start, length, interval, kind, missing))
        mine.sort(key=_MISSING)  # stable: spans missing as many stay in order
        table: _SuitTable | None = None
        finished = True
        if mine:
            supply = self.counts[base : base + 15]
            # runs hold at least their sizes in cards, the suit's or jokers: searching for
            # runs that cannot fit would try every span combination in vain
            fits = kinds.fitting(sum(supply) + total)
            best: list[tuple[int, list[tuple[int, int, int]]] | None] = [None] * (kinds.full + 1)
            best[0] = (0, [])
            finished = not self._suit_runs(suit, mine, 0, 0, best, total, [], supply, enough, fits)
            table = []
            for entry in best:
                if entry is None:
                    table.append(None)
                    continue
                spans = entry[1]
                if len(spans) == 1 and spans[0][1] < 14:
                    # one run holds each rank once: its jokers stand for the cards not held
                    start, length, _ = spans[0]
                    placed = [(suit, start, length, rules.span_mask[start, length] & ~held)]
                else:
                    masks = self._assign_jokers(spans, supply)
                    assert masks is not None
                    placed = [
                        (suit, start, length, mask)
                        for (start, length, _), mask in zip(spans, masks, strict=True)
                    ]
                table.append((entry[0], placed))
        if finished:
            memo[key] = (total, table)
        return table

    def _assign_jokers(
        self, runs: list[tuple[int, int, int]], supply: list[int]
    ) -> list[int] | None:
        """Joker masks (one per run, given as start, length and kind) so that each card is
        asked for no more than it is held and every run keeps its joker limit, or None:
        each missing copy of a card goes, by a small backtracking search, to a run through
        that card whose limit has room."""
        demand: dict[int, int] = {}
        for start, length, _ in runs:
            for rank in SPAN_RANKS[start][length]:
                demand[rank] = demand.get(rank, 0) + 1
        units: list[int] = []  # a rank for each copy asked for beyond those held
        for rank, asked in demand.items():
            short = asked - supply[rank]
            if short > 0:
                units += [rank] * short
        limits = self.limits
        room = [limits[kind][length] for _, length, kind in runs]
        if len(units) > sum(room):
            return None
        if not units:
            return [0] * len(runs)
        # by run, the positions of each rank a unit is of
        cover: list[dict[int, int]] = []
        for start, length, _ in runs:
            here = dict.fromkeys(units, 0)
            for rank in SPAN_RANKS[start][length]:
                if rank in here:
                    here[rank] += 1
            cover.append(here)
        holder = [-1] * len(units)

        def place(unit: int) -> bool:
            if unit == len(units):
                return True
            rank = units[unit]
            for run in range(len(runs)):
                if room[run] and cover[run][rank]:
                    room[run] -= 1
                    cover[run][rank] -= 1
                    holder[unit] = run
                    if place(unit + 1):
                        return True
                    room[run] += 1
                    cover[run][rank] += 1
            return False

        if not place(0):
            return None
        masks = []
        for run, (start, length, _) in enumerate(runs):
            mask = 0
            for unit, owner in enumerate(holder):
                if owner == run:
                    rank = units[unit]
                    for p in range(start, start + length):
                        if RANK_OF_POSITION[p] == rank and not mask >> p & 1:
                            mask |= 1 << p
                            break
            masks.append(mask)
        return masks

    def _suit_runs(
        self,
        suit: int,
        mine: list[tuple[int, int, int, int, int]],
        first: int,
        code: int,
        best: list[tuple[int, list[tuple[int, int, int]]] | None],
        total: int,
        chosen: list[tuple[int, int, int, int]],
        supply: list[int],
        enough: list[int],
        fits: list[bool],
    ) -> bool:
        """Fill ``best[c]`` (fewest jokers, spans) for the runs ``c`` of ``suit`` that grow
        from ``chosen`` (the runs ``code``) by spans from number ``first`` on; True as soon
        as some ``best[c]`` meets ``enough[c]`` (the other suits can do the rest), leaving
        the table unfinished. ``mine``: the suit's spans (start, length, positions, kind,
        the cards the suit misses for it), fewest missing first."""
        check_clash = self.runs_apart and bool(chosen)
        clash = self.rules.clash
        limits = self.limits
        kinds = self.kinds
        grown_by = kinds.grown[code]
        supersets = kinds.supersets[code]
        # more runs only add jokers: stop when no choice they could make can still improve
        worth = _worth(supersets, fits, best)
        # whether the runs chosen so far each keep their limit (then the next need not share)
        chosen_fit = all(f <= limits[k][n] for _, n, f, k in chosen)
        # as at this call, and again after each span tried (the cards it takes are given back)
        jokers = self.jokers
        used = total - jokers
        held = self.avail[suit]
        counts, positions, base = self.counts, self.rules.rank_positions, suit * 16
        for number in range(first, len(mine)):
            if used >= worth:
                return False
            start, length, interval, kind, least = mine[number]
            if least > jokers or used + least >= worth:
                # this span and every later one miss at least as many cards (fewer are held
                # now than when they were counted): none fits or improves a choice
                return False
            after = grown_by[kind]
            if after < 0 or not fits[after]:
                continue
            have = self._natural_mask(suit, start, length) if length >= 14 else held & interval
            forced = length - have.bit_count()
            if forced > jokers or used + forced >= worth:
                continue
            if check_clash and _clashes(clash, start, length, chosen):
                continue
            # take the run's natural cards (what the deeper search reads: the suit's counts
            # and run positions held)
            left = held
            taking = have
            while taking:
                low = taking & -taking
                taking ^= low
                rank = RANK_OF_POSITION[low.bit_length() - 1]
                counts[base + rank] -= 1
                if not counts[base + rank]:
                    left &= ~positions[rank]
            self.avail[suit] = left
            self.jokers = jokers - forced
            chosen.append((start, length, forced, kind))
            done = False
            spans = None
            fitting = chosen_fit and forced <= limits[kind][length]
            if not fitting and len(chosen) > 1:
                spans = [(b, n, k) for b, n, _, k in chosen]
                fitting = self._assign_jokers(spans, supply) is not None
            if fitting:
                spent = used + forced
                known = best[after]
                if known is None or known[0] > spent:
                    best[after] = (spent, spans or [(b, n, k) for b, n, _, k in chosen])
                done = spent <= enough[after] or (
                    kinds.can_grow(after, fits)
                    and self._suit_runs(
                        suit, mine, number, after, best, total, chosen, supply, enough, fits
                    )
                )
                worth = _worth(supersets, fits, best)
            chosen.pop()
            self.jokers = jokers
            self.avail[suit] = held
            taking = have
            while taking:
                low = taking & -taking
                taking ^= low
                counts[base + RANK_OF_POSITION[low.bit_length() - 1]] += 1
            if done:
                return True
        return False

    def _sets_possible(self) -> bool:
        """Exact for identical set slots without distinct suits: the cheapest jokers for
        the k-th set of a rank grow with k, so the m cheapest over all ranks decide."""
        costs = self.set_costs
        assert costs is not None
        return costs.jokers(bytes(self.rank_count[2:])) <= self.jokers

    def _sets_out_of_reach(self, suit: int, have: int, useful: list[int], jokers: int) -> bool:
        """Whether the sets (see :meth:`_sets_possible`) fail after every filling of a run
        of ``suit`` holding the natural cards ``have``, ``useful`` the positions of them a
        filling may leave to jokers: each filling takes at least the others and leaves at
        most ``jokers``, and fewer cards never cost the sets fewer jokers."""
        costs = self.set_costs
        assert costs is not None
        left = self.rank_count[2:]
        taken = have
        for position in useful:
            taken &= ~(1 << position)
        while taken:
            low = taken & -taken
            taken ^= low
            left[RANK_OF_POSITION[low.bit_length() - 1] - 2] -= 1
        return costs.jokers(bytes(left)) > jokers

    def search_sets(self) -> bool:
        if not self.set_specs:
            return True
        if self.greedy_sets and not self._sets_possible():
            return False
        return self._place_sets(0, 2)

    def _place_sets(self, slot: int, first: int) -> bool:
        if slot == len(self.set_specs):
            return True
        size, cap = spec = self.set_specs[slot]
        if not (slot and self.set_specs[slot - 1] == spec):
            first = 2
        least = self.rules.fewest_naturals(size, self.jokers, cap)
        counts = self.counts
        for rank in range(first, 15):
            if self.rank_count[rank] < least:
                continue
            suits = sorted(range(4), key=lambda s: -counts[s * 16 + rank])
            if self.rules.set_distinct_suits:
                available = sum(1 for s in suits if counts[s * 16 + rank])
            else:
                available = self.rank_count[rank]
            for naturals in range(min(available, size), least - 1, -1):
                picked: list[int] = []
                if self.rules.set_distinct_suits:
                    picked = [s * 16 + rank for s in suits[:naturals]]
                else:
                    for s in suits:
                        take = min(counts[s * 16 + rank], naturals - len(picked))
                        picked.extend([s * 16 + rank] * take)
                for index in picked:
                    counts[index] -= 1
                self.rank_count[rank] -= naturals
                jokers = size - naturals
                self.jokers -= jokers
                self.sets.append((rank, picked, jokers))
                if self._place_sets(slot + 1, rank):
                    return True
                self.sets.pop()
                self.jokers += jokers
                self.rank_count[rank] += naturals
                for index in picked:
                    counts[index] += 1
        return False

    def search_sets_then_runs(self, slot: int, first: int) -> bool:
        """Place the sets from ``slot`` on (from rank ``first`` on, where the slot before is
        alike), each with every choice of the natural cards it takes (of those that leave
        the runs the same, one: see :meth:`_every_pick`), then the runs suit by suit from
        what is left (remembered by what is left). For contracts of sets and
        several runs, which the run-by-run search would otherwise search with every choice
        of the natural cards jokers stand in for. What failed is remembered by the cards and
        jokers left (sets placed in another order leave the same), and a search gives up
        where the runs cannot be made even with every card and joker left: more sets only
        take some away."""
        key = (-2 - slot, self.jokers, *self.counts)
        failed = self.failed.get(key)
        if failed is not None and failed <= first:
            return False
        self.runs = []
        if not self.search_runs_by_suit():
            self.failed[key] = 0
            return False
        if slot == len(self.set_specs) or self._sets_then_runs_from(slot, first):
            return True
        self.failed[key] = first
        return False

    def _sets_then_runs_from(self, slot: int, first: int) -> bool:
        size, _ = self.set_specs[slot]
        counts, avail, bits = self.counts, self.avail, self.rules.rank_positions
        for rank, picked in self._set_choices(slot, first):
            for index in picked:
                counts[index] -= 1
                if not counts[index]:
                    avail[index >> 4] &= ~bits[rank]
            self.rank_count[rank] -= len(picked)
            self.jokers -= size - len(picked)
            self.sets.append((rank, picked, size - len(picked)))
            if self.search_sets_then_runs(slot + 1, rank):
                return True  # the sets stay placed
            self.sets.pop()
            self.jokers += size - len(picked)
            self.rank_count[rank] += len(picked)
            for index in picked:
                if not counts[index]:
                    avail[index >> 4] |= bits[rank]
                counts[index] += 1
        return False

    def _set_choices(self, slot: int, first: int) -> list[tuple[int, list[int]]]:
        """Every choice for set ``slot`` (of rank ``first`` on, where the slot before is
        alike): its rank and the natural cards it takes, least jokers first for each rank."""
        size, cap = spec = self.set_specs[slot]
        if not (slot and self.set_specs[slot - 1] == spec):
            first = 2
        least = self.rules.fewest_naturals(size, self.jokers, cap)
        return [
            (rank, picked)
            for rank in range(first, 15)
            if self.rank_count[rank] >= least
            for picked in self._every_pick(rank, size, least)
        ]

    def _every_pick(self, rank: int, size: int, least: int) -> list[list[int]]:
        """Every choice of ``least`` to ``size`` natural cards of ``rank`` for one set (at
        most one a suit where sets need distinct suits), most cards first.

        Where a set may hold two cards of a suit, the sets after this one take any copies of
        the rank, so picks differ only in what they leave the runs: copies of a card beyond
        those the runs could use (:meth:`_run_copies`) are taken first, and of the picks
        that leave the runs the same, one is tried."""
        counts = self.counts
        # the copies of each suit whose choice matters (a set of distinct suits takes one of
        # a suit at most), and the spare copies, the same whichever is taken
        if self.rules.set_distinct_suits:
            matter = [min(counts[suit * 16 + rank], 1) for suit in range(4)]
            spares = []
        else:
            keep = self._run_copies(rank)
            matter = [min(counts[suit * 16 + rank], keep) for suit in range(4)]
            spares = [
                suit * 16 + rank
                for suit in range(4)
                for _ in range(counts[suit * 16 + rank] - matter[suit])
            ]
        chosen: list[list[int]] = [[]]  # every choice among the copies that matter
        for suit in range(4):
            index = suit * 16 + rank
            chosen = [
                pick + [index] * copies
                for pick in chosen
                for copies in range(matter[suit] + 1)
                if len(pick) + copies <= size
            ]
        picks: list[list[int]] = []
        for taken in range(min(size, len(spares) + sum(matter)), least - 1, -1):
            if taken <= len(spares):
                picks.append(spares[:taken])
            else:
                more = taken - len(spares)
                picks.extend(spares + pick for pick in chosen if len(pick) == more)
        return picks

    def _run_copies(self, rank: int) -> int:
        """The most copies of one card of ``rank`` the contract's runs can hold together. A
        run holds a card once (an ace twice, from ace to ace), so one a run; where runs of
        one suit must be separated no two share a rank, so one in all (an ace two, low in
        one run and high in another)."""
        runs = (
            1
            if self.rules.variant.going_down.same_suit_runs is SameSuitRuns.SEPARATED
            else len(self.run_specs)
        )
        return 2 * runs if rank == ACE else runs

    def shapes(self) -> list[GroupShape]:
        """The groups found, sets then runs (each shape remembered: one is immutable, and a
        hand changing a card at a time keeps most of its groups)."""
        memo = self.rules.memos.of(SHAPES)
        found = []
        for rank, picked, jokers in self.sets:
            key: tuple[object, ...] = (rank, tuple(picked), jokers)
            shape = memo.get(key)
            if shape is None:
                shape = memo[key] = set_shape(rank, picked, jokers)
            found.append(shape)
        for run in self.runs:
            shape = memo.get(run)
            if shape is None:
                shape = memo[run] = run_shape(*run)
            found.append(shape)
        return found


def _stops_early(table: _SuitTable, enough: list[int]) -> bool:
    """Whether the search for a finished ``table`` stops early for ``enough`` (see
    :meth:`_ContractSearch._suit_table`): it stops at the first runs ``c`` found for at most
    ``enough[c]`` jokers, so exactly where the fewest jokers for some ``c`` are that few."""
    for code in range(1, len(table)):
        entry = table[code]
        if entry is not None and entry[0] <= enough[code]:
            return True
    return False


def _clashes(
    clash: Callable[[int, int, int, int], bool],
    start: int,
    length: int,
    chosen: list[tuple[int, int, int, int]],
) -> bool:
    """Whether a run of one suit from ``start`` over ``length`` positions clashes (see
    ``VariantRules.clash``) with one of the runs ``chosen`` of that suit."""
    for other, size, _, _ in chosen:  # noqa: SIM110 - a loop: no generator made each time
        if clash(start, length, other, size):
            return True
    return False


class _OverBudget(Exception):
    """The run-by-run search gave up (see :data:`_RUN_BY_RUN_BUDGET`)."""


# Sets and several runs: the run-by-run search is the quicker on most hands, but with many
# jokers it tries every choice of the natural cards they stand in for, where placing the sets
# first and the runs suit by suit stays quick. It gets this many steps (calls of search_runs,
# some microseconds each) before the other takes over: a count, not a clock, so that the
# answers are reproducible. Measured on random hands, 300 to 1,000 steps serve alike.
_RUN_BY_RUN_BUDGET = 300


def solve_contract(
    counts: list[int], jokers: int, contract: Contract, rules: VariantRules
) -> list[GroupShape] | None:
    if sum(counts) + jokers < contract.min_cards:
        return None
    search = _ContractSearch(rules, counts, jokers, contract)
    if not search.every_run_has_spans():
        return None
    if not search.set_specs and search.run_specs:
        found = search.search_runs_by_suit()
    elif len(search.run_specs) > 1:
        search.budget = _RUN_BY_RUN_BUDGET
        untouched = list(counts)  # a search given up leaves the cards it had taken out
        try:
            found = search.search_runs(0, 0)
        except _OverBudget:
            search = _ContractSearch(rules, untouched, jokers, contract)
            found = search.search_sets_then_runs(0, 2)
    else:
        found = search.search_runs(0, 0)
    if not found:
        return None
    return search.shapes()
