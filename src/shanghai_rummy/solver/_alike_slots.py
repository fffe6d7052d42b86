"""Every way to meet a contract whose slots of each kind are alike (the usual case: "2 sets
of 3 + 1 run of 5"), for :func:`~shanghai_rummy.solver.arrangements`, by parts instead of
one walk over every group the hand can form.

Where ``variant.going_down.exact_meld_count`` holds and the slots of each kind share one
size, a way is exactly ``k`` sets and ``m`` runs that fit the hand together, and any such
choice is accepted (every group listed fits every slot of its kind). Runs of different suits
only share the jokers, and so do sets of different ranks; so the ways are read from small
per-suit and per-rank tables, each the multisets of ``t`` groups that one suit's (or rank's)
cards allow with the jokers they spend, memoised by those cards (a hand changes a card at a
time); a rank's table of sets is the table of any rank held alike, moved to it. The runs are
combined first, then, from the cards they leave, the sets. Every way comes out in canonical
order, as :func:`~shanghai_rummy.solver._general_walk.every_way` gives it. Nothing here is public.
"""

from __future__ import annotations

from collections.abc import Callable

from ..cards import JOKER
from ..contracts import Contract
from ..variants import SameSuitRuns
from ._candidate_groups import NO_POINTS, Candidate, runs_of_suit, sets_of_rank
from ._card_counts import ACE, CARD_AT, JOKER_CODE, packed_counts
from ._memo import MemoKind
from ._variant_rules import Entries, VariantRules

_Choice = tuple[int, tuple[Candidate, ...]]  # jokers spent, the groups in canonical order
_SLOT = 0x7F  # the count bits of one card slot's byte in the packed counts
_REFERENCE_RANK = 2  # the rank a table of sets is worked out at (see _SetShape)


class _Part:
    """The choices of one suit's runs (or one rank's sets): ``by_count[t]`` lists the
    multisets of ``t`` groups with the jokers they spend, ``cheapest[t]`` the fewest jokers
    among them; ``slots``, the card slots any of them takes, as a mask of their bytes in the
    packed counts (see :func:`._general_walk.packed_counts`). Every ``t`` up to ``most`` has a
    choice (fewer groups of a choice are one)."""

    __slots__ = ("by_count", "cheapest", "most", "slots")

    def __init__(
        self,
        by_count: list[list[_Choice]],
        cheapest: list[int] | None = None,
        slots: int | None = None,
    ) -> None:
        self.by_count = by_count
        self.most = len(by_count) - 1
        if cheapest is None:
            cheapest = [min(jokers for jokers, _ in choices) for choices in by_count]
        self.cheapest = cheapest
        if slots is None:  # the card slots its groups take
            slots = 0
            for _, (group,) in by_count[1]:
                for index, _ in group.need:
                    slots |= _SLOT << (index << 3)
        self.slots = slots


class _Plan:
    """What the enumeration reads of one alike-slots contract under one variant: how many
    groups of each kind, their sizes, the jokers each may hold, and the fewest natural cards
    one may hold for each count of jokers in the hand (as in :mod:`._quick_refusals`)."""

    __slots__ = (
        "run_cap",
        "run_least",
        "run_sizes",
        "runs",
        "set_cap",
        "set_least",
        "set_sizes",
        "sets",
    )

    def __init__(self, contract: Contract, rules: VariantRules) -> None:
        def sizes(slots: tuple[int, ...]) -> range:
            return rules.slot_sizes(min(slots, default=0))

        def cap(slots: tuple[int, ...]) -> int:
            return rules.slot_joker_cap(slots[0]) if slots else 0

        def least(size: int, cap: int) -> list[int]:
            # a longer group needs no fewer natural cards (see :mod:`._quick_refusals`)
            return [rules.fewest_naturals(size, jokers, cap) for jokers in range(64)]

        self.sets, self.set_sizes, self.set_cap = (
            len(contract.sets),
            sizes(contract.sets),
            cap(contract.sets),
        )
        self.runs, self.run_sizes, self.run_cap = (
            len(contract.runs),
            sizes(contract.runs),
            cap(contract.runs),
        )
        self.set_least = least(self.set_sizes.start, self.set_cap)
        self.run_least = least(self.run_sizes.start, self.run_cap)


PLANS: MemoKind[int, tuple[Contract, _Plan | None]] = MemoKind("alike-slots plans", 256)
"""The plan of each contract (by identity: one object per requirement, see
``solver._smaller``)."""
PARTS: MemoKind[tuple[object, ...], _Part | None] = MemoKind(
    "per-suit runs and per-rank sets", 1 << 14
)
"""The choices of one suit's runs or one rank's sets, by what they depend on."""
SET_SHAPES: MemoKind[tuple[object, ...], _SetShape | None] = MemoKind(
    "sets by how a rank is held", 1 << 12
)
"""One rank's table of sets by how the rank is held, whatever the rank."""
CANDIDATES: MemoKind[tuple[int, ...], Candidate] = MemoKind("contract candidates", 1 << 16)
"""The contract candidates by key (a contract counts no points)."""


def plan_of(contract: Contract, rules: VariantRules) -> _Plan | None:
    """The plan of ``contract``, or None when it is not an alike-slots contract."""
    memo = rules.memos.of(PLANS)
    cached = memo.get(id(contract))
    if cached is not None and cached[0] is contract:
        return cached[1]
    alike = (
        rules.variant.going_down.exact_meld_count
        and len(set(contract.sets)) <= 1
        and len(set(contract.runs)) <= 1
    )
    plan = _Plan(contract, rules) if alike else None
    memo[id(contract)] = (contract, plan)
    return plan


def contract_ways(
    counts: list[int], jokers: int, contract: Contract, rules: VariantRules
) -> list[tuple[Candidate, ...]] | None:
    """Every way to meet ``contract`` with the counted cards, each in canonical order (in no
    particular order overall); None when ``contract`` is not an alike-slots contract under
    ``rules`` (the caller then walks every way)."""
    plan = plan_of(contract, rules)
    if plan is None:
        return None
    return _ways(counts, jokers, plan, rules, _UNBOUNDED)


def few_contract_ways(
    counts: list[int], jokers: int, contract: Contract, rules: VariantRules, most: int
) -> list[tuple[Candidate, ...]] | None:
    """:func:`contract_ways`, where there are at most ``most`` ways and no table of choices
    it builds on the way holds more: None otherwise (or where ``contract`` is not an
    alike-slots contract). The work is bounded by ``most``, whatever the hand."""
    plan = plan_of(contract, rules)
    if plan is None:
        return None
    try:
        return _ways(counts, jokers, plan, rules, most)
    except _TooMany:
        return None


class _TooMany(Exception):
    """A table of choices (or of ways) outgrew the bound it was built under."""


_UNBOUNDED = 1 << 62


def _ways(
    counts: list[int], jokers: int, plan: _Plan, rules: VariantRules, most: int
) -> list[tuple[Candidate, ...]]:
    """:func:`contract_ways` of an alike-slots contract's plan, no table over ``most``."""
    set_choices: list[_Choice] = [(0, ())]
    shared = 0  # the card slots some sets may take
    if plan.sets:
        set_parts = _set_parts(counts, jokers, plan, rules, most)
        set_choices = _combine(set_parts, plan.sets, jokers, most)
        if not set_choices:
            return []  # the runs could only take cards away from the sets
        for set_part in set_parts:
            shared |= set_part.slots
    if not plan.runs:
        return [sets for _, sets in set_choices]
    run_parts = [
        part
        for suit in range(4)
        if (part := _run_part(counts, suit, jokers, plan, rules, most)) is not None
    ]
    run_choices = _combine(run_parts, plan.runs, jokers, most)
    if not plan.sets:
        return [runs for _, runs in run_choices]
    runs_take = 0
    for run_part in run_parts:
        runs_take |= run_part.slots
    return _join(counts, jokers, set_choices, run_choices, shared & runs_take, most)


def _join(
    counts: list[int],
    jokers: int,
    set_choices: list[_Choice],
    run_choices: list[_Choice],
    shared: int,
    most: int,
) -> list[tuple[Candidate, ...]]:
    """Every pair of a choice of sets and one of runs that the hand holds together: each
    side fits the hand alone, so only the cards both may take (``shared``, a mask of slots in
    the packed counts) and the jokers are checked."""
    guard, free = packed_counts(counts)
    set_takes: list[int] = []
    ways: list[tuple[Candidate, ...]] = []
    # many runs take the same of those cards: their sets are found once
    known: dict[tuple[int, int], list[tuple[Candidate, ...]]] = {}
    for spent, runs in run_choices:
        taken = _needs(runs) & shared
        key = (taken, spent)
        fitting = known.get(key)
        if fitting is None:
            budget = jokers - spent
            if not taken:
                fitting = [sets for used, sets in set_choices if used <= budget]
            else:
                if not set_takes:
                    set_takes = [_needs(sets) & shared for _, sets in set_choices]
                left = free - taken
                fitting = [
                    sets
                    for (used, sets), takes in zip(set_choices, set_takes, strict=True)
                    if used <= budget and (left - takes) & guard == guard
                ]
            known[key] = fitting
        ways.extend(sets + runs for sets in fitting)
        if len(ways) > most:
            raise _TooMany
    return ways


def _needs(groups: tuple[Candidate, ...]) -> int:
    """The natural cards ``groups`` take together, packed a byte a card slot."""
    return sum(group.packed for group in groups)


# --- combining the parts ----------------------------------------------------------------------


def _combine(parts: list[_Part], wanted: int, budget: int, most: int) -> list[_Choice]:
    """Every choice of ``wanted`` groups in all, some from each of some parts, that spends
    at most ``budget`` jokers; a part's groups follow the earlier parts' groups (_TooMany
    where the choices of some total outnumber ``most``)."""
    supply = [0] * (len(parts) + 1)  # the most groups the parts from i on can give
    for i in range(len(parts) - 1, -1, -1):
        supply[i] = supply[i + 1] + parts[i].most
    # by_total[t]: the choices of t groups from the parts so far, grown a part at a time;
    # the larger totals first, so each grows from choices without this part's groups
    nothing: tuple[Candidate, ...] = ()
    by_total: list[list[_Choice]] = [[(0, nothing)]] + [[] for _ in range(wanted)]
    for part, later in zip(parts, supply[1:], strict=True):
        for total in range(wanted, 0, -1):
            if total + later < wanted:
                break  # the parts left could not complete it (nor fewer groups)
            grown = by_total[total]
            for count in range(1, min(total, part.most) + 1):
                cheapest, choices = part.cheapest[count], part.by_count[count]
                for spent, chosen in by_total[total - count]:
                    room = budget - spent
                    if cheapest <= room:
                        grown.extend(
                            (spent + jokers, chosen + groups)
                            for jokers, groups in choices
                            if jokers <= room
                        )
                        if len(grown) > most:
                            raise _TooMany
    return by_total[wanted]


# --- the parts: runs per suit, sets per rank --------------------------------------------------


def _run_part(
    counts: list[int], suit: int, jokers: int, plan: _Plan, rules: VariantRules, most: int
) -> _Part | None:
    """The choices of up to ``plan.runs`` runs of ``suit``; None when it has none."""
    base = suit * 16
    held = tuple(counts[base + 2 : base + 15])
    naturals = sum(held)
    if naturals < plan.run_least[min(jokers, 63)]:
        return None
    room = _useful_jokers(jokers, naturals, rules)
    key = (1, suit, held, room, plan.runs, plan.run_sizes, plan.run_cap)
    memo = rules.memos.of(PARTS)
    if key not in memo:
        memo[key] = _suit_runs(suit, counts, naturals, room, plan, rules, most)
    return memo[key]


def _suit_runs(
    suit: int,
    counts: list[int],
    naturals: int,
    jokers: int,
    plan: _Plan,
    rules: VariantRules,
    bound: int,
) -> _Part | None:
    """The choices of runs of ``suit`` (``naturals`` cards of it) and ``jokers`` jokers
    (_TooMany where those of some count outnumber ``bound``)."""
    avail = 0
    for rank in range(2, 15):
        if counts[suit * 16 + rank]:
            avail |= rules.rank_positions[rank]
    one_ace = counts[suit * 16 + ACE] == 1
    room = min(jokers, plan.run_cap)
    entries = runs_of_suit(suit, avail, one_ace, room, rules, plan.run_sizes)
    candidates = _contract_candidates(entries, rules)
    most = _most(plan.runs, naturals + jokers, plan.run_sizes)
    if rules.variant.going_down.same_suit_runs is SameSuitRuns.ALLOWED:
        return _multisets(candidates, counts, jokers, most, None, bound)
    clashes = rules.clash

    def clash(chosen: tuple[Candidate, ...], run: Candidate) -> bool:
        return any(clashes(other.start, other.size, run.start, run.size) for other in chosen)

    return _multisets(candidates, counts, jokers, most, clash, bound)


def _set_parts(
    counts: list[int], jokers: int, plan: _Plan, rules: VariantRules, most: int
) -> list[_Part]:
    """The choices of up to ``plan.sets`` sets of each rank that has some, by rank (no
    table over ``most``)."""
    least = plan.set_least[min(jokers, 63)]
    memo = rules.memos.of(PARTS)
    parts = []
    for rank in range(2, 15):
        held = (counts[rank], counts[16 + rank], counts[32 + rank], counts[48 + rank])
        naturals = 4 - held.count(0) if rules.set_distinct_suits else sum(held)
        if naturals < least:
            continue
        room = _useful_jokers(jokers, sum(held), rules)
        key = (0, rank, held, room, plan.sets, plan.set_sizes, plan.set_cap)
        if key not in memo:
            shape = _set_table_of(held, room, plan, rules, most)
            memo[key] = None if shape is None else shape.at(rank, rules)
        part = memo[key]
        if part is not None:
            parts.append(part)
    return parts


def _set_table_of(
    held: tuple[int, ...], room: int, plan: _Plan, rules: VariantRules, bound: int
) -> _SetShape | None:
    """The choices of sets of a rank held as ``held`` (copies of each suit) with ``room``
    jokers, worked out once at the reference rank for every rank held the same way; None
    when there is none."""
    key = (held, room, plan.sets, plan.set_sizes, plan.set_cap)
    shapes = rules.memos.of(SET_SHAPES)
    if key not in shapes:
        rank = _REFERENCE_RANK
        kinds = [1 if count else 0 for count in held] if rules.set_distinct_suits else list(held)
        entries = sets_of_rank(rank, kinds, min(room, plan.set_cap), rules, plan.set_sizes)
        counts = [0] * 64
        counts[rank::16] = held
        most = _most(plan.sets, sum(held) + room, plan.set_sizes)
        part = _multisets(_contract_candidates(entries, rules), counts, room, most, None, bound)
        shapes[key] = None if part is None else _SetShape(part)
    return shapes[key]


class _SetShape:
    """One rank's table of sets (a :class:`_Part`), kept by how the rank is held rather than
    by the rank: sets of two ranks held alike differ only in their rank, so the table of any
    rank is the reference rank's with every set moved to it. Moving is a lookup once each set
    has been moved to that rank, where building a table enumerates and checks every set."""

    __slots__ = ("choices", "part", "sets")

    def __init__(self, part: _Part) -> None:
        self.part = part
        self.sets = [group for _, (group,) in part.by_count[1]]
        number = {group: index for index, group in enumerate(self.sets)}
        self.choices = [
            [(jokers, tuple(map(number.__getitem__, groups))) for jokers, groups in choices]
            for choices in part.by_count[1:]
        ]

    def at(self, rank: int, rules: VariantRules) -> _Part:
        """The table of ``rank``."""
        part = self.part
        if rank == _REFERENCE_RANK:
            return part
        moved = [_moved_set(group, rank, rules) for group in self.sets]
        nothing: tuple[Candidate, ...] = ()
        by_count: list[list[_Choice]] = [[(0, nothing)]]
        by_count.append([(jokers, (moved[index],)) for jokers, (index,) in self.choices[0]])
        for choices in self.choices[1:]:
            by_count.append(
                [(jokers, tuple(map(moved.__getitem__, indexes))) for jokers, indexes in choices]
            )
        return _Part(by_count, part.cheapest, part.slots << ((rank - _REFERENCE_RANK) << 3))


def _moved_set(group: Candidate, rank: int, rules: VariantRules) -> Candidate:
    """The set of ``rank`` with the suits and jokers of ``group`` (of the reference rank)."""
    moved = group.moved
    if moved is None:
        moved = group.moved = [None] * 15
    found = moved[rank]
    if found is None:
        shift = rank - _REFERENCE_RANK
        codes = [code if code == JOKER_CODE else code + shift for code in group.codes]
        key = (0, rank, *codes)
        made = rules.memos.of(CANDIDATES)
        found = made.get(key)
        if found is None:
            cards = tuple(JOKER if code == JOKER_CODE else CARD_AT[code] for code in codes)
            found = made[key] = Candidate(key, cards, NO_POINTS, {})
        moved[rank] = found
    return found


def _most(wanted: int, cards: int, sizes: range) -> int:
    """How many of the ``wanted`` groups of a size in ``sizes`` one suit or rank can give
    from ``cards`` cards, jokers included, at most."""
    return min(wanted, cards // sizes.start)


def _useful_jokers(jokers: int, naturals: int, rules: VariantRules) -> int:
    """The jokers that groups of ``naturals`` natural cards may spend in all: no more than
    those cards where ``variant.jokers.at_most_naturals`` holds (a smaller memo key)."""
    return min(jokers, naturals) if rules.at_most_naturals else jokers


def _contract_candidates(entries: Entries, rules: VariantRules) -> list[Candidate]:
    """The candidates of ``entries`` in key order, each made once per variant (a contract
    counts no points, so a candidate depends on its key alone)."""
    made = rules.memos.of(CANDIDATES)
    found = []
    for key, cards in sorted(entries):
        candidate = made.get(key)
        if candidate is None:
            candidate = made[key] = Candidate(key, cards, NO_POINTS, {})
        found.append(candidate)
    return found


def _multisets(
    candidates: list[Candidate],
    counts: list[int],
    jokers: int,
    most: int,
    clash: Callable[[tuple[Candidate, ...], Candidate], bool] | None,
    bound: int,
) -> _Part | None:
    """The multisets of up to ``most`` of ``candidates`` (in their order) that the counted
    cards and ``jokers`` allow together, and where ``clash`` says no pair clashes; None when
    there is none (_TooMany where those of some count outnumber ``bound``)."""
    guard, free = packed_counts(counts)
    alone = [
        candidate
        for candidate in candidates
        if candidate.jokers <= jokers and (free - candidate.packed) & guard == guard
    ]
    if not alone or most < 1:
        return None
    if len(alone) > bound:
        raise _TooMany
    nothing: tuple[Candidate, ...] = ()
    if most == 1:
        return _Part([[(0, nothing)], [(candidate.jokers, (candidate,)) for candidate in alone]])
    by_count: list[list[_Choice]] = [[(0, nothing)]] + [[] for _ in range(most)]
    # as bits of their numbers: the candidates that take each card slot, and those that
    # spend at most k jokers; a group whose card slot is used up is never tried
    taking: dict[int, int] = {}
    spending = [0] * (jokers + 1)
    for number, candidate in enumerate(alone):
        bit = 1 << number
        spending[candidate.jokers] |= bit
        for slot, _ in candidate.need:
            taking[slot] = taking.get(slot, 0) | bit
    for spent in range(1, jokers + 1):
        spending[spent] |= spending[spent - 1]

    def grow(
        first: int, spent: int, chosen: tuple[Candidate, ...], free: int, used_up: int
    ) -> None:
        open_ = spending[jokers - spent] >> first << first & ~used_up
        while open_:
            low = open_ & -open_
            open_ ^= low
            number = low.bit_length() - 1
            candidate = alone[number]
            left = free - candidate.packed
            if left & guard != guard:
                continue
            if clash is not None and clash(chosen, candidate):
                continue
            grown = (*chosen, candidate)
            total = spent + candidate.jokers
            choices = by_count[len(grown)]
            choices.append((total, grown))
            if len(choices) > bound:
                raise _TooMany
            if len(grown) < most:
                now_used_up = used_up
                for slot, _ in candidate.need:
                    if not left >> (slot << 3) & _SLOT:  # no copy of it left
                        now_used_up |= taking[slot]
                grow(number, total, grown, left, now_used_up)

    grow(0, 0, (), free, 0)
    while not by_count[-1]:  # a subset of a choice is a choice: only the top can be empty
        by_count.pop()
    return _Part(by_count)
